"""Exploration steered toward rare states: a best-first dive for `lint --explore`.

Breadth-first exploration (explore.py) sees every state a few choices deep, and random
play sees the common ones; neither reaches a state that needs many choices made one
particular way, such as a draw pile run dry while the discard pile holds exactly one
card. Those are the states the automatic rules wait for, so the static reading of the
spec names them: each trigger's condition, and each `while` loop's, read as a distance
from holding, the sum over its `and`-ed comparisons of how far a zone's size or a
counter is from the number it is compared with (the least over `or`, over a per-player
zone's seats, and 0 for what it cannot measure). For each such condition the dive
expands, of the states it has met, the one nearest to making it hold, deepest first,
within its own share of states and a depth of MAX_DEPTH choices, and keeps the games
that stopped without an end. It proves nothing when it finds nothing.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable

from ..lang import ir

MAX_DEPTH = 400  # choices: past the depth of any breadth-first search, short of a turn limit
COMPARE = {
    "==": lambda a, b: abs(a - b),
    "!=": lambda a, b: int(a == b),
    "<": lambda a, b: max(0, a - b + 1),
    "<=": lambda a, b: max(0, a - b),
    ">": lambda a, b: max(0, b - a + 1),
    ">=": lambda a, b: max(0, b - a),
}

Distance = Callable[[tuple], int]  # State.measures() -> how far from holding


def targets(spec: ir.Spec, players: int) -> list[tuple[str, Distance]]:
    """(rule, distance) for each trigger's condition and each `while` loop's that
    compares a zone's size or a counter with a number: what a dive steers toward."""
    params = {p.name: p.value_for(players) for p in spec.params}
    found = [(t.name, t.when) for t in spec.triggers]
    for kind, rule in (*spec.rules(), *(("procedure", p) for p in spec.procedures)):
        for node in ir.walk(ir.body(rule)):
            if isinstance(node, ir.While):
                found.append((getattr(rule, "name", kind), node.cond))
    out = []
    for name, cond in found:
        if _measured(cond):
            out.append((name, lambda measures, cond=cond: _distance(cond, measures, params)))
    return out


def _measured(e) -> bool:
    """Does the condition compare something a distance can measure?"""
    return any(
        isinstance(n, ir.Binary) and n.op in COMPARE and (_size_of(n.left) or _size_of(n.right))
        for n in ir.walk(e)
    )


def _size_of(e) -> bool:
    return isinstance(e, ir.Counter) or (
        isinstance(e, ir.Call) and e.func == "size" and isinstance(e.args[0], ir.ZoneRef)
    )


def _distance(e, measures: tuple, params: dict) -> int:
    if isinstance(e, ir.Binary) and e.op == "and":
        return _distance(e.left, measures, params) + _distance(e.right, measures, params)
    if isinstance(e, ir.Binary) and e.op == "or":
        return min(_distance(e.left, measures, params), _distance(e.right, measures, params))
    if isinstance(e, ir.Binary) and e.op in COMPARE:
        left, right = _values(e.left, measures, params), _values(e.right, measures, params)
        if left and right:
            return min(COMPARE[e.op](a, b) for a in left for b in right)
    return 0


def _values(e, measures: tuple, params: dict) -> list[int]:
    """What an operand may be in this state: a number, a parameter, a zone's size or a
    counter's value (one per seat, for a per-player one); [] where it cannot tell."""
    if isinstance(e, ir.Const) and type(e.value) is int:
        return [e.value]
    if isinstance(e, ir.Param) and type(params.get(e.name)) is int:
        return [params[e.name]]
    sizes, counters = measures
    if isinstance(e, ir.Counter):
        return _slots(counters, e.name)
    if _size_of(e):
        return _slots(sizes, e.args[0].name)
    return []


def _slots(table: dict, name: str) -> list[int]:
    """The values of a zone's or counter's slots: `name`, or `name[P1]` ... ."""
    return [v for label, v in table.items() if label.split("[")[0] == name and type(v) is int]


def dive(first_states, distance: Distance, share: int, children, watch) -> list[tuple]:
    """Best first from the states given, nearest to making the condition hold first,
    then deepest: the (state, path) of each game it meets that stopped without an end,
    within `share` states. `children` is explore's way on from a state."""
    tick = itertools.count()
    heap, seen, stopped = [], set(), []
    for state in first_states:
        seen.add(state.key())
        heapq.heappush(heap, (distance(state.measures()), 0, next(tick), state, ()))
    while heap and len(seen) <= share:
        watch(len(seen))
        _, depth, _, state, path = heapq.heappop(heap)
        if state.is_terminal():
            if state.reason in ("trigger_loop", "effect_loop"):
                stopped.append((state, path))
            continue
        if -depth >= MAX_DEPTH:
            continue
        for step, _, child in children(state):
            key = child.key()
            if key not in seen:
                seen.add(key)
                near = distance(child.measures()) if not child.is_terminal() else -1
                entry = (near, depth - 1, next(tick), child, path + (step,) if step else path)
                heapq.heappush(heap, entry)
    return stopped
