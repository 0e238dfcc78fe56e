"""CLI conventions: one --format spelling (--json its alias), GitHub annotations, JUnit
XML, the [tool.rulespec] config, shell completion, help on every command, a streamed
match and progress lines on terminals only."""

import json
import os
import re
import shutil
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path
from xml.etree import ElementTree

import pytest
from gamekit import GAMES, bash_completes, cli

import rulespec.interpreter.agents as agents_module
from rulespec import cli as cli_module
from rulespec.cli import main

TTG = str(GAMES / "take_the_gold.yaml")
PW = GAMES / "pirates_wild.yaml"
SCENARIOS = Path(__file__).parent / "scenarios" / "engine"
BROKEN = Path(__file__).parent / "broken" / "01_wrong_type_card_count.yaml"


@pytest.fixture
def never_offered(tmp_path):
    """Pirates Wild with one action no step lists: lint's RL102, a warning, at the action."""
    text = PW.read_text(encoding="utf-8")
    text = text.replace("    actions: [play_daylight, play_crew,", "    actions: [play_crew,")
    spec = tmp_path / "pirates_wild.yaml"
    spec.write_text(text, encoding="utf-8")
    return spec


# --- one spelling for formats ----------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", TTG],
        ["lint", TTG],
        ["test", str(SCENARIOS)],
        ["games"],
        ["run", TTG, "--seed", "4"],
        ["run", TTG, "--games", "2"],
        ["simulate", TTG, "--games", "5"],
        ["diff", TTG, TTG],
    ],
)
def test_json_is_an_alias_of_format_json(argv):
    old, new = cli(*argv, "--json"), cli(*argv, "--format", "json")
    assert old == new and old[0] == 0, old[2]
    json.loads(new[1])


def test_replay_takes_format_json(tmp_path):
    log = tmp_path / "game.jsonl"
    assert cli("run", TTG, "--log", log)[0] == 0
    assert cli("replay", log, "--json") == cli("replay", log, "--format", "json")
    assert json.loads(cli("replay", log, "--format", "json")[1])[0]["same"] is True


def test_a_format_a_command_does_not_have_is_a_usage_error_naming_it():
    code, _out, err = cli("run", TTG, "--format", "junit")
    assert code == 2 and err.startswith("rulespec run: argument --format: invalid choice: 'junit'")


def test_lint_github_annotations(never_offered):
    code, out, err = cli("lint", never_offered, "--format", "github")
    assert (code, err) == (0, "")
    line = next(
        i
        for i, text in enumerate(never_offered.read_text().splitlines(), 1)
        if text == "  play_daylight:"
    )
    assert out == (
        f"::warning file={never_offered},line={line},col=3,title=RL102::action 'play_daylight' "
        "is never offered: no turn step lists it (add it to a step's actions, or remove it)\n"
    )


def test_validate_github_annotations_are_errors():
    code, out, _err = cli("validate", BROKEN, "--format", "github")
    assert code == 1
    assert out == (
        f"::error file={BROKEN},line=12,col=19,title=RS102::"
        "deck.cards.coin.count must be an integer, got a string (a number written out: this "
        "key reads no formula (player_count, a parameter))\n"
    )


def test_annotations_escape_what_would_end_them():
    from rulespec.formats import github
    from rulespec.lang.diagnostics import Diagnostic, Span

    line = github([Diagnostic("RS102", "50% off\nnext", Span("a,b:c.yaml", 1, 2))])
    assert line == "::error file=a%2Cb%3Ac.yaml,line=1,col=2,title=RS102::50%25 off%0Anext\n"


def test_validate_sarif():
    code, out, _ = cli("validate", BROKEN, "--format", "sarif")
    result = json.loads(out)["runs"][0]["results"][0]
    assert code == 1 and result["ruleId"] == "RS102" and result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 12,
        "startColumn": 19,
    }


def test_test_junit_has_one_testcase_per_scenario_and_failures_with_messages(tmp_path):
    scenario = (SCENARIOS / "players_out_at_the_start_cannot_win.yaml").read_text()
    scenario = scenario.replace("spec: ../../", f"spec: {SCENARIOS.parent.parent}/")
    (tmp_path / "a_right.yaml").write_text(scenario)
    assert "  over: false\n" in scenario
    wrong = tmp_path / "b_wrong.yaml"
    wrong.write_text(
        scenario.replace("name: ", "name: wrong, ", 1).replace("  over: false\n", "  over: true\n")
    )
    code, out, err = cli("test", tmp_path, "--format", "junit")
    assert code == 1, err
    assert out.startswith('<?xml version="1.0" encoding="utf-8"?>\n<testsuites ')
    suite = ElementTree.fromstring(out).find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("file") for c in cases] == [str(tmp_path / "a_right.yaml"), str(wrong)]
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")
    assert cases[0].find("failure") is None
    failure = cases[1].find("failure")
    assert cases[1].get("name").startswith("wrong, ") and failure.text.startswith(
        failure.get("message")
    )
    assert "over" in failure.get("message")


def test_test_junit_is_valid_xml_whatever_the_names(tmp_path):
    """Issue 24: a scenario named with U+FFFE gave XML that does not parse; what XML
    cannot hold is written out, as the text output writes out control characters."""
    from rulespec import formats
    from rulespec.table.scenarios import Outcome

    scenario = (SCENARIOS / "players_out_at_the_start_cannot_win.yaml").read_text()
    scenario = scenario.replace("spec: ../../", f"spec: {SCENARIOS.parent.parent}/")
    (tmp_path / "odd.yaml").write_text(
        re.sub(r"(?m)^name: .*$", r'name: "odd \\uFFFE\\uFFFF name"', scenario)
    )
    code, out, err = cli("test", tmp_path, "--format", "junit")
    assert code == 0, err
    assert ElementTree.fromstring(out).find("testsuite/testcase").get("name") == (
        "odd \\ufffe\\uffff name"
    )
    odd = "\x00\x1b\ud800\ufffe"  # the library function, without the stream's escapes
    report = formats.junit([Outcome(odd, f"f{odd}.yaml", False, [odd])])
    failure = ElementTree.fromstring(report).find("testsuite/testcase/failure")
    assert failure.get("message") == failure.text == "\\x00\\x1b\\ud800\\ufffe"


# --- the config file -------------------------------------------------------------------


def test_config_severity_select_and_fail_on_from_pyproject(never_offered, tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.rulespec.lint]\nseverity = {RL102 = "error"}\n'
    )
    sub = tmp_path / "deep" / "er"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)  # found by walking up
    code, out, _ = cli("lint", never_offered, "--format", "json")
    assert code == 1 and [f["severity"] for f in json.loads(out)] == ["error"]
    assert cli("lint", never_offered, "--fail-on", "warning")[0] == 1
    (tmp_path / "pyproject.toml").write_text(
        '[tool.rulespec.lint]\nignore = ["RL1"]\nfail-on = "info"\n'
    )
    assert cli("lint", never_offered, "--format", "json")[1] == "[]\n"
    assert (
        json.loads(cli("lint", never_offered, "--json", "--ignore", "RL2")[1])[0]["code"] == "RL102"
    )


def test_config_fail_on_applies_to_diff_and_the_flag_wins(never_offered, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("diff", PW, never_offered)[0] == 0  # a new warning passes by default
    (tmp_path / "rulespec.toml").write_text('[lint]\nfail-on = "warning"\n')
    assert cli("diff", PW, never_offered)[0] == 1
    assert cli("diff", PW, never_offered, "--fail-on", "error")[0] == 0


def test_config_bounds_and_flags_win(tmp_path, monkeypatch):
    (tmp_path / "rulespec.toml").write_text("[simulate]\ngames = 7\n\n[explore]\ndepth = 2\n")
    monkeypatch.chdir(tmp_path)
    assert json.loads(cli("simulate", TTG, "--json")[1])["games"] == 7
    assert json.loads(cli("simulate", TTG, "--json", "--games", "3")[1])["games"] == 3
    seen = {}
    from rulespec.analysis import explore

    monkeypatch.setattr(
        explore,
        "explore",
        lambda spec, bounds, progress=None: (
            seen.setdefault("bounds", bounds) and explore.Report(states=1)
        ),
    )
    cli("lint", TTG, "--explore")
    assert (seen["bounds"].depth, seen["bounds"].max_states) == (2, 40_000)
    del seen["bounds"]
    cli("lint", TTG, "--explore", "--depth", "5")
    assert seen["bounds"].depth == 5


def test_exploration_has_a_ceiling_of_states_and_of_memory(monkeypatch):
    """Issue 24: `lint --explore --max-states N` took any N, and memory without end (a
    state of a large deck holds 100 kB): past the ceiling, or past its memory, it is a
    usage error, and so is a MemoryError of a machine with less."""
    from rulespec import cli as command
    from rulespec.analysis import explore

    code, _, err = cli("lint", PW, "--explore", "--max-states", "80001")
    assert code == 2 and "argument --max-states: must be at most 80,000" in err
    monkeypatch.setattr(command, "MAX_EXPLORE_MEMORY", 0)
    monkeypatch.setattr(explore, "resident", iter(range(0, 10**9, 4096)).__next__)
    code, out, err = cli("lint", PW, "--explore", "--max-states", "3000")
    assert (code, out) == (2, "")
    assert re.fullmatch(
        f"rulespec lint: {re.escape(str(PW))}: exploration stopped at 50[0-9] states, which "
        "took more than 0 GB of memory: no result is given; lower --max-states or --depth\n",
        err,
    ), err

    def short(spec, bounds, progress=None):
        raise MemoryError

    monkeypatch.setattr(explore, "explore", short)
    code, _, err = cli("lint", PW, "--explore")
    assert code == 2 and err.endswith(
        "exploration ran out of memory: no result is given; lower --max-states or --depth\n"
    )


@pytest.mark.parametrize(
    "text, where, message",
    [
        ('[tool.rulespec.lint]\nsellect = ["RL1"]\n', ":2:", "unknown setting 'lint.sellect'"),
        (
            '[tool.rulespec.lint]\nseverity = {RL102 = "fatal"}\n',
            ":2:",
            "must be one of info, warning, error",
        ),
        (
            "[tool.rulespec]\n\n[tool.rulespec.explore]\ndepth = 0\n",
            ":4:",
            "'depth' must be a whole number",
        ),
        (
            "[tool.rulespec.simulate]\ngames = 1000000000001\n",
            ":2:",
            "from 1 to 1,000,000,000,000",
        ),
        # issue 24: no ceiling, and 2 GB in two minutes, then an internal MemoryError
        ("[tool.rulespec.explore]\nmax-states = 80001\n", ":2:", "from 1 to 80,000"),
        ("[tool.rulespec.lints]\n", ":1:", "unknown setting 'lints'"),
        ("[tool.rulespec\n", ":1:", "not TOML"),
        # issue 24: an internal error (RecursionError) before
        (
            "[tool.rulespec.explore]\ndepth = " + "[" * 600 + "]" * 600 + "\n",
            ": ",
            "arrays or tables are nested too deep to read",
        ),
    ],
)
def test_a_bad_config_is_a_positioned_usage_error(tmp_path, monkeypatch, text, where, message):
    (tmp_path / "pyproject.toml").write_text(text)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("lint", TTG)
    assert code == 2 and out == ""
    assert (
        err.startswith(f"rulespec lint: {tmp_path / 'pyproject.toml'}{where}") and message in err
    ), err
    assert cli("games")[0] == 0  # commands that read no setting are not stopped by it


# --- completion ------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completion_registers_and_completes_specs(tmp_path):
    code, script, err = cli("completion", "bash")
    assert code == 0, err
    (tmp_path / "completion.bash").write_text(script)
    (tmp_path / "mine.yaml").write_text("")
    (tmp_path / "notes.txt").write_text("")
    done = subprocess.run(
        [
            "bash",
            "-c",
            "source completion.bash && complete -p rulespec && "
            "_rulespec_specs '' && _rulespec_specs take",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("complete ") and lines[0].endswith(" rulespec")
    assert "mine.yaml" in lines and "notes.txt" not in lines
    assert "take_the_gold" in lines and lines.count("take_the_gold") == 2

    def complete(line):
        return bash_completes(tmp_path, line)

    assert {"lint", "games"} <= complete("rulespec ") and complete("rulespec li") == {"lint"}
    assert complete("rulespec lint --fo") == {"--format"}
    assert complete("rulespec run take") == {"take_the_gold"}
    assert "mine.yaml" in complete("rulespec validate ") and "notes.txt" not in complete(
        "rulespec validate "
    )


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_registers_the_script_the_command_prints():
    root = Path(__file__).parent.parent
    done = subprocess.run(
        [
            "bash",
            "-c",
            f"source <('{sys.executable}' -m rulespec completion bash) && complete -p rulespec",
        ],
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONPATH": str(root)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "complete -o bashdefault -F _shtab_rulespec rulespec\n"


@pytest.mark.parametrize(
    "shell, marker", [("zsh", "#compdef rulespec"), ("fish", "complete -c rulespec")]
)
def test_zsh_and_fish_completion(shell, marker):
    code, script, _ = cli("completion", shell)
    assert (
        code == 0 and marker in script and "rulespec_specs" in script and "take_the_gold" in script
    )


# --- help ------------------------------------------------------------------------------


def _subparsers():
    import argparse

    parser = cli_module._parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices


@pytest.mark.parametrize("name", sorted(_subparsers()))
def test_every_command_help_has_a_description_argument_help_and_an_example(name):
    command = _subparsers()[name]
    assert command.description and len(command.description) > 20
    assert command.epilog.startswith("example:\n  rulespec ") or "\n  rulespec " in command.epilog
    for action in command._actions:
        assert action.help, f"rulespec {name}: {action.option_strings or action.dest} has no help"
    code, out, _ = cli(name, "--help")
    assert code == 0 and out.startswith(f"usage: rulespec {name}") and "example:" in out


# one placeholder per kind of argument (docs/cli.md, the table under the synopsis)
PLACEHOLDERS = {
    "SPEC", "OLD", "NEW", "BASE", "N", "SEED", "AGENTS", "NAME", "SEAT", "RULE", "KIND",
    "KINDS", "CODES", "FILE", "DIR", "LOG", "PATH", "SECONDS", "ADDRESS", "HOST", "PORT",
}  # fmt: skip
CLI_DOC = Path(__file__).parent.parent / "docs" / "cli.md"


def _placeholders(command):
    """(action, the placeholder its --help shows) of each argument that takes a value
    and is not a choice among words."""
    for action in command._actions:
        if action.nargs == 0 or (action.choices is not None and action.metavar is None):
            continue
        default = action.dest.upper() if action.option_strings else action.dest
        yield action, command._get_formatter()._metavar_formatter(action, default)(1)[0]


@pytest.mark.parametrize("name", sorted(_subparsers()))
def test_every_placeholder_follows_the_convention(name):
    from rulespec.table.bundled import spec_argument

    command = _subparsers()[name]
    for action, shown in _placeholders(command):
        where = f"rulespec {name} {'/'.join(action.option_strings) or action.dest}"
        assert shown in PLACEHOLDERS, f"{where}: {shown} is no placeholder of docs/cli.md"
        kind = getattr(action.type, "__name__", None)
        if action.type is spec_argument:
            assert shown in ("SPEC", "OLD", "NEW", "BASE"), where
        elif kind == "whole" and action.dest != "port":
            assert shown == "N", f"{where}: a count is N, not {shown}"
        if action.dest == "seed":
            assert shown == "SEED", where
        if action.dest in ("log",):
            assert shown == "LOG", where
        if action.dest in ("output", "plot", "render", "saves"):
            assert shown in ("FILE", "DIR"), where
    code, out, _ = cli(name, "--help")
    usage = out.split("\n\n")[0]
    shown = set(re.findall(r"\b[A-Z][A-Z_]+\b", usage)) - {"COMMAND"}
    assert code == 0 and shown <= PLACEHOLDERS, usage


@pytest.mark.parametrize("name", sorted(set(_subparsers()) - {"serve"}))  # its lobby picks them
def test_every_command_that_reads_a_spec_takes_variant(name):
    from rulespec.table.bundled import spec_argument

    command = _subparsers()[name]
    reads = any(a.type is spec_argument and not a.option_strings for a in command._actions)
    takes = any("--variant" in a.option_strings for a in command._actions)
    assert takes == reads, name


def test_the_synopsis_uses_the_placeholders_of_the_help():
    text = CLI_DOC.read_text(encoding="utf-8")
    synopsis = text[text.index("```text\nrulespec run SPEC") : text.index("rulespec --version")]
    commands = _subparsers()
    checked = 0
    for line in re.split(r"\n(?=rulespec )", synopsis.split("\n", 1)[1]):
        command = commands[line.split()[1]]
        options = {o: shown for a, shown in _placeholders(command) for o in a.option_strings}
        for option, word in re.findall(r"(--?[a-z][\w-]*) \[?([A-Z]+)\b", line):
            assert options.get(option) == word, f"{line.split()[1]} {option}: docs {word}"
            checked += 1
        # every option is there but help, --debug and --json (the same as --format json)
        shown = {*re.findall(r"(--?[a-z][\w-]*)", line), "-h", "--debug", "--json"}
        lacking = [
            a.option_strings
            for a in command._actions
            if a.option_strings and not shown & set(a.option_strings)
        ]
        assert lacking == [], f"{line.split()[1]}: the synopsis lacks {lacking}"
    assert checked > 40
    table = text[text.index("| placeholder |") :]
    table = table[: table.index("\n\n")]
    assert set(re.findall(r"`([A-Z]+)`", table)) == PLACEHOLDERS


@pytest.mark.parametrize("name", sorted(set(_subparsers()) - {"games", "lsp"}))
def test_usage_errors_name_the_command(name):
    code, _, err = cli(name, "--no-such-option")
    assert code == 2 and err.startswith(f"rulespec {name}: "), err
    assert f"(see 'rulespec {name} --help')" in err


# --- a streamed match, progress --------------------------------------------------------


def test_a_match_is_shown_game_by_game_as_each_ends(monkeypatch, tmp_path):
    played, when_shown = [], {}
    real_play = agents_module.play  # the CLI imports it as a game starts
    monkeypatch.setattr(agents_module, "play", lambda g, a: played.append(1) or real_play(g, a))

    class Watching(StringIO):
        def write(self, text):
            if text.startswith("\n== Game "):
                when_shown[text.split()[2]] = len(played)
            return super().write(text)

    out, log = Watching(), tmp_path / "match.jsonl"
    assert (
        main(
            ["run", TTG, "--games", "3", "--log", str(log), "--as", "P2"],
            stdout=out,
            stderr=StringIO(),
        )
        == 0
    )
    assert when_shown == {"1": 1, "2": 2, "3": 3}
    assert cli("replay", log)[1].endswith("3 of 3 game(s) replayed the same\n")


class Terminal(StringIO):
    def isatty(self):
        return True


def _clock(monkeypatch, step=0.5):
    now = [0.0]

    def tick():
        now[0] += step
        return now[0]

    monkeypatch.setattr(time, "monotonic", tick)


def test_simulate_progress_on_a_terminal_is_finer_than_eight_steps(monkeypatch):
    _clock(monkeypatch)
    err = Terminal()
    assert main(["simulate", TTG, "--games", "200", "--json"], stdout=StringIO(), stderr=err) == 0
    updates = err.getvalue().split("\r")[1:]
    assert (
        len(updates) > 8
        and updates[-1].startswith("  [####################] 200/200 games, ")
        and err.getvalue().endswith("\n")
    )
    for update in updates:  # a bar of 20, filled as far as the games played
        bar, count = re.match(r"  \[([#.]{20})\] (\d+)/200 games, ", update).groups()
        assert bar == "#" * (20 * int(count) // 200) + "." * (20 - 20 * int(count) // 200)


def test_no_progress_when_standard_error_is_no_terminal(monkeypatch):
    _clock(monkeypatch)
    code, _, err = cli("simulate", TTG, "--games", "50", "--json")
    assert code == 0 and err == ""


def test_match_and_explore_progress_on_a_terminal(monkeypatch):
    _clock(monkeypatch)
    err = Terminal()
    assert main(["run", TTG, "--games", "4", "--json"], stdout=StringIO(), stderr=err) == 0
    assert err.getvalue().split("\r")[-1].startswith("  [####################] 4/4 games")
    from rulespec.analysis import explore

    monkeypatch.setattr(explore, "PROGRESS_EVERY", 20)
    err = Terminal()
    assert main(["lint", TTG, "--explore", "--depth", "4"], stdout=StringIO(), stderr=err) in (0, 1)
    assert " states, " in err.getvalue() and err.getvalue().endswith("\n")
