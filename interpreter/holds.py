"""What each zone may hold: the card types the rules can ever put there, read off the
spec alone (no game is played).

Every seat knows the rules, so this is public: a zone filled only by `move(of(box, red),
pile)` holds red cards whatever a seat saw. A re-deal for a search (Table._redeal_hidden)
keeps each hidden zone to its types, where it would otherwise deal blue cards into the
red pile, a world no seat could believe in.

The answer is an upper bound, and it must never leave out a type a zone can hold (a
property test plays every bundled game and checks it). So whatever this cannot follow
counts as any type: a card local it cannot trace, a remembered card, a procedure's
card parameters, a rule's locals and roles once it calls `react` or a procedure (the
reactions share and may change them), a destination that is not a zone named outright
(every zone gets the cards). The start zone holds the whole deck; `refill_from` and
`swap` pass what one zone may hold to the other. A zone's bound is for every seat's (or
team's) zone of its name; each zone of a family has its own, where the rules name it by
an index written out (`pile(0)`).
"""

from __future__ import annotations

from rulespec.lang import ir

CARD_TYPES = ("cards", "zone")
# the functions whose cards are some of those they are given (not `above`: the cards on
# a card, from its zone)
SOME_OF = frozenset({"top", "random", "one", "of", "without", "first", "nth", "unmelded"})


class _Walk:
    """One pass over the rules: the types each move puts where, given what each zone
    may hold so far (`may`, by zone name)."""

    def __init__(self, spec: ir.Spec, kinds: dict[str, frozenset], may: dict[str, frozenset]):
        self.spec, self.kinds, self.may = spec, kinds, may
        self.every = kinds["any"]
        self.into: dict[str, set] = {k: set() for k in zone_keys(spec)}
        self.families = {z.name: z.count for z in spec.zones if z.count is not None}

    def keys(self, ref: ir.ZoneRef) -> list[str]:
        """The zones a reference may name, by key: a family's zone where its index is
        written out (`pile(0)`: `pile[0]`), else each of the family's; a zone's name."""
        count = self.families.get(ref.name)
        if count is None:
            return [ref.name]
        i = ref.index.value if isinstance(ref.index, ir.Const) else None
        return [zone_key(ref.name, j) for j in range(count) if i is None or i == j]

    # --- what an expression of cards may hold -------------------------------------

    def types(self, e: ir.Expr, env: dict) -> frozenset:
        if isinstance(e, ir.ZoneRef):
            return frozenset().union(*(self.may.get(k, self.every) for k in self.keys(e)))
        if isinstance(e, ir.Local):
            return env.get(e.name, self.every)
        if isinstance(e, ir.IfExpr):
            return self.types(e.then, env) | self.types(e.orelse, env)
        if isinstance(e, ir.Binary) and e.op == "+":
            return self.types(e.left, env) | self.types(e.right, env)
        if isinstance(e, ir.Call) and e.func in SOME_OF:  # some of the cards it is given
            cards = [a for a in e.args if a.type in CARD_TYPES]
            out = frozenset().union(*(self.types(a, env) for a in cards)) if cards else self.every
            kind = next((a for a in e.args if isinstance(a, ir.Kind)), None)
            if e.func in ("of", "one") and kind is not None:
                out &= self.kinds.get(kind.name, self.every)
            return out
        if isinstance(e, ir.Aggregate) and e.items.type in CARD_TYPES:
            items = self.types(e.items, env)
            if e.func == "union":
                return self.types(e.body, {**env, e.var: items})
            return items  # filter, sort, argmax, argmin: some of the items
        if isinstance(e, ir.Aggregate) and e.func == "union":
            return self.types(e.body, env)
        return self.every  # a remembered card, a named value, ...

    def zones(self, e: ir.Expr | None, zenv: dict) -> list[str]:
        """The zones a destination may be, by key (every zone when it cannot tell)."""
        if isinstance(e, ir.ZoneRef):
            return self.keys(e)
        if isinstance(e, ir.IfExpr):
            return self.zones(e.then, zenv) + self.zones(e.orelse, zenv)
        if isinstance(e, ir.Local) and e.name in zenv:
            return zenv[e.name]
        return list(self.into)

    def put(self, dst: ir.Expr | None, types: frozenset, zenv: dict) -> None:
        for z in self.zones(dst, zenv):
            self.into[z] |= types

    # --- statements ---------------------------------------------------------------

    def block(self, stmts, env: dict, zenv: dict) -> None:
        for s in stmts:
            self.stmt(s, env, zenv)

    def inner(self, body, env: dict, zenv: dict, bound: dict | None = None, again=False) -> None:
        """A block inside another, its own names `bound`: what it gives the outer block's
        locals, they may hold after it (a loop's body walked until they stop growing)."""
        while True:
            local, zones = {**env, **(bound or {})}, dict(zenv)
            self.block(body, local, zones)
            before = (dict(env), dict(zenv))
            for name in env:
                env[name] = env[name] | local[name]
            for name in zenv:
                zenv[name] = list(dict.fromkeys(zenv[name] + zones[name]))
            if not again or before == (env, zenv):
                return

    def stmt(self, s: ir.Stmt, env: dict, zenv: dict) -> None:
        if isinstance(s, (ir.Let, ir.Assign)):
            self.local(s, env, zenv)
        elif isinstance(s, ir.Do) and s.proc in ("move", "insert"):
            self.put(s.args[1], self.types(s.args[0], env), zenv)
        elif isinstance(s, ir.Do) and s.proc == "swap":
            a, b = s.args
            self.put(a, self.types(b, env), zenv)
            self.put(b, self.types(a, env), zenv)
        elif (isinstance(s, ir.Do) and s.proc == "react") or isinstance(s, ir.ProcedureCall):
            # the reactions answering (from a procedure too) share this rule's locals
            # and roles, and may give them other cards or zones: from here, any
            self.forget(env, zenv)
        else:  # a block inside; refill(zone) passes along its refill_from, as in `run`
            self.nested(s, env, zenv)

    def forget(self, env: dict, zenv: dict) -> None:
        for name in env:
            env[name] = self.every
        for name in zenv:
            zenv[name] = list(self.into)

    def local(self, s: ir.Let | ir.Assign, env: dict, zenv: dict) -> None:
        """A local given cards (or a zone): what it may hold from now on."""
        name = s.name if isinstance(s, ir.Let) else getattr(s.target, "name", None)
        if s.value.type in CARD_TYPES:
            given = self.types(s.value, env)  # given more cards, it may hold what it held
            env[name] = given if isinstance(s, ir.Let) else env.get(name, frozenset()) | given
        if s.value.type == "zone":
            zenv[name] = zenv.get(name, []) + self.zones(s.value, zenv)

    def nested(self, s: ir.Stmt, env: dict, zenv: dict) -> None:
        if isinstance(s, ir.If):
            for body in (s.then, s.orelse):
                self.inner(body, env, zenv)
        elif isinstance(s, ir.For) and s.items.type in CARD_TYPES:
            self.inner(s.body, env, zenv, {s.var: self.types(s.items, env)}, again=True)
        elif isinstance(s, (ir.For, ir.While)):
            self.inner(s.body, env, zenv, again=True)
        elif isinstance(s, ir.ChooseBranch):
            for b in s.branches:
                self.inner(b.body, env, zenv)
        elif isinstance(s, ir.ChooseCard):
            self.inner(s.body, env, zenv, {s.var: self.types(s.source, env)})
        elif isinstance(s, ir.ChooseNumber):
            self.inner(s.body, env, zenv)

    # --- the whole spec -----------------------------------------------------------

    def run(self) -> dict[str, set]:
        spec, every = self.spec, self.every
        for z in spec.zones:
            if z.start:
                self.into[z.name] |= every
            if z.refill_from is not None:  # neither is a family (RS402)
                self.into[z.name] |= self.may.get(z.refill_from, every)
        self.block(spec.setup, {}, {})
        for p in spec.procedures:  # its card parameters may be any cards
            self.block(p.effect, {}, {})
        played = {a.name: self._kind(a.card) for a in spec.actions}
        for kind, rule in spec.rules():
            env = {}
            if kind == "action":
                env = {"card": played[rule.name]}
                if rule.among is not None:
                    env["chosen"] = self.types(rule.among, {})
                if rule.to is not None and rule.card is not None:
                    self.put(rule.to, played[rule.name], {})
            elif kind == "reaction":
                answer = self._kind(rule.card)
                env = {"answer": answer}  # `card`, `chosen`: the answered play's, any
                if rule.to is not None and rule.card is not None:
                    self.put(rule.to, answer, {})
            self.block(ir.body(rule), env, {})
        return self.into

    def _kind(self, card: str | None) -> frozenset:
        return self.kinds.get(card, self.every) if card is not None else frozenset()


def zone_key(name: str, index: int | None) -> str:
    """A zone's key: its name, every seat's (or team's) alike; a family's zone's its
    name and index (`pile[0]`, every seat's `field[0]` alike), as the rules may fill
    each zone of a family with cards of its own."""
    return name if index is None else f"{name}[{index}]"


def zone_keys(spec: ir.Spec) -> list[str]:
    """Every zone key (zone_key) of the spec."""
    return [
        zone_key(z.name, i) for z in spec.zones for i in (range(z.count) if z.count else [None])
    ]


def may_hold(spec: ir.Spec, kinds: dict[str, frozenset]) -> dict[str, frozenset]:
    """Zone key (zone_keys) -> the card types the rules can ever put there (`kinds`:
    Game.kinds, a kind's name -> its card types). Worked out to a fixed point: what a
    zone may hold grows with what the zones its cards come from may hold."""
    may = dict.fromkeys(zone_keys(spec), frozenset())
    while True:
        into = _Walk(spec, kinds, may).run()
        grown = {z: may[z] | frozenset(types) for z, types in into.items()}
        if grown == may:
            return may
        may = grown
