"""`rulespec lint --simulate N`, layer 3: what N seeded random games never used.

Rules, reactions, triggers and end conditions that never fired, procedures never
called, and games that hit the turn limit.
"""
from __future__ import annotations

from interpreter import Game
from interpreter.agents import make_agents, play

from ..lang import ir
from .lint import Finding


def coverage(spec: ir.Spec, games: int) -> list[Finding]:
    """Seeds 0..games-1, the spec's default player count and turn limit."""
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
    findings = [Finding("RL201", "error", f"{len(seeds)} of {games} random {n}-player games "
                        f"stopped without an end ({reason}); first seed {seeds[0]}", spec.span,
                        layer=3) for reason, seeds in sorted(loops.items())]
    for kind, part in spec.rules():
        if kind not in ("step", "round") and part.name not in fired:  # steps and rounds run in turn
            findings.append(Finding("RL301", "warning", f"{ir.RULE_KINDS[kind]} '{part.name}' never fired in "
                                    f"{games} random {n}-player games", part.span, layer=3))
    for p in spec.procedures:
        if p.name not in called:
            findings.append(Finding("RL301", "warning", f"procedure '{p.name}' was never called "
                                    f"in {games} random {n}-player games", p.span, layer=3))
    if limited:
        findings.append(Finding("RL302", "info", f"{limited} of {games} random {n}-player games "
                                f"hit the turn limit ({spec.turn_limit})",
                                spec.span, layer=3))
    return findings
