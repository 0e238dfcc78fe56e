"""The yardsticks of issue 25 (benchmarks/yardstick_ttg.py, benchmarks/yardstick_pw.py)
play the interpreter's very games: for each seed, the same end reason, winners and
number of turns, and the same table at the end (every zone's cards, the piles in
order). Both sides draw from the same RNG streams in the same order, so one misread
rule, or one option listed out of the interpreter's order, shows at once. A speed
baseline that plays another game would measure nothing."""

import sys

import pytest
from gamekit import ROOT, game_for

from rulespec.interpreter.agents import make_agents, play

sys.path.insert(0, str(ROOT / "benchmarks"))
import yardstick_pw
import yardstick_ttg


def interpreted(name, players, seed, turn_limit):
    state = play(
        game_for(name, players).new_initial_state(seed=seed, log=False, turn_limit=turn_limit),
        make_agents(["random"], players, seed),
    )
    return state.reason, state.winners, state.turn, state.observation(None)["zones"]


def hand_written(module, players, seed, turn_limit):
    reason, winners, turns, table = module.game(players, seed, turn_limit)
    return reason, winners, turns, module.zones(table)


def disagreements(name, module, players, seeds, turn_limit=2000):
    return [
        (seed, ours[:3], theirs[:3])
        for seed in seeds
        for ours, theirs in [
            (
                interpreted(name, players, seed, turn_limit),
                hand_written(module, players, seed, turn_limit),
            )
        ]
        if ours != theirs
    ]


@pytest.mark.parametrize(("players", "games"), [(4, 400), (2, 100), (3, 100), (5, 100), (6, 100)])
def test_take_the_gold_yardstick_plays_the_interpreter_s_games(players, games):
    # 4 players: some 50 of the 400 go to the tie-break (TTG-14)
    seeds = range(1000 * players, 1000 * players + games)
    assert disagreements("take_the_gold", yardstick_ttg, players, seeds) == []


def test_play_one_is_the_game_s_result():
    assert yardstick_ttg.play_one(4, 7) == yardstick_ttg.game(4, 7)[:3]
    assert yardstick_pw.play_one(2, 7) == yardstick_pw.game(2, 7)[:3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pirates_wild_yardstick_plays_the_interpreter_s_games(players):
    # cut at 300 turns (a whole game at 4 players is mostly 2,000 turns, a tenth of a
    # second in the interpreter); Krakens, Arrr! and new voyages all come up by then
    seeds = range(100 * players, 100 * players + 40)
    assert disagreements("pirates_wild", yardstick_pw, players, seeds, turn_limit=300) == []


def test_pirates_wild_yardstick_plays_whole_games_alike():
    # two players mostly finish (completion): six of these eight do, after 400 to 2,000 turns
    assert disagreements("pirates_wild", yardstick_pw, 2, range(8)) == []


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pirates_wild_yardstick_plays_many_whole_games_alike(players):
    assert disagreements("pirates_wild", yardstick_pw, players, range(50_000, 50_060)) == []


@pytest.mark.slow
def test_take_the_gold_yardstick_plays_thousands_of_games_alike():
    assert disagreements("take_the_gold", yardstick_ttg, 4, range(200_000, 205_000)) == []
