"""`rulespec play`: a person at one seat, agents at the others, through the CLI function."""

import re
from io import StringIO

from gamekit import GAMES

from rulespec.cli import main

TTG = str(GAMES / "take_the_gold.yaml")


def play(answers: str, *argv):
    out, err = StringIO(), StringIO()
    code = main(["play", TTG, *argv], stdout=out, stderr=err, stdin=StringIO(answers))
    return code, out.getvalue(), err.getvalue()


def test_a_person_plays_a_whole_game():
    code, out, err = play("1\n" * 200, "--as", "P2", "--players", "2", "--seed", "1")
    assert code == 0 and err == ""
    assert out.startswith("Take the Gold: 2 players, seed 1, you are P2\n")
    assert re.search(r"^Game over after \d+ turns: P\d wins", out, re.M)
    assert "P2> 1" in out and "  1) " in out
    # the same answers give the same game
    assert play("1\n" * 200, "--as", "P2", "--players", "2", "--seed", "1")[1] == out


def test_the_person_sees_only_their_seat():
    _code, out, _ = play("1\n" * 200, "--as", "P2", "--players", "2", "--seed", "1")
    draws = [
        line
        for line in out.splitlines()
        if line.startswith("  ") and "the draw pile -> P1's hand" in line
    ]
    assert draws and all(re.match(r"  \d+ cards?: ", line) for line in draws)
    assert "your hand: " in out


def test_an_answer_that_is_no_option_asks_again():
    code, out, _ = play("dance\n" + "1\n" * 200, "--as", "P2", "--players", "2", "--seed", "1")
    assert code == 0
    assert re.search(r"'dance' is not an option: type its number \(1-\d\) or its label\nP2> 1", out)


def test_an_option_may_be_given_by_its_label():
    code, out, _ = play("pass\npay\n" + "1\n" * 200, "--as", "P2", "--players", "2", "--seed", "1")
    assert code == 0 and "P2> pass\n  P2 passes" in out and "P2> pay\n  P2 chooses pay" in out


def test_input_that_ends_early_is_a_usage_error():
    code, _out, err = play("1\n", "--as", "P2", "--players", "2", "--seed", "1")
    assert code == 2 and err.strip() == "rulespec play: input ended before the game did"


def test_a_seat_not_at_the_table_is_a_usage_error():
    code, _, err = play("", "--as", "P9", "--players", "2")
    assert code == 2 and "'P9' is not a seat of a 2-player game (P1..P2)" in err


def test_odd_answers_are_asked_again_never_a_traceback():
    """'²' is a digit to str.isdigit but not to int(); a 5,000-digit number; nothing."""
    code, out, err = play(
        "²\n" + "9" * 5000 + "\n\n" + "1\n" * 200, "--as", "P2", "--players", "2", "--seed", "1"
    )
    assert code == 0 and "Traceback" not in err
    assert (
        "'²' is not an option" in out
        and "'9999999999999999999999999999999999999999…' is not an option" in out
    )


def test_a_closed_standard_input_ends_the_game_as_input_ending_does():
    closed = StringIO("")
    closed.close()
    out, err = StringIO(), StringIO()
    code = main(
        ["play", TTG, "--as", "P1", "--players", "2", "--seed", "1"],
        stdout=out,
        stderr=err,
        stdin=closed,
    )
    assert code == 2 and "Traceback" not in err and err.getvalue().count("\n") == 1


def test_whist_as_p1_with_scripted_input_shows_the_seat_and_its_side():
    out, err = StringIO(), StringIO()
    whist = str(GAMES / "whist.yaml")
    argv = ["play", whist, "--as", "P1", "--seed", "3"]
    code = main(argv, stdout=out, stderr=err, stdin=StringIO("1\n" * 400))
    text = out.getvalue()
    assert code == 0 and err.getvalue() == ""
    assert text.startswith("Whist: 4 players, seed 3, you are P1\n")
    assert re.search(r"^Game over after \d+ turns: (P1, P3|P2, P4) win \(side_wins\)$", text, re.M)
    assert "  your hand: " in text and "  your side's tricks: " in text
    # P1 sees its own deal and the turned-up card, never another hand's cards
    assert re.search(r"^  13 cards: the stock -> P3's hand$", text, re.M)
    assert re.search(r"^  \w+ of \w+ in P\d's hand shown to P1, P2, P3, P4$", text, re.M)
    again = StringIO()
    main(argv, stdout=again, stderr=StringIO(), stdin=StringIO("1\n" * 400))
    assert again.getvalue() == text  # the same answers give the same game
