"""Blackjack through the commands (issue 14's acceptance): run, a run's log replayed,
play as P1 with scripted answers, diff against the variant, and the bundled list. The
rules themselves are the scenarios in tests/scenarios/blackjack/."""

import json
import re
from io import StringIO

from gamekit import GAMES, cli

from rulespec.cli import main

SPEC = str(GAMES / "blackjack.yaml")
VARIANT = str(GAMES / "variants" / "blackjack" / "dealer_hits_soft_17.yaml")


def test_a_game_runs_twenty_rounds_and_names_players_only():
    code, out, err = cli("run", SPEC, "--players", "3", "--seed", "2", "--json")
    assert code == 0, err
    result = json.loads(out)["result"]
    assert result["rounds"] == 20 and result["reason"] == "last_round"
    assert set(result["winners"]) <= {"P1", "P2", "P3"}  # the dealer is no seat (BJ-1)


def test_a_game_of_one_seat_is_headed_as_one_player():
    """A designer's Klondike read "Klondike: 1 players" in run, simulate and play."""
    assert cli("run", SPEC, "--players", "1")[1].startswith("Blackjack: 1 player, seed 0")
    assert cli("simulate", SPEC, "--players", "1", "--games", "2")[1].startswith(
        "Blackjack: 2 games, 1 player, agents random"
    )


def test_a_logged_game_replays_the_same(tmp_path):
    log = tmp_path / "game.jsonl"
    assert cli("run", SPEC, "--players", "4", "--seed", "5", "--log", log)[0] == 0
    code, out, _ = cli("replay", log)
    assert code == 0 and "1 of 1 game(s) replayed the same" in out


def test_a_person_plays_p1_with_scripted_answers():
    answers = "stake = 10\nstand\n" + "1\n" * 400
    argv = ["play", SPEC, "--as", "P1", "--players", "2", "--seed", "4"]
    out, err = StringIO(), StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=StringIO(answers))
    text = out.getvalue()
    assert code == 0 and err.getvalue() == ""
    assert (
        "P1> stake = 10\n  P1 chooses 10 (stake)\n  Bet for P1 is now 10\n  Chips for P1 is now 90"
        in text
    )
    assert "  P2 chooses a number\n" in text  # the other seat's bet, as a choice
    assert "  1 card: the shoe -> the hole" in text  # the hole card, face down
    assert "P1> stand\n  P1 chooses Stand" in text
    assert re.search(r"^Game over after \d+ turns: ", text, re.M)
    again = StringIO()
    main(argv, stdout=again, stderr=StringIO(), stdin=StringIO(answers))
    assert again.getvalue() == text  # the same answers give the same game


def test_the_variant_changes_only_the_dealers_rule():
    code, out, _ = cli("diff", SPEC, VARIANT)
    assert code == 0
    assert [line.split()[:4] for line in out.splitlines()] == [
        ["changed", "game", "'name':", "'Blackjack'"],  # its own name, and no other rule
        ["changed", "condition", "'dealer_hits':", "when,"],
    ]


def test_blackjack_is_bundled_with_its_variant():
    code, out, _ = cli("games")
    assert code == 0
    assert re.search(
        r"^blackjack +Blackjack +\(1-6 players, default 3\)\n +variants: dealer_hits_soft_17",
        out,
        re.M,
    )
