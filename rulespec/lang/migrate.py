"""Upgrade a `rulespec: 1` spec whose own names Language v2 or v3 has since reserved.

A spec could name a counter `range` before the language gave `range` a meaning. The
front end warns of such a name (RS212, with this module's command as the hint) and lets the
spec keep it, its own name hiding the built-in; here it
is renamed at every place the loader saw it: the key that declares it, and each name
token of the expressions, effect blocks and plain name values that use it. Prose (titles,
notes, rulings) and string literals are left alone. The edits go by the loader's
positions, and the result is checked by the front end before it is offered.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .diagnostics import Diagnostic, Span, SpecError
from .expressions import RESERVED, deprecated_names
from .loading import Document, load
from .pipeline import load_spec
from .symbols import words

# sections whose keys are names the spec declares (params: under a procedure or condition)
_DECLARING = {
    ("deck", "cards"),
    ("parameters",),
    ("zones",),
    ("counters",),
    ("goals",),
    ("remember",),
    ("procedures",),
    ("conditions",),
}


@dataclass(frozen=True)
class Migration:
    """What migrate does to one file: the renames, and the text before and after."""

    file: str
    renames: dict[str, str]
    old: str
    new: str

    def diff(self) -> str:
        return "".join(
            difflib.unified_diff(
                self.old.splitlines(keepends=True),
                self.new.splitlines(keepends=True),
                self.file,
                f"{self.file} (migrated)",
            )
        )


def migrate(path: str, text: str | None = None) -> Migration:
    """The migration of the spec at path (whose text, when given, is `text`: an
    editor's); raises SpecError for a spec that has other problems than reserved
    names, or that would still have some once renamed."""
    doc = load(path, text)
    clashes = _clashes(path, doc.text)
    words = _words(doc)
    renames = {name: _free(name, words) for name in sorted(clashes)}
    new = _rewrite(doc, renames)
    if renames:
        load_spec(path, text=new)  # the renamed spec must validate, or nothing is offered
    return Migration(path, renames, doc.text, new)


def _clashes(path: str, text: str) -> set[str]:
    """The spec's names Language v2 reserved (its RS212 warnings); SpecError for a spec
    that does not load."""
    return deprecated_names(d for d in load_spec(path, text).notices if d.span.file == path)


def _places(doc: Document):
    """(line, col, word) of every name-like word migrate may rename."""
    for path, span in doc.key_spans.items():
        parent = path[1:-1] if path[:1] == ("add",) else path[:-1]  # a variant's own names
        if parent in _DECLARING or (
            len(parent) == 3 and parent[0] in ("procedures", "conditions") and parent[2] == "params"
        ):
            yield span.line, span.col, path[-1]
    for path, offset, word in words(doc):
        span = doc.offset_span(path, offset)
        yield span.line, span.col, word


def _words(doc: Document) -> set[str]:
    return {word for _, _, word in _places(doc)}


def _free(name: str, taken: set[str]) -> str:
    """name_, or the first of name_2, name_3, ... that neither the spec nor the
    language uses."""
    candidates = [f"{name}_"] + [f"{name}_{i}" for i in range(2, len(taken) + 3)]
    return next(c for c in candidates if c not in taken and c not in RESERVED)


def _rewrite(doc: Document, renames: dict[str, str]) -> str:
    lines = doc.text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    edits = sorted(
        {(starts[line - 1] + col - 1, word) for line, col, word in _places(doc) if word in renames},
        reverse=True,
    )
    text = doc.text
    for offset, word in edits:
        if text[offset : offset + len(word)] != word:  # a key in quotes or a flow with escapes
            raise SpecError(
                [
                    Diagnostic(
                        "RS202",
                        f"cannot rename '{word}' here; rename it by hand",
                        Span(doc.file, *_line_col(starts, offset)),
                    )
                ],
                doc.all_sources(),
            )
        text = text[:offset] + renames[word] + text[offset + len(word) :]
    return text


def _line_col(starts: list[int], offset: int) -> tuple[int, int]:
    line = max(i for i, s in enumerate(starts) if s <= offset)
    return line + 1, offset - starts[line] + 1
