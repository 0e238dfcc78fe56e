"""The layers of the design card, checked on the source: the front end imports no
runtime, the runtime imports only the IR, analysis and table tools sit on both, and
the CLI sits on top of everything."""

import ast
import subprocess
import sys

import pytest
from gamekit import ROOT


def _package(path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def imports_of(path) -> set[str]:
    """Every module a source file imports, relative imports resolved."""
    tree = ast.parse(path.read_text(), str(path))
    package = _package(path) if path.name == "__init__.py" else _package(path).rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names}
    return out


def _ours(modules, prefixes=("rulespec", "interpreter")):
    return {m for m in modules if m.split(".")[0] in prefixes}


# layer -> what of ours it may import ("rulespec" alone: the package's own __init__).
# The runtime installs as rulespec.interpreter; its own relative imports read as
# `interpreter.*` here, since the reader names modules by their folder.
ALLOWED = {
    "rulespec/lang": ("rulespec", "rulespec.lang"),
    "interpreter": ("interpreter", "rulespec.lang.ir"),
    "rulespec/analysis": ("rulespec", "rulespec.analysis", "rulespec.lang", "rulespec.interpreter"),
    "rulespec/table": ("rulespec", "rulespec.table", "rulespec.lang", "rulespec.interpreter"),
    # the web app sits on both layers, as the CLI does, and on the table's narration
    "rulespec/serve": (
        "rulespec",
        "rulespec.serve",
        "rulespec.lang",
        "rulespec.interpreter",
        "rulespec.table",
        "rulespec.analysis",
    ),
}


def _allowed(module: str, allowed) -> bool:
    return any(module == a or (a != "rulespec" and module.startswith(a + ".")) for a in allowed)


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports(layer):
    wrong = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for m in sorted(_ours(imports_of(path))):
            # `from rulespec.lang import ir` names the package on its way to the module
            if not _allowed(m, ALLOWED[layer]) and not (
                layer == "interpreter" and m == "rulespec.lang"
            ):
                wrong.append(f"{path.relative_to(ROOT)} imports {m}")
    assert not wrong, "\n".join(wrong)


def test_nothing_below_the_cli_imports_it():
    users = [p for p in ROOT.glob("rulespec/*/*.py") if "rulespec.cli" in imports_of(p)]
    assert not users


def test_importing_the_runtime_loads_no_front_end():
    """The runtime needs the IR's declarations, never the loader, schema or grammar (the
    package takes a digest of its files as it is imported: stamps.py)."""
    code = (
        "import sys, rulespec.interpreter; print(sorted(m for m in sys.modules if m.startswith("
        "('rulespec', 'lark', 'yaml', 'jsonschema')) and not m.startswith('rulespec.interpreter')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert (
        out.stdout.strip()
        == "['rulespec', 'rulespec.lang', 'rulespec.lang.diagnostics', 'rulespec.lang.ir', "
        "'rulespec.lang.stamps']"
    )


def test_the_reader_resolves_relative_imports():
    """Else the checks above would prove nothing."""
    assert "rulespec.lang.diagnostics" in imports_of(ROOT / "rulespec" / "lang" / "ir.py")
    assert "rulespec.lang.ir" in imports_of(ROOT / "rulespec" / "analysis" / "lint.py")
    assert not _allowed("rulespec.analysis.lint", ALLOWED["rulespec/lang"])


def _private_names_of_a_state() -> set[str]:
    """Every private field and method of a State (and its Table)."""
    from rulespec import load_spec
    from rulespec.interpreter import Game, State

    state = Game(load_spec(ROOT / "games" / "take_the_gold.yaml"), 2).new_initial_state()
    return {
        name
        for name in set(vars(state)) | set(dir(State))
        if name.startswith("_") and not name.startswith("__")
    }


def test_nothing_outside_the_runtime_touches_a_state_s_private_fields():
    """A state's table and flow are private: scenarios, replay, exploration, agents'
    users, tests and benchmarks go through its methods (issue 10)."""
    private = _private_names_of_a_state()
    wrong = []
    for path in sorted(ROOT.glob("**/*.py")):
        rel = path.relative_to(ROOT)
        if (
            rel.parts[0] in ("interpreter", ".git", "build")
            or rel.parts[:2] == ("rulespec", "interpreter")
            or "site-packages" in rel.parts
        ):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and node.attr in private:
                wrong.append(f"{rel}:{node.lineno}: .{node.attr}")
    assert not wrong, "\n".join(wrong)


def test_the_private_field_check_sees_one():
    """The check reads attribute access as written (else it would prove nothing)."""
    private = _private_names_of_a_state()
    tree = ast.parse("state._zones[0].append(1)\nstate._run()")
    assert {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} & private == {
        "_zones",
        "_run",
    }


def test_no_module_imports_the_runtime_by_its_folder_name():
    """The runtime installs as rulespec.interpreter: a top-level `interpreter` is not
    there after pip install (issue 18), so nothing may import it by that name."""
    wrong = [
        f"{p.relative_to(ROOT)} imports {m}"
        for top in ("rulespec", "tests", "benchmarks")
        for p in sorted((ROOT / top).rglob("*.py"))
        if "interpreter" not in p.relative_to(ROOT).parts[1:2]
        for m in imports_of(p)
        if m.split(".")[0] == "interpreter"
    ]
    assert not wrong, "\n".join(wrong)
