"""`rulespec lint`, layer 1: static checks on the IR and its graph (milliseconds).

Each check is a small generator yielding Findings; `lint` runs them all, drops what the
spec silences (`# rulespec: ignore[RL101]` on the finding's line) and sorts by place.
Layers 2 (bounded exploration) and 3 (simulation coverage) are in explore.py and
coverage.py; every finding says which layer found it.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cached_property

import networkx as nx

from ..lang import ir
from ..lang.costs import group_count
from ..lang.diagnostics import Span, did_you_mean
from ..lang.shown import asked_unseen, counters_set, first_asked, kept_through_redeal
from . import graph as graphs


@dataclass(frozen=True)
class Finding:
    code: str
    severity: str
    message: str
    span: Span
    layer: int = 1
    hint: str = ""
    trace: tuple[str, ...] = ()  # a choice sequence that reaches it (layer 2)
    rules: tuple[str, ...] = ()  # the rules it is about, for later layers to confirm

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.span.file,
            "line": self.span.line,
            "col": self.span.col,
            "layer": self.layer,
            "hint": self.hint,
            "trace": list(self.trace),
            "rules": list(self.rules),
        }


INF = math.inf


class Analysis:
    """What the checks share: the spec, its graph, supplies and bounds."""

    def __init__(self, spec: ir.Spec, players: int | None = None, graph=None):
        """Bounds for one player count's deck, or (players=None) the most any holds."""
        self.spec, self.players = spec, players
        self.pinned: dict[str, tuple] = {}  # counters, parameters held at bounds (pinning)
        self.roles: dict[str, set[str]] = {}  # card locals -> the card types they can be
        self.g = graph if graph is not None else graphs.build(spec)
        self.touches = self.g.graph["touches"]
        each = [players] if players else spec.player_counts
        counts = [dict(spec.deck_for(n)) for n in each]
        members = graphs.kind_members(spec)
        # the most cards of a kind any player count's deck holds
        self.supply = {k: max(sum(c[m] for m in ms) for c in counts) for k, ms in members.items()}
        self.deck_size = max(sum(c.values()) for c in counts)
        self.members = {k: set(ms) for k, ms in members.items()}
        # the values a parameter takes over the player counts judged
        self.params = {p.name: [p.value_for(n) for n in each] for p in spec.params}
        self.sinks = self._sinks()
        # None while they are worked out: a counter's bound is not derived from another's
        self.counter_bounds: dict[str, tuple[float, float]] | None = None
        self.counter_bounds = {c.name: self._counter_bound(c) for c in spec.counters}
        self.counter_initial = {c.name: self.interval(c.initial) for c in spec.counters}
        self.assigned = _assigned_values(self)

    @cached_property
    def outside(self) -> graphs.Touches:
        """What the evaluation, the payoff, the turn order, a round's starter, the
        counters' initial values and the values the table shows read and call."""
        return _outside_rules(self.spec)

    @cached_property
    def watched_in(self) -> set[str]:
        """The unordered zones no card enters or leaves but from or into a public zone,
        none there at the start: every seat saw each card go in and come out (a side's
        won tricks, gathered from the table), so what lies there is known to all,
        whoever may look at it. Not an ordered zone (a shuffle or an insert makes its
        order a secret), nor one a card may leave unseen (a card of one's choice burnt
        face down: a review's)."""
        spec = self.spec
        public = {z.name for z in spec.zones if z.visibility == "public"}
        anywhere = {graphs.ANY_ZONE, "*"}
        rules = {nid: part for nid, part in graphs.rules_of(spec)}

        def in_sight(z: ir.ZoneDef) -> bool:
            for nid, (_cond, e) in self.touches.items():
                if (z.name in e.moves_to or e.moves_to & anywhere) and not e.moves_from <= public:
                    return False  # a card may come in from where some seat cannot see
                if (
                    (z.name in e.moves_from or e.moves_from & anywhere)
                    and not e.moves_to <= public
                    and not _taken_whole(spec, rules[nid] or spec.setup, z.name)
                ):
                    return False  # a card of some seat's choice may leave unseen
            return {y.name for y in spec.zones if y.refill_from == z.name} <= public

        return {
            z.name
            for z in self.spec.zones
            if not z.ordered
            and not z.start
            and (not z.refill_from or z.refill_from in public)
            and in_sight(z)
        }

    def _sinks(self) -> set[str]:
        """Zones no card ever leaves."""
        spec, out = self.spec, set()
        sources = set()
        for _cond, eff in self.touches.values():
            sources |= eff.moves_from
        tos = {n for a in spec.actions for n in graphs.zones_in(a.to)} | {
            n for r in spec.reactions for n in graphs.zones_in(r.to)
        }
        for a in spec.actions:  # a card picked from among, or played onto a zone of it
            if a.target == "zone":
                tos |= graphs.zones_in(a.among) if a.card is not None else set()
            else:
                sources |= graphs.zones_in(a.among)
        for s in ir.walk_statements(spec.effect_blocks()):
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
        others = [ir.body(r) for kind, r in self.spec.rules() if kind != "action"]
        others += [p.effect for p in self.spec.procedures]  # called from anywhere, actions too
        for s in ir.walk_statements((self.spec.setup, *others)):
            if (
                isinstance(s, ir.Assign)
                and isinstance(s.target, ir.Counter)
                and s.target.name == c.name
            ):
                v = self.interval(s.value)
                if s.op != "=" or v is None:
                    return (-INF, INF)
                lo, hi = min(lo, v[0]), max(hi, v[1])
        return (lo, hi + counted)

    def _sink_increments(self, stmts, counter, moved_aside=False) -> int | None:
        """How many `counter += 1` an action makes, each beside a move of the played card
        into a zone it never leaves; None when some change of it is not of that form."""
        aside = moved_aside or any(
            isinstance(s, ir.Do)
            and s.proc == "move"
            and isinstance(s.args[0], ir.Local)
            and s.args[0].name == "card"
            and graphs.zones_in(s.args[1]) <= self.sinks
            and graphs.zones_in(s.args[1])
            for s in stmts
        )
        total = 0
        for s in stmts:
            if (
                isinstance(s, ir.Assign)
                and isinstance(s.target, ir.Counter)
                and s.target.name == counter
            ):
                if not (
                    aside and s.op == "+=" and isinstance(s.value, ir.Const) and s.value.value == 1
                ):
                    return None
                total = 1
            for inner in ir.iter_blocks(s):
                n = self._sink_increments(inner, counter, aside)
                if n is None:
                    return None
                total = max(total, n)
        return total

    @cached_property
    def per_count(self) -> list[Analysis]:
        """One analysis per player count in the range, each with that count's deck."""
        return [Analysis(self.spec, n, self.g) for n in self.spec.player_counts]

    @contextmanager
    def pinning(self, values: dict[str, tuple]):
        """Judge with these counters (or parameters: one namespace) held at these bounds."""
        self.pinned = values
        try:
            yield self
        finally:
            self.pinned = {}

    def goals(self, e) -> list[ir.GoalDef]:
        """The goals a goal expression can name: one for a literal name, any of them
        for a local holding one."""
        if isinstance(e, ir.Const):
            return [g for g in self.spec.goals if g.name == e.value]
        return list(self.spec.goals)

    # --- intervals --------------------------------------------------------------

    def interval(self, e) -> tuple[float, float] | None:
        """Bounds of an int expression, or None when nothing useful is known."""
        rule = _INTERVALS.get(type(e))
        return rule(self, e) if rule else None

    def _const_interval(self, e):
        return (e.value, e.value) if e.type == "int" else None

    def _param_interval(self, e):
        if e.type != "int":
            return None
        if e.name in self.pinned:  # a value a variant may give it
            return self.pinned[e.name]
        vs = self.params[e.name]
        return (min(vs), max(vs))

    def _counter_interval(self, e):
        if e.type != "int":  # a player or a kind, held as a number that is no quantity
            return None
        if e.name in self.pinned:
            return self.pinned[e.name]
        return None if self.counter_bounds is None else self.counter_bounds.get(e.name, (-INF, INF))

    def _local_interval(self, e):
        if e.name != "player_count":
            return None
        if self.players:
            return (self.players, self.players)
        return (self.spec.min_players, self.spec.max_players)

    def _call_interval(self, e):
        if e.func == "count":
            return self._count_interval(e)
        if e.func == "size":
            players = e.args[0].type in ("players", "player")
            return (0, self.spec.max_players if players else self.deck_size)
        if e.func == "goal_score":
            return (0, max(sum(lim for _, lim in g.order) for g in self.goals(e.args[0])))
        if e.func in ("min", "max"):
            a, b = self.interval(e.args[0]), self.interval(e.args[1])
            if a and b:
                f = min if e.func == "min" else max
                return (f(a[0], b[0]), f(a[1], b[1]))
        if e.func == "prop" and e.type == "int":  # a card without it, or none, gives 0
            return _hull(
                (0, 0),
                *((v, v) for c in self.spec.cards for k, v in c.props if k == e.args[1].value),
            )
        return None

    def _count_interval(self, e):
        if self.never_matches(e.args[0], e.args[1]):
            return (0, 0)
        if isinstance(e.args[1], ir.Kind):
            return (0, self.supply.get(e.args[1].name, self.deck_size))
        return (0, self.deck_size)

    def _aggregate_interval(self, e):
        if e.func == "count":
            most = {
                "ints": ir.MAX_RANGE,
                "kinds": len(self.spec.cards),
                "cardsets": ir.MAX_COMBINATIONS,
            }.get(e.items.type, self.deck_size if e.over_cards else self.spec.max_players)
            if isinstance(e.items, ir.Zones):  # a family's zones
                most = self.spec.zone(e.items.name).count
            return (0, most)
        if e.func in ("max", "min"):  # no items give 0
            return _hull((0, 0), self.interval(e.body))
        return None

    def _if_interval(self, e):
        return _hull(self.interval(e.then), self.interval(e.orelse))

    def _binary_interval(self, e):
        if e.type != "int":
            return None
        a, b = self.interval(e.left), self.interval(e.right)
        if not (a and b):
            return None
        if e.op == "+":
            return (a[0] + b[0], a[1] + b[1])
        if e.op == "-":
            return (a[0] - b[1], a[1] - b[0])
        if e.op == "*" and min(a[0], b[0]) >= 0:
            return (a[0] * b[0], a[1] * b[1])
        return None

    def _unary_interval(self, e):
        if e.op != "-":
            return None
        a = self.interval(e.operand)
        return (-a[1], -a[0]) if a else None

    def card_types(self, e) -> set[str] | None:
        """The card types a card expression can hold, or None when any."""
        if isinstance(e, ir.Local):
            return self.roles.get(e.name)
        if isinstance(e, ir.Call) and e.func in ("of", "one") and isinstance(e.args[1], ir.Kind):
            return self.members.get(e.args[1].name)
        return None

    def prop_kinds(self, e) -> set[str] | None:
        """The card types `prop(cards, "name")` can name, from the values the deck
        declares for the card types the cards can be (any card: every type's values; no
        value: none); None when it is no such call."""
        if not (
            isinstance(e, ir.Call)
            and e.func == "prop"
            and e.type == "kind"
            and isinstance(e.args[1], ir.Const)
        ):
            return None
        types = self.card_types(e.args[0])
        types = self.members["any"] if types is None else types
        props = {c.name: dict(c.props) for c in self.spec.cards}
        return {m for t in types for m in self.members.get(props[t].get(e.args[1].value, ""), ())}

    def never_matches(self, cards, kind) -> bool:
        """Can no card of `cards` be of the kind: a card type or tag written, or what
        `prop(...)` gives?"""
        types = self.card_types(cards)
        if isinstance(kind, ir.Kind):
            return types is not None and not types & self.members.get(kind.name, set())
        named = self.prop_kinds(kind)
        return named is not None and (not named or (types is not None and not named & types))

    def prop_values(self, e) -> list | None:
        """The values `prop(cards, "name")` (`c.name`) can give, as the deck declares
        them for the card types the cards can be, in deck order; None for any other
        expression."""
        if not (isinstance(e, ir.Call) and e.func == "prop" and isinstance(e.args[1], ir.Const)):
            return None
        types, name = self.card_types(e.args[0]), e.args[1].value
        props = (dict(c.props) for c in self.spec.cards if types is None or c.name in types)
        return list(dict.fromkeys(p[name] for p in props if name in p))

    def missed(self, e) -> tuple[str, list, str] | None:
        """For `==` or `!=` between a text or kind property and a value that no card the
        property is read from gives it (`c.colour == "bleu"`): (the property, its values,
        the value written); else None."""
        if not (isinstance(e, ir.Binary) and e.op in ("==", "!=")):
            return None
        for prop, other in ((e.left, e.right), (e.right, e.left)):
            values = self.prop_values(prop) if prop.type in ("kind", "str") else None
            written = None if values is None else _none_of(values, other, self.members)
            if written is not None:
                return prop.args[1].value, values, written
        return None

    def truth(self, e) -> bool | None:
        """True or False when a condition's value is fixed by the bounds, else None."""
        if isinstance(e, ir.Const) and e.type == "bool":
            return e.value
        if self.missed(e) is not None:
            return e.op == "!="
        if (
            isinstance(e, ir.Call)
            and e.func == "goal_done"
            and all(
                any(limit > self.supply.get(kind, 0) for kind, limit in g.order)
                for g in self.goals(e.args[0])
            )
        ):
            return False  # some limit is above what the deck holds
        if isinstance(e, ir.Param) and e.type == "bool":  # a switch: as a variant sets it
            values = {self.pinned[e.name][0]} if e.name in self.pinned else set(self.params[e.name])
            return values.pop() if len(values) == 1 else None
        if isinstance(e, ir.Binary) and e.op in ("==", "!=") and e.left.type == "bool":
            a, b = self.truth(e.left), self.truth(e.right)
            return None if a is None or b is None else (a == b) == (e.op == "==")
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
        if (
            isinstance(e, ir.Binary)
            and e.op in ("<", "<=", ">", ">=", "==", "!=")
            and e.left.type == "int"
        ):
            a, b = self.interval(e.left), self.interval(e.right)
            if not a or not b:
                return None
            (al, ah), (bl, bh) = a, b
            always, never = {
                "<": (ah < bl, al >= bh),
                "<=": (ah <= bl, al > bh),
                ">": (al > bh, ah <= bl),
                ">=": (al >= bh, ah < bl),
                "==": (al == ah == bl == bh, ah < bl or al > bh),
                "!=": (ah < bl or al > bh, al == ah == bl == bh),
            }[e.op]
            return True if always else False if never else None
        return None


def _none_of(values: list, other, members: dict[str, set[str]]) -> str | None:
    """The value `other` names when it is text or a kind that none of `values` is (a
    kind by the card types it names, as the game compares kinds), else None. Empty
    text, or a kind of no card, is what a card without the property gives."""
    if isinstance(other, ir.Const) and other.type == "str":
        return None if other.value in ("", *values) else other.value
    if isinstance(other, ir.Kind):
        named = members.get(other.name, set())
        same = not named or any(members.get(v, set()) == named for v in values)
        return None if same else other.name
    return None


# Analysis.interval's rule for each kind of expression; any other has no known bounds.
_INTERVALS = {
    ir.Const: Analysis._const_interval,
    ir.Param: Analysis._param_interval,
    ir.Counter: Analysis._counter_interval,
    ir.Local: Analysis._local_interval,
    ir.Call: Analysis._call_interval,
    ir.Aggregate: Analysis._aggregate_interval,
    ir.IfExpr: Analysis._if_interval,
    ir.Binary: Analysis._binary_interval,
    ir.Unary: Analysis._unary_interval,
}


def _outside_rules(spec: ir.Spec) -> graphs.Touches:
    t = graphs.touches_of(spec.evaluation)
    graphs.touches_of(spec.payoff and spec.payoff.value, t)
    graphs.touches_of(spec.turn_order, t)
    graphs.touches_of(spec.rounds and spec.rounds.starter, t)
    for c in spec.counters:
        graphs.touches_of(c.initial, t)
    t.reads |= {("param", x.count_param) for x in (*spec.zones, *spec.counters) if x.count_param}
    t.calls |= {("condition", c.name) for c in spec.conditions if c.shown}  # the table reads them
    return graphs.with_calls(spec, t)


# --- the checks ---------------------------------------------------------------------


def local_reads(node) -> set[str]:
    """The locals a node (a block, a rule, a definition) reads: a local assigned is
    written, not read."""
    nodes = list(ir.walk(node))
    targets = {id(n.target) for n in nodes if isinstance(n, ir.Assign)}
    return {n.name for n in nodes if isinstance(n, ir.Local) and id(n) not in targets}


def check_unused_lets(an: Analysis):
    """RL101: a `let` whose name no rule or definition reads. Judged over the whole
    spec, every part of every rule (an action's names reach the reactions that answer
    it, their `if:` and `to:` too): a name read anywhere counts as read."""
    parts = _written_parts(an.spec)
    read = set().union(*map(local_reads, parts))
    for part in parts:
        for s in ir.walk(part):
            if isinstance(s, ir.Let) and s.name not in read:
                yield Finding(
                    "RL101",
                    "warning",
                    f"local '{s.name}' is never read",
                    s.span,
                    hint="remove the let, or read the name where it was meant",
                )


def check_unused(an: Analysis):
    """RL101: parameters, zones, counters and goals that nothing refers to."""
    g, spec = an.g, an.spec
    initial_reads = set(an.outside.reads)  # the evaluation's too
    initial_reads |= {("zone", g.zone) for g in spec.goals if ("goal", g.name) in initial_reads}
    for kind, items in (
        ("param", spec.params),
        ("zone", spec.zones),
        ("counter", spec.counters),
        ("goal", spec.goals),
    ):
        for item in items:
            nid = graphs.NodeId(kind, item.name)
            used = (
                g.in_degree(nid) > 0
                or (g.out_degree(nid) > 0 and kind == "zone")
                or (kind, item.name) in initial_reads
                or (kind == "zone" and item.name == spec.hand)
            )
            if not used:
                # the base's part, unused once a variant changed the rules: the variant
                # removes it (it cannot edit the base)
                section = {"param": "parameters", "goal": "goals"}.get(kind, f"{kind}s")
                yield Finding(
                    "RL101",
                    "warning",
                    f"{kind} '{item.name}' is never used",
                    item.span,
                    hint="remove it, or refer to it in a rule"
                    + (  # a base's part: a variant cannot edit the base's file
                        f"; a variant removes it with remove: {{{section}: [{item.name}]}}"
                        if item.span.file != spec.span.file
                        else ""
                    ),
                )
    read_kinds = {n for k, n in an.outside.reads if k == "kind"}
    for cond, eff in an.touches.values():
        read_kinds |= {n for k, n in cond.reads | eff.reads if k == "kind"}
    read_kinds |= {v for c in spec.cards for _, v in c.props if isinstance(v, str)}  # kind props
    played = {a.card for a in spec.actions} | {r.card for r in spec.reactions if r.card}
    goal_kinds = {k for goal in spec.goals for k, _ in goal.order}
    for tag in spec.tags:
        if tag not in read_kinds | played | goal_kinds:
            card = next(c for c in spec.cards if tag in c.tags)
            yield Finding(
                "RL101",
                "warning",
                f"tag '{tag}' is never used",
                card.span,
                hint="remove the tag, or use it in a rule",
            )
    read_props = _read_props(spec)
    if _reads_every_type(spec):  # `for k in card_types`: each card type is named by a rule
        read_kinds |= {c.name for c in spec.cards}
    named = read_kinds | played | goal_kinds
    if not named - {"any"} and not read_props:
        return  # no rule names or reads any card: they are tokens, alike, counted by size
    for c in spec.cards:
        covering = {c.name} | set(c.tags) | {"any"}
        if not covering & named and not read_props & {k for k, _ in c.props}:
            yield Finding(
                "RL103",
                "warning",
                f"card '{c.name}' is never played and no rule refers to it",
                c.span,
                hint="a card that does nothing only dilutes the deck; one the rules tell "
                "apart by a property it lacks (a card without a colour) is silenced with "
                "# rulespec: ignore[RL103] on its line",
            )


def _reads_every_type(spec) -> bool:
    """Does a rule, procedure, condition, the evaluation or the payoff go through
    `card_types`?"""
    parts = (spec.setup, *(rule for _, rule in spec.rules()), *spec.procedures, *spec.conditions)
    parts += tuple(p for p in (spec.evaluation, spec.payoff and spec.payoff.value) if p)
    return any(
        isinstance(n, ir.Local) and n.builtin and n.name == "card_types" for n in ir.walk(parts)
    )


# the argument that names a card property, of each built-in that takes one
_PROPERTY_ARG = {"prop": 1, "values": 0, "summing": 1, "unmelded": 2}


def _read_props(spec) -> set[str]:
    """The card properties some rule (the setup too), procedure or condition reads
    (`c.rank`, `values("suit")`, `summing(cards, "value", n)`, an action's `count:
    {same: suit}`): a card that has one is referred to, as a card picked by a choice
    and judged by its properties is."""
    return props_named(_written_parts(spec)) | {a.same for a in spec.actions if a.same}


def props_named(parts: tuple) -> set[str]:
    """The card properties some IR names (a tuple of parts, None for one not given)."""
    calls = (n for n in ir.walk(tuple(p for p in parts if p is not None)) if isinstance(n, ir.Call))
    return {
        key.value
        for n in calls
        if n.func in _PROPERTY_ARG and isinstance(key := n.args[_PROPERTY_ARG[n.func]], ir.Const)
    }


def check_uncalled(an: Analysis):
    """RL114: procedures and conditions that nothing calls, not even through others
    (one that only calls itself is not called)."""
    spec = an.spec
    calls = nx.DiGraph((a, b) for a, b, k in an.g.edges(keys=True) if k == "calls")
    roots = [nid for nid, _ in graphs.rules_of(spec)] + [
        graphs.NodeId(*c) for c in an.outside.calls
    ]
    called = {nid for nid in roots if nid.kind in ("procedure", "condition")}
    for root in roots:
        if root in calls:
            called |= nx.descendants(calls, root)
    for nid, part in graphs.definitions(spec):
        if nid not in called:
            yield Finding(
                "RL114",
                "warning",
                f"{nid.kind} '{nid.name}' is never called",
                part.span,
                hint="call it from a rule, or remove it",
            )


def check_unreachable(an: Analysis):
    """RL102: actions no step offers; RL104: reactions no action opens a window for."""
    g, spec = an.g, an.spec
    for a in spec.actions:
        nid = graphs.NodeId("action", a.name)
        if g.in_degree(nid) == 0 or not any(
            k == "offers" for _, _, k in g.in_edges(nid, keys=True)
        ):
            yield Finding(
                "RL102",
                "warning",
                f"action '{a.name}' is never offered: no turn step lists it",
                a.span,
                hint="add it to a step's actions, or remove it",
            )
    for code, kind, never, rule in [
        *(("RL102", "action", "is never offered", a) for a in spec.actions),
        *(("RL104", "reaction", "can never answer", r) for r in spec.reactions),
    ]:
        if rule.card is not None and an.supply.get(rule.card) == 0:  # none in any deck
            yield Finding(
                code,
                "warning",
                f"{kind} '{rule.name}' {never}: the deck holds no {rule.card}",
                rule.span,
                hint=f"give {rule.card} a count, or remove the {kind}",
            )
    answered = _answerable(g, spec)
    reacting = {p.name for p in (*spec.actions, *spec.reactions) if spec.windows_of(p.effect)}
    for r in spec.reactions:
        nid = graphs.NodeId("reaction", r.name)
        if nid in answered or an.supply.get(r.card) == 0:
            continue
        if any(k == "opens" for _, _, k in g.in_edges(nid, keys=True)):  # a chain no action starts
            yield Finding(
                "RL104",
                "warning",
                f"reaction '{r.name}' can never answer: no action's "
                f"window leads to {', '.join(r.answers)}",
                r.span,
                hint="call react(...) in an action it answers, or in an answer an action's window offers",
            )
        elif reacting & set(r.answers):  # they open only named windows, none offering it
            yield Finding(
                "RL104",
                "warning",
                f"reaction '{r.name}' can never answer: no window that "
                f"{', '.join(a for a in r.answers if a in reacting)} opens offers it",
                r.span,
                hint="list it in the offers of a window they open, or call react(...) without one",
            )
        else:
            yield Finding(
                "RL104",
                "warning",
                f"reaction '{r.name}' can never answer: none of "
                f"{', '.join(r.answers)} calls react()",
                r.span,
                hint="call react(target) in the action's effect",
            )


def check_window_offers(an: Analysis):
    """RL123: a reaction a named window offers that answers none of the rules opening
    that window: the offer can never be made (a Coup designer's block window offered the
    challenge of the claim, which answers the action, not the block)."""
    spec = an.spec
    opened_by: dict[str, set[str]] = {}  # window -> the actions and reactions opening it
    for p in (*spec.actions, *spec.reactions):
        for s in spec.windows_of(p.effect):  # a procedure's windows are its callers'
            if len(s.args) == 2:
                opened_by.setdefault(s.args[1].value, set()).add(p.name)
    reactions = {r.name: r for r in spec.reactions}
    for w in spec.windows:
        openers = opened_by.get(w.name, set())
        for name in w.offers:
            if openers and not openers & set(reactions[name].answers):
                yield Finding(
                    "RL123",
                    "warning",
                    f"window '{w.name}' offers '{name}', which answers none of what opens "
                    f"it ({', '.join(sorted(openers))})",
                    w.span,
                    hint=f"take '{name}' out of its offers, or list what opens it in "
                    f"'{name}'s answers",
                )


def check_turn_player_out_in_a_round(an: Analysis):
    """RL129: an action a step offers round the table (`around`, the turn's player asked
    first) whose effect takes the player who plays it out (`sit_out(current)`,
    `eliminate(current)`), the step followed by others; the same for the step's
    pass_effect, the pass a fold. Played by the turn's player,
    the round goes on to its end and then the turn ends: the later steps do not run
    that turn (language.md, `eliminate`). A Hold'em designer's fold by the first to act
    left the flop undealt, and the next turn bet pre-flop again. The statement may be
    under an `if` (a President designer's `if size(hand(current)) == 0 { sit_out(current)
    }`), or in a procedure the effect calls (`goes_out(current)`): under an `if` it can
    happen, not must, and the finding says so. Not an action whose `if:` (a pass whose
    `pass_if:`) shuts the turn's player out by name (`current != opener`, see
    _turn_player_names)."""
    spec = an.spec
    actions = {a.name: a for a in spec.actions}
    said = set()
    for i, step in enumerate(spec.turn):
        later = [s.name for s in spec.turn[i + 1 :]]
        if step.around in (None, "others_once") or not later:  # others_once: never asked
            continue
        names = _turn_player_names(spec, i)
        # each action, and the pass (its pass_effect): what the turn's player may do here
        doings = [
            (name, f"action '{name}', offered", "plays it", a.condition, a.effect)
            for name, a in ((n, actions[n]) for n in step.actions)
        ]
        doings.append((step.name, "the pass, offered", "passes", step.pass_if, step.pass_effect))
        for rule, said_as, does, cond, effect in doings:
            if _shuts_out(cond, names):
                continue
            found = {}  # the effect's statement -> how it puts current out, a sure way kept
            for at, out, under in _takes_out(spec, effect, {ir.canon(_CURRENT)}):
                if id(at) not in found or under is None:
                    found[id(at)] = (at, out, under)
            for at, out, under in found.values():
                if id(at) in said:
                    continue
                said.add(id(at))
                what = f"{out.proc}(current)"
                if isinstance(at, ir.ProcedureCall):
                    what = f"{at.proc}(current) ({out.proc} at line {out.span.line})"
                ends = "ends their turn once the round is over, and"
                if under is not None:  # the test is not read: it may let the turn's player by
                    what += f", under the if at line {under.span.line},"
                    ends = "can end their turn once the round is over, and then"
                steps = ", ".join(f"'{n}'" for n in later)
                yield Finding(
                    "RL129",
                    "warning",
                    f"{said_as} round the table at step '{step.name}': "
                    f"when the turn's player {does}, {what} {ends} the later steps "
                    f"({steps}) do not run that turn",
                    at.span,
                    rules=(rule,),
                    hint="mark the player here (a per-player counter) and call "
                    f"{out.proc}(p) for each marked player in a later step, after what "
                    "must run; or do that work in the play that ends the round",
                )


def check_optional_without_actions(an: Analysis):
    """RL134: `optional: true` on a step without actions (an effect step), which offers
    no pass: the key, and its pass_if, pass_title and pass_effect, never apply. RS104
    refuses the pass keys on a step that is not optional, and `repeat` on one without
    actions; this is a warning, not an error, as such specs validated before."""
    for step in an.spec.turn:
        if not step.optional or step.actions:
            continue
        keys = [
            key
            for key, given in (
                ("pass_if", step.pass_if is not None),
                ("pass_title", step.pass_title),
                ("pass_effect", step.pass_effect),
            )
            if given
        ]
        named = ", ".join(f"'{key}'" for key in keys)
        nor = f", nor {'does' if len(keys) == 1 else 'do'} {named}" if keys else ""
        yield Finding(
            "RL134",
            "warning",
            f"step '{step.name}' has optional: true but no actions, so it offers no pass: "
            f"'optional' does nothing{nor}",
            step.span,
            hint="leave optional out"
            + (f" and {named}" if keys else "")
            + ", or give the step actions, for its player to play or pass",
        )


def check_draws_bound_without_refill(an: Analysis):
    """RL135: `top(Z, n)` bound to a local or a remembered entry (`drawn = top(stock,
    1)`), Z a zone with `refill_from`, with no `refill(Z)` before it on every way there:
    only a `move(top(Z, n), …)` and `refill(Z)` refill, so once Z is empty the binding
    holds no card, and the move of it that follows draws nothing. A Crazy Eights trial
    remembered the card its pass drew so; once the stock ran out it never refilled
    from the discard, and every later draw moved nothing."""
    refilling = {z.name: z.refill_from for z in an.spec.zones if z.refill_from}
    if not refilling:
        return
    found: list[tuple[ir.Stmt, ir.ZoneRef]] = []
    for part in _written_parts(an.spec):
        for block in [part] if isinstance(part, tuple) else ir.iter_blocks(part):
            _bound_draws(block, refilling, frozenset(), {}, found)
    for s, pile in found:
        name = s.name if isinstance(s, ir.Let) else s.target.name  # a local, or remembered
        written = pile.name if pile.owner is None else f"{pile.name}(…)"
        yield Finding(
            "RL135",
            "warning",
            f"'{name}' is bound to the top of '{pile.name}', which refills from "
            f"'{refilling[pile.name]}' only in a draw (move(top({written}, n), …)) or a "
            f"refill({written}): read so, an empty '{pile.name}' is not refilled, and "
            f"'{name}' holds no card",
            s.value.span,
            hint=f"call refill({written}) before it: the card bound is then the one a draw takes",
        )


def _bound_draws(block, refilling: dict, refilled: frozenset, zones: dict, found: list):
    """RL135 along a block, in order: `refilled`, the zones (canon) a refill() was
    called on on every way to here; `zones`, the zone locals bound so far (name ->
    the zone). Returns the zones refilled on every way out of the block."""
    for s in block:
        if isinstance(s, ir.Do) and s.proc == "refill":
            refilled |= {ir.canon(_zone_of(s.args[0], zones))}
        elif isinstance(s, (ir.Let, ir.Assign)) and s.value.type == "zone":
            zones[getattr(s, "name", None) or s.target.name] = _zone_of(s.value, zones)
        elif isinstance(s, (ir.Let, ir.Assign)) and isinstance(s.value, ir.Call):
            pile = _zone_of(s.value.args[0], zones) if s.value.func == "top" else None
            if (
                isinstance(pile, ir.ZoneRef)
                and pile.name in refilling
                and ir.canon(pile) not in refilled
            ):
                found.append((s, pile))
        elif isinstance(s, (ir.If, ir.ChooseBranch)):  # refilled after it if in every arm
            refilled = frozenset.intersection(
                *(
                    _bound_draws(b, refilling, refilled, dict(zones), found)
                    for b in ir.iter_blocks(s)
                )
            )
            continue
        for inner in ir.iter_blocks(s):  # a loop's or a choice's body may not run at all
            _bound_draws(inner, refilling, refilled, dict(zones), found)
    return refilled


def _zone_of(e: ir.Expr, zones: dict) -> ir.Expr:
    """The zone an expression names, a zone local's by the zone it was bound to."""
    return zones.get(e.name, e) if isinstance(e, ir.Local) else e


def _takes_out(spec: ir.Spec, block, who: set, calling: frozenset = frozenset()):
    """(the block's statement, the sit_out or eliminate, the outermost `if` it is under
    or None) for each statement of the block that takes out a player `who` holds (IR
    values, compared by meaning): one of its own, one under an `if` (either branch), or
    one in a procedure it calls, where `current` and the parameters given one of `who`
    name them too (not a parameter the procedure assigns to). A loop's or a choice's
    body, which may run no time, is not read."""
    for s in block:
        if isinstance(s, ir.Do) and s.proc in ("sit_out", "eliminate"):
            if ir.canon(s.args[0]) in who:
                yield s, s, None
        elif isinstance(s, ir.If):
            for at, out, _ in _takes_out(spec, s.then + s.orelse, who, calling):
                yield at, out, s
        elif isinstance(s, ir.ProcedureCall) and s.proc not in calling:
            proc = spec.procedure(s.proc)
            assigned = {
                n.target.name
                for n in ir.walk(proc.effect)
                if isinstance(n, ir.Assign) and isinstance(n.target, ir.Local)
            }
            named = {
                ir.canon(ir.Local(None, kind, param))
                for (param, kind), arg in zip(proc.params, s.args)
                if ir.canon(arg) in who and param not in assigned
            }
            inner = {ir.canon(_CURRENT)} | named
            for _, out, under in _takes_out(spec, proc.effect, inner, calling | {s.proc}):
                yield s, out, under


def _turn_player_names(spec: ir.Spec, i: int) -> set[str]:
    """The shared counters certain to hold the turn's player at step i: each set by
    `X = current` in the effect itself of a step before i (not an `around` one, where
    `current` is the player asked), and written nowhere else during a turn, in a spec
    that never calls set_current during one (the turn's player would change under the
    name). The setup and a round's setup and scoring run between turns."""
    between = (spec.rounds.setup, spec.rounds.scoring) if spec.rounds else ()
    parts = tuple(p for p in _written_parts(spec)[1:] if all(p is not b for b in between))
    if any(isinstance(n, ir.Do) and n.proc == "set_current" for n in ir.walk(parts)):
        return set()
    sets = {
        id(s): s.target.name
        for step in spec.turn[:i]
        if step.around is None
        for s in step.effect
        if isinstance(s, ir.Assign)
        and s.op == "="
        and isinstance(s.target, ir.Counter)
        and s.target.owner is None
        and s.target.index is None
        and ir.canon(s.value) == ir.canon(_CURRENT)
    }
    names = set(sets.values())
    for n in ir.walk(parts):
        if isinstance(n, ir.Assign) and isinstance(n.target, ir.Counter) and id(n) not in sets:
            names.discard(n.target.name)
    return names


def _shuts_out(cond: ir.Expr | None, names: set[str]) -> bool:
    """Is cond, or one of its `and` parts, `current != X` (or `X != current`) for a
    name X of the turn's player: the turn's player, asked, is never offered it?"""
    if not isinstance(cond, ir.Binary):
        return False
    if cond.op == "and":
        return _shuts_out(cond.left, names) or _shuts_out(cond.right, names)
    sides = {ir.canon(cond.left), ir.canon(cond.right)}
    return cond.op == "!=" and any(
        sides == {ir.canon(_CURRENT), ir.canon(ir.Counter(None, "player", n, None))} for n in names
    )


def check_emptied_zone_read(an: Analysis):
    """RL130: a `let` bound to a zone (`let lost = hand(target)`), which is the zone
    itself, live, not the cards it held, read after a move took every card out of that
    zone in the same block: it is certainly empty there. A Love Letter designer's Prince
    tested the discarded hand for the Princess so, and nobody ever went out by it. Only
    where nothing can have put a card back: the read is the next statements' own
    expressions, with nothing in between but lets and assignments."""
    said = set()
    for part in _written_parts(an.spec):
        blocks = [part] if isinstance(part, tuple) else []
        blocks += [b for n in ir.walk(part) for b in ir.iter_blocks(n)]
        for block in blocks:
            for i, s in enumerate(block):
                if isinstance(s, ir.Let) and s.value.type == "zone" and id(s) not in said:
                    found = _read_once_emptied(s, block[i + 1 :])
                    if found:
                        said.add(id(s))
                        yield found


def _read_once_emptied(let: ir.Let, rest) -> Finding | None:
    """RL130 for a zone bound by `let`, if one of the statements after it moves every
    card out of that zone and a later one reads it, before anything could put one back."""
    zone, named = ir.canon(let.value), graphs.zones_in(let.value)
    owner = {n.name for n in ir.walk(let.value) if isinstance(n, ir.Local)}
    emptied = None
    for s in rest:
        if emptied is None:
            if any(  # the same words would then name another zone than the let's
                isinstance(t, ir.Assign)
                and isinstance(t.target, ir.Local)
                and t.target.name in owner
                for t in ir.walk_statements((s,))
            ):
                return None
            if (
                isinstance(s, ir.Do)
                and s.proc == "move"
                and (_is_local(s.args[0], let.name) or ir.canon(s.args[0]) == zone)
            ):
                into = graphs.zones_in(s.args[1])
                if named and into and not into & named:  # surely into another zone
                    emptied = s
            continue
        read = {
            ir.If: "cond",
            ir.While: "cond",
            ir.For: "items",
            ir.Let: "value",
            ir.Assign: "value",
        }.get(type(s))
        here = read and next((n for n in ir.walk(getattr(s, read)) if _is_local(n, let.name)), None)
        if here:
            return Finding(
                "RL130",
                "warning",
                f"'{let.name}' is bound to the zone itself, not to the cards it held: the "
                f"move at line {emptied.span.line} took every card out of it, so here it "
                "is always empty",
                here.span,
                hint=f"take what is meant before the move (let had = count({let.name}, k) "
                f"> 0), or bind the cards, which do not follow later moves "
                f"(let {let.name} = of(..., k))",
            )
        if not isinstance(s, (ir.Let, ir.Assign)) or _is_local(
            getattr(s, "target", None), let.name
        ):
            return None
    return None


def _is_local(e, name: str) -> bool:
    return isinstance(e, ir.Local) and e.name == name and not e.builtin


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
    if start.name in an.sinks or not any(
        start.name in eff.moves_from for _, eff in an.touches.values()
    ):
        yield Finding(
            "RL103",
            "error",
            f"no rule moves cards out of '{start.name}', where "
            "the deck starts: no card can ever be drawn or played",
            start.span,
        )


def check_conditions(an: Analysis):
    """RL105: conditions (or parts) the deck and limits make impossible; RL108: ones
    that always hold. Judged for each player count's deck."""
    spec = an.spec
    for nid, part in (*graphs.rules_of(spec), *graphs.definitions(spec)):
        kind, name = nid.kind, nid.name
        roles = _roles(an, kind, part)
        for sub in (an, *an.per_count):
            sub.roles = roles
        for cond, set_before, noun in _conditions_in(an, nid, part):
            yield from _while_initial(an, kind, name, cond, set_before, noun)
            yield from _once_assigned(an, kind, name, cond)
            yield from _fixed_conditions(an, kind, name, cond, noun)
    an.roles = {}  # the checks that follow judge conditions outside any rule's roles


def check_formulas(an: Analysis):
    """RL105 and RL108 in a derived property's formula: an `each` property compared with
    text that none of the family's cards gives it (`colour == "bleu"`) never holds, and
    `!=` always does; the cards are made with what the formula gives all the same."""
    for f in an.spec.formulas:
        cards = [dict(c.props) for c in an.spec.cards if c.family == f.family]
        for n in ir.walk(f.value):
            if not (isinstance(n, ir.Binary) and n.op in ("==", "!=")):
                continue
            for prop, other in ((n.left, n.right), (n.right, n.left)):
                if not isinstance(prop, ir.Local):
                    continue  # formulas read the `each` properties, by name
                values = list(dict.fromkeys(c[prop.name] for c in cards))
                written = _none_of(values, other, an.members)
                if written is None:
                    continue
                never = n.op == "=="
                yield Finding(
                    "RL105" if never else "RL108",
                    "error" if never else "warning",
                    f"derived property '{f.name}': this comparison "
                    f"{'can never hold' if never else 'always holds'} "
                    f"({_values_text(prop.name, values, written)})",
                    n.span,
                    hint=_closest(written, values),
                )


def _conditions_in(an: Analysis, nid, part) -> list:
    """A rule's or definition's conditions, its own and those of the ifs, whiles and
    branches in its body: (condition, the counters its rule may have set before it runs,
    what the condition is in words). A finding names a test in the body as that test: a
    Sushi Go designer read "match_end 'last_round': this condition holds only with 3 to
    5 players", said of an `if` in its effect, as said of the match end's `when`."""
    own = []  # the rule's own condition, or a named value's value
    if nid.kind in graphs.CONDITIONAL or nid.kind == "condition":
        own.append(part.when)
    elif nid.kind in ("action", "reaction") and part.condition is not None:
        own.append(part.condition)
    conds = [(c, set(), "condition") for c in own if c.type == "bool"]  # a named value is none
    conds += [
        (n.cond, set(), "if's test") for c in own for n in ir.walk(c) if isinstance(n, ir.IfExpr)
    ]
    body = _body(an.spec, part)
    set_here = set((an.touches[nid][1] if nid in an.touches else graphs.touches_of(body)).changes)
    for s in ir.walk_statements(body):
        if isinstance(s, ir.If):
            conds.append((s.cond, set_here, "if's test"))
        elif isinstance(s, ir.While):
            conds.append((s.cond, set_here, "while's test"))
        elif isinstance(s, ir.ChooseBranch):
            conds += [(b.cond, set_here, "branch's condition") for b in s.branches if b.cond]
    # a value's `if COND then A else B` in the body (those of the rule's own, above)
    conds += [(n.cond, set_here, "if's test") for n in ir.walk(body) if isinstance(n, ir.IfExpr)]
    return conds


def _fixed_conditions(an: Analysis, kind, name, cond, noun: str):
    """RL105 and RL108 for one condition (an if's test...: its noun) and each of its parts."""
    spec, per_count = an.spec, an.per_count
    counts = list(spec.player_counts)
    verdicts: dict = {}  # node -> [verdict per player count]
    for sub in per_count:
        for node, verdict in _verdicts(sub, cond):
            verdicts.setdefault(id(node), (node, []))[1].append((sub.players, verdict))
    for node, found in verdicts.values():
        never = [n for n, v in found if v is False]
        always = [n for n, v in found if v is True]
        # one side of an `and` or `or` is named as a part: its place is the whole's
        # when it comes first (a beginner read the whole `if` as blamed)
        what = f"this {noun}" if node is cond else f"this part of the {noun}"
        switch = _switched(an, node, cond) if never or len(always) == len(counts) else []
        if switch:
            yield _switch_note(
                an, kind, name, node, "never holds" if never else "always holds", what, switch
            )
        elif never:
            yield _never_holds(an, kind, name, node, never, counts, what)
        elif len(always) == len(counts) and not _written_true(node):
            yield Finding(
                "RL108",
                "warning",
                f"{kind} '{name}': {what} always holds ({_explain(an, node)})",
                node.span,
                rules=(name,),
                hint=_values_hint(an, node),
            )


def _switched(an: Analysis, node, cond) -> list[ir.ParamDef]:
    """The parameters of a switch that fixes a part of a condition: a comparison of
    parameters and numbers alone (`alone_allowed == 1`), without which it would not be
    fixed. A rule a variant turns on or off, not a mistake of the rules; a threshold
    that fixes a test of the table (`successful_krakens >= kraken_limit` with a limit
    of 0) is no switch."""
    switches = [
        n
        for n in ir.walk(node)
        if isinstance(n, ir.Binary)
        and n.op in _MIRROR
        and all(isinstance(x, (ir.Param, ir.Const, ir.Binary, ir.Unary)) for x in ir.walk(n))
    ]
    names = {x.name for n in switches for x in ir.walk(n) if isinstance(x, ir.Param)}
    # a flag is a switch however it is written: `if answers_on`, `not answers_on`
    names |= {x.name for x in ir.walk(node) if isinstance(x, ir.Param) and x.type == "bool"}
    # a parameter set by player count is the per-count note's (_never_holds)
    if not names or any(len(set(an.params[name])) > 1 for name in names):
        return []
    parts, wholes = set(), set()
    for name in names:  # its value, its neighbours, 0 and 1: a switch turns with them
        value = an.params[name][0]
        tried = (
            {False, True}
            if isinstance(value, bool)
            else {value - 1, value, value + 1, 0, 1}
            if isinstance(value, int)
            else ()
        )
        for v in tried:
            for sub in an.per_count:
                with sub.pinning({name: (v, v)}):
                    parts.add(sub.truth(node))
                    wholes.add(sub.truth(cond))
    # the part and the whole condition fixed for some value and not for another; one
    # fixed whatever the value (`raids_allowed == 1 and raids_allowed == 2`) is a mistake
    turns = len(parts) > 1 and len(wholes) > 1
    return [p for p in an.spec.params if p.name in names] if turns else []


def _switch_note(an: Analysis, kind, name, node, verdict: str, what: str, params) -> Finding:
    """RL105 or RL108 as a note: a part of a condition fixed by parameters, each named
    with its value and, where a variant set it, its place."""
    said = []
    for p in params:
        values = sorted(set(an.params[p.name]), key=str)
        value = " or ".join(map(ir.written, values))
        where = f" ({p.span.file}:{p.span.line})" if p.span.file != node.span.file else ""
        said.append(f"{p.name} is {value}{where}")
    return Finding(
        "RL105" if verdict == "never holds" else "RL108",
        "info",
        f"{kind} '{name}': {what} {verdict} while {' and '.join(said)}",
        node.span,
        rules=(name,),
        hint="a rule a parameter turns on or off: nothing to fix if meant",
    )


def _written_true(node) -> bool:
    """`true` written out: a rule that is to run every time (a trigger `at: turn_end`
    with `when: true`, as recipes.md writes it), never an oversight."""
    return isinstance(node, ir.Const) and node.value is True


def _never_holds(an: Analysis, kind, name, node, never, counts, what: str) -> Finding:
    """RL105 for a part that can never hold at the player counts `never`: an error at
    every count, but a warning where it reads a card the deck holds none of (a
    variant's count of 0 leaves the base's rules for it); a warning at some counts, when
    the deck makes it so; a note when the part tests `player_count` itself (a rule meant
    for the other counts)."""
    every = len(never) == len(counts)
    sub = an.per_count[counts.index(never[0])]
    why = _explain(sub, node)
    kinds = {k.name for k in ir.walk(node) if isinstance(k, ir.Kind)}
    absent = sorted(k for k in kinds if not an.supply.get(k))
    if every and absent:
        severity = "warning"
        message = f"{what} can never hold: the deck holds no {', '.join(absent)} ({why})"
    elif every:
        severity, message = "error", f"{what} can never hold ({why})"
    elif _tests_player_count(an, node):
        held = [n for n in counts if n not in never]
        severity = "info"
        message = f"{what} holds only with {_counts(held)} players"
    else:
        severity = "warning"
        message = f"{what} can never hold with {_counts(never)} players ({why})"
    return Finding(
        "RL105",
        severity,
        f"{kind} '{name}': {message}",
        node.span,
        rules=(name,),
        hint="a rule for those player counts, as it tests player_count (or a parameter "
        "set by it): nothing to fix if meant"
        if severity == "info"
        else _values_hint(an, node, "check the deck, the limits and the thresholds"),
    )


def _counts(ns: list[int]) -> str:
    """Player counts in words: "2 or 3", "3 to 10" (a run of three or more)."""
    if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]} to {ns[-1]}"
    return " or ".join(map(str, ns))


def _tests_player_count(an: Analysis, node) -> bool:
    """Is this a comparison of the bare player count (`player_count == 2`), or of a
    parameter given a value by player count (`face_up > 0`, where `face_up` is 0 at six
    players and more), a rule's way of saying which counts it is meant for?"""
    return (
        isinstance(node, ir.Binary)
        and node.op in _MIRROR
        and any(
            (isinstance(s, ir.Local) and s.name == "player_count")
            or (isinstance(s, ir.Param) and len(set(an.params[s.name])) > 1)
            for s in (node.left, node.right)
        )
    )


def _assigned_values(an: Analysis) -> dict[str, set[int]]:
    """counter -> the fixed values rules assign it with `=`."""
    out: dict[str, set[int]] = {}
    for _nid, part in (*graphs.rules_of(an.spec), *graphs.definitions(an.spec)):
        for s in ir.walk_statements(_body(an.spec, part)):
            if isinstance(s, ir.Assign) and isinstance(s.target, ir.Counter) and s.op == "=":
                v = an.interval(s.value)
                if v and v[0] == v[1]:
                    out.setdefault(s.target.name, set()).add(v[0])
    return out


def _once_assigned(an: Analysis, kind, name, cond):
    """RL112: a test of the cards that always holds once a rule has set a counter to
    some value (a tie-break target of 0: every hand has enough), though it can fail
    over the counter's other values."""
    for what, counter in sorted(graphs.touches_of(cond).reads):
        for value in sorted(an.assigned.get(counter, ())) if what == "counter" else ():
            with an.pinning({counter: (value, value)}):
                dead = [
                    (node, _explain(an, node))
                    for node, v in _verdicts(an, cond)
                    if v is True and any(k == "zone" for k, _ in graphs.touches_of(node).reads)
                ]
            for node, why in dead:
                if an.truth(node) is None:  # else RL108 says it, for every value
                    yield Finding(
                        "RL112",
                        "warning",
                        f"{kind} '{name}': once counter "
                        f"'{counter}' is set to {int(value)}, this test of the cards "
                        f"always holds ({why})",
                        node.span,
                        rules=(name,),
                        hint="check the value the rule assigns, and the comparison",
                    )


def check_start(an: Analysis):
    """RL112: an end condition that holds right after the setup, with every counter the
    setup leaves alone at its initial value: the game ends before the first turn."""
    set_up = graphs.touches_of(an.spec.setup).changes
    with an.pinning({c: v for c, v in an.counter_initial.items() if v and c not in set_up}):
        ends = [e for e in an.spec.end_conditions if an.truth(e.when) is True]
    for e in ends:
        if an.truth(e.when) is None:  # else RL108 says it
            yield Finding(
                "RL112",
                "warning",
                f"end '{e.name}': this condition holds right "
                "after the setup, with the counters at their initial values: the game "
                + ("ends as the first turn ends" if e.at else "ends before the first turn"),
                e.when.span,
                rules=(e.name,),
                hint="check `and` against `or`, and the initial values",
            )


def _roles(an: Analysis, kind, part) -> dict[str, set[str]]:
    """The card types a rule's played card (`card`) and answering card (`answer`) can be."""

    def types(card):
        return an.members.get(card) if card else None

    if kind == "action":
        return {"card": types(part.card)} if part.card else {}
    if kind == "reaction":
        answered = [types(a.card) for a in an.spec.actions if a.name in part.answers]
        roles = {"answer": types(part.card)}
        if answered and None not in answered:
            roles["card"] = set().union(*answered)
        return roles
    return {}


def _body(spec: ir.Spec, part) -> tuple:
    """The statements of a rule, procedure or condition (None: the setup)."""
    return spec.setup if part is None else ir.body(part)


def _while_initial(an: Analysis, kind, name, cond, set_before, noun: str):
    """A condition that can hold only once some counter that rules set has left its
    initial value: e.g. a win at 4 coins when the deck holds 3, reachable only after
    a tie-break lowers the target. A counter its own rule sets (a flag raised before
    it is tested) is not judged at its initial value, nor one a setup sets to another
    value before any turn (a round's bet, dealt in its setup). Nor is a part that reads
    the counter alone (`hand_over == 1`): testing a flag's value is its purpose."""
    if an.truth(cond) is not None:
        return
    set_by_rules = {
        c for _, eff in an.touches.values() for c, ops in eff.changes.items() if ops == {"="}
    } - _set_up_anew(an)
    for what_read in sorted(graphs.touches_of(cond).reads):
        what, counter = what_read
        initial = an.counter_initial.get(counter) if what == "counter" else None
        if (
            initial is None
            or counter not in set_by_rules - set_before
            or initial == an.counter_bounds[counter]
        ):
            continue
        with an.pinning({counter: initial}):
            # a dead side of a live condition says nothing about the counter
            never = (
                []
                if an.truth(cond) is not False
                else [(node, _explain(an, node)) for node, v in _verdicts(an, cond) if v is False]
            )
        for node, why in never:  # a note: a rule sets it first, as a flag is
            if _reads_alone(node, what_read):
                continue  # the flag itself, tested
            yield Finding(
                "RL105",
                "info",
                f"{kind} '{name}': this {noun} can never "
                f"hold while counter '{counter}' has its initial value ({why}); it "
                f"may hold only after a rule sets '{counter}'",
                node.span,
                hint="check the deck, the limits and the thresholds, or the "
                "counter's initial value",
            )


def _reads_alone(node, what_read) -> bool:
    """Does the test read nothing but the counter (and parameters)? Whose counter it is,
    and which of its family, does not count: `won(who) >= 1` tests the count alone, as
    `won(p) >= 1` does, and `lit(ptr) == 1` as `lit(0) == 1`."""
    owners = set().union(
        *(
            graphs.touches_of(part).reads
            for n in ir.walk(node)
            if isinstance(n, ir.Counter) and n.name == what_read[1]
            for part in (n.owner, n.index)
            if part is not None
        )
    )
    reads = {r for r in graphs.touches_of(node).reads if r[0] != "param"}
    return reads <= {what_read} | owners


def _set_up_anew(an: Analysis) -> set[str]:
    """Counters the game's setup, or each round's, sets with `=` at its top level to a
    value other than their initial one: rules never see them at their initial value."""
    blocks = [an.spec.setup] + ([an.spec.rounds.setup.effect] if an.spec.rounds else [])
    return {
        s.target.name
        for block in blocks
        for s in block
        if isinstance(s, ir.Assign)
        and isinstance(s.target, ir.Counter)
        and s.op == "="
        and an.interval(s.value) != an.counter_initial.get(s.target.name)
    }


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
        for side, _ in sides:
            yield from _verdicts(an, side)
    elif isinstance(cond, ir.Unary) and cond.op == "not" and t is not None:
        yield cond, t


def _hull(*intervals):
    """The smallest interval holding every one given, or None if one is unknown."""
    if None in intervals:
        return None
    return (min(lo for lo, _ in intervals), max(hi for _, hi in intervals))


def _explain(an: Analysis, node) -> str:
    """Why a comparison is fixed, naming its operator: "`> 0`: left side in [0, 0]"."""
    missed = an.missed(node)
    if missed:
        return _values_text(*missed)
    if isinstance(node, ir.Binary) and node.left.type == "int":
        a, b = an.interval(node.left), an.interval(node.right)
        left, why = node.left, ""
        if isinstance(left, ir.Call) and left.func == "count" and an.never_matches(*left.args):
            cards, kind = left.args
            why = (
                f"; no card counted can be a {kind.name}: they can be of "
                f"{_types_text(an, an.card_types(cards))} only"
                if isinstance(kind, ir.Kind)
                else "; no card counted can be of the kind the property names, by the "
                "values the deck declares"
            )
        if b[0] == b[1]:
            return f"`{node.op} {int(b[0])}`: left side in {_fmt(a)}{why}"
        return f"`{node.op}`: left side in {_fmt(a)}, right side in {_fmt(b)}{why}"
    return "fixed by the deck and limits"


def _values_text(prop: str, values: list, written: str) -> str:
    """A property's values, and the one written that is none of them."""
    if len(values) == 1:
        return f"'{prop}' is always {values[0]}, never '{written}'"
    shown = ", ".join(map(str, values[:8])) + (", ..." if len(values) > 8 else "")
    return f"'{prop}' is one of {shown}, never '{written}'"


def _values_hint(an: Analysis, node, otherwise: str = "") -> str:
    """For a property compared with a value none of the cards gives it, the closest of
    its values ("did you mean 'blue'?"), if one is close; `otherwise` for any other
    comparison."""
    missed = an.missed(node)
    return _closest(missed[2], missed[1]) if missed else otherwise


def _closest(written: str, values: list) -> str:
    """The hint for a value none of `values` is: the closest of them ("did you mean
    'blue'?"), if one is close. Plain text, with no suggestion an editor would put in
    place of the word at the finding's place: that is the comparison's first word."""
    return str(did_you_mean(written, map(str, values))) or "compare it with one of its values"


def _types_text(an: Analysis, types: set[str]) -> str:
    """`type fog`, `types a, b`, or `every type` for the whole deck."""
    if types == set(an.members["any"]):
        return "every type"
    names = sorted(types)
    shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
    return f"type{'s' if len(names) > 1 else ''} {shown}"


def _fmt(iv) -> str:
    lo, hi = iv
    return f"[{'-inf' if lo == -INF else int(lo)}, {'inf' if hi == INF else int(hi)}]"


def check_ends(an: Analysis):
    """RL106: no way to end the game but the turn limit."""
    spec = an.spec
    live = []
    for nid, part in graphs.rules_of(spec):
        _cond, eff = an.touches[nid]
        if {"win", "end_game"} & eff.procs:
            if nid.kind in graphs.CONDITIONAL and an.truth(part.when) is False:
                continue
            live.append(nid)
    if not live:
        yield Finding(
            "RL106",
            "error",
            f"no rule can win or end the game: it ends only at the turn limit ({spec.turn_limit})",
            spec.span,
            hint="add an end condition whose effect calls win(...) or end_game()",
        )


def check_trigger_cycles(an: Analysis):
    """RL107: triggers that feed each other with nothing making progress. A rule checked
    only as a turn ends (`at: turn_end`) fires once a turn at most: it takes part in no
    such loop; nor does a round end, which ends the round (the runtime stops a round
    end that keeps firing: a trigger loop)."""
    rules = dict(graphs.rules_of(an.spec))
    feeds = nx.DiGraph(
        (a, b)
        for a, b, k in an.g.edges(keys=True)
        if k == "feeds"
        and "round_end" not in (a.kind, b.kind)
        and rules[a].at is None
        and rules[b].at is None
    )
    for nid, part in rules.items():
        if nid.kind not in ("trigger", "end") or part.at is not None:
            continue
        cond, eff = an.touches[nid]
        written = (
            {("zone", z) for z in eff.moves_to | eff.moves_from}
            | {("counter", c) for c in eff.changes}
            | ({graphs.TURNS_OWED} if eff.procs & ir.OWES else set())
        )
        read = cond.reads | {
            ("zone", g.zone) for g in an.spec.goals if ("goal", g.name) in cond.reads
        }
        if not ({"win", "end_game", "end_turn", "eliminate"} & eff.procs) and not graphs.overlaps(
            written, read
        ):
            yield Finding(
                "RL107",
                "warning",
                f"trigger '{part.name}' may fire again and again: "
                "its effect never changes what its condition reads",
                part.span,
                hint="make the effect falsify the condition",
                rules=(part.name,),
            )
    for scc in nx.strongly_connected_components(feeds):
        if len(scc) == 1 and not feeds.has_edge(next(iter(scc)), next(iter(scc))):
            continue
        if any(_settles(an, nid, rules[nid]) for nid in scc):
            continue
        first = min(scc, key=lambda n: an.g.nodes[n]["span"])
        part = rules[first]
        names = tuple(sorted(n.name for n in scc))
        exactly = [n.name for n in sorted(scc) if _settles(an, n, rules[n], exactly=True)]
        yield Finding(
            "RL107",
            "warning",
            "triggers may fire each other forever: " + " -> ".join(names),
            part.span,
            rules=names,
            hint=(
                f"lint does not read emptying a zone found at `== n` as progress ({', '.join(exactly)}): "
                "where the count cannot pass n, `>= n` says the same and lint sees it"
                if exactly
                else "make each effect falsify its own condition (fill what it finds "
                "empty, set a flag it tests), or end the game"
            ),
        )


def _settles(an: Analysis, nid, part, exactly: bool = False) -> bool:
    """Does this trigger's effect obviously make its own condition false (or end)?
    `exactly`: would it, were each `==` test a `>=` (a count found at exactly n)."""
    _cond, eff = an.touches[nid]
    if {"win", "end_game"} & eff.procs:
        return True
    return _falsifies(an, eff, part.when, negated=False, depth=0, exactly=exactly)


_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _falsifies(
    an: Analysis, eff, e, negated: bool, depth: int, exactly: bool = False, members=None
) -> bool:
    """Does an effect that writes `eff` make the condition `e` (`not e` when negated)
    false: some test of an `and` (every side of an `or`) is a size or count the
    effect fills when found empty or empties when found full, a counter it sets, or the
    turns owed it gives or drops?
    Named conditions, `not`, and the bodies of `all(...)` and `any(...)` are read
    through; `members`: an aggregate's variable over a family's zones -> the family."""
    members = members or {}
    if depth > 8:
        return False
    if isinstance(e, ir.Unary) and e.op == "not":
        return _falsifies(an, eff, e.operand, not negated, depth + 1, exactly, members)
    if isinstance(e, ir.ConditionCall):
        named = next((c for c in an.spec.conditions if c.name == e.name), None)
        return named is not None and _falsifies(
            an, eff, named.when, negated, depth + 1, exactly, members
        )
    if isinstance(e, ir.Aggregate) and e.func == "any" and not negated and _leave(an, e, eff):
        return True
    if isinstance(e, ir.Aggregate) and e.func in ("all", "any"):
        if isinstance(e.items, ir.Zones):  # `size(r)` for r in row: row's
            members = {**members, e.var: e.items.name}
        return _falsifies(an, eff, e.body, negated, depth + 1, exactly, members)
    if isinstance(e, ir.Binary) and e.op in ("and", "or"):
        # `a and b` is false when either side is; `a or b` only when both are
        either = (e.op == "and") != negated
        sides = [
            _falsifies(an, eff, x, negated, depth + 1, exactly, members) for x in (e.left, e.right)
        ]
        return any(sides) if either else all(sides)
    if not isinstance(e, ir.Binary) or e.op not in _NEGATED:
        return False
    test = _call_on_left(e)
    op = _as_read(test.op, negated, exactly)
    left = test.left
    counted = None
    if isinstance(left, ir.Call) and left.func in ("size", "count"):
        counted = left.args[0]
    elif isinstance(left, ir.Aggregate) and left.func in ("count", "sum") and left.over_cards:
        counted = left.items
    member = members.get(counted.name) if isinstance(counted, ir.Local) else None
    zones = graphs.zones_in(counted) | ({member} if member else set())
    if counted is not None and _moves_past(zones, op, test.right, eff):
        return True
    return _sets(left, eff)


def _sets(read: ir.Expr, eff) -> bool:
    """Does the effect set what a test reads: a counter it assigns (a flag), or the
    turns owed it gives or drops (`extra_turns_owed(p) > 3` and cancel_extra_turns)?"""
    if isinstance(read, ir.Call) and read.func in ir.READS_OWED:
        return bool(eff.procs & ir.OWES)
    return isinstance(read, ir.Counter) and read.name in eff.changes


def _leave(an: Analysis, e: ir.Aggregate, eff) -> bool:
    """`any(damage(c) >= c.toughness for c in field(p))` with an effect that moves cards
    out of field: a card found by a per_card counter of its own leaves where it was
    found, and a card that changes zones has its per_card counters set back."""
    per_card = {c.name for c in an.spec.counters if c.per_card}
    on_it = any(
        isinstance(n, ir.Counter)
        and n.name in per_card
        and isinstance(n.index, ir.Local)
        and n.index.name == e.var
        for n in ir.walk(e.body)
    )
    return on_it and e.over_cards and bool(graphs.zones_in(e.items) & eff.moves_from)


def _moves_past(zones, op: str, bound, eff) -> bool:
    """Does the effect move cards past a count's test of these zones: fill what it
    finds (nearly) empty, empty what it finds full, or at exactly n, n a number of at
    least 1 (a trick taken at `== 1`)?"""
    if op in ("==", "<", "<=") and zones & eff.moves_to:
        return True
    if op in (">", ">=", "!=") and zones & eff.moves_from:
        return True
    exactly = op == "==" and isinstance(bound, ir.Const) and type(bound.value) is int
    return exactly and bound.value >= 1 and bool(zones & eff.moves_from)


def _as_read(op: str, negated: bool, exactly: bool) -> str:
    """A test's operator as the condition holds it: turned by a `not`, and `==` read as
    `>=` when asking whether a count found at exactly n would be progress."""
    op = _NEGATED[op] if negated else op
    return ">=" if exactly and op == "==" else op


_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _call_on_left(test: ir.Binary) -> ir.Binary:
    """`0 == size(z)` read as `size(z) == 0`."""
    if (
        test.op in _MIRROR
        and not isinstance(test.left, (ir.Call, ir.Counter))
        and isinstance(test.right, (ir.Call, ir.Counter))
    ):
        return ir.Binary(test.span, test.type, _MIRROR[test.op], test.right, test.left)
    return test


def check_no_ops(an: Analysis):
    """RL109: statements that do nothing; RL110: a reaction window opened to the actor."""
    unordered = {z.name for z in an.spec.zones if not z.ordered}
    for nid, part in graphs.rules_of(an.spec):
        effect = _body(an.spec, part)
        bound = graphs.card_locals(effect, graphs.played_locals(part))
        # an action or answer whose windows no reaction answers asks nobody
        answered = any(k == "opens" for _, _, k in an.g.out_edges(nid, keys=True))
        for s in ir.walk_statements(effect):
            if (
                isinstance(s, ir.Do)
                and s.proc == "react"
                and nid.kind in ("action", "reaction")
                and not answered
            ):
                yield Finding(
                    "RL109",
                    "warning",
                    f"{nid.kind} '{nid.name}': this react(...) asks nobody: no reaction "
                    f"answers '{nid.name}' (or none its windows offer)",
                    s.span,
                    rules=(nid.name,),
                    hint=f"list '{nid.name}' in the answers of the reaction meant, or remove the line",
                )
                continue
            if (
                isinstance(s, ir.Do)
                and s.proc == "react"
                and isinstance(s.args[0], ir.Local)
                and s.args[0].name == "current"
            ):
                yield Finding(
                    "RL110",
                    "warning",
                    f"{nid.kind} '{nid.name}': react(current) asks "
                    "the player who plays the action to answer it",
                    s.span,
                    rules=(nid.name,),
                    hint="open the window to the player the action is against: react(target)",
                )
            elif found := _no_op(an, s, bound, unordered):
                what, hint = found
                yield Finding(
                    "RL109",
                    "warning",
                    f"{nid.kind} '{nid.name}': {what}",
                    s.span,
                    rules=(nid.name,),
                    hint=hint,
                )


def check_procedure_windows(an: Analysis):
    """RL109 for a procedure's react(...): its window answers the actions and answers
    that call it, directly or through other procedures; when no reaction answers any
    of them (or none their windows offer), it asks nobody. A procedure nothing calls is
    RL114's."""
    spec = an.spec
    for p in spec.procedures:
        callers = [
            graphs.NodeId(kind, rule.name)
            for kind, rules in (("action", spec.actions), ("reaction", spec.reactions))
            for rule in rules
            if p in ir.called(rule.effect, spec.procedures)
        ]
        if not callers or any(
            k == "opens" for c in callers for *_, k in an.g.out_edges(c, keys=True)
        ):
            continue
        named = ", ".join(f"'{c.name}'" for c in callers)
        for s in ir.walk_statements(p.effect):
            if isinstance(s, ir.Do) and s.proc == "react":
                yield Finding(
                    "RL109",
                    "warning",
                    f"procedure '{p.name}': this react(...) asks nobody: no reaction answers "
                    f"what calls it ({named}), or none their windows offer",
                    s.span,
                    rules=(p.name,),
                    hint="list what calls it in the answers of the reaction meant, or remove the line",
                )


def _calls_of(an: Analysis, func: str):
    """(node id, call) for each call of the function `func` in the setup, a rule, a
    procedure or a named condition."""
    for nid, part in (*graphs.rules_of(an.spec), *graphs.definitions(an.spec)):
        for n in ir.walk(an.spec.setup if part is None else part):
            if isinstance(n, ir.Call) and n.func == func:
                yield nid, n


def check_sets_past_the_deck(an: Analysis):
    """RL109: combinations(cards, k) with k written out above the deck's cards: it makes
    no set, so a choice among them offers nothing (a Coup designer's, silent); nor does
    combinations(cards, j, k) with j so, or with k written out below j."""
    for nid, n in _calls_of(an, "combinations"):
        sizes = [a.value if isinstance(a, ir.Const) else None for a in n.args[1:]]
        written = ", ".join("..." if size is None else str(size) for size in sizes)
        if sizes[0] is not None and sizes[0] > an.deck_size:
            why = f"the deck holds {an.deck_size} cards"
        elif None not in sizes and sizes[-1] < sizes[0]:
            why = "its largest size is below its smallest"
        else:
            continue
        yield Finding(
            "RL109",
            "warning",
            f"{nid.kind} '{nid.name}': combinations(..., {written}) makes no set: {why}",
            n.span,
            rules=(nid.name,),
            hint="check how many cards a set takes",
        )


def check_long_ranges(an: Analysis):
    """RL127: a `range` whose bounds give more numbers than one may (MAX_RANGE), which
    the rule meets as RS701 in play: an error when it always does (its bounds written
    out or parameters: a Skat designer's bid ladder, validated clean), a warning when it
    can (its bounds known to reach past the limit)."""
    for nid, n in _calls_of(an, "range"):
        low = (0, 0) if len(n.args) == 1 else an.interval(n.args[0])
        high = an.interval(n.args[-1])
        if not (low and high):
            continue
        least, most = high[0] - low[1], high[1] - low[0]
        if most <= ir.MAX_RANGE or most == INF:
            continue
        sure = least > ir.MAX_RANGE
        many = f"{int(least)} numbers" if sure else f"up to {int(most)} numbers"
        yield Finding(
            "RL127",
            "error" if sure else "warning",
            f"{nid.kind} '{nid.name}': this range gives {many}, and one may give at most "
            f"{ir.MAX_RANGE}: the rule {'fails' if sure else 'can fail'} here as the game runs",
            n.span,
            rules=(nid.name,),
            hint="offer fewer numbers (in steps: choose i from range(n), then low + step * "
            "i), or choose(p) n from low..high, secret, then reveal(n, players)",
        )


def _no_op(an: Analysis, s, bound, unordered) -> tuple[str, str] | None:
    """(what, hint) when the statement does nothing: a counter or local assigned itself
    (or changed by 0), an `if` whose branches are the same, a move of 0 cards, or one
    into the unordered zone (of the same owner) its cards come from."""
    shape = graphs.shape
    if isinstance(s, ir.Assign) and (
        (s.op == "=" and shape(s.value) == shape(s.target))
        or (s.op != "=" and shape(s.value) == shape(_ZERO))
    ):
        return (
            f"this assignment leaves '{s.target.name}' as it was",
            "assign the value meant, or remove the line",
        )
    if isinstance(s, ir.If) and s.then and shape(s.then) == shape(s.orelse):
        return (
            "both branches of this `if` do the same",
            "correct the branch that is wrong, or drop the test",
        )
    if not (isinstance(s, ir.Do) and s.proc == "move"):
        return None
    source, dest = s.args
    if (
        isinstance(source, ir.Call)
        and source.func in ("top", "random")
        and an.interval(source.args[1]) == (0, 0)
    ):
        return "this move takes 0 cards: it does nothing", "check the number of cards it takes"
    if (
        isinstance(dest, ir.ZoneRef)
        and dest.name in unordered
        and graphs.card_sources(source, bound) == {(dest.name, graphs.place(dest))}
    ):
        return (
            f"this move takes cards from the zone it puts them in ('{dest.name}' of the "
            "same owner): it does nothing",
            "check whose zone each side names (current, target, p)",
        )
    return None


_ZERO = ir.Const(None, "int", 0)


def check_empty_zones(an: Analysis):
    """RL111: a zone that rules read but that no card ever enters: always empty."""
    read, filled = _read_and_written(an, "zone", "moves_to")
    for z in an.spec.zones:
        if z.name in read and z.name not in filled and not z.start:
            yield Finding(
                "RL111",
                "warning",
                f"zone '{z.name}' is read, but no rule moves cards into it: it is always empty",
                z.span,
                hint="move cards into it, or read the zone meant",
            )


def check_unset_memories(an: Analysis):
    """RL128: cards the rules remember and read, that no rule sets: always none."""
    read, remembered = _read_and_written(an, "memory", "remembers")
    for m in an.spec.memories:
        if m.name in read and m.name not in remembered:
            written = f"{m.name}(p)" if m.per_player else m.name
            yield Finding(
                "RL128",
                "warning",
                f"remembered cards '{m.name}' are read, but no rule sets them: they are "
                "always none",
                m.span,
                hint=f"set them where the rules say ({written} = cards), or read the ones meant",
            )


def _read_and_written(an: Analysis, kind: str, written: str) -> tuple[set, set]:
    """The names of this kind some rule reads, and those some rule writes (the Touches
    field `written`: moves_to, remembers)."""
    read, done = set(), set()
    for cond, eff in an.touches.values():
        done |= getattr(eff, written)
        read |= {n for k, n in cond.reads | eff.reads if k == kind}
    return read, done


def check_deal(an: Analysis):
    """RL113: a setup (the game's, or each round's) that deals more cards than the deck
    holds at some player count (a deal of n to each player, times the players)."""
    spec = an.spec
    start = next(z.name for z in spec.zones if z.start)
    setups = [("the setup", spec.setup)]
    if spec.rounds is not None:
        setups.append(("each round's setup", spec.rounds.setup.effect))
    for which, stmts in setups:
        short = []
        for sub in an.per_count:  # the deal's sizes and the deck, for each player count
            need = _dealt(sub, stmts, start)
            if need is not None and need > sub.deck_size:
                short.append((sub.players, need, sub.deck_size))
        if short:
            n, need, held = short[-1]
            every = len(short) == len(spec.player_counts)
            deal = next(s for s in ir.walk_statements(stmts) if _deals(s, start))
            yield Finding(
                "RL113",
                "error" if every else "warning",
                f"{which} deals {int(need)} cards with {n} players, and the deck holds {held}",
                deal.span,
                hint="deal fewer cards, or narrow players.max",
            )


def _taken_whole(spec: ir.Spec, part, name: str) -> bool:
    """Does every move of a rule (and of the procedures it calls) that takes cards of
    zone `name` take the whole zone (`move(tricks(p), stock)`: nothing is left there to
    be known), and none take cards held in a local, which may be some of them?"""
    procedures = {p.name: p for p in spec.procedures}
    todo, seen = [part], set()
    while todo:
        for s in ir.walk(todo.pop()):
            if isinstance(s, ir.ProcedureCall) and s.proc not in seen:
                seen.add(s.proc)
                todo.append(procedures[s.proc].effect)
            if not (isinstance(s, ir.Do) and s.proc in ("move", "insert") and s.args):
                continue
            src = s.args[0]
            whole = isinstance(src, ir.ZoneRef) and src.name == name and src.index is None
            some = name in graphs.zones_in(src) or any(
                isinstance(n, ir.Local) and n.type in ("cards", "zone") for n in ir.walk(src)
            )
            if some and not whole:
                return False
    return True


def check_seat_valued(an: Analysis):
    """RL121: an evaluation or payoff that reads `current` but not `me` values the
    player whose turn it is, whichever seat it is asked about: every seat alike to
    `greedy` and `ismcts`. (A shared score reads neither: a cooperative game's.)"""
    spec = an.spec
    for what, expr in (
        ("evaluation", spec.evaluation),
        ("payoff", spec.payoff and spec.payoff.value),
    ):
        names = [n for n in ir.walk(expr) if isinstance(n, ir.Local)] if expr else []
        current = next((n for n in names if n.name == "current"), None)
        if current is not None and all(n.name != "me" for n in names):
            yield Finding(
                "RL121",
                "warning",
                f"the {what} reads `current` but not `me`: it values the player whose turn "
                "it is, whichever seat it is asked about",
                current.span,
                hint="write `me` for the seat it values",
            )


_CURRENT = ir.Local(None, "player", "current", builtin=True)  # compared by meaning (canon)


def check_choices_of_unseen_cards(an: Analysis):
    """RL122: a choice among cards its chooser may not see (Spec.unseen_sources) is a
    blind pick, offering them by place; one that still names them (a set of cards, a
    pick made simultaneously, a `target: card` action's) or tests them (a filter that
    reads the card, a set chosen by kind) shows the chooser what lies there."""
    spec = an.spec
    parts = _written_parts(spec)
    # a `target: card` action: its player, the one whose turn it is, picks among
    picks = [
        ir.ChooseCard(a.span, _CURRENT, "chosen", a.among, ()) for a in spec.actions if a.among
    ]
    targets = {id(p) for p in picks}
    for s in [*ir.walk(parts), *picks]:
        if not isinstance(s, ir.ChooseCard) or s.source.type not in ("zone", "cards", "cardsets"):
            continue  # a choice of numbers, players or kinds names no card
        unseen = spec.unseen_sources(s, through=False)  # the zones it names
        named = type(s) is ir.ChooseAll or s.source.type == "cardsets" or id(s) in targets
        if not unseen or not (named or _tests_cards(s, unseen)):
            continue
        zone = next(n for n in ir.walk(s.source) if isinstance(n, ir.ZoneRef) and n.name in unseen)
        written = zone.name if zone.owner is None else f"{zone.name}(p)"
        where = " in the action's effect, in place of target: card" if id(s) in targets else ""
        family = spec.zone(zone.name)
        count = family.count_param or family.count  # sized by a parameter: its name
        if not named:
            hint = "choose among all the cards there (a blind pick), and test the card once chosen"
        elif type(s) is ir.ChooseAll:
            hint = "pick in secret from cards the picker sees, or one at a time by place"
        elif count is not None:  # a family: a zone by its index
            member = f"{zone.name}({'p, ' * (zone.owner is not None)}i)"
            hint = f"choose by place{where}: choose(p) i from range({count}), then top({member}, 1)"
        else:
            hint = f"choose by place{where}: choose(p) i from range(size({written})), then nth({written}, i)"
        yield Finding(
            "RL122",
            "warning",
            f"a choice among the cards of '{zone.name}', which its chooser may not see, "
            + (
                "names each option by its card (a set of cards, a pick made "
                "simultaneously, a `target: card` action)"
                if named
                else "tests them (a filter that reads the card, cards chosen by kind): a "
                "place is offered only where some card there passes"
            )
            + ", showing the chooser what lies there (unless they were revealed to it)",
            s.span,
            hint=hint,
        )


def check_options_by_unseen_cards(an: Analysis):
    """RL122 too: a choice of numbers (a place in a hand), players or kinds whose filter,
    a choice of branches whose condition, or an action whose `if`, reads what lies in a
    zone its chooser may not see (more than its size): the options offered tell the
    chooser what is there (a Hanabi designer's places offered where the owner's 1s lie,
    in a hand held facing out, and a branch offered only while a playable card is
    held; a steal offered only at a player who holds a coin)."""
    for span, chooser, tests in _offer_tests(an.spec):
        zone = next((z for t in tests if (z := _unseen_read(an, chooser, t))), None)
        if zone is not None:
            yield Finding(
                "RL122",
                "warning",
                f"a choice whose options are offered by what lies in '{zone.name}', which its "
                "chooser may not see: the options offered show the chooser what lies there "
                "(unless it was revealed to it)",
                span,
                hint="offer every option and test the cards once chosen, or read only size() "
                "of the zone",
            )


def _offer_tests(spec: ir.Spec):
    """(place, chooser, the tests deciding what it is offered) of each choice whose
    options are not the cards themselves (those are check_choices_of_unseen_cards'), and
    of each action's `if`, which decides what the player whose turn it is is offered."""
    for s in ir.walk(_written_parts(spec)):
        if isinstance(s, ir.ChooseBranch):
            yield s.span, s.player, [b.cond for b in s.branches if b.cond is not None]
        elif isinstance(s, ir.ChooseNumber) or (
            type(s) is ir.ChooseCard and s.source.type not in ("zone", "cards", "cardsets")
        ):
            yield s.span, s.player, [s.where] if s.where is not None else []
    for a in spec.actions:
        if a.condition is not None:
            yield a.condition.span, _CURRENT, [a.condition]


def _unseen_read(
    an: Analysis, chooser: ir.Expr, test: ir.Expr, args: dict | None = None
) -> ir.ZoneRef | None:
    """The first zone whose cards a test reads (more than how many: `size(hand(p))`,
    `size(top(pile, 1))` are public) that the chooser surely may not see, and did not
    see filled (Analysis.watched_in); read through the named conditions it calls, `args`
    their parameters' arguments (a seat's zone is the chooser's own as the call passes it)."""
    spec, args = an.spec, args or {}
    # the zones whose number of cards alone is read: not those in whose they are or
    # how many taken (`size(hand(next(p)))` reads next(p) as any expression)
    counted = {
        id(z)
        for n in ir.walk(test)
        if isinstance(n, ir.Call) and n.func == "size" and _by_place(n.args[0])
        for z in ir.parts(n.args[0], True)
    }

    def argument(e):
        return args.get(e.name, e) if isinstance(e, ir.Local) else e

    for n in ir.walk(test):
        if isinstance(n, ir.ZoneRef) and id(n) not in counted and n.name not in an.watched_in:
            ref = replace(n, owner=argument(n.owner))
            if spec.unseen_by(ref, chooser, sure=True):
                return ref
        elif isinstance(n, ir.ConditionCall):  # calls in a circle are RS210, never linted
            named = spec.condition(n.name)
            bound = {p: argument(a) for (p, _), a in zip(named.params, n.args)}
            found = _unseen_read(an, chooser, named.when, bound)
            if found is not None:
                return found
    return None


def _by_place(cards: ir.Expr) -> bool:
    """Are these cards taken by place alone (a zone, its top, the first n): their
    number tells nothing of what they are?"""
    return all(map(ir.by_place, ir.parts(cards, True)))


def _written_parts(spec: ir.Spec) -> tuple:
    """The setup, every rule, procedure and named condition: the IR the spec writes."""
    ruled = (*graphs.rules_of(spec), *graphs.definitions(spec))
    return (spec.setup, *(part for _, part in ruled if part is not None))


def _tests_cards(s: ir.ChooseCard, unseen: set[str]) -> bool:
    """Does a choice of cards choose those of the unseen zones by what they are: a
    filter that reads the card, some of their cards picked by kind or property (of,
    one, without, filter, sort, argmax...)?"""
    picked = any(
        (
            isinstance(n, ir.Call)
            and n.func in ("of", "one", "without")
            and graphs.zones_in(n.args[0]) & unseen
        )
        or (
            isinstance(n, ir.Aggregate)
            and n.over_cards
            and n.func != "union"
            and graphs.zones_in(n.items) & unseen
        )
        for n in ir.walk(s.source)
    )
    return picked or _reads(s.where, s.var)


def _reads(e: ir.Expr | None, name: str) -> bool:
    return e is not None and any(isinstance(n, ir.Local) and n.name == name for n in ir.walk(e))


def _deals(s, start) -> bool:
    """Is s a move of the top cards of the start zone?"""
    return (
        isinstance(s, ir.Do)
        and s.proc == "move"
        and isinstance(s.args[0], ir.Call)
        and s.args[0].func == "top"
        and graphs.zones_in(s.args[0].args[0]) == {start}
    )


def _dealt(an: Analysis, stmts, start, times=1):
    """The most cards the statements move off the top of the start zone, a loop over
    the players counted once per player; None when a count is not known."""
    total = 0
    for s in stmts:
        if isinstance(s, ir.For):
            loops = isinstance(s.items, ir.Local) and s.items.name == "players"
            each = an.players if loops else None
            if each is None:
                return None
            inner = _dealt(an, s.body, start, times * each)
            if inner is None:
                return None
            total += inner
        elif _deals(s, start):
            k = an.interval(s.args[0].args[1])
            if k is None or not math.isfinite(k[1]):  # a counter's, which may grow: unknown
                return None
            total += k[1] * times
    return total


def check_secret_numbers_made_public(an: Analysis):
    """RL125: a secret number (`choose(p) v from low..high`, its option hidden from the
    other seats' logs) that its own block sets into a counter, which every seat sees:
    secret in the log, public at once. A number meant to be public is chosen from a
    `range`; one meant to stay secret is told with `reveal` when the rules say."""
    for part in _written_parts(an.spec):
        for s in ir.walk(part):
            if not isinstance(s, ir.ChooseNumber):
                continue
            body = list(ir.walk_statements(s.body))
            if any(
                isinstance(t, ir.Do)
                and t.proc == "reveal"
                and any(isinstance(n, ir.Local) and n.name == s.var for n in ir.walk(t.args[0]))
                for t in body
            ):
                continue  # told to the seats it is meant for: a public number made so
            told = next(
                (
                    t
                    for t in body
                    if isinstance(t, ir.Assign)
                    and isinstance(t.target, ir.Counter)
                    and any(isinstance(n, ir.Local) and n.name == s.var for n in ir.walk(t.value))
                ),
                None,
            )
            if told is not None:
                yield Finding(
                    "RL125",
                    "info",
                    f"the secret number '{s.var}' is set into counter '{told.target.name}', "
                    "which every seat sees: secret in the log, public at once",
                    told.span,
                    hint=f"a number everyone may see is chosen from a range: choose(p) "
                    f"{s.var} from range(n); a secret one is told with reveal({s.var}, players)",
                )


def check_counters_set_from_unseen(an: Analysis):
    """RL131: a counter every seat sees set from what some seat may not see
    (`passes = count(hand(p), k)`, `last = kind_of(c)` of a card chosen from a hidden
    hand): its value tells every seat what the value read. Judged as a say()'s value is
    (RS415, rulespec.lang.shown), which refuses the same value named in a text."""
    counters = {c.name: c for c in an.spec.counters}
    for s, what in counters_set(an.spec):
        name = s.target.name
        c = counters[name]
        whose = "each player's" if c.per_player or c.per_team else "it"
        yield Finding(
            "RL131",
            "warning",
            f"counter '{name}' is public: every seat sees {whose}, but this value reads{what}",
            s.value.span,
            hint="set it from what every seat sees (counters, any zone's size(), the cards "
            "of public zones), or show every seat the cards in this block (reveal(cards, "
            "players)); to tell some seats only, reveal() the cards to them: a per_player "
            "counter is public too",
        )


def check_locals_kept_through_a_redeal(an: Analysis):
    """RL132: a local that is no cards, bound from what some seat may not see and read
    after the game pauses for a decision (`honest = 0` under a test of the cards played
    face down, read by the reaction its react() lets answer): a search agent's re-dealt
    worlds keep its true value, so they tell the agent what the cards were. Judged as a
    say()'s value is (RS415, rulespec.lang.shown). One finding a binding, at its first
    read, naming the others: one line fixes them all."""
    for reads, s, pause, what, test, in_reaction, passed in kept_through_redeal(an.spec):
        if passed is not None:
            yield _passed_through_a_pause(reads, s, pause, what, *passed)
            continue
        name = reads[0].name
        how = "from"
        if test is not None:
            line = test.span.line
            how = (
                "under a test that reads"
                if line == s.span.line
                else f"under the test at line {line}, which reads"
            )
        where = "here"
        if len(reads) > 1:
            lines = sorted({r.span.line for r in reads[1:]})
            where += f" and at line{'s' * (len(lines) > 1)} {', '.join(map(str, lines))}"
        yield Finding(
            "RL132",
            "warning",
            f"local '{name}' is set at line {s.span.line} {how}{what}, and read {where} "
            f"after {_pause_words(pause)}: a search agent's re-dealt worlds deal those "
            f"cards again but keep '{name}' as it was, so its value tells the agent what "
            "they were",
            reads[0].span,
            hint="work it out where it is read, after the pause, from the cards themselves, "
            "which a re-deal deals again"
            + (": in the reaction, a test of the cards played" if in_reaction else ""),
        )


def _passed_through_a_pause(reads, call, pause, what: str, param: str, arg: ir.Expr):
    """RL132 at a call whose argument, worked out from what some seat may not see, the
    procedure reads after a pause: there, as another call may pass what a re-deal deals
    again."""
    lines = ", ".join(str(line) for line in sorted({r.span.line for r in reads}))
    return Finding(
        "RL132",
        "warning",
        f"this argument, '{param}' of '{call.proc}', reads{what}, and '{call.proc}' reads "
        f"'{param}' at line{'s' * (',' in lines)} {lines} after {_pause_words(pause)}: a search "
        f"agent's re-dealt worlds deal those cards again but keep '{param}' as it was, so "
        "its value tells the agent what they were",
        arg.span,
        hint="pass what the value is worked out from (a cards parameter, which a re-deal "
        "deals again) and work it out in the procedure, after the pause",
    )


def _pause_words(pause: ir.Stmt) -> str:
    """A pause (see shown.kept_through_redeal), in words."""
    line = pause.span.line
    if isinstance(pause, ir.Do) and pause.proc == "react":
        return f"the react() at line {line}"
    if isinstance(pause, (ir.ChooseBranch, ir.ChooseCard, ir.ChooseNumber)):
        return f"the choice at line {line}"
    if isinstance(pause, ir.ProcedureCall):
        return f"the call of '{pause.proc}' at line {line}, which pauses"
    return f"the chance draw at line {line}"


def check_decisions_asked_under_unseen(an: Analysis):
    """RL133: a decision asked only when a test of what some seat may not see holds (a
    card just drawn into the hand: `if fits(d) { choose(current) { "play it" … "keep
    it" … } }`): every seat's log shows each decision asked, a secret one as "P1
    chooses a card", so every seat learns how the test came out. Read as RL131 reads a
    counter's value (rulespec.lang.shown.asked_unseen); a say() under such a test is
    the rules' choice to tell it (RS415), a decision is not."""
    for s, test, what, own in asked_unseen(an.spec):
        asked = first_asked(an.spec, [s])  # s, or the decision its call asks first
        if isinstance(asked, ir.ChooseBranch):
            choice = " or ".join(f"'{b.label}'" for b in asked.branches)
        else:
            choice = f"'{asked.var}'"
        if asked is not s:
            choice += f" at line {asked.span.line}, which the call of '{s.proc}' here asks,"
        number = isinstance(s, ir.ChooseNumber)
        item, source = ("a number", "range") if number else ("an item", "source")
        if own and test is s.where:  # with no item to offer, the choice is passed over
            when = f"{item} of its {source} passes its filter at line {test.span.line},"
        elif own:
            when = f"its {source} at line {test.span.line} holds {item},"
        else:
            when = f"the test at line {test.span.line} holds,"
        yield Finding(
            "RL133",
            "warning",
            f"the choice of {choice} is asked only when {when} which reads{what}: every "
            "seat's log shows a decision asked, so every seat learns how the test came out",
            s.span,
            hint="ask it whatever the hidden cards are (offer the option always, and refuse "
            "it inside where it does not fit), or test only what every seat sees; a secret "
            "choice is no cure, as its log shows it asked too",
        )


def check_gifts_moved_straight_on(an: Analysis):
    """RL126: a `simultaneously` block that moves a pick straight into a hidden zone of
    the family the picks come from, another chooser's (a pass to the left): the gift
    lands before the next chooser's pick leaves that zone, and its giver, who cannot see
    which cards leave, no longer knows it lies there."""
    spec = an.spec
    # a zone its giver cannot see once its own gift is there (not a hand facing out)
    unseen = {z.name for z in spec.zones if z.visibility in ("hidden", "owner")}
    for part in _written_parts(spec):
        for s in ir.walk(part):
            if not isinstance(s, ir.ChooseAll) or not isinstance(s.player, ir.Local):
                continue
            who = s.player.name
            found = graphs.card_sources(s.source, {}) - {graphs.ANYWHERE}  # a local's: unknown
            sources = {name for name, _ in found} & unseen
            for t in ir.walk_statements(s.body):
                if not (isinstance(t, ir.Do) and t.proc in ("move", "insert")):
                    continue
                cards, dest = t.args[:2]
                if not (
                    isinstance(dest, ir.ZoneRef)
                    and dest.name in sources
                    and _another_chooser(dest.owner, who)
                    and any(isinstance(n, ir.Local) and n.name == s.var for n in ir.walk(cards))
                ):
                    continue
                yield Finding(
                    "RL126",
                    "warning",
                    f"each pick goes straight into another chooser's '{dest.name}': it "
                    "lands before that chooser's own pick leaves, and its giver, who "
                    "cannot see which cards leave, forgets it is there",
                    t.span,
                    hint=f"move the pick into a zone of the giver's own ({s.var} to "
                    f"passing({who})), and after the statement hand every gift on with a for",
                )


def _another_chooser(owner, who: str) -> bool:
    """Is a zone's owner worked out from the chooser `who` without being it (next(p),
    prev(p)): the zone of another chooser? A fixed owner (seat(0), a counter) need not
    be one, and the chooser's own zone is its own."""
    if owner is None or (isinstance(owner, ir.Local) and owner.name == who):
        return False
    return any(isinstance(n, ir.Local) and n.name == who for n in ir.walk(owner))


def check_read_by_place(an: Analysis):
    """RL124: `nth`, `first` or `top` of cards in the order an unordered zone holds
    them: the order they came in, which is not part of the game (State.key() does not
    tell it, a seat's view lists the zone sorted), so which card it gives is an
    accident of the play; sort them, or make the zone ordered. A note: where any card
    would do (a zone of one card, a hand all of one suit) it is as meant; cards of one
    type (`of(supply, copper)`, `of(bank, kind_of(chosen))`) are alike, and not noted."""
    spec = an.spec
    parts = _written_parts(spec) + ((spec.evaluation,) if spec.evaluation is not None else ())
    unordered = {z.name for z in spec.zones if not z.ordered}
    said = set()
    for part in parts:
        alike = _OneType(spec, part)
        for e in ir.walk(part):
            if not (isinstance(e, ir.Call) and e.func in ("nth", "first", "top") and e.args):
                continue
            if e.args[0].type not in ("cards", "zone") or id(e) in said:
                continue
            said.add(id(e))
            came = sorted(_order_from(e.args[0], alike) & unordered)
            if came:
                yield _read_by_place(e, came[0])


def _read_by_place(e: ir.Call, zone: str) -> Finding:
    """RL124 for e, a read by place of cards in the order the zone holds them."""
    return Finding(
        "RL124",
        "info",
        f"{e.func}() reads cards of '{zone}', an unordered zone, in the order they came, "
        "which is not part of the game: as meant only where any card would do",
        e.span,
        hint=f"where it matters which card, sort them first ({_of_sorted[e.func]}(sort("
        f"c.rank for c in ...), ...)) or give '{zone}' ordered: true",
    )


# what reads a sorted set as each of them reads a zone: top() takes a zone only
_of_sorted = {"nth": "nth", "first": "first", "top": "first"}


def _order_from(e, alike: _OneType) -> set[str]:
    """The zones whose order of cards an expression's cards keep: none after a sort,
    an argmax or an argmin (ties in deck order), nor for cards of one type, which are
    alike."""
    if isinstance(e, ir.ZoneRef):
        return {e.name}
    if isinstance(e, ir.Aggregate):
        if e.func in ("sort", "argmax", "argmin"):
            return set()
        body = _order_from(e.body, alike) if e.func == "union" else set()
        return _order_from(e.items, alike) | body
    if isinstance(e, ir.Call) and e.func == "of" and alike.kind(e.args[1]):
        return set()
    if isinstance(e, ir.Call) and e.func in ("of", "without", "top", "first", "nth", "above"):
        return _order_from(e.args[0], alike)
    if isinstance(e, (ir.Binary, ir.IfExpr)):
        return set().union(*(_order_from(c, alike) for c in ir.iter_children(e)))
    return set()


class _OneType:
    """Which kind expressions of one part (a rule, a definition) always name a card
    type, never a tag of several: `copper`, `kind_of(c)`, a kind property all of whose
    values are card types (`c.bonus`), and a local every binding of which gives those
    (`for k in values("bonus")`, `card_types`; a Splendor designer's payment of each
    colour in turn was noted). A parameter is whatever a caller passes: not known."""

    def __init__(self, spec: ir.Spec, part):
        self.types = {c.name for c in spec.cards}
        self.props: dict[str, set] = {}  # a kind property -> the kinds it names
        for c in spec.cards:
            for name, value in c.props:
                if isinstance(value, str):
                    self.props.setdefault(name, set()).add(value)
        self.locals: set[str] = set()
        unknown = {name for name, _ in getattr(part, "params", ())}
        for n in ir.walk(part):
            if isinstance(n, ir.Let):
                name, one = n.name, n.value.type == "kind" and self.kind(n.value)
            elif isinstance(n, (ir.For, ir.ChooseCard, ir.Aggregate)):
                items = n.source if isinstance(n, ir.ChooseCard) else n.items
                name, one = n.var, items.type == "kinds" and self.each(items)
            else:
                continue
            if not one or name in unknown:
                unknown.add(name)
                self.locals.discard(name)
            else:
                self.locals.add(name)

    def kind(self, e) -> bool:
        """Does a kind expression always name a card type?"""
        if isinstance(e, ir.Kind):
            return e.name in self.types
        if isinstance(e, ir.Local):
            return not e.builtin and e.name in self.locals
        if isinstance(e, ir.Call) and e.func == "kind_of":
            return True
        if isinstance(e, ir.Call) and e.func == "prop":
            return self._named_by(e.args[1])
        if isinstance(e, ir.IfExpr):
            return self.kind(e.then) and self.kind(e.orelse)
        return False

    def each(self, e) -> bool:
        """Is each kind of a set of kinds a card type?"""
        if isinstance(e, ir.Local):
            return e.builtin and e.name == "card_types"
        if isinstance(e, ir.Call) and e.func == "values":
            return self._named_by(e.args[0])
        if isinstance(e, ir.Aggregate) and e.func in ("filter", "sort"):  # some of the items
            return self.each(e.items)
        return False

    def _named_by(self, key) -> bool:
        """Does the kind property a key names name only card types?"""
        return isinstance(key, ir.Const) and self.props.get(key.value, {None}) <= self.types


def check_group_offers(an: Analysis):
    """RL120, a note: an action that plays a group of cards (`count`) whose offer can
    pass the groups a decision may look at once a hand holds enough of its cards (the
    game then stops with RS701, though the spec validates and short games play). A note,
    not a warning: whether a hand grows that large is the rules' to say."""
    props = {c.name: dict(c.props) for c in an.spec.cards}
    for a in an.spec.actions:
        if a.count is None or a.card is None:
            continue
        pools: dict = {}  # with `same`, a pool of each value: a group is of one
        for name in sorted(an.members.get(a.card, ())):
            if an.supply[name]:  # the most copies of it any player count's deck holds
                value = None if a.same is None else props[name].get(a.same)
                if a.same == "card":  # a group of one card type, not of a property's value
                    value = name
                pools.setdefault(value, []).append((name, an.supply[name]))
        low, high = a.count
        most = sum(
            group_count(held, low, sum(k for _, k in held) if high is None else high)
            for held in pools.values()
        )
        if most > ir.MAX_GROUPS:
            held = sum(k for pool in pools.values() for _, k in pool)
            yield Finding(
                "RL120",
                "info",
                f"action '{a.name}' offers more than {ir.MAX_GROUPS:,} groups of cards "
                f"{_from_hand(a.count, a.same, sum(map(len, pools.values())))}(up to "
                f"{most:,} for all {held} it may play): an offer past that stops the game "
                "(RS701)",
                a.span,
                hint="give its count a lower max, or its card fewer types (cards the rules "
                "treat alike as one type with copies), or let the effect choose the cards "
                "one at a time",
            )


def _from_hand(count: tuple, same: str | None, types: int) -> str:
    """From how many cards in hand, each of its own type, an offer passes MAX_GROUPS."""
    low, high = count
    for size in range(1, types + 1 if same is None else 1):  # with `same`: pools apart
        if group_count([(t, 1) for t in range(size)], low, high or size) > ir.MAX_GROUPS:
            return f"once a hand holds {size} of the cards it may play, each of its own type "
    return "when a hand holds enough of the cards it may play "


CHECKS = (
    check_unused,
    check_unused_lets,
    check_uncalled,
    check_unreachable,
    check_start_zone,
    check_conditions,
    check_formulas,
    check_ends,
    check_trigger_cycles,
    check_no_ops,
    check_procedure_windows,
    check_sets_past_the_deck,
    check_long_ranges,
    check_empty_zones,
    check_unset_memories,
    check_start,
    check_deal,
    check_group_offers,
    check_seat_valued,
    check_choices_of_unseen_cards,
    check_options_by_unseen_cards,
    check_window_offers,
    check_turn_player_out_in_a_round,
    check_optional_without_actions,
    check_draws_bound_without_refill,
    check_emptied_zone_read,
    check_read_by_place,
    check_secret_numbers_made_public,
    check_counters_set_from_unseen,
    check_locals_kept_through_a_redeal,
    check_decisions_asked_under_unseen,
    check_gifts_moved_straight_on,
)

CODES = {
    "RL101": "unused name",
    "RL102": "action never offered",
    "RL103": "card never played, or stuck where it starts",
    "RL104": "reaction that can never answer",
    "RL105": "condition that can never hold",
    "RL106": "no end but the turn limit",
    "RL107": "trigger cycle without progress",
    "RL108": "condition that always holds",
    "RL109": "a statement that does nothing",
    "RL110": "a reaction window opened to the actor",
    "RL111": "a zone read but never filled",
    "RL112": "a condition that holds from the start, or once a counter is set",
    "RL113": "a deal larger than the deck",
    "RL114": "procedure or condition never called",
    "RL115": "a loop whose body cannot make its condition false",
    "RL116": "a counter changed but never read",
    "RL117": "a rule whose effect changes nothing anything reads",
    "RL118": "a card property nothing reads",
    "RL119": "an absorbing state that is not an end",
    "RL120": "a group of cards whose offer can pass the groups a decision may look at (a note)",
    "RL121": "an evaluation or payoff that values the player to act, not `me`",
    "RL122": "a choice among cards its chooser cannot see, which its options name or its filter "
    "tests, or whose options are offered by them",
    "RL123": "a window offer that answers none of what opens the window",
    "RL124": "cards read by place in the order an unordered zone holds them",
    "RL125": "a secret number set into a counter every seat sees (a note)",
    "RL126": "a simultaneous pick moved straight into another chooser's hidden zone",
    "RL127": "a range of more numbers than one may give",
    "RL128": "remembered cards read but never set",
    "RL129": "a play round the table that takes the turn's player out, skipping the turn's "
    "later steps",
    "RL130": "a zone bound by let, read after every card was moved out of it",
    "RL131": "a counter every seat sees set from what some seat may not see",
    "RL132": "a local worked out from what some seat may not see, read after a pause: "
    "a re-deal keeps it",
    "RL133": "a decision asked only when a test of what some seat may not see holds",
    "RL134": "optional: true on a step without actions, which offers no pass",
    "RL135": "the top of a pile that refills bound to a local or remembered: it does not refill",
    "RL136": "a per-team counter or zone changed once for each member of a side",
    "RL201": "a reachable state where the game stops without an end",
    "RL202": "a layer-1 finding confirmed by exploration",
    "RL203": "not found within the exploration bounds, or the search stopped at them",
    "RL301": "a rule that never fired in simulation",
    "RL302": "simulated games that hit the turn limit",
    "RL303": "random games that never finish: play checks rerun with greedy agents",
    "RL304": "a game that stood still until the turn limit",
}


def static(spec: ir.Spec) -> list[Finding]:
    from . import deadends, per_team, progress  # their checks build on this module's

    an = Analysis(spec)
    checks = (*CHECKS, *progress.CHECKS, *deadends.CHECKS, *per_team.CHECKS)
    return [f for check in checks for f in check(an)]
