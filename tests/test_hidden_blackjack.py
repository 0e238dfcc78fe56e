"""Hidden information in Blackjack (issue 14's acceptance): over 200 seeded games of
1 to 6 players, no observation or per-seat log of a seat holds a card hidden from it:
the shoe, and above all the dealer's face-down hole card before it is turned up (BJ-5).
A bet is a number choice, hidden in the other seats' logs as a choice; the counter it
sets is public by the rules (BJ-3).

Every game is checked after every decision: each zone a seat cannot see shows it a
count and nothing more. Every twentieth game is also followed by the generic checker of
tests/test_hidden_information.py (its own model of what each seat may know, slower),
and every game's per-seat logs go through that checker's log rules.
"""

import pytest
from gamekit import GAMES
from test_hidden_information import Watcher, watched_play

from rulespec import load_spec
from rulespec.interpreter import Game
from rulespec.interpreter.agents import make_agents, play

SPEC = load_spec(str(GAMES / "blackjack.yaml"))
BY_COUNT = {n: Game(SPEC, n) for n in range(1, 7)}
HIDDEN_FROM_ALL = {"shoe", "hole"}


def only_counts(game: Game):
    """A step check: what a seat cannot see is a count, never a card (but for the
    discards that went into the shoe face up: a shuffle changes their order, not the
    shoe's cards)."""
    watcher = Watcher(game)

    def check(state) -> None:
        for seat in range(game.n):
            for label, shown in state.observation(seat)["zones"].items():
                if label == "shoe":  # the discards went in face up: known to all
                    assert set(shown) <= {"count", "revealed"}, (seat, label, shown)
                    if not state.is_chance_node():  # shuffled: their places are gone
                        assert all(set(c) == {"card"} for c in shown.get("revealed", ())), shown
                elif label in HIDDEN_FROM_ALL or not watcher.sees(label, seat):
                    assert set(shown) == {"count"}, (seat, label, shown)

    return watcher, check


def hole_cards_named(state, seat) -> list[dict]:
    """The moves into the hole whose cards `seat`'s log names."""
    return [
        e for e in state.log_for(seat) if e["event"] == "move" and e["dst"] == "hole" and e["cards"]
    ]


# the first block every day; the other 150 games in the slow step (the suite keeps to 3 minutes)
@pytest.mark.parametrize(
    "block", [0] + [pytest.param(b, marks=pytest.mark.slow) for b in range(1, 4)]
)
def test_no_seat_sees_the_hole_card_or_the_shoe(block):
    """50 games a block, 200 in all, with 1 to 6 players in turn."""
    for seed in range(block * 50, block * 50 + 50):
        game = BY_COUNT[seed % 6 + 1]
        if seed % 20 == 0:
            state = watched_play(game, seed)
        else:
            watcher, check = only_counts(game)
            state = game.new_initial_state(seed=seed)
            check(state)
            state = play(state, make_agents(["random"], game.n, seed), check)
            watcher.check_logs(state)
        assert state.is_terminal()
        assert all(hole_cards_named(state, seat) == [] for seat in range(game.n))
        assert hole_cards_named(state, None), "the spectator sees the hole: the check bites"
        secret = [
            e for e in state.log_for(None) if e["event"] == "choice" and e["kind"] == "number"
        ]
        assert secret, "bets are number choices"
