"""Layer-1 checks of progress: loops that cannot end, and what is written and never read.

Each check is a generator over an Analysis (rulespec.analysis.lint) that yields bare
findings, as lint's own checks do; lint.static runs them after its own.

- RL115: a `while` whose body cannot make its condition false once it holds. The
  body's writes (what it moves into and out of which zones, the counters, locals and
  memories it sets, with what the procedures it calls do) are compared with what the
  condition reads: a count that the body only raises cannot fall below a threshold,
  a zone it never touches cannot change. Such a loop, once entered, runs until the
  runtime stops it (effect_loop). The same for a step's `again_if`: what the step's
  plays, and the reactions and triggers, write against what the condition reads.
- RL116: a counter that rules change and nothing reads: its changes are silent.
"""

from __future__ import annotations

from ..lang import ir
from . import graph as graphs
from .lint import Analysis, Finding, _body

_ENDS = {"win", "end_game", "end_turn", "eliminate"}
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def check_loops(an: Analysis):
    """RL115: `while` loops whose body cannot falsify their condition."""
    spec = an.spec
    for nid, part in (*graphs.rules_of(spec), *graphs.definitions(spec)):
        for s in ir.walk_statements(_body(spec, part)):
            if not isinstance(s, ir.While):
                continue
            body = graphs.with_refills(spec, graphs.with_calls(spec, graphs.touches_of(s.body)))
            writes = _Writes(spec, body, s.body)
            stuck = None if writes.ends else _stuck(spec, writes, s.cond, negated=False, depth=0)
            if stuck is None:
                continue
            yield Finding(
                "RL115",
                "warning",
                f"{nid.kind} '{nid.name}': once this loop's condition holds, its body "
                "cannot make it false: the loop never ends (the game stops, effect_loop)",
                stuck.span,
                rules=(nid.name,),
                hint="make the body change what the condition tests (move cards out of "
                "the zone it counts, change the counter), or test what the body changes",
            )


def check_again(an: Analysis):
    """RL115 for a step offered again while its `again_if` condition holds: once it
    holds, can neither a play of the step nor the reactions and triggers a play sets
    off make it false? A play that can end the turn or the game is not judged."""
    spec = an.spec
    after = [n for n in an.touches if n.kind in ("reaction", "trigger")]
    for step in spec.turn:
        if step.again_if is None:
            continue
        plays = [an.touches[graphs.NodeId("action", a)][1] for a in step.actions]
        t = graphs.Touches()
        for eff in plays + [an.touches[n][1] for n in after]:
            t.add(eff)
        if any(_ENDS & eff.procs for eff in plays):
            continue
        stuck = _stuck(spec, _Writes(spec, t), step.again_if, negated=False, depth=0)
        if stuck is None:
            continue
        yield Finding(
            "RL115",
            "warning",
            f"step '{step.name}': once its again_if condition holds, no play can make it "
            "false: the step is offered again until the game stops (effect_loop)",
            stuck.span,
            rules=(step.name,),
            hint="make the plays change what the condition tests (a counter their effect "
            "sets), or test what they change; for any number of plays ended by a pass, "
            "write repeat: true",
        )


class _Writes:
    """What a block (or rules) writes, from its touches with the procedures it calls;
    the locals it sets, from the block."""

    def __init__(self, spec: ir.Spec, t: graphs.Touches, block=()):
        self.spec = spec
        self.moves_to, self.moves_from = t.moves_to, t.moves_from | t.shuffles
        self.anywhere = "*" in t.moves_from
        self.counters = set(t.changes)
        self.memories = set(t.remembers)
        self.ends = bool(_ENDS & t.procs)
        self.locals = set()
        for st in ir.walk_statements(block):
            if isinstance(st, ir.Assign) and isinstance(st.target, ir.Local):
                self.locals.add(st.target.name)
            elif isinstance(st, ir.Let):
                self.locals.add(st.name)
            elif isinstance(st, (ir.ChooseCard, ir.ChooseNumber, ir.For)):
                self.locals.add(st.var)
            elif isinstance(st, ir.ChooseBranch):
                self.locals.add("*")  # a choice among branches: a player decides

    def touch(self, e) -> bool:
        """Can the block change anything e reads (a named condition's body included)?"""
        if "*" in self.locals:
            return True
        reads = graphs.with_calls(self.spec, graphs.touches_of(e)).reads
        zones = {n for k, n in reads if k == "zone"}
        if zones & (self.moves_to | self.moves_from) or (zones and self.anywhere):
            return True
        held = any(isinstance(x, ir.Local) and x.type == "zone" for x in ir.walk(e))
        if held and (self.moves_to or self.moves_from):  # a zone a local holds: any moved
            return True
        if {n for k, n in reads if k == "counter"} & self.counters:
            return True
        if {n for k, n in reads if k == "memory"} & self.memories:
            return True
        return any(isinstance(x, ir.Local) and x.name in self.locals for x in ir.walk(e))


def _stuck(spec, w: _Writes, e, negated: bool, depth: int):
    """Once `e` (`not e` when negated) holds, can the block never make it false? The
    part that holds it (a side of an `or`) when that is certain; None when the block
    may make it false, or when that is not known."""
    if depth > 8:
        return None
    if not w.touch(e):
        return e  # nothing it reads changes
    if isinstance(e, ir.Unary) and e.op == "not":
        return e if _stuck(spec, w, e.operand, not negated, depth + 1) is not None else None
    if isinstance(e, ir.Binary) and e.op in ("and", "or"):
        # `a or b` holds on while either side is stuck holding; `a and b` while both are
        either = (e.op == "or") != negated
        sides = [_stuck(spec, w, x, negated, depth + 1) for x in (e.left, e.right)]
        if either:
            return next((x for x in sides if x is not None), None)
        return e if None not in sides else None
    if not isinstance(e, ir.Binary) or e.op not in _NEGATED:
        return None
    test = e
    calls = (ir.Call, ir.Aggregate)
    if isinstance(e.right, calls) and not isinstance(e.left, calls):
        test = ir.Binary(e.span, e.type, _MIRROR[e.op], e.right, e.left)
    op = _NEGATED[test.op] if negated else test.op
    counted = _counted(test.left)
    if counted is None or w.touch(test.right) or w.anywhere:
        return None
    zones = graphs.zones_in(counted)
    if w.touch(counted) and zones & w.moves_from and zones & w.moves_to:
        return None  # it may move either way
    grows = not zones & w.moves_from  # the count can only rise (or stay)
    shrinks = not zones & w.moves_to
    # once `count > k` holds, a count that only rises keeps it; `count < k`, one that only falls
    held = (op in (">", ">=") and grows) or (op in ("<", "<=") and shrinks)
    return e if held else None


def _counted(e):
    """The cards a count of cards counts: size(cards), count(cards, kind), or a count
    over them; else None."""
    if isinstance(e, ir.Call) and e.func in ("size", "count"):
        return e.args[0]
    if isinstance(e, ir.Aggregate) and e.func == "count" and e.over_cards:
        return e.items
    return None


def check_write_only(an: Analysis):
    """RL116: a counter that rules change and nothing reads: no condition, effect,
    evaluation, turn order or other counter's initial value uses its value."""
    read = read_anywhere(an)
    changed = {c for _cond, eff in an.touches.values() for c in eff.changes}
    for c in an.spec.counters:
        if c.name in changed and ("counter", c.name) not in read:
            yield Finding(
                "RL116",
                "warning",
                f"counter '{c.name}' is changed, but nothing reads it: no condition, "
                "effect or evaluation uses its value",
                c.span,
                hint="compare it where the rules say so (an end condition, a threshold), "
                "or remove it and the statements that change it",
            )


def read_anywhere(an: Analysis) -> set[tuple[str, str]]:
    """Everything some condition, effect, definition, evaluation, turn order or initial
    value reads, as (kind, name): what RL116 (and RL117, in deadends.py) judge writes against."""
    read = set(an.outside.reads)
    for cond, eff in an.touches.values():
        read |= cond.reads | eff.reads
    for _nid, part in graphs.definitions(an.spec):
        read |= graphs.touches_of(
            part.when if isinstance(part, ir.Condition) else part.effect
        ).reads
    return read


CHECKS = (check_loops, check_again, check_write_only)
