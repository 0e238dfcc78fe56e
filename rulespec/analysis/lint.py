"""`rulespec lint`, layer 1: static checks on the IR and its graph (milliseconds).

Each check is a small generator yielding Findings; `lint` runs them all, drops what the
spec silences (`# rulespec: ignore[RL101]` on the finding's line) and sorts by place.
Layers 2 (bounded exploration) and 3 (simulation coverage) are in explore.py and
coverage.py; every finding says which layer found it.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import networkx as nx

from . import graph as graphs
from ..lang import ir
from ..lang.diagnostics import Span

@dataclass(frozen=True)
class Finding:
    code: str
    severity: str
    message: str
    span: Span
    layer: int = 1
    hint: str = ""
    trace: tuple[str, ...] = ()   # a choice sequence that reaches it (layer 2)
    rules: tuple[str, ...] = ()   # the rules it is about, for later layers to confirm

    def as_dict(self) -> dict:
        return {"code": self.code, "severity": self.severity, "message": self.message,
                "file": self.span.file, "line": self.span.line, "col": self.span.col,
                "layer": self.layer, "hint": self.hint, "trace": list(self.trace),
                "rules": list(self.rules)}


INF = math.inf


class Analysis:
    """What the checks share: the spec, its graph, supplies and bounds."""

    def __init__(self, spec: ir.Spec, players: int | None = None, graph=None):
        """Bounds for one player count's deck, or (players=None) the most any holds."""
        self.spec, self.players = spec, players
        self.pinned: dict[str, tuple] = {}  # counters held at one value while judging
        self.g = graph if graph is not None else graphs.build(spec)
        self.touches = self.g.graph["touches"]
        each = [players] if players else range(spec.min_players, spec.max_players + 1)
        counts = [dict(spec.deck_for(n)) for n in each]
        members = graphs.kind_members(spec)
        # the most cards of a kind any player count's deck holds
        self.supply = {k: max(sum(c[m] for m in ms) for c in counts) for k, ms in members.items()}
        self.deck_size = max(sum(c.values()) for c in counts)
        # the values a parameter takes over the player counts judged
        self.params = {p.name: [p.value_for(n) for n in each] for p in spec.params}
        self.sinks = self._sinks()
        # None while they are worked out: a counter's bound is not derived from another's
        self.counter_bounds: dict[str, tuple[float, float]] | None = None
        self.counter_bounds = {c.name: self._counter_bound(c) for c in spec.counters}
        self.counter_initial = {c.name: self.interval(c.initial) for c in spec.counters}

    def _sinks(self) -> set[str]:
        """Zones no card ever leaves."""
        spec, out = self.spec, set()
        sources = set()
        for _, (cond, eff) in self.touches.items():
            sources |= eff.moves_from
        tos = {n for a in spec.actions for n in graphs.zones_in(a.to)} | \
              {n for r in spec.reactions for n in graphs.zones_in(r.to)}
        for a in spec.actions:
            sources |= graphs.zones_in(a.among)
        for s in ir.walk_statements(_effects(spec)):
            if isinstance(s, ir.ChooseCard):
                sources |= graphs.zones_in(s.source)
        sources |= {z.refill_from for z in spec.zones if z.refill_from}
        for z in spec.zones:
            if z.name not in sources and z.name not in tos and not z.start:
                out.add(z.name)
        return out

    def _counter_bound(self, c: ir.CounterDef) -> tuple[float, float]:
        """An interval the counter stays in, from its initial value and every change."""
        init = self.interval(c.initial) or (-INF, INF)
        lo, hi = init
        counted = 0  # increments by one that each set a played card aside for good
        for a in self.spec.actions:
            counted_here = self._sink_increments(a.effect, c.name)
            if counted_here is None:
                return (-INF, INF)
            if counted_here and a.card:
                counted += self.supply.get(a.card, INF)
        others = [r.effect for kind, r in self.spec.rules() if kind != "action"]
        others += [p.effect for p in self.spec.procedures]  # called from anywhere, actions too
        for s in ir.walk_statements((self.spec.setup, *others)):
            if isinstance(s, ir.Assign) and isinstance(s.target, ir.Counter) and s.target.name == c.name:
                v = self.interval(s.value)
                if s.op != "=" or v is None:
                    return (-INF, INF)
                lo, hi = min(lo, v[0]), max(hi, v[1])
        return (lo, hi + counted)

    def _sink_increments(self, stmts, counter, moved_aside=False) -> int | None:
        """How many `counter += 1` an action makes, each beside a move of the played card
        into a zone it never leaves; None when some change of it is not of that form."""
        aside = moved_aside or any(
            isinstance(s, ir.Do) and s.proc == "move" and isinstance(s.args[0], ir.Local)
            and s.args[0].name == "card" and graphs.zones_in(s.args[1]) <= self.sinks
            and graphs.zones_in(s.args[1]) for s in stmts)
        total = 0
        for s in stmts:
            if isinstance(s, ir.Assign) and isinstance(s.target, ir.Counter) and s.target.name == counter:
                if not (aside and s.op == "+=" and isinstance(s.value, ir.Const) and s.value.value == 1):
                    return None
                total = 1
            for inner in ir.iter_blocks(s):
                n = self._sink_increments(inner, counter, aside)
                if n is None:
                    return None
                total = max(total, n)
        return total

    # --- intervals --------------------------------------------------------------

    def interval(self, e) -> tuple[float, float] | None:
        """Bounds of an int expression, or None when nothing useful is known."""
        if isinstance(e, ir.Const) and e.type == "int":
            return (e.value, e.value)
        if isinstance(e, ir.Param) and e.type == "int":
            vs = self.params[e.name]
            return (min(vs), max(vs))
        if isinstance(e, ir.Counter):
            if e.name in self.pinned:
                return self.pinned[e.name]
            return None if self.counter_bounds is None else self.counter_bounds.get(e.name, (-INF, INF))
        if isinstance(e, ir.Local) and e.name == "player_count":
            return (self.spec.min_players, self.spec.max_players)
        if isinstance(e, ir.Call):
            if e.func == "count" and isinstance(e.args[1], ir.Kind):
                return (0, self.supply.get(e.args[1].name, self.deck_size))
            if e.func == "count":
                return (0, self.deck_size)
            if e.func == "size":
                return (0, self.spec.max_players if e.args[0].type in ("players", "player") else self.deck_size)
            if e.func == "goal_score":
                goal = next(g for g in self.spec.goals if g.name == e.args[0].value)
                return (0, sum(lim for _, lim in goal.order))
            if e.func in ("min", "max"):
                a, b = self.interval(e.args[0]), self.interval(e.args[1])
                if a and b:
                    f = min if e.func == "min" else max
                    return (f(a[0], b[0]), f(a[1], b[1]))
            if e.func == "prop" and e.type == "int":  # a card without it, or none, gives 0
                return _hull((0, 0), *((v, v) for c in self.spec.cards for k, v in c.props
                                       if k == e.args[1].value))
        if isinstance(e, ir.Aggregate) and e.func == "count":
            return (0, self.deck_size if e.over_cards else self.spec.max_players)
        if isinstance(e, ir.Aggregate) and e.func in ("max", "min"):  # no items give 0
            return _hull((0, 0), self.interval(e.body))
        if isinstance(e, ir.IfExpr):
            return _hull(self.interval(e.then), self.interval(e.orelse))
        if isinstance(e, ir.Binary) and e.type == "int":
            a, b = self.interval(e.left), self.interval(e.right)
            if a and b and e.op == "+":
                return (a[0] + b[0], a[1] + b[1])
            if a and b and e.op == "-":
                return (a[0] - b[1], a[1] - b[0])
            if a and b and e.op == "*" and min(a[0], b[0]) >= 0:
                return (a[0] * b[0], a[1] * b[1])
        if isinstance(e, ir.Unary) and e.op == "-":
            a = self.interval(e.operand)
            return (-a[1], -a[0]) if a else None
        return None

    def truth(self, e) -> bool | None:
        """True or False when a condition's value is fixed by the bounds, else None."""
        if isinstance(e, ir.Const) and e.type == "bool":
            return e.value
        if isinstance(e, ir.Call) and e.func == "goal_done":
            goal = next(g for g in self.spec.goals if g.name == e.args[0].value)
            if any(limit > self.supply.get(kind, 0) for kind, limit in goal.order):
                return False  # some limit is above what the deck holds
        if isinstance(e, ir.Unary) and e.op == "not":
            t = self.truth(e.operand)
            return None if t is None else not t
        if isinstance(e, ir.IfExpr):
            t, a, b = self.truth(e.cond), self.truth(e.then), self.truth(e.orelse)
            return a if t is True or a is b else b if t is False else None
        if isinstance(e, ir.Binary) and e.op in ("and", "or"):
            a, b = self.truth(e.left), self.truth(e.right)
            if e.op == "and":
                return False if False in (a, b) else True if a is b is True else None
            return True if True in (a, b) else False if a is b is False else None
        if isinstance(e, ir.Binary) and e.op in ("<", "<=", ">", ">=", "==", "!=") and e.left.type == "int":
            a, b = self.interval(e.left), self.interval(e.right)
            if not a or not b:
                return None
            (al, ah), (bl, bh) = a, b
            always, never = {
                "<": (ah < bl, al >= bh), "<=": (ah <= bl, al > bh),
                ">": (al > bh, ah <= bl), ">=": (al >= bh, ah < bl),
                "==": (al == ah == bl == bh, ah < bl or al > bh),
                "!=": (ah < bl or al > bh, al == ah == bl == bh)}[e.op]
            return True if always else False if never else None
        return None


def _effects(spec: ir.Spec) -> tuple:
    """Every block of statements the spec runs: the setup's, the rules', the procedures'."""
    return (spec.setup, *(rule.effect for _, rule in spec.rules()), *(p.effect for p in spec.procedures))


def _outside_rules(spec: ir.Spec) -> graphs.Touches:
    """What the evaluation, the turn order and the counters' initial values read and call."""
    t = graphs.touches_of(spec.evaluation)
    graphs.touches_of(spec.turn_order, t)
    for c in spec.counters:
        graphs.touches_of(c.initial, t)
    return graphs.with_calls(spec, t)


# --- the checks ---------------------------------------------------------------------

def check_unused(an: Analysis):
    """RL101: parameters, zones, counters and goals that nothing refers to."""
    g, spec = an.g, an.spec
    initial_reads = set(_outside_rules(spec).reads)  # the evaluation's too
    initial_reads |= {("zone", g.zone) for g in spec.goals if ("goal", g.name) in initial_reads}
    for kind, items in (("param", spec.params), ("zone", spec.zones),
                        ("counter", spec.counters), ("goal", spec.goals)):
        for item in items:
            nid = graphs.NodeId(kind, item.name)
            used = g.in_degree(nid) > 0 or g.out_degree(nid) > 0 and kind == "zone" or \
                (kind, item.name) in initial_reads or (kind == "zone" and item.name == spec.hand)
            if not used:
                yield Finding("RL101", "warning", f"{kind} '{item.name}' is never used", item.span,
                              hint="remove it, or refer to it in a rule")
    read_kinds = {n for k, n in _outside_rules(spec).reads if k == "kind"}
    for cond, eff in an.touches.values():
        read_kinds |= {n for k, n in cond.reads | eff.reads if k == "kind"}
    read_kinds |= {v for c in spec.cards for _, v in c.props if isinstance(v, str)}  # kind props
    played = {a.card for a in spec.actions} | {r.card for r in spec.reactions if r.card}
    goal_kinds = {k for goal in spec.goals for k, _ in goal.order}
    for tag in spec.tags:
        if tag not in read_kinds | played | goal_kinds:
            card = next(c for c in spec.cards if tag in c.tags)
            yield Finding("RL101", "warning", f"tag '{tag}' is never used", card.span,
                          hint="remove the tag, or use it in a rule")
    for c in spec.cards:
        covering = {c.name} | set(c.tags) | {"any"}
        if not covering & (read_kinds | played | goal_kinds):
            yield Finding("RL103", "warning", f"card '{c.name}' is never played and no rule "
                          "refers to it", c.span, hint="a card that does nothing only dilutes the deck")


def check_uncalled(an: Analysis):
    """RL109: procedures and conditions that nothing calls, not even through others
    (one that only calls itself is not called)."""
    spec = an.spec
    calls = nx.DiGraph((a, b) for a, b, k in an.g.edges(keys=True) if k == "calls")
    roots = [nid for nid, _ in graphs.rules_of(spec)] + \
        [graphs.NodeId(*c) for c in _outside_rules(spec).calls]
    called = {nid for nid in roots if nid.kind in ("procedure", "condition")}
    for root in roots:
        if root in calls:
            called |= nx.descendants(calls, root)
    for nid, part in graphs.definitions(spec):
        if nid not in called:
            yield Finding("RL109", "warning", f"{nid.kind} '{nid.name}' is never called",
                          part.span, hint="call it from a rule, or remove it")


def check_unreachable(an: Analysis):
    """RL102: actions no step offers; RL104: reactions no action opens a window for."""
    g, spec = an.g, an.spec
    for a in spec.actions:
        nid = graphs.NodeId("action", a.name)
        if g.in_degree(nid) == 0 or not any(k == "offers" for _, _, k in g.in_edges(nid, keys=True)):
            yield Finding("RL102", "warning", f"action '{a.name}' is never offered: no turn step "
                          "lists it", a.span, hint="add it to a step's actions, or remove it")
    answered = _answerable(g, spec)
    for r in spec.reactions:
        nid = graphs.NodeId("reaction", r.name)
        if nid in answered:
            continue
        if any(k == "opens" for _, _, k in g.in_edges(nid, keys=True)):  # a chain no action starts
            yield Finding("RL104", "warning", f"reaction '{r.name}' can never answer: no action's "
                          f"window leads to {', '.join(r.answers)}", r.span,
                          hint="call react(...) in an action it answers, or in an answer an action's window offers")
        else:
            yield Finding("RL104", "warning", f"reaction '{r.name}' can never answer: none of "
                          f"{', '.join(r.answers)} calls react()", r.span,
                          hint="call react(target) in the action's effect")


def _answerable(g, spec) -> set:
    """The reactions a window can reach: those an action opens one for, and the answers
    to those (a chain), however long."""
    todo = [graphs.NodeId("action", a.name) for a in spec.actions]
    seen = set()
    while todo:
        for _, r, k in g.out_edges(todo.pop(), keys=True):
            if k == "opens" and r not in seen:
                seen.add(r)
                todo.append(r)
    return seen


def check_start_zone(an: Analysis):
    """RL103: cards that can never leave the zone they start in."""
    start = next(z for z in an.spec.zones if z.start)
    if start.name in an.sinks or not any(start.name in eff.moves_from for _, eff in an.touches.values()):
        yield Finding("RL103", "error", f"no rule moves cards out of '{start.name}', where "
                      "the deck starts: no card can ever be drawn or played", start.span)


def check_conditions(an: Analysis):
    """RL105: conditions (or parts) the deck and limits make impossible; RL108: ones
    that always hold. Judged for each player count's deck."""
    spec = an.spec
    counts = list(range(spec.min_players, spec.max_players + 1))
    per_count = [Analysis(spec, n, an.g) for n in counts]
    for nid, part in (*graphs.rules_of(spec), *graphs.definitions(spec)):
        kind, name = nid.kind, nid.name
        conds = []
        if kind in graphs.CONDITIONAL or kind == "condition":
            conds.append(part.when)
        elif kind in ("action", "reaction") and part.condition is not None:
            conds.append(part.condition)
        for s in ir.walk_statements(_body(spec, part)):
            if isinstance(s, (ir.If, ir.While)):
                conds.append(s.cond)
        for cond in conds:
            yield from _while_initial(an, kind, name, cond)
            verdicts: dict = {}   # node -> [verdict per player count]
            for sub in per_count:
                for node, verdict in _verdicts(sub, cond):
                    verdicts.setdefault(id(node), (node, []))[1].append((sub.players, verdict))
            for node, found in verdicts.values():
                never = [n for n, v in found if v is False]
                always = [n for n, v in found if v is True]
                if never:
                    where = "" if len(never) == len(counts) else \
                        f" with {' or '.join(map(str, never))} players"
                    sub = per_count[counts.index(never[0])]
                    yield Finding("RL105", "error", f"{kind} '{name}': this condition can never "
                                  f"hold{where} ({_explain(sub, node)})", node.span,
                                  hint="check the deck, the limits and the thresholds", rules=(name,))
                elif len(always) == len(counts):
                    yield Finding("RL108", "warning", f"{kind} '{name}': this condition always "
                                  f"holds ({_explain(an, node)})", node.span, rules=(name,))


def _body(spec: ir.Spec, part) -> tuple:
    """The statements of a rule, procedure or condition (None: the setup)."""
    if part is None:
        return spec.setup
    return () if isinstance(part, ir.Condition) else part.effect


def _while_initial(an: Analysis, kind, name, cond):
    """A condition that can hold only once some counter that rules set has left its
    initial value: e.g. a win at 4 coins when the deck holds 3, reachable only after
    a tie-break lowers the target."""
    if an.truth(cond) is not None:
        return
    set_by_rules = {c for _, eff in an.touches.values() for c, ops in eff.changes.items()
                    if ops == {"="}}
    for what, counter in sorted(graphs.touches_of(cond).reads):
        initial = an.counter_initial.get(counter) if what == "counter" else None
        if initial is None or counter not in set_by_rules or initial == an.counter_bounds[counter]:
            continue
        an.pinned = {counter: initial}
        try:
            for node, verdict in _verdicts(an, cond):
                if verdict is False:
                    yield Finding("RL105", "error", f"{kind} '{name}': this condition can "
                                  f"never hold while counter '{counter}' has its initial "
                                  f"value ({_explain(an, node)})", node.span,
                                  hint="check the deck, the limits and the thresholds")
        finally:
            an.pinned = {}


def _verdicts(an: Analysis, cond):
    """Every part of a condition whose value is fixed and that matters: the part that
    decides the whole, or a dead part (an always-true conjunct, a never-true disjunct)."""
    t = an.truth(cond)
    if t is not None and not (isinstance(cond, ir.Binary) and cond.op in ("and", "or")):
        yield cond, t
        return
    if isinstance(cond, ir.Binary) and cond.op in ("and", "or"):
        sides = [(side, an.truth(side)) for side in (cond.left, cond.right)]
        if t is not None and all(v is t for _, v in sides) is False:
            # one side decides: name it
            for side, v in sides:
                if v is t:
                    yield from _verdicts(an, side)
                    return
        for side, v in sides:
            yield from _verdicts(an, side)
    elif isinstance(cond, ir.Unary) and cond.op == "not" and t is not None:
        yield cond, t


def _hull(*intervals):
    """The smallest interval holding every one given, or None if one is unknown."""
    if None in intervals:
        return None
    return (min(lo for lo, _ in intervals), max(hi for _, hi in intervals))


def _explain(an: Analysis, node) -> str:
    if isinstance(node, ir.Binary) and node.left.type == "int":
        a, b = an.interval(node.left), an.interval(node.right)
        return f"left side in {_fmt(a)}, right side in {_fmt(b)}"
    return "fixed by the deck and limits"


def _fmt(iv) -> str:
    lo, hi = iv
    return f"[{'-inf' if lo == -INF else int(lo)}, {'inf' if hi == INF else int(hi)}]"


def check_ends(an: Analysis):
    """RL106: no way to end the game but the turn limit."""
    spec = an.spec
    live = []
    for nid, part in graphs.rules_of(spec):
        cond, eff = an.touches[nid]
        if {"win", "end_game"} & eff.procs:
            if nid.kind in graphs.CONDITIONAL and an.truth(part.when) is False:
                continue
            live.append(nid)
    if not live:
        yield Finding("RL106", "error", "no rule can win or end the game: it ends only at the "
                      f"turn limit ({spec.turn_limit})", spec.span,
                      hint="add an end condition whose effect calls win(...) or end_game()")


def check_trigger_cycles(an: Analysis):
    """RL107: triggers that feed each other with nothing making progress."""
    feeds = nx.DiGraph((a, b) for a, b, k in an.g.edges(keys=True) if k == "feeds")
    rules = dict(graphs.rules_of(an.spec))
    for nid, part in rules.items():
        if nid.kind not in ("trigger", "end"):
            continue
        cond, eff = an.touches[nid]
        written = {("zone", z) for z in eff.moves_to | eff.moves_from} | \
                  {("counter", c) for c in eff.changes}
        read = cond.reads | {("zone", g.zone) for g in an.spec.goals if ("goal", g.name) in cond.reads}
        if not ({"win", "end_game", "end_turn", "eliminate"} & eff.procs) and not (written & read):
            yield Finding("RL107", "warning", f"trigger '{part.name}' may fire again and again: "
                          "its effect never changes what its condition reads", part.span,
                          hint="make the effect falsify the condition", rules=(part.name,))
    for scc in nx.strongly_connected_components(feeds):
        if len(scc) == 1 and not feeds.has_edge(next(iter(scc)), next(iter(scc))):
            continue
        if any(_settles(an, nid, rules[nid]) for nid in scc):
            continue
        first = min(scc, key=lambda n: (an.g.nodes[n]["span"]))
        part = rules[first]
        names = tuple(sorted(n.name for n in scc))
        yield Finding("RL107", "warning", "triggers may fire each other forever: "
                      + " -> ".join(names), part.span, rules=names,
                      hint="make each effect falsify its own condition (fill what it finds "
                           "empty, set a flag it tests), or end the game")


def _settles(an: Analysis, nid, part) -> bool:
    """Does this trigger's effect obviously make its own condition false (or end)?"""
    cond, eff = an.touches[nid]
    if {"win", "end_game"} & eff.procs:
        return True
    for test in _conjuncts(part.when):
        if not isinstance(test, ir.Binary):
            continue
        test = _call_on_left(test)
        left = test.left
        if isinstance(left, ir.Call) and left.func in ("size", "count") and test.op in ("==", "<", "<="):
            if graphs.zones_in(left.args[0]) & eff.moves_to:
                return True  # it fills what it finds (nearly) empty
        if isinstance(left, ir.Call) and left.func in ("size", "count") and test.op in (">", ">=", "!="):
            if graphs.zones_in(left.args[0]) & eff.moves_from:
                return True  # it empties what it finds full
        if isinstance(left, ir.Counter) and left.name in eff.changes:
            return True      # it sets the flag or count it tests
    return False


_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _call_on_left(test: ir.Binary) -> ir.Binary:
    """`0 == size(z)` read as `size(z) == 0`."""
    if test.op in _MIRROR and not isinstance(test.left, (ir.Call, ir.Counter)) and \
            isinstance(test.right, (ir.Call, ir.Counter)):
        return ir.Binary(test.span, test.type, _MIRROR[test.op], test.right, test.left)
    return test


def _conjuncts(e):
    if isinstance(e, ir.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


CHECKS = (check_unused, check_uncalled, check_unreachable, check_start_zone, check_conditions, check_ends,
          check_trigger_cycles)

CODES = {
    "RL101": "unused name", "RL102": "action never offered", "RL103": "card never played, or "
    "stuck where it starts", "RL104": "reaction that can never answer", "RL105": "condition "
    "that can never hold", "RL106": "no end but the turn limit", "RL107": "trigger cycle "
    "without progress", "RL108": "condition that always holds", "RL109": "procedure or "
    "condition never called",
    "RL201": "a reachable state where the game stops without an end", "RL202": "a layer-1 "
    "finding confirmed by exploration", "RL203": "not found within the exploration bounds, or "
    "the search stopped at them", "RL301": "a rule that never fired in simulation", "RL302": "simulated games "
    "that hit the turn limit",
}


def static(spec: ir.Spec) -> list[Finding]:
    an = Analysis(spec)
    return [f for check in CHECKS for f in check(an)]


_IGNORE = re.compile(r"rulespec:\s*ignore\[([A-Z0-9, ]+)\]")


def silenced(finding: Finding, lines: list[str]) -> bool:
    """A finding is silenced by `# rulespec: ignore[CODE]` on its line."""
    if 0 < finding.span.line <= len(lines):
        m = _IGNORE.search(lines[finding.span.line - 1])
        return bool(m and finding.code in {c.strip() for c in m.group(1).split(",")})
    return False
