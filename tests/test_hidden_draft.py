"""Moon Garden's hidden information (issue 14): over 200 seeded games, no observation or
per-seat log of a seat holds another seat's hand, a hand passed face down, or a
simultaneous pick before all the picks are laid face up. The checker is the one of
tests/test_hidden_information.py, which keeps its own model of what each seat may know."""

import pytest
from gamekit import GAMES
from test_hidden_information import Watcher

from rulespec import load_spec
from rulespec.interpreter import Game
from rulespec.interpreter.agents import make_agents, play

SPEC = load_spec(GAMES / "draft.yaml")


class PickWatcher(Watcher):
    """Also asserts that while a player is asked for a pick, no card has been laid in a
    garden since the turn began: the picks are laid only once all are in."""

    laid = False

    def _learn(self, e: dict) -> None:
        super()._learn(e)
        if e["event"] == "turn":
            self.laid = False
        elif e["event"] == "move" and e["dst"].startswith("garden["):
            self.laid = True

    def step(self, state) -> None:
        super().step(state)
        assert not (state.decision_kind() == "card" and self.laid), state.log_for(None)[-3:]


# 40 games an item, so xdist spreads the 200 over its workers
# the first 40 games every day; the other 160 in the slow step (the suite keeps to 3 minutes)
@pytest.mark.parametrize(
    "first", [0] + [pytest.param(f, marks=pytest.mark.slow) for f in range(40, 200, 40)]
)
def test_no_seat_sees_a_hidden_card_or_an_early_pick_in_200_games(first):
    seeds = range(first, first + 40)
    picks_checked = 0
    for seed in seeds:
        game = Game(SPEC, 2 + seed % 4)  # 2 to 5 players
        watcher = PickWatcher(game)
        state = game.new_initial_state(seed=seed)
        watcher.step(state)
        state = play(state, make_agents(["random"], game.n, seed), watcher.step)
        watcher.step(state)
        watcher.check_logs(state)
        assert state.is_terminal() and state.reason == "last_round"
        picks_checked += sum(e["event"] == "choice" for e in state.log_for(None))
    assert picks_checked == sum(3 * 8 * (2 + s % 4) for s in seeds)
