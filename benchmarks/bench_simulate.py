"""Simulation at scale, in one run: whole `rulespec simulate` processes, their wall time
and the peak memory of the process tree (the parent and its workers, summed).

    python benchmarks/bench_simulate.py [--games N] [--pairs K] [--big N]

- N games with `--workers 1` and `--workers 2`, in K alternating pairs: games/s of each
  and the median speed-up of 2 workers over 1, with identical reports;
- BIG games with `--workers 2` (issue 30: a million, under 200 MB for all processes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

TTG = str(Path(__file__).resolve().parent.parent / "games" / "take_the_gold.yaml")


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:  # the parent pid follows the name
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    return kids


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            return next((int(x.split()[1]) for x in f if x.startswith("VmRSS:")), 0)
    except OSError:
        return 0


def _tree_rss_kb(pid: int) -> int:
    kids, todo, total = _children(), [pid], 0
    while todo:
        p = todo.pop()
        total += _rss_kb(p)
        todo += kids.get(p, [])
    return total


def run(games: int, workers: int) -> tuple[float, float, bytes]:
    """Wall seconds, peak tree RSS in MB (sampled every 0.1 s) and the JSON report."""
    cmd = [sys.executable, "-m", "rulespec", "simulate", TTG, "--games", str(games)]
    cmd += ["--workers", str(workers), "--format", "json"]
    start, peak = time.perf_counter(), 0
    with subprocess.Popen(cmd, stdout=subprocess.PIPE) as proc:
        reader = _Reader(proc.stdout)
        while proc.poll() is None:
            peak = max(peak, _tree_rss_kb(proc.pid))
            time.sleep(0.1)
        wall = time.perf_counter() - start
        out = reader.result()
    if proc.returncode:
        sys.exit(f"{' '.join(cmd)}: exit {proc.returncode}")
    return wall, peak / 1024, out


class _Reader:
    """The child's standard output, read on a thread so a large report cannot block it."""

    def __init__(self, stream):
        import threading

        self._chunks: list[bytes] = []
        self._thread = threading.Thread(target=lambda: self._chunks.append(stream.read()))
        self._thread.start()

    def result(self) -> bytes:
        self._thread.join()
        return b"".join(self._chunks)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--big", type=int, default=1_000_000)
    args = ap.parse_args(argv)
    print(f"machine: {os.cpu_count()} cores; Take the Gold, 4 players, random agents")
    ones, twos, reports = [], [], set()
    for _ in range(args.pairs):  # A B A B: a change in the machine's load hits both
        for workers, times in ((1, ones), (2, twos)):
            wall, peak, out = run(args.games, workers)
            times.append(wall)
            reports.add(out)
            print(f"  {args.games:,} games, --workers {workers}: {wall:.1f} s, {peak:.0f} MB")
    speedup = statistics.median(a / b for a, b in zip(ones, twos))
    print(
        f"{args.games:,} games: 1 worker {args.games / statistics.median(ones):,.0f}/s, "
        f"2 workers {args.games / statistics.median(twos):,.0f}/s; median speed-up "
        f"{speedup:.2f}; identical reports: {len(reports) == 1}"
    )
    if args.big:
        wall, peak, _ = run(args.big, 2)
        print(
            f"{args.big:,} games, --workers 2: {wall:.0f} s ({args.big / wall:,.0f}/s), "
            f"peak memory of all processes {peak:.0f} MB (target < 200 MB)"
        )


if __name__ == "__main__":
    main()
