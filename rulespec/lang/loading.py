"""YAML text -> plain data plus the position of every node.

PyYAML's composer gives nodes with marks; we build the plain data ourselves (never
PyYAML's constructor, so no object can be created from a tag) and keep a side table
from each node's path to its place, and for string scalars a map from each character
of the value to its line and column in the file, so that an expression error inside a
YAML string is reported where it stands in the file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .diagnostics import Diagnostic, Span, SpecError

MAX_BYTES = 1_000_000
MAX_NODES = 200_000  # nodes after alias expansion: refuses "billion laughs" files
MAX_DEPTH = 100      # nesting of lists and mappings


class _Refused(yaml.MarkedYAMLError):
    """A document we will not build: a recursive alias or nesting past MAX_DEPTH."""


class _Composer(yaml.SafeLoader):
    """PyYAML's safe composer, refusing self-containing aliases and deep nesting
    (both would otherwise end in a RecursionError)."""

    def __init__(self, stream):
        super().__init__(stream)
        self._open_anchors: set[str] = set()
        self._depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in self._open_anchors:
                raise _Refused(None, None, f"alias *{event.anchor} refers to a node that "
                               "contains it", event.start_mark)
            return super().compose_node(parent, index)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _Refused(None, None, f"lists and mappings are nested more than {MAX_DEPTH} "
                           "deep", event.start_mark)
        anchor = getattr(event, "anchor", None)
        if anchor:
            self._open_anchors.add(anchor)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1
            self._open_anchors.discard(anchor)

Path_ = tuple  # a path into the data: keys and list indexes


@dataclass
class Document:
    """A loaded YAML file: its data and where each piece of it came from."""

    file: str
    text: str
    data: object
    spans: dict[Path_, Span] = field(default_factory=dict)       # value of each node
    key_spans: dict[Path_, Span] = field(default_factory=dict)   # key of mapping entries
    scalar_maps: dict[Path_, list[tuple[int, int]]] = field(default_factory=dict)

    sources: dict[str, list[str]] = field(default_factory=dict)  # file -> lines, for carets

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def all_sources(self) -> dict[str, list[str]]:
        return self.sources or {self.file: self.lines}

    def span(self, path: Path_) -> Span:
        """The place of the node at path, or of its nearest ancestor."""
        path = tuple(path)
        while path not in self.spans and path:
            path = path[:-1]
        return self.spans.get(path, Span(self.file, 1, 1))

    def key_span(self, path: Path_) -> Span:
        return self.key_spans.get(tuple(path)) or self.span(path)

    def offset_span(self, path: Path_, offset: int) -> Span:
        """The place of character `offset` of the string scalar at path."""
        table = self.scalar_maps.get(tuple(path))
        if not table:
            return self.span(path)
        line, col = table[min(max(offset, 0), len(table) - 1)]
        return Span(self.span(path).file, line, col)  # a merged variant mixes files


_COLLECTION_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
_INT = re.compile(r"^[-+]?(0|[1-9][0-9_]*)$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$")


def _scalar_value(node: yaml.ScalarNode):
    tag, value = node.tag, node.value
    if tag == "tag:yaml.org,2002:str":
        return value
    if tag == "tag:yaml.org,2002:bool":
        return value.lower() in ("true", "yes", "on")
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:int" and _INT.match(value):
        return int(value.replace("_", ""))
    if tag == "tag:yaml.org,2002:float" and _FLOAT.match(value):
        return float(value.replace("_", ""))
    if tag == "tag:yaml.org,2002:timestamp" and not node.style:
        raise ValueError(f"{value!r} reads as a date or time; quote it to make it a string")
    raise ValueError(f"unsupported YAML tag {tag!r}; specs use plain strings, numbers, "
                     "booleans, lists and mappings")


_ESCAPE_LENGTH = {"x": 2, "u": 4, "U": 8}  # hex digits after \\x, \\u, \\U


def _char_map(text_lines: list[str], node: yaml.ScalarNode) -> list[tuple[int, int]]:
    """Align each character of a scalar's value with its place in the source.

    Walks the source from the scalar's start and matches characters in turn; quotes,
    indentation and folded line breaks in the source are skipped. Good for plain,
    quoted, literal (|) and folded (>) scalars alike.
    """
    value = node.value
    line, col = node.start_mark.line, node.start_mark.column
    if node.style in ("|", ">"):  # the value starts below the header (and its comment)
        line, col = line + 1, 0
    end = (node.end_mark.line, node.end_mark.column)
    table: list[tuple[int, int]] = []

    def at(line, col):
        return text_lines[line][col] if line < len(text_lines) and col < len(text_lines[line]) else "\n"

    for ch in value:
        while (line, col) < end:
            src = at(line, col)
            if src == ch or (ch == " " and src == "\n") or (node.style == '"' and src == "\\"):
                break
            line, col = (line + 1, 0) if src == "\n" else (line, col + 1)
        table.append((line + 1, col + 1))
        src = at(line, col)
        if node.style == '"' and src == "\\":  # an escape stands for one character
            col += 2 + _ESCAPE_LENGTH.get(at(line, col + 1), 0)
        else:
            line, col = (line + 1, 0) if src == "\n" else (line, col + 1)
    table.append((line + 1, col + 1))  # one past the end, for "unexpected end"
    return table


def load(path: str | Path, text: str | None = None) -> Document:
    """Load one YAML spec file; raises SpecError with every problem found."""
    file = str(path)
    if text is None:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise SpecError([Diagnostic("RS001", f"cannot read file: {exc.strerror}",
                                        Span(file, 1, 1))]) from None
        if len(raw) > MAX_BYTES:
            raise SpecError([Diagnostic("RS002", f"file is {len(raw)} bytes; a spec may "
                                        f"be at most {MAX_BYTES}", Span(file, 1, 1))])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SpecError([Diagnostic("RS001", f"file is not UTF-8 ({exc.reason})",
                                        Span(file, 1, 1))]) from None
    lines = text.splitlines() or [""]
    sources = {file: lines}
    try:
        root = yaml.compose(text, Loader=_Composer)
    except _Refused as exc:
        mark = exc.problem_mark
        raise SpecError([Diagnostic("RS002", f"refused: {exc.problem}",
                                    Span(file, mark.line + 1, mark.column + 1))], sources) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
        raise SpecError([Diagnostic("RS003", f"YAML syntax: {exc.problem}", span)],
                        sources) from None
    except yaml.YAMLError as exc:
        raise SpecError([Diagnostic("RS003", f"YAML syntax: {exc}", Span(file, 1, 1))],
                        sources) from None
    doc = Document(file, text, None)
    problems: list[Diagnostic] = []
    budget = [MAX_NODES]
    raw_lines = text.split("\n")  # with the empty last line a final newline leaves

    def walk(node, path):
        budget[0] -= 1
        if budget[0] < 0:
            raise SpecError([Diagnostic("RS002", f"the document expands to more than "
                                        f"{MAX_NODES} nodes (aliases?); refused",
                                        Span(file, 1, 1))], sources)
        doc.spans[path] = Span(file, node.start_mark.line + 1, node.start_mark.column + 1)
        if not isinstance(node, yaml.ScalarNode) and node.tag not in _COLLECTION_TAGS:
            problems.append(Diagnostic("RS004", f"unsupported YAML tag {node.tag!r}; specs use "
                                       "plain lists and mappings", doc.spans[path]))
            return None
        if isinstance(node, yaml.MappingNode):
            out = {}
            for key_node, value_node in node.value:
                kspan = Span(file, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                if not isinstance(key_node, yaml.ScalarNode):
                    problems.append(Diagnostic("RS004", "mapping keys must be plain names", kspan))
                    continue
                key = key_node.value  # keys stay text: `3:` under deck.remove names a player count
                if key in out:
                    problems.append(Diagnostic("RS005", f"duplicate key '{key}'", kspan,
                                               hint="each key may appear once in a mapping"))
                    continue
                doc.key_spans[path + (key,)] = kspan
                out[key] = walk(value_node, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [walk(item, path + (i,)) for i, item in enumerate(node.value)]
        value = _safe(node, doc.spans[path])
        if isinstance(value, str):
            doc.scalar_maps[path] = _char_map(raw_lines, node)
        return value

    def _safe(node, span):
        try:
            return _scalar_value(node)
        except ValueError as exc:
            problems.append(Diagnostic("RS004", str(exc), span))
            return None

    doc.data = walk(root, ()) if root is not None else None
    if problems:
        raise SpecError(problems, sources)
    return doc
