"""A play step offered again with only `pass` left asks for it (it used to end unasked,
telling every seat the hand held nothing playable). The agents take that pass as part
of the play before it (search.passed_alone): their games on specs with `repeat` and
`again_if` steps are those they played before the pass was asked. tests/passed_alone.json
holds digests of those games as f644d83 played them (every event but the choices,
passes and no_plays, and the result), but for the fish and melds games made again when
cards moved together out of a hand came to go in deck order: the same games, their
moves listing the cards in another order.

    python tests/test_passed_alone.py   # prints the digests of this engine's games
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILE = Path(__file__).with_name("passed_alone.json")
CASES = [
    ("creatures", "greedy", range(6)),
    ("two_plays", "greedy", range(6)),
    ("fish", "greedy", range(6)),
    ("turn_taking", "ismcts:iterations=30", range(2)),
    ("melds", "ismcts:iterations=30", range(2)),
    ("building_piles", "ismcts:iterations=30", range(2)),
]


def digest(spec: str, agents: str, seed: int) -> str:
    from rulespec import load_spec
    from rulespec.interpreter import Game
    from rulespec.interpreter.agents import make_agents, play

    game = Game(load_spec(ROOT / "tests" / "valid" / f"{spec}.yaml"), 2)
    state = play(game.new_initial_state(seed=seed), make_agents([agents], 2, seed))
    events = [e for e in state.log_for(None) if e["event"] not in ("choice", "pass", "no_play")]
    text = json.dumps([events, state.result], sort_keys=True, default=sorted)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _cases():
    return [(s, a, seed) for s, a, seeds in CASES for seed in seeds]


@pytest.mark.parametrize("spec, agents, seed", _cases())
def test_agents_play_the_games_they_played_before_the_pass_was_asked(spec, agents, seed):
    kept = json.loads(FILE.read_text())
    assert digest(spec, agents, seed) == kept[f"{spec} {agents} {seed}"]


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print(json.dumps({f"{s} {a} {seed}": digest(s, a, seed) for s, a, seed in _cases()}, indent=1))
