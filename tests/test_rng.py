"""interpreter/rng.py draws what random.Random's own methods draw, from the same stream:
a seed gives the same game whichever the engine calls (C-2)."""

import random

import pytest

from rulespec.interpreter import rng


@pytest.mark.parametrize("seed", [0, 1, 7, "3/2", 2**70])
def test_randbelow_is_randrange(seed):
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 52, 63, 64, 65, 1000, 2**40 + 3] * 20:
        assert rng.randbelow(ours.getrandbits, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 52, 114, 312])
def test_shuffle_is_random_shuffle(size):
    ours, theirs = random.Random(size), random.Random(size)
    a, b = list(range(size)), list(range(size))
    for _ in range(5):
        rng.shuffle(ours.getrandbits, a)
        theirs.shuffle(b)
        assert a == b
    assert ours.getstate() == theirs.getstate()
