"""The deck section -> one declaration per card type, and the removals per player count.

Hand-written `deck.cards` entries and `deck.build` families (the product of property
values, with more properties derived by formula or by lookup) become the same
CardDecl, each carrying the places that declared its parts: everything after this stage
treats a generated card type exactly like a written one, and points at the YAML node
that made it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from math import prod

from . import ir
from .diagnostics import Diagnostic, Span, did_you_mean
from .expressions import Builder, Names
from .limits import MAX_CARDS

NAME = re.compile(r"[a-z][a-z0-9_]*|_[a-z0-9][a-z0-9_]*")
INT_LIMIT = 10**18  # as a counter or product at play (docs/limits.md)


@dataclass
class CardDecl:
    name: str
    title: str
    count: int
    tags: tuple[str, ...]
    props: dict[str, object]
    span: Span  # the written name, or the family's card template
    count_span: Span
    tag_spans: tuple[Span, ...]
    prop_spans: dict[str, Span]
    text: str = ""  # what the card does, in words (public)
    family: int | None = None  # the index of the `deck.build` family that made it


def title_of(name: str) -> str:
    """The default title: `queen_of_hearts` -> `Queen Of Hearts`."""
    return name.replace("_", " ").title()


def value_class(v) -> str:
    """How a value reads: a number, true or false, or text."""
    return "true/false" if isinstance(v, bool) else "a number" if isinstance(v, int) else "text"


def default_of(param):
    """A parameter's value for a player count without one of its own."""
    return param["default"] if isinstance(param, dict) else param


def same_value(a, b) -> bool:
    return type(a) is type(b) and a == b  # `true` is not the number 1


class _Problem(Exception):
    """A problem that stops a family: none of its card types is made."""

    def __init__(self, code, message, span, hint=""):
        super().__init__(message)
        self.diagnostic = Diagnostic(code, message, span, hint=hint)


def declare(
    doc,
    problems: list[Diagnostic],
    failed: dict | None = None,
    notices: list | None = None,
    formulas: list | None = None,
) -> list[CardDecl]:
    """Every card type of the deck: the written ones, then each family's, in order.
    Warnings go to `notices` (RS214), and the derived properties given by a formula, as
    ir.Formula, to `formulas`.
    A derived property whose formula or lookup has a problem (reported) is left out of
    the cards and added to `failed` (name -> "property"), with the tags its lookup
    would have given (-> "tag"): their uses say no more."""
    deck = doc.data["deck"]
    notices = [] if notices is None else notices
    out = [_written(doc, n, c, notices) for n, c in (deck.get("cards") or {}).items()]
    for i, family in enumerate(deck.get("build") or ()):
        try:
            made = _Family(doc, ("deck", "build", i), family, problems, failed)
            out += made.cards()
            if formulas is not None:
                formulas += made.formulas
        except _Problem as exc:
            problems.append(exc.diagnostic)
            if failed is not None:
                _refused_family(family, failed)
                failed[f"deck.build[{i}]"] = "family"  # the deck lacks its cards
    if not deck.get("cards") and not deck.get("build"):
        problems.append(
            Diagnostic(
                "RS103",
                "the deck needs 'cards' or 'build'",
                doc.key_span(("deck",)),
                hint="list card types, or build them",
            )
        )
    return out


def _refused_family(family: dict, failed: dict) -> None:
    """A family none of whose cards could be made (reported): its properties and the tags
    its text values would have given, so that the rules using them say no more."""
    props = family.get("props") or {}
    for key in [*family.get("each", {}), *props]:
        failed.setdefault(key, "property")
    texts = [v for axis in family.get("each", {}).values() if isinstance(axis, list) for v in axis]
    texts += [
        v
        for rule in props.values()
        if isinstance(rule, dict)
        for t in rule.values()
        if isinstance(t, dict)
        for v in t.values()
    ]
    texts += family.get("tags", [])
    for v in texts:
        if isinstance(v, str) and NAME.fullmatch(v):
            failed.setdefault(v, "tag")


def _written(doc, name, c, notices: list[Diagnostic]) -> CardDecl:
    """A card type written out; `{property}` in its title or text is filled from its
    own props, as a family's are. One it lacks is a warning, RS214, and stays as written
    (a spec that showed it so before keeps validating)."""
    path = ("deck", "cards", name)
    tags, props = tuple(c.get("tags", ())), dict(c.get("props") or {})
    for key in ("title", "text"):
        for unknown in [p for p in _placeholders(c.get(key, "")) if p not in props]:
            notices.append(
                Diagnostic(
                    "RS214",
                    f"'{name}' has no property '{unknown}': its {key} shows "
                    f"{{{unknown}}} as written",
                    doc.span(path + (key,)),
                    severity="warning",
                    hint=did_you_mean(unknown, props)
                    or f"give '{name}' the property in its props, or write the {key} out",
                )
            )
    return CardDecl(
        name,
        _fill(c["title"], props) if "title" in c else title_of(name),
        c["count"],
        tags,
        props,
        doc.key_span(path),
        doc.span(path + ("count",)),
        tuple(doc.span(path + ("tags", i)) for i in range(len(tags))),
        {k: doc.span(path + ("props", k)) for k in props},
        _fill(c.get("text", ""), props),
    )


class _Family:
    """One `deck.build` entry: a card type for each combination of its `each` values."""

    def __init__(self, doc, path, family, problems, failed=None):
        self.doc, self.path, self.f, self.problems = doc, path, family, problems
        self.failed = failed if failed is not None else {}
        self.formulas: list[ir.Formula] = []
        self.axes = {k: _values(v) for k, v in family["each"].items()}
        self.count = family.get("count", 1)

    def span(self, *rest) -> Span:
        return self.doc.span(self.path + rest)

    def cards(self) -> list[CardDecl]:
        self._check_size()
        written = self.f.get("props") or {}
        derive: dict = {}
        for i, (k, v) in enumerate(written.items()):  # each reads those derived above it
            derive[k] = self._deriver(k, v, derive, list(written)[i + 1 :])
        failed = {k for k, fn in derive.items() if fn is None}  # a problem, reported
        self.failed.update(dict.fromkeys(failed, "property"))
        derive = {k: fn for k, fn in derive.items() if fn is not None}
        if any(name in failed for key in ("card", "title") for name in self._placeholders(key)):
            return []  # the cards cannot be named without it
        self._check_templates(derive)
        out, seen = [], set()
        for combo in itertools.product(*(enumerate(v) for v in self.axes.values())):
            props = {k: v for k, (_, v) in zip(self.axes, combo)}
            for k, fn in derive.items():  # in order: a formula reads those derived above it
                props[k] = fn(props)
            card = self._card(props, dict(zip(self.axes, (j for j, _ in combo))))
            if card.name in seen:
                raise _Problem(
                    "RS202",
                    f"the card template gives '{card.name}' twice",
                    self.span("card"),
                    "name every property whose values differ in the template",
                )
            seen.add(card.name)
            out.append(card)
        for name in (n for n in self.f.get("counts") or {} if n not in seen):
            raise _Problem(
                "RS201",
                f"this family makes no card '{name}' to count",
                self.doc.key_span(self.path + ("counts", name)),
                did_you_mean(name, seen),
            )
        return out

    def _check_size(self) -> None:
        """The limits on a deck hold before a single card type is made."""
        for axis, values in self.axes.items():
            if not len(values):
                raise _Problem(
                    "RS104",
                    f"'{axis}' goes from {values.start} to {values.stop - 1}: no values",
                    self.span("each", axis),
                )
        types = prod(len(v) for v in self.axes.values())
        if types > MAX_CARDS or types * self.count > MAX_CARDS:
            raise _Problem(
                "RS407",
                f"this family makes {types} card types × {self.count} "
                f"copies; a deck may hold at most {MAX_CARDS} cards",
                self.span("each"),
            )
        for axis, values in self.axes.items():
            if len({value_class(v) for v in values}) > 1:
                raise _Problem(
                    "RS406",
                    f"property '{axis}' mixes numbers, true/false and text",
                    self.span("each", axis),
                    "give every value the same type",
                )

    def _placeholders(self, key) -> list[str]:
        template = self.f.get(key, "")  # a name's as written, a title's or text's lowered
        return ir.PLACEHOLDER.findall(template) if key == "card" else _placeholders(template)

    def _check_templates(self, derive) -> None:
        known = [*self.axes, *derive]
        for key in ("card", "title", "text"):
            for name in self._placeholders(key):
                if name not in known:
                    raise _Problem(
                        "RS201",
                        f"unknown card property '{name}' in the {key} template",
                        self.span(key),
                        did_you_mean(name, known),
                    )

    def _card(self, props, index) -> CardDecl:
        """The card type for one combination; `index` gives each axis value's position."""
        name = _fill(self.f["card"], props)
        if not NAME.fullmatch(name):
            raise _Problem(
                "RS104",
                f"the card template gives '{name}', which is not a valid name",
                self.span("card"),
                "names are lower_snake_case: a-z, 0-9 and _",
            )
        spans = {k: self._value_span(k, props, index) for k in props}
        tags = list(self.f.get("tags", ()))
        tag_spans = [self.span("tags", i) for i in range(len(tags))]
        # a text value is also a tag: of(hand(p), hearts); one that is the card's own
        # name (a card named by its rank alone) names that card already
        for k, v in props.items():
            if isinstance(v, str) and v not in tags and v != name:
                tags.append(v)
                tag_spans.append(spans[k])
        title = _fill(self.f["title"], props) if "title" in self.f else title_of(name)
        counts = self.f.get("counts") or {}
        return CardDecl(
            name,
            title,
            counts.get(name, self.count),
            tuple(tags),
            props,
            # a card counted on its own is declared where its count is (a variant's line)
            self.doc.key_span(self.path + ("counts", name))
            if name in counts
            else self.span("card"),
            self.span("counts", name) if name in counts else self.span("count"),
            tuple(tag_spans),
            spans,
            _fill(self.f["text"], props) if "text" in self.f else "",
            self.path[-1],
        )

    def _value_span(self, key, props, index) -> Span:
        """Where a card's value of a property is written: its value in each, the entry
        of the table that gives it (`"7": seven` of `{rank: {…}}`, which makes a tag),
        or the formula."""
        if key in index:
            return self.span("each", key, index[key])
        rule = (self.f.get("props") or {}).get(key)
        if isinstance(rule, dict):
            axis = next(iter(rule))
            return self.span("props", key, axis, _text(props[axis]))
        return self.span("props", key)

    def _deriver(self, key, rule, above: dict, below: list[str]):
        """A function from the `each` values, and the properties derived `above` it
        (a formula reads them), to a derived property; None (reported) where it fails,
        as where a formula reads one derived `below` it."""
        if key in self.axes:
            span = self.doc.key_span(self.path + ("props", key))
            self.problems.append(
                Diagnostic("RS202", f"'{key}' is already a property in each", span)
            )
            return None
        if isinstance(rule, dict):
            return self._lookup(key, *next(iter(rule.items())))
        if not isinstance(rule, str):
            return lambda props: rule
        return self._formula(key, rule, above, below)

    def _lookup(self, key, axis, table):
        at = self.path + ("props", key, axis)
        if axis not in self.axes:
            self.problems.append(
                Diagnostic(
                    "RS201",
                    f"unknown card property '{axis}'",
                    self.doc.key_span(at),
                    hint=did_you_mean(axis, self.axes),
                )
            )
            return None
        missing = [v for v in self.axes[axis] if _text(v) not in table]
        if missing:
            for v in table.values():
                if isinstance(v, str):
                    self.failed.setdefault(v, "tag")
            self.problems.append(
                Diagnostic(
                    "RS411",
                    f"'{key}' gives no value for {axis} {_text(missing[0])}",
                    self.doc.span(at),
                    hint="give a value for every one",
                )
            )
            return None
        return lambda props: table[_text(props[axis])]

    def _formula(self, key, text, above: dict, below: list[str]):
        path = self.path + ("props", key)
        first = {k: v[0] for k, v in self.axes.items()}  # a property's type: its value here
        for k, fn in above.items():
            if fn is not None:
                first[k] = fn(first)
        scope = {k: _type(v) for k, v in first.items()}
        names = _spec_names(self.doc.data)
        names.text = {v for values in self.axes.values() for v in values if isinstance(v, str)}
        problems: list[Diagnostic] = []
        expr = Builder(names, problems).expr(self.doc, path, text, scope)
        refused = [k for k, fn in above.items() if fn is None]  # reported where derived
        for d in problems:  # one derived below it: the fix is the order
            if d.code == "RS201" and any(d.message == f"unknown name '{k}'" for k in refused):
                continue
            later = next((k for k in below if d.message == f"unknown name '{k}'"), None)
            if d.code == "RS201" and later is not None:
                d = replace(
                    d,
                    hint=f"derive '{later}' above '{key}': a formula reads the "
                    "properties in each and those derived above it",
                )
            self.problems.append(d)
        if expr is None:
            return None
        bad = next((n for n in _nodes(expr) if not _foldable(n, scope)), None)
        if bad is not None:
            self.problems.append(
                Diagnostic(
                    "RS411",
                    f"a formula may use numbers, text, true and false, the properties in "
                    f"each and those derived above it, operators, if … then … else, min "
                    f"and max; not '{_shown(bad)}'",
                    bad.span,
                )
            )
            return None
        self.formulas.append(ir.Formula(self.path[-1], key, expr))

        def derived(props):
            value = _fold(expr, props)
            if isinstance(value, str) and not NAME.fullmatch(value):
                raise _Problem(
                    "RS104",
                    f"'{key}' gives '{value}', which is not a valid name "
                    "(text values of built cards are tags)",
                    self.doc.span(path),
                )
            if isinstance(value, int) and not -INT_LIMIT <= value <= INT_LIMIT:
                raise _Problem("RS411", f"'{key}' gives a number past ±10^18", self.doc.span(path))
            return value

        return derived


def families_of(doc) -> dict[str, int]:
    """Each built card type's name -> the index of the `deck.build` family that makes
    it, in a document whose shape is checked (a family with a problem makes none)."""
    return {c.name: c.family for c in declare(doc, []) if c.family is not None}


def _spec_names(data) -> Names:
    """The parameters, zones and counters, known to formulas only so that one reading
    them is told it may not (RS411) rather than that they do not exist."""

    def per_player(section):
        return {n: bool(v.get("per_player")) for n, v in (data.get(section) or {}).items()}

    params = {
        n: "bool" if isinstance(default_of(v), bool) else "int"
        for n, v in (data.get("parameters") or {}).items()
    }
    return Names(params, per_player("counters"), per_player("zones"), set())


def _values(axis):
    """An axis's values: its list, or the numbers of its `from`-`to` range (lazily)."""
    return axis if isinstance(axis, list) else range(axis["from"], axis["to"] + 1)


def _text(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _placeholders(template: str) -> list[str]:
    """The properties a title's or text's placeholders name: `suit` for {Suit} too."""
    return [_lowered(p) for p in ir.PLACEHOLDER.findall(template)]


def _lowered(placeholder: str) -> str:
    return placeholder[0].lower() + placeholder[1:]


def _fill(template: str, props) -> str:
    """The template with each {prop} as the card's value, each {Prop} as the value
    capitalised, its `_` as spaces (`dark_blue`: "Dark blue")."""

    def value(m) -> str:
        written, name = m.group(1), _lowered(m.group(1))
        if name not in props:
            return m.group(0)
        text = _text(props[name])
        if written[0].islower():
            return text
        text = text.replace("_", " ")
        return text[:1].upper() + text[1:]  # the first letter raised, no other lowered

    return ir.PLACEHOLDER.sub(value, template)


def _type(v) -> str:
    return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "str"


def _nodes(e):
    yield e
    for child in ir.iter_children(e):
        yield from _nodes(child)


def _shown(e) -> str:
    """How a node that a formula may not use reads in the message."""
    return (
        getattr(e, "name", None)
        or getattr(e, "func", None)
        or getattr(e, "op", None)
        or type(e).__name__.lower()
    )


def _foldable(e, scope) -> bool:
    return (
        isinstance(e, (ir.Const, ir.Unary, ir.IfExpr))
        or (isinstance(e, ir.Local) and e.name in scope)
        or (isinstance(e, ir.Binary) and e.op != "in")
        or (isinstance(e, ir.Call) and e.func in ("min", "max"))
    )


_OPS = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b if b else 0,
    "%": lambda a, b: a % b if b else 0,  # as at play
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "and": lambda a, b: a and b,
    "or": lambda a, b: a or b,
}


def _fold(e, props):
    """The value of a checked formula for one card's properties."""
    if isinstance(e, ir.Const):
        return e.value
    if isinstance(e, ir.Local):
        return props[e.name]
    if isinstance(e, ir.Unary):
        v = _fold(e.operand, props)
        return not v if e.op == "not" else -v
    if isinstance(e, ir.Call):
        return (min if e.func == "min" else max)(_fold(a, props) for a in e.args)
    if isinstance(e, ir.IfExpr):
        return _fold(e.then if _fold(e.cond, props) else e.orelse, props)
    return _OPS[e.op](_fold(e.left, props), _fold(e.right, props))


EVERY_COUNT = "all"  # the `deck.remove` entry for every player count (stored as count 0)


def removals(doc, decls: list[CardDecl], problems: list[Diagnostic], failed=None):
    """{players: (card, copies) ...} from `deck.remove`, by name or by property, checked:
    a card or property that does not exist is RS201, more copies than the deck holds
    RS404. The entry `all` is under 0 and within every player count's own entry."""
    counts = {d.name: d.count for d in decls}
    entries = doc.data["deck"].get("remove") or {}
    every: dict[str, int] = {}
    if EVERY_COUNT in entries:
        every = _removed(
            doc, EVERY_COUNT, entries[EVERY_COUNT], decls, counts, problems, {}, failed
        )
    out = [(0, tuple(every.items()))] if every else []
    for players, entry in entries.items():
        if players != EVERY_COUNT:
            removed = _removed(doc, players, entry, decls, counts, problems, every, failed)
            out.append((int(players), tuple(removed.items())))
    return tuple(sorted(out))


def _removed(doc, players, entry, decls, counts, problems, every, failed) -> dict[str, int]:
    """card -> copies one entry of `deck.remove` takes, with those `every` player count
    loses (the entry `all`), checked against the deck (RS404)."""
    path = ("deck", "remove", players)
    removed = dict(every)
    picks = (
        _by_name(doc, path, entry, counts, problems)
        if isinstance(entry, dict)
        else _by_property(doc, path, entry, decls, problems, failed or {})
    )
    for card, k, span in picks:
        removed[card] = removed.get(card, 0) + k
        if removed[card] > counts[card]:
            which = "every player count" if players == EVERY_COUNT else f"{players} players"
            problems.append(
                Diagnostic(
                    "RS404",
                    f"removing {removed[card]} '{card}' for {which} leaves "
                    f"{counts[card] - removed[card]}",
                    span,
                    hint=f"the deck holds {counts[card]}"
                    + (f", and `all` removes {every[card]}" if every.get(card) else ""),
                )
            )
    return removed


def _by_name(doc, path, entry, counts, problems):
    for card, k in entry.items():
        if card in counts:
            yield card, k, doc.span(path + (card,))
        else:
            problems.append(
                Diagnostic(
                    "RS201",
                    f"unknown card '{card}'",
                    doc.key_span(path + (card,)),
                    hint=did_you_mean(card, counts),
                )
            )


def _by_property(doc, path, entry, decls, problems, failed):
    """`- where: {prop: value, ...}` with `count` copies of each card type that has
    all those values (default: every copy). A property refused where it is made (in
    `failed`) says no more here."""
    known = {k for d in decls for k in d.props}
    for i, pick in enumerate(entry):
        where = pick["where"]
        if any(failed.get(k) == "property" for k in where):
            continue
        unknown = [k for k in where if k not in known]
        for k in unknown:
            problems.append(
                Diagnostic(
                    "RS201",
                    f"unknown card property '{k}'",
                    doc.key_span(path + (i, "where", k)),
                    hint=did_you_mean(k, known),
                )
            )
        matched = [
            d
            for d in decls
            if all(k in d.props and same_value(d.props[k], v) for k, v in where.items())
        ]
        if not matched and not unknown:
            problems.append(
                Diagnostic(
                    "RS201",
                    "no card has " + ", ".join(f"{k}: {_text(v)}" for k, v in where.items()),
                    doc.span(path + (i, "where")),
                )
            )
        for d in matched:
            yield d.name, pick.get("count", d.count), doc.span(path + (i,))
