"""The engine's speed against the yardsticks of issue 25, in one run.

    python benchmarks/bench_speed.py [--quick] [--repeats N] [--pairs N]
                                     [--save-baseline FILE] [--baseline FILE]

1. In process, 4 players, random agents, the same seeds on both sides: games/s of the
   engine (`Game(load_spec(path), 4)`, then `play_games(game, seeds, ["random"])`,
   what `rulespec simulate` runs in each process) and of the hand-written yardstick, for
   Take the Gold (target: engine >= 0.9 x yardstick_ttg.py) and Pirates Wild (>= 0.6 x
   yardstick_pw.py); and the yardstick's check, at least 1.3 x the games/s of
   benchmarks/handwritten_ttg.py. Medians of --repeats runs, taken in turn.
2. Whole processes, in alternating pairs (engine, yardstick, engine, ...):
   `rulespec simulate GAME --games N --workers 1 --players 4` against
   `python benchmarks/yardstick_*.py --games N --players 4`, the CPU time of each child
   (os.wait4: start-up, imports and compiling the spec included); the median ratio.
   Both play seeds 0..N-1, so their end reasons must be the same: checked.
3. Every bundled game (games/*.yaml, at its default player count) through the engine,
   in process and as a whole `rulespec simulate` process. --save-baseline FILE writes
   this run's figures (and the game counts); --baseline FILE measures with the file's
   counts (of every section) and shows each figure against the file's.
   benchmarks/speed_baseline.json is the engine before issue 25's rewrite, on the
   project's two-core machine (Python 3.11).

Rates are per second of CPU time (time.process_time, or the child's rusage): other
work on the machine disturbs them least. A run takes about two minutes; --quick is a
smoke run of a few seconds, too short for figures worth keeping.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handwritten_ttg
import yardstick_pw
import yardstick_ttg

from rulespec import load_spec
from rulespec.analysis.simulation import play_games
from rulespec.interpreter import Game

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GAMES = ROOT / "games"
TTG, PW = GAMES / "take_the_gold.yaml", GAMES / "pirates_wild.yaml"
clock = time.process_time

# (games in process, games in a simulate process) at the spec's default player count:
# about a second and two of CPU each at today's speed; --quick divides them
COUNTS = {
    "blackjack": (300, 600),
    "draft": (300, 600),
    "pirates_wild": (20, 40),
    "take_the_gold": (3000, 6000),
    "whist": (200, 400),
}
DEFAULT_COUNT = (100, 200)  # a game added since
# section 1: seeds per measurement; section 2: games per process
IN_PROCESS = {"take_the_gold": 3000, "pirates_wild": 24}
PROCESSES = {"take_the_gold": 20_000, "pirates_wild": 60}
TARGETS = {"take_the_gold": 0.9, "pirates_wild": 0.6}
HANDWRITTEN_TARGET = 1.3
MIN_SECONDS = 0.4  # a fast side plays its seeds again until it has run this long


# --- in process ---------------------------------------------------------------------


_games: dict = {}


def engine_game(path: Path, players: int) -> Game:
    """The game definition, compiled once, outside any timing."""
    key = (str(path), players)
    if key not in _games:
        _games[key] = Game(load_spec(path), players)
    return _games[key]


def engine_runner(path: Path, players: int):
    game = engine_game(path, players)

    def run(seeds):
        play_games(game, seeds, ["random"])

    return run


def function_runner(play_one, players: int):
    def run(seeds):
        for s in seeds:
            play_one(players, s)

    return run


def handwritten_runner(players: int):
    def run(seeds):
        for s in seeds:
            handwritten_ttg.TakeTheGold(players, s).play()

    return run


def rate(run, seeds) -> float:
    """Games per CPU second, playing the seeds again until MIN_SECONDS have passed."""
    games, start = 0, clock()
    while True:
        run(seeds)
        games += len(seeds)
        elapsed = clock() - start
        if elapsed >= MIN_SECONDS:
            return games / elapsed


def interleaved(runs: dict, seeds, repeats: int) -> dict[str, list[float]]:
    """Each runner's games/s, `repeats` times, taken in turn so all see the same machine."""
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            rates[name].append(rate(run, seeds))
    return rates


def ratios(a: list[float], b: list[float]) -> float:
    """The median of the per-repeat ratios a/b."""
    return statistics.median(x / y for x, y in zip(a, b))


def show_rates(label: str, rates: list[float]) -> None:
    r = statistics.median(rates)
    print(f"  {label:28} {r:10.1f} games/s  {1e6 / r:10.1f} µs a game")


def verdict(ratio: float, target: float) -> str:
    return f"target {target:.2f}: {'met' if ratio >= target else 'NOT met'}"


def in_process(figures: dict, seeds_for: dict, repeats: int) -> None:
    print("1. In process, 4 players, random agents, the same seeds on both sides")
    for name, path, module in (
        ("take_the_gold", TTG, yardstick_ttg),
        ("pirates_wild", PW, yardstick_pw),
    ):
        seeds = range(seeds_for[name])
        runs = {
            "engine": engine_runner(path, 4),
            "yardstick": function_runner(module.play_one, 4),
        }
        if name == "take_the_gold":
            runs["handwritten_ttg.py"] = handwritten_runner(4)
        rates = interleaved(runs, seeds, repeats)
        print(f" {name} ({len(seeds)} seeds, median of {repeats})")
        for label, r in rates.items():
            show_rates(label, r)
            figures[f"in_process/{name}/{label}"] = statistics.median(r)
        ratio = ratios(rates["engine"], rates["yardstick"])
        print(f"  engine / yardstick: {ratio:.3f}  ({verdict(ratio, TARGETS[name])})")
        figures[f"ratio/in_process/{name}"] = ratio
        if name == "take_the_gold":
            check = ratios(rates["yardstick"], rates["handwritten_ttg.py"])
            print(
                f"  yardstick / handwritten_ttg.py: {check:.2f}x "
                f"({verdict(check, HANDWRITTEN_TARGET)})"
            )
            figures["ratio/yardstick_over_handwritten"] = check


# --- whole processes ----------------------------------------------------------------


def child(argv: list[str]) -> tuple[float, str]:
    """Run a process to its end: (its CPU seconds, with those of the children it
    waited for, from os.wait4; its standard output)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode:
            sys.exit(f"{' '.join(argv)} failed ({proc.returncode}):\n{err.read().decode()}")
        return usage.ru_utime + usage.ru_stime, out.read().decode()


def simulate_argv(path: Path, games: int, players: int | None = None) -> list[str]:
    argv = [sys.executable, "-m", "rulespec", "simulate", str(path), "--games", str(games)]
    argv += ["--workers", "1", "--json"]
    return argv + (["--players", str(players)] if players else [])


def whole_processes(figures: dict, games_for: dict, pairs: int) -> None:
    print(f"2. Whole processes, 4 players, alternating pairs (median of {pairs})")
    for name, path, script in (
        ("take_the_gold", TTG, "yardstick_ttg.py"),
        ("pirates_wild", PW, "yardstick_pw.py"),
    ):
        games = games_for[name]
        ours = simulate_argv(path, games, 4)
        theirs = [sys.executable, str(HERE / script), "--games", str(games), "--players", "4"]
        engine, yardstick = [], []
        for _ in range(pairs):
            seconds, out = child(ours)
            engine.append(seconds)
            reasons = {r: v["count"] for r, v in json.loads(out)["end_reasons"].items()}
            seconds, out = child([*theirs, "--json"])
            yardstick.append(seconds)
            agree = reasons == json.loads(out)["end_reasons"]
        print(f" {name} ({games} games a process; end reasons the same: {agree})")
        for label, times in (("rulespec simulate", engine), (script, yardstick)):
            t = statistics.median(times)
            print(f"  {label:28} {games / t:10.1f} games/s  {t:8.2f} s of CPU")
            figures[f"process/{name}/{'engine' if times is engine else 'yardstick'}"] = games / t
        ratio = statistics.median(y / e for e, y in zip(engine, yardstick))
        print(f"  engine / yardstick: {ratio:.3f}  ({verdict(ratio, TARGETS[name])})")
        figures[f"ratio/process/{name}"] = ratio


# --- every bundled game -------------------------------------------------------------


def bundled(figures: dict, counts: dict, repeats: int, baseline: dict | None) -> None:
    print(f"3. Every bundled game through the engine, default players (median of {repeats})")
    old = baseline["figures"] if baseline else {}
    header = f"  {'game':15} {'players':>7} {'in process':>14} {'as a process':>14}"
    print(header + ("   against the baseline" if baseline else ""))
    for path in sorted(GAMES.glob("*.yaml")):
        name = path.stem
        players = load_spec(path).default_players
        n_in, n_proc = counts[name]
        run = engine_runner(path, players)
        inside = statistics.median(rate(run, range(n_in)) for _ in range(repeats))
        seconds, _ = child(simulate_argv(path, n_proc))
        whole = n_proc / seconds
        figures[f"engine/{name}/in_process"] = inside
        figures[f"engine/{name}/process"] = whole
        line = f"  {name:15} {players:7} {inside:9.1f} g/s {whole:9.1f} g/s"
        if baseline:
            line += "   " + ", ".join(
                f"{x / old[k]:.2f}x" if k in old else "new"
                for x, k in (
                    (inside, f"engine/{name}/in_process"),
                    (whole, f"engine/{name}/process"),
                )
            )
        print(line)


def compare(figures: dict, baseline: dict) -> None:
    """Sections 1 and 2 against the baseline: the yardsticks' own change shows how much
    of the engine's is the machine's."""
    old = baseline["figures"]
    print(f"Against the baseline of {baseline.get('date', '?')} (now / then)")
    for key in sorted(k for k in figures if k in old and not k.startswith("engine/")):
        print(f"  {key:45} {figures[key] / old[key]:6.2f}x")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run: few games, one repeat")
    ap.add_argument("--repeats", type=int, help="in-process repeats (default 5; quick 1)")
    ap.add_argument("--pairs", type=int, help="process pairs (default 3; quick 1)")
    ap.add_argument("--save-baseline", metavar="FILE", help="write this run's figures")
    ap.add_argument("--baseline", metavar="FILE", help="compare with a saved run")
    args = ap.parse_args(argv)
    baseline = json.loads(Path(args.baseline).read_text()) if args.baseline else None
    scale = 20 if args.quick else 1
    repeats = args.repeats or (1 if args.quick else 5)
    pairs = args.pairs or (1 if args.quick else 3)
    seeds_for = {k: max(2, v // scale) for k, v in IN_PROCESS.items()}
    games_for = {k: max(2, v // scale) for k, v in PROCESSES.items()}
    counts = {
        path.stem: tuple(max(2, n // scale) for n in COUNTS.get(path.stem, DEFAULT_COUNT))
        for path in GAMES.glob("*.yaml")
    }
    if baseline:  # like for like: the baseline's games
        seeds_for.update(baseline["counts"]["in_process"])
        games_for.update(baseline["counts"]["processes"])
        counts.update(
            {k: tuple(v) for k, v in baseline["counts"]["bundled"].items() if k in counts}
        )
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    figures: dict[str, float] = {}
    in_process(figures, seeds_for, repeats)
    whole_processes(figures, games_for, pairs)
    bundled(figures, counts, repeats, baseline)
    if baseline:
        compare(figures, baseline)
    if args.save_baseline:
        Path(args.save_baseline).write_text(
            json.dumps(
                {
                    "date": datetime.datetime.now().isoformat(timespec="seconds"),
                    "python": platform.python_version(),
                    "machine": platform.machine(),
                    "quick": args.quick,
                    "counts": {
                        "in_process": seeds_for,
                        "processes": games_for,
                        "bundled": counts,
                    },
                    "figures": figures,
                },
                indent=1,
            )
            + "\n"
        )
        print(f"baseline written to {args.save_baseline}")


if __name__ == "__main__":
    main()
