"""The pre-commit hooks a game-design repository can use (.pre-commit-hooks.yaml,
docs/ci.md): each runs a real rulespec command on the YAML files it is given."""

from __future__ import annotations

import re
import shlex
from io import StringIO
from pathlib import Path

import yaml

from rulespec.cli import main

ROOT = Path(__file__).resolve().parent.parent
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())


def hook(hook_id):
    return next(h for h in HOOKS if h["id"] == hook_id)


def test_the_hooks_are_declared():
    assert [h["id"] for h in HOOKS] == ["rulespec-lint", "rulespec-validate"]
    for h in HOOKS:
        assert {"id", "name", "entry", "language", "files"} <= set(h)
        assert h["language"] == "python"
    assert hook("rulespec-lint")["entry"] == "rulespec lint"
    assert hook("rulespec-validate")["entry"] == "rulespec validate"


def test_the_hooks_match_yaml_files_but_not_pre_commit_configs():
    for h in HOOKS:
        files, exclude = re.compile(h["files"]), re.compile(h["exclude"])

        def picked(path, files=files, exclude=exclude):
            return bool(files.search(path)) and not exclude.search(path)

        assert picked("games/take_the_gold.yaml") and picked("games/variants/x/long.yml")
        assert not picked("README.md") and not picked("games/notes.yaml.txt")
        assert not picked(".pre-commit-config.yaml") and not picked("sub/.pre-commit-hooks.yaml")


def run_hook(hook_id, *files, args=()):
    """What pre-commit runs: the entry, the hook's args, then the file names."""
    argv = shlex.split(hook(hook_id)["entry"])[1:] + list(args) + [str(f) for f in files]
    out = StringIO()
    return main(argv, stdout=out, stderr=StringIO()), out.getvalue()


def test_the_lint_hook_passes_clean_specs_and_variants():
    specs = sorted((ROOT / "games").glob("*.yaml")) + sorted(
        (ROOT / "games/variants").glob("*/*.yaml")
    )
    code, out = run_hook("rulespec-lint", *specs)
    assert (code, out) == (0, f"{len(specs)} spec(s) linted: 0 error(s), 0 warning(s), 0 note(s)\n")
    assert run_hook("rulespec-validate", *specs)[0] == 0


def test_the_lint_hook_fails_a_broken_variant(tmp_path):
    base = tmp_path / "base.yaml"
    base.write_text((ROOT / "games/take_the_gold.yaml").read_text())
    variant = tmp_path / "long_6.yaml"
    variant.write_text("rulespec: 1\nextends: base.yaml\nparameters:\n  kraken_limit: 6\n")
    code, out = run_hook("rulespec-lint", variant)
    assert code == 1 and "error RL105" in out
    # validate only checks that it loads: it does
    assert run_hook("rulespec-validate", variant)[0] == 0
    # warnings pass the lint hook unless the repository asks for --fail-on warning
    base.write_text(base.read_text().replace("hand_limit: 5 ", "hand_limit: 5\n  spare: 1 "))
    assert run_hook("rulespec-lint", base)[0] == 0
    assert run_hook("rulespec-lint", base, args=["--fail-on", "warning"])[0] == 1
