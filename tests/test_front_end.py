"""Front-end limits that no small fixture file shows well."""
import pytest
from gamekit import ROOT

from rulespec import SpecError, load_spec

BASE = (ROOT / "tests" / "valid" / "coin_grab.yaml").read_text()


def _with_trigger(condition):
    return BASE + f"\ntriggers:\n  deep:\n    when: {condition}\n    effect: end_game()\n"


def test_deeply_nested_expression_is_refused_not_crashed():
    with pytest.raises(SpecError) as exc:
        load_spec("deep.yaml", _with_trigger("not " * 3000 + "true"))
    assert [d.code for d in exc.value.diagnostics] == ["RS302"]


def test_moderately_nested_expression_is_fine():
    spec = load_spec("deep.yaml", _with_trigger("not " * 300 + "true"))
    assert spec.triggers[0].name == "deep"


def test_every_problem_of_a_file_is_reported_together():
    text = BASE.replace("rulespec: 1", "rulespec: 1\nbogus: 1\nalso_bogus: 2", 1)
    with pytest.raises(SpecError) as exc:
        load_spec("two.yaml", text)
    assert sorted(d.code for d in exc.value.diagnostics) == ["RS101", "RS101"]
    assert "did you mean" in exc.value.render() or "allowed:" in exc.value.render()


def test_turn_limit_defaults_to_2000():  # C-5
    assert load_spec(ROOT / "games" / "take_the_gold.yaml").turn_limit == 2000
    assert load_spec("x.yaml", BASE.replace("rulespec: 1", "rulespec: 1\nturn_limit: 30", 1)).turn_limit == 30


@pytest.mark.parametrize("old, new, code", [
    # a local may not hide another: the check and the run would disagree on its type
    ("      let strength = 1\n", "      let strength = 1\n      if true { let strength = 2 }\n", "RS202"),
    ("let strength = 1", "let move = 1", "RS202"),           # procedures are reserved
    ("    each: p\n", "    each: current\n", "RS202"),       # so are the constants
    ("for p in players", "for hand in players", "RS202"),
    ("shuffle(pile)\n", "shuffle(pile)\n    react(current)\n", "RS208"),  # react outside an action
    ("effect: strength = 0", "effect: strength = 0\n    if: size(hand(chosen)) > 0", "RS201"),
])
def test_binding_mistakes_are_caught_at_load(old, new, code):
    assert old in BASE
    with pytest.raises(SpecError) as exc:
        load_spec("x.yaml", BASE.replace(old, new, 1))
    assert code in [d.code for d in exc.value.diagnostics], exc.value.render()


def test_diagnostics_come_in_file_order():
    text = BASE.replace("effect: strength = 0", "effect: strenth = 0").replace(
        "move(top(pile, 1), hand(current))", "move(top(pil, 1), hand(current))")
    with pytest.raises(SpecError) as exc:
        load_spec("x.yaml", text)
    lines = [d.span.line for d in exc.value.diagnostics]
    assert lines == sorted(lines) and len(lines) == 2
