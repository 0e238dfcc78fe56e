"""Agent strength and speed, measured: the table in docs/agents.md.

    python benchmarks/bench_agents.py [--games N] [--row I ...] [--out FILE] [--workers N]

Each row plays one agent against the others (all alike) for a fixed number of seeded
games (game k is seeded k), with the agent's seat rotated (seat k mod players), and
prints its win share with a 95 % Wilson interval beside the fair share 1/players, the
share of games that reached the turn limit, and the agent's time per decision (only
decisions with a real choice: a forced one is not asked). The last row seats the same
agent everywhere, for the share of Pirates Wild games that reach the turn limit.

`--row` picks rows by number (`--list` shows them); `--games` sets every row's game
count. With `--out`, each game's outcome is appended to FILE as a JSON line as soon as
it is played, and games already there are not played again: a run that dies resumes
where it stopped, and the table is printed from the file. `--report` plays nothing and
prints each row from FILE over its games 0 to k-1 for the largest k all present (a run
stopped at a deadline still gives an unbiased prefix of seeds and rotated seats).
Results do not depend on `--workers`.
"""

from __future__ import annotations

import argparse
import json
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

# (game, players, the agent measured, the agent at every other seat)
ROWS = [
    (TTG, 2, "ismcts", "greedy"),
    (TTG, 3, "ismcts", "greedy"),
    (TTG, 4, "ismcts", "greedy"),
    (TTG, 4, "ismcts:iterations=30", "greedy"),
    (TTG, 4, "greedy", "random"),
    (PW, 2, "ismcts", "greedy"),
    (PW, 3, "ismcts", "greedy"),
    (PW, 4, "ismcts", "greedy"),
    (PW, 4, "greedy", "random"),
    (PW, 4, "greedy", "greedy"),
]
GAMES_PER_ROW = 400


@cache
def _game(name: str, players: int) -> Game:
    return Game(load_spec(GAMES / f"{name}.yaml"), players)


class Timed:
    """An agent with a stopwatch on its choices."""

    def __init__(self, agent):
        self.agent, self.seconds, self.decisions = agent, 0.0, 0
        self.needs_observation = agent.needs_observation
        self.needs_model = getattr(agent, "needs_model", False)
        if hasattr(agent, "watch"):  # what it does between its decisions is timed too
            self.watch = self._watch

    def _watch(self, *args):
        start = time.perf_counter()
        self.agent.watch(*args)
        self.seconds += time.perf_counter() - start

    def choose(self, *args):
        start = time.perf_counter()
        choice = self.agent.choose(*args)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return choice


def play_one(task) -> dict:
    """One game's outcome for the measured agent, as a JSON-ready record."""
    row, k = task
    name, n, me, other = row
    seat = k % n
    agents = make_agents([me if p == seat else other for p in range(n)], n, k)
    agents[seat] = timed = Timed(agents[seat])
    state = play(_game(name, n).new_initial_state(seed=k, log=False), agents)
    return {
        "row": list(row),
        "game": k,
        "won": seat in state.winners,
        "turn_limit": state.reason == "turn_limit",
        "seconds": timed.seconds,
        "decisions": timed.decisions,
    }


def done_games(path: Path | None) -> dict:
    """(row, k) -> record, for every game already in the output file."""
    if path is None or not path.exists():
        return {}
    records = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {(tuple(r["row"]), r["game"]): r for r in records}


def report(out: Path) -> None:
    """Every row of `out` over its longest run of games 0, 1, ... played."""
    done = done_games(out)
    for row in ROWS:
        outcomes = []
        while (row, len(outcomes)) in done:
            outcomes.append(done[(row, len(outcomes))])
        if outcomes:
            print(table_row(row, outcomes))


def measure(row, games, pool, out: Path | None) -> str:
    done = done_games(out)
    todo = [(row, k) for k in range(games) if (row, k) not in done]
    results = pool.imap_unordered(play_one, todo) if pool else map(play_one, todo)
    for record in results:
        done[(row, record["game"])] = record
        if out is not None:
            with out.open("a") as f:
                f.write(json.dumps(record) + "\n")
    return table_row(row, [done[(row, k)] for k in range(games)])


def table_row(row, outcomes: list[dict]) -> str:
    games = len(outcomes)
    wins = wilson(sum(o["won"] for o in outcomes), games)
    limit = sum(o["turn_limit"] for o in outcomes)
    decisions = sum(o["decisions"] for o in outcomes)
    per = 1000 * sum(o["seconds"] for o in outcomes) / max(1, decisions)
    name, n, me, other = row
    return (
        f"| {name} | {n} | {me} | {other} | {games} | {100 * wins['share']:.0f} % "
        f"[{100 * wins['low']:.0f}, {100 * wins['high']:.0f}] | {100 / n:.0f} % | "
        f"{100 * limit / games:.1f} % | {per:.2f} ms |"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=GAMES_PER_ROW, help="games per row")
    ap.add_argument("--row", type=int, action="append", help="a row number (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the rows and exit")
    ap.add_argument("--out", type=Path, help="JSON-lines file of outcomes: resumable")
    ap.add_argument(
        "--report", action="store_true", help="print the table from --out, play nothing"
    )
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = ap.parse_args(argv)
    if args.list:
        for i, row in enumerate(ROWS):
            print(i, *row)
        return 0
    print(
        "| game | players | agent | others | games | agent wins [95 % interval] | fair share "
        "| turn limit reached | time per decision |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    if args.report:
        if args.out is None:
            ap.error("--report needs --out FILE")
        report(args.out)
        return 0
    pool = multiprocessing.Pool(args.workers) if args.workers > 1 else None
    try:
        for i in args.row if args.row is not None else range(len(ROWS)):
            print(measure(ROWS[i], args.games, pool, args.out), flush=True)
    finally:
        if pool is not None:
            pool.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
