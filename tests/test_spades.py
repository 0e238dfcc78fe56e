"""Spades (games/spades.yaml, issue 26) through the commands a user runs: `run` narrates a
whole match and its log replays the same, `simulate` ends every game by a rule, lint
explores it clean, the greedy agent its `evaluation` drives beats random partners, and
no seat is shown a card hidden from it. Its rules are the scenarios under
tests/scenarios/spades/ (one or more for each ruling SP-1 .. SP-13)."""

import json
import re

import pytest
from gamekit import GAMES, cli, only_bound_notes
from test_hidden_information import watched_play

from rulespec import load_spec
from rulespec.interpreter import Game

SPADES = GAMES / "spades.yaml"
GAME = Game(load_spec(str(SPADES)), 4)


def test_run_narrates_a_whole_match_of_hands_and_replays_the_same(tmp_path):
    log = tmp_path / "game.json"
    code, out, err = cli("run", SPADES, "--seed", 1, "--log", log)
    assert (code, err) == (0, "")
    hands = [int(n) for n in re.findall(r"^Round (\d+) begins", out, re.M)]
    assert hands == list(range(1, len(hands) + 1)) and len(hands) >= 1
    assert re.search(r"^  P\d chooses \d+$", out, re.M)  # a bid, said to everyone
    assert re.search(r'^Game over after \d+ turns: P\d, P\d win, by the match end "Side', out, re.M)
    code, out, _ = cli("replay", log)
    assert code == 0 and "1 of 1 game(s) replayed the same" in out


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
def test_simulate_ends_every_one_of_1000_games_by_a_rule():
    """Random players overbid and sink to -200 (SP-12) in two hands or so; no game
    reaches the turn limit."""
    code, out, _ = cli("simulate", SPADES, "--games", 1000, "--json")
    assert code == 0
    report = json.loads(out)
    assert "turn_limit" not in report["end_reasons"]
    assert sum(r["count"] for r in report["end_reasons"].values()) == 1000
    assert set(report["end_reasons"]) <= {"side_reaches_500", "side_sinks"}


def test_the_greedy_side_beats_random_partners():
    code, out, _ = cli(
        "run", SPADES, "--agents", "greedy,random,greedy,random", "--games", 4, "--seed", 3
    )
    assert code == 0
    wins = re.search(r"^Match: P1 (\d+), P2 (\d+)", out, re.M)
    assert wins and int(wins[1]) >= 3, out[-300:]


@pytest.mark.slow  # exploration at every player count: seconds
def test_lint_finds_nothing_even_when_it_explores():
    code, out, _ = cli("lint", SPADES, "--explore", "--depth", 4, "--format", "json")
    assert code == 0 and only_bound_notes(json.loads(out))


@pytest.mark.parametrize("first", range(0, 60, 20))
def test_no_seat_is_shown_a_card_hidden_from_it(first):
    """No observation or log of a seat shows another's hand, the stock, or the other
    side's won tricks (tests/test_hidden_information.py's Watcher)."""
    for seed in range(first, first + 20):
        state = watched_play(GAME, seed, follow=seed % 20 == 0)
        assert state.is_terminal() and len(state.winners) == 2


def test_every_bid_is_seen_by_every_seat():
    """SP-3: a bid is public as it is made: every seat's log names it."""
    state = GAME.new_initial_state(seed=0)
    state.apply_action("P4")
    state.sample_chance()
    for bid in ["4", "0", "3", "5"]:
        state.apply_action(bid)
    for seat in range(4):
        bids = [e["option"] for e in state.log_for(seat) if e["event"] == "choice"]
        assert bids == ["4", "0", "3", "5"], seat
