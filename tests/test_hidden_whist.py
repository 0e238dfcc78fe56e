"""Whist's hidden information (issue 14): over 200 seeded games, no observation or
per-seat log of a seat shows another seat's hand, a card of the stock, or a card of the
other side's won tricks; the dealer's turned-up card is shown to all only while it
lies in the dealer's hand (WH-3), and a side's tricks to both partners (WH-5).

The checker is tests/test_hidden_information.py's Watcher: its own model of what each
seat may know, from the spec's zones and teams and the omniscient log."""

from pathlib import Path

import pytest
from test_hidden_information import Watcher, watched_play

from rulespec import load_spec
from rulespec.interpreter import Game

SPEC = Path(__file__).parent.parent / "games" / "whist.yaml"
GAME = Game(load_spec(str(SPEC)), 4)
FOLLOW_EVERY = 40  # every 40th game is checked after every decision; all at the end, logs included


@pytest.mark.parametrize(
    "first",  # 60 games everyday, the other 140 in the slow step
    [*range(0, 60, 20), *(pytest.param(f, marks=pytest.mark.slow) for f in range(60, 200, 20))],
)
def test_no_seat_is_shown_a_card_hidden_from_it(first):
    for seed in range(first, first + 20):
        state = watched_play(GAME, seed, follow=seed % FOLLOW_EVERY == 0)
        assert state.is_terminal() and len(state.winners) == 2


def test_a_partner_sees_the_sides_tricks_and_the_other_side_does_not():
    """Mid-deal, after some tricks: P1 and P3 see north_south's tricks card by card,
    P2 and P4 know them only as cards they saw played there; the watcher agrees at
    every step."""
    watcher = Watcher(GAME)
    state = GAME.new_initial_state(seed=5)
    while state.turn < 30 or state.is_chance_node():
        if state.is_chance_node():
            state.sample_chance()
        else:
            state.apply_action(state.legal_actions()[0])
        watcher.step(state)
    tricks = state.observation(None)["zones"]["tricks[north_south]"]
    assert tricks, "north_south has taken no trick by turn 30 of seed 5"
    assert state.observation(0)["zones"]["tricks[north_south]"] == tricks
    assert state.observation(2)["zones"]["tricks[north_south]"] == tricks
    # east_west do not see the pile; they know the cards, as they saw them played
    assert state.observation(1)["zones"]["tricks[north_south]"] == {
        "count": len(tricks),
        "revealed": [{"card": c} for c in sorted(tricks)],
    }
    watcher.check_logs(state)
