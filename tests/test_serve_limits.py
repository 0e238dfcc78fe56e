"""`rulespec serve`'s refusals and bounds (issue 24), against a real server on
127.0.0.1: a malformed request is a 4xx JSON error, never a traceback; a save is named
by the server inside --saves; a request body is refused while it streams in; replays
hold a bounded number of games; a --saves that is no folder stops the server at start."""

import json
import socket
import subprocess
import sys
import tracemalloc
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from gamekit import BOOM, GAMES, ROOT, cli
from servekit import call, running, seat_api

from rulespec import load_spec
from rulespec.serve import app, tables
from rulespec.table.narrate import Titles, narrate

SMALL = ROOT / "tests" / "valid" / "coin_grab.yaml"


def _person_game(base, spec="take_the_gold", **request):
    status, answer = call(
        f"{base}/api/games", {"spec": spec, "seats": ["person", "random"]} | request
    )
    assert status == 200, answer
    return answer, *seat_api(base, answer["links"]["P1"])


@pytest.mark.parametrize(
    "path, raw, error",
    [
        ("/api/games", b'{"spec": ["take_the_gold"]}', "no game '['take_the_gold']' here"),
        ("/api/games", b'{"spec": {"a": 1}}', "no game '{'a': 1}' here"),
        ("/api/replays", b'{"log": "\\ud800"}', "the request is not JSON text"),
        ("/api/replays", b'{"path": "/dev/zero"}', "/dev/zero: error RS801: not a file"),
        ("/api/replays", json.dumps({"path": "x" * 5000}).encode(), "error RS801"),
        (
            "/api/games",
            json.dumps({"spec": "take_the_gold", "variants": ["two_player"] * 1000}).encode(),
            "the variant 'two_player' is named twice",
        ),
    ],
    ids=["spec-list", "spec-object", "log-surrogate", "device", "name-too-long", "variant-twice"],
)
def test_odd_json_values_are_refused_as_json(server, path, raw, error):
    base, _ = server
    status, answer = call(base + path, raw=raw)
    assert 400 <= status < 500
    assert error in answer["error"]


def test_a_token_of_any_characters_is_only_refused(server):
    base, _ = server
    _, url, _ = _person_game(base)
    log = _small_log(base)
    assert call(f"{base}/api/replays", {"log": log, "game": True})[0] == 400
    replay = call(f"{base}/api/replays", {"log": log})[1]
    rurl, _ = seat_api(base, replay["link"])
    for token in ("%C3%A9", "%E2%82%AC" * 30, "%00", "%FF"):
        assert call(f"{url}?token={token}") == (
            403,
            {"error": "this link is not the P1 link: ask for the game's seat links"},
        )
        assert call(f"{rurl}?token={token}")[0] == 403


def _small_log(base) -> str:
    """The text of a finished game's save: a replay anyone may open."""
    _, url, token = _person_game(base, max_turns=1)
    while not (view := call(f"{url}?token={token}")[1])["over"]:
        call(f"{url}/choose?token={token}", {"option": view["options"][0]["label"]})
    path = call(f"{url}/save?token={token}", {})[1]["saved"]
    with open(path, encoding="utf-8") as fh:
        return fh.read()


@pytest.mark.parametrize("name", ['"../../escape"', '"/tmp/rulespec-absolute"', '"nul\\0name"'])
def test_a_save_is_named_by_the_server_inside_saves(tmp_path, name):
    spec = tmp_path / "spec" / "odd name?.yaml"
    spec.parent.mkdir()
    spec.write_text(SMALL.read_text().replace("name: Coin Grab", f"name: {name}"))
    saves = tmp_path / "saves"
    saves.mkdir()
    with running(saves, [spec]) as (base, _):
        _, url, token = _person_game(base, spec="odd name?")
        status, saved = call(f"{url}/save?token={token}", {})
    assert status == 200, saved
    assert [p.name for p in saves.iterdir()] == [saved["saved"].rsplit("/", 1)[1]]
    assert saved["saved"].startswith(f"{saves}/odd_name-")


def test_a_log_whose_spec_no_longer_loads_is_refused_as_json(tmp_path):
    spec = tmp_path / "coin_grab.yaml"
    spec.write_text(SMALL.read_text())
    with running(tmp_path, [spec]) as (base, _):
        _, url, token = _person_game(base, spec="coin_grab")
        saved = call(f"{url}/save?token={token}", {})[1]["saved"]
        spec.write_text(SMALL.read_text().replace("hand: hand", "hand: nowhere"))
        for path, request in (
            ("/api/replays", {"path": saved}),
            ("/api/games", {"resume": saved, "seats": ["person", "random"]}),
        ):
            status, answer = call(base + path, request)
            assert status == 422
            assert answer["error"].startswith("the spec does not load:\n")
            assert "error RS" in answer["error"]


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


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
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


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
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


@pytest.mark.parametrize("saves", ["a_file", "missing"])
def test_saves_that_is_no_folder_stops_the_server_at_start(tmp_path, saves):
    (tmp_path / "a_file").write_text("x")
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulespec", "serve", "coin_grab.yaml", "--port", "0"]
        + ["--saves", str(tmp_path / saves)],
        cwd=SMALL.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 2 and out == ""
    assert err == (
        f"rulespec serve: --saves '{tmp_path / saves}' is not a folder the server can write in\n"
    )


def test_a_rule_that_fails_stops_the_table_with_its_place_not_an_internal_error(tmp_path):
    """A review found a spec's rule failure answered as 'internal error … a bug in
    rulespec' (500), and every later view of the table too."""
    spec = tmp_path / "boom.yaml"
    spec.write_text(BOOM)
    with running(tmp_path, [spec]) as (base, _):
        _, url, token = _person_game(base, spec="boom")
        status, answer = call(f"{url}/choose?token={token}", {"option": "boom"})
        assert status == 409
        assert answer["error"].endswith("error RS701: the game stopped: rule 'act' failed here")
        assert "boom.yaml:16:18:" in answer["error"]  # the line that failed
        status, answer = call(f"{url}?token={token}")
        assert status == 409 and "the game stopped" in answer["error"]


def test_a_table_a_rule_stops_saves_its_game_up_to_the_rule(tmp_path, capfd):
    """A table whose game a rule stopped at an agent's move saved it as a game left
    before its end, without the rule: `replay` found it differing where the rule
    stopped it. The save keeps the rule as `run --log` does (still the saver's: the
    game never ended), and replays to it; the server goes on, with a line for the rule
    and no traceback."""
    spec = tmp_path / "boom.yaml"
    spec.write_text(BOOM)  # P2's agent takes the first option, the one whose rule fails
    with running(tmp_path, [spec]) as (base, _):
        _, url, token = _person_game(base, spec="boom", seats=["person", "first"])
        status, answer = call(f"{url}/choose?token={token}", {"option": "fine"})
        place = f"{spec}:16:18: error RS701: the game stopped: rule 'act' failed here"
        assert (status, answer) == (409, {"error": place})
        assert call(f"{url}?token={token}") == (409, {"error": place})
        status, answer = call(f"{url}/save?token={token}", {})
        assert status == 200, answer
        assert call(f"{base}/api/lobby")[0] == 200
    header = json.loads(Path(answer["saved"]).read_text().splitlines()[0])
    assert header["saved_by"] == "P1" and header["result"]["turns"] == 2
    assert header["result"]["error"] == {
        "code": "RS701",
        "rule": "act",
        "line": 16,
        "col": 18,
        "message": "rule 'act' failed here (a product past the limit of ±10^18 (docs/limits.md))",
    }
    code, out, _ = cli("replay", answer["saved"])
    assert code == 0 and "stopped at turn 2 as it was, by error RS701 at line 16" in out
    _, err = capfd.readouterr()
    assert "Traceback" not in err and "rulespec serve: " in err
