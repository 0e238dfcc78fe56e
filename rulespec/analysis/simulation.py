"""Many seeded games, in parallel, with results that do not depend on the workers.

Game k of a run is seeded `seed + k`. The games are played in chunks of consecutive
seeds, each chunk returns a tally (counts and histograms, whose size does not grow with
the number of games), and the tallies are added up in seed order as they arrive: the
same arguments give the same report for any number of worker processes or cluster
nodes, and memory stays flat however many games are played.

A job carries its spec (the file merged with what it extends and its variants), so a
worker, a process here or a node of a Dask cluster, reads no file: it needs the package
and nothing else. Each worker compiles a job's game once, whatever the chunks it plays.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from functools import lru_cache, partial

from rulespec.interpreter import Game, RuleError
from rulespec.interpreter.agents import agent_maker, blind, play

from ..lang import ir
from . import stats
from .stats import ordinal, wilson

CHUNK = 1000  # games at most in a unit of work: a third of a second of a short game
PARTS = 25  # chunks per worker, at least: a fine progress, and a fair share at the end
CONNECT_TIMEOUT = 10  # seconds to reach a Dask scheduler
HINT_SCHEDULER = "start one with `dask scheduler` and give the address it prints, tcp://HOST:PORT"


@dataclass(frozen=True)
class Job:
    """What a worker needs to play a spec's games: the spec's IR (its file merged with
    the files it extends and its variants, compiled: a worker needs none of its files),
    the players, agents and turn limit. `key`, a hash of the IR, names the game a worker
    builds once and keeps."""

    spec: ir.Spec = field(compare=False, repr=False)
    key: str
    players: int
    agents: tuple[str, ...] = ("random",)
    turn_limit: int | None = None


def job(
    spec: ir.Spec,
    players: int,
    agents: tuple[str, ...] = ("random",),
    turn_limit: int | None = None,
) -> Job:
    """The job of playing a compiled spec (load_spec's, with any variants)."""
    key = hashlib.sha256(pickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL)).hexdigest()
    return Job(spec, key, players, tuple(agents), turn_limit)


@lru_cache(maxsize=8)
def _definition(job: Job) -> Game:
    """The job's game, built once per process (jobs are equal by key, not by IR)."""
    return Game(job.spec, job.players)


LOOPS = ("trigger_loop", "effect_loop")  # the end reasons of a game that stopped without an end
LOOP_SEEDS = 5  # seeds a tally keeps of the games that ended so, the smallest


def _add(counts: Counter, more: dict) -> None:
    """counts.update(more), without Counter.update's checks: run once per game."""
    for key, n in more.items():
        counts[key] += n


@dataclass
class Tally:
    """What a report needs of some games, in a size that does not grow with their
    number. The tallies of runs of seeds add up (+=) to the tally of the whole run."""

    games: int = 0
    reasons: Counter = field(default_factory=Counter)  # end reason -> games
    first_seeds: dict = field(default_factory=dict)  # end reason -> first seed ending so
    winners: Counter = field(default_factory=Counter)  # the winning seats, a tuple -> games
    lengths: Counter = field(default_factory=Counter)  # turns -> games
    fired: Counter = field(default_factory=Counter)  # rule -> times it fired
    fired_games: Counter = field(default_factory=Counter)  # rule -> games it fired in
    played: Counter = field(default_factory=Counter)  # card type -> times played
    # a `choose` branch, (rule, line, label) -> times taken, times it was the only one
    # offered, and games it was taken in
    branches: Counter = field(default_factory=Counter)
    forced_branches: Counter = field(default_factory=Counter)
    branch_games: Counter = field(default_factory=Counter)
    called: set = field(default_factory=set)  # procedures called (lint --simulate)
    rounds: Counter = field(default_factory=Counter)  # rounds of a match -> games
    round_lengths: Counter = field(default_factory=Counter)  # turns of a round -> rounds
    loop_seeds: dict = field(default_factory=dict)  # loop reason -> its first LOOP_SEEDS seeds
    # seats after the first player (0: the first player) -> games won, without rounds
    from_first: Counter = field(default_factory=Counter)
    payoffs: Counter = field(default_factory=Counter)  # (seat, its `payoff`) -> games

    def add(self, state, seed: int) -> None:
        """One finished game, seeded `seed`."""
        self.games += 1
        self.reasons[state.reason] += 1
        self.first_seeds[state.reason] = min(seed, self.first_seeds.get(state.reason, seed))
        if state.reason in LOOPS:
            self._loop_seeds(state.reason, (seed,))
        self.winners[tuple(state.winners)] += 1
        if not state.game.spec.rounds:  # each round has its own first player
            for p in state.winners:
                self.from_first[(p - state.starter) % state.game.n] += 1
        self.lengths[state.turn] += 1
        if state.game.payoff is not None:
            self.payoffs.update(enumerate(state.payoffs()))
        fired, fired_games = state.fired, self.fired_games
        _add(self.fired, fired)
        for rule in fired:
            fired_games[rule] += 1
        _add(self.played, state.played)
        _add(self.branches, state.branches)
        _add(self.forced_branches, state.forced_branches)
        for site in state.branches:
            self.branch_games[site] += 1
        self.called.update(state.called)
        rounds = state.round_lengths if state.game.spec.rounds else ()
        self.rounds[len(rounds)] += 1
        if rounds:
            self.round_lengths.update(rounds)

    def merge(self, other: Tally) -> None:
        """Add the games of `other` to these."""
        self.games += other.games
        for name in _COUNTERS:
            getattr(self, name).update(getattr(other, name))
        for reason, seed in other.first_seeds.items():
            self.first_seeds[reason] = min(seed, self.first_seeds.get(reason, seed))
        self.called |= other.called
        for reason, seeds in other.loop_seeds.items():
            self._loop_seeds(reason, seeds)

    def _loop_seeds(self, reason: str, seeds) -> None:
        self.loop_seeds[reason] = tuple(sorted({*self.loop_seeds.get(reason, ()), *seeds}))[
            :LOOP_SEEDS
        ]

    def won(self, seats) -> int:
        """The games won by any of these seats."""
        return sum(k for winners, k in self.winners.items() if set(seats) & set(winners))

    def payoff_counts(self, seat: int) -> Counter:
        """The seat's payoff -> the games it ended with it (a spec's `payoff`)."""
        return Counter({v: k for (p, v), k in self.payoffs.items() if p == seat})

    @property
    def limited(self) -> int:
        """The games that hit the turn limit."""
        return self.reasons["turn_limit"]

    def mostly_limited(self) -> bool:
        """Did most of the games hit the turn limit? Their report then says more about
        the agents than about the rules (simulate warns; lint plays greedy games)."""
        return 2 * self.limited > self.games


_COUNTERS = (
    "reasons",
    "winners",
    "lengths",
    "fired",
    "fired_games",
    "played",
    "branches",
    "forced_branches",
    "branch_games",
    "rounds",
    "round_lengths",
    "from_first",
    "payoffs",
)


def play_games(definition: Game, seeds: range, agents, turn_limit: int | None = None) -> Tally:
    """The games of these seeds, played in order by the agents named."""
    out, seated = Tally(), agent_maker(list(agents), definition.n)
    for seed in seeds:
        seats = seated(seed)
        try:
            state = definition.new_initial_state(
                seed=seed, log=False, views=not blind(seats), turn_limit=turn_limit
            )
            out.add(play(state, seats), seed)
        except RuleError as exc:  # one game of thousands: say which, so it can be watched
            raise RuleError(
                exc.code,
                f"{exc.message}, in the game of seed {seed} at {definition.n} players "
                f"(`rulespec run` with `--seed {seed} --players {definition.n}` and the same "
                "agents plays it)",
                exc.span,
                exc.rule,
            ) from exc.__cause__
    return out


def play_chunk(job: Job, seeds: range) -> Tally:
    """A chunk of seeds: the unit of work for processes and clusters."""
    return play_games(_definition(job), seeds, job.agents, job.turn_limit)


def chunks(games: int, seed: int, parts: int) -> Iterator[range]:
    """Runs of consecutive seeds, about `parts` of them but none of more than CHUNK
    games, made as they are needed: a count of games past memory costs nothing."""
    size = _chunk_size(games, parts)
    return (range(seed + i, seed + min(i + size, games)) for i in range(0, games, size))


def _chunk_size(games: int, parts: int) -> int:
    return max(1, min(CHUNK, -(-games // parts)))


class ClusterError(Exception):
    """The Dask cluster cannot play the games: its scheduler cannot be reached (or was
    lost), or a worker cannot import rulespec. A usage error: the message names the fix."""


class TaskFailed(Exception):
    """A chunk failed on a Dask worker, other than by a rule of the spec: a bug."""


def simulate(
    job: Job,
    games: int,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    dask_address: str | None = None,
    into: Tally | None = None,
) -> Tally:
    """Play games seed..seed+games-1 and tally them; progress(games tallied) after each
    chunk. The tally `into` (a new one by default) is added to chunk by chunk, in seed
    order: when the run is interrupted, it holds seeds seed..seed+into.games-1."""
    into = Tally() if into is None else into
    if dask_address is not None:
        with _client(dask_address) as client:
            slots = sum(client.nthreads().values()) or 1
            start = partial(_on_cluster, client, dask_address, job)
            _gather(start, chunks(games, seed, slots * PARTS), 2 * slots, into, progress)
    else:
        work = chunks(games, seed, workers * PARTS)
        # no process without a chunk to play
        workers = min(workers, -(-games // _chunk_size(games, workers * PARTS)))
        # a daemonic process (another pool's worker) may start none: play here, the
        # same games as workers would
        if workers <= 1 or multiprocessing.current_process().daemon:
            _gather(lambda seeds: partial(play_chunk, job, seeds), work, 1, into, progress)
        else:
            # leaving the block terminates the workers at once: on Ctrl-C too, not after
            # the chunks they are playing
            with multiprocessing.Pool(
                workers, initializer=_worker_start, initargs=(os.getpid(),)
            ) as pool:
                start = partial(_in_pool, pool, job)
                _gather(start, work, 2 * workers, into, progress)
    return into


def _gather(start, work, window: int, into: Tally, progress) -> None:
    """Start the chunks of `work` (start(seeds) gives a call that waits for its tally),
    keeping `window` of them going, and add their tallies up in seed order."""
    pending: deque = deque()

    def take():
        into.merge(pending.popleft()())
        if progress is not None:
            progress(into.games)

    for seeds in work:
        pending.append(start(seeds))
        if len(pending) >= window:
            take()
    while pending:
        take()


def _in_pool(pool, job: Job, seeds: range):
    return pool.apply_async(play_chunk, (job, seeds)).get


def _worker_start(parent: int) -> None:
    """A worker leaves Ctrl-C to its parent (which stops it, printing one line), dies
    of the SIGTERM with which the pool ends it, and exits by itself once its parent is
    gone, killed or not. SIGTERM's default, not the handler the CLI's process set (and
    the fork copied): the signal may reach the watching thread below, and a handler
    runs only in the main thread, which, waiting on the pool's queue for a task that
    never comes, would never run it (the pool waited for the worker for ever)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


# --- on a Dask cluster ---------------------------------------------------------------


def _client(address: str):
    """A client of the scheduler at `address`, whose workers can play the games."""
    from dask.distributed import Client  # optional extra: rulespec[dask]

    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, ValueError) as exc:  # ValueError: an address dask cannot read
        raise ClusterError(
            f"cannot reach the Dask scheduler {address}: {exc}; {HINT_SCHEDULER}"
        ) from None
    try:
        _check_workers(client)
    except BaseException:
        client.close()
        raise
    return client


def _check_workers(client) -> None:
    """Each worker imports what the games need. A worker without rulespec would fail
    only as it read a task, and the run would wait for it for ever."""
    import pkgutil

    found = client.run(pkgutil.resolve_name, f"{__name__}:CHUNK", on_error="return")
    lacking = sorted(w for w, r in found.items() if isinstance(r, Exception))
    if lacking:
        first = found[lacking[0]]
        raise ClusterError(
            f"Dask worker {lacking[0]}"
            + (f" (and {len(lacking) - 1} more)" if len(lacking) > 1 else "")
            + f" cannot import rulespec ({type(first).__name__}: {first}): install it in "
            "the Python that runs `dask worker` on every node: pip install 'rulespec[dask]'"
        )


def _on_cluster(client, address: str, job: Job, seeds: range):
    future = client.submit(play_chunk, job, seeds, pure=False)
    return partial(_cluster_result, future, seeds, address)


def _cluster_result(future, seeds: range, address: str) -> Tally:
    try:
        return future.result()
    except RuleError:  # a rule of the spec failed, as it would have here
        raise
    except (CancelledError, OSError):  # the client lost its scheduler: dask cancels all
        raise ClusterError(
            f"lost the Dask scheduler {address} while seeds {seeds[0]}..{seeds[-1]} were "
            "played; run again once it is back"
        ) from None
    except Exception as exc:
        raise TaskFailed(
            f"seeds {seeds[0]}..{seeds[-1]} failed on a Dask worker "
            f"({type(exc).__name__}: {exc}); the worker's log has its traceback"
        ) from exc


# --- the report ----------------------------------------------------------------------


def spread(counts: Counter) -> dict:
    """Mean, median, 95th percentile and maximum of some counts, as a histogram."""
    if not counts:
        return {"mean": 0, "median": 0, "p95": 0, "max": 0}
    return {
        "mean": round(stats.mean(counts), 1),
        "median": stats.median(counts),
        "p95": stats.quantile(counts, 0.95),
        "max": max(counts),
    }


def summarize(tally: Tally, players: int, teams=(), rounds: bool = False) -> dict:
    """The report of a run; a spec with rounds adds `rounds`: rounds per match and
    turns per round (one without, `rounds` false, `turn_order_wins`); one with `teams`,
    (name, seats) pairs, adds `team_wins`: the games each team won (its seats win
    together)."""
    n = tally.games

    def share(k):
        return wilson(k, n)

    def counted(k):
        return share(k) | {"count": k}

    report = {
        "games": n,
        "end_reasons": {r: counted(k) for r, k in sorted(tally.reasons.items())},
        "seat_wins": {f"P{p + 1}": counted(tally.won({p})) for p in range(players)},
        "length": spread(tally.lengths),
        "cards_played": dict(sorted(tally.played.items())),
        "rules_fired": {
            k: {"times": v, "games": tally.fired_games[k]} for k, v in sorted(tally.fired.items())
        },
        # how often players take each branch of each `choose`, and were left no other:
        # a label at two places is counted at each
        "branches_chosen": [
            {"rule": site[0], "line": site[1], "label": site[2], "times": v}
            | {"only_option": tally.forced_branches[site], "games": tally.branch_games[site]}
            for site, v in sorted(tally.branches.items())
        ],
    }
    for reason, seeds in tally.loop_seeds.items():  # found again with `run --seed`
        report["end_reasons"][reason]["seeds"] = list(seeds)
    if teams:
        report["team_wins"] = {name: counted(tally.won(seats)) for name, seats in teams}
    if tally.payoffs:  # the spec's payoff: each seat's mean, chips or points
        report["payoff_mean"] = {
            f"P{p + 1}": stats.mean(tally.payoff_counts(p)) for p in range(players)
        }
    # does each seat (each side), each place in turn order, win as often? (a first
    # player's edge: a designer's first question of balance)
    if teams:
        report["team_wins_test"] = stats.equal_shares([tally.won(s) for _, s in teams])
    else:
        report["seat_wins_test"] = stats.equal_shares([tally.won({p}) for p in range(players)])
    if not rounds:  # by turn order: the first player, the seat after, ... (not per round)
        report["turn_order_wins"] = {
            ordinal(k + 1): counted(tally.from_first[k]) for k in range(players)
        }
        report["turn_order_wins_test"] = stats.equal_shares(
            [tally.from_first[k] for k in range(players)]
        )
    # games won by no one, and by several rivals at once (a tie shared: a team's seats
    # winning together are one win); the seat wins of shared games add past 100 %
    side = {p: name for name, seats in teams for p in seats}
    sides = Counter()
    for winners, k in tally.winners.items():
        sides[min(len({side.get(p, p) for p in winners}), 2)] += k
    report["no_winner"], report["shared_wins"] = share(sides[0]), share(sides[2])
    if max(tally.rounds, default=0) > 0:
        report["rounds"] = {
            "per_match": spread(tally.rounds),
            "round_length": spread(tally.round_lengths),
        }
    return report
