"""Ctrl-C, termination and bugs at the command line: one line, the right exit code,
no traceback, and no worker left behind (issue 12)."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from gamekit import ROOT, cli, foreground

import rulespec.cli
from rulespec.analysis import simulation

PW = str(ROOT / "games" / "pirates_wild.yaml")
TTG = str(ROOT / "games" / "take_the_gold.yaml")
ENTRY = "import sys; from rulespec.cli import entry; sys.argv[0] = 'rulespec'; entry()"


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def _cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _simulate_with_workers(spec=PW, *extra):
    """A long `simulate --workers 2`, once its two workers are running."""
    proc = subprocess.Popen(
        [sys.executable, "-c", ENTRY, "simulate", spec, "--games", "100000", "--workers", "2"]
        + list(extra),
        cwd=ROOT,
        preexec_fn=foreground,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = _children(proc.pid)
    assert len(workers) >= 2, "the workers did not start"
    time.sleep(0.5)
    return proc, workers


@pytest.mark.parametrize(
    "signum, code, line",
    [(signal.SIGINT, 130, "rulespec simulate: interrupted\n"), (signal.SIGTERM, 143, "")],
)
def test_simulate_stops_at_once_and_takes_its_workers_with_it(signum, code, line):
    proc, workers = _simulate_with_workers()
    proc.send_signal(signum)
    _out, err = proc.communicate(timeout=20)
    assert proc.returncode == code and err == line
    deadline = time.monotonic() + 5
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_alive, workers))


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
def test_ctrl_c_prints_the_report_of_the_games_played_so_far():
    """Issue 30: Ctrl-C threw away the games played; now their report comes first, marked
    partial, and it is the report of a run of that many games."""
    proc, workers = _simulate_with_workers(TTG, "--games", "1000000", "--json")
    # some chunks done, however loaded the machine: a chunk takes a third of a CPU second
    deadline = time.monotonic() + 60
    while min(map(_cpu_seconds, workers)) < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert (proc.returncode, err) == (130, "rulespec simulate: interrupted\n")
    report = json.loads(out)
    assert report.pop("partial") is True and 0 < report["games"] < 1_000_000
    code, whole, _ = cli("simulate", TTG, "--games", report["games"], "--json", "--workers", 2)
    assert code == 0 and json.loads(whole) == report


def test_an_interrupted_report_says_it_is_partial(monkeypatch):
    played, chunks, play_chunk = [], [], simulation.play_chunk

    def interrupted(job, seeds):  # Ctrl-C during the third chunk
        if len(chunks) == 2:
            raise KeyboardInterrupt
        chunks.append(seeds)
        played.extend(seeds)
        return play_chunk(job, seeds)

    monkeypatch.setattr(simulation, "play_chunk", interrupted)
    code, out, err = cli("simulate", TTG, "--games", 1000)
    assert (code, err) == (130, "rulespec simulate: interrupted\n")
    n = len(played)
    assert out.splitlines()[0] == (
        f"Take the Gold: {n} of 1000 games (partial: interrupted), 4 players, agents random, "
        f"seeds 0..{n - 1}"
    )
    monkeypatch.undo()
    assert out.splitlines()[1:] == cli("simulate", TTG, "--games", n)[1].splitlines()[1:]


def test_ctrl_c_before_any_game_ends_still_gives_a_script_json(monkeypatch):
    """A script reading `simulate --json` got nothing to parse when Ctrl-C came before
    the first chunk ended: it gets a report of no games, marked partial; text says
    nothing but that it was interrupted."""

    def interrupted(job, seeds):
        raise KeyboardInterrupt

    monkeypatch.setattr(simulation, "play_chunk", interrupted)
    code, out, err = cli("simulate", TTG, "--games", 1000, "--json")
    assert (code, err) == (130, "rulespec simulate: interrupted\n")
    report = json.loads(out)
    assert (report["partial"], report["games"], report["end_reasons"]) == (True, 0, {})
    cribbage = json.loads(cli("simulate", ROOT / "games/cribbage.yaml", "--games", 9, "--json")[1])
    assert "turn_order_wins" not in cribbage  # rounds: a first player per round, none per game
    assert cli("simulate", TTG, "--games", 1000)[:2] == (130, "")


def test_workers_of_a_killed_simulate_exit_by_themselves():
    proc, workers = _simulate_with_workers()
    proc.kill()
    proc.communicate(timeout=20)
    deadline = time.monotonic() + 10
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(map(_alive, workers))


def test_a_bug_is_one_line_and_exit_3_with_the_traceback_on_debug(monkeypatch):
    def broken(args, out, err):
        raise TypeError("'NoneType' object is not subscriptable")

    monkeypatch.setitem(rulespec.cli.COMMANDS, "schema", broken)
    code, out, err = cli("schema")
    assert code == 3 and out == "" and "Traceback" not in err and err.count("\n") == 1
    assert err.startswith(
        "rulespec schema: internal error (TypeError: 'NoneType' object is not "
        "subscriptable); this is a bug in rulespec"
    )
    code, out, err = cli("schema", "--debug")
    assert code == 3 and err.startswith("Traceback (most recent call last):")
    assert cli("--debug", "schema")[0] == 3


def test_ctrl_c_in_any_command_is_one_line_and_exit_130(monkeypatch):
    def interrupted(args, out, err):
        raise KeyboardInterrupt

    monkeypatch.setitem(rulespec.cli.COMMANDS, "validate", interrupted)
    assert cli("validate", PW) == (130, "", "rulespec validate: interrupted\n")


def test_more_workers_than_cores_are_cut_to_the_cores(monkeypatch):
    monkeypatch.setattr(rulespec.cli.os, "cpu_count", lambda: 2)
    code, _out, err = cli("simulate", TTG, "--games", "4", "--workers", "200")
    assert (
        code == 0 and err == "rulespec simulate: --workers 200: this machine has 2 cores; using 2\n"
    )
