"""A yardstick as a whole process, the counterpart of `rulespec simulate`:

    python benchmarks/yardstick_ttg.py --games 20000 --players 4 [--seed 0] [--json]

Game k is seeded SEED + k, as simulate seeds it, so the two report the same games;
the report is the part of simulate's that a yardstick can give: end reasons, seat wins
and lengths (simulate's JSON field names, counts rather than shares). Imports nothing
of rulespec, so that the process is the yardstick's alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter


def main(play_one, name: str, argv=None) -> None:
    ap = argparse.ArgumentParser(description=f"{name}, hand-written: seeded random games")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0, help="game k is seeded SEED + k")
    ap.add_argument("--json", action="store_true", help="the report as JSON")
    args = ap.parse_args(argv)
    start = time.process_time()
    results = [play_one(args.players, s) for s in range(args.seed, args.seed + args.games)]
    seconds = time.process_time() - start
    turns = [t for _, _, t in results]
    report = {
        "spec": name,
        "players": args.players,
        "seed": args.seed,
        "games": args.games,
        "end_reasons": dict(sorted(Counter(r for r, _, _ in results).items())),
        "seat_wins": {f"P{p + 1}": sum(p in w for _, w, _ in results) for p in range(args.players)},
        "length": {"mean": round(statistics.mean(turns), 4), "max": max(turns)},
        "cpu_seconds": round(seconds, 3),
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"{name}: {args.games} games, {args.players} players, seeds from {args.seed}")
    for reason, k in report["end_reasons"].items():
        print(f"  {reason:16} {k}")
    print(f"  mean length {report['length']['mean']} turns, longest {max(turns)}")
    print(f"  {seconds:.2f} s of CPU: {seconds / args.games * 1e6:.1f} µs a game")
