"""Files named by documents, and files the commands write (issue 12): a scenario or a
log shows no other file's lines; an output never replaces an input, is never left
half-written, and needs a name."""

import json
import os
import shutil
from io import StringIO

import pytest
from gamekit import GAMES, cli

from rulespec.cli import main

TTG = GAMES / "take_the_gold.yaml"


@pytest.fixture
def games(tmp_path):
    """A copy of Take the Gold and its long_5 variant, in the same layout."""
    (tmp_path / "variants" / "take_the_gold").mkdir(parents=True)
    shutil.copy(TTG, tmp_path / "take_the_gold.yaml")
    shutil.copy(
        GAMES / "variants" / "take_the_gold" / "long_5.yaml",
        tmp_path / "variants" / "take_the_gold" / "long_5.yaml",
    )
    return tmp_path


def scenario(tmp_path, spec):
    path = tmp_path / "scenario.yaml"
    path.write_text(f"spec: {spec}\n")
    return path


@pytest.mark.parametrize(
    "spec, message",
    [
        ("/etc/passwd", "'/etc/passwd' is not a YAML file (.yaml or .yml)"),
        ("../nope.yaml", "'../nope.yaml' is not a file (looked for {folder}/../nope.yaml)"),
    ],
)
def test_a_scenario_spec_that_is_no_yaml_file_is_refused_in_one_line(tmp_path, spec, message):
    path = scenario(tmp_path, spec)
    code, out, _ = cli("test", path)
    assert code == 1
    assert out.splitlines()[1:3] == [
        f"    {path}:1:7: error RS501: spec: {message.format(folder=tmp_path)}",
        f"        spec: {spec}",  # each line of the failure under its scenario
    ]
    assert "root:" not in out


def test_a_yaml_file_that_is_no_spec_shows_only_its_first_problem(tmp_path):
    (tmp_path / "config.yaml").write_text("".join(f"secret_{i}: {i}\n" for i in range(20)))
    code, out, _ = cli("test", scenario(tmp_path, "config.yaml"))
    assert code == 1
    assert out.count("secret_") == 2, out  # the message and the one line it is about
    assert (
        "(this file does not look like a spec: it has no top-level 'rulespec:' or 'extends:')"
    ) in out


def test_a_spec_keeps_every_problem(tmp_path):
    (tmp_path / "spec.yaml").write_text("rulespec: 1\nfoo: 1\nbar: 2\n")
    code, out, _ = cli("test", scenario(tmp_path, "spec.yaml"))
    assert code == 1 and "unknown key 'foo'" in out and "unknown key 'bar'" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "{spec}", "--log", "{spec}"],
        ["run", "{spec}", "--log", "{hard}"],
        ["run", "{spec}", "--log", "{base}", "--variant", "long_5"],
        ["run", "{variant}", "--log", "{base}"],
        ["run", "{spec}", "--log", "{variant}", "--variant", "long_5"],
        ["simulate", "{spec}", "--games", "1", "--plot", "{spec}"],
        ["graph", "{spec}", "--output", "{spec}"],
        ["graph", "{spec}", "--render", "{spec}"],
    ],
    ids=[
        "log-spec",
        "log-hard-link",
        "log-base",
        "log-extended",
        "log-variant",
        "plot",
        "output",
        "render",
    ],
)
def test_an_output_never_replaces_an_input(games, argv):
    base, variant = (
        games / "take_the_gold.yaml",
        games / "variants" / "take_the_gold" / "long_5.yaml",
    )
    os.link(base, games / "hard.jsonl")
    names = {"spec": base, "base": base, "variant": variant, "hard": games / "hard.jsonl"}
    before = {p: p.read_bytes() for p in (base, variant)}
    code, _out, err = cli(*[a.format(**names) for a in argv])
    assert code == 2 and "refusing to overwrite" in err and err.count("\n") == 1, err
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "-", "--log", "{spec}"],
        ["graph", "-", "--output", "{spec}"],
        ["simulate", "-", "--games", "1", "--plot", "{spec}.png"],
    ],
    ids=["log", "output", "plot"],
)
def test_an_output_never_replaces_the_file_standard_input_reads(games, argv):
    """Issue 24: `rulespec run - --log F < F` replaced the spec F with the log."""
    spec = games / "take_the_gold.yaml"
    if argv[-1].endswith(".png"):  # a suffix the plot takes, on a link to the spec
        os.symlink(spec, games / "take_the_gold.yaml.png")
    before = spec.read_bytes()
    out, err = StringIO(), StringIO()
    with open(spec, encoding="utf-8") as stdin:
        code = main([a.format(spec=spec) for a in argv], stdout=out, stderr=err, stdin=stdin)
        fd = stdin.fileno()
    assert code == 2 and spec.read_bytes() == before
    assert err.getvalue().endswith(
        f": refusing to overwrite {argv[-1].format(spec=spec)}: the command reads it (as /dev/fd/{fd})\n"
    ), err.getvalue()


@pytest.mark.parametrize("flag", ["--log", "--output", "--plot"])
def test_an_empty_output_name_is_refused(flag):
    command = {"--log": "run", "--output": "graph", "--plot": "simulate"}[flag]
    code, _out, err = cli(command, TTG, flag, "")
    assert (code, err) == (2, f"rulespec {command}: {flag}: an empty file name\n")


def test_a_failed_log_leaves_the_old_one(tmp_path, monkeypatch):
    from rulespec.table import replay

    log = tmp_path / "game.jsonl"
    log.write_text("the old log\n")

    class Failing:  # the disk fills up as the second game of the match is written
        @staticmethod
        def dumps(record, **options):
            if record.get("game") == 2:
                raise OSError(28, "No space left on device")
            return json.dumps(record, **options)

    monkeypatch.setattr(replay, "json", Failing)
    code, _out, err = cli("run", TTG, "--games", 2, "--log", log)
    assert (code, err) == (2, f"rulespec run: --log: cannot write {log}: No space left on device\n")
    assert log.read_text() == "the old log\n"
    assert os.listdir(tmp_path) == ["game.jsonl"]  # no temporary file left


def test_outputs_replace_a_file_whole_and_keep_its_mode(tmp_path):
    out = tmp_path / "graph.dot"
    out.write_text("old\n")
    out.chmod(0o640)
    assert cli("graph", TTG, "--output", out)[0] == 0
    assert out.read_text().startswith("digraph") and out.stat().st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path) == ["graph.dot"]


def test_a_log_to_a_device_is_written_there(tmp_path):
    code, _, err = cli("run", TTG, "--log", os.devnull)
    assert code == 0 and os.path.exists(os.devnull) and not os.path.isfile(os.devnull), err
