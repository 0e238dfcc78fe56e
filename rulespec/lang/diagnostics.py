"""Diagnostics: every problem carries a code, a severity and a place.

Printed gcc-style (``file:line:col: severity CODE: message``) with the source line
and a caret, so editors and people read the same text. `visible` makes any text a spec
or a log holds safe to print on a terminal.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    """A place in a spec file; line and col are 1-based."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    severity: str = "error"
    hint: str = ""

    @property
    def suggestion(self) -> str:
        """The name a "did you mean" hint offers, as data: an editor's quick fix."""
        return getattr(self.hint, "suggestion", "")

    def render(self, source_lines: list[str] | None = None) -> str:
        # the place on one line whatever the file is named (a newline in a name too)
        text = f"{visible(str(self.span))}: {self.severity} {self.code}: {self.message}"
        if self.hint:
            text += f" ({self.hint})"
        if source_lines and 0 < self.span.line <= len(source_lines):
            line = source_lines[self.span.line - 1].rstrip("\n")
            text += f"\n    {line}\n    {' ' * (self.span.col - 1)}^"
        return text

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
            "file": self.span.file,
            "line": self.span.line,
            "col": self.span.col,
        }


@dataclass
class SpecError(Exception):
    """Raised when a spec cannot be used; carries every diagnostic found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, list[str]] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        return "\n".join(d.render(self.sources.get(d.span.file)) for d in self.diagnostics)


_IGNORE = re.compile(r"rulespec:\s*ignore\[([A-Z0-9, ]+)\]")


def silenced(found, lines: list[str]) -> bool:
    """A diagnostic or a lint finding is silenced by `# rulespec: ignore[CODE]` (or
    `ignore[CODE, CODE]`) on its line of `lines`, its file's."""
    if 0 < found.span.line <= len(lines):
        m = _IGNORE.search(lines[found.span.line - 1])
        return bool(m and found.code in {c.strip() for c in m.group(1).split(",")})
    return False


class Hint(str):
    """A hint's text that also holds, as data, the name it suggests."""

    suggestion: str = ""


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A hint naming the closest known name, or '' when nothing is close. A name the
    written one begins with, and the closest does not, is offered second: a target
    written `anyone` meant `any`, where letters alone made `none` closer. It stays
    second: ranking by the start first offered `tricks` for `trickswon`,
    where `tricks_won` was meant, and a name is mistyped anywhere, not only at its end."""
    written, names = str(name).lower(), sorted(set(known))
    close = difflib.get_close_matches(str(name), names, n=max(1, len(names)), cutoff=0.6)
    if not close:
        return ""
    best = close[0]
    low = best.lower()
    begun = [
        k for k in close[1:] if written.startswith(k.lower()) and not low.startswith(k.lower())
    ]
    hint = Hint(f"did you mean '{best}'" + (f" or '{begun[0]}'?" if begun else "?"))
    hint.suggestion = best
    return hint


# C0 and C1 controls, the marks that reorder text (bidirectional overrides), and lone
# surrogates (no terminal can print one)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def visible(text: str, keep: str = "") -> str:
    """text with its control characters (but those in keep) written out as \\x1b or
    \\u202e, so that a title or name in a spec cannot move the cursor, recolour the
    terminal, set its title or start a line of its own; a lone surrogate too, which
    could not even be written."""

    def shown(m):
        ch = m.group()
        return ch if ch in keep else f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"

    return _CONTROL.sub(shown, text)
