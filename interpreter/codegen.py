"""Generated source: one writer, one quoting function, and a line table back to the spec.

Expressions and straight-line statements become Python functions (see evaluate.py and
effects.py). Each is written by a CodeWriter, which records for every line the spec span
it came from, and is compiled under a filename of its own naming the spec file and rule
(`<rulespec:games/x.yaml:steal>`). The source is put in linecache, so tracebacks show
the generated lines, and an exception raised inside generated code is reported as a
RuleError at the spec's line and column (`raise_at_spec`).
"""

from __future__ import annotations

import linecache
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NoReturn

from rulespec.lang import ir

from .table import RuleLimit

RUNTIME_CODE = "RS701"  # a rule failed while a game ran


class RuleError(Exception):
    """A failure inside a rule's generated code, placed at the spec; the exception that
    caused it is its __cause__."""

    def __init__(self, code: str, message: str, span: ir.Span, rule: str):
        super().__init__(code, message, span, rule)  # all of them: it pickles (workers)
        self.code, self.message, self.span, self.rule = code, message, span, rule

    def __str__(self) -> str:
        return f"{self.span}: error {self.code}: {self.message}"


@dataclass(frozen=True)
class Listing:
    """A generated function's source, and the spec span of each of its lines."""

    rule: str
    filename: str
    lines: tuple[str, ...]
    spans: tuple[ir.Span, ...]
    rules: tuple[str | None, ...] = ()  # a line's own rule, where it is not `rule`

    def rule_at(self, line: int) -> str:
        """The rule the line (from 1) came from: a function that checks several rules,
        or offers several actions, names each line's."""
        return (self.rules[line - 1] if self.rules else None) or self.rule

    def annotated(self) -> list[str]:
        """The source, each line followed by the spec line:col it came from."""
        # aligned past the longest line up to COMMENT_COLUMN; a longer line's mark follows it
        width = min(max(map(len, self.lines)), COMMENT_COLUMN) + 2
        return [
            f"{line:<{max(width, len(line) + 2)}}# {span.line}:{span.col}"
            for line, span in zip(self.lines, self.spans)
        ]


COMMENT_COLUMN = 88  # where compile --show aligns its spec places, at the furthest


def quote(value, globals_: dict) -> str:
    """Source that evaluates to value: the one way a spec's string or value enters
    generated code. Plain ints, bools, strs and None are written as their repr (which
    escapes quotes, backslashes, newlines and NULs); anything else is bound to a fresh
    name in the generated code's globals, so it is never spelled as source."""
    if value is None or type(value) in (int, bool, str):
        return repr(value)
    name = f"_c{len(globals_)}"
    globals_[name] = value
    return name


class CodeWriter:
    """Writes one generated function, line by line, with indentation."""

    def __init__(self, name: str, span: ir.Span, params: str = "g, env"):
        """A function name(params), name(g, env) by default, its def line placed at span."""
        self.name = name
        self.lines, self.spans, self.level = [f"def {name}({params}):"], [span], 1
        self.rules: list[str | None] = [None]

    def line(self, text: str, span: ir.Span, rule: str | None = None) -> None:
        """A line of source from the spec's span; `rule` when it is not the function's."""
        self.lines.append("    " * self.level + text)
        self.spans.append(span)
        self.rules.append(rule)

    @contextmanager
    def indented(self):
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1

    def compile(self, globals_: dict, rule: str):
        """The function, compiled with a filename of its own; returns (function, listing)."""
        filename = _filename(self.spans[0].file, rule)
        source = "".join(line + "\n" for line in self.lines)
        scope: dict = {}
        exec(compile(source, filename, "exec"), globals_, scope)
        function = scope[self.name]
        rules = tuple(self.rules) if any(self.rules) else ()
        listing = Listing(rule, filename, tuple(self.lines), tuple(self.spans), rules)
        _live[filename] = listing
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        # forgotten with its code, so a long run that compiles many specs keeps no garbage
        weakref.finalize(function.__code__, _forget, filename).atexit = False
        return function, listing


_live: dict[str, Listing] = {}  # filename -> listing, for every generated function alive
_serial: dict[str, int] = {}  # how many functions were named after each rule


def _filename(file: str, rule: str) -> str:
    base = f"rulespec:{file}:{rule}"
    n = _serial[base] = _serial.get(base, 0) + 1
    return f"<{base}>" if n == 1 else f"<{base}#{n}>"


def _forget(filename: str) -> None:
    _live.pop(filename, None)
    linecache.cache.pop(filename, None)


def raise_at_spec(exc: Exception) -> NoReturn:
    """Raise exc again: as a RuleError at the spec's place of the innermost generated
    code it was raised through, the original chained; as itself when it passed through
    none (or is a RuleError already)."""
    places, tb = [], exc.__traceback__  # the generated code it passed through, outermost first
    while tb is not None:
        listing = _live.get(tb.tb_frame.f_code.co_filename)
        if listing is not None:
            places.append((listing, tb.tb_lineno))
        tb = tb.tb_next
    if not places or isinstance(exc, RuleError):
        raise exc
    listing, line = places[-1]
    named = not isinstance(exc, RuleLimit) and str(exc)  # a limit's words stand alone
    detail = f"{type(exc).__name__}: {exc}" if named else str(exc) or type(exc).__name__
    rule, caller = listing.rule_at(line), places[0][0].rule_at(places[0][1])
    # a named condition failed: the rule that asked it, too (it may pass what failed)
    called = f", in '{rule}', which it calls" if caller != rule else ""
    raise RuleError(
        RUNTIME_CODE,
        f"rule '{caller}' failed here{called} ({detail})",
        listing.spans[line - 1],
        rule,
    ) from exc
