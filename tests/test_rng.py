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


def test_a_state_given_an_rng_draws_its_chance_from_it():
    """`new_initial_state(seed, rng=r)` draws every chance outcome from r, not from a
    Random(seed) of its own (OpenSpiel's states, whose chance is named by actions, skip
    seeding one): the game of Random(9) given is the game of seed 9."""
    from gamekit import GAMES

    from rulespec import load_spec
    from rulespec.interpreter import Game

    game = Game(load_spec(GAMES / "take_the_gold.yaml"), 2)
    given = random.Random(9)
    a, b = game.new_initial_state(0, rng=given), game.new_initial_state(9)
    while not b.is_terminal():
        assert a.observation(None) == b.observation(None)
        if b.is_chance_node():
            assert a.sample_chance().label == b.sample_chance().label
        else:
            a.apply_action(b.legal_labels()[-1])
            b.apply_action(b.legal_labels()[-1])
    assert a.is_terminal() and a.result == b.result
    assert given.getstate() != random.Random(9).getstate()  # it was drawn from
