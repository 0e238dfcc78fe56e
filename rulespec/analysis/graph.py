"""A validated spec as a typed networkx multigraph.

Nodes are the spec's parts (setup, steps, actions, reactions, end conditions,
triggers, a round's setup and scoring, round end conditions, match ends, cards, zones,
counters, parameters, goals, procedures, conditions), each with its kind and source
span; edges say how they touch: control flow (`next`, `offers`), `calls` (a rule,
procedure or condition calls a procedure or condition), `enables` (a card
plays an action), `moves_from` / `moves_to` (an effect moves cards between zones),
`changes` (an effect changes a counter), `takes_out` (an effect takes a player out of
the game or the round: a node `players`, who is in, in a game where a rule does),
`opens` (an action opens a reaction's window), `reads` (a condition or effect reads a
zone, counter, parameter, goal, or who is in) and `feeds` (one trigger's effect changes
what another's condition reads). What a procedure
or condition touches counts where it is called: the calling rule gets those edges.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import networkx as nx

from ..lang import ir


class NodeId(str):
    """A node's id: its kind and name, held apart so that nothing parses them out of
    text, and its text ("action:steal"; "setup" alone), which is how the exports show
    a node and callers look one up -- it hashes, compares and prints as the text."""

    __slots__ = ("kind", "name")

    def __new__(cls, kind: str, name: str | None = None):
        nid = super().__new__(cls, kind if name is None else f"{kind}:{name}")
        nid.kind, nid.name = kind, kind if name is None else name
        return nid


SETUP = NodeId("setup")
STARTER = NodeId("round", "starter")  # `rounds.starter`: who begins each round after the first
PLAYERS = NodeId("players")  # who is still in: what eliminate and sit_out change
TAKES_OUT = frozenset({"eliminate", "sit_out"})
# what reads who is in: `players`, and the functions that skip a player who is out
_WHO_IS_IN = frozenset({"others", "partners", "next", "prev"})
TURNS_OWED = ("turns", "owed")  # what ir.READS_OWED read and ir.OWES write
# the kinds of rule with a `when`, checked on their own: the automatic rules
CONDITIONAL = ("end", "trigger", "round_end", "match_end")


@dataclass
class Touches:
    """What a piece of IR reads and writes."""

    reads: set[tuple[str, str]] = field(default_factory=set)  # (kind, name)
    moves_from: set[str] = field(default_factory=set)
    moves_to: set[str] = field(default_factory=set)
    changes: dict[str, set[str]] = field(default_factory=dict)  # counter -> ops (+= -= =)
    procs: set[str] = field(default_factory=set)
    kinds_moved: set[str] = field(default_factory=set)  # kinds named in a move
    shuffles: set[str] = field(default_factory=set)  # reordered, not moved
    # zones a `move(top(zone, n), ...)` draws from or `refill(zone)` names: the only
    # moves that refill a zone with refill_from (see with_refills)
    draws: set[str] = field(default_factory=set)
    remembers: set[str] = field(default_factory=set)  # `remember:` slots set
    calls: set[tuple[str, str]] = field(default_factory=set)  # ("procedure"|"condition", name)
    # what is passed to a procedure's zone and cards parameters: (procedure, parameter
    # index, the zones the cards come from, as card_sources gives them)
    passed_args: set[tuple[str, int, frozenset]] = field(default_factory=set)

    def add(self, other: Touches) -> Touches:
        """self, with what `other` reads and writes too."""
        for name, value in vars(other).items():
            if isinstance(value, dict):
                for key, ops in value.items():
                    self.changes.setdefault(key, set()).update(ops)
            else:
                getattr(self, name).update(value)
        return self


def touches_of(node, t: Touches | None = None, given: dict | None = None) -> Touches:
    """What an expression or a block of statements (or None) reads and writes, added
    to t when given; `given`: the cards' sources of the locals the rule binds itself
    (played_locals), or of a procedure's zone parameters (the zones passed)."""
    t = t if t is not None else Touches()
    if node is not None:
        bound = card_locals(node, given) if isinstance(node, tuple) else dict(given or {})
        _Touching(t, bound).visit(node)
    return t


def played_locals(part) -> dict[str, set]:
    """The card and zone locals a rule binds before its effect runs -> where their
    cards come from: an action's `chosen`, from its `among` (a Klondike designer's moves
    of the chosen card out of the tableau went unseen: lint said no card left the
    stock); its `target` zone (`target: zone`), one of its `among`'s."""
    among = getattr(part, "among", None)
    if among is None:
        return {}
    return {"target" if part.target == "zone" else "chosen": card_sources(among, {})}


ANYWHERE = "anywhere"  # where a played or picked card comes from: no zone equals it
ANY_ZONE = "(any zone)"  # what zone_of and above read: whichever zone a card lies in


def overlaps(written: set, read: set) -> bool:
    """Does what one part writes, (kind, name) pairs, change what another reads? A read
    of ANY_ZONE is changed by a move to or from any zone."""
    return bool(written & read) or any(
        ("zone", ANY_ZONE) in one and any(kind == "zone" for kind, _ in other)
        for one, other in ((read, written), (written, read))
    )


def shape(node):
    """What a piece of IR says, without where it was written: for comparing two."""
    if isinstance(node, tuple):
        return tuple(shape(x) for x in node)
    if not isinstance(node, (ir.Expr, ir.Stmt, ir.Branch)):
        return node
    return (type(node).__name__, *(shape(v) for _, v in ir.iter_fields(node)))


def place(zone: ir.ZoneRef):
    """Which of its zones a reference names, as written: the shape of its owner and
    index, for comparing two references to one zone."""
    return shape((zone.owner, zone.index))


def card_locals(block, given: dict | None = None) -> dict[str, set]:
    """Locals a block binds to cards or to a zone (by `let`, `for` or `choose ...
    from`), and those its rule binds (`given`) -> the zones their cards come from (see
    card_sources): a zone picked from a family, any of its zones (a Splendor designer's
    draw from the top of a chosen pile went unseen). A name bound twice (in two
    branches) comes from both."""
    bound: dict[str, set] = dict(given or {})
    for s in ir.walk_statements(block):
        if isinstance(s, ir.ChooseCard):
            name, value = s.var, s.source
        elif isinstance(s, ir.For):
            name, value = s.var, s.items
        elif isinstance(s, ir.Let):
            name, value = s.name, s.value
        else:
            continue
        if value.type in _CARDS_FROM:
            bound[name] = bound.get(name, set()) | card_sources(value, bound)
    return bound


def card_sources(cards, bound) -> set:
    """The zones the cards of an expression come from, each as (name, its place; None
    for one of a family's zones or a zone passed to a procedure, which one not known),
    following the locals in bound; ANYWHERE for a card that could come from anywhere.
    A zone local bound nowhere (an aggregate's variable) gives none."""
    if isinstance(cards, ir.ZoneRef):
        return {(cards.name, place(cards))}
    if isinstance(cards, ir.Zones):
        return {(cards.name, None)}
    if isinstance(cards, ir.Local) and cards.type in ("cards", "zone"):
        return bound.get(cards.name, {ANYWHERE} if cards.type == "cards" else set())
    if isinstance(cards, ir.Call) and cards.func == "without":
        return card_sources(cards.args[0], bound)  # what it leaves out is no source
    return set().union(*(card_sources(c, bound) for c in _card_children(cards)))


_CARDS_FROM = {"cards", "zone", "zones", "cardsets"}  # the types whose values hold cards


def _card_children(e) -> list:
    """The parts directly inside e that give cards: a count's zone gives none
    (`top(stock, 6 - size(hand(p)))` takes no card of the hand), nor a test's."""
    return [c for c in ir.iter_children(e) if getattr(c, "type", None) in _CARDS_FROM]


class _Touching(ir.Visitor):
    """Gathers into one Touches what the nodes it visits read and write. Only the node
    kinds that name or change something are overridden; the others pass the visit on."""

    def __init__(self, t: Touches, bound: dict[str, set]):
        self.t, self.bound = t, bound  # bound: see card_locals

    def visit_ZoneRef(self, e: ir.ZoneRef):
        self.t.reads.add(("zone", e.name))
        self.generic_visit(e)

    def visit_Zones(self, e: ir.Zones):
        self.t.reads.add(("zone", e.name))
        self.generic_visit(e)

    def visit_Local(self, e: ir.Local):
        if e.builtin and e.name == "players":
            self.t.reads.add(("players", "players"))
        if e.type == "zone":  # reading a zone local reads the zones it may be
            self.t.reads |= {("zone", name) for name in self.zones_of(e)}

    def zones_of(self, local: ir.Local) -> set[str]:
        """The zones a zone local may be (see card_locals)."""
        return {name for name, _ in self.bound.get(local.name, set()) - {ANYWHERE}}

    def named(self, e: ir.Expr) -> set[str]:
        """The zones an expression names, those a zone local may be included."""
        local = isinstance(e, ir.Local) and e.type == "zone"
        return zones_in(e) | (self.zones_of(e) if local else set())

    def visit_Counter(self, e: ir.Counter):
        self.t.reads.add(("counter", e.name))
        self.generic_visit(e)

    def visit_Memory(self, e: ir.Memory):
        self.t.reads.add(("memory", e.name))
        self.generic_visit(e)

    def visit_Call(self, e: ir.Call):
        if e.func in ("zone_of", "above"):  # where a card lies (and what lies on it): a
            # move to or from any zone changes it
            self.t.reads.add(("zone", ANY_ZONE))
        elif e.func in _WHO_IS_IN:
            self.t.reads.add(("players", "players"))
        elif e.func in ir.READS_OWED:
            self.t.reads.add(TURNS_OWED)
        self.generic_visit(e)

    def visit_Param(self, e: ir.Param):
        self.t.reads.add(("param", e.name))

    def visit_Kind(self, e: ir.Kind):
        self.t.reads.add(("kind", e.name))

    def visit_Const(self, e: ir.Const):
        if e.type == "goal":
            self.t.reads.add(("goal", e.value))

    def visit_Assign(self, s: ir.Assign):
        if isinstance(s.target, ir.Counter):
            self.t.changes.setdefault(s.target.name, set()).add(s.op)
        elif isinstance(s.target, ir.Memory):
            self.t.remembers.add(s.target.name)
        self.generic_visit(s.target)  # a counter assigned is written, its owner read
        self.visit(s.value)

    def visit_ProcedureCall(self, s: ir.ProcedureCall):
        self.t.calls.add(("procedure", s.proc))
        for i, arg in enumerate(s.args):
            if arg.type == "zone":
                self.t.passed_args.add((s.proc, i, frozenset((z, None) for z in self.named(arg))))
            elif arg.type == "cards":  # a move of the parameter's cards moves them from there
                self.t.passed_args.add((s.proc, i, frozenset(card_sources(arg, self.bound))))
        self.generic_visit(s)

    def visit_ConditionCall(self, e: ir.ConditionCall):
        self.t.calls.add(("condition", e.name))
        self.generic_visit(e)

    def visit_Do(self, s: ir.Do):
        self.t.procs.add(s.proc)
        if s.proc in ("move", "insert"):  # an insert is a move to a depth
            source, dest = s.args[:2]
            sources = card_sources(source, self.bound)
            self.t.moves_from |= {name for name, _ in sources - {ANYWHERE}}
            if ANYWHERE in sources or not sources:
                self.t.moves_from.add("*")
            self.into(dest)
            self.t.kinds_moved |= {n for k, n in touches_of(source).reads if k == "kind"}
            # a draw: from a pile written out, or from any a zone local may hold
            if s.proc == "move" and isinstance(source, ir.Call) and source.func == "top":
                self.t.draws |= self.named(source.args[0])
        elif s.proc == "swap":  # each zone's cards to the other
            both = self.named(s.args[0]) | self.named(s.args[1])
            self.t.moves_from |= both
            self.t.moves_to |= both
        elif s.proc == "shuffle":
            self.t.shuffles |= self.named(s.args[0])
        elif s.proc == "refill":
            self.t.draws |= self.named(s.args[0])
        written = {"move": 1, "insert": 1, "shuffle": 0}.get(s.proc)
        for i, arg in enumerate(s.args):
            if i == written:
                self.read_naming(arg)
            else:
                self.visit(arg)

    def into(self, dest: ir.Expr):
        """Cards are moved into the zone dest gives."""
        self.t.moves_to |= self.named(dest)
        if ("zone", ANY_ZONE) in touches_of(dest).reads:
            self.t.moves_to.add(ANY_ZONE)  # to the zone where some card lies

    def read_naming(self, zone: ir.Expr):
        """A zone cards go into (or that is shuffled) is written, not read: only what
        names it (a player, a family's index) is read; a zone local names nothing more."""
        if isinstance(zone, ir.ZoneRef):
            self.generic_visit(zone)
        elif not isinstance(zone, ir.Local):
            self.visit(zone)


def with_calls(spec: ir.Spec, t: Touches) -> Touches:
    """t, plus what every procedure and condition it calls touches, and what those
    call: a procedure's effects count where it is called. A procedure is read again
    when more arguments reach it (one relayed by a procedure read before it), until
    none does: what it moves does not depend on the order the names sort in, and
    circles of calls end, as what is passed only grows."""
    read: dict = {}  # (what, name) -> the arguments it was read with
    while todo := [
        (call, args)
        for call in sorted(t.calls)
        if read.get(call) != (args := frozenset(a for a in t.passed_args if a[0] == call[1]))
    ]:
        for (what, name), args in todo:
            read[what, name] = args
            part = spec.procedure(name) if what == "procedure" else spec.condition(name)
            t.add(touches_of(_definition_body(part), given=_passed(part, t.passed_args)))
    return t


def _passed(part, passed_args) -> dict[str, set]:
    """A procedure's zone and cards parameters -> where what is passed to them comes
    from (as card_locals binds a local): a move into or out of a zone parameter is a
    move into or out of the zones passed, a move of a cards parameter's cards a move
    out of the zones they come from (a Bohnanza designer's `plant(p, first(hand(p),
    1))` moved no card out of the hand for lint, which then said none ever left)."""
    if not isinstance(part, ir.Procedure):
        return {}
    passed: dict[str, set] = {}
    for proc, i, sources in passed_args:
        if proc == part.name:
            passed.setdefault(part.params[i][0], set()).update(sources)
    return passed


def _definition_body(part):
    """What a procedure does, or what a named condition tests."""
    return part.effect if isinstance(part, ir.Procedure) else part.when


def definitions(spec: ir.Spec):
    """(node id, IR) for each procedure and condition."""
    for p in spec.procedures:
        yield NodeId("procedure", p.name), p
    for c in spec.conditions:
        yield NodeId("condition", c.name), c


def zones_in(e: ir.Expr | None) -> set[str]:
    """The zones an expression names (not those zone_of may find)."""
    return {name for kind, name in touches_of(e).reads if kind == "zone" and name != ANY_ZONE}


def rules_of(spec: ir.Spec):
    """(node id, IR) for every rule, the parts that run: the setup (IR None: it is
    spec.setup), then spec.rules()."""
    yield SETUP, None
    for kind, rule in spec.rules():
        yield NodeId(kind, rule.name), rule


def rule_touches(spec: ir.Spec, kind: str, node) -> tuple[Touches, Touches]:
    """(condition touches, effect touches) of one rule (see with_refills)."""
    cond, eff = (with_calls(spec, t) for t in _rule_touches(spec, kind, node))
    return cond, with_refills(spec, eff)


def with_refills(spec: ir.Spec, t: Touches) -> Touches:
    """t, where a draw from a zone with refill_from, or its refill(), may also move the
    refill zone's cards into it (TTG-15); other moves out of it never refill it (a
    Dominion designer's `move(draw(current), discard(current))` was drawn as a refill)."""
    refills = {z.name: z.refill_from for z in spec.zones if z.refill_from}
    for zone in t.draws:
        if zone in refills:
            t.moves_from.add(refills[zone])
            t.moves_to.add(zone)
    return t


def _rule_touches(spec: ir.Spec, kind: str, node) -> tuple[Touches, Touches]:
    if kind == "setup":
        return Touches(), touches_of(spec.setup)
    if kind == "step":  # the conditions to run it, to offer it again and to offer pass;
        # its effect, or what its pass does
        cond = touches_of(node.when, touches_of(node.pass_if, touches_of(node.again_if)))
        return cond, touches_of(ir.body(node))
    if kind == "round":  # the starter is a part of its own (STARTER), not the setup's
        return Touches(), touches_of(node.effect)
    if kind == "action":
        cond = touches_of(node.among, touches_of(node.condition))
        eff = touches_of(node.effect, given=played_locals(node))
        return cond, _played_to(spec, node, eff)
    if kind == "reaction":
        return touches_of(node.condition), _played_to(spec, node, touches_of(node.effect))
    return touches_of(node.when), touches_of(node.effect)


def _played_to(spec: ir.Spec, part, t: Touches) -> Touches:
    """t, with an action's or answer's played card moved from the hand into its `to:`
    zone, and what names that zone read (`to: row(slot + shift)` reads both: a Rummy
    designer's parameter read there alone was 'never used'), or, for `to: target`, the
    zones the target may be. Without a card `to:` is
    never worked out: such a rule moves and reads nothing there."""
    if part.to is not None and part.card is not None:
        t.moves_from.add(spec.hand)
        played = _Touching(t, played_locals(part))  # `to: target`: a zone of its among
        played.into(part.to)
        played.read_naming(part.to)
    return t


_READ_KINDS = ("zone", "counter", "param", "goal", "memory")


def build(spec: ir.Spec) -> nx.MultiDiGraph:
    """The rules graph, built in a fixed order (its exports list nodes and edges in the
    order they were added): the declarations, the turn flow, what offers and enables
    the rules, what each rule touches, and which automatic rules feed which."""
    g = nx.MultiDiGraph(name=spec.name)
    _add_declarations(g, spec)
    _add_flow(g, spec)
    _add_offers(g, spec)
    touches = _add_touches(g, spec)
    _add_feeds(g, spec, touches)
    g.graph["touches"] = touches
    return g


def _node(g, nid: NodeId, span, **attrs):
    g.add_node(nid, kind=nid.kind, span=str(span), label=nid.name, **attrs)


def _add_declarations(g, spec: ir.Spec):
    """A node for the setup (where the spec has one: a setup without one is none, at
    no place), each card, zone, counter, param, memory, goal, rule, procedure and
    condition; the goals' reads and the definitions' calls."""
    if spec.setup:
        _node(g, SETUP, spec.setup_span)
    for c in spec.cards:
        _node(g, NodeId("card", c.name), c.span, count=c.count)
    for kind, defs in (
        ("zone", spec.zones),
        ("counter", spec.counters),
        ("param", spec.params),
        ("memory", spec.memories),
    ):
        for d in defs:
            _node(g, NodeId(kind, d.name), d.span)
    if _takes_out(spec):  # at the spec's `players:`
        _node(g, PLAYERS, dict(spec.places).get("min_players", spec.span))
    _add_initial_reads(g, spec)
    for goal in spec.goals:
        _node(g, NodeId("goal", goal.name), goal.span)
        g.add_edge(NodeId("goal", goal.name), NodeId("zone", goal.zone), key="reads")
    for nid, part in rules_of(spec):
        if part is not None:  # a rule checked only as a turn ends says so
            _node(g, nid, part.span, **({"at": part.at} if getattr(part, "at", None) else {}))
    for nid, part in definitions(spec):
        _node(g, nid, part.span)
    for nid, part in definitions(spec):
        body = _definition_body(part)
        for what, name in sorted(touches_of(body).calls):
            g.add_edge(nid, NodeId(what, name), key="calls")


def _takes_out(spec: ir.Spec) -> bool:
    """Does a rule or procedure take a player out? Who is in is a part of the game only
    then: else it never changes, and every rule that reads it would point at it."""
    blocks = [spec.setup] + [ir.body(part) for _, part in rules_of(spec) if part is not None]
    blocks += [p.effect for p in spec.procedures]
    return any(ir.calls(block, proc) for block in blocks for proc in TAKES_OUT)


def _add_initial_reads(g, spec: ir.Spec):
    """A counter that starts at a parameter's value reads it: a variant's change of the
    parameter shows what it changes."""
    for c in spec.counters:
        for what, name in sorted(touches_of(c.initial).reads) if c.initial is not None else ():
            if what == "param":
                g.add_edge(NodeId("counter", c.name), NodeId("param", name), key="reads")


def _add_flow(g, spec: ir.Spec):
    """The `next` edges from the setup through the rounds and round after round of
    steps, the repeats, and the turn order with what it reads."""
    steps = [NodeId("step", s.name) for s in spec.turn]
    flow = [SETUP] * bool(spec.setup) + _round_flow(g, spec) + steps
    for a, b in zip(flow, flow[1:] + steps[:1]):  # the last step leads back to the first
        g.add_edge(a, b, key="next")
    for s in spec.turn:
        if s.repeat or s.around or s.again_if is not None:  # offered again: after a play,
            # or to the next player
            how = {"how": f"around: {s.around}"} if s.around else {}  # in the spec's words
            g.add_edge(NodeId("step", s.name), NodeId("step", s.name), key="repeats", **how)
    if spec.turn_order is not None:  # who plays next is part of the turn flow, and reads
        order = NodeId("turn_order")
        _node(g, order, spec.turn_order.span)
        for what, name in sorted(touches_of(spec.turn_order).reads):
            if (read := _read_node(g, what, name)) is not None:
                g.add_edge(order, read, key="reads")
    starter = spec.rounds and spec.rounds.starter
    if starter is not None:  # worked out as a round is set up, but none of the setup's
        # effect: its reads drawn from the round's setup sent a reader there
        _node(g, STARTER, starter.span)
        t = touches_of(starter)
        for what, name in sorted(t.calls):
            g.add_edge(STARTER, NodeId(what, name), key="calls")
        _add_reads(g, STARTER, with_calls(spec, t).reads, named_cards(spec))


def _add_offers(g, spec: ir.Spec):
    """Which step offers which action, which cards enable which action or answer, and
    which action or answer opens a window for which answer."""
    kinds = kind_members(spec)
    for s in spec.turn:
        for a in s.actions:
            g.add_edge(NodeId("step", s.name), NodeId("action", a), key="offers")
    for a in spec.actions:
        for card in kinds.get(a.card, ()) if a.card else ():
            g.add_edge(NodeId("card", card), NodeId("action", a.name), key="enables")
    # what opens a window: an action, or an answer that may itself be answered (a chain),
    # and the reactions its windows offer (None: all that answer it)
    opens = {
        p.name: (NodeId(kind, p.name), window_offers(spec, p.effect))
        for kind, parts in (("action", spec.actions), ("reaction", spec.reactions))
        for p in parts
        if spec.windows_of(p.effect)  # its own, or a procedure's it calls
    }
    for r in spec.reactions:
        for card in kinds.get(r.card, ()) if r.card else ():
            g.add_edge(NodeId("card", card), NodeId("reaction", r.name), key="enables")
        for a in r.answers:
            if a in opens and (opens[a][1] is None or r.name in opens[a][1]):
                g.add_edge(opens[a][0], NodeId("reaction", r.name), key="opens")


def window_offers(spec: ir.Spec, effect) -> set[str] | None:
    """The reactions the windows an effect opens may offer: None when one of its
    `react(...)` names no window (it offers every reaction that answers)."""
    windows = {w.name: w.offers for w in spec.windows}
    offered: set[str] = set()
    for s in spec.windows_of(effect):
        if len(s.args) < 2:
            return None
        offered |= set(windows.get(s.args[1].value, ()))
    return offered


def _add_touches(g, spec: ir.Spec) -> dict:
    """Each rule's edges to the zones, counters and memories it moves, changes or
    reads, to the cards it names (a card type, or each card of a tag), and to what it
    calls; returns each rule's (condition, effect) touches. Sets are walked sorted: the
    export is the same whatever the hash seed."""
    named = named_cards(spec)
    touches = {}
    for nid, part in rules_of(spec):
        cond, eff = rule_touches(spec, nid.kind, part)
        touches[nid] = (cond, eff)
        for src in sorted(eff.moves_from - {"*"}):
            g.add_edge(NodeId("zone", src), nid, key="moves_from")
        for dst in sorted((eff.moves_to | eff.shuffles) - {ANY_ZONE}):  # a shuffle: into
            g.add_edge(nid, NodeId("zone", dst), key="moves_to")
        for counter in sorted(eff.changes):
            g.add_edge(nid, NodeId("counter", counter), key="changes")
        if eff.procs & TAKES_OUT:
            g.add_edge(nid, PLAYERS, key="takes_out")
        for memory in sorted(eff.remembers):
            g.add_edge(nid, NodeId("memory", memory), key="remembers")
        for what, name in _direct_calls(spec, part):
            g.add_edge(nid, NodeId(what, name), key="calls")
        _add_reads(g, nid, cond.reads | eff.reads, named)
    return touches


def named_cards(spec: ir.Spec) -> dict[str, list[str]]:
    """A kind (a card type or a tag) -> the cards it names."""
    named: dict[str, list[str]] = {}
    for c in spec.cards:
        for kind in (c.name, *c.tags):
            named.setdefault(kind, []).append(c.name)
    return named


def _add_reads(g, nid, reads, named: dict) -> None:
    """A rule's `reads` edges: to the zones, counters, parameters, goals and memories
    it reads, and to each card a kind it names stands for (`count(hand(p), gold)`: an
    analyst's --focus on a card found no rule that counts it)."""
    for what, name in sorted(reads):
        if (read := _read_node(g, what, name)) is not None:
            g.add_edge(nid, read, key="reads")
        elif what == "kind":
            for card in named.get(name, ()):
                g.add_edge(nid, NodeId("card", card), key="reads")


def _read_node(g, what: str, name: str) -> NodeId | None:
    """The node a read of (what, name) points at: who is in only where a rule takes a
    player out (the node is there), a zone, counter, parameter, goal or memory; None
    for another read (a kind: its cards, see _add_reads)."""
    if what == "players":
        return PLAYERS if PLAYERS in g else None
    return NodeId(what, name) if what in _READ_KINDS and name != ANY_ZONE else None


AUTOMATIC = ("trigger", "end", "round_end")  # the rules checked whenever the table changes


def _add_feeds(g, spec: ir.Spec, touches: dict):
    """A `feeds` edge from each trigger, end or round end to each one whose condition
    reads what it writes (a goal reads its zone)."""
    autos = [nid for nid, _ in rules_of(spec) if nid.kind in AUTOMATIC]
    for a in autos:
        _, eff = touches[a]
        written = (
            {("zone", z) for z in eff.moves_to | eff.moves_from}
            | {("counter", c) for c in eff.changes}
            | {("memory", m) for m in eff.remembers}
            | ({("players", "players")} if eff.procs & TAKES_OUT else set())
            | ({TURNS_OWED} if eff.procs & ir.OWES else set())
        )
        for b in autos:
            read = touches[b][0].reads
            goal_zones = {("zone", gd.zone) for gd in spec.goals if ("goal", gd.name) in read}
            if overlaps(written, read | goal_zones):
                g.add_edge(a, b, key="feeds")


def _direct_calls(spec: ir.Spec, part) -> list[tuple[str, str]]:
    """The procedures and conditions a rule (None: the setup) calls itself, not through
    others, in order."""
    inside = spec.setup if part is None else tuple(ir.iter_children(part))
    return sorted(touches_of(inside).calls)


def _round_flow(g, spec: ir.Spec) -> list[NodeId]:
    """The `next` edges from a round's end to the next round's setup, through its
    scoring and the match ends; [the round's setup], which follows the game's setup
    and leads to the first step, or [] without rounds."""
    r = spec.rounds
    if r is None:
        return []
    setup = NodeId("round", "setup")
    after_end = (
        [NodeId("round", "scoring")]
        if r.scoring
        else [NodeId("match_end", t.name) for t in r.match_end] + [setup]
    )
    for t in r.end_conditions:
        for b in after_end:
            g.add_edge(NodeId("round_end", t.name), b, key="next")
    if r.scoring:
        for b in [NodeId("match_end", t.name) for t in r.match_end] + [setup]:
            g.add_edge(NodeId("round", "scoring"), b, key="next")
    return [setup]


def kind_members(spec: ir.Spec) -> dict[str, list[str]]:
    members = {c.name: [c.name] for c in spec.cards}
    for tag in spec.tags:
        members[tag] = [c.name for c in spec.cards if tag in c.tags]
    members["any"] = [c.name for c in spec.cards]
    return members


# --- export ------------------------------------------------------------------------

_SHAPES = {
    "setup": "doublecircle",
    "step": "box",
    "action": "ellipse",
    "reaction": "octagon",
    "end": "doubleoctagon",
    "trigger": "hexagon",
    "card": "note",
    "zone": "folder",
    "counter": "cylinder",
    "param": "plaintext",
    "goal": "star",
    "procedure": "component",
    "condition": "diamond",
    "round": "box3d",
    "round_end": "invhouse",
    "match_end": "tripleoctagon",
    "turn_order": "Mdiamond",
    "memory": "tab",
    "players": "house",
}


def dot_string(text) -> str:
    """text as one DOT quoted string that shows it as it is, for every id and label:
    backslashes and quotes escaped, `&` as an entity (Graphviz reads entities), control
    characters (line breaks too) written out as \\x.., so nothing in a name or a path
    can end the string or change what it shows."""

    def one(ch):
        if ch in '\\"':
            return "\\" + ch
        if ch == "&":
            return "&amp;"
        return f"\\\\x{ord(ch):02x}" if ch < " " or ch == "\x7f" else ch

    return '"' + "".join(map(one, str(text))) + '"'


# the colours of what a view marks (graph_views.py): the focused part, and a change
_MARKS = {"focus": "#ffd966", "added": "#b6d7a8", "changed": "#9fc5e8", "removed": "#ea9999"}


def _edge_label(key: str, data: dict) -> str:
    """An edge's kind, and how, where the kind alone does not say (a step repeated
    `around`)."""
    return f"{key} ({data['how']})" if "how" in data else key


def to_dot(g: nx.MultiDiGraph) -> str:
    q = dot_string
    lines = [f"digraph {q(g.graph.get('name', 'spec'))} {{", "  rankdir=LR;"]
    for nid, data in g.nodes(data=True):
        mark = data.get("mark")
        fill = f", style=filled, fillcolor={q(_MARKS[mark])}" if mark else ""
        tip = data["kind"] + " at " + data["span"] + (f" ({mark})" if mark else "")
        lines.append(
            f"  {q(nid)} [label={q(data['label'])}, shape={_SHAPES[data['kind']]}{fill}, "
            f"tooltip={q(tip)}];"
        )
    for a, b, key, data in g.edges(keys=True, data=True):
        style = "bold" if key in ("next", "offers") else "dashed" if key == "reads" else "solid"
        mark = data.get("mark")
        colour = f", color={q(_MARKS[mark])}, penwidth=2" if mark else ""
        lines.append(
            f"  {q(a)} -> {q(b)} [label={q(_edge_label(key, data))}, style={style}{colour}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


_MERMAID_PLAIN = re.compile(r"[\w ,.:/()'-]")


def mermaid_string(text) -> str:
    """text as one Mermaid quoted string that shows it as it is, for every label:
    anything but letters, digits and plain punctuation becomes an entity (#34; for a
    quote), so nothing in a name can end the string or the node, or open markup."""
    return (
        '"'
        + "".join(ch if _MERMAID_PLAIN.fullmatch(ch) else f"#{ord(ch)};" for ch in str(text))
        + '"'
    )


def to_mermaid(g: nx.MultiDiGraph) -> str:
    ids = {nid: f"n{i}" for i, nid in enumerate(g.nodes)}  # ours: never a spec's text
    lines = ["flowchart LR"]
    for nid, data in g.nodes(data=True):
        lines.append(f"  {ids[nid]}[{mermaid_string(data['kind'] + ': ' + data['label'])}]")
    for a, b, key, data in g.edges(keys=True, data=True):
        arrow = "-.->" if key == "reads" else "-->"
        lines.append(f"  {ids[a]} {arrow}|{mermaid_string(_edge_label(key, data))}| {ids[b]}")
    for nid, mark in g.nodes(data="mark"):
        if mark:
            lines.append(f"  style {ids[nid]} fill:{_MARKS[mark]}")
    for i, (_, _, mark) in enumerate(g.edges(data="mark")):
        if mark:
            lines.append(f"  linkStyle {i} stroke:{_MARKS[mark]},stroke-width:2px")
    return "\n".join(lines) + "\n"


def to_json(g: nx.MultiDiGraph) -> str:
    data = {
        "name": g.graph.get("name"),
        "nodes": [{"id": n, **d} for n, d in g.nodes(data=True)],
        "edges": [
            {"source": a, "target": b, "kind": k, **d}
            for a, b, k, d in g.edges(keys=True, data=True)
        ],
    }
    return json.dumps(data, indent=1) + "\n"
