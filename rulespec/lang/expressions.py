"""Expression text -> typed IR, with every node placed in the file.

Parsing is Lark's (LALR, grammar.lark); this module resolves each name against the
scope it is used in, checks the types of calls and operators, and reports problems at
the line and column inside the file, not inside the YAML string.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import lark

from . import cache, ir
from .builtins import (
    AGGREGATES,
    CHANCE,
    CONSTANTS,
    FUNCTIONS,
    GRAMMAR_KEYWORDS,
    KEYWORDS,
    PROCEDURES,
    RANKED,
    RESERVED_SINCE,
    accepts,
    written,
)
from .diagnostics import Diagnostic, Hint, Span, did_you_mean
from .limits import MAX_BLOCK_DEPTH, MAX_DIGITS, MAX_EXPR_DEPTH, too_many_digits

RESERVED = KEYWORDS | set(CONSTANTS) | set(FUNCTIONS) | set(PROCEDURES) | set(AGGREGATES)


def reserved_as(name: str) -> str:
    """What the language uses a reserved name for, as a message says it."""
    if name == "any":
        return "the kind every card is of"
    if name in _ROLES:
        return f"a name the language binds in {_ROLES[name]}"
    if name in KEYWORDS:
        return "a keyword"
    if name in CONSTANTS:
        return "a constant"
    if name in FUNCTIONS:
        return f"the function {name}()"
    return f"the statement {name}()" if name in PROCEDURES else f"the aggregate {name}(...)"


def removed_hint(where) -> str:
    """The hint for a name a variant's `remove:` took out that the spec still names."""
    return f"the variant removes it, at {where}: remove or replace what names it too, or keep it"


def as_written(name: str, owned: bool, indexed: bool) -> str:
    """How a zone or counter is written: `pile`, `hand(p)`, `row(i)` or `field(p, i)`."""
    args = ["p"] * owned + ["i"] * indexed
    return f"{name}({', '.join(args)})" if args else name


def reserved_hint(name: str) -> str:
    """The hint of an RS202 for a name taken: what the language uses it for, if it does."""
    return f"'{name}' is {reserved_as(name)}" if name in RESERVED else ""


_SINCE = (
    "'{}' is a built-in name since Language v{} (a later release of the language, which "
    "reads `rulespec: 1` specs still); this spec's {} hides the built-in (allowed, "
    "so that a spec written before then keeps working): rename it, or let "
    "`rulespec migrate {}` rename it"
)
_SINCE_NAME = re.compile(r"'(\w+)' is a built-in name since Language v\d+ ")

# The kinds of name a spec of each version could declare: a name reserved since version
# v stays the spec's own where a spec of version v - 1 could have declared it.
_DECLARABLE = {
    2: {"card", "tag", "parameter", "zone", "counter", "goal", "local", "'each' name"},
    3: {
        "card",
        "tag",
        "parameter",
        "zone",
        "counter",
        "goal",
        "local",
        "'each' name",
        "remembered card",
        "procedure",
        "condition",
        "procedure's parameter",
    },
}


def kept(name: str, what: str) -> bool:
    """Whether a spec's `what` (a card, a local, ...) may keep a name the language
    reserved after the spec could take it (RS212, a warning), rather than be refused."""
    since = RESERVED_SINCE.get(name)
    return since is not None and what in _DECLARABLE[since]


def deprecated_name(name: str, what: str, span: Span) -> Diagnostic:
    """RS212, a warning: a spec written before a version of the language may use a name
    it reserved. The spec keeps its meaning (its own name wins over the built-in) and
    says how to move on."""
    return Diagnostic(
        "RS212",
        _SINCE.format(name, RESERVED_SINCE[name], what, span.file),
        span,
        severity="warning",
        hint="it renames the name and every use of it; add --write to change the file",
    )


def deprecated_names(notices) -> set[str]:
    """The names RS212 warnings say a later version of the language reserved."""
    found = (_SINCE_NAME.match(d.message) for d in notices if d.code == "RS212")
    return {m.group(1) for m in found if m}


FAILED = "?"  # the type of a local whose let was refused or failed (and was reported)

_TOKEN_NAMES = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted label",
    "LPAR": "'('",
    "RPAR": "')'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "COMMA": "','",
    "$END": "the end",
    "ASSIGN_OP": "'='",
    "MINUS": "'-'",
    "COMPARE_OP": "a comparison",
    "NOT": "'not'",
    "TRUE": "'true'",
    "FALSE": "'false'",
    "SEMICOLON": "';'",
    "COLON": "':'",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
    "IN": "'in'",
    "FOR": "'for'",
    "IF": "'if'",
    "ELSE": "'else'",
    "FROM": "'from'",
    "_DOTS": "'..'",
    "THEN": "'then'",
    "DOT": "'.'",
}
# For a syntax error's message: the tokens that go on with a value (listed after the
# others, which close a construct or go on with it), and the keywords of statements.
# the names a section binds for its rule, and where: told when one is used elsewhere
_ROLES = {
    "card": "an action with `card:` and the reactions that answer one (a `target: card` "
    "action's card is `chosen`)",
    "target": "an action with `target: other`, `any` or `zone`",
    "chosen": "an action with `target: card`",
    "reactor": "a reaction",
    "answer": "a reaction with a `card`",
    "actor": "a reaction that answers a reaction",
    "me": "the evaluation",
}
_OPERATORS = {"ADD_OP", "MUL_OP", "COMPARE_OP", "AND", "OR", "IN", "NOT", "DOT"}
_STATEMENT_KEYWORDS = {"LET", "FOR", "WHILE", "CHOOSE"}
_STATEMENTS = {
    "block",
    "let",
    "assign",
    "if_",
    "else_if",
    "for_",
    "while_",
    "choose_branch",
    "branch",
    "choose_card",
    "choose_number",
    "choose_all",
    "call_stmt",
}
_NESTING = {"block", "else_if"}  # an `else if` nests its `if` in the else block


def _levels(t: lark.Tree) -> int:
    """The expression levels a node adds: one, or one per operator of a chain, which
    becomes a nest of binary operations."""
    if t.data in ("and_", "or_"):
        return len(t.children) - 1
    if t.data == "arith":
        return len(t.children) // 2  # operands and operators alternate
    return 1


def _too_deep(tree: lark.Tree) -> tuple[str, lark.Tree] | None:
    """The first node (in text order) where blocks nest past MAX_BLOCK_DEPTH or an
    expression past MAX_EXPR_DEPTH, with the code to report: "RS303" or "RS302".
    Walked with a stack of its own: the tree may be far deeper than Python's."""
    stack = [(tree, 0, 0)]
    while stack:
        t, blocks, levels = stack.pop()
        if t.data in _STATEMENTS:
            levels = 0
        else:
            levels += _levels(t)
            if levels > MAX_EXPR_DEPTH:
                return "RS302", t
        for c in reversed(t.children):
            if isinstance(c, lark.Tree):
                inner = blocks + (c.data in _NESTING)
                if inner > MAX_BLOCK_DEPTH:  # at the `if`, `for`, ... that opens it
                    return "RS303", c if c.data == "else_if" else t
                stack.append((c, inner, levels))
    return None


class _Keywords:
    """A keyword is lexed as one everywhere: Lark's contextual lexer would otherwise read
    `if` as a name where no keyword fits (`let z = if ...`) and report a later token.
    The words a spec may still use as names are left to the context (builtins:
    GRAMMAR_KEYWORDS)."""

    always_accept = tuple(w.upper() for w, always in GRAMMAR_KEYWORDS.items() if always)

    def process(self, stream):
        return stream


_OPTIONS = {"start": ["block", "expr"], "parser": "lalr", "propagate_positions": True}


@lru_cache(maxsize=1)
def parser() -> lark.Lark:
    """The expression parser. Building its LALR tables takes longer than all the rest
    of `rulespec validate`, so they are kept in the user's cache folder (cache.py) and
    loaded from there while the grammar, its options, the keywords, Lark and Python are
    those they were made with."""
    text = Path(__file__).with_name("grammar.lark").read_text(encoding="utf-8")
    made_from = (text, repr(_OPTIONS), repr(_Keywords.always_accept), lark.__version__)
    file = cache.path("grammar", *made_from, sys.version)
    kept = cache.read(file, lark.Lark.load)
    if isinstance(kept, lark.Lark):
        return kept
    built = lark.Lark(text, postlex=_Keywords(), **_OPTIONS)
    cache.write(file, built.save, keep=4)
    return built


@lru_cache(maxsize=4096)
def _tree(text: str, start: str) -> lark.Tree:
    """The parse tree of an expression or block: a function of its text alone (its
    positions are offsets in the text), and never changed by what reads it, so kept.
    An editor checks the spec again at each change: the expressions that did not change
    are not parsed again; nor are those a base spec and its variants share."""
    return parser().parse(text, start=start)


def _wanted(want: str) -> str:
    """The types a place accepts, as a message says them: `int|player|kind` is "int,
    player or kind"."""
    if want == "bool":
        return "a condition (bool)"
    *others, last = want.split("|")
    return f"{', '.join(others)} or {last}" if others else last


# (value's type, target's type) -> how to turn one into the other
_CONVERSIONS = {
    ("zone", "zones"): "one zone is no choice: name a family of zones (count: or by: in "
    "zones), by its name (row), a seat's own family with its owner (store(current))",
    ("cards", "zones"): "a family's zones are written by its name (row), a seat's own "
    "family with its owner (store(current))",
    ("player", "int"): "seat_number(p) is a player's number, from 0",
    ("int", "player"): "seat(n) is the player at seat n, from 0",
    ("int", "kind"): (
        'nth(values("PROP"), n) is the nth value of a card property, from 0; cards of a '
        "number property are counted or taken by a test: count(c.rank == n for c in cards), "
        "filter(c.rank == n for c in cards)"
    ),
    ("players", "int"): "size(players) is how many they are",
    ("cards", "int"): "size(cards) is how many they are",
    ("zone", "int"): "size(zone) is how many cards it holds",
}
# a function that turns one type into another, by what its argument is called, and the
# type it gives: given a value of that type already, the call is not needed
_CONVERTERS = {"argument 1 of seat()": "player", "argument 1 of seat_number()": "int"}
_BRACKETS = re.compile(r'"[^"\n]*"|#[^\n]*|[{}()]')  # a label or comment hides its own
# what C, JavaScript or Python write, and what to say of it here
_OTHER_LANGUAGES = (
    ("&&", "write 'and'"),
    ("||", "write 'or'"),
    ("!", "write 'not'"),
    ("/", "numbers are whole, divided with '//' (rounded down)"),
    (
        "[",
        'there are no lists or indexes: the kinds a property takes are values("prop") '
        '(for k in values("suit")), one card of cards nth(cards, i), the top n of a zone '
        "top(zone, n)",
    ),
)
# functions other languages name otherwise, where the closest spelling misleads
_OTHER_FUNCTIONS = {"len": "size", "length": "size", "sizeof": "size"}
# functions of other languages the language writes otherwise: the way it does
_WRITTEN_OTHERWISE = {"abs": "a distance is max(a - b, b - a); a size, max(x, -x)"}
# constants of the language a statement changes: how (RS207, where one is assigned to)
_CONSTANT_CHANGES = {
    "current": "set_current(p) makes p the player whose turn it is now; set_next(p) gives "
    "p the next turn",
    "players": "eliminate(p) takes a player out of the game; sit_out(p), until the round ends",
}


def _unclosed(text: str) -> int | None:
    """The offset of the last '{' or '(' of text that nothing closes, or None."""
    opened: list[int] = []
    for m in _BRACKETS.finditer(text):
        if m.group() in "{(":
            opened.append(m.start())
        elif m.group() in "})" and opened:
            opened.pop()
    return opened[-1] if opened else None


def _syntax_message(text: str, pos: int, exc: lark.UnexpectedInput) -> tuple[str, str]:
    """The message and hint of a syntax error at pos: what was found, what would fit."""
    token = getattr(exc, "token", None)
    allowed = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    expected = [
        _TOKEN_NAMES.get(t, repr(t.lower()))
        for t in sorted(allowed, key=lambda t: (t in _OPERATORS, _TOKEN_NAMES.get(t, t)))
    ]
    hint = f"expected {', '.join(dict.fromkeys(expected[:6]))}" if expected else ""
    if isinstance(exc, lark.UnexpectedCharacters):
        msg = f"unexpected character {text[pos]!r} in expression"
        said = next((w for op, w in _OTHER_LANGUAGES if text.startswith(op, pos)), None)
        if said is None and (seat := re.match(r"P([1-9]\d*)\b", text[pos:])):  # P1: seat(0)
            said = f"a player is written seat(n), counted from 0: P{seat[1]} is seat({int(seat[1]) - 1})"
        return (f"{msg}: {said}" if said else msg), hint
    if token is None or token.type == "$END":
        return "expression ends too early", hint
    return _unexpected(token, allowed, text, pos), hint


# a say() whose text a quote within its braces cut short (say("{if c then "a" else "b"}")),
# the parser stopped after that quote: the quote, as group 1
_QUOTE_IN_SAY = re.compile(r'\bsay\(\s*"[^"\n]*\{[^{}"\n]*(")\s*$')

# what other languages write before the token the parser stopped at, and what to say
_WRITTEN_BEFORE = (
    (r"\belif\s*$", ": write 'else if'"),
    (
        r"\b(break|continue)\s*$",
        ": there is no break or continue: a while loop stops when its condition fails, "
        "and an if skips what is not to be done",
    ),
)


def _unexpected(token, allowed: set, text: str, pos: int) -> str:
    """What an unexpected token says, with what was likely meant."""
    msg = f"unexpected {token.value!r} in expression"
    if token.type in _STATEMENT_KEYWORDS and "NAME" in allowed:
        return f"'{token.value}' begins a statement, and a value is expected here"
    if "THEN" in allowed:
        msg += ": a value's 'if' reads if COND then A else B"
    elif token.type == "IF" and "NAME" in allowed:  # after an operator
        msg += ": inside a larger value, write (if COND then A else B) in parentheses"
    elif token.type == "IF":  # after a whole value: A if COND else B, as Python writes it
        msg += ": a value's 'if' comes first: if COND then A else B"
    elif token.type == "ELSE" and "LBRACE" in allowed and re.search(r"\bif\b", text[:pos]):
        # `let x = A if COND else B`: the `if` began an if statement
        msg += (
            ": a value's 'if' comes first: if COND then A else B (an 'if' after a value "
            "begins a statement of its own)"
        )
    elif token.type == "THEN" and "LBRACE" in allowed:  # an if statement as a value's
        msg += ": an 'if' statement's body goes in braces: if COND { ... } else { ... }"
    elif token.value == "=":
        msg += ": to compare, write '=='"
    elif token.value == "*" and text[:pos].rstrip().endswith("*"):  # Python's 2 ** 13
        msg += (
            ": there is no power operator '**': multiply (n * n), or read the powers "
            "from a card property or a named value"
        )
    elif said := next((m for w, m in _WRITTEN_BEFORE if re.search(w, text[:pos])), None):
        msg += said
    elif token.type == "FOR" and "IF" in allowed:  # `count(... for a in s for b in s)`
        msg += (
            ": an aggregate takes one 'for': put one aggregate inside another, as in "
            "sum(count(a.rank == b.rank for b in s) for a in s)"
        )
    elif token.type == "FOR" and "LBRACE" not in allowed:  # `top(row(i), 1) for i in ...`
        msg += (
            ": a 'for' in a value goes inside an aggregate, as in "
            "union(top(row(i), 1) for i in range(4)) or any(size(row(i)) > 1 for i in range(4))"
        )
    return msg


# how a per_card counter is written (RS204, RS203)
_ON_EACH_CARD = "counter '{0}' is one on each card: write {0}(c), c one card"


@dataclass
class Names:
    """What the names of one spec refer to (built by the compiler)."""

    params: dict[str, str]  # name -> type
    counters: dict[str, bool]  # name -> per player
    zones: dict[str, bool]  # name -> per player
    kinds: set[str]  # card types and tags
    all_names: dict[str, str] = field(default_factory=dict)  # name -> what it was declared as
    props: dict[str, str] = field(default_factory=dict)  # card property -> type
    goals: set[str] = field(default_factory=set)
    windows: set[str] = field(default_factory=set)  # named reaction windows
    windows_in_order: tuple[str, ...] = ()  # the same, in spec order
    reactions: frozenset[str] = frozenset()  # for a hint: a reaction named where a window goes
    families: dict[str, int] = field(default_factory=dict)  # zone or counter -> how many
    # a family of one zone (or counter) for each value of a card property of kinds:
    # name -> (the property, its values in values() order)
    family_by: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    unsized: set[str] = field(default_factory=set)  # families whose size was refused, and said so
    # each property of kinds -> the kinds it names, in values() order
    prop_values: dict[str, tuple[str, ...]] = field(default_factory=dict)
    memories: dict[str, bool] = field(default_factory=dict)  # remembered cards -> per player
    # the spec's procedures and conditions: name -> ((parameter, type), ...)
    procedures: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # procedure -> (the procedure holding a react() it reaches, that react()'s place)
    reacting: dict[str, tuple[str, ir.Span]] = field(default_factory=dict)
    conditions: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    results: dict[str, str] = field(default_factory=dict)  # condition -> "bool" or "int"
    refused: set[str] = field(default_factory=set)  # declared and refused (RS202)
    removed: dict = field(default_factory=dict)  # taken out by a variant -> where (a Span)
    text: set[str] = field(default_factory=set)  # a card formula's text values, unquoted
    # counter -> what it holds: "int", "player" (a seat), "kind" or FAILED (its initial
    # value was refused)
    counter_types: dict[str, str] = field(default_factory=dict)
    refilled: set[str] = field(default_factory=set)  # zones with a refill_from
    per_team: set[str] = field(default_factory=set)  # zones and counters one per team
    per_card: set[str] = field(default_factory=set)  # counters one on each card: name(c)


class SpecText:
    """One expression string of the spec, with its place in the file."""

    def __init__(self, doc, path):
        self.doc, self.path = doc, tuple(path)

    def span(self, offset: int) -> Span:
        return self.doc.offset_span(self.path, offset)


class _Shifted:
    """An expression within another's text (a value a say() text names): its offsets
    are from `shift` on in the outer text."""

    def __init__(self, outer: SpecText, shift: int):
        self.outer, self.shift = outer, shift

    def span(self, offset: int) -> Span:
        return self.outer.span(self.shift + offset)


SAYABLE = ("int", "player", "players", "kind", "cards", "zone")  # the types say() tells


class Builder:
    """Builds IR for the expressions and effects of one spec, collecting problems."""

    def __init__(self, names: Names, problems: list[Diagnostic]):
        self.names, self.problems = names, problems
        self.notices: list[Diagnostic] = []  # warnings: the spec stands
        self.text: SpecText | None = None
        # an unknown name's hint where nothing known is close, set by what compiles a
        # part that could bind it (an end condition could, with `each`)
        self.unbound: Callable[[str], str] | None = None
        # a name the part being compiled cannot read, though a part near it binds it (a
        # let of some of the actions a reaction answers; `chosen` in the `among` it is
        # picked from) -> why: said first
        self.why_unbound: dict[str, str] = {}

    @contextmanager
    def unbound_here(self, why: dict[str, str]):
        """Compile a part that cannot read these names, though a part near it binds
        them: an unknown one is told why (`why_unbound`)."""
        self.why_unbound = why
        try:
            yield
        finally:
            self.why_unbound = {}

    # --- entry points -------------------------------------------------------------

    def expr(
        self, doc, path, value, scope: dict[str, str], want: str | None = None, items=False
    ) -> ir.Expr | None:
        """An expression of the spec; `items`: what a for loop or a choice goes over,
        where a family's name gives its zones (an action's `among`)."""
        self.text = SpecText(doc, path)
        if isinstance(value, (bool, int)):
            node = ir.Const(doc.span(path), "bool" if isinstance(value, bool) else "int", value)
        else:
            tree = self._parse(value, "expr")
            read = self._items if items else self._expr
            node = None if tree is None else read(tree, dict(scope))
        if node is not None and want and not accepts(want, node.type):
            # a named condition's test written under value:, a named value's
            named = path[0] == "conditions" and path[-1] == "value" and node.type == "bool"
            hint = (
                "a true/false test is written under when:"
                if named
                else _CONVERSIONS.get((node.type, want), "")
            )
            what = ".".join(map(str, path))
            self._error(
                "RS204", f"{what} must be {_wanted(want)}, got {node.type}", node.span, hint
            )
            return None
        return node

    def block(self, doc, path, text, scope: dict[str, str]) -> tuple[ir.Stmt, ...]:
        """Compile an effect to statements."""
        self.text = SpecText(doc, path)
        tree = self._parse(text, "block")
        if tree is None:
            return ()
        return self._block(tree, dict(scope))

    # --- parsing ------------------------------------------------------------------

    def _parse(self, text: str, start: str):
        """The parse tree of text, or None when it has a syntax error or nests too deep
        (both reported): the builder recurses, and so does all that reads the IR."""
        try:
            tree = _tree(text, start)
        except lark.UnexpectedInput as exc:
            pos = getattr(exc, "pos_in_stream", None)
            token = getattr(exc, "token", None)
            if token is not None and getattr(token, "start_pos", None) is not None:
                pos = token.start_pos
            if pos is None:
                pos = len(text.rstrip())
            quoted = _QUOTE_IN_SAY.search(text[:pos])
            if quoted:  # at the quote that ended the text, not at the word after it
                self._error(
                    "RS301",
                    "say()'s text ends at this quote inside its braces: braces hold a value, "
                    "never quoted text",
                    self.text.span(quoted.start(1)),
                    'tell a test by an if around the say: if COND { say("… A") } '
                    'else { say("… B") }',
                )
                return None
            msg, hint = _syntax_message(text, pos, exc)
            elif_ = re.search(r"\belif\s*$", text[:pos])
            if elif_:  # at the word to change, with no list of what might follow it
                pos, hint = elif_.start(), ""
            # a bracket left open: at the end, or where `if c { x = 1 else …` runs on
            ended, runs_on = msg == "expression ends too early", str(token) == "else"
            open_at = _unclosed(text[: None if ended else pos]) if ended or runs_on else None
            if open_at is not None:
                at = self.text.span(open_at)
                where = f"the '{text[open_at]}' of line {at.line}, column {at.col}"
                said = (
                    f"{where} is not closed"
                    if ended
                    else f"a '}}' before 'else'? {where} is still open"
                )
                hint = f"{said}; {hint}"
            self._error("RS301", msg, self.text.span(pos), hint)
            return None
        deep = _too_deep(tree)
        if deep is None:
            return tree
        code, node = deep
        if code == "RS302":
            self._error(
                code,
                f"expression nested more than {MAX_EXPR_DEPTH} levels deep",
                self._span(node),
                "a chain like a + b + c is a level per operator; name parts with let",
            )
        else:
            self._error(
                code,
                f"blocks nested more than {MAX_BLOCK_DEPTH} deep",
                self._span(node),
                "an else if is a level too; move a part into a trigger or a step",
            )
        return None

    # --- helpers ------------------------------------------------------------------

    def _span(self, tree) -> Span:
        meta = getattr(tree, "meta", None)
        if meta is not None and not meta.empty:
            return self.text.span(meta.start_pos)
        if isinstance(tree, lark.Token):
            return self.text.span(tree.start_pos)
        return self.text.span(0)

    def _error(self, code, message, span, hint=""):
        self.problems.append(Diagnostic(code, message, span, hint=hint))

    def _check(self, node: ir.Expr | None, want: str, what: str) -> bool:
        if node is not None and not accepts(want, node.type):
            hint = _CONVERSIONS.get((node.type, want), "")
            if not hint and node.type == "int" and "ints" in want.split("|"):
                hint = "the numbers 0 to n - 1 are range(n)"
            if what in _CONVERTERS and node.type == _CONVERTERS[what]:  # seat(a player)
                a = "an" if node.type[0] in "aeiou" else "a"
                hint = f"it is {a} {node.type} already: write it without {what.split()[-1]}"
            if what == "argument 1 of size()" and node.type == "kinds":
                hint = "kinds that pass a test are counted with count(TEST for k in KINDS)"
            if what == "argument 1 of random()" and node.type == "cards":
                hint = (
                    "random draws from one zone: move the cards into a hidden zone of "
                    "their own first, and draw from it"
                )
            message = f"{what} must be {_either(want)}, got {node.type}"
            self._error("RS204", message, node.span, hint)
            return False
        if node is not None and _seat_needed(what) and _is_nobody(node):
            hint = "end_game() ends the game with no winner" if what.endswith("win()") else ""
            self._error("RS204", f"{what} is nobody, which is no player", node.span, hint)
            return False
        return node is not None

    def _callables(self) -> set[str]:
        """The names written as calls: functions, named conditions and procedures, and
        the zones, counters and remembered cards of a seat, or of a family."""
        n = self.names
        owned = {k for d in (n.zones, n.counters, n.memories) for k, per in d.items() if per}
        return {
            *FUNCTIONS,
            *AGGREGATES,
            *n.conditions,
            *n.procedures,
            *n.families,
            *owned,
            *n.per_card,
        }

    def _name_hint(self, name: str, scope) -> str:
        """Why a name read as a value is none, where it is something else: a card
        property, a function, `any`, a name only some parts bind; else ''."""
        if name in self.names.props:
            return (
                f"a card property is read from cards as c.{name}, and named in quotes "
                f'elsewhere: prop(c, "{name}"), values("{name}")'
            )
        if name in FUNCTIONS and name not in scope:
            args = tuple(
                a.split("|")[0].rstrip("?") + "?" * a.endswith("?") for a in FUNCTIONS[name][0]
            )
            return f"'{name}' is a function: write {name}({written(args)}), {FUNCTIONS[name][2]}"
        if name == "any":
            return "`any` is only for an action's card: size(zone) counts every card"
        if name in _ROLES:
            return (
                f"'{name}' is bound only in {_ROLES[name]}: "
                "see docs/language.md#what-each-part-of-a-spec-binds"
            )
        return ""

    def _unknown(self, name: str, span: Span, scope, what="name"):
        if name in self.names.refused:
            return  # its declaration was refused, and said so: its uses say no more
        known = set(scope) | set(CONSTANTS) | set(self.names.all_names) | set(FUNCTIONS)
        if name in self.why_unbound and what != "function":
            hint = self.why_unbound[name]
        elif name in self.names.removed:
            hint = removed_hint(self.names.removed[name])
        elif name in self.names.text:
            hint = f'text in a formula is quoted: "{name}"'
        elif what == "name" and (said := self._name_hint(name, scope)):
            hint = said
        elif name in _OTHER_FUNCTIONS and what == "function" and name not in known:
            hint = did_you_mean(_OTHER_FUNCTIONS[name], known)  # as it names it
        elif name in _WRITTEN_OTHERWISE and what == "function" and name not in known:
            hint = _WRITTEN_OTHERWISE[name]
        else:  # a call means what is called (`lenght`: not the card tag 'eight')
            hint = did_you_mean(name, self._callables() if what == "function" else known)
            if not hint and what == "name" and self.unbound is not None:
                hint = self.unbound(name)
        meant = self.names.all_names.get(getattr(hint, "suggestion", None))
        if what == "function" and meant == "zone":  # `playd(current)`: a zone misspelt
            what, zone = "zone or function", hint.suggestion
            hint = Hint(f"did you mean the zone '{zone}'?")
            hint.suggestion = zone  # the editor's quick fix
        self._error("RS201", f"unknown {what} '{name}'", span, hint)

    # --- expressions --------------------------------------------------------------

    def _expr(self, t, scope) -> ir.Expr | None:
        # one method per kind of expression the grammar has (_EXPRESSIONS, below the class)
        return _EXPRESSIONS[t.data](self, t, self._span(t), scope)

    def _int(self, t, span, scope) -> ir.Expr | None:
        digits = str(t.children[0])
        if len(digits) > MAX_DIGITS:
            self._error("RS304", too_many_digits(digits), span)
            return None
        return ir.Const(span, "int", int(digits))

    def _bool(self, t, span, scope) -> ir.Expr:
        return ir.Const(span, "bool", t.data == "true")

    def _string(self, t, span, scope) -> ir.Expr:
        return ir.Const(span, "str", str(t.children[0])[1:-1])

    def _name_expr(self, t, span, scope) -> ir.Expr | None:
        return self._name(str(t.children[0]), span, scope)

    def _neg(self, t, span, scope) -> ir.Expr | None:
        x = self._expr(t.children[0], scope)
        return ir.Unary(span, "int", "-", x) if self._check(x, "int", "'-' operand") else None

    def _not(self, t, span, scope) -> ir.Expr | None:
        x = self._expr(t.children[0], scope)
        return ir.Unary(span, "bool", "not", x) if self._check(x, "bool", "'not' operand") else None

    def _and_or(self, t, span, scope) -> ir.Expr | None:
        op = t.data[:-1]
        items = [self._expr(c, scope) for c in t.children]
        if not all([self._check(x, "bool", f"'{op}' operand") for x in items]):
            return None
        node = items[0]
        for x in items[1:]:
            node = ir.Binary(span, "bool", op, node, x)
        return node

    def _arith(self, t, span, scope) -> ir.Expr | None:
        operands = [self._expr(c, scope) for c in t.children[0::2]]
        ops = [str(o) for o in t.children[1::2]]
        if None in operands:
            return None
        of = "int"
        if all(accepts("cards", x.type) for x in operands):
            other = next((op for op in ops if op != "+"), None)
            if other is not None:
                hint = (
                    "write without(a, b), the cards of a that are not in b" if other == "-" else ""
                )
                self._error(
                    "RS204", f"'{other}' takes numbers: there is no '{other}' on cards", span, hint
                )
                return None
            of = "cards"  # the cards of each, in order
        elif all(x.type == "cardsets" for x in operands):
            other = next((op for op in ops if op != "+"), None)
            if other is not None:
                self._error(
                    "RS204", f"'{other}' takes numbers: sets of cards are only added up", span
                )
                return None
            of = "cardsets"  # the sets of each, in order: one choice of one or two cards
        elif all(accepts("players", x.type) for x in operands):
            other = next((op for op in ops if op != "+"), None)
            if other is not None:
                self._error(
                    "RS204",
                    f"'{other}' takes numbers: players are only joined, with '+'",
                    span,
                    "the players of a that are not in b: filter(q not in b for q in a)",
                )
                return None
            if not all(
                [self._check(x, "players", "an operand of '+' of players") for x in operands]
            ):
                return None  # nobody joins no set
            of = "players"  # those of each, each once, in turn order
        elif any(x.type == "cardsets" for x in operands):
            self._error(
                "RS204",
                "sets of cards add up only with sets of cards, not "
                + " or ".join(sorted({x.type for x in operands} - {"cardsets"})),
                span,
                "each card as a set of one: combinations(hand(p), 1)",
            )
            return None
        elif not all([self._check(x, "int", "arithmetic operand") for x in operands]):
            return None
        node = operands[0]
        for op, rhs in zip(ops, operands[1:]):
            node = ir.Binary(span, of, op, node, rhs)
        return node

    def _compare(self, t, span, scope) -> ir.Expr | None:
        left, op, right = t.children
        a, b = self._expr(left, scope), self._expr(right, scope)
        if a is None or b is None:
            return None
        if str(op) in ("==", "!=") and _comparable(a.type, b.type):
            return ir.Binary(span, "bool", str(op), a, b)
        if str(op) in ("==", "!=") and (
            "int" not in (a.type, b.type) or {a.type, b.type} == {"int", "kind"}
        ):
            hint = (
                self._quoted_kind(b if a.type == "kind" else a)
                if "kind" in (a.type, b.type)
                else ""
            )
            self._error("RS204", _mismatch(str(op), a.type, b.type), span, hint)
            return None
        if self._check(a, "int", f"'{op}' operand") & self._check(b, "int", f"'{op}' operand"):
            return ir.Binary(span, "bool", str(op), a, b)
        return None

    def _quoted_kind(self, node) -> str:
        """A hint for text written where a kind was meant: `"hearts"` for hearts."""
        if isinstance(node, ir.Const) and node.type == "str" and node.value in self.names.kinds:
            return f"a kind is named without quotes: {node.value}"
        return ""

    def _in(self, t, span, scope) -> ir.Expr | None:
        a, b = self._expr(t.children[0], scope), self._expr(t.children[1], scope)
        if b is None and a is not None and a.type != "player":
            return None  # the right side was refused, and said so
        if a is not None and b is not None and b.type == _VALUES.get(a.type):
            ok = True  # a kind among kinds, a number among numbers
        elif (
            a is not None
            and b is not None
            and (a.type in ("int", "kind") or accepts("cards", a.type))
        ):
            self._error(
                "RS204",
                f"'in' asks whether a player is among players, a kind among kinds or a "
                f"number among numbers, not {a.type} among {b.type}",
                span,
                "membership among cards is written with count or any: count(cards, kind) > 0, "
                "any(c.value == n for c in cards)",
            )
            return None
        else:
            ok = self._check(a, "player", "left of 'in'") & self._check(
                b, "players", "right of 'in'"
            )
        if ok:
            node = ir.Binary(span, "bool", "in", a, b)
            return ir.Unary(span, "bool", "not", node) if t.data == "not_in" else node
        return None

    def _name(self, name, span, scope) -> ir.Expr | None:
        n = self.names
        if name in scope:
            return None if scope[name] == FAILED else ir.Local(span, scope[name], name)
        if name in CONSTANTS and name not in n.all_names:  # a spec's own name hides one (RS212)
            return ir.Local(span, CONSTANTS[name][0], name, builtin=True)
        if name in n.params:
            return ir.Param(span, n.params[name], name)
        if name in n.refused:
            # a name declared twice (RS202, at the second): its uses may mean either,
            # so none is judged by the first meaning's type (a tag read as cards)
            return None
        return self._declared(name, span, scope)

    def _declared(self, name, span, scope) -> ir.Expr | None:
        """A name the spec declares, used as a value without arguments; in this order, as
        a zone family's name is also a zone's."""
        n = self.names
        if name in n.families:
            self._error("RS204", self._family_form(name), span)
            return None
        if name in n.per_card:
            self._error("RS204", _ON_EACH_CARD.format(name), span)
            return None
        if name in n.counters:
            if n.counter_types.get(name) == FAILED:
                return None  # its initial value was refused, and said so
            return self._unowned(
                n.counters[name],
                f"counter '{name}' is",
                span,
                ir.Counter(span, n.counter_types.get(name, "int"), name, None),
            )
        if name in n.zones:
            return self._unowned(
                n.zones[name], f"zone '{name}' is", span, ir.ZoneRef(span, "zone", name, None)
            )
        if name in n.memories:
            return self._unowned(
                n.memories[name],
                f"remembered cards '{name}' are",
                span,
                ir.Memory(span, "cards", name, None),
            )
        if name in n.kinds:
            return ir.Kind(span, "kind", name)
        if name in n.goals:
            return ir.Const(span, "goal", name)
        if name in n.windows:
            return ir.Const(span, "window", name)
        if name in n.conditions:
            what = "condition" if n.results.get(name, "bool") == "bool" else "named value"
            params = ", ".join(p for p, _ in n.conditions[name])
            self._error(
                "RS203",
                f"{what} '{name}' is read by calling it with its arguments: write {name}({params})"
                if params
                else f"{what} '{name}' is read by calling it, with no arguments: write {name}()",
                span,
            )
            return None
        if name in n.procedures:
            self._error("RS205", f"'{name}' is a statement, not a value", span)
            return None
        self._unknown(name, span, scope)
        return None

    def _unowned(self, per_player: bool, what: str, span, node: ir.Expr) -> ir.Expr | None:
        """node, a zone, counter or remembered cards named without an owner; an error
        when each player has their own."""
        if per_player:
            name = node.name
            whose = (
                "team: write {0}(p), p a player of the team"
                if name in self.names.per_team
                else "player: write {0}(p)"
            )
            self._error("RS204", f"{what} per {whose.format(name)}", span)
            return None
        return node

    def _args(self, t, scope):
        return [self._expr(a, scope) for a in t.children[1:] if a is not None]

    def _call(self, t, span, scope, chance_ok=False) -> ir.Expr | None:
        name = str(t.children[0])
        args = self._args(t, scope)
        n = self.names
        if name in n.families:
            return self._family(name, args, span)
        if name in n.per_card:
            return self._on_card(name, args, span)
        owned = (("zone", n.zones), ("counter", n.counters), ("remembered card", n.memories))
        what, per = next(((w, names[name]) for w, names in owned if name in names), (None, None))
        if what is not None:
            return self._owned(name, what, per, args, span)
        if name in n.conditions:
            ok = self._arguments(name, tuple(t for _, t in n.conditions[name]), args, span)
            result = n.results.get(name, "bool")
            return ir.ConditionCall(span, result, name, tuple(args)) if ok else None
        if name not in FUNCTIONS:
            if name in PROCEDURES or name in n.procedures:
                self._error("RS205", f"'{name}' is a statement, not a value", span)
            elif name in AGGREGATES:  # `union(a, b)`: written as a function is
                self._error(
                    "RS204",
                    f"'{name}' is an aggregate, over the items of a for: {name}(X for x in ITEMS)",
                    span,
                    "two sets of cards are joined with +: a + b" if name == "union" else "",
                )
            else:
                self._unknown(name, span, scope, "function")
            return None
        if name in CHANCE and not chance_ok:
            self._error(
                "RS206", f"'{name}' is decided by chance and may only be {CHANCE[name]}", span
            )
            return None
        params, result, _ = FUNCTIONS[name]
        ok = self._arguments(name, params, args, span)
        return self._function(name, result, args, span) if ok else None

    def _function(self, name, result, args, span) -> ir.Expr | None:
        """A call of a built-in function whose arguments are checked."""
        zone = args[0] if args else None
        if name == "index_of" and isinstance(zone, ir.ZoneRef) and zone.index is None:
            self._error(
                "RS204",
                f"index_of() gives a zone's place in its family: '{zone.name}' is no family",
                zone.span,
                "give it a zone of a family (count: or by:), such as one a choice or a loop "
                "over the family's zones holds",
            )
            return None
        if name in _TYPED_BY_ARGUMENTS:
            return getattr(self, _TYPED_BY_ARGUMENTS[name])(span, *args)
        if result == "items":  # first(): a set of what it is given
            given = args[0].type
            result = (
                "cards"
                if accepts("cards", given)
                else given
                if given in _VALUES.values()
                else "players"
            )
        elif name == "nth" and not accepts("cards", args[0].type):  # one item of a set
            result = ITEM_TYPES.get(args[0].type, "player")
        return ir.Call(span, result, name, tuple(args))

    def _owned(self, name, what, per, args, span) -> ir.Expr | None:
        """`hand(p)`: a zone, counter or remembered cards of one player."""
        if not per:
            self._error("RS204", f"{what} '{name}' is shared: write {name} without an owner", span)
            return None
        if len(args) != 1:
            self._error("RS203", f"{name}(p) takes one player, got {len(args)} arguments", span)
            return None
        if not self._check(args[0], "player", f"owner of {what} '{name}'"):
            return None
        if what == "zone":
            return ir.ZoneRef(span, "zone", name, args[0])
        if what == "counter":
            held = self.names.counter_types.get(name, "int")
            return None if held == FAILED else ir.Counter(span, held, name, args[0])
        return ir.Memory(span, "cards", name, args[0])

    def _on_card(self, name, args, span) -> ir.Counter | None:
        """`damage(c)`: a per_card counter of one card, its index the card (a set of one
        card; any other number of cards is RS701 as the game runs)."""
        held = self.names.counter_types.get(name, "int")
        if held == FAILED:
            return None  # its initial value was refused, and said so
        if len(args) != 1:
            got = f"got {len(args)} arguments"
            self._error("RS203", f"{_ON_EACH_CARD.format(name)}; {got}", span)
            return None
        if not self._check(args[0], "cards", f"card of counter '{name}'"):
            return None
        return ir.Counter(span, held, name, None, args[0])

    def _family(self, name, args, span) -> ir.ZoneRef | ir.Counter | None:
        """`row(i)`: the zone (or counter) of a family at an index; `field(p, i)` for a
        family each seat (or team) has. The index is checked when it is a constant (else
        at run time, RS701)."""
        count, owned = self.names.families[name], self._owned_name(name)
        what = "counter" if name in self.names.counters else "zone"
        held = self.names.counter_types.get(name, "int")
        if held == FAILED:
            return None  # its initial value was refused, and said so
        if len(args) != 1 + bool(owned):
            got = f"got {len(args)} argument{'s' * (len(args) != 1)}"
            self._error("RS203", f"{self._family_form(name)}; {got}", span)
            return None
        *owner, index = args
        if owned and not self._check(owner[0], "player", f"owner of {what} '{name}'"):
            return None
        by = self.names.family_by.get(name)
        if not self._check(index, "int|kind" if by else "int", f"index of {what} family '{name}'"):
            return None
        if by and index.type == "kind" and not self._a_value_of(by, index, name, what):
            return None
        value = _constant(index)
        if value is not None and not 0 <= value < count and name not in self.names.unsized:
            message = ir.out_of_family(name, bool(owned), what, count).format(value)
            self._error("RS211", message, index.span)
            return None
        whose = owner[0] if owned else None
        if what == "counter":
            return ir.Counter(span, held, name, whose, index)
        return ir.ZoneRef(span, "zone", name, whose, index)

    def _a_value_of(self, by: tuple, index: ir.Expr, name: str, what: str) -> bool:
        """Whether a kind indexing a `by` family may be one of its values: RS211 for a
        kind written out that is not (`no_kind` too), and for a property of the cards
        none of whose values is (`discard(card.suit)` for a family by colour)."""
        prop, values = by
        if name in self.names.unsized:
            return True  # the family was refused, and said so
        named = index.name if isinstance(index, ir.Kind) else None
        if isinstance(index, ir.Local) and index.builtin and index.name == "no_kind":
            named = "no_kind"
        read = index.args[1].value if isinstance(index, ir.Call) and index.func == "prop" else None
        if named is not None and named not in values:
            wrong = f"'{named}' is not one"
        elif (
            read is not None
            and read != prop
            and not set(self.names.prop_values.get(read, ())) & set(values)
        ):
            wrong = f"its index reads '{read}', none of whose values is one"
        else:
            return True
        self._error(
            "RS211",
            f"{what} family '{name}' has one {what} for each value of '{prop}': {wrong}",
            index.span,
            f"its values: {', '.join(values)}",
        )
        return False

    def _prop(self, span, cards: ir.Expr, key: ir.Expr) -> ir.Expr | None:
        """prop(cards, "name"), typed as the deck's cards declare the property; of a
        kind, the value its card types share (kindprops.py checks that they do)."""
        held = self.property_type(key, "prop()")
        return None if held is None else ir.Call(span, held, "prop", (cards, key))

    def _values(self, span, key: ir.Expr) -> ir.Expr | None:
        """values("name"): the kinds a kind property names, or the numbers of a number
        property, as items to loop over or choose from."""
        held = self.property_type(key, "values()")
        if held is None:
            return None
        if held not in _VALUES:
            self._error(
                "RS204",
                f"values() lists the values of a property of kinds or numbers; "
                f"'{key.value}' holds {'text' if held == 'str' else 'true or false'}",
                key.span,
                f"test it on a card instead: c.{key.value} == ...",
            )
            return None
        return ir.Call(span, _VALUES[held], "values", (key,))

    def _unmelded(self, span, cards: ir.Expr, test: ir.Expr, key: ir.Expr) -> ir.Expr | None:
        """unmelded(cards, "condition", "property"): the test is held as a call of the
        named condition on each group (ir.MELD_GROUP), so that what reads or calls
        conditions (the checks' watchers, lint, the graph, RS210) sees the call."""
        number = self._number_property(key, "unmelded()", "over the cards left")
        params = self.names.conditions.get(test.value) if isinstance(test, ir.Const) else None
        if params is None or len(params) != 1 or params[0][1] != "cards":
            named = test.value if isinstance(test, ir.Const) and params is None else None
            if named in self.names.refused:
                return None  # a condition of that name was refused, and said so (RS202)
            fits = [n for n, p in self.names.conditions.items() if [t for _, t in p] == ["cards"]]
            near = did_you_mean(named, fits) if named is not None else ""
            # a name the spec gives something else (a zone `meld`) is no name for the
            # condition: the hint's example must not be that name
            taken = self.names.all_names.get(named)
            example = "{params: {g: cards}, when: size(g) >= 3 and ...}"
            hint = (
                f"'{named}' is a {taken}, not a condition: give the condition a name of "
                f"its own, conditions: {{is_meld: {example}}}"
                if taken
                else f"conditions: {{meld: {example}}}"
            )
            self._error(
                "RS204",
                "unmelded() takes, in quotes, the name of a condition of one cards "
                "parameter that says whether a group of cards is a meld",
                test.span,
                near or hint,
            )
            return None
        if self.names.results.get(test.value, "bool") != "bool":
            self._error(
                "RS204",
                f"unmelded() needs a condition ('when:'); '{test.value}' is a named value",
                test.span,
            )
            return None
        if not number:
            return None
        group = ir.Local(test.span, "cards", ir.MELD_GROUP)
        melds = ir.ConditionCall(test.span, "bool", test.value, (group,))
        return ir.Call(span, "cards", "unmelded", (cards, melds, key))

    def _summing(self, span, cards: ir.Expr, key: ir.Expr, total: ir.Expr) -> ir.Expr | None:
        """summing(cards, "property", n): the property must be a number."""
        if not self._number_property(key, "summing()", "of each set"):
            return None
        return ir.Call(span, "cardsets", "summing", (cards, key, total))

    def _number_property(self, key: ir.Expr, where: str, over: str) -> bool:
        """Whether the quoted name names a number property of the cards, which `where`
        adds up `over` something (RS204 where it names another kind)."""
        held = self.property_type(key, where)
        if held is not None and held != "int":
            self._error(
                "RS204",
                f"{where} adds up a number property {over}; '{key.value}' is not a number",
                key.span,
            )
        return held == "int"

    def property_type(self, key: ir.Expr, where: str) -> str | None:
        """The type of the card property a quoted name names, or None (said why)."""
        props = self.names.props
        if not isinstance(key, ir.Const):
            self._error(
                "RS204",
                f"{where} takes a property name in quotes, not a value computed in play",
                key.span,
            )
            return None
        if props.get(key.value) == FAILED:
            return None  # its derivation was refused, and said so
        if key.value not in props:
            self._error(
                "RS201",
                f"unknown card property {key.value!r}",
                key.span,
                did_you_mean(key.value, props)
                or (
                    f"the deck's card properties: {', '.join(sorted(props))}"
                    if props
                    else "the deck's cards declare no properties"
                ),
            )
            return None
        return props[key.value]

    def _attr(self, t, span, scope) -> ir.Expr | None:
        """`cards.name` (or `kind.name`), the readable form of prop(cards, "name")."""
        target, name = t.children
        cards = self._expr(target, scope)
        if not self._check(cards, "cards|kind", f"the left of '.{name}'"):
            return None
        return self._prop(span, cards, ir.Const(self._span(name), "str", str(name)))

    def _if_expr(self, t, span, scope) -> ir.Expr | None:
        cond, then, orelse = (self._expr(c, scope) for c in t.children)
        ok = self._check(cond, "bool", "an if expression's condition")
        if then is None or orelse is None or not ok:
            return None
        common = _common(then.type, orelse.type)
        if common is None:
            self._error(
                "RS204",
                f"the two values of an if expression must have one type, got "
                f"{then.type} and {orelse.type}",
                orelse.span,
            )
            return None
        return ir.IfExpr(span, common, cond, then, orelse)

    def _aggregate(self, t, span, scope) -> ir.Expr | None:
        func, body, var, items, *where = t.children
        func, var = str(func), str(var)
        if func not in AGGREGATES:
            self._error(
                "RS201",
                f"unknown aggregate '{func}'",
                span,
                did_you_mean(func, AGGREGATES) or f"one of {', '.join(AGGREGATES)}",
            )
            return None
        item_node = self._items(items, scope)
        if not self._check(
            item_node, "players|cards|ints|kinds|cardsets|zones", f"the items of {func}()"
        ):
            return None
        if item_node.type == "zones" and AGGREGATES[func][1] == "items":
            self._error(
                "RS204",
                f"{func}() over a family's zones would give a set of zones, which is no "
                "value of the language",
                span,
                "over zones, write any, all, sum, max, min, count or union; or go over the "
                "indexes: filter(size(row(i)) < 3 for i in range(3))",
            )
            return None
        if self._bad_binding(var, span, scope):
            return None
        inner = dict(scope)
        # one card (a set of one), one player, number or kind, or one set of cards
        inner[var] = "cards" if accepts("cards", item_node.type) else ITEM_TYPES[item_node.type]
        where_node = self._expr(where[0], inner) if where else None
        ranked = body.data == "ranking" and func in RANKED
        body_node = self._ranked(body, inner, func) if ranked else self._expr(body, inner)
        want, result, _ = AGGREGATES[func]
        if ranked:
            ok = body_node is not None  # its parts were checked
        else:
            ok = self._check(body_node, want, f"the body of {func}()")
        if where and not self._check(where_node, "bool", f"the condition of {func}()"):
            return None
        if not ok:
            return None
        if result == "items":
            result = _SETS[item_node.type]
        return ir.Aggregate(span, result, func, body_node, var, item_node, where_node)

    def _ranked(self, t, scope, func: str) -> ir.Ranking | None:
        """`(a, b, ...)`, the body of argmax, argmin or sort: numbers, compared in turn."""
        parts = [self._expr(c, scope) for c in t.children]
        what = f"part {{}} of the ranking in {func}()"
        if not all([self._check(x, "int", what.format(i + 1)) for i, x in enumerate(parts)]):
            return None
        return ir.Ranking(self._span(t), "ranking", tuple(parts))

    def _ranking(self, t, span, scope) -> None:
        """`(a, b)` anywhere but the body of argmax, argmin or sort: no value."""
        self._error(
            "RS204",
            "(a, b, ...) is a ranking, written only as the body of argmax, argmin or sort",
            span,
            "argmax((score(p), size(hand(p))) for p in players): the highest score, "
            "ties to the most cards",
        )

    # --- statements ---------------------------------------------------------------

    def _block(self, t, scope) -> tuple[ir.Stmt, ...]:
        out = []
        for child in t.children:
            if isinstance(child, lark.Tree):
                stmt = self._stmt(child, scope)
                if stmt is not None:
                    out.append(stmt)
        return tuple(out)

    def _inner(self, t, scope):
        return self._block(t, dict(scope))

    def _stmt(self, t, scope) -> ir.Stmt | None:
        # one method per kind of statement the grammar has (_STATEMENTS, below the class)
        return _STATEMENTS[t.data](self, t, self._span(t), scope)

    def _let(self, t, span, scope) -> ir.Stmt | None:
        name, value = str(t.children[0]), t.children[1]
        node = self._value(value, scope)
        if self._bad_binding(name, span, scope) or node is None:
            scope.setdefault(name, FAILED)  # reported once: its uses say no more
            return None
        scope[name] = node.type
        if node.type in ("goal", "window"):  # compiled for one named goal or window
            self._error(
                "RS204",
                f"a {node.type} cannot be held in a local: name it where it is used",
                node.span,
            )
        return ir.Let(span, name, node)

    def _if(self, t, span, scope) -> ir.Stmt | None:
        cond = self._expr(t.children[0], scope)
        then = self._inner(t.children[1], scope)
        rest = t.children[2] if len(t.children) > 2 else None
        if rest is None:
            orelse = ()
        elif rest.data == "else_if":
            orelse = (self._stmt(rest.children[0], dict(scope)),)
            orelse = tuple(s for s in orelse if s is not None)
        else:
            orelse = self._inner(rest, scope)
        return (
            ir.If(span, cond, then, orelse)
            if self._check(cond, "bool", "an if's condition")
            else None
        )

    def _items(self, t, scope) -> ir.Expr | None:
        """A for loop's or a choice's items: a family of zones by its name (`row`, or a
        seat's own `field(p)`) gives its zones; anything else, its value."""
        name = str(t.children[0]) if t.data in ("name", "call") else None
        if name not in self.names.families or name not in self.names.zones:
            return self._expr(t, scope)
        owned = self._owned_name(name)
        given = sum(1 for a in t.children[1:] if a is not None) if t.data == "call" else 0
        if given == 1 + owned:  # one zone of the family, `row(i)`: its cards
            return self._expr(t, scope)
        span, args = self._span(t), self._args(t, scope)
        if len(args) != owned:
            whose = "a team's own" if name in self.names.per_team else "a player's own"
            written = f"{name}(p), {whose}" if owned else f"{name}, without arguments"
            self._error(
                "RS203",
                f"the zones of family '{name}' to go over are written {written}; "
                f"got {len(args)} argument{'s' * (len(args) != 1)}",
                span,
            )
            return None
        if owned and not self._check(args[0], "player", f"owner of zone family '{name}'"):
            return None
        return ir.Zones(span, "zones", name, args[0] if owned else None)

    def _for(self, t, span, scope) -> ir.Stmt | None:
        var, items = str(t.children[0]), self._items(t.children[1], scope)
        ok = self._check(items, "players|ints|kinds|cardsets|cards|zones", "a for loop's items")
        inner = dict(scope)
        if not ok:  # refused, and said so: the variable's uses say no more
            inner[var] = FAILED
        elif accepts("cards", items.type):  # each card of a set of cards: a set of one
            inner[var] = "cards"
        else:
            inner[var] = ITEM_TYPES[items.type]
        body = self._block(t.children[2], inner)
        if self._bad_binding(var, span, scope) or not ok:
            return None
        return ir.For(span, var, items, body)

    def _while(self, t, span, scope) -> ir.Stmt | None:
        cond = self._expr(t.children[0], scope)
        body = self._inner(t.children[1], scope)
        return (
            ir.While(span, cond, body) if self._check(cond, "bool", "a while's condition") else None
        )

    def _asked(self, t: lark.Tree) -> tuple[lark.Tree, str]:
        """A choice's tree without its prompt (`choose(p, "which card?")`), and the
        prompt ("" without one; an empty one is RS104, as an empty `prompt:` is)."""
        player, prompt, *rest = t.children
        said = str(prompt.children[0])[1:-1] if prompt is not None else ""
        if prompt is not None and not said.strip():
            self._error("RS104", "a choice's prompt should be non-empty", self._span(prompt))
        return lark.Tree(t.data, [player, *rest], meta=t.meta), said

    def _choose_branch(self, t, span, scope) -> ir.Stmt | None:
        t, prompt = self._asked(t)
        player = self._expr(t.children[0], scope)
        branches, labels = [], set()
        for b in t.children[1:]:
            label = str(b.children[0])[1:-1]
            bspan = self._span(b)
            if label in labels:
                self._error("RS202", f"duplicate choice label '{label}'", bspan)
            labels.add(label)
            cond = self._expr(b.children[1], scope) if b.children[1] is not None else None
            if b.children[1] is not None:
                self._check(cond, "bool", "a choice's condition")
            branches.append(ir.Branch(bspan, label, cond, self._inner(b.children[2], scope)))
        if not self._check(player, "player", "the chooser"):
            return None
        return ir.ChooseBranch(span, player, tuple(branches), prompt)

    def _choose_card(self, t, span, scope) -> ir.Stmt | None:
        t, prompt = self._asked(t)
        player = self._expr(t.children[0], scope)
        var = str(t.children[1])
        source = self._items(t.children[2], scope)
        items = self._check(
            source, "players|cards|ints|kinds|cardsets|zones", "what to choose from"
        )
        inner = dict(scope)
        # a refused source was reported: the variable's uses say no more
        inner[var] = ITEM_TYPES.get(source.type, "cards") if items else FAILED
        *_, filtered, block = t.children  # the filter `if cond` is there or not: 4 or 5
        where = self._where(filtered if len(t.children) == 5 else None, inner)
        body = self._block(block, inner)
        ok = self._check(player, "player", "the chooser") & items
        if self._bad_binding(var, span, scope) or not ok or where is False:
            return None
        return ir.ChooseCard(span, player, var, source, body, where, prompt)

    def _where(self, tree, scope):
        """A choice's filter, `if cond` (None: none; False: refused)."""
        if tree is None:
            return None
        where = self._expr(tree, scope)
        return where if self._check(where, "bool", "a choice's filter") else False

    def _choose_number(self, t, span, scope) -> ir.Stmt | None:
        t, prompt = self._asked(t)
        player, var = self._expr(t.children[0], scope), str(t.children[1])
        low, high = self._expr(t.children[2], scope), self._expr(t.children[3], scope)
        *_, filtered, block = t.children  # the filter `if cond` is there or not: 5 or 6
        where = self._where(filtered if len(t.children) == 6 else None, dict(scope, **{var: "int"}))
        body = self._block(block, dict(scope, **{var: "int"}))
        ok = (
            self._check(player, "player", "the chooser")
            & self._check(low, "int", "the lowest number")
            & self._check(high, "int", "the highest number")
        )
        if self._bad_binding(var, span, scope) or not ok or where is False:
            return None
        return ir.ChooseNumber(span, player, var, low, high, body, where, prompt)

    def _choose_all(self, t, span, scope):
        """`simultaneously(players) p chooses c from cards [if cond] [by key] { … }`: p
        is bound in the cards, the filter, the key and the body; c in the filter, the key
        and the body."""
        t, prompt = self._asked(t)
        players, who, var = self._expr(t.children[0], scope), str(t.children[1]), str(t.children[2])
        inner = dict(scope, **{who: "player"})
        source = self._items(t.children[3], inner)  # a family's zones: told it picks cards
        inner[var] = "cards"
        *_, filtered, by, block = t.children  # the filter `if cond` is there or not: 6 or 7
        where = self._where(filtered if len(t.children) == 7 else None, inner)
        order = self._expr(by, inner) if by is not None else None
        body = self._block(block, inner)
        ok = self._check(players, "players", "who chooses") & self._check(
            source, "cards|cardsets", "what to choose from"
        )
        if order is not None:
            ok &= self._check(order, "int", "the order of the picks")
        if (
            self._bad_binding(who, span, scope)
            or self._bad_binding(var, span, dict(scope, **{who: "player"}))
            or not ok
            or where is False
        ):
            return None
        return ir.ChooseAll(
            span,
            ir.Local(span, "player", who),
            var,
            source,
            body,
            where,
            prompt=prompt,
            players=players,
            order=order,
        )

    def _value(self, t, scope):
        """A let's value: the one place besides move/set_current where chance may stand."""
        if isinstance(t, lark.Tree) and t.data == "call" and str(t.children[0]) == "random_player":
            return self._call(t, self._span(t), scope, chance_ok=True)
        return self._expr(t, scope)

    def _bad_binding(self, name, span, scope) -> bool:
        """A new local may not hide another name: one name, one meaning in a block."""
        n = self.names
        if scope.get(name, FAILED) != FAILED:
            self._error("RS202", f"'{name}' is already a local here; pick a new name", span)
            return True
        if kept(name, "local") and name not in n.all_names:
            self.notices.append(deprecated_name(name, "local", span))
            return False
        if name in RESERVED or name in n.all_names:
            self._error(
                "RS202",
                f"'{name}' is already a name of the spec or the language; "
                "a local needs a name of its own",
                span,
                reserved_hint(name) or self._declared_as(name),
            )
            return True
        return False

    def _declared_as(self, name: str) -> str:
        """What the spec declared a name as, for a hint ("" for a parameter or window)."""
        what = _DECLARED_AS.get(self.names.all_names.get(name, ""))
        return f"'{name}' is {what}" if what else ""

    def _owned_name(self, name: str) -> bool:
        """Is a zone or counter written with an owner (per player or per team)?"""
        return self.names.zones.get(name, self.names.counters.get(name, False))

    def _written(self, name: str) -> str:
        return as_written(name, self._owned_name(name), name in self.names.families)

    def _family_form(self, name: str) -> str:
        """What a family of zones or counters is, and how to write one of them."""
        count, owned = self.names.families[name], self._owned_name(name)
        what = "counter" if name in self.names.counters else "zone"
        each = (" for each team" if name in self.names.per_team else " for each player") * owned
        index = f"i from 0 to {count - 1}"
        if name in self.names.family_by:
            prop, values = self.names.family_by[name]
            index = f"i a value of '{prop}' ({', '.join(values)}) or a place from 0 to {count - 1}"
        return f"{what} '{name}' is a family of {count} {what}s{each}: write {self._written(name)}, {index}"

    def _into_zone(self, name: str) -> str:
        """RS207's hint for a zone assigned to."""
        zone = self._written(name)
        return f"cards go into a zone with move: move(cards, {zone}), after move({zone}, ...) to empty it"

    def _assign_hint(self, name: str, target: ir.Expr, node: ir.Expr) -> str:
        """How a value of another type than the target's is assigned: a conversion, a
        kind quoted, or, to a local, a first value of the right type."""
        hint = _CONVERSIONS.get((node.type, target.type), "")
        if target.type == "kind":
            hint = self._quoted_kind(node) or hint
        if isinstance(target, ir.Local):  # a let's first value fixed its type
            first = (
                f"'{name}' was let as {_wanted(target.type)}: let it first as {_wanted(node.type)}"
            )
            hint = f"{first}, or {hint}" if hint else first
        return hint

    def _assign(self, t, span, scope):
        name, owner, op, value = t.children
        name, op = str(name), str(op)
        node = self._expr(value, scope)
        if owner is not None:
            written = lark.Tree("call", [t.children[0], *owner.children], meta=t.meta)
            target = self._call(written, span, scope)
            if target is not None and not isinstance(target, (ir.Counter, ir.Memory)):
                self._error(
                    "RS207",
                    f"cannot assign to {name}(...): only counters, remembered "
                    "cards and locals can be assigned",
                    span,
                    self._into_zone(name) if name in self.names.zones else "",
                )
                return None
        elif name in scope or name in self.names.counters or name in self.names.memories:
            target = self._name(name, span, scope)
        elif name in self.names.refused:
            return None  # a second declaration of the name was refused, and said so (RS202)
        elif name in self.names.params:
            self._error(
                "RS207",
                f"parameter '{name}' is a constant; use a counter for a value that changes",
                span,
            )
            return None
        elif name in self.names.zones:
            self._error("RS207", f"cannot assign to zone '{name}'", span, self._into_zone(name))
            return None
        # a Scopa designer's `current = next(current)` was told "unknown counter or
        # local 'current' (did you mean 'current'?)"
        elif name in CONSTANTS:
            self._error(
                "RS207",
                f"'{name}' is a constant of the language and cannot be assigned",
                span,
                _CONSTANT_CHANGES.get(name, "use a counter for a value of your own that changes"),
            )
            return None
        elif name in self.names.kinds:
            self._error(
                "RS207",
                f"'{name}' is a card type or tag, not a counter",
                span,
                "a type or suit that changes is held by a counter: counters: {trump: "
                f"{{initial: no_kind}}}}, then trump = {name}",
            )
            return None
        else:
            self._unknown(name, span, scope, "counter or local")
            return None
        if target is None or node is None:
            return None
        if op != "=" and target.type != "int":
            self._error("RS204", f"'{op}' needs a number, '{name}' is {target.type}", span)
            return None
        if not accepts(target.type, node.type):
            hint = self._assign_hint(name, target, node)
            self._error(
                "RS204", f"cannot assign {node.type} to '{name}' ({target.type})", node.span, hint
            )
            return None
        return ir.Assign(span, target, op, node)

    def _do(self, t, span, scope):
        name = str(t.children[0])
        if name in self.names.procedures:
            return self._perform(t, span, scope)
        if name not in PROCEDURES:
            if name in FUNCTIONS or name in self.names.conditions:
                self._error("RS205", f"'{name}' is a value, not a statement", span)
            else:
                self._error(
                    "RS201",
                    f"unknown statement '{name}'",
                    span,
                    did_you_mean(name, set(PROCEDURES) | set(self.names.procedures))
                    or "see docs/language.md",
                )
            return None
        if name == "react" and "__action__" not in scope and "__procedure__" not in scope:
            self._error(
                "RS208",
                "react() opens a window against an action or an answer, so it "
                "may only stand in an action's or a reaction's effect, or in a procedure "
                "they call",
                span,
            )
            return None
        if name == "end_turn" and "__round__" in scope:
            self._error(
                "RS209",
                "end_turn() would cut the change of rounds short, so it may "
                "not stand in a round's setup, scoring, end conditions or match ends",
                span,
            )
            return None
        params, _ = PROCEDURES[name]
        raw = [a for a in t.children[1:] if a is not None]
        if name == "refill" and not self._refills(raw, span, scope):
            return None
        if name == "react" and len(raw) == 2:  # react(players, window): some reactions
            params = (*params, "window")
            if not self._window_named(raw[1]):
                return None
        args = []
        for i, a in enumerate(raw):
            chance = (
                i == 0
                and isinstance(a, lark.Tree)
                and a.data == "call"
                and (
                    (name == "move" and str(a.children[0]) == "random")
                    or (name == "set_current" and str(a.children[0]) == "random_player")
                )
            )
            args.append(
                self._call(a, self._span(a), scope, chance_ok=True)
                if chance
                else self._expr(a, scope)
            )
        if not self._arguments(name, params, args, span):
            return None
        if name == "say":
            return self._say(span, args[0], raw[0], scope)
        return ir.Do(span, name, tuple(args))

    def _say(self, span, text: ir.Expr, raw, scope) -> ir.Do | None:
        """say(text): its arguments the text and each value the text names in braces,
        `{pot}`, `{score(p)}`, an expression of its own placed where it is written in
        the text; None when the text or a value is refused (said)."""
        if not isinstance(text, ir.Const):
            self._error(
                "RS204",
                "say() takes a quoted text, fixed by the rules: every seat is told it, so "
                "one worked out in play (a card's text) could tell a hidden card; a value "
                "is named in braces within it",
                text.span,
                hint='say("{current} takes the pot of {pot}")',
            )
            return None
        start = raw.meta.start_pos if isinstance(raw, lark.Tree) else raw.start_pos
        outer, values = self.text, []
        for m in ir.SAID.finditer(text.value):
            self.text = _Shifted(outer, start + 1 + m.start(1))  # past the quote
            try:
                tree = self._parse(m[1], "expr")
                node = None if tree is None else self._expr(tree, dict(scope))
            finally:
                self.text = outer
            if node is not None and node.type not in SAYABLE:
                self._error(
                    "RS204",
                    f"say() names {{{m[1]}}}, of type {node.type}: it tells a number, a "
                    "player or players, a kind or cards",
                    node.span,
                    "a true/false test is told by an if around the say"
                    if node.type == "bool"
                    else "",
                )
                node = None
            if node is None:
                return None
            values.append(node)
        return ir.Do(span, "say", (text, *values))

    def _window_named(self, arg) -> bool:
        """react()'s window is a window's name: a reaction's there is told what goes there
        (RS204), not 'did you mean' a window spelt alike."""
        n = self.names
        named = str(arg.children[0]) if isinstance(arg, lark.Tree) and arg.data == "name" else None
        if named not in n.reactions or named in n.windows:
            return True
        self._error(
            "RS204",
            f"'{named}' is a reaction, not a window: react(players, WINDOW) opens a window "
            "the spec names under windows:",
            self._span(arg),
            f"name a window that offers it ({', '.join(n.windows_in_order) or 'none declared'}),"
            " or write react(players) to offer every reaction that answers",
        )
        return False

    def _refills(self, raw, span, scope) -> bool:
        """refill(zone) names one zone that declares `refill_from` (RS204 otherwise)."""
        zone = self._expr(raw[0], scope) if len(raw) == 1 else None
        if isinstance(zone, ir.ZoneRef) and zone.name not in self.names.refilled:
            self._error(
                "RS204",
                f"zone '{zone.name}' has no refill_from: refill() refills only a zone that "
                "declares where its cards come from",
                span,
                f"give {zone.name} a refill_from, or shuffle cards into it with move() and shuffle()",
            )
            return False
        return True

    def _perform(self, t, span, scope):
        """A call of one of the spec's procedures: its arguments are checked like a
        built-in's; chance may not stand in them (RS206)."""
        name = str(t.children[0])
        window = self.names.reacting.get(name)
        if window is not None and "__action__" not in scope and "__procedure__" not in scope:
            holder, at = window
            where = f"react() at {at}" if holder == name else f"through '{holder}', react() at {at}"
            self._error(
                "RS208",
                f"procedure '{name}' opens a reaction window ({where}), which answers an action or an "
                "answer, so it may only be called from an action's or a reaction's effect",
                span,
                "call it from the effect of the action or reaction its window answers, or "
                "take react() out of the procedure",
            )
            return None
        args = self._args(t, scope)
        params = tuple(want for _, want in self.names.procedures[name])
        return (
            ir.ProcedureCall(span, name, tuple(args))
            if self._arguments(name, params, args, span)
            else None
        )

    def _arguments(self, name, params, args, span) -> bool | None:
        """Whether a call's arguments fit its parameters: None for the wrong number
        (RS203), else True or False after checking each one's type."""
        least = sum(1 for want in params if not want.endswith("?"))
        if not least <= len(args) <= len(params):
            takes = f"{least} or {len(params)}" if least < len(params) else f"{least}"
            self._error("RS203", f"{name}() takes {takes} argument(s), got {len(args)}", span)
            return None
        ok = True
        for i, (want, a) in enumerate(zip(params, args)):
            ok = self._check(a, want.rstrip("?"), f"argument {i + 1} of {name}()") and ok
        return ok


# Builder's method for each kind of expression and statement the grammar has.
_EXPRESSIONS = {
    "int_": Builder._int,
    "true": Builder._bool,
    "false": Builder._bool,
    "string": Builder._string,
    "name": Builder._name_expr,
    "call": Builder._call,
    "aggregate": Builder._aggregate,
    "attr": Builder._attr,
    "if_expr": Builder._if_expr,
    "ranking": Builder._ranking,
    "neg": Builder._neg,
    "not_": Builder._not,
    "and_": Builder._and_or,
    "or_": Builder._and_or,
    "arith": Builder._arith,
    "compare": Builder._compare,
    "in_": Builder._in,
    "not_in": Builder._in,
}
_STATEMENTS = {
    "let": Builder._let,
    "assign": Builder._assign,
    "if_": Builder._if,
    "for_": Builder._for,
    "while_": Builder._while,
    "choose_branch": Builder._choose_branch,
    "choose_card": Builder._choose_card,
    "choose_number": Builder._choose_number,
    "choose_all": Builder._choose_all,
    "call_stmt": Builder._do,
}


def _either(want: str) -> str:
    """A parameter type "a|b|c" as a message says it: "a, b or c"."""
    *rest, last = want.split("|")
    return f"{', '.join(rest)} or {last}" if rest else last


def _constant(e: ir.Expr) -> int | None:
    """The value of a number written out (`3`, `-1`), else None."""
    if isinstance(e, ir.Unary) and e.op == "-":
        inner = _constant(e.operand)
        return None if inner is None else -inner
    return e.value if isinstance(e, ir.Const) else None


# How a hint says what a spec declared a name as (Names.all_names), where it says it.
_DECLARED_AS = {
    "card": "a card type or tag of the deck",
    "tag": "a card type or tag of the deck",
    "zone": "a zone",
    "counter": "a counter",
    "remembered card": "a remembered card",
    "procedure": "a procedure",
    "condition": "a condition",
    "goal": "a goal set",
}

# Functions whose type (or whose checks) their arguments decide: name -> Builder method
_TYPED_BY_ARGUMENTS = {
    "prop": "_prop",
    "values": "_values",
    "unmelded": "_unmelded",
    "summing": "_summing",
}

# What values("name") gives, by the property's type.
_VALUES = {"kind": "kinds", "int": "ints"}

# What one item of a for loop's or a choice's items is, by the items' type.
ITEM_TYPES = {
    "players": "player",
    "player": "player",
    "ints": "int",
    "kinds": "kind",
    "cardsets": "cards",
    "zones": "zone",
}
# What a set of items is, by the items' type: what filter, argmax, argmin and sort give.
_SETS = {
    "cards": "cards",
    "zone": "cards",
    "players": "players",
    "player": "players",
    "ints": "ints",
    "kinds": "kinds",
    "cardsets": "cardsets",
}


def _common(a: str, b: str) -> str | None:
    """The type of a value that is either an a or a b, if they have one."""
    for wide in (a, b, "cards", "players"):
        if accepts(wide, a) and accepts(wide, b):
            return wide
    return None


def _mismatch(op: str, a: str, b: str) -> str:
    """Why '==' or '!=' does not compare an a with a b (neither is a number), and what
    was likely meant."""
    if a == b:
        return f"'{op}' does not compare {a} with {b}: count or test their items instead"
    msg = f"'{op}' compares two values of one type, not {a} with {b}"
    if {a, b} == {"cards", "kind"}:
        return msg + ": a card's kind is kind_of(card), or test it with count(card, KIND) > 0"
    if {a, b} == {"int", "kind"}:
        return msg + ": a kind is compared with a kind, written by its name"
    return msg


def _comparable(a: str, b: str) -> bool:
    """Whether == and != compare an a with a b. Numbers, card types and sets of cards to
    go through are not compared (a range and a filter's numbers would differ in kind,
    not in value): count or test their items instead."""
    if a in ("ints", "kinds", "cardsets"):
        return False
    return a == b or {a, b} <= {"player", "players"} or {a, b} <= {"int"}


def _is_nobody(node: ir.Expr) -> bool:
    return isinstance(node, ir.Local) and node.builtin and node.name == "nobody"


def _seat_needed(what: str) -> bool:
    """Does this place of an expression need a real player (a zone's owner, a chooser,
    a built-in's argument), so that `nobody` written there is a mistake? A comparison,
    a counter's value, a named condition's argument may be nobody."""
    if what.startswith(("owner of", "the chooser", "who chooses", "a for loop's", "an operand")):
        return True
    called = re.fullmatch(r"argument \d+ of (\w+)\(\)", what)
    return called is not None and (called[1] in FUNCTIONS or called[1] in PROCEDURES)
