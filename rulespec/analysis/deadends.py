"""Layer-1 checks of dead ends and silent states (issue 31).

Each check is a generator over an Analysis (rulespec.analysis.lint) that yields bare
findings, as lint's own checks do; lint.static runs them after its own.

- RL117: a rule whose effect changes nothing that anything reads: every statement of
  it sets a counter or memory that no condition, effect or evaluation reads (the read
  set of RL116), or, in a reaction, a local of the rule it answers that that rule
  never reads (a block that lowers a value the action no longer looks at).
  An action that plays a card is not judged: the play changes the hand.
- RL118: a card property that no rule, condition, evaluation or goal names.
- RL119: an absorbing state the spec did not mean as an end: cards of some type that
  enter a zone and that no rule can move out again, where a rule's condition (not an
  end's) tests that zone; or a value of a counter that, once set, no rule changes
  again and under which no end condition or winning rule can hold.
"""

from __future__ import annotations

from ..lang import ir
from . import graph as graphs
from .lint import Analysis, Finding, _body, _read_props, _types_text, local_reads, props_named
from .progress import _MIRROR, _counted, read_anywhere

ALL = "*"  # any card type


# --- RL117 ----------------------------------------------------------------------------


def _answered_reads(spec: ir.Spec, answered: str) -> set[str]:
    """The locals an answered rule reads, with the rules it answers in turn (a chain)."""
    rules = {p.name: p for p in (*spec.actions, *spec.reactions)}
    todo, seen, reads = [answered], set(), set()
    while todo:
        name = todo.pop()
        if name in seen or name not in rules:
            continue
        seen.add(name)
        reads |= local_reads(rules[name].effect)
        todo += getattr(rules[name], "answers", ())
    return reads


def check_silent_rules(an: Analysis):
    """RL117: rules whose effect is only writes nothing reads; for a reaction, that
    none of the rules it answers reads (each judged on its own)."""
    read = read_anywhere(an)
    for nid, part in graphs.rules_of(an.spec):
        if part is None or (nid.kind == "action" and part.to is not None):
            continue  # the setup; an action that plays a card changes the hand
        effect, deaf = _body(an.spec, part), ""
        if nid.kind == "reaction":
            heard = {
                a: _silent_writes(effect, read, _answered_reads(an.spec, a)) for a in part.answers
            }
            names = [a for a, silent in heard.items() if silent]
            silent = heard[names[0]] if names else []
            deaf = f", which {' and '.join(names)} never read{'s' if len(names) == 1 else ''}"
        else:
            silent = _silent_writes(effect, read, None)
        if silent:
            yield Finding(
                "RL117",
                "warning",
                f"{nid.kind} '{nid.name}': its effect changes nothing that any rule, end or "
                f"evaluation reads (it sets only {', '.join(silent)}{deaf})",
                part.span,
                rules=(nid.name,),
                hint="make the rules read what it sets, or make it change what they read",
            )


def _silent_writes(effect, read, answered) -> list[str]:
    """The writes of an effect, named, when they are all silent (a local, when the
    locals `answered` reads leave it out); else []."""
    own = local_reads(effect)
    silent = []
    for s in ir.walk_statements(effect):
        if isinstance(s, (ir.If, ir.For, ir.While, ir.Let)):
            continue  # their bodies are walked; a let binds for the effect itself
        if not isinstance(s, ir.Assign):
            return []  # a move, a call, a choice: something happens
        t = s.target
        if isinstance(t, ir.Counter) and ("counter", t.name) not in read:
            silent.append(f"counter '{t.name}'")
        elif isinstance(t, ir.Memory) and ("memory", t.name) not in read:
            silent.append(f"memory '{t.name}'")
        elif isinstance(t, ir.Local) and answered is not None and t.name not in own | answered:
            silent.append(f"'{t.name}'")
        else:
            return []
    return sorted(set(silent))


# --- RL118 ----------------------------------------------------------------------------


def check_unread_props(an: Analysis):
    """RL118: properties of written card types that nothing names. A `deck.build`
    family's properties name and title its cards and are tags besides: they are not
    judged."""
    spec = an.spec
    named = _read_props(spec) | _props_outside(spec)
    seen = {name for c in spec.cards if c.family is not None for name, _ in c.props}
    for c in spec.cards:
        for name, _ in c.props:
            if name in named or name in seen:
                continue
            seen.add(name)
            yield Finding(
                "RL118",
                "info",
                f"card property '{name}' is never read: no rule, condition or evaluation names it",
                c.span,
                hint="read it where the rules say so (`card.NAME`), or remove it",
            )


def _props_outside(spec: ir.Spec) -> set[str]:
    """The properties the evaluation, the payoff, the turn order and the counters'
    initial values read."""
    parts = (
        spec.evaluation,
        spec.payoff and spec.payoff.value,
        spec.turn_order,
        *(c.initial for c in spec.counters),
    )
    return props_named(parts)


# --- RL119 ----------------------------------------------------------------------------


class _Flows:
    """Which card types can enter and leave each zone in play (the setup's moves are not
    play); None for the whole when some move's cards cannot be placed."""

    def __init__(self, an: Analysis):
        self.an, self.every = an, set(an.members["any"])
        self.enter: dict[str, set[str]] = {}
        self.leave: dict[str, set[str]] = {}
        self.known = True
        spec = an.spec
        for nid, part in graphs.rules_of(spec):
            if part is None:
                continue
            roles = self._roles(nid.kind, part)
            if nid.kind in ("action", "reaction") and part.to is not None:
                played = roles["card" if nid.kind == "action" else "answer"]
                self._flow(played, part.to)
            self._block(_body(spec, part), roles)
        for proc in spec.procedures:
            self._block(proc.effect, {})
        for z in spec.zones:
            if z.refill_from:
                self._flow(({z.refill_from}, self.every), z.name)

    def _roles(self, kind, part) -> dict:
        """The played card, the answering card and the picked card of a rule, as
        (zones, card types)."""
        if kind == "action":
            return {
                "card": ({self.an.spec.hand}, self._types(part.card)),
                "chosen": self._cards(part.among, {}) if part.among is not None else None,
            }
        if kind == "reaction":
            return {"answer": ({self.an.spec.hand}, self._types(part.card))}
        return {}

    def _types(self, kind) -> set[str]:
        return set(self.an.members.get(kind, self.every)) if kind else self.every

    def _block(self, block, roles):
        bound = dict(roles)
        for s in ir.walk_statements(block):
            if isinstance(s, ir.ChooseCard):
                bound[s.var] = self._cards(s.source, bound)
            elif isinstance(s, ir.Let) and s.value.type == "cards":
                bound[s.name] = self._cards(s.value, bound)
            elif isinstance(s, ir.Do) and s.proc in ("move", "insert"):
                self._flow(self._cards(s.args[0], bound), s.args[1])
            elif isinstance(s, ir.Do) and s.proc == "swap":
                for src, dest in (s.args, s.args[::-1]):
                    self._flow(self._cards(src, bound), dest)

    def _cards(self, e, bound):
        """(the zones an expression's cards come from, the types they can be), or None."""
        if isinstance(e, ir.Call) and e.func in ("of", "one") and isinstance(e.args[1], ir.Kind):
            inner = self._cards(e.args[0], bound)
            return inner and (inner[0], inner[1] & self._types(e.args[1].name))
        if isinstance(e, ir.Call) and e.func in ("without", "top", "random", "bottom"):
            return self._cards(e.args[0], bound)
        if isinstance(e, ir.Local):
            return bound.get(e.name)
        if isinstance(e, ir.Binary) and e.op == "+":
            a, b = self._cards(e.left, bound), self._cards(e.right, bound)
            return a and b and (a[0] | b[0], a[1] | b[1])
        if isinstance(e, ir.Aggregate) and e.func == "union":
            return self._cards(e.body, bound)
        zones = graphs.zones_in(e)
        return (zones, self.every) if zones else None

    def _flow(self, cards, dest):
        """Cards moved into `dest`, an expression or a zone's name. Cards a player puts
        in a zone of their own (`tableau(current)`) are their choice, not a state imposed
        on them: only the others count as entering."""
        dests = {dest} if isinstance(dest, str) else graphs.zones_in(dest)
        if cards is None or not dests:
            self.known = False
            return
        zones, types = cards
        for z in zones:
            self.leave.setdefault(z, set()).update(types)
        own = isinstance(dest, ir.ZoneRef) and isinstance(dest.owner, ir.Local)
        if not (own and dest.owner.name in ("current", "reactor")):
            for z in dests:
                self.enter.setdefault(z, set()).update(types)


def check_absorbing(an: Analysis):
    """RL119: cards that enter a zone for good, where a rule (not an end) tests that
    zone, or an end counts those cards elsewhere; a counter value set for good under
    which nothing can end the game."""
    yield from _absorbing_zones(an)
    yield from _absorbing_values(an)


def _absorbing_zones(an: Analysis):
    flows = _Flows(an)
    if not flows.known:
        return  # a move whose cards cannot be placed: any zone might be left
    spec = an.spec
    goal_kinds = {k for g in spec.goals for k, _ in g.order}  # collected: meant to stay
    ends = spec.end_conditions + (spec.rounds.match_end if spec.rounds else ())
    filled = {z for e in ends for z in graphs.zones_in(e.when)}  # filled as the game's end
    for z in spec.zones:
        stuck = flows.enter.get(z.name, set()) - flows.leave.get(z.name, set())
        stuck -= {m for k in goal_kinds for m in an.members.get(k, ())}
        if not stuck or z.start or z.name in filled:
            continue
        gates = sorted(
            nid.name for nid, part in _gated(an) if _waits_for_none(an, part, z.name, stuck)
        )
        if stuck and gates:
            yield Finding(
                "RL119",
                "warning",
                f"zone '{z.name}': cards of {_types_text(an, stuck)} that enter it never leave "
                f"(no rule moves them out), and {gates[0]} runs only while it holds none "
                f"(or few) of them: once one is there, {gates[0]} can never run again",
                z.span,
                rules=tuple(gates),
                hint="add the rule that moves them out (one that clears them, a discard), or test another zone",
            )


def _gated(an: Analysis):
    """(rule, its condition) for the rules whose condition decides whether they run,
    ends aside (an end that waits for a zone is meant)."""
    for nid, part in graphs.rules_of(an.spec):
        cond = getattr(part, "condition", None) if nid.kind in ("action", "reaction") else None
        if nid.kind == "trigger":
            cond = part.when
        if cond is not None:
            yield nid, cond


def _waits_for_none(an: Analysis, cond, zone: str, stuck: set[str], depth: int = 0) -> bool:
    """Does the condition test that the zone holds none (or fewer than some number) of
    cards that can be of the stuck types: a test only cards leaving can make true again?"""
    if depth > 8:
        return False
    for n in _needed(cond):
        if isinstance(n, ir.ConditionCall):
            named = an.spec.condition(n.name)
            if named is not None and _waits_for_none(an, named.when, zone, stuck, depth + 1):
                return True
        if not (isinstance(n, ir.Binary) and n.op in _MIRROR):
            continue
        test = (
            n
            if _counted(n.left) is not None
            else ir.Binary(n.span, n.type, _MIRROR[n.op], n.right, n.left)
        )
        counted = _counted(test.left)
        if (
            counted is None
            or test.op not in ("==", "<", "<=")
            or zone not in graphs.zones_in(counted)
        ):
            continue
        if isinstance(test.left, ir.Call) and test.left.func == "count":
            kind = test.left.args[1]  # a kind a property names is not judged
            types = set(an.members.get(kind.name, ())) if isinstance(kind, ir.Kind) else set()
        else:
            types = stuck
        if types & stuck:
            return True
    return False


def _needed(cond):
    """The nodes of a condition but those under an `if … then … else` value's test: the
    test picks an arm (`if size(z) == 0 then red else top(z, 1).colour`), and the rule
    runs whichever arm it picks."""
    stack = [cond]
    while stack:
        n = stack.pop()
        yield n
        stack += [n.then, n.orelse] if isinstance(n, ir.IfExpr) else ir.iter_children(n)


def _absorbing_values(an: Analysis):
    """A shared counter only ever set to one value other than its initial one (a flag
    raised for good; one seat's or one index's set leaves the others as they were):
    when, with it at that value, every rule that can win or end the game has a condition
    that can never hold, the game can then end only at its limit."""
    spec = an.spec
    # an ending rule that can never hold at all is RL105's: judged here, it would be
    # reported twice
    ending = [(nid, part) for nid, part in graphs.rules_of(spec) if _ends(an, nid)]
    ops: dict[str, set[str]] = {}
    for _cond, eff in an.touches.values():
        for c, o in eff.changes.items():
            ops.setdefault(c, set()).update(o)
    for c in spec.counters:
        if c.per_player or c.per_team or c.count is not None:
            continue  # one seat's (or index's) set is not all set: pinning all would lie
        if c.reset:
            continue  # set back as each turn (round) begins: no value is for good
        values = an.assigned.get(c.name, set())
        if ops.get(c.name) != {"="} or len(values) != 1 or not _all_constant(an, c.name):
            continue
        (v,) = values
        if an.counter_initial.get(c.name) == (v, v):
            continue
        with an.pinning({c.name: (v, v)}):
            live = [nid for nid, part in graphs.rules_of(spec) if _can_end(an, nid, part)]
        if not live and ending and all(_can_end(an, nid, part) for nid, part in ending):
            yield Finding(
                "RL119",
                "warning",
                f"counter '{c.name}': once a rule sets it to {int(v)}, nothing sets it back, "
                "and no rule that wins or ends the game can then fire: the game can end "
                f"only at the turn limit ({spec.turn_limit})",
                c.span,
                hint="let an end condition hold at that value, or let a rule set the counter back",
            )


def _all_constant(an: Analysis, counter: str) -> bool:
    """Is every assignment of the counter a fixed value?"""
    for _nid, part in (*graphs.rules_of(an.spec), *graphs.definitions(an.spec)):
        for s in ir.walk_statements(_body(an.spec, part)):
            if (
                isinstance(s, ir.Assign)
                and isinstance(s.target, ir.Counter)
                and s.target.name == counter
            ):
                v = an.interval(s.value)
                if not v or v[0] != v[1]:
                    return False
    return True


def _ends(an: Analysis, nid) -> bool:
    """Does this rule's effect win or end the game?"""
    _cond, eff = an.touches.get(nid, (None, None))
    return eff is not None and bool({"win", "end_game"} & eff.procs)


def _can_end(an: Analysis, nid, part) -> bool:
    """Can this rule win or end the game, as far as its condition's bounds say?"""
    if not _ends(an, nid):
        return False
    if nid.kind in graphs.CONDITIONAL:
        return an.truth(part.when) is not False
    condition = getattr(part, "condition", None)
    return condition is None or an.truth(condition) is not False


CHECKS = (check_silent_rules, check_unread_props, check_absorbing)
