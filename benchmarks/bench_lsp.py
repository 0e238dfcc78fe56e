"""How soon the language server answers an edit, in one run: the wall time from a
`didChange` of games/take_the_gold.yaml to the diagnostics it publishes, against the
front end's own check of the same text in process (`rulespec.lsp.analyse`, the floor:
what the server must do in any case). The server waits DEBOUNCE after a change before
it checks, so that a burst of keystrokes is checked once: that wait is part of its
figure, and printed. The edits alternate between a misspelt card name
(one RS201, with its fix) and the clean text, so each is checked afresh. Target: an
error shown within a second of the change (docs/editor.md).

    python benchmarks/bench_lsp.py [--edits 20]

The server runs in this process, in a thread of its own, over TCP on 127.0.0.1, driven
by pygls' client as an editor drives it; medians of the edits, each side taken in turn
(server, front end, server, ...), so that a busy machine weighs on both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import statistics
import threading
import time
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from rulespec.lsp import DEBOUNCE, analyse, make_server

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "games" / "take_the_gold.yaml"
TEXT = SPEC.read_text(encoding="utf-8")
BROKEN = TEXT.replace("count(hand(p), gold_coin) >=", "count(hand(p), gold_con) >=", 1)
TARGET = 1.0  # s from a change to its diagnostics


def _serve(port: int) -> None:
    with contextlib.suppress(SystemExit):  # `exit` ends the server as it ends a process
        make_server().start_tcp("127.0.0.1", port)


async def _measure(edits: int) -> tuple[list[float], list[float]]:
    """(the server's latencies, the front end's check times), one of each per edit."""
    client, published = LanguageClient("bench-lsp", "1"), []
    client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda ls, p: published.append(p))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    threading.Thread(target=_serve, args=(port,), daemon=True).start()
    for _ in range(500):  # until it listens
        try:
            await client.start_tcp("127.0.0.1", port)
            break
        except OSError:
            await asyncio.sleep(0.01)
    uri = from_fs_path(str(SPEC))
    await client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities()))
    client.initialized(T.InitializedParams())
    item = T.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=TEXT)
    client.text_document_did_open(T.DidOpenTextDocumentParams(item))
    while not published:
        await asyncio.sleep(0.001)
    served, checked = [], []
    for version in range(2, edits + 2):
        text = BROKEN if version % 2 == 0 else TEXT
        seen, start = len(published), time.perf_counter()
        client.text_document_did_change(
            T.DidChangeTextDocumentParams(
                T.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [T.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        while len(published) == seen:
            await asyncio.sleep(0.001)
        served.append(time.perf_counter() - start)
        start = time.perf_counter()
        analyse(str(SPEC), text)
        checked.append(time.perf_counter() - start)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return served, checked


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20, help="edits to time (default 20)")
    args = parser.parse_args(argv)
    served, checked = asyncio.run(asyncio.wait_for(_measure(args.edits), 300))
    server, floor = statistics.median(served), statistics.median(checked)
    print(f"edits of {SPEC.relative_to(ROOT)}, medians of {args.edits}, wall time")
    print(f"  change to diagnostics, through the server   {1000 * server:8.1f} ms")
    print(f"  the front end's check of the text          {1000 * floor:8.1f} ms")
    print(f"  of the server's, the wait for more typing   {1000 * DEBOUNCE:8.1f} ms (DEBOUNCE)")
    print(f"  server / front end                         {server / floor:8.2f}x")
    verdict = "met" if server <= TARGET else "NOT met"
    print(f"  target: within {TARGET:.0f} s of the change: {verdict}")


if __name__ == "__main__":
    main()
