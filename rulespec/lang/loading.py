"""YAML text -> plain data plus the position of every node.

PyYAML's composer gives nodes with marks; we build the plain data ourselves (never
PyYAML's constructor, so no object can be created from a tag) and keep a side table
from each node's path to its place, and for string scalars a map from each character
of the value to its line and column in the file, so that an expression error inside a
YAML string is reported where it stands in the file.

The events come from libyaml where PyYAML was built with it (seventeen times faster than
PyYAML's own parser, which was most of compiling a spec); the nodes are composed here,
with the limits below, either way. libyaml is not quite the same parser: it takes some
text PyYAML refuses (a tab after `key:`, `{max: 3?}`, `|#`), reads control characters
and Unicode line breaks its own way, places an empty plain scalar a column off, and
words its errors otherwise. So a text holding such a character or scalar, and a text
libyaml finds an error in, is read by PyYAML's own parser: every spec gets the nodes,
places and messages PyYAML's parser gives it (tests/test_yaml_parsers.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from . import source
from .diagnostics import Diagnostic, Span, SpecError
from .limits import MAX_BYTES, MAX_DIGITS, MAX_EXPANDED, MAX_YAML_DEPTH, too_many_digits


class _Refused(yaml.MarkedYAMLError):
    """A document we will not build: a recursive alias, or one past MAX_YAML_DEPTH or
    MAX_EXPANDED once its aliases are expanded."""


class _Measured:
    """PyYAML's composer, refusing self-containing aliases and deep nesting (both would
    otherwise end in a RecursionError), and measuring the document as it will be with
    every alias expanded: its size (a node counts one, a character of a scalar one, an
    alias the size of the node it names) and its depth. Both are known before any data
    is built, so an alias bomb costs only the reading of its text."""

    def _start_measuring(self) -> None:
        self._open_anchors: set[str] = set()
        self._depth = 0  # of the node being composed
        self._deepest = 0  # depth reached below it, aliases expanded
        self._size = 0  # of the document so far, aliases expanded
        self._anchored: dict[str, tuple[int, int]] = {}  # anchor -> (size, height)

    def _reach(self, depth: int, mark) -> None:
        if depth > MAX_YAML_DEPTH:
            raise _Refused(
                None, None, f"lists and mappings are nested more than {MAX_YAML_DEPTH} deep", mark
            )
        self._deepest = max(self._deepest, depth)

    def _grow(self, size: int, mark) -> None:
        self._size += size
        if self._size > MAX_EXPANDED:
            raise _Refused(
                None,
                None,
                f"with its aliases expanded the document is over "
                f"{MAX_EXPANDED} nodes and characters",
                mark,
            )

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in self._open_anchors:
                raise _Refused(
                    None,
                    None,
                    f"alias *{event.anchor} refers to a node that contains it",
                    event.start_mark,
                )
            node = super().compose_node(parent, index)  # or an undefined alias error
            size, height = self._anchored[event.anchor]
            self._reach(self._depth + height, event.start_mark)
            self._grow(size, event.start_mark)
            return node
        self._depth += 1
        self._reach(self._depth, event.start_mark)
        anchor, size_before, deepest_outside = event.anchor, self._size, self._deepest
        self._deepest = self._depth
        if anchor:
            self._open_anchors.add(anchor)
        node = super().compose_node(parent, index)
        self._open_anchors.discard(anchor)
        self._grow(
            1 + len(node.value) if isinstance(node, yaml.ScalarNode) else 1, event.start_mark
        )
        if anchor:
            self._anchored[anchor] = (self._size - size_before, self._deepest - self._depth + 1)
        self._depth -= 1
        self._deepest = max(self._deepest, deepest_outside)
        return node


class _Composer(_Measured, yaml.SafeLoader):
    """Composes from PyYAML's own parser's events."""

    def __init__(self, stream):
        super().__init__(stream)
        self._start_measuring()


_FastComposer = None
if hasattr(yaml, "CSafeLoader"):  # PyYAML built with libyaml
    from yaml._yaml import CParser

    class _FastComposer(_Measured, yaml.composer.Composer, CParser, yaml.resolver.Resolver):
        """Composes from libyaml's events: PyYAML's composer before CParser's own."""

        def __init__(self, stream):
            CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self._start_measuring()
            self._flow = 0  # flow collections ([...], {...}) the node is in

        def compose_node(self, parent, index):
            tag = getattr(self.peek_event(), "tag", None)
            if tag not in (None, "!"):  # a tag written out: libyaml takes some PyYAML
                # refuses (`!*!x`), and a spec has none but refused ones (RS004)
                raise _NotLibyaml(None, None, "", self.peek_event().start_mark)
            return super().compose_node(parent, index)

        def compose_scalar_node(self, anchor):
            node = super().compose_scalar_node(anchor)
            if not node.style and (not node.value or (self._flow and "?" in node.value)):
                # an empty plain scalar, placed otherwise; a `?` PyYAML ends a plain
                # scalar at in a flow collection (`{max: 3?}`), where libyaml goes on
                raise _NotLibyaml(None, None, "", node.start_mark)
            return node

        def compose_sequence_node(self, anchor):
            return self._in_flow(super().compose_sequence_node, anchor)

        def compose_mapping_node(self, anchor):
            return self._in_flow(super().compose_mapping_node, anchor)

        def _in_flow(self, compose, anchor):
            flow = bool(self.peek_event().flow_style)
            self._flow += flow
            node = compose(anchor)
            self._flow -= flow
            return node


class _NotLibyaml(yaml.MarkedYAMLError):
    """A text libyaml reads otherwise than PyYAML's parser: read by PyYAML's."""


# what libyaml reads otherwise than PyYAML's parser, which refuses them: a tab, a `#` right
# after a block scalar's `|` or `>`, a Unicode line break, the characters PyYAML's reader
# refuses
_NOT_FOR_LIBYAML = re.compile(
    f"[\\t\\x85\\u2028\\u2029]|[|>][-+0-9]*#|{yaml.reader.Reader.NON_PRINTABLE.pattern}"
)


def _nodes(text: str, fast: bool = True) -> yaml.Node | None:
    """The node tree of text, composed from libyaml's events where they are PyYAML's,
    else (or without libyaml, or not `fast`) from PyYAML's parser's."""
    if fast and _FastComposer is not None and not _NOT_FOR_LIBYAML.search(text):
        try:
            return yaml.compose(text, Loader=_FastComposer)
        except yaml.YAMLError:  # said in PyYAML's parser's words, at its place
            pass
    return yaml.compose(text, Loader=_Composer)


Path_ = tuple  # a path into the data: keys and list indexes


@dataclass
class Document:
    """A loaded YAML file: its data and where each piece of it came from. A loaded
    document may be shared (load() gives the same one for the same file and text), so
    nothing changes it."""

    file: str
    text: str
    data: object
    spans: dict[Path_, Span] = field(default_factory=dict)  # value of each node
    key_spans: dict[Path_, Span] = field(default_factory=dict)  # key of mapping entries
    scalar_maps: dict[Path_, CharMap] = field(default_factory=dict)  # string values

    sources: dict[str, list[str]] = field(default_factory=dict)  # file -> lines, for carets
    # a variant's merge: each name its `remove:` took out -> where it says so
    removed: dict[str, Span] = field(default_factory=dict)

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
_INT = re.compile(r"[-+]?(0|[1-9][0-9_]*)")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?")


class _BadScalar(ValueError):
    """A scalar the loader will not take, with the code to report it under."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _scalar_value(node: yaml.ScalarNode):
    tag, value = node.tag, node.value
    if tag == "tag:yaml.org,2002:str":
        return value
    if tag == "tag:yaml.org,2002:bool":
        return value.lower() in ("true", "yes", "on")
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:int" and _INT.fullmatch(value):
        digits = value.lstrip("+-").replace("_", "")
        if len(digits) > MAX_DIGITS:
            raise _BadScalar("RS304", too_many_digits(digits))
        return int(value.replace("_", ""))
    if tag == "tag:yaml.org,2002:float" and _FLOAT.fullmatch(value):
        return float(value.replace("_", ""))
    if tag == "tag:yaml.org,2002:timestamp" and not node.style:
        raise _BadScalar(
            "RS004", f"{value!r} reads as a date or time; quote it to make it a string"
        )
    if tag == "tag:yaml.org,2002:float" and value.lower().lstrip("+-") in (".nan", ".inf"):
        raise _BadScalar(
            "RS004",
            f"{value!r} reads as a number that is not finite, which no count or score is; "
            "write a number, or quote it for text",
        )
    raise _BadScalar(
        "RS004",
        f"unsupported YAML tag {tag!r}; specs use plain strings, "
        "numbers, booleans, lists and mappings",
    )


_ESCAPE_LENGTH = {"x": 2, "u": 4, "U": 8}  # hex digits after \\x, \\u, \\U


class CharMap:
    """The place in the source of each character of a string scalar's value (and one
    past its end), worked out when first asked for: most strings are names or prose
    that no message points into, and the walk costs a tenth of loading a spec."""

    __slots__ = ("_lines", "_node", "_table")

    def __init__(self, text_lines: list[str], node: yaml.ScalarNode):
        self._lines, self._node = text_lines, node
        self._table: list[tuple[int, int]] | None = None

    def __getitem__(self, offset: int) -> tuple[int, int]:
        return self._made()[offset]

    def __len__(self) -> int:
        return len(self._made())

    def _made(self) -> list[tuple[int, int]]:
        if self._table is None:  # two threads may both walk: the same table
            self._table = _char_map(self._lines, self._node)
        return self._table


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
        return (
            text_lines[line][col]
            if line < len(text_lines) and col < len(text_lines[line])
            else "\n"
        )

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


# The documents loaded last, by file and text: a command that reads a spec more than once
# (`run` loads it, then lists the files it reads, so that no output overwrites one)
# parses it once. Nothing changes a document once loaded (variants make new ones), so
# one can be shared; the file is read again each time, so a changed file is a new one.
_loaded: dict[tuple[str, str], Document] = {}
_KEPT = 8


def load(path: str | Path, text: str | None = None) -> Document:
    """Load one YAML spec file; raises SpecError with every problem found."""
    file = str(path)
    if text is None:
        text = source.text(path)
    elif len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise source.too_large(file)  # a text given (an editor's), held to a file's bound
    doc = _loaded.pop((file, text), None) or _parse(file, text)
    _loaded[file, text] = doc  # the latest last
    while len(_loaded) > _KEPT:
        del _loaded[next(iter(_loaded))]
    return doc


def loaded_text(file: str) -> str | None:
    """The text the latest load of file read (None: no document of it is kept)."""
    return next((text for f, text in reversed(_loaded) if f == file), None)


def _parse(file: str, text: str) -> Document:
    sources = {file: text.splitlines() or [""]}
    root = _compose(text, file, sources)
    doc = Document(file, text, None)
    tree = _Tree(doc)
    doc.data = tree.walk(root, ()) if root is not None else None
    if tree.problems:
        raise SpecError(tree.problems, sources)
    return doc


def _compose(text: str, file: str, sources) -> yaml.Node | None:
    """The YAML node tree, or SpecError placed at the YAML parser's mark."""
    try:
        return _nodes(text)
    except _Refused as exc:
        mark = exc.problem_mark
        raise SpecError(
            [
                Diagnostic(
                    "RS002", f"refused: {exc.problem}", Span(file, mark.line + 1, mark.column + 1)
                )
            ],
            sources,
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
        message, hint = _yaml_problem(exc.problem)
        if mark and exc.problem_mark:
            found = _block_problem(exc, _YAML_LINES.split(text))
            if found:
                (line, column), message, hint = found
                span = Span(file, line + 1, column + 1)
        raise SpecError([Diagnostic("RS003", message, span, hint=hint)], sources) from None
    except yaml.YAMLError as exc:
        raise SpecError(
            [Diagnostic("RS003", f"YAML syntax: {exc}", Span(file, 1, 1))], sources
        ) from None


def _unclosed_flow(start, at, lines: list[str], ended: bool):
    """In { } or [ ] opened at `start`: a closing bracket written after a `#`, which made
    it part of a comment, said at the '#'; else a bracket its line does not close, said
    where it opens (the parser meets the problem lines later), when the parser met the
    end of the text (`ended`) or the opening line looks whole (no ',' at its end). None
    for another problem."""
    bracket = lines[start.line][start.column : start.column + 1] or "{"
    closing = "}" if bracket == "{" else "]"
    for line in range(start.line, min(at.line + 1, len(lines))):
        text = _QUOTES.sub(lambda m: " " * len(m.group()), lines[line])  # '#' in quotes
        begin = start.column + 1 if line == start.line else 0
        comment = re.search(r"(?:^|\s)(#.*)", text[begin:])
        said = comment.group(1) if comment else ""
        if (  # a closing bracket the comment does not open itself (`# see {zones}`)
            said.count(closing) > said.count(bracket)
            and not text[: begin + comment.start(1)].rstrip().endswith(",")
        ):
            return (
                (line, begin + comment.start(1)),
                f"YAML syntax: the '{closing}' after this '#' is part of a comment, which runs "
                "to the end of its line",
                f"put the comment after the '{closing}', or on a line of its own",
            )
    first = _QUOTES.sub("", lines[start.line]).split(" #")[0].rstrip()
    if ended or (at.line > start.line and not first.endswith((",", bracket))):
        # met at the end of the text, or lines on from an opening line that looks whole
        return (
            (start.line, start.column),
            f"YAML syntax: this '{bracket}' is not closed on its line",
            f"close it with '{closing}': it goes on over lines only after a ',', and a "
            "comment inside it runs to the end of its line",
        )
    return None


_QUOTES = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')


def _yaml_problem(problem: str | None) -> tuple[str, str]:
    """The YAML parser's words for the two mistakes of indentation, said as the writer of
    a spec sees them (message, hint); any other problem in its own words."""
    if (problem or "").startswith("expected <block end>"):
        return (
            "YAML syntax: this line is indented to a column no key or item above it starts at",
            "the keys of one mapping, and the items of one list, start in one column",
        )
    if problem == "expected ',' or '}', but got '['":
        return (
            f"YAML syntax: {problem}",
            'a key holding [ ] inside { } is quoted: {"hand[P1]": [...]}',
        )
    if problem == "expected ',' or ']', but got '['":
        return (
            f"YAML syntax: {problem}",
            'an item holding [ ] inside [ ] is quoted: [draw, "take blue_4 from discard[1]"]',
        )
    if (problem or "").startswith("found character '\\t'"):
        return (
            f"YAML syntax: {problem}",
            "YAML indents with spaces: replace the tab with spaces",
        )
    if problem == "mapping values are not allowed here":
        return (
            "YAML syntax: a ':' here starts no key",
            "quote a value that holds ': ', or indent this line as its neighbours",
        )
    return f"YAML syntax: {problem}", ""


_YAML_LINES = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # YAML's line breaks, as its marks count
_KEY = re.compile(r"^\s*(?:- )?[\w.-]+\s*:(?:\s|$)")  # a line that begins a key: value
_BLOCK = re.compile(r"^\s*(?:- )?[\w.-]+:\s*[|>][-+]?\s*(#.*)?$")  # `effect: |`, a block's key
_QUOTED = re.compile(
    r"""(?:^|:\s|-\s)\s*("[^"]*"|'[^']*')\s*$"""
)  # a value that was one quoted scalar


def _block_problem(exc, lines: list[str]) -> tuple[tuple[int, int], str, str] | None:
    """The mistakes of writing rules in a YAML value, said where they were made (the
    parser finds them a line or more later): a block's line indented less than its
    first line, or back at its key's column; a value begun with a quote and going on
    after it; a comment inside a value written without `|`. ((line, column) from 0,
    message, hint), or None for another problem."""
    at, problem = exc.problem_mark, exc.problem or ""
    if problem.startswith("expected ',' or ") and exc.context_mark:  # in { } or [ ]
        return _unclosed_flow(exc.context_mark, at, lines, problem.endswith("'<stream end>'"))
    if at.line >= len(lines):  # at the end of the text
        return None
    if problem == "could not find expected ':'" and exc.context_mark:  # a line that is no key
        line = exc.context_mark.line
        if _block_above(lines, line) is not None:
            return (
                (line, _indent(lines[line])),
                "YAML syntax: this line is no 'key: value', nor a line of the block above it",
                "indent every line of a block further than its key, as under 'effect: |'",
            )
        return None
    if not problem.startswith("expected <block end>"):
        return None
    quoted = _QUOTED.search(lines[at.line][: at.column])
    if quoted:
        return (
            (at.line, quoted.start(1)),
            "YAML syntax: a value that begins with a quote ends at its closing quote",
            "quote the whole value, as in '\"P wins\" and more', or write it as a block: 'key: |'",
        )
    block = _block_above(lines, at.line)
    if block is not None:
        key, first = block
        if _indent(lines[key]) < _indent(lines[at.line]) < _indent(lines[first]):
            return (
                (at.line, _indent(lines[at.line])),
                f"YAML syntax: this line is indented less than the first line of its block "
                f"(line {first + 1})",
                "indent every line of a 'key: |' block as its first line",
            )
    said = [k for k in range(at.line - 1, -1, -1) if lines[k].strip()]
    comment = said and lines[said[0]].lstrip().startswith("#")
    above = next((lines[k] for k in said if not lines[k].lstrip().startswith("#")), "")
    if comment and not _KEY.match(above) and _indent(above) == _indent(lines[at.line]):
        # after a comment, a line that goes on as the line above it went on a value of
        # several lines (no key of its own): the comment ended that value
        return (
            (at.line, _indent(lines[at.line])),
            "YAML syntax: a comment ended the value above, written without '|'",
            "write the key as 'key: |' to keep a value's lines, and its comments, as written",
        )
    return None


def _block_above(lines: list[str], line: int) -> tuple[int, int] | None:
    """The `key: |` line whose block `line` comes after (no other key between them at
    the key's indentation or less), and its block's first line; None if none."""
    for k in range(line - 1, -1, -1):
        text = lines[k]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if _BLOCK.match(text):
            first = next((j for j in range(k + 1, line) if lines[j].strip()), None)
            return (k, first) if first is not None else None
        if _indent(text) <= _indent(lines[line]):
            return None
    return None


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


class _Tree:
    """Turns YAML nodes into plain data, recording in the document where each came from
    and collecting the problems."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.problems: list[Diagnostic] = []
        self.raw_lines = doc.text.split("\n")  # with the empty last line a final newline leaves

    def _span(self, node) -> Span:
        return Span(self.doc.file, node.start_mark.line + 1, node.start_mark.column + 1)

    def walk(self, node, path):
        doc = self.doc
        doc.spans[path] = self._span(node)
        if not isinstance(node, yaml.ScalarNode) and node.tag not in _COLLECTION_TAGS:
            self.problems.append(
                Diagnostic(
                    "RS004",
                    f"unsupported YAML tag {node.tag!r}; specs use plain lists and mappings",
                    doc.spans[path],
                )
            )
            return None
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.walk(item, path + (i,)) for i, item in enumerate(node.value)]
        value = self._safe(node, doc.spans[path])
        if isinstance(value, str):
            doc.scalar_maps[path] = CharMap(self.raw_lines, node)
        return value

    def _mapping(self, node, path) -> dict:
        out = {}
        for key_node, value_node in node.value:
            kspan = self._span(key_node)
            if not isinstance(key_node, yaml.ScalarNode):
                self.problems.append(Diagnostic("RS004", "mapping keys must be plain names", kspan))
                continue
            key = key_node.value  # keys stay text: `3:` under deck.remove names a player count
            if key in out:
                self.problems.append(
                    Diagnostic(
                        "RS005",
                        f"duplicate key '{key}'",
                        kspan,
                        hint="each key may appear once in a mapping",
                    )
                )
                continue
            self.doc.key_spans[path + (key,)] = kspan
            out[key] = self.walk(value_node, path + (key,))
        return out

    def _safe(self, node, span):
        try:
            return _scalar_value(node)
        except _BadScalar as exc:
            self.problems.append(Diagnostic(exc.code, str(exc), span))
            return None
