"""Simulation at scale, in one run: wall-clock time of the acceptance runs.

    python benchmarks/bench_simulate.py [--games N] [--big N]

- `rulespec simulate games/take_the_gold.yaml --games BIG --workers 2` (target < 60 s)
- N games with 1 worker and with 2: throughput ratio (target >= 1.7) and identical results
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from rulespec.analysis.simulation import Job, simulate

TTG = str(Path(__file__).resolve().parent.parent / "games" / "take_the_gold.yaml")


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--big", type=int, default=100_000)
    args = ap.parse_args(argv)
    job = Job(TTG, 4, ("random",), None)
    print(f"machine: {os.cpu_count()} cores")
    one, t1 = timed(lambda: simulate(job, args.games, workers=1))
    two, t2 = timed(lambda: simulate(job, args.games, workers=2))
    print(
        f"{args.games} games: 1 worker {t1:.1f} s ({args.games / t1:,.0f}/s), "
        f"2 workers {t2:.1f} s ({args.games / t2:,.0f}/s)"
    )
    print(
        f"  speed-up 2 workers / 1: {t1 / t2:.2f} (target >= 1.70); identical results: {one == two}"
    )
    _, tb = timed(lambda: simulate(job, args.big, workers=2))
    print(f"{args.big} games, 2 workers: {tb:.1f} s (target < 60 s)")


if __name__ == "__main__":
    main()
