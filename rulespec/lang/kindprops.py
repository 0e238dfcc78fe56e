"""A kind's property (`trump.colour`, `prop(k, "colour")`): where the kinds a read may
name are known as the spec loads, each must be one whose card types share the property.

A card type has its own value; a tag has the one value every card type carrying it
gives (`hearts.colour` is `red`); no kind has the property's none. A tag whose cards
differ in it (a rank's colour) has no value to read: RS204 here where the kind read is
known to be such a tag, may be one (a choice among a property's values, `for f in
values("face")`), or, where what it may be is not known (a counter, a parameter), the
rule stops as the game runs (RS701, interpreter/evaluate.py), for the same reason.

The kinds a read may name are worked out from how it is written: a kind written out,
no_kind, a kind property's values (`c.suit`), a card type (`kind_of(c)`), the local of
a `let`, `for`, choice or aggregate over kinds whose items are known (`values("suit")`,
`card_types`), in the block that binds it; a local assigned anywhere in the part is not
known. A local's name is bound once in a scope (RS202), so a scope's bindings hold for
the whole of it.
"""

from __future__ import annotations

from . import ir
from .diagnostics import Diagnostic

_LACKS = object()  # a card type's value of a property it does not declare: its none
_INNER = (ir.Expr, ir.Stmt, ir.Branch)  # what a rule or definition is made of


def check(spec: ir.Spec) -> list[Diagnostic]:
    """RS204 at each read of a kind's property that may name a kind whose card types
    differ in it."""
    reads = _Reads(spec)
    parts = (
        spec.setup,
        *(rule for _, rule in spec.rules()),
        *spec.procedures,
        *spec.conditions,
        *spec.counters,
        *spec.goals,
        *spec.windows,
        spec.evaluation,
        spec.turn_order,
        spec.payoff,
    )
    for part in parts:
        if part is not None:
            reads.part(part)
    return reads.problems


class _Reads:
    def __init__(self, spec: ir.Spec):
        self.types = tuple(c.name for c in spec.cards)
        self.members: dict[str, list[ir.CardType]] = {c.name: [c] for c in spec.cards}
        for c in spec.cards:
            for tag in c.tags:
                self.members.setdefault(tag, []).append(c)
        # each property of kinds -> the kinds it names, in deck order
        self.named: dict[str, tuple[str, ...]] = {}
        for c in spec.cards:
            for name, value in c.props:
                if name in spec.kind_props and value not in self.named.get(name, ()):
                    self.named[name] = (*self.named.get(name, ()), value)
        self.order = {k: i for i, k in enumerate(self.members)}  # card types, then tags
        self.assigned: set[str] = set()
        self.problems: list[Diagnostic] = []

    def part(self, part) -> None:
        self.assigned = {
            n.target.name
            for n in ir.walk(part)
            if isinstance(n, ir.Assign) and isinstance(n.target, ir.Local)
        }
        fields = (part,) if isinstance(part, tuple) else (v for _, v in ir.iter_fields(part))
        for value in fields:
            self._visit(value, {})

    def _visit(self, node, env: dict) -> None:
        """Check the reads in node, each local of kinds held in env as the kinds it may
        name (a tuple of statements is a block: its lets bind for those after them)."""
        if not isinstance(node, (tuple, *_INNER)):
            return
        if isinstance(node, tuple):
            env = dict(env)
            for item in node:
                self._visit(item, env)
            return
        if isinstance(node, ir.Let):
            self._visit(node.value, env)
            env[node.name] = self._kinds(node.value, env)
            return
        inner = env
        if isinstance(node, (ir.For, ir.ChooseCard, ir.Aggregate)):
            items = node.source if isinstance(node, ir.ChooseCard) else node.items
            inner = {**env, node.var: self._each(items)}
        if isinstance(node, ir.Call) and node.func == "prop" and node.args[0].type == "kind":
            self._read(node, self._kinds(node.args[0], env))
        for _, value in ir.iter_fields(node):
            self._visit(value, inner)

    def _kinds(self, e: ir.Expr, env: dict) -> frozenset[str] | None:
        """The kinds a kind expression may name (none for no_kind); None: not known."""
        if isinstance(e, ir.Kind):
            return frozenset((e.name,))
        if isinstance(e, ir.Local) and e.builtin:
            return frozenset() if e.name == "no_kind" else None
        if isinstance(e, ir.Local):
            return None if e.name in self.assigned else env.get(e.name)
        if isinstance(e, ir.Call) and e.func == "prop":
            return frozenset(self.named.get(e.args[1].value, ()))
        if isinstance(e, ir.Call) and e.func == "kind_of":
            return frozenset(self.types)
        if isinstance(e, ir.Call) and e.func == "nth":
            return self._each(e.args[0])
        if isinstance(e, ir.IfExpr):
            then, orelse = self._kinds(e.then, env), self._kinds(e.orelse, env)
            return None if then is None or orelse is None else then | orelse
        return None

    def _each(self, items: ir.Expr) -> frozenset[str] | None:
        """The kinds a set of kinds may hold; None: not known (or no set of kinds)."""
        if items.type != "kinds":
            return None
        if isinstance(items, ir.Call) and items.func == "values":
            return frozenset(self.named.get(items.args[0].value, ()))
        if isinstance(items, ir.Local) and items.builtin and items.name == "card_types":
            return frozenset(self.types)
        if isinstance(items, ir.Aggregate) and items.func in ("filter", "sort"):
            return self._each(items.items)
        if isinstance(items, ir.Call) and items.func == "first":
            return self._each(items.args[0])
        return None

    def _read(self, read: ir.Call, kinds: frozenset[str] | None) -> None:
        """RS204 where a kind the read may name has no one value of the property."""
        name = read.args[1].value
        for k in sorted(kinds or (), key=lambda k: self.order.get(k, len(self.order))):
            values = {dict(c.props).get(name, _LACKS) for c in self.members.get(k, ())}
            if ir.shared_value(values, _LACKS) is not None:
                continue
            told = sorted(str(v).lower() for v in values if v is not _LACKS)
            may = "is" if kinds == {k} else "may be"
            self.problems.append(
                Diagnostic(
                    "RS204",
                    f"'{name}' of a kind that {may} '{k}', whose cards differ in "
                    f"'{name}' ({', '.join(told)}{', some none' * (_LACKS in values)}): a "
                    "kind's property is the value all its cards share",
                    read.span,
                    hint=self._settled_by(name),
                )
            )
            return

    def _settled_by(self, name: str) -> str:
        """The fix: read it of a card, or of a kind whose cards share it, such as the
        values of a property of kinds each of which settles it."""
        by = [
            p
            for p, kinds in self.named.items()
            if p != name
            and all(
                ir.shared_value({dict(c.props).get(name, _LACKS) for c in self.members[k]}, _LACKS)
                is not None
                for k in kinds
                if k in self.members
            )
        ]
        settled = " or ".join(f'values("{p}")' for p in by)
        kinds = f", such as one of {settled}" if settled else ""
        return f"read it of a card (c.{name}), or of a kind whose cards share it{kinds}"
