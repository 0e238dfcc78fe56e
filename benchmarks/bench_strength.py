"""Search strength against OpenSpiel's own bots: the strength table in docs/agents.md.

    python benchmarks/bench_strength.py [--games N] [--row I ...] [--out FILE] [--workers N]

Each row plays our agent at one seat against an opponent at every other seat, seats
alternating (game k puts ours at seat k mod players, seeded k). An opponent is one of
our agents (`greedy`) or one of OpenSpiel's, through rulespec.spiel: `os-ismcts`
(`ISMCTSBot`, which samples its worlds through `resample_from_infostate`, with a
sampler seeded from the game) or `os-mcts` (`MCTSBot`, which searches the true state,
hidden cards included), both with OpenSpiel's `RandomRolloutEvaluator` (one rollout),
`uct_c` 2, and either `iterations=N` simulations or `seconds=S` a decision (a deadline
on the same loop). Chance is the game's: a seeded pick among OpenSpiel's chance outcomes.

A row may cap the game at a number of turns: OpenSpiel's bots roll out at random to
the end, and at random Pirates Wild runs to its 2,000-turn limit. The cap is the game's
turn limit, so every search sees it (a rollout that reaches it ends without a winner);
the benchmark then judges a game ended at its turn limit by the spec's `evaluation`:
the one seat it scores highest wins (a tie: no winner), and OpenSpiel's bots see its
returns so judged (their rollouts to the cap would tell nothing otherwise). Ours values
what it does not play out by the same evaluation. It prints ours' share of wins with its 95 % Wilson interval beside the
fair share, the share of games with no winner, and each side's time per decision (real
choices only). `--out FILE` appends each game as a JSON line and resumes; `--report`
prints the table from FILE over the longest prefix of games 0, 1, ... played.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import random
import time
from functools import cache
from pathlib import Path

import numpy as np
import pyspiel
from bench_agents import done_games
from open_spiel.python.algorithms import ismcts, mcts

from rulespec import load_spec, spiel
from rulespec.analysis.stats import wilson
from rulespec.interpreter.agents import decide, make_agents, tell
from rulespec.spiel import register

GAMES = Path(__file__).resolve().parent.parent / "games"
TTG, PW = "take_the_gold", "pirates_wild"
PW_CAP = 60  # turns: OpenSpiel's random rollouts to the 2,000-turn limit take minutes a decision
SECONDS = 0.05  # a decision's wall time in the same-time rows

# (game, players, turn cap or None, our agent, the agent at every other seat)
ROWS = [
    (TTG, 2, None, "ismcts", "os-ismcts:iterations=100"),
    (TTG, 2, None, f"ismcts:seconds={SECONDS}", f"os-ismcts:seconds={SECONDS}"),
    (TTG, 2, None, "ismcts", "os-mcts:iterations=100"),
    (PW, 2, PW_CAP, "ismcts", "os-ismcts:iterations=100"),
    (PW, 2, PW_CAP, f"ismcts:seconds={SECONDS}", f"os-ismcts:seconds={SECONDS}"),
    (PW, 2, PW_CAP, "ismcts", "os-mcts:iterations=100"),
    (TTG, 4, None, "ismcts", "greedy"),
]
GAMES_PER_ROW = 400


@cache
def _spiel_game(name: str, players: int, cap: int | None):
    spec = load_spec(GAMES / f"{name}.yaml")
    if cap is not None:
        spec = dataclasses.replace(spec, turn_limit=cap)
    return pyspiel.load_game(register(spec, f"bench_{name}_{players}_{cap}"), {"players": players})


class TimedISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTSBot searching until a deadline instead of for a count: its own
    run_search, with the loop's bound changed."""

    def __init__(self, *args, seconds: float, **kw):
        super().__init__(*args, **kw)
        self.seconds = seconds

    def run_search(self, state):
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        while time.perf_counter() < deadline or self._root_node.total_visits <= 0:
            self.run_simulation(self.sample_root_state(state))
        return self.get_final_policy(state, self._root_node)


def _resampler(seed):
    """ISMCTSBot's own way to a world, `resample_from_infostate`, with a sampler seeded
    from the game: the bot's default sampler, `UniformProbabilitySampler`, is seeded at
    random, so its games would not repeat (nor resume with --out)."""
    sampler = random.Random(seed).random

    def resample(state, player):
        return state.resample_from_infostate(player, sampler)

    return resample


def openspiel_bot(game, text: str, seed: int):
    """`os-ismcts:iterations=N`, `os-ismcts:seconds=S` or `os-mcts:iterations=N`."""
    name, budget = text.split(":")
    key, value = budget.split("=")
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    if name == "os-mcts":
        return mcts.MCTSBot(game, 2, int(value), evaluator, random_state=rng)
    if key == "seconds":
        bot = TimedISMCTS(game, evaluator, 2, 1, random_state=rng, seconds=float(value))
    else:
        bot = ismcts.ISMCTSBot(game, evaluator, 2, int(value), random_state=rng)
    bot.set_resampler(_resampler(seed))
    return bot


def play_one(task) -> dict:
    """One game; ours at seat k mod players."""
    row, k = task
    name, n, cap, ours, theirs = row
    game = _spiel_game(name, n, cap)
    seat = k % n
    spiel = theirs.startswith("os-")
    agents = make_agents([ours if p == seat or spiel else theirs for p in range(n)], n, k)
    bots = {p: openspiel_bot(game, theirs, k * n + p) for p in range(n) if p != seat and spiel}
    watchers = {seat: agents[seat]} if hasattr(agents[seat], "watch") else {}
    chance, spent = np.random.RandomState(k), {"ours": [0.0, 0], "theirs": [0.0, 0]}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(chance.choice(actions, p=probs)))
            continue
        who, table = state.current_player(), state.table
        options = table.legal_actions()
        start = time.perf_counter()
        if len(options) == 1:
            choice = options[0]
        elif who in bots:
            label = game.actions.labels[bots[who].step(state)]
            choice = next(o for o in options if o.label == label)
        else:
            choice = decide(agents[who], table, who, options)
        if len(options) > 1:  # a real choice, timed
            side = spent["ours" if who == seat else "theirs"]
            side[0] += time.perf_counter() - start
            side[1] += 1
        start = time.perf_counter()
        tell(watchers, table, who, choice)
        spent["ours"][0] += time.perf_counter() - start  # what ours does on seeing it
        state.apply_action(game.actions.action_of(choice.label))
    table = state.table
    winners = leaders(table) if table.reason == "turn_limit" else table.winners
    return {
        "row": list(row),
        "game": k,
        "won": seat in winners,
        "no_winner": not winners,
        "capped": table.reason == "turn_limit",
        "turns": table.turn,
        "ours": spent["ours"],
        "theirs": spent["theirs"],
    }


def leaders(table) -> tuple[int, ...]:
    """A capped game's winner: the one seat the spec's `evaluation` scores highest."""
    scores = [table.evaluate(p) for p in range(table.game.n)]
    top = max(scores)
    return (scores.index(top),) if scores.count(top) == 1 else ()


def judged_returns(self) -> list[float]:
    """OpenSpiel's returns with a game ended at its turn limit judged as the benchmark
    judges it, so that OpenSpiel's rollouts that reach the cap tell a win from a loss."""
    table = self.table
    if table.reason != "turn_limit":
        return table.returns()
    won = leaders(table)
    return [1.0 if p in won else -1.0 if won else 0.0 for p in range(table.game.n)]


spiel.SpecState.returns = judged_returns  # this benchmark's rule, in its own process


def table_row(row, outcomes: list[dict]) -> str:
    name, n, cap, ours, theirs = row
    games = len(outcomes)
    wins = wilson(sum(o["won"] for o in outcomes), games)
    none = sum(o["no_winner"] for o in outcomes)
    capped = sum(o.get("capped", False) for o in outcomes)

    def per(side):
        seconds, decisions = (sum(o[side][i] for o in outcomes) for i in (0, 1))
        return f"{1000 * seconds / max(1, decisions):.1f} ms"

    return (
        f"| {name} | {n} | {cap or '-'} | {ours} | {theirs} | {games} | "
        f"{100 * wins['share']:.0f} % [{100 * wins['low']:.0f}, {100 * wins['high']:.0f}] | "
        f"{100 / n:.0f} % | {100 * capped / games:.1f} % | {100 * none / games:.1f} % | "
        f"{per('ours')} | {per('theirs')} |"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=GAMES_PER_ROW, help="games per row")
    ap.add_argument("--row", type=int, action="append", help="a row number (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the rows and exit")
    ap.add_argument("--out", type=Path, help="JSON-lines file of outcomes: resumable")
    ap.add_argument("--report", action="store_true", help="print the table from --out")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = ap.parse_args(argv)
    if args.list:
        for i, row in enumerate(ROWS):
            print(i, *row)
        return 0
    print(
        "| game | players | turn cap | ours | others | games | ours wins [95 % interval] "
        "| fair share | capped | no winner | ours per decision | others per decision |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    if args.report and args.out is None:
        ap.error("--report needs --out FILE")
    rows = [ROWS[i] for i in args.row] if args.row is not None else ROWS
    pool = multiprocessing.Pool(args.workers) if args.workers > 1 and not args.report else None
    try:
        for row in rows:
            outcomes = prefix(row, args.out) if args.report else measure(row, args, pool)
            if outcomes:
                print(table_row(row, outcomes), flush=True)
    finally:
        if pool is not None:
            pool.terminate()
    return 0


def prefix(row, out: Path) -> list[dict]:
    """The row's games 0, 1, ... k-1 in `out`, for the largest such k."""
    done, outcomes = done_games(out), []
    while (tuple(row), len(outcomes)) in done:
        outcomes.append(done[(tuple(row), len(outcomes))])
    return outcomes


def measure(row, args, pool) -> list[dict]:
    done = done_games(args.out)
    todo = [(row, k) for k in range(args.games) if (tuple(row), k) not in done]
    for record in pool.imap_unordered(play_one, todo) if pool else map(play_one, todo):
        done[(tuple(row), record["game"])] = record
        if args.out is not None:
            with args.out.open("a") as f:
                f.write(json.dumps(record) + "\n")
    return [done[(tuple(row), k)] for k in range(args.games)]


if __name__ == "__main__":
    raise SystemExit(main())
