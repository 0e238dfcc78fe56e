"""Decisions per second through the learning environments against the State API (issue 29).

    python benchmarks/bench_envs.py [--quick] [--repeats N] [--players N]

In process, one interpreter, the same seeds on every side: each side plays seeded
games to the end with uniformly random legal actions (a `random.Random` seeded per
game), chance drawn as that side draws it, and counts the **player decisions**
(chance is played, and timed, but not counted: PettingZoo plays it inside `step`):

- State API: `legal_labels()`, `apply_action(label)`, `sample_chance()`, on a state made
  as `new_initial_state(seed)` makes it (keeping its event log) and as
  `new_initial_state(seed, log=False)` does (no log: a third faster, the engine's
  fastest). The environments keep no log unless asked for what a seat saw (OpenSpiel's
  information state), so both are shown, and each ratio against each;
- OpenSpiel (rulespec.spiel): `legal_actions()`, `apply_action(a)`, and at a chance
  node `chance_outcomes()` and `apply_action` of a random outcome;
- PettingZoo (rulespec.env): `env.last()` (the acting seat's observation, mask and
  reward) and `env.step(a)` of a random action of the mask, as `agent_iter` drives it.

Each repeat measures the three sides of both games in turn (State, OpenSpiel,
PettingZoo, State, ...), so a disturbance of the machine falls on all of them; a side
plays its seeds again until it has run MIN_SECONDS of CPU time (time.process_time).
Figures are medians over the repeats; ratios are of the medians. One in-process
run: the set-up (loading, registering) is outside the timing, as the loops of an
agent's training run it once.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import pyspiel

from rulespec import load_spec
from rulespec.env import RulespecEnv
from rulespec.interpreter import Game
from rulespec.spiel import register

ROOT = Path(__file__).resolve().parent.parent
GAMES = {
    "take_the_gold": ROOT / "games/take_the_gold.yaml",
    "pirates_wild": ROOT / "games/pirates_wild.yaml",
}
SEEDS = {"take_the_gold": 40, "pirates_wild": 4}  # games per measurement, before repeating
MIN_SECONDS = 0.5
clock = time.process_time


def state_api(game: Game, seed: int, log: bool = False) -> int:
    state, pick, n = game.new_initial_state(seed, log=log), random.Random(seed), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance()
        else:
            state.apply_action(pick.choice(state.legal_labels()))
            n += 1
    return n


def state_api_logged(game: Game, seed: int) -> int:
    return state_api(game, seed, log=True)


def openspiel(game, seed: int) -> int:
    state, pick, n = game.new_initial_state(), random.Random(seed), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(pick.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(pick.choice(state.legal_actions()))
            n += 1
    return n


def pettingzoo(env: RulespecEnv, seed: int) -> int:
    env.reset(seed=seed)
    pick, n = random.Random(seed), 0
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(pick.choice(obs["action_mask"].nonzero()[0].tolist()))
            n += 1
    return n


def rate(side, target, seeds: int) -> float:
    """Decisions per CPU second, playing seeds 0.. until MIN_SECONDS have passed."""
    decisions, start, seed = 0, clock(), 0
    while seed < seeds or clock() - start < MIN_SECONDS:
        decisions += side(target, seed)
        seed += 1
    return decisions / (clock() - start)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="one short repeat: a smoke run")
    args = parser.parse_args(argv)
    global MIN_SECONDS
    if args.quick:
        args.repeats, MIN_SECONDS = 1, 0.05
    sides = {}
    for name, path in GAMES.items():
        spec = load_spec(path)
        spiel = pyspiel.load_game(register(spec, f"bench_{name}"), {"players": args.players})
        sides[name] = [
            ("State API, no log", state_api, Game(spec, args.players)),
            ("State API, logged", state_api_logged, Game(spec, args.players)),
            ("OpenSpiel apply_action", openspiel, spiel),
            ("PettingZoo env.step", pettingzoo, RulespecEnv(spec, args.players)),
        ]
    for name in GAMES:  # a warm-up, not counted
        for _, side, target in sides[name]:
            side(target, 0)
    rates: dict = {(name, label): [] for name in GAMES for label, _, _ in sides[name]}
    for _ in range(args.repeats):
        for name in GAMES:
            for label, side, target in sides[name]:
                rates[name, label].append(rate(side, target, SEEDS[name]))
    print(
        f"decisions/s (CPU), {args.players} players, random legal actions, "
        f"median of {args.repeats} alternating repeats, in process"
    )
    print(f"  {'':14} {'':24} {'':>9}  {'/ no log':>8}  {'/ logged':>8}")
    for name in GAMES:
        fast, logged = (
            statistics.median(rates[name, f"State API, {k}"]) for k in ("no log", "logged")
        )
        for label, _, _ in sides[name]:
            median = statistics.median(rates[name, label])
            print(
                f"  {name:14} {label:24} {median:9,.0f}  {median / fast:7.2f}x  {median / logged:7.2f}x"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
