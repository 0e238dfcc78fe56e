"""`rulespec lsp`: a Language Server for spec, variant and scenario files, over stdio.

Built on pygls (the `rulespec[lsp]` extra) and the front end: the loader, the schema
check and the compiler give the diagnostics (every RS problem, then the static lint
layer's findings), and `lang.symbols` gives the names each file defines and uses.
What it serves: diagnostics as you type (debounced), completion of names, built-ins and
YAML keys, hover, go to definition, references, rename (across a spec and the variants
beside it), a quick fix for each "did you mean", and the outline of a file.

Positions: LSP counts lines and characters from 0 and the front end from 1, and LSP's
characters are UTF-16 code units where the front end counts code points: a character
past U+FFFF (an emoji) is two of LSP's. Every position is converted where it crosses
(`_units`, `_chars`), against the text of its line.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from . import __version__
from .lang import builtins, ir, symbols
from .lang.diagnostics import Diagnostic, SpecError, silenced
from .lang.expressions import RESERVED, reserved_as
from .lang.loading import Document, load
from .lang.schema import load_schema, shape_problems
from .lang.symbols import Definition, Index, Use

DEBOUNCE = 0.15  # seconds of quiet typing before a changed file is checked again
_SEVERITY = {
    "error": T.DiagnosticSeverity.Error,
    "warning": T.DiagnosticSeverity.Warning,
    "info": T.DiagnosticSeverity.Information,
}
_WORD = re.compile(r"[A-Za-z0-9_]+")
_RULING = re.compile(r"^- ([A-Z]+-\d+) (.*)")
_LINT_CODE = re.compile(r"R[LS]\d{3}")


@dataclass
class Checked:
    """What the server knows of one file, as of its latest text."""

    path: str
    text: str
    doc: Document | None = None
    index: Index | None = None
    bases: list[Index] = field(default_factory=list)  # a variant's chain, nearest first
    diagnostics: list[Diagnostic] = field(default_factory=list)
    spec: ir.Spec | None = None  # the compiled spec, when the file compiles
    static: list = field(default_factory=list)  # its static lint findings

    def definition(self, name: str, space: str) -> Definition | None:
        for idx in (self.index, *self.bases):
            if idx is not None and (d := idx.defined(name, space)):
                return d
        return None


class _Protocol(LanguageServerProtocol):
    """pygls's, answering every request, as LSP asks: one whose params do not fit its
    method gets an Invalid Params error, and one after shutdown an Invalid Request
    (pygls left both unanswered, and the editor waiting)."""

    def structure_message(self, data: dict):
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "id" not in data or "method" not in data:  # not a request: nobody waits
                raise
            self._send_response(data["id"], error=error.to_response_error())
            return _ANSWERED

    def handle_message(self, message) -> None:
        if message is _ANSWERED:
            return
        method = getattr(message, "method", None)
        if self._shutdown and method not in (None, T.EXIT) and hasattr(message, "id"):
            refused = JsonRpcInvalidRequest(f"the server has shut down: {method} is not taken")
            self._send_response(message.id, error=refused.to_response_error())
            return
        super().handle_message(message)


_ANSWERED = object()  # a request structure_message answered with an error at once


class Server(LanguageServer):
    def __init__(self):
        super().__init__("rulespec", __version__, protocol_cls=_Protocol)
        self.files: dict[str, Checked] = {}  # uri -> what is known of it
        self._split: dict[str, tuple[str, list[str]]] = {}  # path -> a text and its lines
        # the editor's initializationOptions {"explore": {...}}: lint's exploration (layer
        # 2) on save, with these bounds (explore.Bounds' fields); off unless asked for
        self.explore: dict | None = None

    def text(self, uri: str) -> str:
        return self.workspace.get_text_document(uri).source

    def check(self, uri: str) -> Checked:
        """Load, index and compile the file's current text; publish its problems."""
        checked = self.files[uri] = analyse(to_fs_path(uri) or uri, self.text(uri))
        self.publish(uri, checked)
        return checked

    def publish(self, uri: str, checked: Checked) -> None:
        """The file's diagnostics that stand in it (a variant's base has its own), and,
        at its `extends:`, the base's errors that stop it from being checked."""
        own = [d for d in checked.diagnostics if _same_file(d.span.file, checked.path)]
        elsewhere = [
            d
            for d in checked.diagnostics
            if d.severity == "error" and not _same_file(d.span.file, checked.path)
        ]
        if elsewhere and checked.doc is not None:
            first, more = elsewhere[0], len(elsewhere) - 1
            others = f" (and {more} more)" if more else ""
            own.append(
                Diagnostic(
                    first.code,
                    f"the spec this extends has errors{others}, the first at {first.span}: "
                    f"{first.message}",
                    checked.doc.key_span(("extends",)),
                )
            )
        lines = checked.text.splitlines()
        self.text_document_publish_diagnostics(
            T.PublishDiagnosticsParams(uri=uri, diagnostics=[lsp_diagnostic(d, lines) for d in own])
        )

    def checked(self, uri: str) -> Checked:
        known = self.files.get(uri)
        if known is None or known.text != self.text(uri):
            known = self.check(uri)
        return known

    def line_of(self, path: str, line: int) -> str:
        """Line `line` (from 1) of a file as the editor has it, else as the disk has it;
        its lines split once for the text (a request converts many places of a file)."""
        text = self.file_text(path) or ""
        split = self._split.get(path)
        if split is None or split[0] != text:
            split = self._split[path] = (text, text.split("\n"))
        lines = split[1]
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def file_text(self, path: str) -> str | None:
        """A file's text as the editor has it, else as the disk has it."""
        uri = _uri(path)
        if uri in self.workspace.text_documents:
            return self.text(uri)
        try:
            return Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None


def _uri(path: str) -> str:
    """A file's address as the editor has it: a base a variant names as
    `../../spec.yaml` is the file the editor opened, not a path through `..`."""
    return from_fs_path(os.path.normpath(path))


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except (OSError, ValueError):
        return a == b


# --- what a file holds -------------------------------------------------------------


def analyse(path: str, text: str) -> Checked:
    """The file's index and every diagnostic the front end and static lint give."""
    checked = indexed(path, text)
    doc = checked.doc
    if doc is None:
        return checked
    data = doc.data if isinstance(doc.data, dict) else {}
    if "spec" in data and "rulespec" not in data:  # a rules scenario
        checked.diagnostics = shape_problems(
            doc, load_schema("scenario"), code="RS501", unknown_code="RS501", name="the scenario"
        )
    else:
        checked.diagnostics = _spec_problems(checked)
    return checked


def indexed(path: str, text: str) -> Checked:
    """The file loaded and its names indexed, a variant's with its bases' (nothing
    compiled); a file that does not load has only its diagnostics."""
    checked = Checked(path, text)
    try:
        checked.doc = doc = load(path, text)
    except SpecError as exc:
        checked.diagnostics = exc.diagnostics
        return checked
    checked.bases = _bases(doc)
    known = {"name": set(), "rule": set()}
    for base in checked.bases:
        for d in base.definitions:
            known[d.space].add(d.name)
    checked.index = symbols.index(doc, known)
    return checked


def _spec_problems(checked: Checked) -> list[Diagnostic]:
    """The file's spec compiled (kept in `checked`, with its static findings) and its
    problems: the compiler's, or its notices and the static lint layer's findings."""
    from .analysis.lint import static
    from .lang.compiler import compile_document
    from .lang.variants import resolve

    try:
        checked.spec = compile_document(resolve(checked.doc))
    except SpecError as exc:
        return exc.diagnostics
    checked.static = static(checked.spec)
    return list(checked.spec.notices) + _diagnostics(checked, checked.static)


def _diagnostics(checked: Checked, findings) -> list[Diagnostic]:
    """Lint findings as diagnostics, but those the file silences."""
    lines = checked.doc.lines
    return [
        Diagnostic(f.code, f.message, f.span, f.severity, f.hint)
        for f in findings
        if not silenced(f, lines)
    ]


def _bases(doc: Document) -> list[Index]:
    """The indexes of the files a variant extends, nearest first (none for a spec)."""
    out, seen = [], set()
    while isinstance(doc.data, dict) and isinstance(doc.data.get("extends"), str):
        base = Path(doc.file).parent / doc.data["extends"]
        try:
            key = base.resolve()
            if key in seen:
                break
            seen.add(key)
            doc = load(base)
        except (SpecError, OSError, ValueError):
            break
        out.append(symbols.index(doc))
    return out


def lsp_diagnostic(d: Diagnostic, lines: list[str]) -> T.Diagnostic:
    message = d.message + (f" ({d.hint})" if d.hint else "")
    return T.Diagnostic(
        range=_word_range(d.span.line, d.span.col, lines),
        message=message,
        severity=_SEVERITY.get(d.severity, T.DiagnosticSeverity.Error),
        code=d.code,
        source="rulespec",
        data={"suggestion": d.suggestion} if d.suggestion else None,
    )


def _word_range(line: int, col: int, lines: list[str]) -> T.Range:
    """The name (or else the character) at a 1-based place."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    m = _WORD.match(text, col - 1)
    end = max(m.end() if m else min(col, len(text)), col - 1)
    return T.Range(
        T.Position(line - 1, _units(text, col - 1)), T.Position(line - 1, _units(text, end))
    )


def _units(line: str, chars: int) -> int:
    """LSP's column (UTF-16 code units) of the place `chars` characters into line."""
    head = line[:chars]
    return chars if head.isascii() else chars + sum(ord(c) > 0xFFFF for c in head)


def _chars(line: str, units: int) -> int:
    """The characters of line before LSP's column `units` (past its end, as many more)."""
    if line.isascii():
        return units
    seen = 0
    for i, c in enumerate(line):
        if seen >= units:
            return i
        seen += 2 if ord(c) > 0xFFFF else 1
    return len(line) + max(units - seen, 0)


def _range(ls: Server, place: symbols.Place) -> T.Range:
    """A name's place as LSP's range, in the columns of its file as the editor has it."""
    text = ls.line_of(place.file, place.line)
    start = place.col - 1
    return T.Range(
        T.Position(place.line - 1, _units(text, start)),
        T.Position(place.line - 1, _units(text, start + place.length)),
    )


def _location(ls: Server, place: symbols.Place) -> T.Location:
    return T.Location(uri=_uri(place.file), range=_range(ls, place))


# --- the server's features -----------------------------------------------------------


def _did_open(ls: Server, params: T.DidOpenTextDocumentParams):
    ls.check(params.text_document.uri)


async def _did_change(ls: Server, params: T.DidChangeTextDocumentParams):
    uri, version = params.text_document.uri, params.text_document.version
    await asyncio.sleep(DEBOUNCE)
    if ls.workspace.get_text_document(uri).version == version:  # no newer change
        ls.check(uri)


def _initialize(ls: Server, params: T.InitializeParams):
    options = params.initialization_options
    explore = options.get("explore") if isinstance(options, dict) else None
    ls.explore = explore if isinstance(explore, dict) else {} if explore is True else None


async def _did_save(ls: Server, params: T.DidSaveTextDocumentParams):
    uri = params.text_document.uri
    checked = ls.check(uri)
    if ls.explore is None or checked.spec is None:
        return  # exploration is for a spec that compiles
    found, gone = await asyncio.to_thread(_explored, checked, ls.explore)
    if ls.files.get(uri) is checked:  # no newer text meanwhile
        kept = [d for d in checked.diagnostics if (d.code, d.message, d.span) not in gone]
        checked.diagnostics = kept + found
        ls.publish(uri, checked)


def _explored(checked: Checked, options: dict) -> tuple[list[Diagnostic], set]:
    """Lint's layer 2 on the file's spec, within the bounds the editor gave: the
    findings it adds to the static ones (a bound it stops at is a note), and the
    static ones it withdraws, as (code, message, span)."""
    from .analysis import explore

    fields = {k: v for k, v in options.items() if k in explore.Bounds.__dataclass_fields__}
    spec = checked.spec
    try:
        bounds = explore.Bounds(**{"timeout": 30.0, "max_states": 20_000, **fields})
        report = explore.explore(spec, bounds)
    except (explore.Timeout, explore.OutOfMemory, TypeError, ValueError) as exc:
        span = checked.doc.span(())
        return [Diagnostic("RL203", f"exploration gave no result: {exc}", span, "info")], set()
    found = explore.confirm(spec, checked.static, report)
    gone = {(f.code, f.message, f.span) for f in explore.withdrawn(checked.static, report)}
    return _diagnostics(checked, [f for f in found if f.layer == 2]), gone


def _did_close(ls: Server, params: T.DidCloseTextDocumentParams):
    ls.files.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(
        T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
    )


def _definition(ls: Server, params: T.DefinitionParams):
    checked, item = _item_at(ls, params)
    if item is None:
        return None
    found = item if isinstance(item, Definition) else checked.definition(item.name, item.space)
    return _location(ls, found.place) if found else None


def _references(ls: Server, params: T.ReferenceParams):
    checked, item = _item_at(ls, params)
    if item is None:
        return None
    places = _occurrences(ls, checked, item.name, item.space)
    if not params.context.include_declaration:
        target = checked.definition(item.name, item.space)
        places = [p for p in places if target is None or p != target.place]
    return [_location(ls, p) for p in places]


def _prepare_rename(ls: Server, params: T.PrepareRenameParams):
    _checked, item = _item_at(ls, params)
    return _range(ls, item.place) if item is not None else None


def _rename(ls: Server, params: T.RenameParams):
    checked, item = _item_at(ls, params)
    if item is None:
        return None
    new = params.new_name
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", new):
        raise JsonRpcInvalidParams(f"'{new}' is not a name: lower-case letters, digits, _")
    if new in RESERVED:
        raise JsonRpcInvalidParams(f"'{new}' is {reserved_as(new)}: choose another name")
    taken = any(d.name == new for idx in (checked.index, *checked.bases) for d in idx.definitions)
    if taken:
        raise JsonRpcInvalidParams(f"'{new}' is a name the spec has already: choose another")
    changes: dict[str, list[T.TextEdit]] = {}
    for place in _occurrences(ls, checked, item.name, item.space):
        changes.setdefault(_uri(place.file), []).append(
            T.TextEdit(range=_range(ls, place), new_text=new)
        )
    return T.WorkspaceEdit(changes=changes)


def _hover(ls: Server, params: T.HoverParams):
    checked = ls.checked(params.text_document.uri)
    text = _hover_text(ls, checked, params.position)
    if text is None:
        return None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))


def _completion(ls: Server, params: T.CompletionParams):
    checked = ls.checked(params.text_document.uri)
    lines = checked.text.split("\n")
    line = lines[params.position.line] if params.position.line < len(lines) else ""
    before = line[: _chars(line, params.position.character)]
    if re.fullmatch(r"\s*[a-z_]*", before):  # where a key goes
        keys = _schema_keys(
            checked, lines, params.position.line, len(before) - len(before.lstrip())
        )
        if keys:
            return T.CompletionList(is_incomplete=False, items=keys)
    return T.CompletionList(is_incomplete=False, items=_name_items(checked, before))


def _code_action(ls: Server, params: T.CodeActionParams):
    actions = _migrations(ls, params)
    for d in params.context.diagnostics:
        suggestion = (d.data or {}).get("suggestion") if isinstance(d.data, dict) else None
        if suggestion:
            fix = T.TextEdit(range=d.range, new_text=suggestion)
            actions.append(
                T.CodeAction(
                    title=f"Change to '{suggestion}'",
                    kind=T.CodeActionKind.QuickFix,
                    diagnostics=[d],
                    is_preferred=True,
                    edit=T.WorkspaceEdit(changes={params.text_document.uri: [fix]}),
                )
            )
    return actions


def _migrations(ls: Server, params: T.CodeActionParams) -> list[T.CodeAction]:
    """`rulespec migrate` as a code action, where a name Language v2 reserved is used."""
    reserved = [d for d in params.context.diagnostics if d.code == "RS212"]
    if not reserved:
        return []
    from .lang.migrate import migrate

    uri = params.text_document.uri
    text = ls.text(uri)
    try:
        done = migrate(to_fs_path(uri) or uri, text)
    except SpecError:
        return []  # other problems first: migrate offers only a spec that then validates
    if not done.renames:
        return []
    lines = text.split("\n")
    whole = T.Range(T.Position(0, 0), T.Position(len(lines) - 1, _units(lines[-1], len(lines[-1]))))
    renames = ", ".join(f"{old} to {new}" for old, new in done.renames.items())
    return [
        T.CodeAction(
            title=f"Rename {renames} (rulespec migrate)",
            kind=T.CodeActionKind.QuickFix,
            diagnostics=reserved,
            edit=T.WorkspaceEdit(changes={uri: [T.TextEdit(range=whole, new_text=done.new)]}),
        )
    ]


def _document_symbol(ls: Server, params: T.DocumentSymbolParams):
    checked = ls.checked(params.text_document.uri)
    if checked.index is None:
        return []
    return [
        T.DocumentSymbol(
            name=d.name,
            detail=d.kind,
            kind=_kind(d.kind)[0],
            range=_range(ls, d.place),
            selection_range=_range(ls, d.place),
        )
        for d in checked.index.definitions
        if _same_file(d.place.file, checked.path)
    ]


# each kind of name in the LSP's vocabularies: its outline symbol, its completion item
# and its semantic token type (the standard ones editors colour); a rule or step: event
S, C = T.SymbolKind, T.CompletionItemKind
_KINDS = {
    "card": (S.Class, C.Class, "class"),
    "tag": (S.Interface, C.Interface, "interface"),
    "parameter": (S.Constant, C.Constant, "enumMember"),
    "goal": (S.Variable, C.Text, "enumMember"),
    "zone": (S.Array, C.Field, "property"),
    "remembered card": (S.Variable, C.Text, "property"),
    "counter": (S.Variable, C.Variable, "variable"),
    "procedure": (S.Function, C.Function, "function"),
    "condition": (S.Function, C.Function, "function"),
    "step": (S.Event, C.Text, "event"),
}
_OTHER = (S.Variable, C.Text, "event")
_TOKEN_TYPES = [
    "class",
    "interface",
    "enumMember",
    "property",
    "variable",
    "function",
    "event",
    "keyword",
]


def _kind(kind: str) -> tuple:
    return _KINDS.get(kind, _OTHER)


_LEGEND = T.SemanticTokensLegend(token_types=_TOKEN_TYPES, token_modifiers=["defaultLibrary"])


def _semantic_tokens(ls: Server, params: T.SemanticTokensParams):
    """Each name of the file coloured by its kind; the built-ins and keywords too."""
    checked = ls.checked(params.text_document.uri)
    if checked.index is None:
        return T.SemanticTokens(data=[])
    found = {}  # (line, col) -> (length, type, modifiers)
    for item in (*checked.index.definitions, *checked.index.uses):
        target = item if isinstance(item, Definition) else checked.definition(item.name, item.space)
        kind = target.kind if target else ""
        if _same_file(item.place.file, checked.path):
            token = _TOKEN_TYPES.index(_kind(kind)[2])
            found[item.place.line, item.place.col] = (item.place.length, token, 0)
    built_in = {
        *builtins.FUNCTIONS,
        *builtins.PROCEDURES,
        *builtins.AGGREGATES,
        *builtins.CONSTANTS,
    }
    for path, offset, word in symbols.words(checked.doc):
        kind = "built-in" if word in built_in else "keyword" if word in builtins.KEYWORDS else None
        span = checked.doc.offset_span(path, offset)
        if kind and (span.line, span.col) not in found and _same_file(span.file, checked.path):
            token = _TOKEN_TYPES.index("function" if kind == "built-in" else "keyword")
            found[span.line, span.col] = (len(word), token, int(kind == "built-in"))
    lines = checked.text.split("\n")
    data, last_line, last_units = [], 1, 0
    for (line, col), (length, kind, modifiers) in sorted(found.items()):
        text = lines[line - 1] if line <= len(lines) else ""
        start, end = _units(text, col - 1), _units(text, col - 1 + length)
        data += [line - last_line, start - (last_units if line == last_line else 0)]
        data += [end - start, kind, modifiers]
        last_line, last_units = line, start
    return T.SemanticTokens(data=data)


FEATURES = (  # method, handler, options
    (T.INITIALIZE, _initialize, None),
    (T.TEXT_DOCUMENT_DID_OPEN, _did_open, None),
    (T.TEXT_DOCUMENT_DID_CHANGE, _did_change, None),
    (T.TEXT_DOCUMENT_DID_SAVE, _did_save, None),
    (T.TEXT_DOCUMENT_DID_CLOSE, _did_close, None),
    (T.TEXT_DOCUMENT_DEFINITION, _definition, None),
    (T.TEXT_DOCUMENT_REFERENCES, _references, None),
    (T.TEXT_DOCUMENT_PREPARE_RENAME, _prepare_rename, None),
    (T.TEXT_DOCUMENT_RENAME, _rename, None),
    (T.TEXT_DOCUMENT_HOVER, _hover, None),
    (
        T.TEXT_DOCUMENT_COMPLETION,
        _completion,
        T.CompletionOptions(trigger_characters=["(", ",", " ", "."]),
    ),
    (T.TEXT_DOCUMENT_CODE_ACTION, _code_action, None),
    (T.TEXT_DOCUMENT_DOCUMENT_SYMBOL, _document_symbol, None),
    (T.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, _semantic_tokens, _LEGEND),
)


def make_server() -> Server:
    server = Server()
    for method, handler, options in FEATURES:
        server.feature(method, options)(handler)
    return server


def _item_at(ls: Server, params) -> tuple[Checked, Definition | Use | None]:
    checked = ls.checked(params.text_document.uri)
    if checked.index is None:
        return checked, None
    pos = params.position
    lines = checked.text.split("\n")
    line = lines[pos.line] if pos.line < len(lines) else ""
    return checked, checked.index.at(pos.line + 1, _chars(line, pos.character) + 1)


def _occurrences(ls: Server, checked: Checked, name: str, space: str) -> list[symbols.Place]:
    """Every place the name stands, as defined and as used, in the file that defines it
    and in every variant beside that file's spec."""
    target = checked.definition(name, space)
    home = target.place.file if target else checked.path
    files = {str(Path(home).resolve()): home, str(Path(checked.path).resolve()): checked.path}
    spec = Path(home)
    for variant in sorted((spec.parent / "variants" / spec.stem).glob("*.yaml")):
        files.setdefault(str(variant.resolve()), str(variant))
    places: list[symbols.Place] = []
    for path in files.values():
        text = ls.file_text(path)
        if text is None:
            continue
        idx = (checked if _same_file(path, checked.path) else indexed(path, text)).index
        if idx is None:
            continue
        places += [d.place for d in idx.definitions if d.name == name and d.space == space]
        places += [u.place for u in idx.uses if u.name == name and u.space == space]
    return sorted(set(places), key=lambda p: (p.file, p.line, p.col))


# --- hover ---------------------------------------------------------------------------


def _hover_text(ls: Server, checked: Checked, pos: T.Position) -> str | None:
    lines = checked.text.split("\n")
    line = lines[pos.line] if pos.line < len(lines) else ""
    col = _chars(line, pos.character)
    item = checked.index.at(pos.line + 1, col + 1) if checked.index else None
    if item is not None:
        target = item if isinstance(item, Definition) else checked.definition(item.name, item.space)
        if target is not None:
            return _describe(ls, checked, target)
    label = _quoted_at(line, col)
    said = _branch_texts(checked).get(label) if label is not None else None
    if isinstance(said, str):
        return f'**"{label}"**: choice\n\n{said}'
    word = _word_at(line, col)
    if word is None:
        return None
    if _LINT_CODE.fullmatch(word):
        return _code_text(word)
    if re.fullmatch(r"[A-Z]+-\d+", word):
        return _ruling_text(checked.path, word)
    return _builtin_text(word)


def _quoted_at(line: str, character: int) -> str | None:
    """The text in double quotes the character stands in (a branch's label), or None."""
    for m in re.finditer(r'"([^"]*)"', line):
        if m.start() <= character < m.end():
            return m.group(1)
    return None


def _branch_texts(checked: Checked) -> dict:
    """The spec's `branches:`, label -> its words, for a label in a `choose` hovered:
    the compiled spec's, else (a file being typed) as the file writes them."""
    if checked.spec is not None:
        return dict(checked.spec.branch_texts)
    data = checked.doc.data if checked.doc is not None else None
    texts = data.get("branches") if isinstance(data, dict) else None
    return texts if isinstance(texts, dict) else {}


def _word_at(line: str, character: int) -> str | None:
    for m in re.finditer(r"[A-Za-z0-9_-]+", line):
        if m.start() <= character <= m.end():
            return m.group()
    return None


def _describe(ls: Server, checked: Checked, d: Definition) -> str:
    """A defined name: its kind, and what its entry says (a card's count and
    properties, a parameter's value), with a variant's override of a parameter."""
    head = f"**{d.name}**: {d.kind}"
    entry_doc = _doc_of(ls, d.place.file, checked)
    entry = symbols.value_at(entry_doc.data, d.path) if entry_doc else None
    body = ""
    if d.kind == "parameter":
        body = f"value: `{_short(entry)}`"
        override = _override(checked, d.name)
        if override is not None:
            body += f"\n\nin this variant: `{_short(override)}`"
        else:
            body += _variant_overrides(d)
    elif isinstance(entry, dict) and d.kind != "step":
        fields = {
            k: v for k, v in entry.items() if k not in ("effect", "description", "when", "if")
        }
        body = "\n".join(f"- {k}: `{_short(v)}`" for k, v in fields.items())
        if isinstance(entry.get("description"), str):
            body = entry["description"] + ("\n\n" + body if body else "")
    return head + ("\n\n" + body if body else "")


def _override(checked: Checked, name: str):
    data = checked.doc.data if checked.doc and isinstance(checked.doc.data, dict) else {}
    if "extends" in data and isinstance(data.get("parameters"), dict):
        return data["parameters"].get(name)
    return None


def _variant_overrides(d: Definition) -> str:
    spec = Path(d.place.file)
    found = []
    for variant in sorted((spec.parent / "variants" / spec.stem).glob("*.yaml")):
        try:
            data = load(variant).data
        except SpecError:
            continue
        params = data.get("parameters") if isinstance(data, dict) else None
        if isinstance(params, dict) and d.name in params:
            found.append(f"{variant.stem}: `{_short(params[d.name])}`")
    return "\n\nvariants: " + ", ".join(found) if found else ""


def _doc_of(ls: Server, path: str, checked: Checked) -> Document | None:
    if _same_file(path, checked.path):
        return checked.doc
    text = ls.file_text(path)
    try:
        return load(path, text) if text is not None else None
    except SpecError:
        return None


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 80 else text[:77] + "..."


def _code_text(code: str) -> str | None:
    from .analysis.lint import CODES as LINT
    from .lang.codes import CODES

    if code in LINT:
        return f"**{code}**: {LINT[code]} (docs/lint.md#{code.lower()})"
    if code in CODES:
        return f"**{code}**: {CODES[code]} (docs/language.md, the table of RS codes)"
    return None


def _ruling_text(path: str, ruling: str) -> str | None:
    """A ruling's text from the docs/rulings.md above the file."""
    for folder in Path(path).resolve().parents:
        rulings = folder / "docs" / "rulings.md"
        if rulings.is_file():
            found, out = False, []
            for line in rulings.read_text(encoding="utf-8").splitlines():
                m = _RULING.match(line)
                if m:
                    if found:
                        break
                    found = m.group(1) == ruling
                    if found:
                        out.append(m.group(2))
                elif found and line.startswith("  "):
                    out.append(line.strip())
                elif found:
                    break
            return f"**{ruling}** " + " ".join(out) if out else None
    return None


def _builtin_text(word: str) -> str | None:
    if word in builtins.FUNCTIONS:
        params, result, doc = builtins.FUNCTIONS[word]
        return f"`{word}({builtins.written(params)}) -> {result}`\n\n{doc}"
    if word in builtins.PROCEDURES:
        params, doc = builtins.PROCEDURES[word]
        return f"`{word}({', '.join(params)})`\n\n{doc}"
    if word in builtins.AGGREGATES:
        body, result, doc = builtins.AGGREGATES[word]
        return f"`{word}(BODY for X in ITEMS) -> {result}`, BODY a {body}\n\n{doc}"
    if word in builtins.CONSTANTS:
        kind, doc = builtins.CONSTANTS[word]
        return f"`{word}`: {kind}\n\n{doc}"
    return None


# --- completion ----------------------------------------------------------------------


def _name_items(checked: Checked, before: str) -> list[T.CompletionItem]:
    """The names of the spec (its own and its base's) and the built-ins; after the
    comma of a call that takes a card type (count, of, one), the card types first."""
    kind_wanted = re.search(r"\b(\w+)\([^(),]*(\([^()]*\))?[^(),]*,\s*$", before)
    wants_kind = bool(
        kind_wanted
        and len(params := builtins.FUNCTIONS.get(kind_wanted.group(1), ((),))[0]) > 1
        and params[1] == "kind"
    )
    items, seen = [], set()
    for idx in (checked.index, *checked.bases):
        for d in idx.definitions if idx else ():
            if d.space != "name" or d.name in seen:
                continue
            seen.add(d.name)
            first = wants_kind and d.kind in ("card", "tag")
            items.append(
                T.CompletionItem(
                    label=d.name,
                    kind=_kind(d.kind)[1],
                    detail=d.kind,
                    sort_text=("0" if first else "1") + d.name,
                )
            )
    for table, kind in (
        (builtins.FUNCTIONS, T.CompletionItemKind.Function),
        (builtins.PROCEDURES, T.CompletionItemKind.Function),
        (builtins.CONSTANTS, T.CompletionItemKind.Constant),
    ):
        for name in table:
            if name not in seen:
                seen.add(name)
                items.append(
                    T.CompletionItem(
                        label=name,
                        kind=kind,
                        detail="built-in",
                        documentation=_builtin_text(name),
                        sort_text="2" + name,
                    )
                )
    return items


def _schema_keys(checked: Checked, lines: list[str], row: int, indent: int) -> list:
    """The keys the schema allows in the mapping the cursor's line belongs to."""
    path, depth = [], indent
    for line in reversed(lines[:row]):
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        at = len(line) - len(stripped)
        if at < depth:
            m = re.match(r"(- )?([A-Za-z_][\w-]*)\s*:", stripped)
            if not m:
                return []
            # a list entry's first key is a sibling of the cursor's: the entry is its parent
            path.insert(0, 0 if m.group(1) else m.group(2))
            depth = at
        if depth == 0:
            break
    data = checked.doc.data if checked.doc else None
    kind = "variant" if isinstance(data, dict) and "extends" in data else "spec"
    if isinstance(data, dict) and "spec" in data and "rulespec" not in data:
        kind = "scenario"
    schema = load_schema(kind)
    node = _schema_at(schema, schema, path)
    if not node:
        return []
    props = node.get("properties", {})
    return [
        T.CompletionItem(
            label=key,
            kind=T.CompletionItemKind.Property,
            detail=kind + " key",
            documentation=sub.get("description") if isinstance(sub, dict) else None,
            insert_text=key + ": ",
        )
        for key, sub in props.items()
    ]


def _schema_at(root: dict, node: dict, path: list) -> dict | None:
    for key in path:
        node = _resolved(root, node)
        if node is None:
            return None
        if isinstance(key, int):
            node = node.get("items")
        elif key in node.get("properties", {}):
            node = node["properties"][key]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return None
    return _resolved(root, node)


def _resolved(root: dict, node) -> dict | None:
    """A schema node with its $ref followed, and its first object alternative taken."""
    for _ in range(16):
        if not isinstance(node, dict):
            return None
        if "$ref" in node:
            node = _pointer(root, node["$ref"])
            continue
        alternatives = node.get("anyOf") or node.get("oneOf")
        if alternatives and "properties" not in node:
            objects = [a for a in alternatives if isinstance(a, dict) and _is_object(root, a)]
            node = objects[0] if objects else None
            continue
        return node
    return None


def _is_object(root: dict, node: dict) -> bool:
    node = _pointer(root, node["$ref"]) if "$ref" in node else node
    return isinstance(node, dict) and (node.get("type") == "object" or "properties" in node)


def _pointer(root: dict, ref: str):
    if not ref.startswith("#/"):
        return None
    node = root
    for part in ref[2:].split("/"):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def serve() -> None:
    """Serve one editor over standard input and output until it exits, on copies of
    them: the server closes the streams it spoke on as it exits, and the command then
    flushes its own standard output (a closed one ended a clean exit with an error)."""
    with os.fdopen(os.dup(0), "rb") as given, os.fdopen(os.dup(1), "wb") as told:
        make_server().start_io(given, told)
