"""Positioned spec data -> IR, checking every name and type on the way.

All problems of a file are collected (schema, names, expressions, cross-references)
and raised together as one SpecError.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from . import costs, decks, ir, kindprops, schema, shown
from .decks import default_of, value_class
from .diagnostics import Diagnostic, SpecError, did_you_mean, silenced
from .expressions import (
    FAILED,
    RESERVED,
    Builder,
    Names,
    deprecated_name,
    kept,
    removed_hint,
    reserved_as,
    reserved_hint,
)
from .limits import (
    MAX_CARDS,
    MAX_CONDITION_DEPTH,
    MAX_FOR_PASSES,
    MAX_GROUP,
    MAX_PLAYERS,
    MAX_TURN_LIMIT,
)
from .loading import Document

DEFAULT_TURN_LIMIT = 2000  # C-5


def compile_document(doc: Document) -> ir.Spec:
    problems = list(schema.check(doc))
    if problems:  # jsonschema's errors come in path order: key order is file order
        raise SpecError(_in_order(problems), doc.all_sources())
    compiler = _Compiler(doc)
    spec = compiler.build()
    # a warning the spec silences is gone wherever the spec is loaded, as in lint; an
    # error is never silenced
    sources = doc.all_sources()
    notices = [
        d
        for d in compiler.notices + compiler.b.notices
        if not silenced(d, sources.get(d.span.file, []))
    ]
    if compiler.problems:
        raise SpecError(_in_order(compiler.problems + notices), doc.all_sources())
    return replace(spec, notices=tuple(_in_order(notices)))


def _in_order(problems: list[Diagnostic]) -> list[Diagnostic]:
    """By place (file order, which docs/cli.md promises), each once: a deck.build value
    tags every card it makes, and one mistake there would otherwise be told once per
    card."""
    return sorted(dict.fromkeys(problems), key=lambda d: (d.span.line, d.span.col))


# what a reset counter's initial value may not read: cards, where they lie
_TABLE_READS = (ir.ZoneRef, ir.Memory)

# what a per_card counter cannot be, and why (RS104)
_NOT_PER_CARD = {
    "per_player": "each card holds its own value, whoever holds the card",
    "per_team": "each card holds its own value, whichever team holds the card",
    "count": "each card holds one value; declare a counter per_card for each value",
    "by": "each card holds one value; declare a counter per_card for each value",
    "match": "a card's value is set back as it moves, and the next game deals afresh",
}
# what a per_card counter's initial value may be made of: numbers, parameters, arithmetic
_CONSTANT_PARTS = (ir.Const, ir.Param, ir.Binary, ir.Unary, ir.IfExpr)


def _at_rest_on_card(initial: ir.Expr) -> bool:
    """A per_card counter's initial value that is no number and needs no table: a kind
    written out (a card type, a tag, no_kind) or nobody."""
    if isinstance(initial, ir.Kind):
        return True
    return (
        isinstance(initial, ir.Local) and initial.builtin and initial.name in ("nobody", "no_kind")
    )


# the game-wide values ir.Spec.places places: (field, its key's path; a value left to
# its default, as players' default, at the key above it)
_PLACES = (
    ("name", ("name",)),
    ("min_players", ("players", "min")),
    ("max_players", ("players", "max")),
    ("default_players", ("players", "default")),
    ("player_counts", ("players", "counts")),
    ("turn_limit", ("turn_limit",)),
    ("hand", ("hand",)),
)

# the scope of a round's effects: end_turn() there would cut the change of rounds short
_ROUND = {"__round__": "str"}


def _rulings(entry: dict) -> tuple[str, ...]:
    return tuple(entry.get("rulings", ()))


def _partly_bound(bound: dict[str, dict], scope) -> dict[str, str]:
    """Name -> why a reaction cannot read it: a local that some of the actions it
    answers bind and others do not (or bind with another type)."""
    why = {}
    for name in {n for lets in bound.values() for n in lets} - set(scope):
        lacking = [a for a, lets in bound.items() if name not in lets]
        if lacking:
            # a name the language binds cannot be let: the fix is in what the rules are
            binding = [a for a in bound if a not in lacking]
            fix = (
                f"; '{name}' is {reserved_as(name)}, never a local: give "
                f"{_listed(binding)} a reaction of their own"
                if name in RESERVED
                else f" (add `let {name} = ...` to '{lacking[0]}')"
            )
            why[name] = (
                f"'{name}' is bound by {_listed(binding)}, not by {_listed(lacking)}, "
                f"which it answers too: a reaction reads what every action it answers "
                f"binds{fix}"
            )
        else:
            types = ", ".join(f"{lets[name]} in '{a}'" for a, lets in bound.items())
            why[name] = (
                f"'{name}' has another type in the actions it answers ({types}): a "
                "reaction reads a local of one type, so bind it alike in each"
            )
    return why


def _listed(actions: list[str]) -> str:
    return ", ".join(f"'{a}'" for a in actions)


def _chain_roots(answers, actions, reactions) -> list[str]:
    """The actions at the root of the chains an answer can join, in the order found:
    what it answers, and what those answers answer, back to the actions."""
    roots, seen, todo = [], set(), list(answers)
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.add(name)
        if name in actions:
            roots.append(name)
        elif isinstance(reactions.get(name), dict):
            todo += [a for a in reactions[name].get("answers", ()) if isinstance(a, str)]
    return roots


class _Compiler:
    def __init__(self, doc: Document):
        self.doc = doc
        self.data: dict = doc.data
        self.problems: list[Diagnostic] = []
        self.notices: list[Diagnostic] = []  # warnings: the spec stands
        self.unsized: set[str] = set()  # families whose count or by was refused, and said so

    def error(self, code, message, path, hint="", key=False):
        span = self.doc.key_span(path) if key else self.doc.span(path)
        self.error_at(code, message, span, hint)

    def error_at(self, code, message, span, hint=""):
        self.problems.append(Diagnostic(code, message, span, hint=hint))

    # --- names ---------------------------------------------------------------------

    def _names(self) -> Names:
        d = self.data
        seen: dict[str, tuple] = {}
        refused = {k for k, what in self.failed.items() if what == "tag"}

        def claim(name, span, what) -> bool:
            """Accept a name, or report why not; a rejected name keeps its first meaning."""
            if kept(name, what):
                self.notices.append(deprecated_name(name, what, span))
            elif name in RESERVED:
                refused.add(name)
                self.error_at(
                    "RS202",
                    f"{what} '{name}' uses a name the language reserves: {reserved_as(name)}",
                    span,
                    "pick another name"
                    + ("; a value in deck.build is a tag of the cards it makes" * (what == "tag")),
                )
                return False
            if name in seen and not (what == "tag" and seen[name][1] == "tag"):
                refused.add(name)
                self.error_at(
                    "RS202",
                    f"duplicate name '{name}': already a {seen[name][1]} (at {seen[name][0]})",
                    span,
                    "cards, tags, parameters, zones, counters, goals, procedures, "
                    "conditions and windows share one namespace",
                )
                return False
            seen.setdefault(name, (span, what))
            return True

        self._claimed = seen  # filled before any parameter is judged against it
        kinds = {c.name for c in self.decls if claim(c.name, c.span, "card")}
        for c in self.decls:
            for t, span in zip(c.tags, c.tag_spans):
                if claim(t, span, "tag"):
                    kinds.add(t)
        accepted = {
            section: {
                n: v
                for n, v in (d.get(section) or {}).items()
                if claim(n, self.doc.key_span((section, n)), what)
            }
            for section, what in (
                ("parameters", "parameter"),
                ("zones", "zone"),
                ("counters", "counter"),
                ("goals", "goal"),
                ("remember", "remembered card"),
                ("procedures", "procedure"),
                ("conditions", "condition"),
                ("windows", "window"),
            )
        }
        props = self._prop_types(kinds)
        prop_values = {  # a property of kinds: the kinds it names, in values() order
            k: tuple(dict.fromkeys(v for c in self.decls if (v := c.props.get(k)) is not None))
            for k, t in props.items()
            if t == "kind"
        }
        by = {
            k: self._by_values(k, v, props, prop_values)
            for k, v in _zones_and_counters(accepted)
            if "by" in v
        }
        return Names(
            params={
                k: ("bool" if isinstance(default_of(v), bool) else "int")
                for k, v in accepted["parameters"].items()
            },
            counters={
                k: _owned(v) and not v.get("per_card") for k, v in accepted["counters"].items()
            },
            per_card={k for k, v in accepted["counters"].items() if v.get("per_card")},
            zones={k: _owned(v) for k, v in accepted["zones"].items()},
            families={  # a per_card counter with a count too is refused (RS104), not a family
                k: len(by[k]) if k in by else self._family_size(k, v, accepted["parameters"])
                for k, v in _zones_and_counters(accepted)
                if ("count" in v or k in by) and not v.get("per_card")
            },
            family_by={k: (v["by"], by[k]) for k, v in _zones_and_counters(accepted) if k in by},
            unsized=self.unsized,
            prop_values=prop_values,
            per_team={k for k, v in _zones_and_counters(accepted) if v.get("per_team")},
            refilled={
                k
                for k, v in accepted["zones"].items()
                if isinstance(v, dict) and v.get("refill_from")
            },
            memories={k: bool(v.get("per_player")) for k, v in accepted["remember"].items()},
            kinds=kinds,
            all_names={name: what for name, (_, what) in seen.items()},
            props=props,
            goals=set(accepted["goals"]),
            windows=set(accepted["windows"]),
            windows_in_order=tuple(accepted["windows"]),
            reactions=frozenset(r if isinstance(r := d.get("reactions"), dict) else ()),
            refused=refused,
            removed=self.doc.removed,
            procedures={
                k: self._params(("procedures", k), v) for k, v in accepted["procedures"].items()
            },
            conditions={
                k: self._params(("conditions", k), v) for k, v in accepted["conditions"].items()
            },
            results={
                k: v.get("type", "int") if "value" in v else "bool"
                for k, v in accepted["conditions"].items()
            },
        )

    def _params(self, path, entry) -> tuple[tuple[str, str], ...]:
        """A procedure's or condition's parameters, (name, type) in call order. A
        parameter is a local of its body, so it may not take a name of the spec or
        the language (RS202); it keeps its type, so that calls are still checked."""
        params = tuple((entry.get("params") or {}).items())
        for name, _ in params:
            if kept(name, "procedure's parameter") and name not in self._claimed:
                span = self.doc.key_span(path + ("params", name))
                self.notices.append(deprecated_name(name, "parameter", span))
            elif name in RESERVED or name in self._claimed:
                self.error_at(
                    "RS202",
                    f"parameter '{name}' is already a name of the spec or the language; "
                    "a parameter needs a name of its own",
                    self.doc.key_span(path + ("params", name)),
                    reserved_hint(name),
                )
        return params

    def _zone(self, name: str, z: dict) -> ir.ZoneDef:
        refill = z.get("refill_from")
        if isinstance(refill, dict):  # {zone, keep_top}: the long form
            refill, keep = refill["zone"], refill.get("keep_top", 0)
        else:
            keep = 0
        return ir.ZoneDef(
            name,
            bool(z.get("per_player")),
            z.get("visibility", "public"),
            bool(z.get("ordered")),
            bool(z.get("start")),
            refill,
            self.doc.key_span(("zones", name)),
            self.names.families.get(name),
            keep,
            z.get("title", name.replace("_", " ")),
            bool(z.get("per_team")),
            z.get("text", ""),
            self._titles(name, z),
            z.get("by", ""),
            _count_param(z),
            z.get("shown", True),
            self._spread(name, z),
        )

    def _spread(self, name: str, z: dict) -> bool:
        """`spread: true`: an ordered zone every card of which the table shows; an
        unordered zone is shown whole already (RS104)."""
        if z.get("spread") and not z.get("ordered"):
            self.error(
                "RS104",
                f"'spread' is for an ordered zone, which the table shows by its top card once "
                f"it is long; '{name}' is not ordered, and is shown whole already",
                ("zones", name, "spread"),
                "leave out spread, or add ordered: true",
                key=True,
            )
        return bool(z.get("spread"))

    def _titles(self, name: str, entry: dict) -> tuple[str, ...]:
        """A family's titles, as written; a `by` family's default to its values' own,
        before the family's title as written, or else its name ("red discards")."""
        if "titles" in entry or name not in self.names.family_by or name in self.unsized:
            return tuple(entry.get("titles", ()))
        return self._by_titles(
            entry.get("title", name.replace("_", " ")), self.names.family_by[name][1]
        )

    def _by_values(self, name: str, entry: dict, props: dict, prop_values: dict) -> tuple[str, ...]:
        """The values a family's `by` property takes, in values() order (the kinds it
        names, in the order of the first card type naming each): a zone (or counter) of
        the family each. RS204 for a property whose values are not card types or tags
        (or that no card declares), for two values naming the same cards (a card's value
        could not tell which member it means), and for more than 64 values; RS104 for
        `by` beside `count`. A refused family is `unsized`: its uses say no more."""
        section = self._section(name)
        prop, span = entry["by"], self.doc.span((section, name, "by"))
        if "count" in entry:
            self.error_at("RS104", f"'{name}' has both count and by: by gives the count", span,
                          "leave out count")  # fmt: skip
        values = prop_values.get(prop, ())
        problem, hint = None, ""
        if props.get(prop) == FAILED:
            pass  # the deck's error said why, once
        elif props.get(prop) != "kind":
            kinds = sorted(p for p, t in props.items() if t == "kind")
            held = "no card declares it" if prop not in props else f"its values are {props[prop]}"
            problem = (
                f"by: '{prop}' must be a card property whose values are card types or tags ({held})"
            )
            hint = did_you_mean(prop, kinds) or (
                f"properties of card types or tags: {', '.join(kinds)}" if kinds else
                "give the cards a property naming a card type or tag, as suit: hearts"
            )  # fmt: skip
        elif len(values) > ir.MAX_RANGE:
            problem = f"by: '{prop}' has {len(values)} values: a family holds 1 to {ir.MAX_RANGE}"
        else:
            cards = {v: self._cards_of(v) for v in values}
            same = next(
                ((a, b) for a in values for b in values if a < b and cards[a] == cards[b]), None
            )
            if same:
                problem = (
                    f"by: values '{same[0]}' and '{same[1]}' of '{prop}' name the same "
                    f"cards, so a card's '{prop}' could not tell their {section} apart"
                )
                hint = "give one of them a card of its own, or the family one member for both"
        if problem is not None:
            self.error_at("RS204", problem, span, hint)
        if problem is not None or props.get(prop) == FAILED:
            self.unsized.add(name)
            return ("",)
        return values

    def _section(self, name: str) -> str:
        """Where a family is declared: under zones or under counters."""
        return "zones" if name in (self.data.get("zones") or {}) else "counters"

    def _cards_of(self, kind: str) -> frozenset[str]:
        """The card types a card type's or tag's name stands for."""
        return frozenset(c.name for c in self.decls if kind == c.name or kind in c.tags)

    def _family_size(self, name: str, entry: dict, params: dict) -> int:
        """A family's count; with `count: PARAM`, the most the parameter gives at any
        player count (a game sizes the family for its own, ir.Spec.sized_for). A name
        that is no parameter, or one whose value is not 1 to 64 at every player count,
        is RS204; the family then keeps one member, so its uses are checked."""
        count = entry["count"]
        if not isinstance(count, str):
            return count
        path = (self._section(name), name, "count")
        if count not in params:
            hint = did_you_mean(count, list(params)) or (
                "this key reads no formula: for a size by the player count, name a parameter "
                'with a value per player count (rows: {default: 3, players: {"4": 4}}, then '
                "count: rows)"
            )
            self.error("RS204", f"count: '{count}' is neither a number nor a parameter", path, hint)
            self.unsized.add(name)
            return 1
        raw, players = params[count], self.data.get("players") or {}
        given = raw.get("players", {}) if isinstance(raw, dict) else {}
        values = {
            n: given.get(str(n), given.get(n, default_of(raw)))
            for n in range(players.get("min", 1), players.get("max", 1) + 1)
        }
        if not values or any(
            value_class(v) != value_class(default_of(raw)) for v in values.values()
        ):
            self.unsized.add(name)  # no player count, or the parameter's own error said why
            return 1
        if type(default_of(raw)) is not int:
            problem = "holds true or false, not a number"
        else:
            wrong = [(n, v) for n, v in values.items() if not 1 <= v <= ir.MAX_RANGE]
            problem = wrong and f"is {wrong[0][1]} with {wrong[0][0]} players"
        if problem:
            self.error(
                "RS204",
                f"count: parameter '{count}' {problem}: a family holds 1 to {ir.MAX_RANGE}",
                path,
            )
            self.unsized.add(name)
            return 1
        return max(values.values())

    def _by_titles(self, title: str, values: tuple[str, ...]) -> tuple[str, ...]:
        """A `by` family's titles: each value's, before the family's ("red pile")."""
        titles = {c.name: c.title for c in self.decls}
        return tuple(f"{titles.get(v, v.replace('_', ' '))} {title}" for v in values)

    def _prop_types(self, kinds: set) -> dict[str, str]:
        """A card property's type is what every card declaring it gives: numbers, true
        or false, names of card kinds, or else text. Numbers, true/false and text mixed
        in one property are RS406: `prop` could not have one type."""
        values: dict[str, list] = {}
        for c in self.decls:
            for k, v in c.props.items():
                values.setdefault(k, []).append((c, v))
        types = {}
        for k, named in values.items():
            first = named[0]
            for c, v in named[1:]:
                if value_class(v) != value_class(first[1]):
                    self.error_at(
                        "RS406",
                        f"property '{k}' is {value_class(first[1])} on "
                        f"'{first[0].name}' but {value_class(v)} on '{c.name}'",
                        c.prop_spans[k],
                        "give every card the same type of value for it",
                    )
                    break
            vs = [v for _, v in named]
            if all(isinstance(v, bool) for v in vs):
                types[k] = "bool"
            elif all(isinstance(v, int) and not isinstance(v, bool) for v in vs):
                types[k] = "int"
            elif all(isinstance(v, str) and v in kinds for v in vs):
                types[k] = "kind"
            else:
                types[k] = "str"
        for k in {k for k, what in self.failed.items() if what == "property"} - set(types):
            types[k] = FAILED  # reported where it is derived: its uses say no more
        return types

    def _shared_titles(self) -> None:
        """RS215, a warning: two card types of one title (written so, or filled from their
        props) cannot be told apart by the people at the table, who type and read titles."""
        self._one_title_each(
            "RS215",
            "cards",
            ((c.name, c.title, c.span) for c in self.decls),
            "the table cannot tell them apart",
            "give each card type a title of its own",
        )

    def _one_title_each(self, code: str, what: str, titled, says: str, hint: str) -> None:
        """A warning for each (name, title, span) whose title, in any case, an earlier
        one has."""
        first: dict[str, str] = {}
        for name, title, span in titled:
            other = first.setdefault(title.casefold(), name)
            if other != name:
                self.notices.append(
                    Diagnostic(
                        code,
                        f"{what} '{other}' and '{name}' are both titled '{title}': {says}",
                        span,
                        severity="warning",
                        hint=hint,
                    )
                )

    def _shared_tags(self) -> None:
        """RS213, a warning: a text value is also a tag of its card (`of(hand(p), hearts)`),
        so a value two properties give makes one tag of cards of both. A designer who
        named the other suit of a card's colour (`same_colour: spades` on the clubs)
        merged two suits without a word: `c.suit == clubs` held for a spade."""
        givers: dict[str, dict] = {}  # tag -> property -> the cards it tags so
        for c in self.decls:
            for k, v in c.props.items():
                if isinstance(v, str) and v in c.tags:
                    givers.setdefault(v, {}).setdefault(k, []).append(c)
        shared: dict[tuple, list] = {}  # the properties -> the tags they give other cards
        for tag, by in givers.items():
            if len({tuple(c.name for c in cards) for cards in by.values()}) > 1:
                shared.setdefault(tuple(sorted(by)), []).append(tag)
        for props, tags in shared.items():
            tag = tags[0]
            (k1, cards1), (k2, cards2) = list(givers[tag].items())[:2]
            c1 = next((c for c in cards1 if c not in cards2), cards1[0])
            c2 = next(
                (c for c in cards2 if c not in cards1), next(c for c in cards2 if c is not c1)
            )
            named = ", ".join(f"'{t}'" for t in tags)
            self.notices.append(
                Diagnostic(
                    "RS213",
                    f"properties {' and '.join(repr(k) for k in props)} both give {named}: "
                    f"a text value is also a tag of its card, so the tag '{tag}' names "
                    f"'{c1.name}' (by its {k1}) and '{c2.name}' (by its {k2}) alike, and "
                    f"`count(cards, {tag})` counts both",
                    c2.prop_spans[k2],
                    severity="warning",
                    hint=f"give '{k2}' values no other property gives, and compare those",
                )
            )

    # --- sections ------------------------------------------------------------------

    def build(self) -> ir.Spec:
        d, doc = self.data, self.doc
        self.failed: dict[str, str] = {}  # derived properties and tags refused (reported)
        self.formulas: list[ir.Formula] = []
        self.decls = decks.declare(doc, self.problems, self.failed, self.notices, self.formulas)
        self._shared_tags()
        self._shared_titles()
        names = self._names()
        self.names = names
        b = self.b = Builder(names, self.problems)

        cards = tuple(
            ir.CardType(
                c.name,
                c.title,
                c.count,
                c.tags,
                tuple(sorted(c.props.items())),
                c.span,
                c.text,
                c.family,
            )
            for c in self.decls
        )
        tags = tuple(sorted({t for c in cards for t in c.tags}))
        params = tuple(self._param(n, v) for n, v in (d.get("parameters") or {}).items())
        zones = tuple(self._zone(n, z) for n, z in d["zones"].items())
        counters = tuple(self._counter(n, c) for n, c in (d.get("counters") or {}).items())
        goals = tuple(
            ir.GoalDef(
                n,
                g["zone"],
                tuple((o["card"], o["limit"]) for o in g["order"]),
                _rulings(g),
                doc.key_span(("goals", n)),
                g.get("title", _title(n)),
                g.get("text", ""),
            )
            for n, g in (d.get("goals") or {}).items()
        )
        evaluation = (
            b.expr(doc, ("evaluation",), d["evaluation"], {"me": "player"}, "int")
            if "evaluation" in d
            else None
        )
        turn_order = (
            b.expr(doc, ("turn_order",), d["turn_order"], {}, "player")
            if "turn_order" in d
            else None
        )
        payoff = self._payoff(b, doc, d["payoff"]) if "payoff" in d else None
        removals = decks.removals(doc, self.decls, self.problems, self.failed)

        conditions = tuple(self._condition(n, d["conditions"][n]) for n in names.conditions)
        procedures = tuple(self._procedure(n, d["procedures"][n]) for n in names.procedures)
        # where each procedure opens a window, for RS208 at a call no action or answer makes
        for p in procedures:
            for holder in (p, *ir.called(p.effect, procedures)):
                if own := ir.windows(holder.effect, ()):
                    names.reacting[p.name] = (holder.name, own[0].span)
                    break
        self.procedures = procedures
        self._condition_calls(conditions)
        conditions = self._audiences(conditions, zones, goals)
        setup = b.block(doc, ("setup", "effect"), d["setup"]["effect"], {}) if "setup" in d else ()
        actions, action_lets, self.action_roles = [], {}, {}
        for n, a in (d.get("actions") or {}).items():
            before = len(self.problems)
            actions.append(self._action(n, a))
            self.action_roles[n] = self._roles(actions[-1])
            # an action with problems may lack locals its reactions use: None marks it
            action_lets[n] = (
                self._top_lets(actions[-1].effect) if len(self.problems) == before else None
            )
        actions = tuple(actions)
        raw_reactions = d.get("reactions") or {}
        reactions = tuple(
            self._reaction(n, r, action_lets, raw_reactions) for n, r in raw_reactions.items()
        )
        turn = tuple(self._step(i, s) for i, s in enumerate(d["turn"]))
        self._settling(actions, turn)
        ends = tuple(
            self._trigger("end_conditions", n, t)
            for n, t in (d.get("end_conditions") or {}).items()
        )
        triggers = tuple(
            self._trigger("triggers", n, t) for n, t in (d.get("triggers") or {}).items()
        )
        rounds = self._rounds(d["rounds"]) if "rounds" in d else None
        windows = tuple(
            self._window(n, d["windows"][n], raw_reactions) for n in names.windows_in_order
        )

        players = d["players"]
        counts = tuple(sorted(players.get("counts", ())))  # its fewest and most: min and max
        low, high = (counts[0], counts[-1]) if counts else (players["min"], players["max"])
        spec = ir.Spec(
            name=d["name"],
            min_players=low,
            max_players=high,
            default_players=players.get("default", low),
            player_counts=counts or tuple(range(low, high + 1)),
            turn_limit=d.get("turn_limit", DEFAULT_TURN_LIMIT),
            hand=d.get("hand"),
            cards=cards,
            tags=tags,
            params=params,
            zones=zones,
            counters=counters,
            setup=setup,
            setup_text=d.get("setup", {}).get("text", ""),
            setup_span=doc.key_span(("setup",)) if "setup" in d else doc.span(()),
            formulas=tuple(self.formulas),
            kind_props=frozenset(names.prop_values),
            places=tuple(
                (name, doc.key_span(path if len(path) == 1 or path[1] in d[path[0]] else path[:1]))
                for name, path in _PLACES
                if path[0] in d
            ),
            turn=turn,
            actions=actions,
            reactions=reactions,
            end_conditions=ends,
            triggers=triggers,
            span=doc.span(()),
            removals=removals,
            goals=goals,
            evaluation=evaluation,
            payoff=payoff,
            turn_order=turn_order,
            rounds=rounds,
            procedures=procedures,
            conditions=conditions,
            memories=tuple(
                ir.MemoryDef(
                    n,
                    bool(m.get("per_player")),
                    m.get("until", "turn"),
                    doc.key_span(("remember", n)),
                )
                for n, m in (d.get("remember") or {}).items()
            ),
            teams=tuple(self._team(n, seats) for n, seats in (d.get("teams") or {}).items()),
            windows=windows,
            branch_texts=tuple((d.get("branches") or {}).items()),
        )
        self._cross_checks(spec)
        self._team_checks(spec)
        self._text_placeholders(spec)
        if self.callees_first is not None:  # the named conditions call round no circle
            self.problems += shown.told(spec)
        return spec

    def _text_placeholders(self, spec: ir.Spec) -> None:
        """A `{name}` in the text of a rule, zone, counter or definition shows that
        parameter's value where the text is shown (narrate.Titles): a variant that sets
        it changes the words too. One that names no parameter shows as written: RS214."""
        params = [p.name for p in spec.params]
        parts = [r for _, r in spec.rules()]
        parts += [*spec.zones, *spec.counters, *spec.procedures, *spec.conditions, *spec.goals]
        for part in parts:
            for name in ir.PLACEHOLDER.findall(getattr(part, "text", "")):
                if name not in params:
                    self.notices.append(
                        Diagnostic(
                            "RS214",
                            f"the text of '{part.name}' names {{{name}}}, which is no "
                            "parameter: it shows as written",
                            part.span,
                            severity="warning",
                            hint=did_you_mean(name, params)
                            or "name a parameter in braces, and the text shows its value",
                        )
                    )

    def _team(self, name: str, seats: list[str]) -> ir.TeamDef:
        """A team, its seats counted from 0; a label that is no seat is RS412."""
        numbers = []
        for i, label in enumerate(seats):
            if re.fullmatch(r"P[1-9][0-9]*", label):
                numbers.append(int(label[1:]) - 1)
            else:
                self.error(
                    "RS412", f"'{label}' is not a seat: write P1, P2, ...", ("teams", name, i)
                )
        return ir.TeamDef(name, tuple(numbers), self.doc.key_span(("teams", name)))

    def _team_checks(self, spec: ir.Spec) -> None:
        """Teams split the seats: each seat at the table in exactly one team, and
        every team seated at every player count; per_team needs teams (RS412)."""
        home: dict[int, str] = {}
        for t in spec.teams:
            for i, seat in enumerate(t.seats):
                where = ("teams", t.name, i)
                if seat >= spec.max_players:
                    self.error(
                        "RS412",
                        f"team '{t.name}' names seat P{seat + 1}, but the game has at "
                        f"most {spec.max_players} players",
                        where,
                    )
                elif seat in home:
                    self.error(
                        "RS412",
                        f"seat P{seat + 1} is in two teams: '{home[seat]}' and '{t.name}'",
                        where,
                        "a seat plays for one team",
                    )
                home.setdefault(seat, t.name)
            if t.seats and min(t.seats) >= spec.min_players:
                self.error(
                    "RS412",
                    f"team '{t.name}' has no seat in a game of {spec.min_players} players",
                    ("teams", t.name),
                    key=True,
                )
        missing = [f"P{p + 1}" for p in range(spec.max_players) if p not in home]
        if spec.teams and missing:
            self.error(
                "RS412",
                f"{', '.join(missing)} in no team: every seat plays for a team",
                ("teams",),
                key=True,
            )
        for section, things in (("zones", spec.zones), ("counters", spec.counters)):
            for x in things:
                if not x.per_team:
                    continue
                if not spec.teams:
                    why = "but the spec declares no teams"
                elif x.per_player:
                    why = "so it cannot also be per_player"
                else:
                    continue
                self.error(
                    "RS412",
                    f"{section[:-1]} '{x.name}' is per_team, {why}",
                    (section, x.name, "per_team"),
                )

    def _param(self, name, v) -> ir.ParamDef:
        """A parameter, with its values for some player counts, each typed like its default."""
        span = self.doc.key_span(("parameters", name))
        if not isinstance(v, dict):
            return ir.ParamDef(name, v, span, title=_title(name))
        by_players = v.get("players", {})
        for players, x in by_players.items():
            if value_class(x) != value_class(v["default"]):
                self.error(
                    "RS204",
                    f"parameter '{name}' is {value_class(v['default'])}, but its "
                    f"value for {players} players is {value_class(x)}",
                    ("parameters", name, "players", players),
                )
        return ir.ParamDef(
            name,
            v["default"],
            span,
            tuple(sorted((int(k), x) for k, x in by_players.items())),
            v.get("title", _title(name)),
            v.get("text", ""),
        )

    @staticmethod
    def _roles(a: ir.Action) -> dict[str, str]:
        """The names an action binds for its effect (and so for its reactions)."""
        roles = {"card": "cards"} if a.card else {}
        if a.target == "card":
            roles["chosen"] = "cards"
        elif a.target == "zone":
            roles["target"] = "zone"
        elif a.target != "none":
            roles["target"] = "player"
        return roles

    def _top_lets(self, effect) -> dict[str, str]:
        """The locals an action's reactions may use: top-level lets made before the
        first statement that can open a reaction window; none when a procedure it calls
        opens one: its answers run in that procedure's locals, which end with the call."""
        if any(ir.windows(p.effect, ()) for p in ir.called(effect, self.procedures)):
            return {}
        lets = {}
        for s in effect:
            if ir.calls((s,), "react"):
                break
            if isinstance(s, ir.Let):
                lets[s.name] = s.value.type
        return lets

    def _action(self, name, a) -> ir.Action:
        doc, b, path = self.doc, self.b, ("actions", name)
        target = a.get("target", "none")
        scope = {"card": "cards"} if "card" in a else {}
        among = None
        if target == "card":
            if "among" not in a:
                self.error(
                    "RS103",
                    f"action '{name}' targets a card but says not among which",
                    path,
                    "add among: <cards>",
                    key=True,
                )
            else:
                picked = "'chosen' is the card picked from among: bound in the action's if, "
                with b.unbound_here({"chosen": picked + "to and effect, not in among itself"}):
                    among = b.expr(doc, path + ("among",), a["among"], scope, "cards")
            scope["chosen"] = "cards"
        elif target == "zone":
            among = self._zones_among(name, a, path, scope)
            scope["target"] = "zone"
        else:  # a player's target is bound whatever else is wrong: one error, not three
            if "among" in a:
                self.error(
                    "RS104", "'among' is for target: card or zone", path + ("among",), key=True
                )
            if target != "none":
                scope["target"] = "player"
        cond = b.expr(doc, path + ("if",), a["if"], scope, "bool") if "if" in a else None
        untargeted = self._without_target(name, a, path)
        with b.unbound_here(
            {"target": "an action played without_target has no target where its card goes"}
            if untargeted
            else {}
        ):
            to_scope = {k: v for k, v in scope.items() if not (untargeted and k == "target")}
            to = b.expr(doc, path + ("to",), a["to"], to_scope, "zone") if "to" in a else None
        if "card" in a and "to" not in a:
            self.error(
                "RS103",
                f"action '{name}' plays a card but says not where it goes",
                path,
                "add to: <zone>",
                key=True,
            )
        elif "to" in a and "card" not in a and "count" not in a:  # never worked out
            # (a group without its card is refused: RS103 says what is missing)
            self.notices.append(
                Diagnostic(
                    "RS217",
                    f"action '{name}' plays no card from the hand, so its to: is never used "
                    "(a card target stays where it lies until the effect moves it)",
                    doc.key_span(path + ("to",)),
                    severity="warning",
                    hint="remove to:, or move the card in the effect: move(chosen, <zone>)",
                )
            )
        effect = (
            b.block(doc, path + ("effect",), a["effect"], dict(scope, __action__="str"))
            if "effect" in a
            else ()
        )
        count = self._group(name, a, path) if "count" in a else None
        same = a["count"].get("same") if isinstance(a.get("count"), dict) else None
        if same is not None and same != "card":  # a property, checked as a quoted one is
            key = ir.Const(self.doc.span(path + ("count", "same")), "str", same)
            same = same if self.b.property_type(key, "count.same") is not None else None
        return ir.Action(
            name,
            a.get("card"),
            target,
            cond,
            to,
            effect,
            _rulings(a),
            doc.key_span(path),
            among,
            a.get("title", _title(name)),
            count,
            **_words(a),
            same=same,
            verb=a.get("verb", ""),
            without_target=untargeted,
            settles=bool(a.get("settles")),
            fallback=bool(a.get("fallback")),
        )

    def _zones_among(self, name, a, path, scope) -> ir.Expr | None:
        """`among` of an action that targets a zone: the zones a choice goes over (a
        family, `build`, or a seat's own, `store(current)`), read as a choice's items are,
        with `target` not yet bound."""
        if "among" not in a:
            self.error(
                "RS103",
                f"action '{name}' targets a zone but says not among which",
                path,
                "add among: <a family of zones>, such as among: row",
                key=True,
            )
            return None
        with self.b.unbound_here({"target": "'target' is the zone picked from among"}):
            return self.b.expr(self.doc, path + ("among",), a["among"], scope, "zones", items=True)

    def _without_target(self, name, a, path) -> bool:
        """`without_target: true`, for an action that plays a card at a player."""
        if not a.get("without_target"):
            return False
        target = a.get("target", "none")
        # the cause named, of the three: a designer's count: 1 beside card: and target:
        # other was told only what the action should have, which it seemed to have
        why = (
            "but it plays a group of cards (count:)"
            if "count" in a
            else "but it plays no card (no card:)"
            if "card" not in a
            else f"but its target is {target}"
            if target not in ("other", "any")
            else ""
        )
        if why:
            self.error(
                "RS104",
                f"action '{name}': without_target is for an action that plays one card at "
                f"a player (card:, and target: other or any), {why}",
                path + ("without_target",),
                key=True,
            )
            return False
        return True

    def _group(self, name, a, path) -> tuple[int, int | None] | None:
        """An action's `count`: the fewest and most cards of its group (None: as many
        as the hand holds)."""
        c = a["count"]
        low, high = (c, c) if isinstance(c, int) else (c["min"], c.get("max"))
        if "card" not in a:
            self.error(
                "RS103",
                f"action '{name}' plays a group of cards but says not of which kind",
                path,
                "add  card: <card type, tag or any>",
                key=True,
            )
        elif a.get("target") in ("card", "zone"):
            self.error(
                "RS104",
                f"'count' is for an action that targets no {a['target']} (a group is one "
                "move, at a player or at none)",
                path + ("count",),
                key=True,
            )
        elif high is not None and high < low:
            self.error(
                "RS104",
                f"actions.{name}.count: max {high} is below min {low}",
                path + ("count", "max"),
            )
        elif high is not None and high > MAX_GROUP:
            self.error(
                "RS104",
                f"actions.{name}.count: max {high} is over {MAX_GROUP}, the most a group may hold",
                path + ("count", "max"),
                "leave max out for as many as the hand holds",
            )
        else:
            return low, high
        return None

    def _reaction(self, name, r, action_lets, raw) -> ir.Reaction:
        doc, b, path = self.doc, self.b, ("reactions", name)
        card, answers = r.get("card"), tuple(r["answers"])
        for i, answered in enumerate(answers):
            if answered not in action_lets and answered not in raw:
                self.error(
                    "RS201",
                    f"reaction '{name}' answers unknown action '{answered}'",
                    path + ("answers", i),
                    (
                        f"'{answered}' is a card tag or type: answers lists actions; "
                        f"answer the action that plays it, with if: count(card, {answered}) > 0"
                    )
                    if answered in self.names.kinds
                    else removed_hint(self.doc.removed[answered])
                    if answered in self.doc.removed
                    else did_you_mean(answered, [*action_lets, *raw]),
                )
        if card is not None and "to" not in r:
            self.error(
                "RS103",
                f"missing required key 'to': reaction '{name}' plays a card but "
                "says not where it goes",
                path,
                "add to: <zone>",
                key=True,
            )
        elif card is None and "to" in r:
            self.error("RS104", "'to' is for a reaction with a card", path + ("to",), key=True)
        shared, complete = None, all(a in action_lets or a in raw for a in answers)
        bound: dict[str, dict] = {}  # each action at a chain's root -> what it binds
        for answered in _chain_roots(answers, action_lets, raw):
            lets = action_lets[answered]
            if lets is None:
                complete = False
                continue
            lets = bound[answered] = dict(lets, **self.action_roles[answered])
            shared = (
                dict(lets)
                if shared is None
                else {k: v for k, v in shared.items() if lets.get(k) == v}
            )
        if not complete:  # its scope is unknown: checking its effect would only mislead
            return ir.Reaction(
                name,
                card,
                answers,
                bool(r.get("forced")),
                None,
                None,
                (),
                _rulings(r),
                doc.key_span(path),
                r.get("title", _title(name)),
                **_words(r),
            )
        scope = dict(shared or {}, reactor="player", __action__="str")
        if card is not None:
            scope["answer"] = "cards"
        if any(a in raw for a in answers):  # an answer to an answer knows whom it answers
            scope["actor"] = "player"
        with b.unbound_here(_partly_bound(bound, scope)):
            cond = b.expr(doc, path + ("if",), r["if"], scope, "bool") if "if" in r else None
            to = (
                b.expr(doc, path + ("to",), r["to"], scope, "zone")
                if card is not None and "to" in r
                else None
            )
            effect = b.block(doc, path + ("effect",), r["effect"], scope)
        return ir.Reaction(
            name,
            card,
            answers,
            bool(r.get("forced")),
            cond,
            to,
            effect,
            _rulings(r),
            doc.key_span(path),
            r.get("title", _title(name)),
            **_words(r),
        )

    def _window(self, name, w, reactions) -> ir.WindowDef:
        """A named reaction window: the reactions it offers must be the spec's."""
        for i, offered in enumerate(w["offers"]):
            if offered not in reactions:
                self.error(
                    "RS201",
                    f"window '{name}' offers unknown reaction '{offered}'",
                    ("windows", name, "offers", i),
                    did_you_mean(offered, reactions),
                )
        return ir.WindowDef(
            name,
            tuple(w["offers"]),
            self.doc.key_span(("windows", name)),
            w.get("title", _title(name)),
            w.get("text", ""),
            w.get("prompt", ""),
        )

    def _step(self, i, s) -> ir.Step:
        doc, path = self.doc, ("turn", i)
        effect = ()
        if "effect" in s:
            effect = self.b.block(doc, path + ("effect",), s["effect"], {})
        for key in ("repeat", "again_if"):
            if key in s and s[key] is not False and "actions" not in s:
                self.error(
                    "RS104",
                    f"'{key}' is for a play step (one with actions)",
                    path + (key,),
                    key=True,
                )
        if s.get("repeat") and "again_if" in s:
            self.error(
                "RS104",
                "'repeat' offers the step again after every play, 'again_if' only when its "
                "condition holds: a step has one or the other",
                path + ("again_if",),
                "keep again_if, and add optional: true if each offer may be passed",
                key=True,
            )
        when = None
        if "if" in s:
            when = self.b.expr(doc, path + ("if",), s["if"], {}, "bool")
        again_if = None
        if "again_if" in s:
            again_if = self.b.expr(doc, path + ("again_if",), s["again_if"], {}, "bool")
        pass_if = None
        if "pass_if" in s:
            pass_if = self.b.expr(doc, path + ("pass_if",), s["pass_if"], {}, "bool")
        self._pass_keys(s, path)
        pass_effect = ()
        if "pass_effect" in s:  # bound like a step's effect: a pass opens no window (RS208)
            pass_effect = self.b.block(doc, path + ("pass_effect",), s["pass_effect"], {})
        if "around" in s:
            self._around(s, path)
        elif s.get("lead"):
            self.error(
                "RS104",
                "'lead' is for a step offered round the table (around): its turn's player "
                "plays first, then each player in turn",
                path + ("lead",),
                "for one play the turn's player must make, leave out optional",
                key=True,
            )
        return ir.Step(
            s["step"],
            effect,
            tuple(s.get("actions", ())),
            bool(s.get("optional")),
            _rulings(s),
            doc.span(path),
            bool(s.get("repeat")),
            s.get("title", _title(s["step"])),
            s.get("around"),
            **_words(s),
            again_if=again_if,
            lead=bool(s.get("lead")),
            pass_if=pass_if,
            pass_title=s.get("pass_title", ""),
            when=when,
            pass_effect=pass_effect,
        )

    def _pass_keys(self, s, path) -> None:
        """The keys of a step's pass are for a step that offers one."""
        if s.get("optional") or s.get("repeat") or "around" in s:
            return
        for key, says in (
            ("pass_if", "says when a step that offers pass offers it"),
            ("pass_title", "names the pass of a step that offers one"),
            ("pass_effect", "runs when a player passes at a step that offers pass"),
        ):
            if key in s:
                self.error(
                    "RS104",
                    f"'{key}' {says}; this step offers none (it is not optional, repeat or around)",
                    path + (key,),
                    f"add optional: true, or leave {key} out",
                    key=True,
                )

    def _around(self, s, path) -> None:
        """A step offered around the table is a play step, and already offers `pass`
        to each player and again after each play."""
        if "actions" not in s:
            self.error(
                "RS104",
                "'around' is for a play step (one with actions)",
                path + ("around",),
                key=True,
            )
        if "again_if" in s:
            self.error(
                "RS104",
                "'again_if' does not go with 'around', which offers the step round the "
                "table until the players pass",
                path + ("again_if",),
                "leave it out",
                key=True,
            )
        for key in ("optional", "repeat"):
            if key in s:
                self.error(
                    "RS104",
                    f"'{key}' is implied by 'around': each player asked may pass, and the "
                    "step goes round until the players pass",
                    path + (key,),
                    "leave it out",
                    key=True,
                )
        if s.get("lead") and s.get("around") == "others_once":
            self.error(
                "RS104",
                "'lead' makes the turn's player play first, and 'around: others_once' "
                "never asks the turn's player",
                path + ("lead",),
                "for the turn's player first, then each other player once: around: each_once",
                key=True,
            )

    def _settling(self, actions, turn) -> None:
        """`settles: true` is for an action some step offers round the table."""
        around = {a for s in turn if s.around for a in s.actions}
        for a in actions:
            if a.settles and a.name not in around:
                self.error(
                    "RS104",
                    f"action '{a.name}': settles is for an action a step offers round the "
                    "table (around): it counts a play toward the round's end as a pass",
                    ("actions", a.name, "settles"),
                    "offer it at a step with around:, or leave settles out",
                    key=True,
                )

    def _rounds(self, r) -> ir.Rounds:
        doc, path = self.doc, ("rounds",)
        part = {
            key: ir.RoundPart(
                key,
                self.b.block(doc, path + (key, "effect"), r[key]["effect"], _ROUND),
                _rulings(r[key]),
                doc.key_span(path + (key,)),
                r[key].get("title", _title(f"round {key}")),
                **_words(r[key]),
            )
            for key in ("setup", "scoring")
            if key in r
        }
        ends, match_end = (
            tuple(self._trigger(path + (section,), n, t, _ROUND) for n, t in r[section].items())
            for section in ("end_conditions", "match_end")
        )
        starter = (
            self.b.expr(doc, path + ("starter",), r["starter"], {}, "player")
            if "starter" in r
            else None
        )
        return ir.Rounds(
            part["setup"],
            part.get("scoring"),
            ends,
            match_end,
            starter,
            _rulings(r),
            doc.key_span(path),
        )

    def _trigger(self, section, name, t, scope=None) -> ir.Trigger:
        """An end condition or trigger; section is a key, or a path for one inside rounds."""
        doc, b = self.doc, self.b
        path = (section if isinstance(section, tuple) else (section,)) + (name,)
        scope = dict(scope or {}, **({t["each"]: "player"} if "each" in t else {}))
        each = t.get("each")
        if kept(each, "'each' name") and each not in self.names.all_names:
            self.notices.append(deprecated_name(each, "'each' name", doc.span(path + ("each",))))
        elif each is not None and (each in RESERVED or each in self.names.all_names):
            self.error_at(
                "RS202",
                f"'{each}' is already a name of the spec or the language; "
                "'each' needs a name of its own",
                doc.span(path + ("each",)),
                reserved_hint(each),
            )
        if each is None:  # `each: p` binds p for every player: a rule without one may lack it
            b.unbound = lambda n: f"to test the rule for each player as {n}, give it each: {n}"
        try:
            when = b.expr(doc, path + ("when",), t["when"], scope, "bool")
            effect = b.block(doc, path + ("effect",), t["effect"], scope) if "effect" in t else ()
        finally:
            b.unbound = None
        if "at" in t and path[-2] == "match_end":
            self.error(
                "RS104",
                "'at' is not for a match end: it is checked after each round's scoring",
                path + ("at",),
                "to end the match as a turn ends, give a round end condition at: turn_end",
                key=True,
            )
        return ir.Trigger(
            name,
            t.get("each"),
            when,
            effect,
            _rulings(t),
            doc.key_span(path),
            t.get("title", _title(name)),
            **_words(t),
            at=t.get("at"),
            narrate=t.get("narrate", True),
        )

    def _procedure(self, name, p) -> ir.Procedure:
        """A procedure's effect sees its parameters only, besides the spec's names and
        constants: not its caller's locals. It may open a reaction window (react()),
        against the action or answer that called it: a call from anywhere else is RS208."""
        path, params = ("procedures", name), self.names.procedures[name]
        scope = dict(params, __procedure__="str")
        effect = self.b.block(self.doc, path + ("effect",), p["effect"], scope)
        title = p.get("title", _title(name))
        span = self.doc.key_span(path)
        return ir.Procedure(name, title, params, effect, _rulings(p), span, **_words(p))

    def _condition(self, name, c) -> ir.Condition:
        """A named condition (`when:`, a bool) or a named value (`value:`, an int)."""
        path, params = ("conditions", name), self.names.conditions[name]
        key, want = ("value", self.names.results[name]) if "value" in c else ("when", "bool")
        if "type" in c and "when" in c:
            self.error(
                "RS104",
                f"condition '{name}' is true or false: 'type' is for a named value (value:)",
                path + ("type",),
                key=True,
            )
        if ("when" in c) == ("value" in c):
            self.error_at(
                "RS103",
                f"condition '{name}' needs exactly one of 'when' (a condition) or 'value' "
                "(a number)",
                self.doc.key_span(path),
            )
            when = None
        else:
            when = self.b.expr(self.doc, path + (key,), c[key], dict(params), want)
        return ir.Condition(
            name,
            c.get("title", _title(name)),
            params,
            when,
            _rulings(c),
            self.doc.key_span(path),
            c.get("text", ""),
            want,
            ir.EVERY_SEAT if c.get("shown") and self._showable(name, c, params) else "",
        )

    def _showable(self, name, c, params) -> bool:
        """May the table show this named value (`shown: true`)? A value of no parameters
        is shown once, one of a single player for each seat; it is a number, a kind or a
        player, as a counter holds (RS104)."""
        at = ("conditions", name, "shown")
        if "when" in c:
            self.error(
                "RS104",
                f"condition '{name}' is true or false: 'shown' is for a named value (value:), "
                "a number, a kind or a player",
                at,
                f"show a named value of it instead: value: if {name}(...) then 1 else 0",
                key=True,
            )
            return False
        if params and [t for _, t in params] != ["player"]:
            written = ", ".join(f"{p}: {t}" for p, t in params)
            self.error(
                "RS104",
                f"value '{name}' takes ({written}): the table shows a value of no parameters "
                "once, and one of a single player for each seat",
                at,
                f"show a value of no parameters or of one player that calls {name}() with "
                "what to show",
                key=True,
            )
            return False
        if self.names.results[name] not in ("int", "kind", "player"):
            self.error(
                "RS104",
                f"value '{name}' gives {self.names.results[name]}: the table shows a number, "
                "a kind or a player, as a counter holds",
                at,
                f"show a number worked out of them, as size({name}(...))",
                key=True,
            )
            return False
        return True

    def _audiences(self, conditions, zones, goals) -> tuple:
        """Each shown value with whom it is shown to, or RS415 at a read some seat may
        not see (rulespec.lang.shown); judged once the bodies are known whole and call
        one another in no circle."""
        if self.callees_first is None or not any(c.shown for c in conditions):
            return conditions
        zones = {z.name: z for z in zones}
        by_name = {c.name: c for c in conditions}
        counted = {g.name: g.zone for g in goals}
        judged = []
        for c in conditions:
            if c.shown:
                to, problem = shown.audience(c, zones, by_name, counted)
                if problem is not None:
                    self.problems.append(problem)
                c = replace(c, shown=to)
            judged.append(c)
        return tuple(judged)

    def _condition_calls(self, conditions) -> None:
        """RS210: an expression cannot recurse, so no condition may call itself, directly
        or through others (each condition on a circle is reported, with its way round);
        nor may conditions call one another more than MAX_CONDITION_DEPTH deep."""
        self.callees_first = None  # known once the calls are known to go round no circle
        if any(c.when is None for c in conditions):
            return  # a body with problems may lack calls: judging the rest would mislead
        calls = {c.name: ir.condition_calls(c) for c in conditions}
        circles = False
        for c in conditions:
            way = _way_back(c.name, calls)
            if way:
                circles = True
                self.problems.append(
                    Diagnostic(
                        "RS210",
                        f"condition '{c.name}' calls itself: {' -> '.join(way)}",
                        c.span,
                        hint="a condition cannot recurse; write the repeated part out, or use a "
                        "procedure with a while loop",
                    )
                )
        if not circles:
            self.callees_first = ir.callees_first(conditions)
            self._condition_depth(conditions, calls)

    def _condition_depth(self, conditions, calls) -> None:
        """Each chain of calls too deep is reported once, at the condition where it
        passes the bound."""
        depth: dict[str, int] = {}
        for c in self.callees_first:
            depth[c.name] = 1 + max((depth[n] for n in calls[c.name]), default=0)
            if depth[c.name] == MAX_CONDITION_DEPTH + 1:
                self.problems.append(
                    Diagnostic(
                        "RS210",
                        f"condition '{c.name}' starts a chain of {MAX_CONDITION_DEPTH + 1} "
                        f"conditions calling one another; at most {MAX_CONDITION_DEPTH}",
                        c.span,
                        hint="write a part of the chain out",
                    )
                )

    # --- cross-references ----------------------------------------------------------

    def _payoff(self, b, doc, p: dict) -> ir.Payoff | None:
        """`payoff`: what player `me` scores at the end, within its declared min and max."""
        value = b.expr(doc, ("payoff", "value"), p["value"], {"me": "player"}, "int")
        if p["min"] > p["max"]:
            self.problems.append(
                Diagnostic(
                    "RS414",
                    f"payoff's min ({p['min']}) is above its max ({p['max']})",
                    doc.span(("payoff", "min")),
                    hint="min is the lowest payoff a seat can get, max the highest",
                )
            )
        if value is None:
            return None
        span = doc.key_span(("payoff",))
        return ir.Payoff(value, p["min"], p["max"], span, bool(p.get("zero_sum")))

    def _counter(self, name: str, c: dict) -> ir.CounterDef:
        """A counter holds what its initial value is: a number, a player (a dealer) or a
        kind (a suit named), known from here on to what reads it, a later counter's
        initial value included."""
        path = ("counters", name, "initial")
        initial = self.b.expr(self.doc, path, c["initial"], {}, "int|player|kind")
        self.names.counter_types[name] = FAILED if initial is None else initial.type
        read = (
            [] if initial is None else [n for n in ir.walk(initial) if isinstance(n, _TABLE_READS)]
        )
        if c.get("reset") and read:
            self.problems.append(
                Diagnostic(
                    "RS104",
                    f"counter '{name}' is reset as each {c['reset']} begins, so its initial "
                    "value is worked out again then: it may read parameters, constants and "
                    "counters above it, not cards",
                    read[0].span,
                    hint="set it in an effect where the rules say (a counter is public)",
                )
            )
        if c.get("per_card"):
            self._per_card_checks(name, c, initial)
        if c.get("reset") == "round" and "rounds" not in self.data:
            self.problems.append(
                Diagnostic(
                    "RS104",
                    f"counter '{name}' is reset as each round begins, but the game has no "
                    "rounds: its one round lasts the whole game",
                    self.doc.span(("counters", name, "reset")),
                    hint="reset: turn sets it back as each turn begins; or declare rounds",
                )
            )
        if c.get("per_card"):  # what does not go with it was refused above: left out
            c = {k: v for k, v in c.items() if k not in _NOT_PER_CARD}
        return ir.CounterDef(
            name,
            bool(c.get("per_player")),
            initial,
            self.doc.key_span(("counters", name)),
            bool(c.get("match")),
            c.get("title", _title(name)),
            bool(c.get("per_team")),
            c.get("text", ""),
            c.get("narrate", True),
            c.get("shown", True),
            self.names.families.get(name),
            self._titles(name, c),
            c.get("by", ""),
            _count_param(c),
            c.get("reset", ""),
            bool(c.get("per_card")),
        )

    def _per_card_checks(self, name: str, c: dict, initial: ir.Expr | None) -> None:
        """A counter on each card: RS104 for a key it cannot go with, and for an initial
        value that is not a number worked out from parameters and constants (a card
        that moves is set back to it, at any time, so it must not depend on the table)."""
        for key, why in _NOT_PER_CARD.items():
            if key in c:
                self.error_at(
                    "RS104",
                    f"counter '{name}' is per_card, so it cannot be {key}: {why}",
                    self.doc.key_span(("counters", name, key)),
                    "a counter on each card is written name(c); keep per_card, or drop it",
                )
        if initial is None or _at_rest_on_card(initial):
            return
        read = next((n for n in ir.walk(initial) if not isinstance(n, _CONSTANT_PARTS)), None)
        if initial.type == "player":
            self.error_at(
                "RS104",
                f"counter '{name}' is per_card and holds a player: every card starts at "
                "nobody, as a card that moves is set back to its initial value at any time",
                initial.span,
                f"initial: nobody, and set a card's player in an effect: {name}(card) = current",
            )
        elif initial.type != "int" or read is not None:
            self.error_at(
                "RS104",
                f"counter '{name}' is per_card: its initial value is a number worked out from "
                "parameters and constants, a kind, or nobody, as a card that moves is set "
                "back to it at any time",
                (initial if read is None else read).span,
                "set a card's value in an effect, once it lies where the rules want it",
            )

    def _deck_checks(self, spec: ir.Spec) -> None:
        """The deck fits the limits and gives the declared totals (its removals, which
        may name player counts outside players' range since a variant may narrow it,
        are checked as they are read)."""
        deck = self.data["deck"]
        counts = [c.count for c in self.decls]
        for c in self.decls:
            if c.count > MAX_CARDS:
                self.error_at(
                    "RS407",
                    f"{c.count} copies of '{c.name}'; a card type may have at most {MAX_CARDS}",
                    c.count_span,
                )
        if max(counts, default=0) <= MAX_CARDS < sum(counts):
            self.error(
                "RS407",
                f"the deck holds {sum(counts)} cards; a deck may hold at most {MAX_CARDS}",
                ("deck", "cards"),
                key=True,
            )
        if "family" in self.failed.values():
            return  # a family's cards could not be made (reported): the totals would differ
        for players, total in (deck.get("totals") or {}).items():
            got = sum(max(k, 0) for _, k in spec.deck_for(int(players)))
            if got != total:
                self.error(
                    "RS405",
                    f"the deck for {players} players holds {got} cards, not the {total} declared",
                    ("deck", "totals", players),
                )

    def _nested_loops(self, spec: ir.Spec) -> None:
        """RS410: `for` loops over players or cards nested so deep that one run of them
        makes more than MAX_FOR_PASSES passes at the most players and the largest deck
        (64 players, 4 deep: 16 million). A `while` is bounded as the game runs; these
        are not, so they are bounded here."""
        counts = spec.player_counts
        deck = max((sum(k for _, k in spec.deck_for(n)) for n in counts), default=0)
        size = {
            "players": spec.max_players,
            "cards": deck,
            "zone": deck,
            "cardsets": ir.MAX_COMBINATIONS,
        }
        called: dict[str, tuple[int, list]] = {}  # a procedure -> its passes, once worked out

        def looped(s) -> int:  # the passes one loop may make (one player: one)
            return size.get(s.items.type, 1) if isinstance(s, ir.For) else 1

        def passes(s) -> tuple[int, list]:  # the most passes, and the loops that make them
            if isinstance(s, ir.ProcedureCall):  # a loop inside it nests in the caller's
                if s.proc not in called:
                    called[s.proc] = (1, [])  # a call going round counts once
                    # (a procedure whose body failed to compile has none to count)
                    body = [
                        passes(x) for p in spec.procedures if p.name == s.proc for x in p.effect
                    ]
                    called[s.proc] = max(body, key=lambda p: p[0], default=(1, []))
                return called[s.proc]
            inner = [passes(x) for block in ir.iter_blocks(s) for x in block]
            most, loops = max(inner, key=lambda p: p[0], default=(1, []))
            own = looped(s)
            return most * own, ([s] if own > 1 else []) + loops

        blocks = (
            [spec.setup]
            + [ir.body(rule) for _, rule in spec.rules()]
            + [p.effect for p in spec.procedures]
        )
        for s in (s for block in blocks for s in block):
            most, loops = passes(s)
            if most > MAX_FOR_PASSES:
                what = {"players": "players", "cardsets": "sets of cards"}
                over = Counter(
                    f"{size[x.items.type]} {what.get(x.items.type, 'cards')}" for x in loops
                )
                by = ", ".join(f"{k} over {what}" for what, k in over.items())
                self.problems.append(
                    Diagnostic(
                        "RS410",
                        f"{len(loops)} nested for loops make up to {most:,} passes ({by}); "
                        f"at most {MAX_FOR_PASSES:,}",
                        loops[0].span,
                        hint="nest fewer loops, or loop over fewer players or cards",
                    )
                )

    def _cross_checks(self, spec: ir.Spec) -> None:
        """The checks that need the whole spec, in the order their errors are listed."""
        self._player_checks(spec)
        self._nested_loops(spec)
        self.problems += costs.check(spec, self.callees_first)
        self.problems += kindprops.check(spec)
        self._zone_checks(spec)
        for c in spec.counters:
            self._titles_check(c, "counter")
        self._card_checks(spec)
        self._deck_checks(spec)
        self._goal_checks(spec)
        self._step_checks(spec)
        self._branch_texts(spec)
        self._rule_names()

    def _player_checks(self, spec: ir.Spec) -> None:
        d = self.data
        lo, hi, default = spec.min_players, spec.max_players, spec.default_players
        players = d["players"]
        if "counts" in players:
            for key in ("min", "max"):
                if key in players:
                    self.error(
                        "RS401",
                        f"players: counts lists every count the game is for, so it has no "
                        f"{key} beside it (its {key} is {lo if key == 'min' else hi})",
                        ("players", key),
                        "write counts alone, or min and max for every count between",
                    )
            if default not in spec.player_counts:
                counts = ", ".join(map(str, spec.player_counts))
                self.error(
                    "RS401",
                    f"players: default {default} is not one of counts [{counts}]",
                    ("players", "default"),
                )
        elif not lo <= default <= hi:
            self.error(
                "RS401",
                f"players: need min <= default <= max, got {lo}, {default}, {hi}",
                ("players",),
            )
        written = [(("players", k), n) for k, n in players.items() if k != "counts"]
        written += [(("players", "counts", i), n) for i, n in enumerate(players.get("counts", ()))]
        for path, n in written:
            if n > MAX_PLAYERS:
                self.error(
                    "RS408",
                    f"players.{path[1]} is {n}; a game may have at most {MAX_PLAYERS} players",
                    path,
                )
        if spec.turn_limit > MAX_TURN_LIMIT:
            self.error(
                "RS409",
                f"turn_limit is {spec.turn_limit}; it may be at most {MAX_TURN_LIMIT}",
                ("turn_limit",),
                "it only stops a game that would not end",
            )

    def _needs_no_hand(self, spec: ir.Spec) -> None:
        """A game without `hand`: no action or reaction may play a card (from where?)."""
        for section, rules in (("actions", spec.actions), ("reactions", spec.reactions)):
            for rule in rules:
                if rule.card is not None:
                    self.error(
                        "RS103",
                        f"{section[:-1]} '{rule.name}' plays a card from the hand, and the "
                        "game names no hand zone",
                        (section, rule.name, "card"),
                        "add  hand: <a per_player zone>  to the spec",
                        key=True,
                    )

    def _titles_check(self, x: ir.ZoneDef | ir.CounterDef, what: str = "zone") -> None:
        """RS104 for `titles` on one zone (or counter), or not one a member of its family."""
        if x.titles and x.count is None:
            self.error(
                "RS104",
                f"{what} '{x.name}' is one {what}: titles names the {what}s of a family (count)",
                (f"{what}s", x.name, "titles"),
                f"one {what}'s is title",
            )
        elif (
            x.titles
            and len(x.titles) != x.count
            and not (x.count_param and len(x.titles) > x.count)  # a variant may size it down
            and x.name not in self.unsized
        ):
            self.error(
                "RS104",
                f"{what} '{x.name}' has {len(x.titles)} titles for a family of {x.count} {what}s",
                (f"{what}s", x.name, "titles"),
                f"give each {what} of the family one title, in index order",
            )

    def _shared_zone_titles(self, spec: ir.Spec) -> None:
        """RS216, a warning: two zones of one title (a zone's, or a family's zone's own,
        `titles`), which the table names alike and `help` cannot tell apart."""
        self._one_title_each(
            "RS216",
            "zones",
            (
                (
                    f"{z.name}({i})" if z.titles else z.name,
                    title,
                    self.doc.span(("zones", z.name, "titles" if z.titles else "title")),
                )
                for z in spec.zones
                for i, title in enumerate(z.titles or (z.title,))
            ),
            "the table names them alike",
            "give each zone a title of its own",
        )

    def _zone_checks(self, spec: ir.Spec) -> None:
        self._shared_zone_titles(spec)
        zones = {z.name: z for z in spec.zones}
        if spec.hand is None:
            self._needs_no_hand(spec)
        elif spec.hand not in zones:
            self.error(
                "RS201",
                f"unknown zone '{spec.hand}' for hand",
                ("hand",),
                did_you_mean(spec.hand, zones),
            )
        elif not zones[spec.hand].per_player or zones[spec.hand].count is not None:
            self.error(
                "RS402",
                f"hand zone '{spec.hand}' must be one zone per_player"
                + (", not a family (count)" if zones[spec.hand].count is not None else ""),
                ("hand",),
            )
        elif zones[spec.hand].visibility == "others":
            # a play's options name its card types: they would show the owner its cards
            self.error(
                "RS402",
                f"hand zone '{spec.hand}' is hidden from its owner (visibility: others), "
                "and a play would offer the owner its cards by name",
                ("hand",),
                f"leave hand out, and play from {spec.hand}(current) by place (nth) "
                "or at random (random)",
            )
        starts = [z.name for z in spec.zones if z.start]
        if len(starts) != 1:
            self.error(
                "RS403",
                f"exactly one zone must have start: true (the deck starts "
                f"there), found {len(starts)}",
                ("zones",),
                key=True,
            )
        for z in spec.zones:
            if z.refill_from and z.refill_from not in zones:
                self.error(
                    "RS201",
                    f"unknown zone '{z.refill_from}' in refill_from",
                    ("zones", z.name, "refill_from"),
                    did_you_mean(z.refill_from, zones),
                )
            elif z.refill_from and (refused := _refill_refused(z, zones[z.refill_from])):
                message, hint = refused
                self.error("RS402", message, ("zones", z.name, "refill_from"), hint)
            if z.visibility == "others" and not z.owned:
                self.error(
                    "RS402",
                    f"zone '{z.name}' is shared, so visibility: others has no owner to hide "
                    "it from",
                    ("zones", z.name, "visibility"),
                    "make it per_player or per_team, or hidden for a zone nobody sees",
                )
            self._titles_check(z)
            if z.count is not None and z.start:
                self.error(
                    "RS402",
                    f"zone '{z.name}' is a family of {z.count} zones, so it cannot be the "
                    "start zone",
                    ("zones", z.name, "count"),
                    "the deck starts in one zone: deal from it into the family in the setup",
                )

    def _card_checks(self, spec: ir.Spec) -> None:
        """The card types or tags actions and answers are played with."""
        kinds = self.names.kinds | self.names.refused  # a refused name was reported once
        for a in spec.actions:
            if a.card is not None and a.card != "any" and a.card not in kinds:
                self.error(
                    "RS201",
                    f"unknown card type or tag '{a.card}'",
                    ("actions", a.name, "card"),
                    did_you_mean(a.card, kinds),
                )
        for r in spec.reactions:
            if r.card is not None and r.card not in kinds:
                self.error(
                    "RS201",
                    f"unknown card type or tag '{r.card}'",
                    ("reactions", r.name, "card"),
                    "`any` is only for an action's card: give the cards that may answer "
                    "a tag, and name it"
                    if r.card == "any"
                    else did_you_mean(r.card, kinds),
                )

    def _goal_checks(self, spec: ir.Spec) -> None:
        zones = {z.name: z for z in spec.zones}
        kinds = self.names.kinds | self.names.refused
        for g in spec.goals:
            if g.zone not in zones or not zones[g.zone].per_player or zones[g.zone].count:
                self.error(
                    "RS402",
                    f"goals '{g.name}' need one zone per player (not a family), got '{g.zone}'",
                    ("goals", g.name, "zone"),
                    did_you_mean(g.zone, zones),
                )
            for i, (kind, _) in enumerate(g.order):
                if kind not in kinds:
                    self.error(
                        "RS201",
                        f"unknown card type or tag '{kind}'",
                        ("goals", g.name, "order", i, "card"),
                        did_you_mean(kind, kinds),
                    )

    def _branch_texts(self, spec: ir.Spec) -> None:
        """Each label `branches:` gives words to is a branch of some `choose`: one that
        names none (a typo, a branch renamed) would be words for nothing (RS201)."""
        written = (spec.setup, *(r for _, r in spec.rules()), *spec.procedures)
        labels = {b.label for b in ir.walk(written) if isinstance(b, ir.Branch)}
        for label, _ in spec.branch_texts:
            if label not in labels:
                self.error(
                    "RS201",
                    f"branches: '{label}' is the label of no branch of a choose",
                    ("branches", label),
                    did_you_mean(label, labels) or "write the label as the choose does, in quotes",
                    key=True,
                )

    def _step_checks(self, spec: ir.Spec) -> None:
        actions = {a.name for a in spec.actions}
        steps = set()
        for i, s in enumerate(spec.turn):
            if s.name in steps:
                self.error("RS202", f"duplicate step name '{s.name}'", ("turn", i, "step"))
            steps.add(s.name)
            for j, a in enumerate(s.actions):
                if a not in actions:
                    self.error(
                        "RS201",
                        f"unknown action '{a}'",
                        ("turn", i, "actions", j),
                        removed_hint(self.doc.removed[a])
                        if a in self.doc.removed
                        else did_you_mean(a, actions),
                    )

    def _rule_names(self) -> None:
        """One namespace for the rules' names, across their sections."""
        d, rules = self.data, {}
        for section in (
            "actions",
            "reactions",
            "end_conditions",
            "triggers",
            ("rounds", "end_conditions"),
            ("rounds", "match_end"),
        ):
            path = section if isinstance(section, tuple) else (section,)
            entries = d.get(path[0]) or {}
            for name in (entries.get(path[1]) or {}) if len(path) > 1 else entries:
                if name in rules:
                    self.error(
                        "RS202",
                        f"duplicate rule name '{name}' (also in {rules[name]})",
                        path + (name,),
                        "actions, reactions, end conditions, triggers "
                        "and match ends share one namespace",
                        key=True,
                    )
                rules[name] = ".".join(path)


def _refill_refused(z: ir.ZoneDef, source: ir.ZoneDef) -> tuple[str, str] | None:
    """Why z may not refill from source, (message, hint), or None. A zone refills from
    one zone the table can name for it: a shared zone from a shared one, an owned zone
    from its owner's own (paired seat by seat, or team by team) or from a shared one."""
    family = next((x for x in (z, source) if x.count is not None), None)
    if family is not None:
        return (
            f"refill_from cannot link a family of zones: '{family.name}' is {family.count} zones",
            f"refill from one zone, or gather the family in an effect: move({family.name}(i), "
            f"pile) and shuffle(pile)",
        )
    if source.owned and not z.owned:
        return (
            f"shared zone '{z.name}' cannot refill from {_whose(source)} zone "
            f"'{source.name}': a shared zone has no owner whose {source.name} to take",
            f"give {z.name} `{'per_player' if source.per_player else 'per_team'}: true` too, "
            f"so that each owner's {z.name} refills from their own {source.name}",
        )
    if source.owned and z.per_player != source.per_player:
        return (
            f"{_whose(z)} zone '{z.name}' cannot refill from {_whose(source)} zone "
            f"'{source.name}': a zone refills from the same owner's",
            "make both per_player or both per_team, or refill from a shared zone",
        )
    return None


def _whose(z: ir.ZoneDef) -> str:
    return "per-player" if z.per_player else "per-team" if z.per_team else "shared"


def _zones_and_counters(accepted: dict) -> list[tuple[str, dict]]:
    """Every zone and counter as written, (name, entry): either may be a family."""
    return [*accepted["zones"].items(), *accepted["counters"].items()]


def _count_param(entry: dict) -> str:
    """The parameter a family's count names (`count: rows`), or ""."""
    return entry["count"] if isinstance(entry.get("count"), str) else ""


def _owned(entry: dict) -> bool:
    """A zone or counter written with an owner, `name(p)`: per player or per team."""
    return bool(entry.get("per_player") or entry.get("per_team"))


def _words(rule: dict) -> dict[str, str]:
    """A rule's words for people, as written: its `text` and its `prompt`."""
    return {key: rule[key] for key in ("text", "prompt") if key in rule}


def _title(name: str) -> str:
    return name.replace("_", " ").capitalize()


def _way_back(start: str, calls: dict[str, list[str]]) -> list[str] | None:
    """The shortest chain of calls from start back to itself, or None."""
    paths, seen = [[start]], set()
    while paths:
        path = paths.pop(0)
        for callee in calls.get(path[-1], ()):
            if callee == start:
                return path + [start]
            if callee not in seen:
                seen.add(callee)
                paths.append(path + [callee])
    return None
