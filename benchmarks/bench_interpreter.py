"""Interpreter speed and memory, against a hand-written Take the Gold, in one run.

    python benchmarks/bench_interpreter.py [--games N] [--quick]

Rates are per second of this process's CPU time. Prints games/s and steps/s (a step is one applied decision, chance included: a shuffle is one) for Take
the Gold and Pirates Wild (4 players, random agents) through the interpreter, the
same for the hand-written Take the Gold (benchmarks/handwritten_ttg.py), the
interpreter / hand-written ratio, the live size of a game state, peak memory while
playing one game, and how time per game scales with the player count (2-6).
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handwritten_ttg import TakeTheGold

from rulespec import load_spec
from rulespec.interpreter import Game
from rulespec.interpreter.agents import make_agents, play

ROOT = Path(__file__).resolve().parent.parent
TTG = ROOT / "games" / "take_the_gold.yaml"
PW = ROOT / "games" / "pirates_wild.yaml"


# CPU time of this process: what other work on the machine disturbs least.
clock = time.process_time


def interpreter_rate(spec_path, players, games, seed=0):
    game = Game(load_spec(spec_path), players)  # compiled once, outside the timing
    steps, start = 0, clock()
    for s in range(seed, seed + games):
        g = play(game.new_initial_state(seed=s, log=False), make_agents(["random"], players, s))
        steps += g.length
    dt = clock() - start
    return games / dt, steps / dt


def handwritten_rate(players, games, seed=0):
    steps, start = 0, clock()
    for s in range(seed, seed + games):
        steps += TakeTheGold(players, s).play().steps
    dt = clock() - start
    return games / dt, steps / dt


def best_of_interleaved(fns, repeats=3):
    """Each measurement's best of a few runs, taken in turn so that both see the
    same machine."""
    runs = [[] for _ in fns]
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            runs[i].append(fn())
    return [max(r, key=lambda x: x[0]) for r in runs]


def definition(spec_path, players):
    """The game definition, with everything it shares between states (compiled code,
    options) made, and one game played on it, so that what is measured next is a
    state's own memory."""
    game = Game(load_spec(spec_path), players)
    play(
        game.new_initial_state(seed=1000, log=False, turn_limit=200),
        make_agents(["random"], players, 0),
    )
    return game


def live_state_bytes(spec_path, players=4, turns=10):
    """Memory held by one game paused mid-play, over what its shared definition holds."""
    game = definition(spec_path, players)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    state = game.new_initial_state(seed=1, log=False)
    agents = make_agents(["random"], players, 1)
    while not state.is_terminal() and state.turn < turns:
        if state.is_chance_node():
            state.sample_chance()
        else:
            state.apply_action(agents[state.current_player()].choose(None, state.legal_actions()))
    size = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return size, state


def peak_per_game(spec_path, players=4):
    game = definition(spec_path, players)
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    play(game.new_initial_state(seed=2, log=False), make_agents(["random"], players, 2))
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="Take the Gold games per measurement")
    ap.add_argument("--quick", action="store_true", help="fewer games, for a smoke run")
    args = ap.parse_args(argv)
    n = 300 if args.quick else args.games
    pw_games = max(5, n // 100)

    (ttg_g, ttg_s), (hw_g, hw_s) = best_of_interleaved(
        [lambda: interpreter_rate(TTG, 4, n), lambda: handwritten_rate(4, n)]
    )
    pw_g, pw_s = interpreter_rate(PW, 4, pw_games)
    print(f"Take the Gold, 4 players, random agents ({n} games, best of 3)")
    print(f"  interpreter   {ttg_g:9.0f} games/s  {ttg_s:10.0f} steps/s")
    print(f"  hand-written  {hw_g:9.0f} games/s  {hw_s:10.0f} steps/s")
    print(
        f"  ratio interpreter / hand-written: {ttg_g / hw_g:.2f} (games/s), "
        f"{ttg_s / hw_s:.2f} (steps/s); target >= 0.50"
    )
    print(f"Pirates Wild, 4 players, random agents ({pw_games} games)")
    print(f"  interpreter   {pw_g:9.1f} games/s  {pw_s:10.0f} steps/s")
    for path, name in ((TTG, "Take the Gold"), (PW, "Pirates Wild")):
        size, _ = live_state_bytes(path)
        print(
            f"{name}: live game state {size / 1024:.1f} KB (target < 64 KB); "
            f"peak while playing one game {peak_per_game(path) / 1024:.1f} KB"
        )
    print("Take the Gold, time per game by player count (interpreter | hand-written)")
    for players in range(2, 7):
        g1, _ = interpreter_rate(TTG, players, n // 3)
        g2, _ = handwritten_rate(players, n // 3)
        print(
            f"  {players} players: {1000 / g1:6.3f} ms | {1000 / g2:6.3f} ms  (ratio {g1 / g2:.2f})"
        )


if __name__ == "__main__":
    main()
