"""Broken specs: each file in tests/broken/ has one defect and says, as data on its
first lines, which diagnostics the front end must report and where:

    # expect: RS201 42:17          one line per diagnostic: code line:col (1-based)
    # expect-text: did you mean    optional: text the rendered report must contain
    # defect: ...                  what is wrong, for people

The expected place is the offending token or key, as a person would point at it;
the test checks the front end against it, never the other way round.
"""

from __future__ import annotations

import re
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
from gamekit import cli as run_cli

from rulespec import cli
from rulespec.lang.diagnostics import SpecError
from rulespec.lang.pipeline import load_spec

TESTS = Path(__file__).parent
ROOT = TESTS.parent
BROKEN = sorted((TESTS / "broken").glob("*.yaml"))
VALID = sorted((ROOT / "games").glob("*.yaml")) + sorted((TESTS / "valid").glob("*.yaml"))

_EXPECT = re.compile(r"^#\s*expect:\s*(RS\d{3})\s+(\d+):(\d+)\s*$")
_TEXT = re.compile(r"^#\s*expect-text:\s*(.+?)\s*$")


def expectations(path: Path) -> tuple[list[tuple[str, int, int]], list[str]]:
    """The `# expect:` and `# expect-text:` lines of the file's leading comments."""
    codes, texts = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        if line.startswith("# expect:") or line.startswith("#expect:"):
            m = _EXPECT.match(line)
            assert m, f"{path.name}: malformed expectation line {line!r}"
            codes.append((m.group(1), int(m.group(2)), int(m.group(3))))
        elif m := _TEXT.match(line):
            texts.append(m.group(1))
    return codes, texts


def _id(path: Path) -> str:
    return path.stem


def test_there_are_enough_fixtures():
    assert len(BROKEN) >= 20
    for path in BROKEN:
        codes, _ = expectations(path)
        assert codes, f"{path.name} declares no '# expect:' line"


@pytest.mark.parametrize("path", BROKEN, ids=_id)
def test_load_spec_reports_expected_diagnostics(path):
    expected, texts = expectations(path)
    with pytest.raises(SpecError) as info:
        load_spec(str(path))
    got = [(d.code, d.span.line, d.span.col) for d in info.value.diagnostics]
    assert Counter(got) == Counter(expected), "\n" + info.value.render()
    assert all(d.span.file == str(path) for d in info.value.diagnostics)
    rendered = info.value.render()
    for text in texts:
        assert text in rendered, f"{text!r} not in:\n{rendered}"


@pytest.mark.parametrize("path", BROKEN, ids=_id)
def test_cli_validate_reports_expected_diagnostics(path):
    expected, texts = expectations(path)
    out, err = StringIO(), StringIO()
    code = cli.main(["validate", str(path)], stdout=out, stderr=err)
    output = out.getvalue() + err.getvalue()
    assert "Traceback" not in output
    assert code == 1, output
    for c, line, col in expected:
        assert f"{path}:{line}:{col}: error {c}:" in output, output
    for text in texts:
        assert text in output, output


@pytest.mark.parametrize("path", BROKEN, ids=_id)
def test_cli_validate_json(path):
    expected, _ = expectations(path)
    import json

    out, err = StringIO(), StringIO()
    assert cli.main(["validate", "--json", str(path)], stdout=out, stderr=err) == 1
    got = [(d["code"], d["line"], d["col"]) for d in json.loads(out.getvalue())]
    assert Counter(got) == Counter(expected)


# --- valid specs ------------------------------------------------------------------------


@pytest.mark.parametrize("path", VALID, ids=_id)
def test_validate_valid_spec(path):
    out, err = StringIO(), StringIO()
    assert cli.main(["validate", str(path)], stdout=out, stderr=err) == 0, out.getvalue()
    assert "0 problem(s)" in out.getvalue()


def test_validate_many_specs_at_once():
    out, err = StringIO(), StringIO()
    paths = [str(p) for p in VALID + BROKEN[:3]]
    assert cli.main(["validate", *paths], stdout=out, stderr=err) == 1
    assert f"{len(paths)} spec(s) checked" in out.getvalue()


# --- the run command and its arguments ----------------------------------------------------


VALID_SPEC = str(TESTS / "valid" / "coin_grab.yaml")


def test_run_valid_spec():
    code, out, err = run_cli("run", VALID_SPEC, "--seed", "3", "--players", "2")
    assert code == 0, err
    assert "Game over" in out


def test_run_missing_file(tmp_path):
    missing = str(tmp_path / "no_such_game.yaml")
    code, out, err = run_cli("run", missing)
    assert code == 2
    assert "Traceback" not in out + err
    assert f"{missing}:1:1: error RS001: cannot read file" in err
    assert "No such file" in err


def test_run_broken_spec():
    path = str(TESTS / "broken" / "13_unknown_card_in_expression.yaml")
    expected, _ = expectations(Path(path))
    code, out, err = run_cli("run", path)
    assert code == 2
    assert "Traceback" not in out + err
    c, line, col = expected[0]
    assert f"{path}:{line}:{col}: error {c}:" in err


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["run", VALID_SPEC, "--players", "x"], "invalid int value: 'x'"),
        (["run", VALID_SPEC, "--agents", "clever"], "unknown agent 'clever'"),
        (["run", VALID_SPEC, "--agents", "random,first"], "2 agents named for 3 players"),
        (["run", VALID_SPEC, "--players", "9"], "for 2 to 4 players, not 9"),
        (["run", VALID_SPEC, "--players", "1"], "for 2 to 4 players, not 1"),
        (
            ["run", VALID_SPEC, "--max-turns", "0"],
            "argument --max-turns: must be at least 1, not 0",
        ),
        (["run", VALID_SPEC, "--as", "P9"], ""),
        (["frobnicate", VALID_SPEC], "invalid choice: 'frobnicate'"),
        (["run"], "the following arguments are required: SPEC"),
        (["validate"], "the following arguments are required: SPEC"),
        (["run", VALID_SPEC, "--no-such-flag"], "unrecognized arguments: --no-such-flag"),
        (
            ["run", VALID_SPEC, "extra"],
            "rulespec run: unrecognized arguments: extra\n(see 'rulespec run --help')",
        ),
    ],
    ids=[
        "players-not-int",
        "unknown-agent",
        "agents-miscount",
        "too-many-players",
        "too-few-players",
        "max-turns-0",
        "bad-seat",
        "unknown-command",
        "run-no-spec",
        "validate-no-spec",
        "unknown-flag",
        "extra-argument-names-the-command",
    ],
)
def test_bad_cli_arguments(argv, needle):
    code, out, err = run_cli(*argv)
    assert code == 2, out + err
    assert "Traceback" not in out + err
    assert err.strip(), "a usage error must say what is wrong"
    assert needle in err, err


def test_no_command_prints_help_and_fails():
    code, out, err = run_cli()
    assert code == 2
    assert "usage:" in out + err


def test_a_zone_misspelt_as_a_call_offers_the_zone_as_the_editor_s_fix():
    """The editor's quick fix reads a hint's suggestion: kept when the hint says 'zone'."""
    with pytest.raises(SpecError) as exc:
        load_spec(TESTS / "broken" / "137_zone_misspelt_where_it_is_called.yaml")
    (problem,) = exc.value.diagnostics
    assert problem.hint.suggestion == "hand"
