"""`rulespec serve`'s bounds (issue 24), against a real server on 127.0.0.1: a request
body is refused while it streams in; replays hold a bounded number of games."""

import json
import socket
import tracemalloc
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from gamekit import GAMES, cli
from servekit import call, running, seat_api

from rulespec import load_spec
from rulespec.serve import app, tables
from rulespec.table.narrate import Titles, narrate


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(tmp_path_factory.mktemp("saves")) as (base, held):
        yield base, held


def _send(base: str, head: str, chunks) -> tuple[int, dict]:
    """Send a request's head, then its body chunk by chunk until the server answers:
    (status, JSON answer)."""
    where = urlparse(base)
    with socket.create_connection((where.hostname, where.port), timeout=20) as sock:
        sock.sendall(head.encode())
        for chunk in chunks:
            sock.settimeout(0)
            try:
                if sock.recv(1, socket.MSG_PEEK):
                    break
            except BlockingIOError:
                pass
            sock.settimeout(20)
            sock.sendall(chunk)
        sock.settimeout(20)
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
            data += sock.recv(65536)
    head, body = data.split(b"\r\n\r\n", 1)
    return int(head.split()[1]), json.loads(body)


def _length(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":")[1])
    return 0


MB = 2**20


@pytest.mark.parametrize("chunked", [False, True])
def test_a_body_is_refused_while_it_streams_in(server, chunked):
    """A 600 MB upload is refused after at most MAX_BODY bytes, not read whole: the
    client sends 3 MB of it and has its answer."""
    base, _ = server
    piece = b"x" * (64 * 1024)
    if chunked:
        head = "POST /api/replays HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        chunks = [b"%x\r\n%s\r\n" % (len(piece), piece)] * 48
    else:
        head = f"POST /api/replays HTTP/1.1\r\nHost: x\r\nContent-Length: {600 * MB}\r\n\r\n"
        chunks = [piece] * 48
    assert _send(base, head, chunks) == (
        413,
        {"error": f"a request is at most {app.MAX_BODY:,} bytes"},
    )


def _long_log(tmp_path) -> str:
    log = tmp_path / "long.jsonl"
    run = ("run", GAMES / "pirates_wild.yaml", "--players", "2", "--seed", "3", "--log", log)
    assert cli(*run)[0] == 0
    return str(log)


def test_a_replay_keeps_a_few_games_not_one_per_decision(server, tmp_path):
    base, _ = server
    log = _long_log(tmp_path)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        status, opened = call(f"{base}/api/replays", {"path": log})
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert status == 200
    url, token = seat_api(base, opened["link"])
    frames = call(f"{url}?token={token}")[1]["frames"]
    assert frames > 2000  # a long game: a copy of it per decision took 200 MB
    assert held < 30 * MB
    # any position is rebuilt as it was: the narration is the log's, up to it
    logged = [json.loads(line) for line in Path(log).read_text().splitlines()[1:]]
    titles = Titles.of(load_spec(GAMES / "pirates_wild.yaml"))
    seen = set()
    for at in (0, 1, frames // 3, frames // 3 + 1, frames - 2, frames - 1):
        view = call(f"{url}?token={token}&at={at}")[1]
        assert view["narration"] == narrate(logged[: view["events"]], titles)
        seen.add(view["events"])
    assert len(seen) == 6 and view["over"] and view["events"] == len(logged)


def test_replays_beyond_their_budget_forget_the_oldest(server, tmp_path, monkeypatch):
    base, held = server
    log = _long_log(tmp_path)
    opened = [call(f"{base}/api/replays", {"path": log})[1] for _ in range(2)]
    decisions = held.replays[opened[0]["id"]].positions
    monkeypatch.setattr(tables, "MAX_REPLAYED", 2 * decisions + 10)
    third = call(f"{base}/api/replays", {"path": log})[1]
    assert sum(r.positions for r in held.replays.values()) <= tables.MAX_REPLAYED
    assert opened[0]["id"] not in held.replays and third["id"] in held.replays
    url, token = seat_api(base, opened[0]["link"])
    assert call(f"{url}?token={token}")[0] == 404
