"""Many seeded games, in parallel, with results that do not depend on the workers.

Game k of a run is seeded `seed + k`, and results are gathered in game order, so the
same arguments give the same report for any number of worker processes.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache

from interpreter import Game, Rules
from interpreter.agents import make_agents, play

from .compiler import load_spec


@dataclass(frozen=True)
class Job:
    spec_path: str
    players: int
    agents: tuple[str, ...]
    turn_limit: int | None
    variants: tuple[str, ...] = ()


@lru_cache(maxsize=8)
def _rules(spec_path: str, players: int, variants: tuple[str, ...]) -> Rules:
    return Rules(load_spec(spec_path, variants=variants), players)


def play_one(job: Job, seed: int) -> tuple[str, tuple[int, ...], int]:
    """(end reason, winners, turns) of one seeded game."""
    game = Game(_rules(job.spec_path, job.players, job.variants), seed=seed, log=False, turn_limit=job.turn_limit)
    play(game, make_agents(list(job.agents), job.players, seed))
    return game.reason, game.winners, game.turn


def _chunk(args):
    job, seeds = args
    return [play_one(job, s) for s in seeds]


def simulate(job: Job, games: int, seed: int = 0, workers: int = 1) -> list[tuple]:
    seeds = list(range(seed, seed + games))
    if workers <= 1:
        return [play_one(job, s) for s in seeds]
    size = max(1, math.ceil(games / (workers * 8)))
    chunks = [(job, seeds[i:i + size]) for i in range(0, games, size)]
    with ProcessPoolExecutor(workers) as pool:
        return [r for part in pool.map(_chunk, chunks) for r in part]


def summarize(results: list[tuple], players: int) -> dict:
    n = len(results)
    lengths = sorted(t for _, _, t in results)
    reasons = Counter(r for r, _, _ in results)
    wins = Counter(p for _, ws, _ in results for p in ws)

    def share(k):  # a share with its 95% Wilson interval
        if n == 0:
            return {"share": 0.0, "low": 0.0, "high": 0.0}
        p, z = k / n, 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return {"share": round(p, 4), "low": round(max(0.0, centre - half), 4),
                "high": round(min(1.0, centre + half), 4)}
    return {
        "games": n,
        "end_reasons": {r: share(k) | {"count": k} for r, k in sorted(reasons.items())},
        "seat_wins": {f"P{p + 1}": share(wins[p]) for p in range(players)},
        "length": {"mean": round(statistics.fmean(lengths), 1) if n else 0,
                   "median": statistics.median(lengths) if n else 0,
                   "p95": lengths[min(n - 1, int(0.95 * n))] if n else 0,
                   "max": lengths[-1] if n else 0},
    }
