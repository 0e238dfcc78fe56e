"""The CLI's edges (issue 12): what a spec holds reaches the terminal only as text,
standard streams that fail end in one line, refused files in one line, and numbers
out of bounds are usage errors that name their option."""

import json
import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from gamekit import GAMES, ROOT, cli

import rulespec.lang.source as source
from rulespec.cli import main
from rulespec.table.narrate import visible

TTG = GAMES / "take_the_gold.yaml"
ESCAPES = "\x1b]0;pwned\x07\x1b[31m\u202e"  # set the window title, go red, reverse the line


@pytest.fixture
def loud(tmp_path):
    """Take the Gold with terminal escapes in its name and in a card's title."""
    text = TTG.read_text().replace("name: Take the Gold", 'name: "Take\\e]0;pwned\\a the Gold"')
    text = text.replace("{title: Gold Coin,", '{title: "Gold\\e[31m\\nCoin\\u202e",')
    spec = tmp_path / "loud.yaml"
    spec.write_text(text)
    return spec


def test_visible_writes_control_characters_out():
    assert visible(ESCAPES) == "\\x1b]0;pwned\\x07\\x1b[31m\\u202e"
    assert visible("a\nb\tc", keep="\n") == "a\nb\\x09c"
    assert visible("Gold Coin, naïve") == "Gold Coin, naïve"


@pytest.mark.parametrize(
    "argv",
    [
        ["run"],
        ["run", "--json"],
        ["run", "--games", "2"],
        ["simulate", "--games", "3"],
        ["graph", "--format", "json"],
    ],
)
def test_a_spec_cannot_reach_the_terminal_raw(loud, argv):
    code, out, err = cli(argv[0], loud, *argv[1:])
    assert code == 0, err
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202e]", out + err)
    if argv == ["run"]:
        assert out.startswith("Take\\x1b]0;pwned\\x07 the Gold: 4 players")
        assert "Gold\\x1b[31m\\x0aCoin\\u202e" in out


def test_a_person_at_the_table_sees_titles_as_text(loud):
    out = StringIO()
    code = main(
        ["play", str(loud), "--as", "P1", "--players", "2"],
        stdout=out,
        stderr=StringIO(),
        stdin=StringIO("1\n" * 200),
    )
    assert code == 0
    assert "Gold\\x1b[31m\\x0aCoin\\u202e" in out.getvalue()
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202e]", out.getvalue())


def test_a_diagnostic_shows_a_key_with_escapes_as_text(tmp_path):
    spec = tmp_path / "keys.yaml"
    spec.write_text(TTG.read_text() + '"\\e]0;pwned\\a": 1\n')
    code, out, _ = cli("validate", spec)
    assert code == 1 and "unknown key '\\x1b]0;pwned\\x07'" in out


def entry(*argv, shell=""):
    """The installed command's entry point in a new process, with shell redirections."""
    command = [
        sys.executable,
        "-c",
        "import sys; from rulespec.cli import entry; sys.argv[0] = 'rulespec'; entry()",
        *map(str, argv),
    ]
    done = subprocess.run(
        ["sh", "-c", '"$@" ' + shell, "sh", *command],
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "argv, shell, message",
    [
        (["run", TTG], ">&-", "rulespec: cannot write standard output: it is closed\n"),
        (
            ["run", TTG],
            "> /dev/full",
            "rulespec: cannot write standard output: No space left on device\n",
        ),
        (
            ["schema"],
            "> /dev/full",
            "rulespec: cannot write standard output: No space left on device\n",
        ),
    ],
)
def test_standard_output_that_fails_ends_in_one_line(argv, shell, message):
    assert entry(*argv, shell=shell) == (2, "", message)


@pytest.mark.parametrize("shell", ["2>&-", "2>/dev/full"])
def test_standard_error_that_fails_just_ends(shell):
    code, out, err = entry("run", TTG, "--players", 9, shell=shell)
    assert (code, out, err) == (2, "", "")


def test_a_reader_that_leaves_is_no_error():
    code, out, err = entry("run", TTG, shell="| head -1")
    assert (code, err) == (0, "") and out == "Take the Gold: 4 players, seed 0, agents random\n"


@pytest.mark.parametrize("games", [1, 3])
def test_a_reader_that_leaves_still_gets_the_whole_log_written(tmp_path, games):
    """A Euchre designer's `run --log x.jsonl | head -1` exited 0 and wrote no log: the
    narration's broken pipe ended the run before the log was kept."""
    log = tmp_path / "x.jsonl"
    code, _out, err = entry("run", TTG, "--games", games, "--log", log, shell="| head -1")
    assert (code, err) == (0, "")
    assert cli("replay", log)[1].endswith(f"{games} of {games} game(s) replayed the same\n")


def test_a_folder_without_permission_is_one_line(tmp_path, monkeypatch):
    def refused(self, pattern):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "rglob", refused)
    assert cli("test", tmp_path) == (2, "", f"rulespec test: {tmp_path}: Permission denied\n")


@pytest.mark.parametrize("command", ["test", "lint"])
def test_a_name_the_system_refuses_is_one_line(command):
    name = "x" * 300 + ".yaml"
    code, out, err = cli(command, name)
    assert (code, out, err) == (2, "", f"rulespec {command}: {name}: File name too long\n")


def test_a_spec_without_permission_is_one_line(monkeypatch):
    real_open = source.os.open

    def refused(path, flags, *args):  # tests run as root, which any permission lets by
        if str(path) == str(TTG):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(source.os, "open", refused)
    code, _out, err = cli("run", TTG)
    assert (code, err) == (2, f"{TTG}:1:1: error RS001: cannot read file: Permission denied\n")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["run", TTG, "--players", 0], "argument --players: must be at least 1, not 0"),
        (["run", TTG, "--players", -3], "argument --players: must be at least 1, not -3"),
        (
            ["play", TTG, "--as", "P1", "--players", 0],
            "argument --players: must be at least 1, not 0",
        ),
        (["run", TTG, "--games", 0], "argument --games: must be at least 1, not 0"),
        (["run", TTG, "--games", 10_001], "argument --games: must be at most 10,000"),
        (["run", TTG, "--max-turns", -1], "argument --max-turns: must be at least 1, not -1"),
        (
            ["simulate", TTG, "--games", 10**12 + 1],
            "argument --games: must be at most 1,000,000,000,000",
        ),
        (
            ["simulate", TTG, "--games", 10**31],
            "argument --games: must be at most 1,000,000,000,000",
        ),
        (["simulate", TTG, "--games", "1e9"], "argument --games: invalid int value: '1e9'"),
        (["simulate", TTG, "--games", "\u0663"], "argument --games: invalid int value: '\u0663'"),
        (["simulate", TTG, "--workers", 10**6], "argument --workers: must be at most 256"),
        (
            ["diff", TTG, TTG, "--simulate", 10**13],
            "argument --simulate: must be at most 1,000,000,000,000",
        ),
        (
            ["diff", TTG, TTG, "--simulate", 5, "--players", 0],
            "argument --players: must be at least 1, not 0",
        ),
        (
            ["lint", TTG, "--simulate", 10**13],
            "argument --simulate: must be at most 1,000,000,000,000",
        ),
        (
            ["lint", "--simulate", TTG],  # a designer's: the optional number took the spec
            f"argument --simulate: invalid int value: '{TTG}' (a file: put the spec files "
            "before the option, or give the option its number)",
        ),
        (["lint", TTG, "--depth", 0], "argument --depth: must be at least 1, not 0"),
        (
            ["lint", TTG, "--explore", "--timeout", "nan"],
            "argument --timeout: must be above 0 and at most 86,400, not nan",
        ),
        (
            ["lint", TTG, "--explore", "--timeout", -1],
            "argument --timeout: must be above 0 and at most 86,400, not -1",
        ),
        (
            ["lint", TTG, "--select", "RLxx"],
            "argument --select: 'RLxx' is not a code or a code's prefix, such as RL1 or RS205",
        ),
        (
            ["lint", TTG, "--ignore", ""],
            "argument --ignore: needs codes or prefixes, such as RL1,RS205",
        ),
    ],
)
def test_a_number_out_of_bounds_is_a_usage_error(argv, message):
    code, out, err = cli(*argv)
    assert (code, out) == (2, "")
    assert err == f"rulespec {argv[0]}: {message}\n(see 'rulespec {argv[0]} --help')\n"


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["lint", TTG, "--agents", "clever"],
            "unknown agent 'clever'; known: random, first, greedy, ismcts",
        ),
        (
            ["diff", TTG, TTG, "--agents", "clever"],
            "unknown agent 'clever'; known: random, first, greedy, ismcts",
        ),
        (["lint", TTG, "--depth", 5], "--depth bounds --explore: give --explore as well"),
        (["lint", TTG, "--max-states", 5], "--max-states bounds --explore: give --explore as well"),
        (["lint", TTG, "--timeout", 5], "--timeout bounds --explore: give --explore as well"),
        (
            ["lint", TTG, "--players", 3],
            "--players is the player count of --explore or --simulate: give one",
        ),
        (  # a Gin Rummy designer's: every finding was dropped, exit 0
            ["lint", TTG, "--select", "RL999", "--fail-on", "warning"],
            "--select: no code is or begins with 'RL999' (lint's codes, RL101 to RL304, "
            "are listed in docs/lint.md)",
        ),
        (
            ["lint", TTG, "--ignore", "RL1,RS9"],
            "--ignore: no code is or begins with 'RS9' (lint's codes, RL101 to RL304, "
            "are listed in docs/lint.md)",
        ),
    ],
)
def test_a_lint_flag_that_would_change_nothing_is_a_usage_error(argv, message):
    """Such a flag was taken and ignored: a mistyped agent passed, and so did a
    --depth given without --explore."""
    code, out, err = cli(*argv)
    assert (code, out, err) == (2, "", f"rulespec {argv[0]}: {message}\n")


def test_a_negative_seed_is_a_seed():
    code, out, _ = cli("run", TTG, "--seed", -5, "--json")
    assert code == 0 and json.loads(out)["seed"] == -5


def test_a_dask_address_dask_cannot_read_is_a_usage_error():
    pytest.importorskip("distributed")
    code, _out, err = cli("simulate", TTG, "--games", 2, "--dask", "nonsense")
    assert (code, err) == (
        2,
        "rulespec simulate: cannot reach the Dask scheduler nonsense: "
        "missing port number in address 'nonsense'; start one with `dask scheduler` and give "
        "the address it prints, tcp://HOST:PORT\n",
    )


def test_an_output_to_standard_output_as_a_pipe_is_written_there():
    code, out, err = entry("graph", TTG, "--output", "/dev/stdout")
    assert (code, err) == (0, "") and out.startswith('digraph "Take the Gold" {\n')


@pytest.mark.parametrize(
    "argv, name",
    [(["run", "schema\0"], "spec"), (["graph", str(TTG), "--output", "x\0"], "output")],
)
def test_a_nul_character_in_an_argument_is_one_line(argv, name):
    """It made every path raise ValueError deep inside (found by the fuzz guard)."""
    code, out, err = cli(*argv)
    assert (code, out) == (
        2,
        "",
    ) and err == f"rulespec {argv[0]}: {name}: a NUL character cannot be in an argument\n"


def test_version_is_the_installed_metadata_version():
    from importlib.metadata import version

    code, out, err = cli("--version")
    assert (code, out, err) == (0, f"rulespec {version('rulespec')}\n", "")


def test_python_dash_m_rulespec_is_the_command():
    done = subprocess.run(
        [sys.executable, "-m", "rulespec", "validate", str(TTG)],
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    assert (done.returncode, done.stdout) == (0, "1 spec(s) checked, 0 problem(s)\n")


def _with_stdin(text, *argv):
    out, err = StringIO(), StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err, stdin=StringIO(text))
    return code, out.getvalue(), err.getvalue()


def test_a_dash_reads_the_spec_from_standard_input_and_names_it_there():
    text = TTG.read_text()
    assert _with_stdin(text, "run", "-", "--seed", 4, "--json") == cli(
        "run", TTG, "--seed", 4, "--json"
    )
    code, out, _ = _with_stdin(text.replace("count: 16", "count: x"), "validate", "-")
    assert code == 1 and out.startswith("<stdin>:13:47: error RS102: ")
    code, out, _ = _with_stdin(text, "lint", "-", "--format", "json")
    assert code == 0


@pytest.mark.parametrize(
    "argv, message",
    [
        (["diff", "-", "-"], "'-' (standard input) can stand for one spec only"),
        (
            ["play", "-", "--as", "P1"],
            "'-' cannot be the spec of play: standard input carries your choices",
        ),
    ],
)
def test_standard_input_is_one_spec_and_never_plays_choices(argv, message):
    assert _with_stdin(TTG.read_text(), *argv) == (2, "", f"rulespec {argv[0]}: {message}\n")


def test_standard_input_not_utf8_in_a_c_locale_is_one_line():
    """A C locale reads standard input with surrogates standing for the bytes that are
    not UTF-8: the spec reached YAML and failed with escapes in its message."""
    done = subprocess.run(
        [sys.executable, "-m", "rulespec", "validate", "-"],
        input=b"rulespec: 1\nname: \xff\xfe\n",
        capture_output=True,
        env={**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0"},
    )
    assert (done.returncode, done.stderr) == (
        2,
        b"rulespec validate: standard input is not UTF-8\n",
    )
    text = (GAMES / "take_the_gold.yaml").read_bytes() + "# café\n".encode()
    done = subprocess.run(
        [sys.executable, "-m", "rulespec", "validate", "-"],
        input=text,
        capture_output=True,
        env={**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0"},
    )
    assert done.returncode == 0, done.stderr  # UTF-8 is read as UTF-8 whatever the locale


def test_an_ascii_terminal_is_shown_what_it_cannot_print_escaped():
    """With an ASCII standard output (a C locale without Python's UTF-8 mode), play's
    first dash stopped the game: 'cannot write standard output'."""
    done = subprocess.run(
        [sys.executable, "-m", "rulespec", "play", str(GAMES / "take_the_gold.yaml")]
        + ["--as", "P1", "--seed", "1"],
        input=b"",
        capture_output=True,
        env={**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""},
    )
    assert b"\\u2014" in done.stdout and b"cannot write" not in done.stderr, done.stderr
    assert done.stderr.endswith(b"input ended before the game did\n")
