"""A `choose`'s labelled branches: their words (`branches:`, for `help`, the browser's
options and the language server's hover), how often simulate saw each taken, and a
branch that was the only one offered, told as forced to its chooser alone.

tests/valid/draw_or_pass.yaml: "pass" labels a branch of two choices; once the pile is
empty it is the only option of the first, and a hand without a coin leaves it the
only option of the second, which only the hand's owner can tell."""

import json
import random
from io import StringIO

from gamekit import ROOT, cli

from rulespec import load_spec
from rulespec.cli import main
from rulespec.interpreter import Game, Order
from rulespec.serve.views import Table, decision
from rulespec.table.narrate import Titles, narrate
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


def _played(top: str):
    """P1 draws the pile's top card (a coin or a stone), P2 passes twice (an empty hand
    has no coin to show), and P1 passes and passes showing: with a coin P1 chose to,
    with a stone "pass" was its only option."""
    state = Game(load_spec(SPEC), 2).new_initial_state(seed=0)
    coins, stones = (0, 1, 2), (3, 4, 5, 6, 7)  # the deck's order: 3 coins, then stones
    state.apply_action(Order("shuffle", stones + coins if top == "coin" else coins + stones))
    for label in ("draw", "pass", "pass", "pass", "pass"):
        state.apply_action(label)
    return state


def _turn(state, seat: int, number: int) -> list[str]:
    """The narration of a turn, as the seat sees it."""
    lines = narrate(state.log_for(seat), TITLES)
    start = lines.index(f"Turn {number}: P{2 - number % 2}")
    return lines[start + 1 : start + 3]


def test_a_branch_that_was_the_only_option_is_told_as_forced_to_its_chooser_alone():
    coin, stone = _played("coin"), _played("stone")
    assert _turn(coin, 0, 3) == ["  P1 chooses pass", "  P1 chooses pass"]
    assert _turn(stone, 0, 3) == ["  P1 chooses pass", "  P1 has only one option: pass"]
    # P2 could not tell: whether P1 had a coin to show hangs on P1's hidden hand
    assert stone.log_for(1) == coin.log_for(1)
    assert stone.information_key(1) == coin.information_key(1)
    assert _turn(stone, 1, 3) == ["  P1 chooses pass", "  P1 chooses pass"]
    # P2's own empty hand: told to P2 as forced, to P1 as chosen, to a spectator as it was
    assert _turn(stone, 1, 2) == ["  P2 chooses pass", "  P2 has only one option: pass"]
    assert _turn(stone, 0, 2) == ["  P2 chooses pass", "  P2 chooses pass"]
    assert narrate(stone.log_for(None), TITLES)[-3:-1] == [
        "  P1 chooses pass",
        "  P1 has only one option: pass",
    ]
    # a world re-dealt for P2 keeps nothing P2 was not told, in every seat's log
    world = stone.world_for(1, random.Random(3), log=True)
    assert [e for e in world.log_for(None) if e.get("forced")] == [
        {"event": "choice", "turn": 2, "player": 1, "kind": "choose", "option": "pass"}
        | {"forced": True}
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
