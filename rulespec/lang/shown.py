"""Whom a named value the table shows (`shown: true`) may be shown to.

What a seat is shown must follow from what it saw (docs/language.md, "What a seat
knows"), so a shown value may read only what every seat sees: counters, parameters,
who is in, whose turn it is and the turns owed, any zone's size, and the cards of
public zones (their per_card counters too). A value of one player may also read that
player's own `owner` zones (`hand(p)`): it is then shown to that player alone, as those
cards are. Any other read (the cards of a zone some seat may not see, the cards the
rules remember) is RS415, at the place of the read. What a value reads counts through
the named values and conditions it calls, each parameter read as the argument the call
passes. A counter is public too: lint judges what rules set it from the same way
(RL131).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ir
from .builtins import CHANCE
from .diagnostics import Diagnostic

# what `size(cards)` may be made of and tell nothing but how many: cards taken by place
_GOALS = ("next_goal", "goal_done", "goal_score")  # they count the cards of a goal's zone

_SEAT = object()  # what a local holding the seat the value is shown for is bound to
_HERE = object()  # what an aggregate's item of cards every seat sees lie is bound to


@dataclass(frozen=True)
class _Secret:
    """What a say()'s local some seat may not know is bound to (see told): `why` names
    the local and the binding that hides it, for the refusal."""

    why: str
    number: bool = False  # a secret number's (choose(p) n from low..high)


@dataclass(frozen=True)
class _Arg:
    """A parameter of cards or of a zone: the argument its call passes, read where the
    body reads it (`size(cs)` of `hand(q)` is public), with the caller's locals. A
    say()'s local is bound to each thing that binds it: one item of it, for a loop's or
    a choice's variable (`pick`), and `named` names the binding in a refusal."""

    expr: ir.Expr
    env: dict
    via: tuple[str, ...]
    pick: bool = False
    named: str = ""


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
    seen: set = field(default_factory=set)  # the nodes read as public: shown to every seat (ids)

    def first(self, e, env: dict, via: tuple[str, ...]):
        """The first node of e that reads what some seat may not see, with the named
        conditions it is reached through; None when there is none."""
        if id(e) in self.seen:
            return None
        if self._where(e, env):
            return e, via
        if isinstance(e, ir.Call) and e.func == "size":
            found = self._size(e.args[0], env, via)
            if found is not _READ:
                return found
            # the cards are read: name first what makes their number tell which they
            # are (a pick added to a local of cards played face down), not a card of it
            # whose number alone would be told
            found = self._any(ir.iter_children(e), env, via)
            return found and (self._unplaced(e.args[0], env, via) or found)
        if isinstance(e, (ir.ZoneRef, ir.Zones)) and self._unseen(e, env):
            return e, via
        if isinstance(e, ir.Memory):
            return e, via
        if isinstance(e, ir.Local):
            bound = env.get(e.name)
            if isinstance(bound, _Secret):
                return bound, via
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

    def _where(self, e, env: dict) -> bool:
        """Does e read where a card lies now, which some seat may not see (zone_of(),
        above())? Not of an aggregate's item of public cards (see _aggregate), nor of a
        parameter passed one."""
        if not (self.wherever and isinstance(e, ir.Call) and e.func in _WHERE):
            return False
        return not self._item_here(e.args[0], env)

    def _item_here(self, cards: ir.Expr, env: dict) -> bool:
        """Is this an aggregate's item of public cards, itself or passed on?"""
        bound = env.get(cards.name) if isinstance(cards, ir.Local) else None
        if isinstance(bound, _Arg):
            return self._item_here(bound.expr, bound.env)
        return bound is _HERE

    def _now(self, cards: ir.Expr, env: dict) -> bool:
        """Are these cards read as they lie now, not kept from before (a local's, a
        remembered set's, a named value's), but for an aggregate's items of public cards?"""
        return all(
            self._item_here(n, env)
            if isinstance(n, ir.Local)
            else not isinstance(n, (ir.Memory, ir.ConditionCall))
            for n in ir.parts(cards, True)
        )

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
        return self._once(arg, lambda a: _through(a, self.first(a.expr, a.env, a.via)), None)

    def _size(self, cards: ir.Expr, env: dict, via: tuple[str, ...]):
        """first() of size(cards) where how many tells nothing of which (cards taken by
        place: whose zone, how many taken may; a loop's or choice's item, one card or a
        set of combinations(cards, k): k may); _READ where the cards are read."""
        picks = self._bound(env.get(cards.name)) if isinstance(cards, ir.Local) else ()
        if picks and all(a.pick and _item_size(a.expr) for a in picks):
            return next((found for arg in picks if (found := self._read_size(arg))), None)
        if self._by_place(cards, env):
            return self._placed(cards, env, via)
        return _READ

    def _placed(self, cards: ir.Expr, env: dict, via: tuple[str, ...]):
        """first() of what decides how many cards taken by place are (how many taken,
        whose zone), through the locals and parameters that hold them too: `size(t)` of
        `let t = top(discard, n)` tells n."""
        found = self._any(ir.parts(cards, False), env, via)
        for n in ir.parts(cards, True):
            if found is None and isinstance(n, ir.Local):
                bound = self._bound(env.get(n.name))
                found = next((f for arg in bound if (f := self._read_placed(arg))), None)
        return found

    def _read_placed(self, arg: _Arg):
        """_placed() of what a local is bound to."""
        return self._once(arg, lambda a: _through(a, self._placed(a.expr, a.env, a.via)), None)

    def _read_size(self, arg: _Arg):
        """first() of how many cards an item of what a local is bound to holds."""
        size = _item_size(arg.expr)
        return self._once(arg, lambda a: _through(a, self.first(size, a.env, a.via)), None)

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
        for n in ir.parts(cards, True):
            bound = env.get(n.name) if isinstance(n, ir.Local) else None
            if isinstance(bound, _Secret) or self._where(n, env):
                return False
            if bound is not None:
                if not all(
                    self._once(arg, lambda a: _whole(a) and self._by_place(a.expr, a.env), True)
                    for arg in self._bound(bound)
                ):
                    return False
            elif not (ir.by_place(n) or isinstance(n, ir.Zones)):  # a zone target's family
                return False
        return True

    def _unplaced(self, cards: ir.Expr, env: dict, via: tuple[str, ...]):
        """first() of the part of these cards that is not taken by place (see _by_place):
        a pick a local holds, read as what it was picked from; None where none reads what
        some seat may not see."""
        for n in ir.parts(cards, True):
            bound = env.get(n.name) if isinstance(n, ir.Local) else None
            if isinstance(bound, _Secret):
                return bound, via
            if self._where(n, env):
                return n, via
            if bound is not None:
                for arg in self._bound(bound):
                    if found := self._once(arg, self._read_unplaced, None):
                        return found
            elif not (ir.by_place(n) or isinstance(n, ir.Zones)):
                return self.first(n, env, via)
        return None

    def _read_unplaced(self, arg: _Arg):
        """_unplaced() of what a local is bound to: all of it, where it is one item."""
        if _whole(arg):
            return _through(arg, self._unplaced(arg.expr, arg.env, arg.via))
        return _through(arg, self.first(arg.expr, arg.env, arg.via))

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
            if found is None and e.over_cards and self.wherever and self._now(e.items, env):
                # each item lies where every seat sees it while the aggregate is worked
                # out (an expression does not pause): where it lies is public there
                inner[e.var] = _HERE
        for part in (e.body, e.where):
            if found is None and part is not None:
                found = self.first(part, inner, via)
        return found


_READ = object()  # what _size() gives where the cards themselves are read


def _through(arg: _Arg, found):
    """found, read through a say()'s local: naming the binding it was found through."""
    if found is None or not arg.named:
        return found
    node, via = found
    return node, (arg.named, *via)


def _whole(arg: _Arg) -> bool:
    """Is a local all of what it is bound to, not one item of it (a zone of zones is)?"""
    return not arg.pick or arg.expr.type == "zones"


def _item_size(items: ir.Expr) -> ir.Expr | None:
    """How many cards each item of items holds: one card of cards, k cards of each set of
    combinations(cards, k); None where the items differ (summing()'s sets, the sets of
    combinations(cards, j, k): which size a secret pick took is as secret as the pick)."""
    if items.type in ("cards", "zone"):
        return ir.Const(items.span, "int", 1)
    one_size = isinstance(items, ir.Call) and items.func == "combinations" and len(items.args) == 2
    return items.args[1] if one_size else None


_WHERE = ("zone_of", "above")  # what reads where a card lies now


def _what(node, zones: dict[str, ir.ZoneDef]) -> str:
    """What a read some seat may not see reads, in words."""
    if isinstance(node, ir.Call):  # zone_of(c), above(c), a zone worked out (say())
        return "where a card lies now, which some seats may not see"
    if isinstance(node, _Secret):  # a say()'s local
        return node.why
    if isinstance(node, ir.Memory):
        return f"the cards remembered as '{node.name}', which no seat's table shows"
    vis = zones[node.name].visibility
    return f"the cards of zone '{node.name}' (visibility: {vis}), which some seats may not see"


def _reading(node, via: tuple[str, ...], zones: dict[str, ir.ZoneDef]) -> str:
    """What a read some seat may not see reads, in words, through the named values and
    the locals it is reached through: what follows `reads` in a refusal."""
    through = f", through {' -> '.join(via)}," if via else ""
    return f"{through} {_what(node, zones)}"


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
    own = (
        "; a value of one player may read that player's own owner zones, hand(p), and is "
        "then shown to that player alone"
        if value.params
        else ""
    )
    return ir.EVERY_SEAT, Diagnostic(
        "RS415",
        f"'{value.name}' is shown at the table, but reads{_reading(node, via, zones)}",
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
    an assignment (a reaction's too, and its own let of a name the answered action uses:
    see _answered), a for loop's items, a choice's items, a procedure's parameter as
    every call's argument (the call declares it, as a block its let), an action's card
    as the zone it went to, its picked card as
    what it was chosen among and the zone its card went to (the log names the pick only
    to the seats that see the card played), its zone target as the zones it was chosen
    among and its player target as public (the play names it), a reaction's answering
    card as the zone it went to and the answered rule's names as bound there. A loop's
    or a choice's variable is an item of its set: its size() is one card, or the k of
    combinations(cards, k). A local bound by a secret pick (a secret number, a
    simultaneous pick), or where a test or loop over what some seat may not see decided that it was bound and how often (inside the block that
    declares it: the reads of a local declared in a block are all in it, where a say()
    tells that it ran), is hidden wherever it is read. Where a card lies now is not
    told: a zone worked out in play (`zone_of(c)`) nor the cards above one (`above(c)`)."""
    found = _Told(spec)
    if not found.said:
        return []
    envs = found.envs()
    problems = []
    for value, place in found.said:
        read = (value, ()) if _worked_out_zone(value) else found.reads.first(value, envs[place], ())
        if read is not None:
            problems.append(_told_problem(read[0], read[1], found.reads.zones, value))
    return problems


def counters_set(spec: ir.Spec) -> list[tuple[ir.Assign, str]]:
    """Each assignment to a counter every seat sees (all but those on cards, shown where
    their card is) whose value reads what some seat may not see, with what it reads in
    words: judged as told() judges a say()'s value, but for what the assignment's own
    block shows every seat (see _Told._shown: cards it reveals to `players`, or moves
    into a public zone), the lets before it there too, a procedure's argument that the
    calling block shows every seat, and where a card lies (zone_of(c) is read as the card is: the moves that put it there
    are public). Not a secret number: RL125 notes those, and knows a reveal()."""
    found = _Told(spec, wherever=False)
    if not found.counted:
        return []
    envs = found.envs()
    leaks = []
    for s, place, seen in found.counted:
        found.reads.seen = seen | found.passed
        read = found.reads.first(s.value, envs[place], ())
        if read is not None and not (isinstance(read[0], _Secret) and read[0].number):
            leaks.append((s, _reading(*read, found.reads.zones)))
    return leaks


def kept_through_redeal(spec: ir.Spec) -> list[tuple]:
    """Each read of a local that is no cards (a number, a kind, a player) bound from what
    some seat may not see before a point where the game pauses for a decision (a
    choice, a react(), chance, a procedure that pauses) and read after it, in the same
    rule or across a react(): in a reaction that answers the rule, or in the rule a
    reaction answers, after its react(). A search agent's re-deal at that pause deals
    the hidden cards again, but keeps the local's true value (docs/python.md, "Copying a
    state"). One per binding, as (its reads, first written first, the binding, the pause
    before the first read, what the binding reads in words, the test that decided the
    binding where that is what reads it, else None, whether the first read is in a
    reaction, and None).

    A procedure's parameter that is no cards is bound at each call as a let of it at the
    top of its effect would be, to the argument read at the call (the seat that decides
    at a pause named as the call names it): one per call and parameter, its last item
    (the parameter's name, the argument), the call as the binding.

    A binding is judged as told() judges a say()'s value, with the tests that decided it,
    but for its own local's other bindings (judged each on its own) and for the seat that
    decides at the pause: a choice's chooser (or the one player a react() asks) sees its
    own owner zones, and its re-dealt worlds keep them, as they keep the cards that lie,
    at the pause, where it sees them (_in_sight); and for the tests a pause tells every
    seat the outcome of (_told_by). Statements are taken in the order they are written, a
    loop's once; a local bound again before the read, on every way to it (_Flow.bound), is
    taken as bound there."""
    found = _Told(spec, wherever=False)
    bodies = [("setup", "setup", spec.setup, None)]
    bodies += [(p.name, "procedure", p.effect, None) for p in spec.procedures]
    # each block a rule runs on its own: a step's effect, or its pass_effect instead
    bodies += [
        (r.name, kind, block, r.condition if kind == "reaction" else None)
        for kind, r in spec.rules()
        for block in ir.iter_blocks(r)
    ]
    pausing = _through_calls(spec.procedures, _pauses)
    flows = [_Flow(found, *body, pausing) for body in bodies]
    envs: dict = {}

    def unseen(binding, pause, told: set, flow):
        """What a binding reads that the seat deciding at the pause may not see, but for
        the tests whose outcome every seat was told; `flow`: the binding's, where the
        pause and the read are in it too (one run of its effect), else None."""
        seat = _deciding(pause)
        if seat not in envs:
            envs[seat] = found.envs(seat)
        s, _, key, deciding = binding
        held = _in_sight(flow, pause, seat, envs[seat], found) if flow and seat else []
        seen = {key} | {(b.var, b.span.line, b.span.col) for b in held}
        # what a held card was chosen (or looped) from decides only how often its body
        # ran: once for each card the seat saw arrive
        items = {id(b.items if isinstance(b, ir.For) else b.source) for b in held}
        tests = ((g, a, g) for g, a in deciding if id(g) not in told | items)
        for e, at, test in ((s.value, found.at[id(s)], None), *tests):
            view = dict(at[1])  # the block locals in scope there, by their keys
            env = {k: b for k, b in envs[seat][at].items() if view.get(k, k) not in seen}
            found.reads.seen = found.seen_before[id(s)] if test is None else set()
            read = _kept(found.reads, e, env)
            found.reads.seen = set()
            if read is not None:
                return read, test
        return None

    kept: dict[int, tuple] = {}
    for binding, read, pauses, flow in _paths(spec, flows):
        told: set[int] = set()
        for pause in pauses:
            told |= _told_by(pause, found)
            why = id(read) not in kept and unseen(binding, pause, told, flow)
            if why:
                (node, via), test = why
                what = _reading(node, via, found.reads.zones)
                kept[id(read)] = (read, binding[0], pause, what, test)
    by_binding: dict[int, list] = {}  # one finding a binding, naming each read it reaches
    for k in sorted(kept.values(), key=lambda k: _at(k[0])):
        by_binding.setdefault(id(k[1]), []).append(k)
    reactions = {id(r) for f in flows if f.kind == "reaction" for r, _, _, _ in f.reads}
    return [
        ([k[0] for k in ks], *ks[0][1:], id(ks[0][0]) in reactions, None)
        for ks in by_binding.values()
    ] + _passed_through_pauses(found, flows, envs)


def _passed_through_pauses(found: _Told, flows: list[_Flow], envs: dict) -> list[tuple]:
    """kept_through_redeal() of the parameters that are no cards, each call's argument
    read at the call as a let of the parameter at the top of the effect would be (`envs`:
    the seats' envs, filled as they are needed)."""

    def unseen(call, arg, pause):
        """What an argument reads that the seat deciding at a pause in the procedure
        may not see: that seat as the call names it."""
        seat = _deciding(pause)
        names = [name for name, _ in found.procedures[call.proc].params]
        if seat in names:
            given = call.args[names.index(seat)]
            seat = given.name if isinstance(given, ir.Local) else None
        if seat not in envs:
            envs[seat] = found.envs(seat)
        found.reads.seen = found.seen_before[id(arg)]
        read = _kept(found.reads, arg, envs[seat][found.at[id(call)]])
        found.reads.seen = set()
        return read

    procedures = {f.scope: f for f in flows if f.kind == "procedure"}
    kept = []
    for call, param, arg in found.passes:
        flow, reads, first = procedures[call.proc], [], None
        for read, key, where, at in flow.reads:
            if key != param or flow.bound(key, (0, 0), at):
                continue
            why = next(
                ((p, w) for p in flow.between((0, 0), where) if (w := unseen(call, arg, p))), None
            )
            if why:
                reads.append(read)
                first = first or (why[0], _reading(*why[1], found.reads.zones))
        if reads:
            kept.append((reads, call, *first, None, False, (param, arg)))
    return kept


def _kept(reads: _Reads, e: ir.Expr, env: dict):
    """first() of what a re-deal keeps of a value: of a zone taken by place (`let pile =
    stock`, `hand(p)`) only which zone it is, whose cards a re-deal deals again."""
    if e.type == "zone" and reads._by_place(e, env):
        return reads._placed(e, env, ())
    return reads.first(e, env, ())


def _in_sight(flow: _Flow, pause, seat: str, envs: dict, found: _Told) -> list:
    """The choices and loops whose variable's cards lie, at the pause, where the seat
    deciding there sees them: moved by a statement of the body that binds the variable
    (so whenever the body runs: `move(c, hand(current))` in the choice of the card given)
    into a zone the seat sees, where no statement written between that move and the
    pause can move a card, let another rule run or set the local that names the seat,
    and no loop holds both the body and the pause (its next pass could move them on). A re-deal for the seat keeps those
    cards, so what was worked out from them tells it nothing it does not see."""
    held = []
    for body, move in flow.moves:
        if (
            _at(move) < _at(pause)
            and not flow.inside(pause, body)
            and not any(flow.inside(body, loop) and flow.inside(pause, loop) for loop in flow.loops)
            and all(
                _still(s, flow.pausing, seat) for s in flow.order if _at(move) < _at(s) < _at(pause)
            )
            and found.reads.first(move.args[1], envs[found.at[id(move)]], ()) is None
        ):
            held.append(body)
    return held


_STILL = ("say", "reveal")  # procedures that move no card


def _still(s: ir.Stmt, pausing: set[str], seat: str) -> bool:
    """Does a statement move no card, let no other rule run and leave the local `seat`
    as it is (a let, an assignment, a say; an if or a loop, whose statements are taken
    on their own)?"""
    if _pauses(s, pausing):
        return False
    if isinstance(s, ir.Do):
        return s.proc in _STILL
    if isinstance(s, ir.Assign):
        return not (isinstance(s.target, ir.Local) and s.target.name == seat)
    return isinstance(s, (ir.Let, ir.If, ir.For, ir.While))


def _at(node) -> tuple[int, int]:
    """Where a node is written: statements of one effect are taken in this order."""
    return node.span.line, node.span.col


_FOLLOW = ("cards",)  # a re-deal makes a local's cards the ones now lying where they lay


class _Flow:
    """One block a rule runs (its effect, or a step's pass_effect) or a procedure's
    effect, for kept_through_redeal(): the bindings of its locals that are no cards, its
    pauses and its reads of locals, by key, each with the place of its statement in the
    text."""

    def __init__(self, found: _Told, scope: str, kind: str, stmts, condition, pausing):
        self.scope, self.kind, self.pausing = scope, kind, pausing
        self.sets, self.pauses, self.reads = [], [], []
        self.top = tuple(stmts)
        # each statement's blocks, outermost first, as (block, its place in it): _Flow.bound
        self.chain: dict[int, tuple] = {}
        self._chain(self.top, ())
        self.order = list(ir.walk_statements(stmts))  # as written
        self.loops = [s for s in self.order if isinstance(s, (ir.For, ir.While))]
        # (a choice's or loop's statement, a move of its variable in its own body): _in_sight
        self.moves = [
            (s, m)
            for s in self.order
            if isinstance(s, (ir.For, ir.ChooseCard)) and not isinstance(s, ir.ChooseAll)
            for m in s.body
            if isinstance(m, ir.Do)
            and m.proc == "move"
            and isinstance(m.args[0], ir.Local)
            and m.args[0].name == s.var
            and isinstance(m.args[1], ir.ZoneRef)
        ]
        for s in self.order:
            if _pauses(s, pausing):
                self.pauses.append(s)
            view = dict(found.at[id(s)][1])
            for e in ir.iter_children(s):
                if isinstance(e, ir.Expr) and not (isinstance(s, ir.Assign) and e is s.target):
                    self._read(e, view, s)
        if condition is not None:  # tested as the window opens, before the effect
            self._read(condition, {}, None)
        for binding in found.sets:
            s = binding[0]
            typed = s.value if isinstance(s, ir.Let) else s.target
            if id(s) in self.chain and typed.type not in _FOLLOW:
                self.sets.append(binding)

    def _chain(self, block: tuple, outer: tuple) -> None:
        for i, s in enumerate(block):
            self.chain[id(s)] = (*outer, (block, i))
            for inner in ir.iter_blocks(s):
                self._chain(inner, self.chain[id(s)])

    def _read(self, e: ir.Expr, view: dict, s) -> None:
        """The locals e reads, at statement s (None: the reaction's condition, read first)."""
        for n in ir.walk(e):
            if isinstance(n, ir.Local) and not n.builtin:
                self.reads.append((n, view.get(n.name, n.name), _at(s) if s else (0, 0), s))

    def inside(self, s, outer) -> bool:
        """Is statement s inside the blocks of statement outer?"""
        return any(
            block is inner for block, _ in self.chain[id(s)] for inner in ir.iter_blocks(outer)
        )

    def between(self, after, before) -> list:
        """The pauses written after `after` and before `before` (places)."""
        return [p for p in self.pauses if after < _at(p) < before]

    def bound(self, key, after, s) -> bool:
        """Is the local bound again after the place `after`, on every way to statement s
        (None: the reaction's condition, which nothing comes before; _END: the effect's
        end)? By a statement of a block s is in, before s: an assignment that does not
        read the local (`given = given`, `n += 1` keep what it held), or an if, or a
        choice of branches, that binds it in each of its arms."""
        chain = ((self.top, len(self.top)),) if s is _END else self.chain.get(id(s), ())
        return any(after < _at(t) and self._binds(t, key) for block, i in chain for t in block[:i])

    def _binds(self, s, key) -> bool:
        """Does statement s bind the local again, whichever way it goes? A choice of
        branches goes none of them when none is offered: one must be offered always."""
        if isinstance(s, ir.ChooseBranch) and all(b.cond is not None for b in s.branches):
            return False
        if isinstance(s, (ir.If, ir.ChooseBranch)):
            return all(any(self._binds(t, key) for t in arm) for arm in ir.iter_blocks(s))
        return any(
            b[0] is s
            and b[2] == key
            and (isinstance(s, ir.Let) or s.op == "=")
            and not any(isinstance(n, ir.Local) and n.name == _name(key) for n in ir.walk(s.value))
            for b in self.sets
        )

    def reacts(self) -> list:
        return [p for p in self.pauses if isinstance(p, ir.Do) and p.proc == "react"]


_END = object()  # _Flow.bound: the effect's end


def _paths(spec: ir.Spec, flows: list[_Flow]):
    """(binding, read, the pauses between them, in order, the flow where all three are
    in one flow's run, else None) for each binding of a flow and each read of its local
    that may come after a pause: in the same flow, in a reaction that answers it (through
    its react()), in a rule a reaction answers (after its react())."""
    windows = {f.scope: f for f in flows if f.kind in ("action", "reaction")}
    answered = {r.name: _answered_by(r.name, spec.reactions) for r in spec.reactions}
    for flow in flows:
        for binding in flow.sets:
            yield from _within(flow, binding)
            if windows.get(flow.scope) is not flow or not isinstance(binding[2], str):
                continue  # a reaction shares only the top-level locals of what it answers
            answers = [windows[r] for r, above in answered.items() if flow.scope in above]
            yield from _into(flow, binding, answers)
            if flow.kind == "reaction":
                yield from _back(flow, binding, [windows[n] for n in answered[flow.scope]])


def _within(flow: _Flow, binding):
    """_paths() to the reads in the binding's own flow."""
    s, _, key, _ = binding
    for read, k, where, at in flow.reads:
        if k == key and where > _at(s) and not flow.bound(key, _at(s), at):
            yield binding, read, flow.between(_at(s), where), flow


def _into(flow: _Flow, binding, reactions: list[_Flow]):
    """_paths() to the reads in the reactions that answer the binding's flow, through
    its first react() after the binding."""
    s, _, key, _ = binding
    later = [p for p in flow.reacts() if _at(p) > _at(s)]
    if not later or flow.bound(key, _at(s), later[0]):
        return
    before = flow.between(_at(s), _at(later[0])) + [later[0]]
    for reaction in reactions:
        for read, k, where, at in reaction.reads:
            if k == key and not reaction.bound(key, (0, 0), at):
                yield binding, read, before + reaction.between((0, 0), where), None


def _back(flow: _Flow, binding, rules: list[_Flow]):
    """_paths() from a reaction's binding to the reads in the rules it answers, after
    the react() before each read."""
    s, _, key, _ = binding
    if flow.bound(key, _at(s), _END):
        return
    after = flow.between(_at(s), (1 << 30, 0))  # to the end
    for rule in rules:
        for read, k, where, at in rule.reads:
            opened = [_at(p) for p in rule.reacts() if _at(p) < where]
            if k == key and opened and not rule.bound(key, opened[-1], at):
                yield binding, read, after + rule.between(opened[-1], where), None


def _answered_by(name: str, reactions) -> set[str]:
    """The rules a reaction answers, through answers to answers."""
    answers = {r.name: r.answers for r in reactions}
    above, todo = set(), list(answers[name])
    while todo:
        rule = todo.pop()
        if rule not in above:
            above.add(rule)
            todo.extend(answers.get(rule, ()))
    return above


def _through_calls(procedures, does) -> set[str]:
    """The procedures whose effect has a statement s that does(s, found) holds for,
    `found` being the procedures found so far: through the procedures they call."""
    found: set[str] = set()
    while True:
        more = {
            p.name
            for p in procedures
            if p.name not in found and any(does(s, found) for s in ir.walk_statements(p.effect))
        }
        if not more:
            return found
        found |= more


def _pauses(s: ir.Stmt, pausing: set[str]) -> bool:
    """Does the game pause at this statement, for a choice or for chance?"""
    if isinstance(s, (ir.ChooseBranch, ir.ChooseCard, ir.ChooseNumber)):
        return True
    if isinstance(s, ir.Do) and s.proc in ir.PAUSES:
        return True
    if isinstance(s, ir.ProcedureCall):
        return s.proc in pausing
    own = (e for e in ir.iter_children(s) if isinstance(e, ir.Expr))
    return any(isinstance(n, ir.Call) and n.func in CHANCE for n in ir.walk(tuple(own)))


def _told_by(pause: ir.Stmt, found: _Told) -> set[int]:
    """The tests (ids) whose outcome a pause tells every seat: who is asked is no secret,
    so a choice by a local bound under a test (`loser = current` where the claim was
    false) tells which way it went."""
    who = pause.player if isinstance(pause, (ir.ChooseBranch, ir.ChooseCard)) else None
    if not isinstance(who, ir.Local) or isinstance(pause, ir.ChooseAll):
        return set()
    scope, view = found.at[id(pause)]
    key = dict(view).get(who.name, who.name)
    return {
        id(g) for s, sc, k, deciding in found.sets if (sc, k) == (scope, key) for g, _ in deciding
    }


def _deciding(pause: ir.Stmt) -> str | None:
    """The name of the one seat that decides at a pause, if one does: a choice's chooser,
    the player a react() asks (not a simultaneous pick, not chance)."""
    if isinstance(pause, ir.ChooseAll):
        return None
    who = pause.args[0] if isinstance(pause, ir.Do) and pause.proc == "react" else None
    if isinstance(pause, (ir.ChooseBranch, ir.ChooseCard, ir.ChooseNumber)):
        who = pause.player
    return who.name if isinstance(who, ir.Local) and who.type == "player" else None


def _to_every_seat(s) -> bool:
    """Is s a reveal() to `players`, every seat?"""
    to = s.args[1] if isinstance(s, ir.Do) and s.proc == "reveal" else None
    return isinstance(to, ir.Local) and to.builtin and to.name == "players"


def _each_revealed(s) -> list:
    """(zone, items) for a statement that reveals to every seat the zone of each item
    (a player): `for q in items { reveal(hand(q), players) }`, where the loop changes
    neither those zones nor whom the items name (see _changes), or
    `reveal(union(hand(q) for q in items), players)`."""
    if isinstance(s, ir.For):
        return [
            (t.args[0].name, s.items)
            for t in s.body
            if _to_every_seat(t)
            and _of_each(t.args[0], s.var)
            and not _changes(s.body, t.args[0].name, s.items)
        ]
    cards = s.args[0] if _to_every_seat(s) else None
    if isinstance(cards, ir.Aggregate) and cards.func == "union" and cards.where is None:
        return [(cards.body.name, cards.items)] if _of_each(cards.body, cards.var) else []
    return []


def _of_each(cards, var: str) -> bool:
    """Is this the whole zone of the player `var` (`hand(q)`)?"""
    return (
        isinstance(cards, ir.ZoneRef)
        and cards.index is None
        and isinstance(cards.owner, ir.Local)
        and cards.owner.name == var
    )


def _changes(stmts, zone: str, items) -> bool:
    """May these statements change the cards of a zone of this name, or which players
    the items name, so that a read of the zone of each item after them reads cards no
    reveal before them showed: a move, an insert, a swap or a refill that may go there,
    a set_current() (the items may read `current`), a let or an assignment of a local
    the items read, or what may do anything (a procedure, a reaction)?"""
    names = {n.name for n in ir.walk(items) if isinstance(n, ir.Local) and not n.builtin}
    for s in ir.walk_statements(stmts):
        if isinstance(s, ir.ProcedureCall) or (
            isinstance(s, ir.Do) and s.proc in ("react", "set_current")
        ):
            return True
        set_local = isinstance(s, ir.Assign) and isinstance(s.target, ir.Local)
        if (isinstance(s, ir.Let) and s.name in names) or (set_local and s.target.name in names):
            return True
        if isinstance(s, ir.Do) and s.proc in _INTO:
            into = (s.args[k] for k in _INTO[s.proc])
            if any(not isinstance(to, ir.ZoneRef) or to.name == zone for to in into):
                return True
    return False


_INTO = {"move": (1,), "insert": (1,), "refill": (0,), "swap": (0, 1)}  # the zones filled
_MOVED = ("shuffle", *_INTO)  # what changes which card lies at a place of a zone


def _zones_of(e, args: dict) -> set[str] | None:
    """The zones an expression (or a tuple of them) reads cards of, its locals of cards
    read as `args` binds them; None where it reads a local `args` does not bind, whose
    cards may lie anywhere."""
    zones = set()
    for n in ir.walk(e):
        if isinstance(n, (ir.ZoneRef, ir.Zones)):
            zones.add(n.name)
        elif isinstance(n, ir.Local) and n.type in ir.OF_CARDS:
            if args.get(n.name) is None:
                return None
            zones |= args[n.name]
    return zones


_EVERY_SEAT = ir.canon(ir.Local(None, "players", "players", True))
_AMONG = ("others", "partners")  # players that `players` holds all of


def _covered(zone: str, items, shown: set) -> bool:
    """Is the zone of each of these items (players) shown every seat: the zone of each
    of the same items, or of every player (`players` holds others(p) too)?"""
    if items is None:
        return False
    among = ir.canon(items) == _EVERY_SEAT or (isinstance(items, ir.Call) and items.func in _AMONG)
    return (zone, ir.canon(items)) in shown or (among and (zone, _EVERY_SEAT) in shown)


def _seen_in(e, shown: set) -> set:
    """The nodes of e (ids) that are cards shown every seat (see _Told._shown): one
    shown as it is, or the zone of an aggregate's item whose every such zone is."""
    seen = set()
    stack = [(e, {})]
    while stack:
        n, items = stack.pop()
        owner = getattr(n, "owner", None)
        if ir.canon(n) in shown or (
            _of_each(n, getattr(owner, "name", ""))
            and _covered(n.name, items.get(owner.name), shown)
        ):
            seen.add(id(n))
            continue
        if isinstance(n, ir.Aggregate):  # its body and filter read each item as n.var
            inner = {**items, n.var: n.items}
            stack.extend((part, inner) for part in (n.body, n.where) if part is not None)
            stack.append((n.items, items))
        else:
            stack.extend((child, items) for child in ir.iter_children(n))
    return seen


def asked_unseen(spec: ir.Spec) -> list[tuple[ir.Stmt, ir.Expr, str, bool]]:
    """Each decision asked only where a test reads what some seat may not see (the
    tests of the ifs and whiles around it, how many items the loops around it have, a
    choice's own source and filter: see _choice_tests), with that test, what it reads in
    words and whether it is the choice's own: every seat's log shows each decision
    asked (a secret one as "P1 chooses a card"), so whether it is asked tells every seat
    how the test came out. The test is read as RL131 reads a counter's value (see
    counters_set), the cards its block shows every seat being public. A say() under
    such a test is the rules' choice to tell it (RS415 does not read its tests), a
    decision is not."""
    found = _Told(spec, wherever=False)
    if not any(tests or own for _, tests, own in found.asked):
        return []
    envs = found.envs()
    leaks = []
    for s, tests, own in found.asked:
        for test, place, seen in (*tests, *own):
            found.reads.seen = seen | found.passed
            read = found.reads.first(test, envs[place], ())
            if read is not None:
                what = _reading(*read, found.reads.zones)
                leaks.append((s, test, what, any(test is t for t, _, _ in own)))
                break
    return leaks


def first_asked(spec: ir.Spec, stmts, seen=None) -> ir.Stmt | None:
    """The first decision these statements ask, in the procedures they call too (each
    followed once): what RL133 names at a call."""
    seen = set() if seen is None else seen
    for s in ir.walk_statements(stmts):
        if isinstance(s, (ir.ChooseBranch, ir.ChooseCard, ir.ChooseNumber)):
            return s
        if isinstance(s, ir.ProcedureCall) and s.proc not in seen:
            seen.add(s.proc)
            effect = next(p.effect for p in spec.procedures if p.name == s.proc)
            if (found := first_asked(spec, effect, seen)) is not None:
                return found
    return None


def _deciding_tests(s, asking: set[str]) -> tuple:
    """The tests of s that decide whether, and how often, a decision inside it is
    asked: an if's or a while's test, how many items a loop has (a choice's block runs
    once, whichever was chosen). Not an if that asks a decision in either arm: a fork
    laid out in the open (a challenge's loser, then the winner, choose a card to lose),
    which the rules show as they show a say() under it."""
    if isinstance(s, ir.If) and not all(_asks(arm, asking) for arm in (s.then, s.orelse)):
        return (s.cond,)
    if isinstance(s, ir.While):
        return (s.cond,)
    if isinstance(s, ir.For):
        return (ir.Call(s.items.span, "int", "size", (s.items,)),)
    return ()


def _choice_tests(s, place: tuple, at: tuple) -> tuple:
    """The tests of a choice of cards or of a number that decide whether it is asked at
    all, each with the place it is read at: that its source holds an item (see
    _emptiness), or its range a number (`low..high`), and its filter, read where its
    variable is bound to an item of the source (`if x.rank > 5`), or, for a number, where
    it is not bound (a number of the range is public, the one chosen is not): with no
    item passing, it is not asked."""
    if isinstance(s, ir.ChooseNumber):
        tests = ((s.low, place), (s.high, place))
        return tests if s.where is None else (*tests, (s.where, place))
    if not isinstance(s, ir.ChooseCard):
        return ()
    tests = tuple((test, place) for test in _emptiness(s.source))
    return tests if s.where is None else (*tests, (s.where, at))


def _emptiness(items: ir.Expr) -> tuple:
    """What tells whether items hold any: the size() of cards (a hand's is public, its
    cards by kind are not: `of(hand(p), k)`), the cards a set of combinations is taken
    from (k of a hand are there to take where it holds k), each part of a sum of sets,
    and other items themselves (`range(size(hand(p)))`)."""
    if isinstance(items, ir.Call) and items.func == "combinations":
        return _emptiness(items.args[0])
    if isinstance(items, ir.Binary) and items.type not in ("cards", "zone"):
        return (*_emptiness(items.left), *_emptiness(items.right))
    if items.type in ("cards", "zone"):
        return (ir.Call(items.span, "int", "size", (items,)),)
    return (items,)


def _asks(stmts, asking: set[str]) -> bool:
    """Does a block ask a decision, in any of its statements (`asking`: the procedures
    that ask one, through the procedures they call)?"""
    return any(_asks_here(s, asking) for s in ir.walk_statements(stmts))


def _asks_here(s: ir.Stmt, asking: set[str]) -> bool:
    """Is this statement a decision, or a call of a procedure that asks one?"""
    return isinstance(s, (ir.ChooseBranch, ir.ChooseCard, ir.ChooseNumber)) or (
        isinstance(s, ir.ProcedureCall) and s.proc in asking
    )


def _worked_out_zone(e) -> bool:
    """A zone that is not named (a zone, a family's, a local bound to one): zone_of()."""
    return isinstance(e, ir.Expr) and e.type == "zone" and not isinstance(e, (ir.ZoneRef, ir.Local))


def _name(key) -> str:
    """A local's name, from its key: the name, or (name, line, column) in a block."""
    return key if isinstance(key, str) else key[0]


def _where_played(name: str, where, place: tuple, rule):
    """An action's or reaction's card as the zone it went to, or its target as the zones
    it was chosen among; a secret where there is none."""
    if where is None:
        return _Secret(f"'{name}', bound by a secret pick (line {rule.span.line})")
    return where, place, False, rule.span.line


class _Told:
    """What binds each local of each rule and procedure (its scope), the values say()
    texts name and the assignments to counters, found in one pass over the spec's effects.

    A local is keyed by its name where its effect's top level declares it (a reaction
    shares those), and by (name, line, column) where a block does (a loop's or a
    choice's variable, a block's let): a name used again once its block has ended is
    another local (docs/language.md, "Scoping"). An expression is read at a place,
    (scope, the block locals in scope there as (name, key) pairs)."""

    def __init__(self, spec: ir.Spec, wherever: bool = True):
        self.reads = _Reads(
            {z.name: z for z in spec.zones},
            {c.name: c for c in spec.conditions},
            {g.name: g.zone for g in spec.goals},
            wherever=wherever,
        )
        self.procedures = {p.name: p for p in spec.procedures}
        self.asking = _through_calls(spec.procedures, _asks_here)  # they ask a decision
        # (scope, key) -> [(expr, its place, is it a loop's or choice's item, its line) or
        # a _Secret]; the tests and loops' items, with their places, that decided each
        # binding inside the block that declares the local; how many tests stood around
        # each declaration
        self.bindings: dict[tuple, list] = {}
        self.guards: dict[tuple, list] = {}
        self.declared: dict[tuple, int] = {}
        # (scope, name, value, guards) of each binding, with all the tests around it; and
        # each rule's locals in scope at a react(): the answers write them (see _answered)
        self.made: list[tuple] = []
        self.live: dict[str, set] = {}
        self.said: list[tuple[ir.Expr, tuple]] = []  # (a value said, its place)
        # (an assignment to a counter every seat sees, its place, the nodes it reads
        # that its block shows every seat): counters_set()
        self.counted: list[tuple[ir.Assign, tuple, set]] = []
        # the arguments of procedure calls that the calling block shows every seat (a
        # card moved onto a public pile, then passed on): read as public by lint
        self.passed: set[int] = set()
        # (a decision, the tests around it that decide whether and how often it is
        # asked, and those of its own source and filter, each with its place and the
        # nodes of it its block shows every seat): asked_unseen()
        self.asked: list[tuple[ir.Stmt, tuple, tuple]] = []
        self.on_cards = {c.name for c in spec.counters if c.per_card}
        # each binding of a local by a let or an assignment, (statement, scope, key, the
        # tests that decided it); and each statement's place: kept_through_redeal()
        self.sets: list[tuple] = []
        self.at: dict[int, tuple] = {}
        # the nodes of each such binding's value that its block showed every seat
        # before it (see _seen_at): a re-deal keeps those cards, as every seat saw them
        self.seen_before: dict[int, set] = {}
        # (a call, a parameter that is no cards, its argument): kept_through_redeal()
        self.passes: list[tuple] = []
        self.walk(spec.setup, "setup", (), {}, True)
        for p in spec.procedures:
            self.walk(p.effect, p.name, (), {}, True)
        hand = self.reads.zones.get(spec.hand)  # None: no hand, or an unknown one (refused)
        hand_public = hand is not None and hand.visibility == "public"
        for kind, rule in spec.rules():
            self.walk(ir.body(rule), rule.name, (), {}, True)
            top = (rule.name, ())
            if kind == "action":
                self.bind(rule.name, "card", _where_played("card", rule.to, top, rule))
                name = "chosen" if rule.target == "card" else "target"
                if rule.target in ("other", "any"):  # a player, named in the option: public
                    self.bind(rule.name, name, (ir.Const(rule.span, "player", 0), top, False, 0))
                else:
                    self.bind(rule.name, name, _where_played(name, rule.among, top, rule))
                if name == "chosen" and rule.card is not None and not hand_public:
                    # the play's event names the pick to the seats that see the card played
                    self.bind(rule.name, name, _where_played(name, rule.to, top, rule))
            elif kind == "reaction" and rule.card is not None:
                self.bind(rule.name, "answer", _where_played("answer", rule.to, top, rule))
        self._answered(spec.reactions)

    def _answered(self, reactions) -> None:
        """A reaction reads the answered rule's names as bound there, through answers to
        answers. Every rule of a chain runs in its action's one table of locals, so what
        a reaction binds (`guarded = 1`, or a `let` of its own of the same name) binds
        the locals of that name in scope at the react() of each rule its chains answer,
        under all the tests around it there."""
        linked: set[tuple] = set()
        while True:
            links = {
                (r.name, key, answered)
                for r in reactions
                for answered in r.answers
                for scope, key in list(self.bindings)
                if scope == answered and isinstance(key, str)
            } - linked
            if not links:
                break
            for scope, name, answered in links:
                local = ir.Local(ir.Span("<say>", 1, 1), "", name)
                self.bind(scope, name, (local, (answered, ()), False, None))
            linked |= links
        answers = {r.name: r.answers for r in reactions}
        for r in reactions:
            above, todo = set(), list(r.answers)
            while todo:
                rule = todo.pop()
                if rule not in above:
                    above.add(rule)
                    todo.extend(answers.get(rule, ()))
            for scope, name, value, guards in self.made:
                if scope != r.name:
                    continue
                for rule in above:
                    for key in self.live.get(rule, ()):
                        if _name(key) == name:
                            self.bind(rule, key, value, guards)

    def bind(self, scope: str, key, value, guards=()) -> None:
        """The local `key` of `scope` holds value ((expr, place, pick, line) or a
        _Secret), bound where `guards` decided that it would be."""
        if self.reads.wherever and not isinstance(value, _Secret) and _worked_out_zone(value[0]):
            value = _Secret(f"'{_name(key)}', bound to where a card lies now (line {value[3]})")
        self.bindings.setdefault((scope, key), []).append(value)
        self.guards.setdefault((scope, key), []).extend(guards)

    def walk(self, stmts, scope: str, guards: tuple, view: dict, top: bool, asking=()) -> None:
        view = dict(view)  # a block's own lets are gone once it ends
        for i, s in enumerate(stmts):
            place = (scope, tuple(view.items()))
            self.at[id(s)] = place
            inner = view  # the block locals in scope in the blocks inside
            if isinstance(s, ir.Let):
                key = s.name if top else (s.name, s.span.line, s.span.col)
                self.declared[(scope, key)] = len(guards)
                value = (s.value, place, False, s.span.line)
                self.bind(scope, key, value)
                self.sets.append((s, scope, key, ()))
                self.seen_before[id(s)] = self._seen_at(s.value, stmts, i, after=False)
                self.made.append((scope, s.name, value, guards))
                if not top:
                    view[s.name] = key
            elif isinstance(s, ir.Assign) and isinstance(s.target, ir.Local):
                key = view.get(s.target.name, s.target.name)
                # the tests around its declaration stand around every read of it too
                deciding = guards[self.declared.get((scope, key), 0) :]
                value = (s.value, place, False, s.span.line)
                self.bind(scope, key, value, deciding)
                self.sets.append((s, scope, key, deciding))
                self.seen_before[id(s)] = self._seen_at(s.value, stmts, i, after=False)
                self.made.append((scope, s.target.name, value, guards))
            elif isinstance(s, (ir.For, ir.ChooseCard, ir.ChooseNumber)):
                key = (s.var, s.span.line, s.span.col)
                inner = {**view, s.var: key}
                if isinstance(s, (ir.ChooseAll, ir.ChooseNumber)):  # a secret pick
                    why = f"'{s.var}', bound by a secret pick (line {s.span.line})"
                    value = _Secret(why, isinstance(s, ir.ChooseNumber))
                else:
                    items = s.items if isinstance(s, ir.For) else s.source
                    value = (items, place, True, s.span.line)
                self.bind(scope, key, value)
                self.made.append((scope, s.var, value, guards))
            else:
                self._note(s, scope, place, view, (stmts, i))
            # what decides whether, and how often, the blocks inside run: an if's or a
            # while's test, a loop's items, a choice's items (the chosen branch is
            # public), read where the block's variable is bound (a choice's `if`)
            tests = () if isinstance(s, ir.ChooseBranch) else ir.iter_children(s)
            at = (scope, tuple(inner.items()))
            inside = guards + tuple((c, at) for c in tests if isinstance(c, ir.Expr))
            deciding = asking + tuple(
                (test, place, self._seen_at(test, stmts, i))
                for test in _deciding_tests(s, self.asking)
            )
            if _asks_here(s, self.asking):  # a call's decisions are asked where it stands
                own = tuple(
                    (test, where, self._seen_at(test, stmts, i))
                    for test, where in _choice_tests(s, place, at)
                )
                self.asked.append((s, asking, own))
            for block in ir.iter_blocks(s):
                self.walk(block, scope, inside, inner, False, deciding)

    def _note(self, s, scope: str, place: tuple, view: dict, at) -> None:
        """A statement that binds no local of its own: a react() (the answers write the
        locals in scope there), a procedure's call (its parameters), an assignment to a
        counter every seat sees, a say()."""
        if isinstance(s, ir.Do) and s.proc == "react":
            tops = {k for sc, k in self.declared if sc == scope and isinstance(k, str)}
            self.live.setdefault(scope, set()).update(tops, view.values())
        elif isinstance(s, ir.ProcedureCall):
            # a parameter is declared by the call, as a block's let is by its block: the
            # tests around the call decide whether the body runs, not what it reads
            for (param, kind), arg in zip(self.procedures[s.proc].params, s.args):
                self.bind(s.proc, param, (arg, place, False, s.span.line))
                self.passed |= self._seen_at(arg, *at)
                if kind not in _FOLLOW:  # kept_through_redeal() reads it as a let's value
                    self.seen_before[id(arg)] = self._seen_at(arg, *at, after=False)
                    self.passes.append((s, param, arg))
        elif (
            isinstance(s, ir.Assign)
            and isinstance(s.target, ir.Counter)
            and s.target.name not in self.on_cards
        ):
            self.counted.append((s, place, self._seen_at(s.value, *at)))
        elif isinstance(s, ir.Do) and s.proc == "say":
            self.said.extend((value, place) for value in s.args[1:])

    def _shown(self, stmts, i: int, after: bool = True) -> set:
        """What the block of its i-th statement shows every seat (canon): a local's cards
        it reveals to `players`, the cards of a zone it reveals to `players` before that
        statement where nothing between may change them (see _changes), a local's cards
        it moves into a public zone, and what it moves into one after that statement
        (before, a `top` would be another card);
        and, as (zone, items), a zone of each item that it reveals to `players` before
        that statement (`for q in others(w) { reveal(hand(q), players) }`, or
        `reveal(union(hand(q) for q in others(w)), players)`), where nothing between
        the reveal and the statement may change those zones' cards or whom the items
        name (see _changes). Not `after`: only what it shows before that statement."""
        shown = set()
        for j, s in enumerate(stmts if after else stmts[:i]):
            if j < i:
                shown |= {
                    (zone, ir.canon(items))
                    for zone, items in _each_revealed(s)
                    if not _changes(stmts[j + 1 : i], zone, items)
                }
            if not isinstance(s, ir.Do) or s.proc not in ("reveal", "move"):
                continue
            cards, to = s.args[:2]
            if s.proc == "reveal" and isinstance(cards, ir.Local):
                public = _to_every_seat(s)  # the same cards, wherever they lie
            elif s.proc == "reveal":
                # what a zone holds is shown as it is at the reveal: not a read
                # before it, nor one after a change of those cards (see _changes)
                zones = {z.name for z in ir.walk(cards) if isinstance(z, ir.ZoneRef)}
                public = (
                    _to_every_seat(s)
                    and j < i
                    and not any(_changes(stmts[j + 1 : i], z, cards) for z in zones)
                )
            else:
                zone = isinstance(to, ir.ZoneRef) and self.reads.zones.get(to.name)
                public = (
                    zone
                    and zone.visibility == "public"
                    and (
                        isinstance(cards, ir.Local)
                        or (j > i and not self._moves(stmts[i:j], cards))
                    )
                )
            if public:
                shown.add(ir.canon(cards))
        return shown

    def _moves(self, stmts, cards, args=None, calling=()) -> bool:
        """May these statements change which cards an expression that takes them by
        place names (`top(stock, 1)`): move, insert, swap, refill or shuffle cards of a
        zone it reads (a local's cards, from wherever they lie), or let another rule run?
        A procedure called is followed, once on a path, its parameters bound to the
        zones its arguments read (`args`: a parameter -> those zones, None: any zone),
        so a call that moves the top it is passed changes what a later move names."""
        args, zones = args or {}, _zones_of(cards, {})
        for s in ir.walk_statements(stmts):
            if isinstance(s, ir.Do) and (s.proc == "react" or s.proc in _MOVED):
                touched = _zones_of(s.args, args)
                if s.proc == "react" or None in (touched, zones) or touched & zones:
                    return True
            callee = isinstance(s, ir.ProcedureCall) and self.procedures.get(s.proc)
            if callee and s.proc not in calling:
                inner = {name: _zones_of(a, args) for (name, _), a in zip(callee.params, s.args)}
                if self._moves(callee.effect, cards, inner, (*calling, s.proc)):
                    return True
        return False

    def _seen_at(self, e, stmts, i: int, after: bool = True) -> set:
        """The nodes of e, read at the i-th statement of its block, that the block shows
        every seat (ids, see _shown); and those of the lets before it there, each as
        shown where it reads (`let won = sum(…hand(q)… for q in others(w))` after the
        reveal of every such hand). Not `after`: only what it shows before them."""
        seen = _seen_in(e, self._shown(stmts, i, after))
        for k, s in enumerate(stmts[:i]):
            if isinstance(s, ir.Let):
                seen |= _seen_in(s.value, self._shown(stmts, k, after))
        return seen

    def envs(self, seat: str | None = None) -> dict:
        """Each place's locals as the reader takes them: each local's bindings, read
        where it is used; a _Secret for one bound by a secret pick, or under a test or
        loop that reads what some seat may not see (through other locals too). With
        `seat`, the player that name holds is the one seat the values are judged for
        (its own owner zones are seen)."""
        places = {place for _, place in self.said} | {c[1] for c in self.counted}
        places |= {place for _, tests, own in self.asked for _, place, _ in (*tests, *own)}
        places |= {v[1] for vs in self.bindings.values() for v in vs if isinstance(v, tuple)}
        places |= {place for guards in self.guards.values() for _, place in guards}
        scopes = {scope for scope, _ in self.bindings} | {scope for scope, _ in places}
        tops: dict = {scope: {} for scope in scopes}  # each scope's locals, by key
        envs: dict = {place: {} for place in places}
        secret = {
            key: next(v for v in values if isinstance(v, _Secret))
            for key, values in self.bindings.items()
            if any(isinstance(v, _Secret) for v in values)
        }
        while True:
            for (scope, key), values in self.bindings.items():
                tops[scope][key] = secret.get((scope, key)) or tuple(
                    _Arg(
                        e,
                        envs[at],
                        (),
                        pick,
                        f"'{_name(key)}' (bound at line {line})" if line else "",
                    )
                    for e, at, pick, line in values
                )
            for (scope, view), env in envs.items():  # filled in place: _Args hold them
                env.clear()
                env.update((k, b) for k, b in tops[scope].items() if isinstance(k, str))
                env.update((name, tops[scope][key]) for name, key in view)
                if seat is not None:
                    env[seat] = _SEAT
            grown = {}
            for key, guards in self.guards.items():
                if key in secret:
                    continue
                found = next(
                    ((g, read) for g, at in guards if (read := self.reads.first(g, envs[at], ()))),
                    None,
                )
                if found is not None:
                    # name what the test reads: a test that looks public, size(played),
                    # may hide the value only through a local bound to a secret pick
                    test, (node, via) = found
                    grown[key] = _Secret(
                        f"'{_name(key[1])}', bound under a test or loop at line "
                        f"{test.span.line} that reads{_reading(node, via, self.reads.zones)}"
                    )
            if not grown:
                return envs
            secret |= grown


def _told_problem(node, via, zones, value) -> Diagnostic:
    """RS415 at the value said, naming what it reads (through the named values and
    conditions it calls, and the locals that bind it)."""
    return Diagnostic(
        "RS415",
        f"say() tells every seat the values it names, but this one reads"
        f"{_reading(node, via, zones)}",
        value.span,
        hint="name only what every seat sees: counters, any zone's size(), the cards of "
        "public zones (a card moved to one is named where it lies, top(discard, 1)); a "
        "reveal() before the say() does not change what it may name: to show hidden cards, "
        "reveal() them instead",
    )
