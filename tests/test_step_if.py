"""A step's `if:` (tests/valid/bid_then_play.yaml; its rules scenarios are
tests/scenarios/phases/): read as the step begins, so a step offered again (round the
table, or after each play) runs to its end though its `if:` stops holding."""

from pathlib import Path

from gamekit import edited

from rulespec import load_spec
from rulespec.interpreter import Game, State

SPEC = Path(__file__).parent / "valid" / "bid_then_play.yaml"


def test_a_ring_goes_on_to_its_end_once_its_if_stops_holding():
    """A raise to 2 shuts the auction's `if:`; the others are still asked, in turn."""
    text = edited(
        SPEC.read_text(encoding="utf-8"),
        ("      bidder = current\n", "      bidder = current\n      if bid == 2 { bidding = 0 }\n"),
    )
    state = State.from_layout(
        Game(load_spec("bid.yaml", text), 3),
        zones={"hand[P1]": ["low"], "hand[P2]": ["high"], "hand[P3]": ["low"]},
    )
    state.apply_action("raise")
    state.apply_action("raise")
    assert state.observation(None)["counters"]["bidding"] == 0
    assert (state.current_player(), state.legal_labels()) == (
        2,
        ["pass", "raise"],
    )
    state.apply_action("pass")
    state.apply_action("pass")  # all but the last to raise: the close is skipped, P1 plays
    assert state.legal_labels() == ["play low"]
