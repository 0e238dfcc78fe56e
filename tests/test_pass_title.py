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


def facing_a_raise(chips: int = 4):
    """P1 has raised: P2 may fold (the step's pass, named Fold); with no chips (`chips`
    0), fold alone."""
    game = Game(load_spec(SPEC), 3)
    zones = {"hand[P1]": ["rank_2"], "hand[P2]": ["rank_6"], "hand[P3]": ["rank_4"]}
    counters = {f"{n}[P{p}]": v for n, v in (("chips", 4), ("paid", 1)) for p in (1, 2, 3)}
    counters["chips[P2]"] = chips
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
    assert "  P2 passes (Fold)" in lines


def test_a_pass_reads_alike_whether_it_was_chosen_or_the_only_option():
    """A President designer's P3, its hand empty, passed unasked and read 'P3 chooses
    Knock'. The log cannot tell an only option from a choice (the other seats must not
    learn that the hand held nothing to play), so no titled pass says "chooses"."""
    chosen, only = facing_a_raise(), facing_a_raise(chips=0)
    assert only.legal_labels() == ["pass"]
    for state in (chosen, only):
        state.apply_action("pass")
    titles = Titles.of(chosen.game.spec)
    said = [narrate(s.log_for(None), titles)[-1] for s in (chosen, only)]
    assert said == ["  P2 passes (Fold)"] * 2


def test_a_person_answers_the_pass_by_its_title():
    out = StringIO()
    argv = ["play", str(SPEC), "--as", "P2", "--seed", "3"]
    main(argv, stdout=out, stderr=StringIO(), stdin=StringIO("fold\nquit\n"))
    assert "3) Fold" in out.getvalue() and "P2 passes (Fold)" in out.getvalue()
