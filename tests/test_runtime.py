"""Generated code uses only the declared runtime (interpreter/runtime.py), and every
built-in of the language has an implementation: a renamed runtime method, or a built-in
added to the front end alone, fails here rather than in a game (issue 25)."""

import ast
import builtins
from pathlib import Path

import pytest

from rulespec import load_spec
from rulespec.interpreter import Game, runtime
from rulespec.interpreter.effects import StatementCompiler
from rulespec.interpreter.evaluate import Compiler
from rulespec.lang import builtins as language
from rulespec.lang import ir

ROOT = Path(__file__).parent.parent
SPECS = sorted((ROOT / "games").glob("*.yaml")) + sorted((ROOT / "tests" / "valid").glob("*.yaml"))


def uses(listing) -> tuple[set[str], set[str]]:
    """What a generated function reads or calls on `g`, and the other names it reads."""
    tree = ast.parse("\n".join(listing.lines))
    own = {"g", "env"} | {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    on_g = {
        n.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "g"
    }
    names = {
        n.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in own
    }
    return on_g, {n for n in names if not hasattr(builtins, n) and not _bound_value(n)}


def _bound_value(name: str) -> bool:
    """A value quote() bound for the code (`_c12`), the game's teams (`_team`) or the
    kind that matches no card (`_no_kind`)."""
    return name in ("_team", "_no_kind") or (name.startswith("_c") and name[2:].isdigit())


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_generated_code_uses_only_the_declared_runtime(path):
    spec = load_spec(path)
    game = Game(spec, spec.default_players)
    declared = set(runtime.READS) | set(runtime.CALLS)
    assert game.exprs.listings
    for listing in game.exprs.listings:
        on_g, names = uses(listing)
        assert on_g <= declared, (listing.rule, on_g - declared)
        assert names <= set(runtime.HELPERS), (listing.rule, names - set(runtime.HELPERS))


def test_the_declared_runtime_exists():
    state = Game(load_spec(ROOT / "games" / "take_the_gold.yaml"), 4).new_initial_state(0)
    for name in [*runtime.READS, *runtime.CALLS]:
        assert hasattr(state, name), name
    for name in runtime.CALLS:
        assert callable(getattr(state, name)), name


def test_every_built_in_has_an_implementation():
    """A function is compiled to source (_src_f_) or to a closure (_f_); a chance
    function is a statement's pause; a procedure runs at once (_do_) or pauses (_pause_),
    as ir.PAUSES declares."""
    for name in language.FUNCTIONS:
        compiled = hasattr(Compiler, f"_src_f_{name}") or hasattr(Compiler, f"_f_{name}")
        assert compiled or name in language.CHANCE, name
    for name in language.PROCEDURES:
        runs = hasattr(StatementCompiler, f"_do_{name}")
        pauses = hasattr(StatementCompiler, f"_pause_{name}")
        assert runs or pauses, name
        assert name not in ir.PAUSES or pauses, name
    assert set(ir.PAUSES) <= set(language.PROCEDURES)


def test_every_constant_reads_the_table():
    """A constant (`seats`, `players`, ...) is source reading the game, or a value
    (`no_kind`) (evaluate._TABLE)."""
    from rulespec.interpreter.evaluate import _TABLE

    assert set(language.CONSTANTS) <= set(_TABLE)


@pytest.mark.parametrize("types", [(), (4,), (0, 7), (1, 2, 3, 5, 8)])
def test_a_type_counter_counts_as_the_loop_does(types):
    """A static kind's count is a sum written out (type_counter); a kind worked out in
    play is counted by _count_types' loop: the same number from the same row."""
    row = [3, 0, 2, 7, 1, 0, 5, 9, 4]
    assert runtime.type_counter(types)(row) == runtime._count_types(row, types)
    assert runtime.type_counter(types)(row) == sum(row[t] for t in types)


def test_a_type_counter_takes_type_numbers_only():
    """Its source is written from the types: nothing but an int may reach it."""
    with pytest.raises(ValueError, match="card type numbers"):
        runtime.type_counter(("0) or __import__('os').system('true'",))
