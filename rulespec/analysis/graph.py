"""A validated spec as a typed networkx multigraph.

Nodes are the spec's parts (setup, steps, actions, reactions, end conditions,
triggers, cards, zones, counters, parameters, goals), each with its kind and source
span; edges say how they touch: control flow (`next`, `offers`), `enables` (a card
plays an action), `moves_from` / `moves_to` (an effect moves cards between zones),
`changes` (an effect changes a counter), `opens` (an action opens a reaction's
window), `reads` (a condition or effect reads a zone, counter, parameter or goal) and
`feeds` (one trigger's effect changes what another's condition reads).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import networkx as nx

from ..lang import ir
from ..lang.ir import walk_statements


@dataclass
class Touches:
    """What a piece of IR reads and writes."""

    reads: set[tuple[str, str]] = field(default_factory=set)      # (kind, name)
    moves_from: set[str] = field(default_factory=set)
    moves_to: set[str] = field(default_factory=set)
    changes: dict[str, set[str]] = field(default_factory=dict)     # counter -> ops (+= -= =)
    procs: set[str] = field(default_factory=set)
    kinds_moved: set[str] = field(default_factory=set)             # kinds named in a move
    shuffles: set[str] = field(default_factory=set)                # reordered, not moved

    def merge(self, other: "Touches") -> "Touches":
        self.reads |= other.reads
        self.moves_from |= other.moves_from
        self.moves_to |= other.moves_to
        for k, v in other.changes.items():
            self.changes.setdefault(k, set()).update(v)
        self.procs |= other.procs
        self.kinds_moved |= other.kinds_moved
        self.shuffles |= other.shuffles
        return self


def expr_touches(e: ir.Expr | None, t: Touches | None = None) -> Touches:
    t = t if t is not None else Touches()
    if e is None:
        return t
    if isinstance(e, ir.ZoneRef):
        t.reads.add(("zone", e.name))
        expr_touches(e.owner, t)
    elif isinstance(e, ir.Counter):
        t.reads.add(("counter", e.name))
        expr_touches(e.owner, t)
    elif isinstance(e, ir.Param):
        t.reads.add(("param", e.name))
    elif isinstance(e, ir.Kind):
        t.reads.add(("kind", e.name))
    elif isinstance(e, ir.Const) and e.type == "goal":
        t.reads.add(("goal", e.value))
    elif isinstance(e, ir.Call):
        for a in e.args:
            expr_touches(a, t)
    elif isinstance(e, ir.Aggregate):
        expr_touches(e.body, t)
        expr_touches(e.items, t)
    elif isinstance(e, ir.Unary):
        expr_touches(e.operand, t)
    elif isinstance(e, ir.Binary):
        expr_touches(e.left, t)
        expr_touches(e.right, t)
    return t


def zones_in(e: ir.Expr | None) -> set[str]:
    return {name for kind, name in expr_touches(e).reads if kind == "zone"}


def block_touches(stmts, t: Touches | None = None) -> Touches:
    t = t if t is not None else Touches()
    for s in walk_statements(stmts):
        if isinstance(s, (ir.Let,)):
            expr_touches(s.value, t)
        elif isinstance(s, ir.Assign):
            expr_touches(s.value, t)
            if isinstance(s.target, ir.Counter):
                t.changes.setdefault(s.target.name, set()).add(s.op)
                expr_touches(s.target.owner, t)
        elif isinstance(s, (ir.If, ir.While)):
            expr_touches(s.cond, t)
        elif isinstance(s, ir.For):
            expr_touches(s.items, t)
        elif isinstance(s, ir.ChooseBranch):
            expr_touches(s.player, t)
            for b in s.branches:
                expr_touches(b.cond, t)
        elif isinstance(s, ir.ChooseCard):
            expr_touches(s.source, t)
        elif isinstance(s, ir.Do):
            t.procs.add(s.proc)
            for a in s.args:
                expr_touches(a, t)
            if s.proc == "move":
                source, dest = s.args
                t.moves_from |= zones_in(source) or {"*"}  # a played card: anywhere
                t.moves_to |= zones_in(dest)
                t.kinds_moved |= {n for k, n in expr_touches(source).reads if k == "kind"}
            elif s.proc == "shuffle":
                t.shuffles |= zones_in(s.args[0])
    return t


def rules_of(spec: ir.Spec):
    """(node id, kind, IR) for every rule: the parts that run."""
    yield "setup", "setup", None
    for s in spec.turn:
        yield f"step:{s.name}", "step", s
    for a in spec.actions:
        yield f"action:{a.name}", "action", a
    for r in spec.reactions:
        yield f"reaction:{r.name}", "reaction", r
    for t in spec.end_conditions:
        yield f"end:{t.name}", "end", t
    for t in spec.triggers:
        yield f"trigger:{t.name}", "trigger", t


def rule_touches(spec: ir.Spec, kind: str, node) -> tuple[Touches, Touches]:
    """(condition touches, effect touches) of one rule. A draw from a zone with
    refill_from may also move the refill zone's cards into it (TTG-15)."""
    cond, eff = _rule_touches(spec, kind, node)
    refills = {z.name: z.refill_from for z in spec.zones if z.refill_from}
    for zone in list(eff.moves_from):
        if zone in refills:
            eff.moves_from.add(refills[zone])
            eff.moves_to.add(zone)
    return cond, eff


def _rule_touches(spec: ir.Spec, kind: str, node) -> tuple[Touches, Touches]:
    if kind == "setup":
        return Touches(), block_touches(spec.setup)
    if kind == "step":
        return Touches(), block_touches(node.effect)
    if kind == "action":
        cond = expr_touches(node.condition)
        expr_touches(node.among, cond)
        eff = block_touches(node.effect)
        if node.to is not None:
            eff.moves_to |= zones_in(node.to)
            eff.moves_from.add(spec.hand)
        return cond, eff
    if kind == "reaction":
        eff = block_touches(node.effect)
        eff.moves_to |= zones_in(node.to)
        eff.moves_from.add(spec.hand)
        return expr_touches(node.condition), eff
    return expr_touches(node.when), block_touches(node.effect)


def build(spec: ir.Spec) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph(name=spec.name)

    def node(nid, kind, span, **attrs):
        g.add_node(nid, kind=kind, span=str(span), label=nid.split(":", 1)[-1], **attrs)

    node("setup", "setup", spec.span)
    for c in spec.cards:
        node(f"card:{c.name}", "card", c.span, count=c.count)
    for z in spec.zones:
        node(f"zone:{z.name}", "zone", z.span)
    for c in spec.counters:
        node(f"counter:{c.name}", "counter", c.span)
    for p in spec.params:
        node(f"param:{p.name}", "param", p.span)
    for goal in spec.goals:
        node(f"goal:{goal.name}", "goal", goal.span)
        g.add_edge(f"goal:{goal.name}", f"zone:{goal.zone}", key="reads")
    for nid, kind, part in rules_of(spec):
        if part is not None:
            node(nid, kind, part.span)

    steps = [f"step:{s.name}" for s in spec.turn]
    for a, b in zip(["setup"] + steps, steps + steps[:1]):
        g.add_edge(a, b, key="next")
    kinds = kind_members(spec)
    for s in spec.turn:
        for a in s.actions:
            g.add_edge(f"step:{s.name}", f"action:{a}", key="offers")
    for a in spec.actions:
        for card in kinds.get(a.card, ()) if a.card else ():
            g.add_edge(f"card:{card}", f"action:{a.name}", key="enables")
    opens = {a.name for a in spec.actions
             if any(isinstance(s, ir.Do) and s.proc == "react" for s in walk_statements(a.effect))}
    for r in spec.reactions:
        for card in kinds.get(r.card, ()):
            g.add_edge(f"card:{card}", f"reaction:{r.name}", key="enables")
        for a in r.answers:
            if a in opens:
                g.add_edge(f"action:{a}", f"reaction:{r.name}", key="opens")

    touches = {}
    for nid, kind, part in rules_of(spec):
        cond, eff = rule_touches(spec, kind, part)
        touches[nid] = (cond, eff)
        for src in eff.moves_from - {"*"}:
            g.add_edge(f"zone:{src}", nid, key="moves_from")
        for dst in eff.moves_to:
            g.add_edge(nid, f"zone:{dst}", key="moves_to")
        for counter in eff.changes:
            g.add_edge(nid, f"counter:{counter}", key="changes")
        for what, name in cond.reads | eff.reads:
            if what in ("zone", "counter", "param", "goal"):
                g.add_edge(nid, f"{what}:{name}", key="reads")
    autos = [nid for nid, kind, _ in rules_of(spec) if kind in ("trigger", "end")]
    for a in autos:
        written = {("zone", z) for z in touches[a][1].moves_to | touches[a][1].moves_from} | \
                  {("counter", c) for c in touches[a][1].changes}
        for b in autos:
            read = touches[b][0].reads
            goal_zones = {("zone", gd.zone) for gd in spec.goals if ("goal", gd.name) in read}
            if written & (read | goal_zones):
                g.add_edge(a, b, key="feeds")
    g.graph["touches"] = touches
    return g


def kind_members(spec: ir.Spec) -> dict[str, list[str]]:
    members = {c.name: [c.name] for c in spec.cards}
    for tag in spec.tags:
        members[tag] = [c.name for c in spec.cards if tag in c.tags]
    members["any"] = [c.name for c in spec.cards]
    return members


# --- export ------------------------------------------------------------------------

_SHAPES = {"setup": "doublecircle", "step": "box", "action": "ellipse", "reaction": "octagon",
           "end": "doubleoctagon", "trigger": "hexagon", "card": "note", "zone": "folder",
           "counter": "cylinder", "param": "plaintext", "goal": "star"}


def to_dot(g: nx.MultiDiGraph) -> str:
    def q(s):
        return '"' + str(s).replace('"', '\\"') + '"'
    lines = [f"digraph {q(g.graph.get('name', 'spec'))} {{", "  rankdir=LR;"]
    for nid, data in g.nodes(data=True):
        lines.append(f"  {q(nid)} [label={q(data['label'])}, shape={_SHAPES[data['kind']]}, "
                     f"tooltip={q(data['kind'] + ' at ' + data['span'])}];")
    for a, b, key in g.edges(keys=True):
        style = "bold" if key in ("next", "offers") else "dashed" if key == "reads" else "solid"
        lines.append(f"  {q(a)} -> {q(b)} [label={q(key)}, style={style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_mermaid(g: nx.MultiDiGraph) -> str:
    ids = {nid: f"n{i}" for i, nid in enumerate(g.nodes)}
    lines = ["flowchart LR"]
    for nid, data in g.nodes(data=True):
        lines.append(f'  {ids[nid]}["{data["kind"]}: {data["label"]}"]')
    for a, b, key in g.edges(keys=True):
        arrow = "-.->" if key == "reads" else "-->"
        lines.append(f"  {ids[a]} {arrow}|{key}| {ids[b]}")
    return "\n".join(lines) + "\n"


def to_json(g: nx.MultiDiGraph) -> str:
    data = {"name": g.graph.get("name"),
            "nodes": [{"id": n, **d} for n, d in g.nodes(data=True)],
            "edges": [{"source": a, "target": b, "kind": k} for a, b, k in g.edges(keys=True)]}
    return json.dumps(data, indent=1) + "\n"
