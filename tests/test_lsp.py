"""`rulespec lsp` driven as an editor drives it: a real server process, a real LSP
session over stdio (pygls' client), the bundled Take the Gold and its variants."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from rulespec.lsp import make_server

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "games" / "take_the_gold.yaml"
TEXT = SPEC.read_text(encoding="utf-8")
URI = from_fs_path(str(SPEC))
ADVANCED = ROOT / "games" / "variants" / "take_the_gold" / "advanced.yaml"
LONG_4 = ROOT / "games" / "variants" / "take_the_gold" / "long_4.yaml"


def where(text: str, needle: str, after: str = "", shift: int = 0) -> T.Position:
    """The position of `needle` (its first character, plus shift), found after `after`."""
    offset = text.index(needle, text.index(after) if after else 0) + shift
    line = text.count("\n", 0, offset)
    return T.Position(line, offset - (text.rfind("\n", 0, offset) + 1))


def session(script, options=None):
    """Run `script(client, published)` against a fresh server (initialized with these
    initializationOptions); published maps a uri to the list of diagnostic lists the
    server sent for it, in order. The server runs in this process, in a thread of its
    own, over TCP on 127.0.0.1: started as `rulespec lsp` it takes a second and a half to
    import its libraries (test_a_clean_shutdown_exits_0_and_says_nothing starts one so)."""

    async def run():
        client = LanguageClient("rulespec-tests", "1")
        published: dict[str, list] = {}

        @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(ls, params: T.PublishDiagnosticsParams):
            published.setdefault(params.uri, []).append(params.diagnostics)

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        threading.Thread(target=_serve_tcp, args=(port,), daemon=True).start()
        for _ in range(200):  # until it listens
            try:
                await client.start_tcp("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.01)
        try:
            await client.initialize_async(
                T.InitializeParams(
                    capabilities=T.ClientCapabilities(),
                    root_uri=from_fs_path(str(ROOT)),
                    initialization_options=options,
                )
            )
            client.initialized(T.InitializedParams())
            return await script(client, published)
        finally:
            await client.shutdown_async(None)
            client.exit(None)
            await client.stop()

    return asyncio.run(asyncio.wait_for(run(), 60))


def _serve_tcp(port: int) -> None:
    with contextlib.suppress(SystemExit):  # `exit` ends the server as it ends a process
        make_server().start_tcp("127.0.0.1", port)


def open_doc(client, path: Path, text: str | None = None, uri: str | None = None):
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(
            T.TextDocumentItem(
                uri=uri or from_fs_path(str(path)),
                language_id="yaml",
                version=1,
                text=path.read_text(encoding="utf-8") if text is None else text,
            )
        )
    )


async def wait_for(published, uri, count, timeout=10.0):
    """The `count`-th diagnostics the server published for uri."""
    deadline = time.monotonic() + timeout
    while len(published.get(uri, [])) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"no diagnostics #{count} for {uri}")
        await asyncio.sleep(0.01)
    return published[uri][count - 1]


BROKEN = TEXT.replace("when: count(hand(p), gold_coin) >=", "when: count(hand(p), gold_con) >=")


def test_a_broken_name_is_an_error_at_its_range_with_its_fix():
    """How soon it comes is measured by benchmarks/bench_lsp.py, not here."""

    async def script(client, published):
        open_doc(client, SPEC)
        clean = await wait_for(published, URI, 1)
        client.text_document_did_change(
            T.DidChangeTextDocumentParams(
                T.VersionedTextDocumentIdentifier(uri=URI, version=2),
                [T.TextDocumentContentChangeWholeDocument(text=BROKEN)],
            )
        )
        broken = await wait_for(published, URI, 2)
        fixes = await client.text_document_code_action_async(
            T.CodeActionParams(
                T.TextDocumentIdentifier(uri=URI),
                broken[0].range,
                T.CodeActionContext(diagnostics=broken),
            )
        )
        return clean, broken, fixes

    clean, broken, fixes = session(script)
    assert [d for d in clean if d.severity == T.DiagnosticSeverity.Error] == []
    errors = [d for d in broken if d.severity == T.DiagnosticSeverity.Error]
    assert [d.code for d in errors] == ["RS201"]
    start = where(BROKEN, "gold_con", "coin_win:")
    assert errors[0].range == T.Range(start, T.Position(start.line, start.character + 8))
    (fix,) = fixes
    assert list(fix.edit.changes[URI]) == [T.TextEdit(range=errors[0].range, new_text="gold_coin")]


def test_columns_are_utf16_units_past_an_emoji():
    """LSP counts UTF-16 code units, the front end characters: on a line with an emoji
    before the name the error was placed two units early, and its fix ate text."""
    text = BROKEN.replace(
        "when: count(hand(p), gold_con) >=",
        'when: 1 > 0 and "🪙🪙" == "🪙🪙" and count(hand(p), gold_con) >=',
    )

    async def script(client, published):
        open_doc(client, SPEC, text)
        broken = await wait_for(published, URI, 1)
        (error,) = [d for d in broken if d.severity == T.DiagnosticSeverity.Error]
        line = text.split("\n")[error.range.start.line]
        hand = len(line[: line.index("hand(")].encode("utf-16-le")) // 2  # its LSP column
        at = T.Position(error.range.start.line, hand + 1)
        hover = await client.text_document_hover_async(
            T.HoverParams(T.TextDocumentIdentifier(uri=URI), at)
        )
        return error, line, hover

    error, line, hover = session(script)
    units = line.encode("utf-16-le")  # two bytes a unit
    start, end = error.range.start.character, error.range.end.character
    assert units[2 * start : 2 * end].decode("utf-16-le") == "gold_con"
    assert hover is not None and hover.contents.value.startswith("**hand**")


def test_completion_after_a_card_count_offers_the_cards_first():
    text = TEXT.replace("when: count(hand(p), gold_coin) >=", "when: count(hand(p), ) >=")
    at = where(text, "count(hand(p), )", "coin_win:", len("count(hand(p), "))

    async def script(client, published):
        open_doc(client, SPEC, text)
        return await client.text_document_completion_async(
            T.CompletionParams(T.TextDocumentIdentifier(uri=URI), at)
        )

    items = session(script).items
    cards = {"gold_coin", "pirate", "two_pirates", "officer", "two_officers", "kraken"}
    assert cards <= {i.label for i in items}
    first = sorted(items, key=lambda i: i.sort_text or i.label)[: len(cards) + 2]
    assert cards <= {i.label for i in first}  # the card types, and the tag, lead


def test_completion_of_keys_comes_from_the_schema():
    text = TEXT.replace("  hand: {per_player: true", "  pile:\n    \n  hand: {per_player: true", 1)
    at = where(text, "  pile:\n    ", shift=len("  pile:\n    "))

    async def script(client, published):
        open_doc(client, SPEC, text)
        return await client.text_document_completion_async(
            T.CompletionParams(T.TextDocumentIdentifier(uri=URI), at)
        )

    labels = {i.label for i in session(script).items}
    assert {"visibility", "ordered", "per_player"} <= labels and "effect" not in labels


def test_hover_shows_a_parameter_and_a_variants_override():
    variant = LONG_4.read_text(encoding="utf-8")

    async def script(client, published):
        open_doc(client, SPEC)
        open_doc(client, LONG_4)
        in_spec = await client.text_document_hover_async(
            T.HoverParams(
                T.TextDocumentIdentifier(uri=URI),
                where(TEXT, "kraken_limit", "successful_krakens >="),
            )
        )
        in_variant = await client.text_document_hover_async(
            T.HoverParams(
                T.TextDocumentIdentifier(uri=from_fs_path(str(LONG_4))),
                where(variant, "kraken_limit"),
            )
        )
        return in_spec.contents.value, in_variant.contents.value

    in_spec, in_variant = session(script)
    assert "parameter" in in_spec and "value: `3`" in in_spec and "long_4: `4`" in in_spec
    assert "value: `3`" in in_variant and "in this variant: `4`" in in_variant


def test_hover_over_a_branchs_label_shows_the_words_branches_gives_it():
    text = TEXT + '\nbranches:\n  refuse: "Keep your coins: lose two random cards instead."\n'

    async def script(client, published):
        open_doc(client, SPEC, text)
        hover = await client.text_document_hover_async(
            T.HoverParams(T.TextDocumentIdentifier(uri=URI), where(text, '"refuse" {', shift=2))
        )
        return hover.contents.value

    assert session(script) == (
        '**"refuse"**: choice\n\nKeep your coins: lose two random cards instead.'
    )


def test_go_to_definition_from_an_actions_card_lands_on_the_card():
    async def script(client, published):
        open_doc(client, SPEC)
        return await client.text_document_definition_async(
            T.DefinitionParams(
                T.TextDocumentIdentifier(uri=URI),
                where(TEXT, "card: two_pirates", shift=len("card: ")),
            )
        )

    found = session(script)
    assert found.uri == URI
    assert found.range.start == where(TEXT, "two_pirates:", "cards:")


def test_rename_of_a_counter_edits_every_use_in_the_spec_and_its_variants():
    async def script(client, published):
        open_doc(client, SPEC)
        return await client.text_document_rename_async(
            T.RenameParams(
                T.TextDocumentIdentifier(uri=URI),
                where(TEXT, "win_target", "counters:"),
                "coin_target",
            )
        )

    def uses(text):  # comments are prose: a rename leaves them be
        return sum(line.split("#")[0].count("win_target") for line in text.split("\n"))

    edit = session(script)
    spec_edits = edit.changes[URI]
    assert len(spec_edits) == uses(TEXT) == 3 and all(
        e.new_text == "coin_target" for e in spec_edits
    )
    lines = TEXT.split("\n")
    assert all(
        lines[e.range.start.line][e.range.start.character : e.range.end.character] == "win_target"
        for e in spec_edits
    )
    advanced = ADVANCED.read_text(encoding="utf-8")
    assert len(edit.changes[from_fs_path(str(ADVANCED))]) == uses(advanced) == 1


REFUSED_NAMES = {
    "refill_size": "'refill_size' is a name the spec has already",
    "count": "'count' is ",
    "Bad Name": "'Bad Name' is not a name",
}


def test_a_rename_to_a_name_that_would_break_the_spec_is_refused():
    """Renames to a name taken (a duplicate key, RS005) or reserved (RS202) were made;
    a name that is no name was an internal error with a traceback."""

    async def script(client, published):
        open_doc(client, SPEC)
        refusals = {}
        for new in REFUSED_NAMES:
            try:
                await client.text_document_rename_async(
                    T.RenameParams(
                        T.TextDocumentIdentifier(uri=URI),
                        where(TEXT, "hand_limit", "parameters:"),
                        new,
                    )
                )
            except JsonRpcException as exc:
                refusals[new] = exc
        return refusals

    refusals = session(script)
    assert set(refusals) == set(REFUSED_NAMES)
    for new, said in REFUSED_NAMES.items():
        assert refusals[new].code == -32602 and said in str(refusals[new]), new


def test_a_variant_is_checked_against_its_base():
    bad = LONG_4.read_text(encoding="utf-8").replace("kraken_limit: 4", "kraken_limt: 4")
    uri = from_fs_path(str(LONG_4))

    async def script(client, published):
        open_doc(client, LONG_4, bad)
        return await wait_for(published, uri, 1)

    (error,) = session(script)
    assert error.code == "RS601" or error.code.startswith("RS6")
    assert error.data == {"suggestion": "kraken_limit"}
    assert error.range.start == where(bad, "kraken_limt")


def test_a_name_language_v2_reserved_is_renamed_by_a_code_action():
    spec = ROOT / "tests" / "valid-v1" / "range_counter.yaml"
    uri = from_fs_path(str(spec))

    async def script(client, published):
        open_doc(client, spec)
        warnings = [d for d in await wait_for(published, uri, 1) if d.code == "RS212"]
        actions = await client.text_document_code_action_async(
            T.CodeActionParams(
                T.TextDocumentIdentifier(uri=uri), warnings[0].range, T.CodeActionContext(warnings)
            )
        )
        return warnings, actions

    warnings, actions = session(script)
    (action,) = [a for a in actions if "rulespec migrate" in a.title]
    (edit,) = action.edit.changes[uri]
    from rulespec.lang.migrate import migrate

    assert warnings and edit.new_text == migrate(str(spec)).new != spec.read_text(encoding="utf-8")


def test_semantic_tokens_colour_each_name_by_its_kind():
    async def script(client, published):
        open_doc(client, SPEC)
        return await client.text_document_semantic_tokens_full_async(
            T.SemanticTokensParams(T.TextDocumentIdentifier(uri=URI))
        )

    data, tokens, line, col = session(script).data, {}, 0, 0
    for i in range(0, len(data), 5):  # decode the relative positions
        line, col = line + data[i], (col if data[i] == 0 else 0) + data[i + 1]
        tokens[line, col] = (data[i + 2], data[i + 3])
    lines = TEXT.split("\n")
    named = {(lines[ln][c : c + length], kind) for (ln, c), (length, kind) in tokens.items()}
    # class: a card; enumMember: a parameter; property: a zone; variable: a counter;
    # function: a built-in; event: a rule; keyword
    assert {("gold_coin", 0), ("hand_limit", 2), ("discard_pile", 3), ("win_target", 4)} <= named
    assert {("count", 5), ("pirate", 6), ("while", 7)} <= named


def test_reaction_windows_are_named_things_and_their_offers_name_reactions():
    spec = ROOT / "tests" / "valid" / "challenge_then_block.yaml"
    text, uri = spec.read_text(encoding="utf-8"), from_fs_path(str(spec))

    async def script(client, published):
        open_doc(client, spec)
        window = await client.text_document_definition_async(
            T.DefinitionParams(
                T.TextDocumentIdentifier(uri=uri), where(text, "challenges)", "tax:")
            )
        )
        uses = await client.text_document_references_async(
            T.ReferenceParams(
                text_document=T.TextDocumentIdentifier(uri=uri),
                position=where(text, "challenge_tax", "offers:"),
                context=T.ReferenceContext(include_declaration=True),
            )
        )
        return window, uses

    window, uses = session(script)
    assert window.range.start == where(text, "challenges:", "windows:")
    lines = text.split("\n")
    found = {lines[u.range.start.line].strip() for u in uses}
    assert any(line.startswith("offers:") for line in found)  # the window lists it
    assert any(line.startswith("challenge_tax:") for line in found)  # its entry


def test_hover_explains_a_code_a_comment_silences_and_a_ruling():
    text = TEXT.replace(
        "  refill_empty_hand:\n", "  refill_empty_hand:   # rulespec: ignore[RL107, RS212]\n", 1
    )

    async def script(client, published):
        open_doc(client, SPEC, text)
        return [
            (
                await client.text_document_hover_async(
                    T.HoverParams(T.TextDocumentIdentifier(uri=URI), where(text, word, after))
                )
            ).contents.value
            for word, after in (("RL107", ""), ("RS212", ""), ("TTG-6", "refill_empty_hand:"))
        ]

    lint, rs, ruling = session(script)
    assert lint.startswith("**RL107**: trigger cycle") and rs.startswith("**RS212**: a name")
    assert ruling.startswith("**TTG-6** ") and len(ruling) > 30


LOOPING = TEXT.replace(  # the refill draws into the discard pile: the hand stays empty
    "effect: move(top(draw_pile, refill_size), hand(p))",
    "effect: move(top(draw_pile, refill_size), discard_pile)",
)


@pytest.mark.parametrize("explore", [None, {"depth": 6, "max_states": 5000}])
def test_exploration_runs_on_save_when_the_editor_asks_for_it(explore):
    async def script(client, published):
        open_doc(client, SPEC, LOOPING)
        typed = await wait_for(published, URI, 1)
        client.text_document_did_save(T.DidSaveTextDocumentParams(T.TextDocumentIdentifier(URI)))
        saved = await wait_for(published, URI, 2)
        if explore:
            saved = await wait_for(published, URI, 3, timeout=30)
        return typed, saved

    typed, saved = session(script, {"explore": explore} if explore else None)
    static = {d.code for d in typed}
    assert "RL107" in static and not static & {"RL201", "RL202"}  # layer 1 only as you type
    found = {d.code for d in saved}
    assert found >= {"RL201", "RL202"} if explore else found == static


def _over_stdio(*messages: dict) -> tuple[subprocess.CompletedProcess, dict]:
    """`rulespec lsp` given these messages, then shutdown (id 0) and exit on its standard
    input: the finished process, and its responses by id."""
    messages += (
        {"jsonrpc": "2.0", "id": 0, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    )
    framed = b""
    for message in messages:
        body = json.dumps(message).encode()
        framed += b"Content-Length: %d\r\n\r\n" % len(body) + body
    done = subprocess.run(
        [sys.executable, "-m", "rulespec", "lsp"], input=framed, capture_output=True, timeout=60
    )
    bodies = [
        json.loads(b) for b in re.split(rb"Content-Length: \d+\r\n(?:.+\r\n)*\r\n", done.stdout)[1:]
    ]
    return done, {b["id"]: b for b in bodies if "id" in b}


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "initialized", "params": {}}


def test_a_clean_shutdown_exits_0_and_says_nothing():
    """The server closed standard output as it exited, and the command then failed to
    flush it: exit 1 and a traceback after every editor session."""
    done, answers = _over_stdio(INITIALIZE, INITIALIZED)
    assert (done.returncode, done.stderr) == (0, b"")
    assert answers[0]["result"] is None


def test_every_request_is_answered_even_a_malformed_one_or_one_after_shutdown():
    """pygls answered neither a request whose params do not fit its method nor one after
    shutdown, and the editor waited for ever; LSP asks for an error to each."""
    hover = {"jsonrpc": "2.0", "method": "textDocument/hover"}
    done, answers = _over_stdio(
        INITIALIZE,
        INITIALIZED,
        {**hover, "id": 2, "params": {"textDocument": {"uri": 5}, "position": "top"}},
        {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
        {
            **hover,
            "id": 4,
            "params": {
                "textDocument": {"uri": "file:///a.yaml"},
                "position": {"line": 0, "character": 0},
            },
        },
    )
    assert done.returncode == 0
    assert answers[2]["error"]["code"] == -32602  # Invalid Params
    assert answers[3]["result"] is None
    assert answers[4]["error"]["code"] == -32600  # Invalid Request: the server has shut down
    assert "shut down" in answers[4]["error"]["message"]


@pytest.mark.parametrize("text", ["rulespec", "hello world", "- a", "- - pirate"])
def test_a_file_of_one_word_or_a_bare_list_is_checked_not_crashed_on(text):
    """The indexer read the last key of a value with none (a new file's first word):
    IndexError, and every request on the file failed."""
    from rulespec.lsp import analyse

    checked = analyse(str(ROOT / "new.yaml"), text)
    assert [d.code for d in checked.diagnostics] == ["RS102"] and checked.index is not None


def test_a_variant_whose_base_has_errors_says_so_at_its_extends(tmp_path):
    """The base's errors stand in the base's file, so the variant showed none at all
    while rulespec validate failed on it."""
    base = tmp_path / "take_the_gold.yaml"
    base.write_text(BROKEN, encoding="utf-8")
    variant = tmp_path / "long.yaml"
    variant.write_text("rulespec: 1\nextends: take_the_gold.yaml\nname: Long\n", encoding="utf-8")
    uri = from_fs_path(str(variant))

    async def script(client, published):
        open_doc(client, variant)
        return await wait_for(published, uri, 1)

    (said,) = session(script)
    assert said.code == "RS201" and said.range.start == T.Position(1, 0)
    assert said.message.startswith(f"the spec this extends has errors, the first at {base}:")


def test_a_rename_from_a_variant_edits_the_base_as_the_editor_has_it():
    """The base's address went through `../..`, so the base open in the editor was not
    found: the rename read the file on disk, and edited the lines it had there."""
    moved = "# one\n# two\n# three\n" + TEXT  # unsaved: three lines more than on disk

    async def script(client, published):
        open_doc(client, SPEC, moved)
        open_doc(client, LONG_4)
        variant = LONG_4.read_text(encoding="utf-8")
        return await client.text_document_rename_async(
            T.RenameParams(
                T.TextDocumentIdentifier(uri=from_fs_path(str(LONG_4))),
                where(variant, "kraken_limit"),
                "kraken_cap",
            )
        )

    edit = session(script)
    lines = moved.split("\n")
    assert URI in edit.changes
    assert all(
        lines[e.range.start.line][e.range.start.character : e.range.end.character] == "kraken_limit"
        for e in edit.changes[URI]
    )


def test_a_text_over_the_size_bound_is_refused_as_a_file_would_be():
    """The bound held for files read, not for an editor's text: 12 MB were checked."""
    from rulespec.lsp import analyse

    checked = analyse(str(ROOT / "big.yaml"), "a: 1\n" * 250_000)
    assert [(d.code, d.message) for d in checked.diagnostics] == [
        ("RS002", "file is over 1000000 bytes, the most a spec may be")
    ]
