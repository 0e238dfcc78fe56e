"""Moon Garden (games/draft.yaml) through the commands a user runs: `run` and `replay`
of its log, `play --as P1` with scripted answers, `diff` against its variant, `simulate`,
and the greedy agent its `evaluation` drives. Its rules are the scenarios under
tests/scenarios/draft/; its hidden information is tests/test_hidden_draft.py."""

import json
import re
from io import StringIO

import pytest
from gamekit import GAMES, cli, only_bound_notes

from rulespec import load_spec
from rulespec.cli import main
from rulespec.interpreter import Game, State
from rulespec.table.narrate import Titles
from rulespec.table.view import table, table_lines

DRAFT = GAMES / "draft.yaml"
TWO_ROUNDS = GAMES / "variants" / "draft" / "two_rounds.yaml"


def test_a_game_runs_three_rounds_of_eight_picks_and_replays_the_same(tmp_path):
    log = tmp_path / "game.json"
    code, out, err = cli("run", DRAFT, "--players", 3, "--seed", 7, "--log", log)
    assert (code, err) == (0, "")
    assert [int(n) for n in re.findall(r"^Round (\d) begins", out, re.M)] == [1, 2, 3]
    assert re.search(
        r"^Game over after 24 turns: P\d(, P\d)* wins?, by the match end \"Last round\"", out, re.M
    )
    code, out, _ = cli("replay", log)
    assert code == 0 and "1 of 1 game(s) replayed the same" in out


def test_a_person_plays_a_whole_game_as_p1():
    def play(answers):
        out, err = StringIO(), StringIO()
        argv = ["play", str(DRAFT), "--as", "P1", "--players", "3", "--seed", "2"]
        return main(argv, stdout=out, stderr=err, stdin=StringIO(answers)), out.getvalue()

    code, out = play("1\n" * 21)  # 8 picks a round; the last card of a hand is not asked
    assert code == 0
    assert out.startswith("Moon Garden: 3 players, seed 2, you are P1\n")
    # nor is a hand of copies of one card: P1 was asked at most 7 times a round
    asked = out.count("P1> 1")
    assert asked == out.count("Pick — which card do you keep?") and 18 <= asked <= 21
    assert "P1 (you): hand " in out and "Game over" in out
    # the other seats' picks and hands are never named to P1
    assert "P2 chooses a card" in out and not re.search(r"P[23] chooses (?!a card$)", out, re.M)
    assert re.search(r"^  7 cards: P2's hand -> P3's passing$", out, re.M)
    assert play("1\n" * 21)[1] == out  # the same answers give the same game


def test_a_hand_on_its_way_is_a_count_even_to_its_owner_and_empty_as_any_zone():
    """passing is hidden even from its owner (DR-10): P1 is told how many cards it holds,
    not which; and "empty", as an empty zone it sees (a Coup designer saw an out seat's
    zones read "empty" and "0 cards" side by side)."""
    game = Game(load_spec(DRAFT), 3)
    state = State.from_layout(game, zones={"hand[P1]": ["koi"], "passing[P1]": ["lantern"]})
    lines = table_lines(table(state.observation(0), Titles.of(game.spec)))
    assert lines[2:4] == [
        "  P1 (you): hand Koi; garden empty; watered empty; passing 1 card; Score 0, Round points 0",
        "  P2: hand empty; garden empty; watered empty; passing empty; Score 0, Round points 0",
    ]


def test_diff_against_the_two_rounds_variant_names_the_parameter():
    code, out, _ = cli("diff", DRAFT, TWO_ROUNDS)
    assert code == 0
    assert "changed  parameter 'rounds_to_play': 3 -> 2" in out


def test_the_variant_plays_two_rounds():
    code, out, _ = cli("run", TWO_ROUNDS, "--seed", 1, "--json")
    assert code == 0 and json.loads(out)["result"] | {"winners": None} == {
        "over": True,
        "winners": None,
        "reason": "last_round",
        "turns": 16,
        "rounds": 2,
    }


def test_simulate_ends_every_game_after_three_rounds():
    code, out, _ = cli("simulate", DRAFT, "--games", 20, "--players", 5)
    assert code == 0
    assert re.search(r"last_round\s+20\s+100\.0%", out)
    assert "rounds per match mean 3.0" in out


def test_the_greedy_agent_beats_random_players():
    code, out, _ = cli(
        "run", DRAFT, "--players", 2, "--agents", "greedy,random", "--games", 6, "--seed", 3
    )
    assert code == 0
    wins = re.search(r"^Match: P1 (\d+), P2 (\d+)", out, re.M)
    assert wins and int(wins[1]) >= 5, out[-300:]


@pytest.mark.slow  # exploration at every player count: seconds
def test_lint_finds_nothing_even_when_it_explores():
    code, out, _ = cli("lint", DRAFT, "--explore", "--depth", 4, "--format", "json")
    assert code == 0 and only_bound_notes(json.loads(out))
