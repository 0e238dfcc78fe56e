"""Smaller rules graphs a person can read: one part and its neighbourhood (focus), some
kinds of node only (keep_kinds), and what a variant changed against its base (changes).

Each view is a new graph holding a subset of the nodes of the one it is cut from, with
every edge between them and nothing else: a path through a node left out is not
collapsed into an edge. Collapsing a zone would join every rule that moves cards into
it to every rule that reads it, the tangle a view is for removing; and what a procedure
or condition touches already counts at each rule that calls it (graph.py). Nodes and
edges keep the order of the full graph, so a view's export is as stable as the graph's.
A view marks nodes with `mark`: `focus`, `added`, `changed` or `removed` (the exports
colour them).
"""

from __future__ import annotations

import networkx as nx

from ..lang import ir
from ..lang.diagnostics import did_you_mean
from .diff import canon
from .graph import SETUP, STARTER, NodeId, build, definitions, rules_of

RULES = (
    "setup",
    "step",
    "action",
    "reaction",
    "end",
    "trigger",
    "round",
    "round_end",
    "match_end",
    "turn_order",
)
# what --kind names -> the node kinds it keeps
KIND_GROUPS = {
    "rules": RULES,
    "definitions": ("procedure", "condition"),
    "cards": ("card",),
    "zones": ("zone",),
    "counters": ("counter",),
    "memories": ("memory",),
    "params": ("param",),
    "goals": ("goal",),
}


class ViewError(ValueError):
    """A view asked of a part the graph lacks: the message says which, and what is near."""


def induced(g: nx.MultiDiGraph, keep) -> nx.MultiDiGraph:
    """The nodes of g in keep and every edge of g between two of them, in g's order."""
    keep = set(keep)
    view = nx.MultiDiGraph(**g.graph)
    view.add_nodes_from((n, dict(d)) for n, d in g.nodes(data=True) if n in keep)
    view.add_edges_from(
        (a, b, k, dict(d)) for a, b, k, d in g.edges(keys=True, data=True) if {a, b} <= keep
    )
    return view


def kind_groups(text: str) -> tuple[str, ...]:
    """The node kinds a --kind value (groups, comma-separated) keeps."""
    kinds: list[str] = []
    for group in filter(None, (t.strip() for t in text.split(","))):
        if group not in KIND_GROUPS:
            raise ViewError(
                f"unknown kind '{group}' (one of {', '.join(KIND_GROUPS)})"
                + _hint(group, KIND_GROUPS)
            )
        kinds += KIND_GROUPS[group]
    if not kinds:
        raise ViewError(f"no kind given (one or more of {', '.join(KIND_GROUPS)})")
    return tuple(kinds)


def keep_kinds(g: nx.MultiDiGraph, kinds) -> nx.MultiDiGraph:
    """The nodes of these kinds and the edges between them."""
    return induced(g, (n for n, kind in g.nodes(data="kind") if kind in kinds))


def find(g: nx.MultiDiGraph, name: str) -> NodeId:
    """The node a name stands for: its id (`action:steal`), or a name only one node has,
    or a rule's when other parts share it (an end condition and the counter it tests)."""
    if name in g:
        return next(n for n in g if n == name)
    named = [n for n in g if n.name == name]
    if len(named) > 1:
        named = [n for n in named if n.kind in RULES] or named
    if len(named) == 1:
        return named[0]
    if named:
        raise ViewError(f"'{name}' names {', '.join(named)}: write one of them")
    raise ViewError(
        f"no part named '{name}' in the graph of {g.graph.get('name', 'the spec')}"
        + _hint(name, [n.name for n in g] + list(g))
    )


def focus(g: nx.MultiDiGraph, name: str, depth: int, whole=None) -> nx.MultiDiGraph:
    """The part `name` and every node at most `depth` edges away, whichever their
    direction (what a rule touches and what touches it). `whole`: the graph g was cut
    from by kind, where a name g lacks may be found, to say so."""
    try:
        centre = find(g, name)
    except ViewError:
        if whole is None or whole is g:
            raise
        raise ViewError(
            f"'{name}' is {find(whole, name)}, of a kind this view leaves out"
        ) from None
    near = nx.single_source_shortest_path_length(g.to_undirected(as_view=True), centre, depth)
    view = induced(g, near)
    view.nodes[centre]["mark"] = "focus"
    return view


def parts(spec: ir.Spec) -> dict:
    """Node id -> the IR it stands for, for comparing a spec's parts by meaning."""
    out = {SETUP: spec.setup, NodeId("turn_order"): spec.turn_order}
    out[STARTER] = spec.rounds and spec.rounds.starter
    for kind, defs in (
        ("card", spec.cards),
        ("zone", spec.zones),
        ("counter", spec.counters),
        ("param", spec.params),
        ("memory", spec.memories),
        ("goal", spec.goals),
    ):
        out |= {NodeId(kind, d.name): d for d in defs}
    out |= {nid: part for nid, part in rules_of(spec) if part is not None}
    out |= dict(definitions(spec))
    return out


def changes(base: ir.Spec, new: ir.Spec) -> nx.MultiDiGraph:
    """The graph of `new` cut down to what differs from `base` and what that touches:
    the parts added, changed (compared by meaning, not place) or removed (as they were
    in `base`), their neighbours, and the edges added or removed (a step moved in the
    turn, a rule that calls a changed procedure) with their ends."""
    g, old = build(new), build(base)
    was, now = parts(base), parts(new)
    marks = {n: "added" for n in g if n not in old}
    marks |= {n: "changed" for n in g if n in old and canon(now.get(n)) != canon(was.get(n))}
    marks |= {n: "removed" for n in old if n not in g}
    edges, old_edges = set(g.edges(keys=True)), set(old.edges(keys=True))
    shown = set(marks)
    for n in marks:
        if n in g:
            shown |= set(nx.all_neighbors(g, n))
    for a, b, _ in edges ^ old_edges:
        shown |= {a, b}
    view = induced(g, shown)
    view.add_nodes_from((n, d) for n, d in old.nodes(data=True) if marks.get(n) == "removed")
    for a, b, k in old.edges(keys=True):
        if (a, b, k) not in edges and {a, b} <= shown:
            view.add_edge(a, b, key=k, mark="removed")
    for a, b, k in view.edges(keys=True):
        if (a, b, k) not in old_edges:
            view.edges[a, b, k]["mark"] = "added"
    for n, mark in marks.items():
        view.nodes[n]["mark"] = mark
    return view


def _hint(name: str, known) -> str:
    hint = did_you_mean(name, known)
    return f" ({hint})" if hint else ""
