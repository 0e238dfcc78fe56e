"""Many seeded games, in parallel, with results that do not depend on the workers.

Game k of a run is seeded `seed + k`, and results are gathered in game order, so the
same arguments give the same report for any number of worker processes.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from rulespec.interpreter import Game
from rulespec.interpreter.agents import make_agents, play

from ..lang.compiler import load_spec
from .stats import wilson


@dataclass(frozen=True)
class Job:
    spec_path: str
    players: int
    agents: tuple[str, ...]
    turn_limit: int | None
    variants: tuple[str, ...] = ()


@lru_cache(maxsize=8)
def _game(spec_path: str, players: int, variants: tuple[str, ...]) -> Game:
    return Game(load_spec(spec_path, variants=variants), players)


class GameResult(NamedTuple):
    reason: str
    winners: tuple[int, ...]
    turns: int
    fired: dict  # rule -> times it fired
    played: dict  # card type -> times it was played
    rounds: tuple[int, ...] = ()  # turns of each round, for a spec with rounds
    called: frozenset = frozenset()  # procedures called (lint --simulate)


def play_one(job: Job, seed: int) -> GameResult:
    """The outcome of one seeded game."""
    state = _game(job.spec_path, job.players, job.variants).new_initial_state(
        seed=seed, log=False, turn_limit=job.turn_limit
    )
    return outcome(play(state, make_agents(list(job.agents), job.players, seed)))


def outcome(state) -> GameResult:
    """What a finished game leaves for a report."""
    return GameResult(
        state.reason,
        state.winners,
        state.turn,
        dict(state.fired),
        dict(state.played),
        tuple(state.round_lengths) if state.game.spec.rounds else (),
        frozenset(state.called),
    )


def play_chunk(args) -> list[GameResult]:
    """A chunk of seeds, played in order: the unit of work for processes and clusters."""
    job, seeds = args
    return [play_one(job, s) for s in seeds]


def chunks(job: Job, games: int, seed: int, parts: int) -> list[tuple[Job, range]]:
    """At most `parts` runs of consecutive seeds, as ranges: a count of games past
    memory (or past a C size) costs nothing until the games are played."""
    size = max(1, -(-games // parts))
    return [(job, range(seed + i, seed + min(i + size, games))) for i in range(0, games, size)]


def simulate(
    job: Job,
    games: int,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    dask_address: str | None = None,
) -> list[GameResult]:
    """Play games seed..seed+games-1; results in seed order whatever runs them."""
    # more, smaller chunks when someone watches: a finer progress for a little overhead
    work = chunks(
        job, games, seed, max(8, workers * 8) if progress is None else max(100, workers * 25)
    )
    workers = min(workers, len(work))  # no process without a chunk to play
    done, out = 0, []

    def collect(results):
        nonlocal done
        out.extend(results)
        done += len(results)
        if progress is not None:
            progress(done)

    if dask_address is not None:
        from dask.distributed import Client  # optional extra: rulespec[dask]

        with Client(dask_address) as client:
            futures = client.map(play_chunk, work, pure=False)
            for future in futures:  # in submission order: seed order
                collect(future.result())
    elif workers <= 1:
        for part in work:
            collect(play_chunk(part))
    else:
        # leaving the block terminates the workers at once: on Ctrl-C too, not after
        # the chunks they are playing
        with multiprocessing.Pool(
            workers, initializer=_worker_start, initargs=(os.getpid(),)
        ) as pool:
            for results in pool.imap(play_chunk, work):
                collect(results)
    return out


def _worker_start(parent: int) -> None:
    """A worker leaves Ctrl-C to its parent (which stops it, printing one line), and
    exits by itself once its parent is gone, killed or not."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def spread(xs: list[int]) -> dict:
    """Mean, median, 95th percentile and maximum of some counts."""
    xs, n = sorted(xs), len(xs)
    return {
        "mean": round(statistics.fmean(xs), 1) if n else 0,
        "median": statistics.median(xs) if n else 0,
        "p95": xs[min(n - 1, int(0.95 * n))] if n else 0,
        "max": xs[-1] if n else 0,
    }


def summarize(results: list[GameResult], players: int, teams=()) -> dict:
    """The report of a run; a spec with rounds adds `rounds`: rounds per match and
    turns per round; one with `teams`, (name, seats) pairs, adds `team_wins`: the
    games each team won (its seats win together)."""
    n = len(results)
    reasons = Counter(r.reason for r in results)
    wins = Counter(p for r in results for p in r.winners)
    fired: Counter = Counter()
    games_fired: Counter = Counter()
    played: Counter = Counter()
    for r in results:
        fired.update(r.fired)
        games_fired.update(r.fired.keys())
        played.update(r.played)

    def share(k):
        return wilson(k, n)

    report = {
        "games": n,
        "end_reasons": {r: share(k) | {"count": k} for r, k in sorted(reasons.items())},
        "seat_wins": {f"P{p + 1}": share(wins[p]) for p in range(players)},
        "length": spread([r.turns for r in results]),
        "cards_played": dict(sorted(played.items())),
        "rules_fired": {k: {"times": v, "games": games_fired[k]} for k, v in sorted(fired.items())},
    }
    if teams:
        report["team_wins"] = {
            name: share(sum(1 for r in results if set(seats) & set(r.winners)))
            for name, seats in teams
        }
    if any(r.rounds for r in results):
        report["rounds"] = {
            "per_match": spread([len(r.rounds) for r in results]),
            "round_length": spread([t for r in results for t in r.rounds]),
        }
    return report


def plot(results: list[GameResult], players: int, title: str, path: str, form: str) -> None:
    """Game lengths and seat win rates, as an image of the format `form` (matplotlib:
    rulespec[plot])."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    lengths = [r.turns for r in results]
    lo, hi = min(lengths), max(lengths)
    left.hist(lengths, bins=range(lo, hi + 2) if hi - lo <= 80 else 40, color="#4477aa")
    left.set(title="game length", xlabel="turns", ylabel="games")
    summary = summarize(results, players)["seat_wins"]
    seats = list(summary)
    shares = [100 * summary[s]["share"] for s in seats]
    errors = [
        [100 * (summary[s]["share"] - summary[s]["low"]) for s in seats],
        [100 * (summary[s]["high"] - summary[s]["share"]) for s in seats],
    ]
    right.bar(seats, shares, yerr=errors, color="#ee6677", capsize=4)
    right.set(title="seat win rate (95% interval)", ylabel="% of games")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100, format=form)  # named: matplotlib adds no suffix of its own
    plt.close(fig)
