"""RL136 (rulespec.analysis.per_team): a per-team counter or zone changed with the player
of a loop over seats, the same way for more than one player of a side. A Euchre trial's
defenders scored twice: `for q in seats { if q != maker and q not in partners(maker)
{ score(q) += 2 } }`. Each case rewrites tests/valid/lone_hand.yaml's defenders'
scoring; tests/lint/lh_*.yaml and pt_*.yaml are the fixtures docs/lint.md shows."""

from __future__ import annotations

import pytest
from gamekit import ROOT

from rulespec.analysis.lint import static
from rulespec.lang.pipeline import load_spec

BASE = (ROOT / "tests" / "valid" / "lone_hand.yaml").read_text(encoding="utf-8")
SCORED = "for q in sides { if q not in team(maker) { score(q) += 2 } }"

SCORED_TWICE = {
    "a loop over seats": "for q in seats { score(q) += 2 }",
    "the makers over players": "for q in players { if q in team(maker) { score(q) += 1 } }",
    "a test of the side's own counter": "for q in seats { if score(q) > 2 { score(q) += 1 } }",
    "the else of q == maker": "for q in seats { if q == maker { score(q) += 1 } else { score(q) += 2 } }",
    "not (q == maker)": "for q in seats { if not (q == maker) { score(q) += 1 } }",
    "a raise written out": "for q in seats { score(q) = score(q) + 1 }",
    "a let of the side's counter": "for q in seats { let n = score(q) * 2\n        score(q) += n }",
    "an inner loop of numbers": "for q in seats { for i in range(2) { score(q) += 1 } }",
    "a loop over others": "for q in others(maker) { score(q) += 1 }",
    "a loop over a filter of seats": "for q in filter(points(r) > 0 for r in seats) { score(q) += 1 }",
    "a loop over a team": "for q in team(maker) { score(q) += 1 }",
    "a test of the team's players": (
        "for q in seats { if any(points(r) > 0 for r in team(q)) { score(q) += 1 } }"
    ),
}

SCORED_ONCE = {
    "a loop over sides": "for q in sides { score(q) += 1 }",
    "q == maker": "for q in seats { if q == maker { score(q) += 1 } }",
    "the maker's team but the maker": (
        "for q in seats { if q in team(maker) and q != maker { score(q) += 1 } }"
    ),
    "the maker's partners": "for q in seats { if q in partners(maker) { score(q) += 1 } }",
    "a test of each player's own counter": "for q in seats { if points(q) > 2 { score(q) += 1 } }",
    "q in sides": "for q in seats { if q in sides { score(q) += 1 } }",
    "each player's points added": "for q in seats { score(q) += points(q) }",
    "a let of each player's points": "for q in seats { let n = points(q)\n        score(q) += n }",
    "an inner loop over each hand": "for q in seats { for c in hand(q) { score(q) += 1 } }",
    "a number each player chooses": "for q in seats { choose(q) n from 1..2 { score(q) += n } }",
    "set, not raised": "for q in seats { score(q) = 0 }",
    "the maker's side, not q's": "for q in seats { score(maker) += 1 }",
    "a loop over partners of two-seat teams": "for q in partners(maker) { score(q) += 1 }",
}


def _rl136(scoring: str) -> list[str]:
    spec = load_spec("lone_hand.yaml", BASE.replace(SCORED, scoring))
    return [f.message for f in static(spec) if f.code == "RL136"]


@pytest.mark.parametrize("scoring", SCORED_TWICE.values(), ids=SCORED_TWICE)
def test_a_side_changed_once_for_each_of_its_players_is_rl136(scoring):
    assert len(_rl136(scoring)) == 1


@pytest.mark.parametrize("scoring", SCORED_ONCE.values(), ids=SCORED_ONCE)
def test_a_change_one_player_of_a_side_makes_or_that_tells_them_apart_is_not(scoring):
    assert _rl136(scoring) == []


def test_the_message_names_the_counter_the_loop_and_its_player():
    assert _rl136(
        "for q in seats { if q != maker and q not in partners(maker) { score(q) += 2 } }"
    ) == [
        "round 'scoring': per-team counter 'score' is changed with 'q', the player of a loop "
        "over seats, the same way for more than one player of a side: the side's 'score' "
        "changes once for each of them"
    ]
