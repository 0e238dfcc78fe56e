"""Lint speed, in one run: layer 1 (target < 100 ms) and layer 2 --explore (target
< 30 s) on each seed spec.

    python benchmarks/bench_lint.py
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from rulespec import load_spec
from rulespec.analysis.explore import Bounds, explore
from rulespec.analysis.lint import static

GAMES = Path(__file__).resolve().parent.parent / "games"


def main():
    for name in ("take_the_gold", "pirates_wild"):
        spec = load_spec(GAMES / f"{name}.yaml")
        runs = []
        for _ in range(20):
            start = time.perf_counter()
            findings = static(spec)
            runs.append(time.perf_counter() - start)
        print(
            f"{name}: layer 1 median {1000 * statistics.median(runs):.1f} ms, "
            f"max {1000 * max(runs):.1f} ms over 20 runs ({len(findings)} findings; target < 100 ms)"
        )
        start = time.perf_counter()
        report = explore(spec, Bounds())
        took = time.perf_counter() - start
        bound = "complete" if report.complete else "stopped at its bounds"
        print(
            f"{name}: layer 2 {took:.1f} s, {report.states} states, {bound} "
            f"(depth {Bounds().depth}; target < 30 s)"
        )


if __name__ == "__main__":
    main()
