"""`rulespec lint --simulate N`, layer 3: what N seeded games never used.

Rules, reactions, triggers and end conditions that never fired, procedures never
called, and games that hit the turn limit. The N games are played by random agents,
which rarely finish a long game; a rule they never fired is tried again in a few games
of greedy agents (which play to win, so their games end) when the spec has an
evaluation for them to play by, and reported only if it does not fire there either.
"""
from __future__ import annotations

from collections.abc import Callable

from rulespec.interpreter import Game
from rulespec.interpreter.agents import make_agents, play

from ..lang import ir
from .explore import looping_rule
from .lint import Finding

GREEDY_GAMES = 10   # a greedy game costs about ten random ones


def coverage(spec: ir.Spec, games: int, progress: Callable[[int], None] | None = None) -> list[Finding]:
    """Seeds 0..games-1, the spec's default player count and turn limit; progress(games
    played) after each."""
    n = spec.default_players
    definition = Game(spec, n)
    fired, called, limited, loops = set(), set(), 0, {}
    for s in range(games):
        game = play(definition.new_initial_state(seed=s, log=False), make_agents(["random"], n, s))
        fired |= game.fired.keys() | {game.reason}
        called |= game.called.keys()
        limited += game.reason == "turn_limit"
        if game.reason in ("trigger_loop", "effect_loop"):
            loops.setdefault(game.reason, []).append(s)
        if progress is not None:
            progress(s + 1)
    findings = [Finding("RL201", "error", f"{len(seeds)} of {games} random {n}-player games "
                        f"stopped without an end ({reason} in {_culprit(definition, n, seeds[0])}); "
                        f"first seed {seeds[0]}", spec.span, layer=3)
                for reason, seeds in sorted(loops.items())]
    missed = [(kind, part) for kind, part in spec.rules()  # steps and rounds run in turn
              if kind not in ("step", "round") and part.name not in fired]
    greedy_games = min(games, GREEDY_GAMES) if spec.evaluation is not None else 0
    greedy = _greedy_fired(definition, n, greedy_games, {p.name for _, p in missed})
    nor = f", nor in {greedy_games} greedy ones" if greedy_games else ""
    for kind, part in missed:
        if part.name not in greedy:
            findings.append(Finding("RL301", "warning", f"{ir.RULE_KINDS[kind]} '{part.name}' never "
                                    f"fired in {games} random {n}-player games{nor}", part.span, layer=3))
    for p in spec.procedures:
        if p.name not in called:
            findings.append(Finding("RL301", "warning", f"procedure '{p.name}' was never called "
                                    f"in {games} random {n}-player games", p.span, layer=3))
    if limited:
        findings.append(Finding("RL302", "info", f"{limited} of {games} random {n}-player games "
                                f"hit the turn limit ({spec.turn_limit})",
                                spec.span, layer=3))
    return findings


def _culprit(definition: Game, n: int, seed: int) -> str:
    """The rule a looping random game stopped in: the game played again, with its log."""
    return looping_rule(play(definition.new_initial_state(seed=seed), make_agents(["random"], n, seed)))


def _greedy_fired(definition: Game, n: int, games: int, wanted: set[str]) -> set[str]:
    """Which of the wanted rules fire in greedy games (seeds 0..games-1), stopping as
    soon as all have."""
    fired: set[str] = set()
    for s in range(games if wanted else 0):
        game = play(definition.new_initial_state(seed=s, log=False), make_agents(["greedy"], n, s))
        fired |= game.fired.keys()
        if wanted <= fired:
            break
    return fired & wanted
