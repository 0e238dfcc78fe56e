"""`rulespec lint --explore`, layer 2: bounded explicit-state search.

Breadth-first over every choice and chance outcome from a few seeded deals of a small
game (2 players, the spec's own deck), to a depth bound, with states hashed so each is
expanded once. It finds games that stop without an end (trigger or effect loops) with
the shortest choice sequence reaching them, and it confirms or leaves open layer-1
"maybe" findings. What it does not find is reported as "not found within bounds",
never as proof.
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from interpreter import CHANCE, Game, Rules

from ..lang import ir
from .lint import Finding


@dataclass
class Bounds:
    players: int = 2
    depth: int = 8            # choices (chance included) from the deal
    seeds: tuple[int, ...] = (0, 1, 2)
    max_states: int = 40_000
    seconds: float = 20.0


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    states: int = 0
    fired: set[str] = field(default_factory=set)
    complete: bool = True     # False when a state or time bound cut the search short
    loop_rules: set = field(default_factory=set)  # triggers seen firing forever


def _key(game: Game):
    rules = game.rules
    zones = tuple(tuple(game.ctype[c] for c in z) if i < len(rules.slots) and rules.slots[i].zone.ordered
                  else tuple(sorted(game.ctype[c] for c in z)) for i, z in enumerate(game.zones))
    pending = None
    if game.pending is not None:
        env = game.pending.env or {}
        pending = (game.pending.player, tuple(o.label for o in game.pending.options),
                   tuple(sorted((k, v if isinstance(v, int) else len(v) if isinstance(v, list) else 0)
                                for k, v in env.items() if not k.startswith("__"))))
    frames = tuple((id(f.code), f.pc) for f in game.stack)
    return (zones, tuple(game.counters), game.current, tuple(game.active), game.step_index,
            game.direction, game.over, game.reason, pending, frames)


def explore(spec: ir.Spec, bounds: Bounds = Bounds()) -> Report:
    n = max(spec.min_players, min(bounds.players, spec.max_players))
    rules = Rules(spec, n)
    report, seen = Report(), set()
    looped: set[str] = set()
    started = time.monotonic()
    queue: deque = deque()
    for seed in bounds.seeds:
        game = Game(rules, seed=seed)
        queue.append((game, ()))
        seen.add(_key(game))
    while queue:
        if len(seen) > bounds.max_states or time.monotonic() - started > bounds.seconds:
            report.complete = False
            break
        game, path = queue.popleft()
        report.fired |= game.fired.keys()
        if game.over:
            if game.reason in ("trigger_loop", "effect_loop") and game.reason not in looped:
                looped.add(game.reason)  # one finding per reason: BFS finds the shortest first
                report.loop_rules |= {e.get("rule") for e in game.events or () if e["event"] == "error"}
                report.findings.append(Finding(
                    "RL201", "error", f"the game stops without an end ({game.reason}) after "
                    f"{len(path)} choice{'s' if len(path) != 1 else ''}", spec.span, layer=2, trace=path,
                    hint="replay the trace with a scenario to see the loop"))
            continue
        if len(path) >= bounds.depth:
            continue
        who = game.to_act()
        for option in game.legal():
            child = game.clone()
            child.apply(option)
            key = _key(child)
            if key in seen:
                continue
            seen.add(key)
            step = f"{'chance' if who == CHANCE else f'P{who + 1}'}: {option.label}"
            queue.append((child, path + (step,)))
    report.states = len(seen)
    return report


def confirm(spec: ir.Spec, layer1: list[Finding], report: Report) -> list[Finding]:
    """Layer-2 verdicts on layer-1 'maybe' findings (trigger cycles)."""
    out = list(report.findings)
    if not report.complete:
        out.append(Finding("RL203", "info", f"exploration stopped at its bounds ({report.states} "
                           "states): what it did not reach is unknown", spec.span, layer=2))
    for f in layer1:
        if f.code != "RL107":
            continue
        if set(f.rules) & report.loop_rules:
            out.append(Finding("RL202", "error", f"confirmed: {f.message}", f.span, layer=2,
                               trace=next(x.trace for x in report.findings if x.code == "RL201")))
        else:
            out.append(Finding("RL203", "info", f"not found within bounds ({report.states} "
                               f"states): {f.message}", f.span, layer=2))
    return out
