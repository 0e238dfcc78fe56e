"""Agent strength and speed, measured: the table in docs/agents.md.

    python benchmarks/bench_agents.py [--scale X] [--workers N]

Each row plays one agent against the others (all alike) for a fixed number of seeded
games (game k is seeded k), with the agent's seat rotated (seat k mod players), and
prints its win share with a 95 % Wilson interval beside the fair share 1/players, the
share of games that reached the turn limit, and the agent's time per decision (only
decisions with a real choice: a forced one is not asked). The last rows seat the same
agent everywhere, for the share of Pirates Wild games that reach the turn limit.
`--scale` multiplies every row's game count; results do not depend on `--workers`.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from functools import cache
from pathlib import Path

from rulespec import load_spec
from rulespec.analysis.simulation import wilson
from rulespec.interpreter import Game
from rulespec.interpreter.agents import make_agents, play

GAMES = Path(__file__).resolve().parent.parent / "games"
TTG, PW = "take_the_gold", "pirates_wild"

# (game, players, the agent measured, the agent at every other seat, games)
ROWS = [
    (TTG, 2, "ismcts", "random", 60),
    (TTG, 2, "ismcts:iterations=50", "greedy", 60),
    (TTG, 2, "ismcts", "greedy", 60),
    (TTG, 2, "greedy", "random", 60),
    (TTG, 3, "ismcts", "greedy", 60),
    (TTG, 4, "ismcts", "greedy", 60),
    (TTG, 4, "ismcts", "random", 60),
    (TTG, 4, "greedy", "random", 60),
    (PW, 2, "ismcts:iterations=50", "greedy", 12),
    (PW, 4, "ismcts:iterations=50", "greedy", 12),
    (PW, 4, "greedy", "random", 40),
    (PW, 4, "random", "random", 60),
    (PW, 4, "greedy", "greedy", 60),
    (PW, 4, "ismcts:iterations=25", "ismcts:iterations=25", 4),
]


@cache
def _game(name: str, players: int) -> Game:
    return Game(load_spec(GAMES / f"{name}.yaml"), players)


class Timed:
    """An agent with a stopwatch on its choices."""

    def __init__(self, agent):
        self.agent, self.seconds, self.decisions = agent, 0.0, 0
        self.needs_observation = agent.needs_observation
        self.needs_model = getattr(agent, "needs_model", False)

    def choose(self, *args):
        start = time.perf_counter()
        choice = self.agent.choose(*args)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return choice


def play_one(task) -> tuple[bool, bool, float, int]:
    """(the measured agent won, the turn limit was reached, its seconds, its decisions)."""
    (name, n, me, other, _), k = task
    seat = k % n
    agents = make_agents([me if p == seat else other for p in range(n)], n, k)
    agents[seat] = timed = Timed(agents[seat])
    state = play(_game(name, n).new_initial_state(seed=k, log=False), agents)
    return seat in state.winners, state.reason == "turn_limit", timed.seconds, timed.decisions


def measure(row, pool) -> str:
    games = row[4]
    outcomes = (
        pool.map(play_one, [(row, k) for k in range(games)])
        if pool
        else [play_one((row, k)) for k in range(games)]
    )
    wins = wilson(sum(o[0] for o in outcomes), games)
    limit = sum(o[1] for o in outcomes)
    decisions = sum(o[3] for o in outcomes)
    per = 1000 * sum(o[2] for o in outcomes) / max(1, decisions)
    name, n, me, other, _ = row
    return (
        f"| {name} | {n} | {me} | {other} | {games} | {100 * wins['share']:.0f} % "
        f"[{100 * wins['low']:.0f}, {100 * wins['high']:.0f}] | {100 / n:.0f} % | "
        f"{100 * limit / games:.0f} % | {per:.2f} ms |"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every row's game count")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = ap.parse_args(argv)
    print(
        "| game | players | agent | others | games | agent wins [95 % interval] | fair share "
        "| turn limit reached | time per decision |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    pool = multiprocessing.Pool(args.workers) if args.workers > 1 else None
    try:
        for row in ROWS:
            games = max(1, round(row[4] * args.scale))
            print(measure(row[:4] + (games,), pool), flush=True)
    finally:
        if pool is not None:
            pool.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
