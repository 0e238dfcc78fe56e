"""OpenSpiel's information-state strings are what they were: seeded games of every
bundled game, played through rulespec.spiel with clones and a re-dealt world, each kept
as a digest of every seat's string at every step. tests/information_strings.json holds
the digests made at the commit it names (before the strings were built by
State.information_key); the test plays the games again and compares. Skipped unless the
`openspiel` extra is installed.

    python tests/test_information_key.py   # writes tests/information_strings.json anew
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILE = Path(__file__).with_name("information_strings.json")
SEEDS = 2  # games per bundled game, at its default player count
STEPS = 150  # the first decisions of each, chance's included


def digest(name: str, seed: int) -> str:
    """Every seat's information-state string at each of the game's first STEPS steps,
    on a clone every few steps, and in a world re-dealt for the seat to act midway."""
    import pyspiel

    from rulespec import load_spec
    from rulespec.spiel import register

    path = ROOT / "games" / f"{name}.yaml"
    players = load_spec(path).default_players
    game = pyspiel.load_game(register(path), {"players": players})
    state, rng, seen = game.new_initial_state(), random.Random(seed), hashlib.sha256()

    def strings(of) -> None:
        for seat in range(players):
            seen.update(of.information_state_string(seat).encode() + b"\0")

    for step in range(STEPS):
        strings(state)
        if state.is_terminal():
            break
        if step % 7 == 3:  # the lines made so far go with a clone
            state = state.clone()
        if step == STEPS // 2:
            seat = max(state.current_player(), 0)
            strings(state.resample_from_infostate(seat, lambda: 0.25))
        chance = state.is_chance_node()
        actions = [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
        state.apply_action(rng.choice(actions))
    return seen.hexdigest()[:16]


def _names() -> list[str]:
    return sorted(p.stem for p in (ROOT / "games").glob("*.yaml"))


@pytest.mark.parametrize("name", _names())
def test_openspiel_information_state_strings_are_unchanged(name):
    pytest.importorskip("pyspiel")
    kept = json.loads(FILE.read_text())["games"]
    assert [digest(name, seed) for seed in range(SEEDS)] == kept[name]


def main() -> None:
    from golden import write

    write(FILE, {name: [digest(name, seed) for seed in range(SEEDS)] for name in _names()})


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
