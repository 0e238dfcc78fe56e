"""The names a spec or variant file defines, and where each is used.

The index behind the language server's go-to-definition, references, rename, hover
and completion. It reads the positioned document the loader makes (no second parser)
and needs no valid spec: a file being typed still has its names indexed.

Definitions are the keys of the named sections (and a card's tags). Uses are found in
string values: a value listed under `actions:`, `answers:` or `offers:` names a rule, any other
value is read as an expression, whose identifiers that equal a defined name are uses
of it. Text in quotes, after `#`, after a `.` (a property) and prose (`title`,
`description`, ...) are skipped; `rulespec migrate` renames by the same words. So a local named like a spec's own name
would count as a use of it: the compiler refuses such a local (RS202), so a valid
spec has none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .loading import Document, Path_

# section -> the kind of name its keys define; the first group share one namespace
NAMED = {
    "parameters": "parameter",
    "zones": "zone",
    "counters": "counter",
    "goals": "goal",
    "remember": "remembered card",
    "procedures": "procedure",
    "conditions": "condition",
    "windows": "reaction window",
}
RULES = {
    "actions": "action",
    "reactions": "reaction",
    "triggers": "trigger",
    "end_conditions": "end condition",
}
RULE_LISTS = {"actions", "answers", "offers", "reactions", "triggers", "end_conditions"}
_PROSE = {"title", "note", "description", "rulings", "text", "prompt"}
_TOP_TEXT = {"name", "rulespec", "extends"}
# the expression language's tokens that may hold a name-like word, as grammar.lark has them
_TOKENS = re.compile(r'"[^"\n]*"|#[^\n]*|(?<![.\w])[a-z_][a-z0-9_]*')


@dataclass(frozen=True)
class Place:
    """A name's place: its file, line and column (1-based) and length."""

    file: str
    line: int
    col: int
    length: int

    def holds(self, line: int, col: int) -> bool:
        return self.line == line and self.col <= col <= self.col + self.length


@dataclass(frozen=True)
class Definition:
    name: str
    kind: str
    place: Place
    path: Path_  # the entry's path in the document's data

    @property
    def space(self) -> str:
        return "rule" if self.kind in RULES.values() else "name"


@dataclass(frozen=True)
class Use:
    name: str
    space: str  # "name": the shared namespace; "rule": actions, reactions, ends, triggers
    place: Place
    path: Path_  # the string value it stands in


@dataclass
class Index:
    """The definitions and uses of one file."""

    file: str
    definitions: list[Definition]
    uses: list[Use]

    def defined(self, name: str, space: str) -> Definition | None:
        return next((d for d in self.definitions if d.name == name and d.space == space), None)

    def at(self, line: int, col: int) -> Definition | Use | None:
        """The definition or use at a place (1-based line and column)."""
        for item in (*self.definitions, *self.uses):
            if item.place.holds(line, col):
                return item
        return None


def index(doc: Document, known: dict[str, set[str]] | None = None) -> Index:
    """The names `doc` defines and uses; `known` (space -> names) adds names defined
    elsewhere, as a variant's base defines most of what the variant names."""
    defs = list(definitions(doc))
    names = {"name": set(), "rule": set()}
    for d in defs:
        names[d.space].add(d.name)
    for space, more in (known or {}).items():
        names[space] |= more
    return Index(doc.file, defs, list(_uses(doc, names)))


def definitions(doc: Document):
    data = doc.data if isinstance(doc.data, dict) else {}
    # a variant's own sections override its base's entries; it defines what it adds
    roots = (("add",), ("replace",)) if "extends" in data else ((),)
    for root in roots:
        section_of = value_at(data, root)
        if not isinstance(section_of, dict):
            continue
        cards = value_at(section_of, ("deck", "cards"))
        if isinstance(cards, dict):
            seen_tags = set()
            for card, entry in cards.items():
                yield _definition(doc, card, "card", (*root, "deck", "cards", card))
                for i, tag in enumerate(
                    (entry or {}).get("tags") or () if isinstance(entry, dict) else ()
                ):
                    if isinstance(tag, str) and tag not in seen_tags:
                        seen_tags.add(tag)
                        path = (*root, "deck", "cards", card, "tags", i)
                        yield Definition(tag, "tag", _value_place(doc, path, tag), path)
        for section, kind in {**NAMED, **RULES}.items():
            entries = section_of.get(section)
            if isinstance(entries, dict):
                for name in entries:
                    yield _definition(doc, name, kind, (*root, section, name))
        for i, step in enumerate(section_of.get("turn") or ()):
            if isinstance(step, dict) and isinstance(step.get("step"), str):
                path = (*root, "turn", i, "step")
                yield Definition(step["step"], "step", _value_place(doc, path, step["step"]), path)


def _definition(doc: Document, name: str, kind: str, path: Path_) -> Definition:
    span = doc.key_span(path)
    return Definition(name, kind, Place(span.file, span.line, span.col, len(name)), path)


def _value_place(doc: Document, path: Path_, text: str) -> Place:
    span = doc.offset_span(path, 0)
    return Place(span.file, span.line, span.col, len(text))


def words(doc: Document) -> Iterator[tuple[Path_, int, str]]:
    """Every name-like word of the document's string values that are not prose:
    (the value's path, the word's offset in it, the word). Not the words in quotes, in
    comments, or after a `.` (a property)."""
    for path in doc.scalar_maps:
        if not path or is_prose(path):  # a document that is one word names nothing yet
            continue
        value = value_at(doc.data, path)
        for m in _TOKENS.finditer(value if isinstance(value, str) else ""):
            if m.group()[0] not in '"#':
                yield path, m.start(), m.group()


def is_prose(path: Path_) -> bool:
    """A value that is text for people, not names: a title, a note, a ruling list."""
    return (
        bool(_PROSE & set(path))
        or (len(path) == 1 and path[0] in _TOP_TEXT)
        or ("build" in path and path[-1] == "card")  # a name template: property values
    )


def _uses(doc: Document, names: dict[str, set[str]]):
    for path, offset, word in words(doc):
        keys = [k for k in path if isinstance(k, str)]
        if _is_definition_value(path):
            continue
        listed = keys and keys[-1] in RULE_LISTS and isinstance(path[-1], int)
        space = "rule" if listed else "name"
        if word in names[space]:
            span = doc.offset_span(path, offset)
            yield Use(word, space, Place(span.file, span.line, span.col, len(word)), path)
    yield from _key_uses(doc, names)


def _is_definition_value(path: Path_) -> bool:
    """A tag is defined where a card lists it, a step where it is named."""
    return (len(path) >= 2 and path[-2] == "tags") or path[-1] == "step"


def _key_uses(doc: Document, names: dict[str, set[str]]):
    """Keys that name what the base defines: a variant's parameter overrides and card
    changes, and the entries it replaces or removes."""
    data = doc.data if isinstance(doc.data, dict) else {}
    if "extends" not in data:
        return
    for path in doc.key_spans:
        if len(path) == 2 and path[0] in ("parameters", "cards"):
            space = "name"
        elif len(path) == 3 and path[0] == "replace" and path[1] in RULES:
            space = "rule"
        elif len(path) == 3 and path[0] == "replace" and path[1] in NAMED:
            space = "name"
        else:
            continue
        name = path[-1]
        if name in names[space]:
            span = doc.key_span(path)
            yield Use(name, space, Place(span.file, span.line, span.col, len(name)), path)


def value_at(data, path: Path_):
    """The value at path in the data, or None where the path leads nowhere."""
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data
