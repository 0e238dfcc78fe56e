"""`rulespec play`: a person at one seat, agents at the others, through the CLI function
with scripted input."""

import re
from io import StringIO
from pathlib import Path

import pytest
from gamekit import BOOM, GAMES, ROOT

from rulespec import load_spec
from rulespec.cli import main
from rulespec.interpreter import Game, State
from rulespec.table.refusals import why_not

TTG = str(GAMES / "take_the_gold.yaml")
SEAT = ("--as", "P2", "--players", "2", "--seed", "1")  # P2 decides first at turn 4


def play(answers: str, *argv):
    out, err = StringIO(), StringIO()
    code = main(["play", TTG, *argv], stdout=out, stderr=err, stdin=StringIO(answers))
    return code, out.getvalue(), err.getvalue()


def test_a_person_plays_a_whole_game():
    code, out, err = play("1\n" * 200, *SEAT)
    assert code == 0 and err == ""
    assert out.startswith("Take the Gold: 2 players, seed 1, you are P2\n")
    assert re.search(r"^Game over after \d+ turns: P\d wins, by the end condition ", out, re.M)
    assert "P2> 1" in out and "  1) " in out
    # the same answers give the same game
    assert play("1\n" * 200, *SEAT)[1] == out


def test_the_parameters_are_shown_by_title_as_the_game_begins():
    _code, out, _ = play("1\n" * 200, *SEAT)
    assert out.splitlines()[1:3] == [
        "  Rules: Deal size 2, Hand limit 5, Refill size 2, Coins to win 4, Kraken limit 3, "
        "Tiebreak coins 2, Raid take 2",
        "Type the number of your choice, or help.",
    ]


def test_a_decision_shows_the_table_and_the_options_by_title():
    _code, out, _ = play("1\n" * 200, *SEAT)
    first = out[out.index("== Turn 4") : out.index("P2> ")]
    assert first.splitlines() == [
        "== Turn 4: P2's turn (you are P2)",
        "  Draw pile: 44 cards",
        "  Discard pile: Pirate",
        "  Set aside: empty",
        "  P1: hand 4 cards; known to you: Pirate Captain",  # P1 took it from P2
        "  P2 (you): hand Gold Coin x2, Two Pirates",
        "  Successful krakens 0, Win target 4, Tiebreak 0",
        "Play — play a card, or pass?",  # the step that asks, by its title, and its prompt
        "  1) Play Two Pirates at P1",
        "  2) Pass",  # always last
    ]


def test_the_person_sees_only_their_seat():
    _code, out, _ = play("1\n" * 200, *SEAT)
    draws = [
        line
        for line in out.splitlines()
        if line.startswith("  ") and "the draw pile -> P1's hand" in line
    ]
    assert draws and all(re.match(r"  \d+ cards?: ", line) for line in draws)
    assert re.search(r"^  P1: hand \d+ cards$", out, re.M)


def test_the_end_says_who_won_why_and_shows_the_table():
    _code, out, _ = play("1\n" * 200, *SEAT)
    end = out[out.index("Game over") :].splitlines()
    assert end[1] == 'You win (P2): the game ended by the end condition "Coin win".'
    assert end[2] == "== Turn 14: game over (you are P2)"
    assert "  P2 (you): hand Gold Coin x4, Two Officers" in end


def test_an_answer_that_is_no_option_asks_again():
    code, out, _ = play("dance\n" + "1\n" * 200, *SEAT)
    assert code == 0
    assert re.search(r"'dance' is not an option: type its number \(1-2\), or help\nP2> 1", out)


def test_an_option_may_be_given_by_its_label_or_its_words():
    code, out, _ = play("PASS\npay\n" + "1\n" * 200, *SEAT)
    assert code == 0 and "P2> PASS\n  P2 passes" in out and "P2> pay\n  P2 chooses pay" in out
    code, out, _ = play("play two pirates at p1\n" + "1\n" * 200, *SEAT)
    assert code == 0 and "P2> play two pirates at p1\n  P2 plays Two Pirates at P1" in out


def test_an_option_may_be_given_by_a_few_of_its_words_no_other_shows():
    """Words as the person sees them, under a card's heading too: 'raid at p3' is one
    option; 'pirate' is three (the Pirate Captain's), so their numbers are given; a
    number is an option's number only."""
    seat = ("--as", "P2", "--players", "4", "--seed", "1")  # Two Pirates and the Captain
    code, out, _ = play("pirate\n9\nraid at P3\n" + "1\n" * 300, *seat)
    assert code == 0
    assert (
        "P2> pirate\n  'pirate' could be 4) Play Pirate Captain (Captain raid) at P1; 5) Play "
        "Pirate Captain (Captain raid) at P3; 6) Play Pirate Captain (Captain raid) at P4: type "
        "its number\nP2> 9\n"
    ) in out
    assert "'9' is not an option: type its number (1-7)" in out
    assert "P2> raid at P3\n  P2 plays Pirate Captain (Captain raid) at P3" in out


def test_help_and_a_question_mark_explain_the_commands():
    code, out, _ = play("help\n?\n" + "1\n" * 200, *SEAT)
    assert code == 0
    help_text = out[out.index("P2> help\n") + 9 : out.index("P2> ?\n")]
    assert "Type the number of an option" in help_text and "quit " in help_text
    assert out.count(help_text) == 2  # the same again for '?'
    assert "P2> ?\n" + help_text + "P2> 1\n  P2 plays Two Pirates at P1" in out


def test_table_shows_the_table_again_with_the_parameters():
    code, out, _ = play("table\n" + "1\n" * 200, *SEAT)
    again = out[out.index("P2> table\n") + 10 : out.index("P2> 1")].splitlines()
    assert code == 0
    assert again[0] == "== Turn 4: P2's turn (you are P2)"
    assert again[-4].startswith("  Rules: Deal size 2") and again[-1] == "  2) Pass"


def test_quit_abandons_the_game_and_says_so():
    code, out, err = play("1\nQuit\n", *SEAT)
    assert (code, err) == (0, "")
    assert out.endswith(
        "P2> Quit\nP2 left the game at turn 9.\nThe game was left unfinished: nobody wins.\n"
    )
    assert "Game over" not in out


def test_the_log_replays_a_finished_or_abandoned_game(tmp_path):
    from rulespec.table.replay import replay

    for answers in ("1\n" * 200, "1\nquit\n"):
        log = tmp_path / "game.jsonl"
        code, _out, _ = play(answers, *SEAT, "--log", str(log))
        assert code == 0
        (outcome,) = replay(str(log))
        assert outcome.same and outcome.result["over"] == (answers != "1\nquit\n")


def test_no_log_is_written_when_input_ends_early(tmp_path):
    log = tmp_path / "game.jsonl"
    code, _out, _ = play("1\n", *SEAT, "--log", str(log))
    assert code == 2 and not log.exists()


def test_ctrl_c_keeps_the_log_of_the_game_so_far(tmp_path):
    from rulespec.table.replay import replay

    class Interrupted(StringIO):
        def readline(self, *_):
            raise KeyboardInterrupt

    log, out, err = tmp_path / "game.jsonl", StringIO(), StringIO()
    code = main(
        ["play", TTG, *SEAT, "--log", str(log)], stdout=out, stderr=err, stdin=Interrupted()
    )
    (outcome,) = replay(str(log))
    assert code == 130 and outcome.same and not outcome.result["over"]


def test_a_game_a_rule_stops_is_logged_up_to_it_and_the_person_told(tmp_path):
    """`play --log` lost a game a rule stopped (RS701) at an agent's move: the log keeps
    it up to the rule, as `run --log` does, and replays to it; the person sees the table
    up to it, one line that the game stopped, and the rule's place, never a traceback."""
    from rulespec.table.replay import replay

    spec, log = tmp_path / "boom.yaml", tmp_path / "game.jsonl"
    spec.write_text(BOOM)  # P2's agent takes the first option, the one whose rule fails
    out, err = StringIO(), StringIO()
    argv = ["play", str(spec), "--as", "P1", "--agents", "first", "--log", str(log)]
    code = main(argv, stdout=out, stderr=err, stdin=StringIO("2\n"))
    assert code == 2
    assert out.getvalue().endswith(
        "P1> 2\n  P1 chooses fine\n  Stone: the pile -> P1's hand\nTurn 2: P2\n"
        "  P2 chooses boom\nThe game stopped at turn 2: a rule failed (below).\n"
    )
    assert err.getvalue().startswith(f"{spec}:16:18: error RS701: rule 'act' failed here (")
    assert "Traceback" not in err.getvalue()
    (outcome,) = replay(str(log))
    assert outcome.same and outcome.result["error"]["rule"] == "act"
    assert outcome.result["turns"] == 2 and not outcome.result["over"]


def test_ctrl_d_at_a_terminal_leaves_the_game_as_quit_does(tmp_path):
    class Terminal(StringIO):
        def isatty(self):
            return True

    log, out, err = tmp_path / "game.jsonl", StringIO(), StringIO()
    code = main(["play", TTG, *SEAT, "--log", str(log)], stdout=out, stderr=err, stdin=Terminal(""))
    assert (code, err.getvalue()) == (0, "")
    assert out.getvalue().endswith(
        "P2> quit\nP2 left the game at turn 4.\nThe game was left unfinished: nobody wins.\n"
    )
    assert log.exists()


def test_ctrl_c_exits_130_with_one_line():
    class Interrupted(StringIO):
        def readline(self, *_):
            raise KeyboardInterrupt

    out, err = StringIO(), StringIO()
    code = main(["play", TTG, *SEAT], stdout=out, stderr=err, stdin=Interrupted())
    assert (code, err.getvalue()) == (130, "rulespec play: interrupted\n")


def test_input_that_ends_early_is_a_usage_error():
    code, _out, err = play("1\n", *SEAT)
    assert code == 2 and err.strip() == "rulespec play: input ended before the game did"


def test_a_seat_not_at_the_table_is_a_usage_error():
    code, _, err = play("", "--as", "P9", "--players", "2")
    assert code == 2 and "'P9' is not a seat of a 2-player game (P1..P2)" in err
    code, _, err = play("", "--as", "2", "--players", "2")  # a Cheat designer's
    assert code == 2 and "'2' is not a seat of a 2-player game (P1..P2): write P2" in err
    code, out, _ = play("quit\n", "--as", "p2", "--players", "2")  # in any case, as answers
    assert code == 0 and "you are P2" in out
    patience = str(GAMES.parent / "tests" / "valid" / "patience_pairs.yaml")
    err = StringIO()  # one seat: not "P1..P1"
    code = main(["play", patience, "--as", "P2"], stdout=StringIO(), stderr=err)
    err = err.getvalue()
    assert code == 2 and "'P2' is not a seat of a 1-player game (P1)" in err


def test_odd_answers_are_asked_again_never_a_traceback():
    """'²' is a digit to str.isdigit but not to int(); a 5,000-digit number; nothing;
    '2.' is no option's words (it played the option whose words held a 2)."""
    code, out, err = play("²\n" + "9" * 5000 + "\n\n2.\n" + "1\n" * 200, *SEAT)
    assert code == 0 and "Traceback" not in err
    assert (
        "'²' is not an option" in out
        and "'9999999999999999999999999999999999999999…' is not an option" in out
        and "'2.' is not an option" in out
    )


def test_a_closed_standard_input_ends_the_game_as_input_ending_does():
    closed = StringIO("")
    closed.close()
    out, err = StringIO(), StringIO()
    code = main(["play", TTG, *SEAT], stdout=out, stderr=err, stdin=closed)
    assert code == 2 and "Traceback" not in err and err.getvalue().count("\n") == 1


def test_whist_as_p1_with_scripted_input_shows_the_seat_and_its_side():
    out, err = StringIO(), StringIO()
    whist = str(GAMES / "whist.yaml")
    argv = ["play", whist, "--as", "P1", "--seed", "3"]
    code = main(argv, stdout=out, stderr=err, stdin=StringIO("1\n" * 400))
    text = out.getvalue()
    assert code == 0 and err.getvalue() == ""
    assert text.startswith("Whist: 4 players, seed 3, you are P1\n")
    assert re.search(
        r'^Game over after \d+ turns: (P1, P3|P2, P4) win, by the match end "Side wins"$',
        text,
        re.M,
    )
    assert "  P1 (you): hand " in text and "  North south's tricks: " in text
    assert ", Tricks won for north south 0," in text  # a team's counter, by its title
    # P1 sees its own deal and the turned-up card, never another hand's cards
    assert re.search(r"^  13 cards: the stock -> P3's hand$", text, re.M)
    assert re.search(r"^  \w+ of \w+ in P\d's hand shown to P1, P2, P3, P4$", text, re.M)
    again = StringIO()
    main(argv, stdout=again, stderr=StringIO(), stdin=StringIO("1\n" * 400))
    assert again.getvalue() == text  # the same answers give the same game


def test_a_rounds_setup_that_asks_is_headed_by_it_not_by_the_last_turn():
    """A designer's Oh Hell showed "== Turn 3: P3 to play (you are P1)" over P1's bid
    for the next deal: between turns, nobody is to play."""
    out = StringIO()
    argv = ["play", str(GAMES / "spades.yaml"), "--as", "P1", "--seed", "1"]
    assert main(argv, stdout=out, stderr=StringIO(), stdin=StringIO("1\n" * 900)) == 0
    headings = re.findall(r"^== (?!Turn).*$", out.getvalue(), re.M)
    assert headings == ["== Round setup (you are P1)", "== Round setup, after turn 52 (you are P1)"]


def test_standard_input_closed_at_the_start_is_a_usage_error(monkeypatch):
    """Issue 24: `rulespec play ... <&-` (Python's sys.stdin is then None) and `-` as the
    spec ended as internal errors, exit 3."""
    monkeypatch.setattr("sys.stdin", None)
    out, err = StringIO(), StringIO()
    code = main(["play", TTG, *SEAT], stdout=out, stderr=err)
    assert (code, out.getvalue(), err.getvalue()) == (
        2,
        "",
        "rulespec play: standard input is closed: play reads your choices from it\n",
    )
    closed = StringIO("")
    closed.close()
    for stdin in (None, closed):
        err = StringIO()
        code = main(["validate", "-"], stdout=StringIO(), stderr=err, stdin=stdin)
        assert (code, err.getvalue()) == (
            2,
            "rulespec validate: '-' stands for standard input, which is closed\n",
        )


def test_help_name_shows_what_a_card_rule_zone_or_counter_is_for():
    """Issue 28: nothing said what "Captain raid" or "Tiebreak coins" meant. `help NAME`
    says, by the spec's `text:`, found by name or title in any case."""
    answers = (
        "help pirate captain\nhelp captain_raid\nhelp Discard pile\nhelp deal_size\nhelp nope\n"
        "help guard\n"
    )
    code, out, _ = play(answers + "1\n" * 200, *SEAT)
    assert code == 0
    said = out[out.index("P2> help pirate captain\n") :].splitlines()
    assert said[1] == (
        "  Pirate Captain: Stop the Kraken! Or take a Coin from another player (if they "
        "won't pay, take two random cards instead). Officers can't block him."
    )
    assert said[3] == (
        "  Captain raid: Take a Coin from another player! If they won't pay, take two random "
        "cards instead. Officers can't block the Pirate Captain."
    )
    assert said[5] == (
        "  Discard pile: Every card played or discarded goes here, except successful Kraken."
    )
    assert said[7] == "  Deal size: no text in the rules"  # a parameter without one
    assert said[9] == (
        "  'nope' is no card, tag, rule, window, zone, counter, value, parameter or goal of "
        "this game"
    )
    # a tag, which the rules test cards by (a Canasta designer's `help wild`): its cards
    assert said[11] == "  Guard: the cards Officer, Two Officers"
    assert said[12] == "P2> 1"  # and the game goes on: a command is no answer


def test_the_setup_has_words_for_people_too(tmp_path):
    """`text:` on the setup, as on a round's setup: RS101 refused it. `help setup` and
    the rules panel show it; a setup without one is no rule to list."""
    from rulespec import load_spec
    from rulespec.table.narrate import Titles
    from rulespec.table.seat import help_text

    text = (GAMES / "take_the_gold.yaml").read_text(encoding="utf-8")
    plain = Titles.of(load_spec(TTG))
    said = text.replace("  rulings: [TTG-3]\n", "  rulings: [TTG-3]\n  text: Deal two each.\n")
    titles = Titles.of(load_spec(tmp_path / "ttg.yaml", text=said))
    assert help_text("Setup", titles) == "Setup: Deal two each."
    assert titles.rules["setup"] == ("setup", "Setup") and "setup" not in plain.rules


def test_help_names_everything_of_the_name_each_by_its_kind():
    """A Lost Cities designer's `help discard` told the action titled Discard ("no text
    in the rules"), not the discard piles it asked about."""
    from rulespec import load_spec
    from rulespec.table.narrate import Titles
    from rulespec.table.seat import help_text

    titles = Titles.of(load_spec(TTG))
    card, rule = help_text("kraken", titles).split("; ")
    assert card.startswith("The Kraken (card): Make a player discard all of their cards")
    assert rule.startswith("Kraken (action): Make a player discard all of their cards, UNLESS")
    assert help_text("hand limit", titles).startswith("Hand limit: ")  # one thing: no kind
    # a Love Letter designer's "… out of the round.; Guard (rule): …"
    text = Path(TTG).read_text().replace("unless they have the Pirate Captain!", "unless shielded.")
    said = help_text("kraken", Titles.of(load_spec("ttg.yaml", text)))
    assert said.startswith(
        "The Kraken (card): Make a player discard all of their cards, unless shielded; Kraken (action)"
    )
    # an action without a text of its own is told too, as cli.md says (a Love Letter
    # designer's `help guard` told the card alone)
    text = Path(TTG).read_text()
    rule = '    text: "Make a player discard all of their cards, UNLESS they have the Pirate'
    rule += ' Captain! A successful Kraken is set aside."\n'
    assert text.count(rule) == 1
    silent = Titles.of(load_spec("ttg.yaml", text.replace(rule, "")))
    card, rule = help_text("kraken", silent).split("; ")
    assert card.startswith("The Kraken (card): Make a player discard")
    assert rule == "Kraken (action): no text in the rules"
    # a Whist player's `help play` told the action, not the step of its name too
    said = help_text("play", Titles.of(load_spec(GAMES / "whist.yaml")))
    assert said == (
        "Play (action): Play a card of your hand to the trick, following the suit led if you"
        " can; Play (step): Play a card to the trick: follow suit if you can"
    )


def test_help_finds_a_steps_pass_by_its_title():
    """A President designer's `help knock` (the pass_title of the trick's step) was
    told Knock was nothing of the game, though the options list it."""
    from rulespec import load_spec
    from rulespec.table.narrate import Titles
    from rulespec.table.seat import help_text

    titles = Titles.of(load_spec(ROOT / "tests" / "valid" / "betting.yaml"))
    assert help_text("fold", titles) == (
        "Fold: passing at the step Betting, taking none of its actions"
    )


def test_help_of_a_pass_says_what_the_pass_does():
    """A Crazy Eights designer's `help draw` (a pass whose pass_effect draws a card)
    read "Draw: passing at the step Play, taking none of its actions": never that the
    pass draws. The step's text says it; a pass that does more without one says so."""
    from rulespec import load_spec
    from rulespec.table.narrate import Titles
    from rulespec.table.seat import help_text

    path = ROOT / "tests" / "valid" / "pass_draws.yaml"
    assert help_text("draw", Titles.of(load_spec(path))) == (
        "Draw: passing at the step Play, taking none of its actions; "
        "what else it does: no text in the rules"
    )
    text = path.read_text(encoding="utf-8").replace(
        "    pass_title: Draw\n",
        "    pass_title: Draw\n    text: Play a card that matches, or pass and draw a card.\n",
    )
    assert help_text("draw", Titles.of(load_spec(path, text))) == (
        "Draw: passing at the step Play, taking none of its actions; "
        "the step: Play a card that matches, or pass and draw a card."
    )


def test_help_says_a_card_a_property_names_by_its_title_and_a_zone_as_a_sentence_begins():
    """A Mille Bornes designer's `help stop` read "fix roll, shield right_of_way", the
    cards a property names spelled as the rules spell them, not as the table shows
    them; a Red7 designer's `help palette` read "palette: no text in the rules", in
    lower case where every other answer begins with a capital."""
    from rulespec import load_spec
    from rulespec.table.narrate import Titles
    from rulespec.table.seat import help_text

    titles = Titles.of(load_spec(GAMES / "pirates_wild.yaml"))
    assert help_text("storm", titles).endswith("; remedy Fair Winds, safe Harbor")
    assert help_text("shipwreck", titles).endswith("; remedy vessel, safe Flagship")  # a tag
    assert help_text("discard pile", titles).startswith("Discard pile: ")
    studied = load_spec(ROOT / "tests/valid/studied_hands.yaml")  # `pile`, titled by default
    assert help_text("pile", Titles.of(studied)) == "Pile: no text in the rules"


def test_a_bid_is_answered_with_its_number_not_its_place():
    """A designer's Oh Hell listed a bid as 1) 0, 2) 1, ...: typing 3 bid 2, and 0 was
    refused. A choice of numbers is listed as the numbers and answered with one, by
    `list` too (a 6 nimmt! designer's `list` showed 1) 0 ... 4) 3, and typed 1 chose 1)."""
    argv = ["play", str(GAMES.parent / "tests/valid/call_it.yaml"), "--as", "P1", "--seed", "1"]
    out = StringIO()
    huge = "9" * 5000  # past int()'s digits: none of the numbers offered, no crash
    answers = f"list\n{huge}\n7\n0\n" + "1\n" * 50
    code = main(argv, stdout=out, stderr=StringIO(), stdin=StringIO(answers))
    said = out.getvalue()
    assert code == 0 and f"'{huge[:40]}' is not one of 0-3" in said
    assert f"  a number: 0-3\nP1> list\n  a number: 0-3\nP1> {huge}\n" in said
    assert "P1> 7\n  '7' is not one of 0-3: type one, or help\nP1> 0\n" in said
    assert "P1 chooses 0" in said and "1) 0" not in said


def test_a_secret_number_is_answered_with_its_number_not_its_place():
    """A secret depth (`choose(p) depth from 0..size(pile)`, labelled `depth = 0`) was
    numbered by place, 1) depth = 0: an Exploding Kittens designer typed 1 for one card
    down and put the Kitten on top. It is listed and answered as the numbers, or by its
    label, as cli.md says of a secret stake."""
    argv = ["play", str(GAMES.parent / "tests/valid/peek_and_bury.yaml"), "--as", "P1"]
    out = StringIO()
    answers = "bury\n2\n1\nquit\n"
    code = main([*argv, "--players", "2", "--seed", "1"], stdout=out, stdin=StringIO(answers))
    said = out.getvalue()
    assert code == 0 and "  a number: 0-8\nP1> 2\n  P1 chooses 2 (depth)\n" in said
    assert "1) depth = 0" not in said


GIFTS = GAMES.parent / "tests" / "valid" / "three_gifts.yaml"


def _gifts(tmp_path, deal: int, answers: str) -> str:
    """`play` at P1 of Three Gifts, hands of `deal` cards (P1's the last in deck order)."""
    spec = tmp_path / "gifts.yaml"
    spec.write_text(GIFTS.read_text().replace("deal_size: 7", f"deal_size: {deal}"))
    out, err = StringIO(), StringIO()
    code = main(["play", str(spec), "--as", "P1"], stdout=out, stderr=err, stdin=StringIO(answers))
    assert code == 0 and err.getvalue() == "", err.getvalue()
    return out.getvalue()


def test_a_choice_of_many_sets_of_cards_names_the_cards_and_takes_their_names(tmp_path):
    """A Hearts designer's pass of 3 cards from 13 listed 286 sets; a set of 35 is now
    answered with its cards' names (titles or names, any case, any order)."""
    answers = "red apple, bell\nred apple, brass bel, candle\nDrum, BELL, red apple\n" + "1\n" * 9
    out = _gifts(tmp_path, 7, answers)
    assert "  choose 3 cards, from: Candle, Drum, Egg, Fan, Gem, Red Apple, Brass Bell\n" in out
    first = out[: out.index("P1> ")]  # the first decision, before any answer
    assert "list shows all 35" in first and "  1) " not in first  # the sets are not listed
    assert "P1> red apple, bell\n  you named 2 cards: choose 3 cards\n" in out
    assert "  'brass bel' is none of the cards to choose from: type their names" in out
    assert "P1 chooses Drum, Red Apple, Brass Bell" in out


def test_a_set_of_cards_refused_says_what_is_wrong_with_it(tmp_path):
    """A Hearts designer's four cards, and a card named twice, were both refused as
    "'king of spades, ace of diamonds, king of diamonds, two of sp' is not a set of
    cards you may choose": cut mid-word, and no word of what was wrong."""
    four = "candle, drum, egg, fan"
    twice = "drum, Drum, egg"
    long = "candle, drum, " + "an apple polished until it shines " * 2
    out = _gifts(tmp_path, 7, f"{four}\n{twice}\n{long}\n" + "1\n" * 9)
    assert f"P1> {four}\n  you named 4 cards: choose 3 cards\n" in out
    assert f"P1> {twice}\n  Drum is named twice: choose 3 cards\n" in out
    assert "  'an apple polished until it shines an…' is none of the cards" in out


def test_a_set_the_rules_do_not_offer_together_is_refused_by_its_cards(tmp_path):
    """Cards of the right number, each offered, that the rules do not let go together."""
    spec = tmp_path / "gifts.yaml"
    spec.write_text(
        GIFTS.read_text().replace(
            "combinations(hand(current), 3)",
            "combinations(hand(current), 3) if sum(c.value for c in gift) > 6",
        )
    )
    argv = ["play", str(spec), "--as", "P1"]
    answers = "candle, drum, egg\n" + "1\n" * 9
    out, err = StringIO(), StringIO()
    assert main(argv, stdout=out, stderr=err, stdin=StringIO(answers)) == 0, err.getvalue()
    assert (
        "P1> candle, drum, egg\n  Candle, Drum, Egg are not a set you may choose together: "
        "list shows those you may\n"
    ) in out.getvalue()


MELDS = GAMES.parent / "tests" / "valid" / "melds.yaml"


def _melds(answers: str) -> str:
    """`play` at P1 of Melds, seed 1: passing the first meld (answer 11), P1 buries two
    of 8 cards, Red 2 twice among them: 22 groups of two."""
    argv = ["play", str(MELDS), "--as", "P1", "--seed", "1"]
    out, err = StringIO(), StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=StringIO(answers))
    assert code == 0 and err.getvalue() == "", err.getvalue()
    return out.getvalue()


def test_many_groups_of_cards_played_as_one_move_name_the_cards_and_take_their_names():
    """A Cheat trial's play of one to four cards (`count:`) listed 4,047 groups; its pair
    typed as the option showed it "could be" 131 options, and in the other order was
    "not an option". Past 20 an action's groups are named by their cards, as a choice of
    many sets is, and the cards named in any order take the one group of them."""
    answers = "11\nred 2, red 2, red 2\nred 1, red 2, red 3\nblue 2, RED 1\nquit\n"
    out = _melds(answers)
    bury = out[out.index("Bury — your options:") :]
    assert bury.startswith(
        "Bury — your options:\n"
        "  Bury two: choose 2 cards, from: Red 1, Red 2, Red 3, Red 4, Red 5, Blue 2, Blue 4\n"
        "  (type their names separated by commas; list shows all 22)\nP1> "
    )
    assert "P1> red 2, red 2, red 2\n  Red 2 is named 3 times: choose 2 cards\n" in out
    assert "P1> red 1, red 2, red 3\n  you named 3 cards: choose 2 cards\n" in out
    assert "P1> blue 2, RED 1\n  P1 plays 2 cards (Bury two)\n  Red 1, Blue 2: P1's hand" in out


def test_a_few_groups_are_listed_and_taken_by_their_cards_in_any_order():
    """Twenty groups or fewer are listed; the cards of one, named in another order than
    its option shows them, take it (`list` shows the many groups numbered)."""
    out = _melds("blue 4, red 4\nred 2, red 2\n11\nlist\nquit\n")
    assert "    4) Play Red 4, Blue 4\n" in out
    assert "P1> blue 4, red 4\n  P1 plays 2 cards (Lay set)\n  Red 4, Blue 4: P1's hand" in out
    assert "P1> red 2, red 2\n  P1 plays 2 cards (Lay set)\n" in out
    listed = out[out.index("P1> list\n") :]
    assert "  Bury two:\n    1) Play Red 1, Red 3\n" in listed


def test_cards_a_group_at_several_targets_plays_are_asked_again_with_the_options(tmp_path):
    """The same cards played at either of two seats are two options: named, both are
    told with their numbers."""
    spec = tmp_path / "melds.yaml"
    spec.write_text(
        MELDS.read_text().replace(
            "count: 2\n    to: buried", "count: 2\n    target: other\n    to: buried"
        )
    )
    argv = ["play", str(spec), "--as", "P1", "--seed", "1", "--players", "3"]
    out = StringIO()
    answers = "5\nblue 1, red 3\nquit\n"  # P1 passes the meld, and buries
    assert main(argv, stdout=out, stderr=StringIO(), stdin=StringIO(answers)) == 0
    assert (
        "P1> blue 1, red 3\n  'blue 1, red 3' could be 17) Play Red 3, Blue 1 (Bury two) at P2; "
        "18) Play Red 3, Blue 1 (Bury two) at P3: type its number\n"
    ) in out.getvalue()


def test_a_card_that_is_no_option_is_told_why_where_the_rules_say_it():
    """A Hearts designer's jack of hearts was refused as "not an option" only: a card
    not held, or that no action of the step plays, is told so; the second first, held
    or not (a Dominion designer's Smithy, which no action of the step plays, was told
    "P1 holds no Smithy", as if holding one would help)."""
    _code, out, _ = play("gold coin\nofficer\npirate\n" + "1\n" * 200, *SEAT)
    assert (
        "P2> gold coin\n  'gold coin' is not an option: no action of this step plays Gold Coin; "
        "type its number (1-2), or help\n"
    ) in out
    assert "P2> officer\n  'officer' is not an option: no action of this step plays Officer;" in out
    assert "P2> pirate\n  'pirate' is not an option: P2 holds no Pirate; type its" in out


def test_a_card_an_action_takes_as_its_target_is_refused_with_no_false_reason():
    """A reviewer's 'ship 1' in harbour (a card bought from the harbour, in a game with
    no hand) was refused as one P2 "holds no": that says nothing of a card taken from
    where the action's among: says."""
    out, err = StringIO(), StringIO()
    argv = ["play", str(ROOT / "tests" / "valid" / "harbour.yaml"), "--as", "P2", "--seed", "1"]
    main(argv, stdout=out, stderr=err, stdin=StringIO("ship 1\nquit\n"))
    assert "P2> ship 1\n  'ship 1' is not an option: type its number (1-" in out.getvalue()


def test_a_few_sets_of_cards_are_listed_in_the_order_of_the_hand(tmp_path):
    listed = re.findall(r"^  \d+\) (.*)$", _gifts(tmp_path, 4, "1\n" * 20), re.M)[:4]
    assert listed == [
        "Fan, Gem, Red Apple",
        "Fan, Gem, Brass Bell",
        "Fan, Red Apple, Brass Bell",
        "Gem, Red Apple, Brass Bell",
    ]


def test_a_number_that_is_also_a_card_s_title_is_asked_again():
    """A 6 nimmt! designer typed 9 for the card 9 (1) and played the ninth option,
    84 (1), without a word. A number that is an option's place and a word of another
    option is asked again: #9 is the place, the title in full the card."""
    from types import SimpleNamespace

    from rulespec.table.seat import _also_a_title, _picked

    texts = ["2 (1)", "5 (2)", "9 (1)", "Maki Roll (1)"]
    options = [SimpleNamespace(label=f"c{t[0]}") for t in texts]
    assert _also_a_title("2", options, texts) == 0  # place 2 is 5 (2); 2 (1) says 2
    assert _also_a_title("3", options, texts) is None  # no other option says 3
    # a Sushi Go designer's 1 was refused for "Maki Roll (1)": a title begins with it
    assert _also_a_title("1", options, texts) is None
    assert _picked("#2", options, texts).label == "c5"
    assert _picked("2 (1)", options, texts).label == "c2"
    # an Uno designer's 3 played the third option, not Green 3: a number later in the
    # words is no title (typing 1 at a draft's "Stepping Stone 1" must not be asked again)
    texts = ["Play Wild", "Play Yellow 1", "Play Yellow 5", "Play Green 3", "Play Blue 3"]
    assert _also_a_title("3", [SimpleNamespace(label=t) for t in texts], texts) is None


def test_a_number_past_the_options_names_the_card_it_titles():
    """A 6 nimmt! designer typed 47 for the card 47 (1), the seventh of ten options:
    refused as no option's place. A number past the last place names the option whose
    words begin with it; an option's place still means the place."""
    from rulespec.table.seat import _titled

    texts = ["8 (1)", "47 (1)", "95 (2)", "Maki Roll (1)"]
    assert _titled("47", texts) == [2]
    assert _titled("95", texts) == [3]
    assert _titled("1", texts) == []  # "Maki Roll (1)": a number inside, no title
    assert _titled("47a", texts) == []


ASKS = """        choose(seat(0), "who wins?") {
          "me" { win(seat(0)) }
          "all" { win(players) }
        }"""


@pytest.mark.parametrize("through", [False, True])
def test_a_match_end_that_asks_is_headed_by_it_not_by_the_last_turn(tmp_path, through):
    """A Coloretto designer's match end asked each player where a chameleon goes, under
    "== Turn 104: P2 to play (you are P1)"; a procedure it calls asks between turns too."""
    text = (GAMES.parent / "tests" / "valid" / "round_afresh.yaml").read_text()
    effect = "      effect: win(argmax(wins(p) for p in players))"
    if through:  # the procedure's name is no rule's: the state says what runs
        text = text.replace(effect, "      effect: ask_winner()") + (
            "procedures:\n  ask_winner:\n    effect: |\n" + ASKS.replace("        ", "      ", 1)
        )
    else:
        text = text.replace(effect, "      effect: |\n" + ASKS)
    spec = tmp_path / "asks.yaml"
    spec.write_text(text)
    out = StringIO()
    argv = ["play", str(spec), "--as", "P1", "--seed", "1"]
    assert main(argv, stdout=out, stderr=StringIO(), stdin=StringIO("1\n" * 100)) == 0
    asked = re.findall(r"^(== .*)\n(?:  .*\n)*.*who wins\?", out.getvalue(), re.M)
    assert asked == ["== Two rounds, after turn 8 (you are P1)"]


def test_help_finds_a_card_by_the_start_of_its_title_and_tells_its_values():
    """A 6 nimmt! designer typed `67` to play the card titled "67 (1)", but `help 67`
    found no card, and `help 55 (7)` said "no text in the rules" where a player wants
    its bullheads. A card's values follow its text; a card whose title alone begins
    with the words asked for is found by them."""
    from rulespec import load_spec
    from rulespec.table.narrate import Titles
    from rulespec.table.seat import help_text

    text = (GAMES.parent / "tests" / "valid" / "in_order.yaml").read_text()
    text = text.replace(
        '    - card: "card_{rank}"\n', '    - card: "card_{rank}"\n      title: "{rank} (x)"\n'
    )
    titles = Titles.of(load_spec("in_order.yaml", text))
    assert help_text("7 (x)", titles) == "7 (x): rank 7"
    assert help_text("7", titles) == "7 (x): rank 7"
    assert help_text("1", titles) == "1 (x): rank 1"  # a word: not 10 (x) or 12 (x)
    assert help_text("x", titles).startswith("'x' is no card")  # no title begins so
    titles = Titles.of(load_spec(TTG))
    assert help_text("pirate captain", titles).startswith("Pirate Captain: Stop the Kraken!")


OPEN_HAND = str(ROOT / "tests" / "valid" / "open_hand.yaml")


def _declarer(answers: str) -> str:
    """P1 at Open Hand, seed 7: P1 bids and declares, P2 is the dummy, and at turn 3,
    spades led, P1 chooses which of the dummy's cards (two and three of spades, three
    of clubs, two of hearts) it plays; P3 holds the five of hearts."""
    out = StringIO()
    argv = ["play", OPEN_HAND, "--as", "P1", "--seed", "7"]
    assert main(argv, stdout=out, stderr=StringIO(), stdin=StringIO(answers)) == 0
    return out.getvalue()


def test_the_heading_names_who_chooses_at_another_seats_turn():
    """A Bridge trial's declarer, asked which of the dummy's cards to play, read "== Turn
    2: P3's turn (you are P1)": the heading names the seat asked too."""
    out = _declarer("bid\n1\n1\nquit\n")
    assert "\n== Turn 2: P1's turn (you are P1)\n" in out
    assert "\n== Turn 3: P2's turn, P1 chooses (you are P1)\n" in out


def test_a_card_a_choices_filter_refuses_is_told_why_and_an_unseen_one_is_not():
    """A Bridge trial's card of the dummy's that does not follow suit was refused with
    "type its number" alone, where one of the hand was told why: it is told by the
    choice's rule, prompt and text. A card of a hand P1 cannot see (P3's five of hearts)
    is refused as a card of P1's own hand is, which the choice is not made from."""
    out = _declarer("bid\n1\nthree of clubs\nfive of hearts\nfour of clubs\n1\nquit\n")
    assert (
        "P1> three of clubs\n  'three of clubs' is not an option: the rules do not allow three "
        "of clubs now (Dummy plays — which of the dummy's cards? The declarer plays a card of "
        "the dummy's, following suit if it can); type its number (1-2), or help\n"
        "P1> five of hearts\n  'five of hearts' is not an option: type its number (1-2), or "
        "help\n"
        "P1> four of clubs\n  'four of clubs' is not an option: type its number (1-2), or help\n"
    ) in out


def test_a_branch_a_choices_if_refuses_is_told_why():
    out = _declarer("double\nbid\nquit\n")
    assert (
        "P1> double\n  'double' is not an option: the rules do not allow double now (Round "
        "setup — your call? Deal four cards each; each player calls once, from P1: the first "
        "to bid declares); type its number (1-2), or help\n"
    ) in out


def test_a_player_a_choices_filter_refuses_is_told_why():
    """gift_giving: P2 holds five, the most a gift may go to."""
    spec = ROOT / "tests" / "valid" / "gift_giving.yaml"
    hands = {"hand[P2]": ["dud", "dud", "dud", "dud", "gift"], "pile": ["gift"]}
    state = State.from_layout(Game(load_spec(spec), 4), zones=hands)
    assert state.legal_labels() == ["P3", "P4"]
    assert state.decision_refused() == ["P2"]
    assert why_not(state, "p2", "p2") == (
        "the rules do not allow P2 now (Give — to whom do you give the top card?)"
    )


TAKE_ONE = """\
rulespec: 1
name: Take One
players: {min: 2, max: 2, default: 2}
hand: hand
deck:
  build:
    - card: "card_{rank}"
      each: {rank: {from: 1, to: 4}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
  row: {visibility: public}
setup: {effect: shuffle(pile)}
turn:
  - step: take
    effect: |
      choose(current, "which of theirs?") c from hand(next(current)) if c.rank > 2 {
        move(c, hand(current))
      }
      choose(current, "which of the row?") c from row if c.rank > 2 { move(c, hand(current)) }
end_conditions:
  done: {when: size(row) == 0, effect: end_game()}
"""


def test_a_card_a_filter_refuses_in_a_zone_the_chooser_cannot_see_is_not_told_apart(tmp_path):
    """Whether P2's hidden hand holds the card_1 the choice's filter refuses, or not,
    P1 is told the same of it: nothing. The same card in the public row is told."""
    path = tmp_path / "take_one.yaml"
    path.write_text(TAKE_ONE)
    game = Game(load_spec(path), 2)
    told = []
    for held in (["card_1", "card_3"], ["card_3", "card_4"]):
        state = State.from_layout(game, zones={"hand[P2]": held, "row": ["card_2"]})
        assert state.legal_labels() == ["hand[P2]"]  # by its place: P1 cannot see it
        told.append((state.decision_refused(), why_not(state, "card_1", "card_1")))
    assert told == [([], "")] * 2
    state = State.from_layout(game, zones={"row": ["card_1", "card_3"]})
    assert state.decision_refused() == ["card_1"]
    assert why_not(state, "card_1", "card 1") == (
        "the rules do not allow card 1 now (Take — which of the row?)"
    )
