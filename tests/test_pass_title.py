"""A step's pass_title names its pass as the game does (Fold): in play, the browser's
options and the narration; the option is still `pass` to the engine."""

from io import StringIO

from gamekit import ROOT

from rulespec import load_spec
from rulespec.cli import main
from rulespec.interpreter import Game, State
from rulespec.serve import views
from rulespec.table.narrate import Titles, narrate

SPEC = ROOT / "tests" / "valid" / "betting.yaml"


def facing_a_raise():
    """P1 has raised: P2 may fold (the step's pass, named Fold)."""
    game = Game(load_spec(SPEC), 3)
    zones = {"hand[P1]": ["rank_2"], "hand[P2]": ["rank_6"], "hand[P3]": ["rank_4"]}
    counters = {f"{n}[P{p}]": v for n, v in (("chips", 4), ("paid", 1)) for p in (1, 2, 3)}
    state = State.from_layout(game, 1, zones=zones, counters=counters, current=0)
    state.apply_action("raise")
    return state


def test_the_options_and_the_narration_name_the_pass_by_its_title():
    state = facing_a_raise()
    assert "pass" in state.legal_labels()  # the engine's option is still pass
    shown = views.decision(state, views.Table(state.game.spec, 3), state.legal_actions())
    assert [o["text"] for o in shown["options"]] == ["Raise", "Call", "Fold"]
    state.apply_action("pass")
    lines = narrate(state.log_for(None), Titles.of(state.game.spec))
    assert "  P2 chooses Fold" in lines and not any("passes" in line for line in lines)


def test_a_person_answers_the_pass_by_its_title():
    out = StringIO()
    argv = ["play", str(SPEC), "--as", "P2", "--seed", "3"]
    main(argv, stdout=out, stderr=StringIO(), stdin=StringIO("fold\nquit\n"))
    assert "3) Fold" in out.getvalue() and "P2 chooses Fold" in out.getvalue()
