"""The engine plays every reference game as it did when tests/golden.json was made (at
the commit it names): the same seed, spec, variant, players and agents give the same
game, event by event (see tests/golden.py)."""

import json

import pytest
from golden import FILE, cases, digest, key

GOLDEN = json.loads(FILE.read_text())["games"]


def _kept_cases() -> list:
    """The games of golden.json, grouped as cases() groups them (read from the file, not
    from the specs: compiling every game and variant at collection would cost each test
    process a second; test_every_reference_game_is_kept holds the two the same)."""
    seeds: dict[tuple, list[int]] = {}
    for name in GOLDEN:
        spec, variant, players, agents, seed = name.split(" ")
        case = (spec, None if variant == "-" else variant, int(players), agents)
        seeds.setdefault(case, []).append(int(seed))
    return [pytest.param(*case, found, id=key(*case, "*")) for case, found in seeds.items()]


CASES = _kept_cases()
EVERYDAY = 2  # seeds of a case the everyday suite plays; the slow step plays the rest


def _split(case) -> list:
    """The case's first EVERYDAY seeds, and the rest marked slow."""
    *values, seeds = case.values
    first = [pytest.param(*values, seeds[:EVERYDAY], id=case.id)]
    if len(seeds) <= EVERYDAY:
        return first
    rest = pytest.param(*values, seeds[EVERYDAY:], id=f"{case.id} rest", marks=pytest.mark.slow)
    return [*first, rest]


def test_every_reference_game_is_kept():
    assert {key(*case[:4], s) for case in cases() for s in case[4]} == set(GOLDEN)


@pytest.mark.parametrize(
    "spec, variant, players, agents, seeds", [p for c in CASES for p in _split(c)]
)
def test_a_reference_game_plays_as_it_did(spec, variant, players, agents, seeds):
    for seed in seeds:
        name = key(spec, variant, players, agents, seed)
        assert digest(spec, variant, players, agents, seed) == GOLDEN[name], name


@pytest.mark.parametrize(
    "spec, variant, players, agents, seeds",
    [c for c in CASES if c.values[3] == "random"],
)
def test_a_game_that_keeps_no_seat_views_plays_as_it_did(spec, variant, players, agents, seeds):
    """What a simulation plays (views=False, no seat's knowledge kept) is the same game:
    the log, every seat's log, the result."""
    for seed in seeds[:1]:
        name = key(spec, variant, players, agents, seed)
        assert digest(spec, variant, players, agents, seed, views=False) == GOLDEN[name], name
