"""Draws from a `random.Random` stream, exactly as CPython's own methods draw them.

A game is reproducible from its seed (C-2): chance draws from `random.Random(seed)` and
each seat's agent from its own `random.Random`. `Random.randrange(n)` and
`Random.shuffle` check their arguments and dispatch before they draw, which costs more
than the draw itself on the hot path of a simulation. These take the same numbers from
the same stream through `getrandbits` (CPython's `_randbelow_with_getrandbits`), so a
seed gives the same game either way (tests/test_rng.py compares them).
"""

from __future__ import annotations


def randbelow(getrandbits, n: int) -> int:
    """Random.randrange(n), for n >= 1, drawn through the stream's getrandbits."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(getrandbits, cards: list) -> None:
    """Random.shuffle(cards), in place."""
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
