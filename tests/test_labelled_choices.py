"""A `choose`'s labelled branches: their words (`branches:`, for `help`, the browser's
options and the language server's hover), how often simulate saw each taken, and a
branch that was the only one offered, told as forced to its chooser alone.

tests/valid/draw_or_pass.yaml: "pass" labels a branch of two choices; once the pile is
empty it is the only option of the first, and a hand without a coin leaves it the
only option of the second, which only the hand's owner can tell."""

import json
from io import StringIO

from gamekit import ROOT, cli

from rulespec import load_spec
from rulespec.cli import main
from rulespec.interpreter import Game
from rulespec.serve.views import Table, decision
from rulespec.table.narrate import Titles
from rulespec.table.seat import help_text

SPEC = ROOT / "tests" / "valid" / "draw_or_pass.yaml"
TITLES = Titles.of(load_spec(SPEC))


def test_help_tells_a_branch_by_its_label_the_words_branches_gives_it():
    assert help_text("show", TITLES) == "Show: Lay a coin of your hand face up for a point."
    # one entry for the label of both choices
    assert help_text("Pass", TITLES) == "Pass: Do nothing this time."


def test_play_answers_help_with_a_branchs_words():
    out, answers = StringIO(), StringIO("help draw\nquit\n")
    argv = ["play", str(SPEC), "--as", "P1", "--seed", "1"]
    main(argv, stdout=out, stderr=StringIO(), stdin=answers)
    said = out.getvalue().splitlines()
    assert said[said.index("P1> help draw") + 1] == (
        "  Draw: Take the top card of the pile into your hand."
    )


def test_the_browser_shows_a_branchs_words_on_its_option():
    state = Game(load_spec(SPEC), 2).new_initial_state(seed=1)
    state.sample_chance()
    options = decision(state, Table(load_spec(SPEC), 2), state.legal_actions())["options"]
    assert [(o["label"], o.get("help")) for o in options] == [
        ("draw", "Take the top card of the pile into your hand."),
        ("pass", "Do nothing this time."),
    ]


def test_simulate_counts_each_branch_of_each_choice_apart():
    code, out, _ = cli("simulate", SPEC, "--games", "200")
    assert code == 0
    assert out[out.index("  branches chosen") : out.index("  cards played")].splitlines() == [
        "  branches chosen  (times; share of games)",
        "    turn.decide, line 31",
        "      draw                      1571  100.0%",
        "      pass                      2624  100.0%  1075 as the only option",
        "    turn.decide, line 34",
        "      pass                      2024  100.0%  1502 as the only option",
        "      show                       600  100.0%",
    ]
    report = json.loads(cli("simulate", SPEC, "--games", "200", "--json", "--workers", "2")[1])
    assert report["branches_chosen"][1] == {
        "rule": "turn.decide",
        "line": 31,
        "label": "pass",
        "times": 2624,
        "only_option": 1075,
        "games": 200,
    }
