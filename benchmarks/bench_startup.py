"""Start-up cost of the command, in one run: the CPU (user + system) of whole processes
of `rulespec validate games/take_the_gold.yaml` and `rulespec run
games/take_the_gold.yaml` against a bare `python3 -c pass`, measured in alternating
rounds (bare, validate, run, bare, validate, run, ...) so that a machine busy with
something else weighs on all of them alike. Target: validate at most 0.15 s.

    python benchmarks/bench_startup.py [--pairs 20]

Each process is timed by os.wait4, so the figure is its own CPU, whatever the wall
clock did. The first runs warm the cache folder (docs/cli.md#start-up-time) and the
operating system's file cache, and are not counted; one more row times validate with
an empty cache folder each time, as a first run does. Run it from the virtual
environment rulespec is installed in: `rulespec` is the one beside its Python.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = "games/take_the_gold.yaml"
TARGET = 0.15  # s of CPU for validate (issue 25)


def _rulespec() -> list[str]:
    """The installed command beside this Python, else `python -m rulespec`."""
    beside = Path(sys.executable).with_name("rulespec")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("rulespec")
    return [found] if found else [sys.executable, "-m", "rulespec"]


def cpu(argv: list[str], cold: bool = False) -> float:
    """The user + system CPU seconds of one whole process running argv; cold: with an
    empty cache folder of its own."""
    with tempfile.TemporaryDirectory() as empty, open(os.devnull, "wb") as null:
        env = os.environ | {"RULESPEC_CACHE_DIR": empty} if cold else None
        child = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=null, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        errors = child.stderr.read().decode(errors="replace")
        child.stderr.close()
    if child.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({child.returncode}): {errors}")
    return usage.ru_utime + usage.ru_stime


def _bytecode() -> str:
    """Whether Python finds rulespec's modules compiled (__pycache__), or compiles
    them on every start (PYTHONDONTWRITEBYTECODE, a read-only tree), which costs more."""
    source = ROOT / "rulespec" / "cli.py"
    if Path(importlib.util.cache_from_source(str(source))).exists():
        return "read from their cached bytecode"
    return "compiled on every start (no __pycache__)"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=20, help="rounds measured (default 20)")
    args = parser.parse_args(argv)
    rulespec = _rulespec()
    validate = rulespec + ["validate", SPEC]
    commands = {  # name -> (argv, with an empty cache folder)
        "python3 -c pass": ([sys.executable, "-c", "pass"], False),
        f"rulespec validate {SPEC}": (validate, False),
        f"rulespec run {SPEC}": (rulespec + ["run", SPEC], False),
        "  validate, empty cache folder": (validate, True),
    }
    for command, cold in commands.values():  # warm-up, not counted
        cpu(command, cold)
        cpu(command, cold)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.pairs):
        for name, (command, cold) in commands.items():
            times[name].append(cpu(command, cold))
    bare = statistics.median(times["python3 -c pass"])
    print(
        f"median CPU (user + sys) of whole processes over {args.pairs} alternating rounds; "
        f"rulespec's own modules {_bytecode()}:"
    )
    for name, runs in times.items():
        median = statistics.median(runs)
        ratio = "" if name.endswith("pass") else f"  {median / bare:5.1f} x bare python"
        print(f"  {name:<42} {median:.3f} s  (min {min(runs):.3f}, max {max(runs):.3f}){ratio}")
    validate = statistics.median(times[f"rulespec validate {SPEC}"])
    verdict = "met" if validate <= TARGET else "NOT met"
    print(f"target: validate at most {TARGET:.2f} s of CPU: {verdict} ({validate:.3f} s)")


if __name__ == "__main__":
    main()
