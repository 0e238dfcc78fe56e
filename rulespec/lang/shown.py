"""Whom a named value the table shows (`shown: true`) may be shown to.

What a seat is shown must follow from what it saw (docs/language.md, "What a seat
knows"), so a shown value may read only what every seat sees: counters, parameters,
who is in and whose turn it is, any zone's size, and the cards of public zones (their
per_card counters too). A value of one player may also read that player's own `owner`
zones (`hand(p)`): it is then shown to that player alone, as those cards are. Any other
read (the cards of a zone some seat may not see, the cards the rules remember) is
RS415, at the place of the read. What a value reads counts through the named values
and conditions it calls, each parameter read as the argument the call passes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ir
from .diagnostics import Diagnostic

# what `size(cards)` may be made of and tell nothing but how many: cards taken by place
_GOALS = ("next_goal", "goal_done", "goal_score")  # they count the cards of a goal's zone

_SEAT = object()  # what a local holding the seat the value is shown for is bound to
_SECRET = object()  # what a local some seat may not know is bound to (see told)


@dataclass(frozen=True)
class _Arg:
    """A parameter of cards or of a zone: the argument its call passes, read where the
    body reads it (`size(cs)` of `hand(q)` is public), with the caller's locals."""

    expr: ir.Expr
    env: dict
    via: tuple[str, ...]


@dataclass
class _Reads:
    zones: dict[str, ir.ZoneDef]
    conditions: dict[str, ir.Condition]
    goals: dict[str, str]  # a goal set -> the zone it counts in
    own: bool = False  # reads cards of its seat's own owner zones
    bodies: dict = field(default_factory=dict)  # (condition, its seat parameters) -> (read, own)
    # where a card lies now is no public fact (say(): a local keeps a card that may
    # have moved out of sight since): zone_of() and above() are reads of it
    wherever: bool = False
    reading: set = field(default_factory=set)  # the bindings being read: a loop reads none twice

    def first(self, e, env: dict, via: tuple[str, ...]):
        """The first node of e that reads what some seat may not see, with the named
        conditions it is reached through; None when there is none."""
        if self.wherever and isinstance(e, ir.Call) and e.func in _WHERE:
            return e, via
        if isinstance(e, ir.Call) and e.func == "size" and self._by_place(e.args[0], env):
            # how many tells nothing of what they are; whose zone, how many taken may
            return self._any(_parts(e.args[0], False), env, via)
        if isinstance(e, (ir.ZoneRef, ir.Zones)) and self._unseen(e, env):
            return e, via
        if isinstance(e, ir.Memory):
            return e, via
        if isinstance(e, ir.Local):
            bound = env.get(e.name)
            if bound is _SECRET:
                return e, via
            return next(
                (found for arg in self._bound(bound) if (found := self._read_arg(arg))), None
            )
        if isinstance(e, ir.ConditionCall):
            return self._call(e, env, via)
        if isinstance(e, ir.Call) and e.func in _GOALS:
            goal, player = e.args
            zone = ir.ZoneRef(e.span, "zone", self.goals.get(goal.value, ""), player)
            return self.first(zone, env, via)
        if isinstance(e, ir.Aggregate):
            return self._aggregate(e, env, via)
        return self._any(ir.iter_children(e), env, via)

    def _any(self, nodes, env: dict, via: tuple[str, ...]):
        """The first of the nodes' first reads some seat may not see; None if none."""
        for node in nodes:
            found = self.first(node, env, via)
            if found is not None:
                return found
        return None

    def _unseen(self, ref, env: dict) -> bool:
        """Are the cards of this zone (or family of zones) hidden from some seat the
        value is shown to? Its own seat's owner zone is seen by the one seat it is
        shown to, then."""
        zone = self.zones.get(ref.name)
        if zone is None or zone.visibility == "public":  # None: refused, and said so
            return False
        if zone.visibility == "owner" and zone.owned and _is_seat(ref.owner, env):
            self.own = True
            return False
        return True

    def _bound(self, bound) -> tuple:
        """What a local is bound to, as arguments: one (a parameter), several (say()'s
        locals, each way its rule binds it), or none (read as public)."""
        return (bound,) if isinstance(bound, _Arg) else bound if isinstance(bound, tuple) else ()

    def _read_arg(self, arg: _Arg):
        """first() of what a local is bound to."""
        return self._once(arg, lambda a: self.first(a.expr, a.env, a.via), None)

    def _once(self, arg: _Arg, read, again):
        """read(arg), each binding once on a path (`n += 1` binds n to itself): `again`
        where it is being read already."""
        if id(arg) in self.reading:
            return again
        self.reading.add(id(arg))
        try:
            return read(arg)
        finally:
            self.reading.discard(id(arg))

    def _by_place(self, cards: ir.Expr, env: dict) -> bool:
        """Are these cards taken by place alone (a zone, its top, the first n, an
        argument so taken), so that their number tells nothing of what they are?"""
        for n in _parts(cards, True):
            bound = env.get(n.name) if isinstance(n, ir.Local) else None
            if bound is _SECRET or (self.wherever and isinstance(n, ir.Call) and n.func in _WHERE):
                return False
            if bound is not None:
                if not all(
                    self._once(arg, lambda a: self._by_place(a.expr, a.env), True)
                    for arg in self._bound(bound)
                ):
                    return False
            elif not (ir.by_place(n) or isinstance(n, ir.Zones)):  # a zone target's family
                return False
        return True

    def _call(self, e: ir.ConditionCall, env: dict, via: tuple[str, ...]):
        """A named condition or value called: its body read with its parameters bound
        to the arguments (cards where the body reads them, the rest here)."""
        callee = self.conditions[e.name]
        inner: dict = {}
        for (name, kind), arg in zip(callee.params, e.args):
            if kind in ("cards", "zone"):
                inner[name] = _Arg(arg, env, via)
                continue
            found = self.first(arg, env, via)
            if found is not None:
                return found
            if kind == "player" and _is_seat(arg, env):
                inner[name] = _SEAT
        if any(isinstance(b, _Arg) for b in inner.values()):
            return self.first(callee.when, inner, (*via, callee.name))
        # a call without cards reads the same wherever it stands: read its body once
        key = (callee.name, tuple(inner))
        if key not in self.bodies:
            own, self.own = self.own, False
            self.bodies[key] = self.first(callee.when, inner, ()), self.own
            self.own = own
        found, own = self.bodies[key]
        self.own |= own
        return None if found is None else (found[0], (*via, callee.name, *found[1]))

    def _aggregate(self, e: ir.Aggregate, env: dict, via: tuple[str, ...]):
        """An aggregate: its items read (but a family's zones, each read where the body
        reads it), its body and filter with its variable bound."""
        inner = dict(env)
        if isinstance(e.items, ir.Zones):  # each zone of a family in turn
            zone = ir.ZoneRef(e.items.span, "zone", e.items.name, e.items.owner)
            inner[e.var] = _Arg(zone, env, via)
            found = self.first(e.items.owner, env, via) if e.items.owner else None
        else:  # players, numbers, kinds; or cards, read here
            inner.pop(e.var, None)
            found = self.first(e.items, env, via)
        for part in (e.body, e.where):
            if found is None and part is not None:
                found = self.first(part, inner, via)
        return found


_CARDS = ("cards", "zone", "zones")
_WHERE = ("zone_of", "above")  # what reads where a card lies now


def _parts(cards: ir.Expr, of_cards: bool):
    """The nodes of an expression of cards that give cards (of_cards), or the largest
    parts within it that give something else (a zone's owner, how many to take): what
    is judged by place, and what is read as any expression is."""
    stack = [cards]
    while stack:
        n = stack.pop()
        if of_cards:
            yield n
        for child in ir.iter_children(n):
            if getattr(child, "type", None) in _CARDS:
                stack.append(child)
            elif not of_cards:
                yield child


def _what(node, zones: dict[str, ir.ZoneDef]) -> str:
    """What a read some seat may not see reads, in words."""
    if isinstance(node, ir.Call):  # zone_of(c), above(c), a zone worked out (say())
        return "where a card lies now, which some seats may not see"
    if isinstance(node, ir.Local):  # a say()'s local
        return (
            f"'{node.name}', bound by a secret pick, or by a test or loop over what some "
            "seats may not see"
        )
    if isinstance(node, ir.Memory):
        return f"the cards remembered as '{node.name}', which no seat's table shows"
    vis = zones[node.name].visibility
    return f"the cards of zone '{node.name}' (visibility: {vis}), which some seats may not see"


def _is_seat(owner: ir.Expr | None, env: dict) -> bool:
    """Is this the seat the value is shown for (its player parameter, passed on)?"""
    return isinstance(owner, ir.Local) and env.get(owner.name) is _SEAT


def audience(
    value: ir.Condition,
    zones: dict[str, ir.ZoneDef],
    conditions: dict[str, ir.Condition],
    goals: dict[str, str],
) -> tuple[str, Diagnostic | None]:
    """Whom a shown value (of no parameters, or of one player) is shown to, ir.EVERY_SEAT
    or ir.OWN_SEAT; and RS415 at its first read that some seat may not see, if any."""
    reads = _Reads(zones, conditions, goals)
    env = {name: _SEAT for name, _ in value.params}
    found = reads.first(value.when, env, ())
    if found is None:
        return (ir.OWN_SEAT if reads.own else ir.EVERY_SEAT), None
    node, via = found
    through = f", through {' -> '.join(via)}," if via else ""
    what = _what(node, zones)
    own = (
        "; a value of one player may read that player's own owner zones, hand(p), and is "
        "then shown to that player alone"
        if value.params
        else ""
    )
    return ir.EVERY_SEAT, Diagnostic(
        "RS415",
        f"'{value.name}' is shown at the table, but reads{through} {what}",
        node.span,
        hint="show only what every seat sees: counters, any zone's size(), the cards of "
        "public zones" + own,
    )


# --- what say() tells every seat ---------------------------------------------------


def told(spec: ir.Spec) -> list[Diagnostic]:
    """RS415 at each value a say() text names (`say("{p} scores {n}")`) that reads what
    some seat may not see: every seat is told it. A value is judged as a shown value of
    no parameters is, each local it reads as each thing that binds it, read where the
    local is used (`size(h)` of `let h = hand(p)` is public, its cards are not): a let,
    an assignment (a reaction's too, to the answered action's local), a for loop's
    items, a choice's items, a procedure's parameter as every call's argument, an
    action's card as the zone it went to and its zone target as the zones it was chosen
    among, a reaction's answering card as the zone it went to and the answered rule's
    names as bound there. A local bound by a secret pick (a secret number, a
    simultaneous pick), or where a test or loop over what some seat may not see decided
    that it was bound and how often, is hidden wherever its rule reads it. Where a card
    lies now is not told: a zone worked out in play (`zone_of(c)`) nor the cards above
    one (`above(c)`)."""
    found = _Told(spec)
    if not found.said:
        return []
    envs = found.envs()
    problems = []
    for value, scope in found.said:
        read = (value, ()) if _worked_out_zone(value) else found.reads.first(value, envs[scope], ())
        if read is not None:
            problems.append(_told_problem(read[0], read[1], found.reads.zones, value))
    return problems


def _worked_out_zone(e) -> bool:
    """A zone that is not named (a zone, a family's, a local bound to one): zone_of()."""
    return isinstance(e, ir.Expr) and e.type == "zone" and not isinstance(e, (ir.ZoneRef, ir.Local))


class _Told:
    """What binds each local of each rule and procedure (its scope), and the values
    say() texts name, found in one pass over the spec's effects."""

    def __init__(self, spec: ir.Spec):
        self.reads = _Reads(
            {z.name: z for z in spec.zones},
            {c.name: c for c in spec.conditions},
            {g.name: g.zone for g in spec.goals},
            wherever=True,
        )
        self.procedures = {p.name: p for p in spec.procedures}
        # (scope, local) -> [(expr, the scope it is read in) or _SECRET]; and the tests
        # and loops' items that decided each binding
        self.bindings: dict[tuple, list] = {}
        self.guards: dict[tuple, list] = {}
        self.assigned: list[tuple] = []  # (scope, local, value, guards) of each assignment
        self.said: list[tuple[ir.Expr, str]] = []  # (a value said, its scope)
        self.walk(spec.setup, "setup", ())
        for p in spec.procedures:
            self.walk(p.effect, p.name, ())
        for kind, rule in spec.rules():
            self.walk(rule.effect, rule.name, ())
            if kind == "action":
                self.bind(rule.name, "card", _SECRET if rule.to is None else rule.to)
                among = _SECRET if rule.among is None else rule.among
                self.bind(rule.name, "chosen" if rule.target == "card" else "target", among)
            elif kind == "reaction" and rule.card is not None:
                self.bind(rule.name, "answer", _SECRET if rule.to is None else rule.to)
        self._answered(spec.reactions)

    def _answered(self, reactions) -> None:
        """A reaction reads the answered rule's names as bound there, and its assignments
        to them bind them there too (`guarded = 1`), through answers to answers."""
        linked: set[tuple] = set()
        while True:
            links = {
                (r.name, name, answered)
                for r in reactions
                for answered in r.answers
                for scope, name in list(self.bindings)
                if scope == answered
            } - linked
            written = {
                (answered, name, value, r.name, guards)
                for r in reactions
                for scope, name, value, guards in self.assigned
                if scope == r.name
                for answered in r.answers
                if (answered, name) in self.bindings
            } - linked
            if not links and not written:
                return
            for scope, name, answered in links:
                self.bind(scope, name, ir.Local(ir.Span("<say>", 1, 1), "", name), answered)
            for scope, name, value, where, guards in written:
                self.bind(scope, name, value, where, guards)
            linked |= links | written

    def bind(self, scope: str, name: str, value, where: str | None = None, guards=()) -> None:
        """`name` in `scope` holds value (an expression read in `where`, or _SECRET),
        bound where `guards` decided that it would be."""
        if _worked_out_zone(value):
            value = _SECRET
        where = where or scope
        self.bindings.setdefault((scope, name), []).append(
            value if value is _SECRET else (value, where)
        )
        self.guards.setdefault((scope, name), []).extend((g, where) for g in guards)

    def walk(self, stmts, scope: str, guards: tuple) -> None:
        for s in stmts:
            if isinstance(s, ir.Let):
                self.bind(scope, s.name, s.value, guards=guards)
            elif isinstance(s, ir.Assign) and isinstance(s.target, ir.Local):
                self.bind(scope, s.target.name, s.value, guards=guards)
                self.assigned.append((scope, s.target.name, s.value, guards))
            elif isinstance(s, ir.For):
                self.bind(scope, s.var, s.items, guards=guards)
            elif isinstance(s, (ir.ChooseAll, ir.ChooseNumber)):  # a secret pick
                self.bind(scope, s.var, _SECRET)
            elif isinstance(s, ir.ChooseCard):
                self.bind(scope, s.var, s.source, guards=guards)
            elif isinstance(s, ir.ProcedureCall):
                for (param, _), arg in zip(self.procedures[s.proc].params, s.args):
                    self.bind(s.proc, param, arg, scope, guards)
            elif isinstance(s, ir.Do) and s.proc == "say":
                self.said.extend((value, scope) for value in s.args[1:])
            # what decides whether, and how often, the blocks inside run: an if's or a
            # while's test, a loop's items, a choice's items (the chosen branch is public)
            tests = () if isinstance(s, ir.ChooseBranch) else ir.iter_children(s)
            inside = guards + tuple(c for c in tests if isinstance(c, ir.Expr))
            for block in ir.iter_blocks(s):
                self.walk(block, scope, inside)

    def envs(self) -> dict:
        """Each scope's locals as the reader takes them: each local's bindings, read
        where it is used; _SECRET for one bound by a secret pick, or under a test or loop
        that reads what some seat may not see (through other locals too)."""
        scopes = {s for s, _ in self.bindings} | {s for _, s in self.said}
        scopes |= {v[1] for vs in self.bindings.values() for v in vs if v is not _SECRET}
        envs: dict = {s: {} for s in scopes}
        secret = {key for key, values in self.bindings.items() if _SECRET in values}
        while True:
            for (scope, name), values in self.bindings.items():
                envs[scope][name] = (
                    _SECRET
                    if (scope, name) in secret
                    else tuple(_Arg(e, envs[where], ()) for e, where in values)
                )
            grown = {
                key
                for key, guards in self.guards.items()
                if key not in secret
                and any(self.reads.first(g, envs[w], ()) is not None for g, w in guards)
            }
            if not grown:
                return envs
            secret |= grown


def _told_problem(node, via, zones, value) -> Diagnostic:
    """RS415 at the value said, naming what it reads (through the named values and
    conditions it calls, and the locals that bind it)."""
    through = f", through {' -> '.join(via)}," if via else ""
    return Diagnostic(
        "RS415",
        f"say() tells every seat the values it names, but this one reads{through} "
        f"{_what(node, zones)}",
        value.span,
        hint="name only what every seat sees: counters, any zone's size(), the cards of "
        "public zones (a card moved to one is named where it lies, top(discard, 1)); a "
        "reveal() before the say() does not change what it may name: to show hidden cards, "
        "reveal() them instead",
    )
