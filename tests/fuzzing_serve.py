"""Fuzz cases for `rulespec serve` over HTTP (issue 24), the `serve` kind of fuzzing.py:
a real server on 127.0.0.1 and a session of random requests against it, made from the
case's seed: games started with good and mangled bodies, views and choices with right,
wrong and odd tokens and seats, watched steps, saves, replays of saved files, of
mutated uploads and of paths that are no log, resumes, unknown routes and methods,
and bodies past the size limit, sent whole or in chunks.

Every answer is checked: never a 5xx or a dropped connection, JSON with an "error"
for every refusal, and nothing hidden shown: a seat's view carries no card of a zone
hidden from it, and a game a seat saved before its end is only ever shown (replayed,
uploaded unchanged, resumed) as that seat. A failure raises ServeFailure with the
requests that led to it and the server's traceback, last line last, so the guard
classes it (a MemoryError is a memory blow-up).

One server per process, started with its first case; each case gets a fresh app
(no games, no replays) with its saves in the case's folder.
"""

from __future__ import annotations

import http.client
import json
import logging
import random
import socket
import threading
import time
import traceback
from functools import cache
from pathlib import Path
from urllib.parse import parse_qs, quote, urlparse

from fuzzing import GAMES, SMALL_GAME, Case, _mutate_log, _wild_json, pristine_log

SERVED = (SMALL_GAME, GAMES / "take_the_gold.yaml", GAMES / "pirates_wild.yaml")
SEATS = ["person", "person", "random", "first", "greedy", "ismcts:iterations=3"]
ODD_SEATS = ["", "nobody", "PERSON", "random:x=1", "ismcts:iterations=0", "é" * 300, "\x00"]
ODD_NAMES = ["P0", "P9", "p1", "P01", "%C3%A9", "P1%00", "spectator%20", "x" * 500]
ODD_TOKENS = ["", "%C3%A9", "%E2%82%AC" * 40, "%00", "%FF%FE", "x" * 5000, "%F0%9F%83%8F"]
ODD_PATHS = ["", "{tmp}", "{tmp}/missing.jsonl", "/dev/zero", "{tmp}/saves", "\x00", "../" * 40]
ODD_ROUTES = [
    "/api/games/x/y/z",
    "/api/replays/%2e%2e/%2e%2e",
    "/static/../../etc/passwd",
    "/api/games/%00/P1",
    "/api/lobby/x",
    "/api/replays/x/graph",
    "/nowhere",
]
MB = 2**20


class ServeFailure(Exception):
    """An answer the server must never give, with the requests that led to it."""


def build(rng: random.Random, seed: int) -> Case:
    """A serve case: its seed drives the session; its files are logs to replay."""
    small = "\n".join(pristine_log()).replace("tests/valid/coin_grab.yaml", str(SMALL_GAME))
    return Case("serve", seed, [], {"small.jsonl": (small + "\n").encode(), "long.jsonl": _long()})


@cache
def _long() -> bytes:
    """A long game's log (some 2,500 decisions of Pirates Wild), its spec by full path."""
    import io
    import tempfile

    from fuzzing import main

    with tempfile.TemporaryDirectory() as d:
        log = Path(d) / "long.jsonl"
        spec = GAMES / "pirates_wild.yaml"
        argv = ["run", str(spec), "--players", "2", "--seed", "3", "--log", str(log)]
        assert main(argv, stdout=io.StringIO(), stderr=io.StringIO()) == 0
        header, rest = log.read_text(encoding="utf-8").split("\n", 1)
    return (json.dumps(json.loads(header) | {"spec": str(spec)}) + "\n" + rest).encode()


def run(case: Case, where: Path, out) -> int:
    """Play the case's session against a fresh app; 0, or ServeFailure."""
    from rulespec.serve.app import create_app

    server = _server()
    saves = where / "saves"
    saves.mkdir()
    app = create_app(_specs(), str(saves))
    server.errors.clear()
    server.app = app
    session = Session(server, app.state.tables, where, random.Random(f"serve-run:{case.seed}"))
    for _ in range(session.rng.randint(4, 30)):
        session.rng.choices(ACTIONS, WEIGHTS)[0](session)
    print(*session.sent, sep="\n", file=out)
    return 0


@cache
def _specs() -> list:
    """The served specs, loaded once per process (they keep their compiled variants)."""
    from rulespec.serve.app import served_specs

    return served_specs([str(p) for p in SERVED])


class _Server:
    """uvicorn on 127.0.0.1 in a thread, handing each request to the case's app; the
    tracebacks it logs are kept for the case's report."""

    def __init__(self):
        import uvicorn

        self.app, self.errors = None, []
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(self._asgi, interface="asgi3", log_level="warning", lifespan="off")
        server = uvicorn.Server(config)
        log = logging.getLogger("uvicorn.error")  # kept for the report, not printed
        log.handlers, log.propagate = [_Kept(self.errors)], False
        threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
        while not server.started:
            time.sleep(0.01)

    async def _asgi(self, scope, receive, send):
        await self.app(scope, receive, send)


class _Kept(logging.Handler):
    def __init__(self, errors: list):
        super().__init__()
        self.errors = errors

    def emit(self, record):
        if record.exc_info:
            self.errors.append("".join(traceback.format_exception(*record.exc_info)))


@cache
def _server() -> _Server:
    return _Server()


class Session:
    """What the client knows: games (their seats' tokens), replays, saved files."""

    def __init__(self, server: _Server, tables, where: Path, rng: random.Random):
        self.server, self.tables, self.where, self.rng = server, tables, where, rng
        self.games: list[dict] = []  # id, tokens {seat: token}, options {seat: labels}
        self.replays: list[dict] = []  # id, token, only (the one view it may show, or None)
        self.saves: list[dict] = []  # path, players, only (the seat that saved it early)
        self.sent: list[str] = []

    # ------------------------------------------------------------ the wire

    def post(self, url: str, payload, chunked=False) -> tuple[int, object]:
        """POST `payload` (bytes as they are, anything else as JSON)."""
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        return self.request("POST", url, body, chunked)

    def request(self, method: str, url: str, body=None, chunked=False) -> tuple[int, object]:
        """Send one request and check its answer: (status, JSON or None for a page)."""
        size = len(body) if body is not None else "-"
        self.sent.append(f"{method} {url[:300]} ({size} bytes{', chunked' if chunked else ''})")
        began = time.monotonic()
        status, kind, data = self._exchange(method, url, body, chunked)
        self.sent[-1] += f" -> {status} in {time.monotonic() - began:.2f} s"
        if status >= 500:
            self.fail(f"{status}: {data[:300]!r}")
        if method == "HEAD":  # an answer without a body
            return status, None
        if not kind.startswith("application/json"):
            if status >= 400 or url.startswith("/api/"):
                self.fail(f"{status} answered {kind!r}, not JSON: {data[:200]!r}")
            return status, None
        answer = json.loads(data)
        refused = isinstance(answer, dict) and isinstance(answer.get("error"), str)
        if status >= 400 and not refused:
            self.fail(f"{status} without an error: {answer!r:.300}")
        return status, answer

    def _exchange(self, method, url, body, chunked) -> tuple[int, str, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=600)
        try:
            if chunked:
                pieces = [body[i : i + MB] for i in range(0, len(body), MB)]
                connection.request(method, url, body=iter(pieces), encode_chunked=True)
            else:
                connection.request(method, url, body=body)
            response = connection.getresponse()
            return response.status, response.getheader("content-type", ""), response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.fail(f"no answer: {exc!r}")
        finally:
            connection.close()

    def fail(self, what: str):
        for _ in range(100):  # uvicorn logs a traceback after it has sent the 500
            if self.server.errors or not what.startswith("5"):
                break
            time.sleep(0.01)
        tracebacks = "\n".join(self.server.errors[-2:])
        raise ServeFailure(
            f"{what}\nafter the requests:\n  "
            + "\n  ".join(self.sent[-12:])
            + (f"\nthe server's traceback:\n{tracebacks}" if tracebacks else "")
        )

    def check(self, ok: bool, what: str, answer) -> None:
        if not ok:
            self.fail(f"{what}: {json.dumps(answer)[:500]}")

    # ------------------------------------------------------------ what a client sends

    def token(self, right: str, others) -> str:
        """The right token mostly; else another's, none, or an odd one (before the
        right one, which a server reading the last token then takes)."""
        roll = self.rng.random()
        if roll < 0.8:
            return f"token={right}"
        if roll < 0.88 and others:
            return f"token={self.rng.choice(others)}"
        if roll < 0.92:
            return ""
        odd = f"token={self.rng.choice(ODD_TOKENS)}"
        return f"{odd}&token={right}" if roll < 0.95 else odd

    def mangled(self, body: dict):
        """`body`, or (a fifth of the time) a mangled one: a field dropped, retyped or
        added, or no JSON object at all."""
        roll = self.rng.random()
        if roll < 0.8:
            return body
        body = dict(body)
        op = self.rng.randrange(5)
        if op == 0 and body:
            del body[self.rng.choice(sorted(body))]
        elif op == 1 and body:
            body[self.rng.choice(sorted(body))] = _wild_json(self.rng)
        elif op == 2:
            body[self.rng.choice(["x", "", "\ud800", "spec"])] = _wild_json(self.rng)
        elif op == 3:
            return _wild_json(self.rng)
        else:
            return self.rng.choice(
                [b"{", b"\xff\xfe", b'{"spec": "\\ud800"}', b"[" * 100000, b"null", b"", b"1e999"]
            )
        return body

    def path(self, odd: bool = True) -> str:
        """A log to open: a saved game (one saved early, when there is one), a log of
        the case's, or (`odd`) no log at all."""
        roll = self.rng.random()
        early = [x for x in self.saves if x["only"]]
        if roll < 0.4 and early:
            return self.rng.choice(early)["path"]
        if roll < 0.5 and self.saves:
            return self.rng.choice(self.saves)["path"]
        if roll < 0.8 or not odd:
            return str(self.where / self.rng.choice(["small.jsonl"] * 4 + ["long.jsonl"]))
        return self.rng.choice(ODD_PATHS).replace("{tmp}", str(self.where))

    def seat_url(self, game: dict, suffix: str = "") -> tuple[str, str]:
        """A seat of `game` (now and then an odd name) and its request URL."""
        names = list(game["tokens"])
        seat = self.rng.choice(names)
        if self.rng.random() < 0.1:
            seat = self.rng.choice(ODD_NAMES + ["spectator", "P1", "P2"])
        others = [t for s, t in game["tokens"].items() if s != seat]
        token = self.token(game["tokens"].get(seat, "x"), others)
        return seat, f"/api/games/{quote(game['id'])}/{seat}{suffix}?{token}"

    # ------------------------------------------------------------ what is checked

    def shown(self, game: dict, seat: str, answer) -> None:
        """A seat's view: as that seat, and no card of a zone hidden from it."""
        state = self.tables.game(game["id"]).state
        number = None if seat == "spectator" else int(seat[1:]) - 1  # P01 is P1
        expected = None if number is None else f"P{number + 1}"
        self.check(answer["seat"] == expected, "another's view", answer)
        if number is None:
            return
        hidden = {k for k, z in state.observation(number)["zones"].items() if isinstance(z, dict)}
        areas = answer["zones"] + [z for p in answer["seats"] for z in p["zones"]]
        for area in areas:
            ok = (area["cards"] is None) == (area["label"] in hidden)
            self.check(ok, f"{area['label']} shown to {seat}", answer)
        game["options"][seat] = [o["label"] for o in answer["options"]]

    def held(self, answer) -> None:
        """A game started or resumed: remember its seats' tokens."""
        tokens = {
            s: parse_qs(urlparse(link).query)["token"][0] for s, link in answer["links"].items()
        }
        self.games.append({"id": answer["id"], "tokens": tokens, "options": {}})


# ---------------------------------------------------------------- the session's actions


def new_game(s: Session) -> None:
    spec = s.rng.choice(["coin_grab", "coin_grab", "take_the_gold", "pirates_wild"])
    n = s.rng.randint(2, 4)
    body = {
        "spec": spec,
        "players": n,
        "seats": [s.rng.choice(SEATS) for _ in range(n)],
        "seed": s.rng.randrange(10**6),
        "max_turns": s.rng.choice([None, 4, 30]),
    }
    if s.rng.random() < 0.1:
        body["seats"][s.rng.randrange(n)] = s.rng.choice(ODD_SEATS)
    if s.rng.random() < 0.1:
        body["variants"] = s.rng.choice(
            [["two_player"], ["advanced", "long_5"], ["reverse"], ["nope"], ["two_player"] * 300]
        )
    if s.rng.random() < 0.05:
        del body["seed"]  # a fresh deal: this game is not the same each time
    status, answer = s.post("/api/games", s.mangled(body))
    if status == 200:
        s.held(answer)


def view(s: Session) -> None:
    if not s.games:
        return new_game(s)
    game = s.rng.choice(s.games)
    seat, url = s.seat_url(game)
    status, answer = s.request("GET", url)
    if status == 200:
        s.shown(game, seat, answer)


def choose(s: Session) -> None:
    if not s.games:
        return new_game(s)
    game = s.rng.choice(s.games)
    seat, url = s.seat_url(game, "/choose")
    options = game["options"].get(seat) or ["pass"]
    option = s.rng.choice(options) if s.rng.random() < 0.85 else _wild_json(s.rng)
    status, answer = s.post(url, s.mangled({"option": option}))
    if status == 200:
        s.shown(game, seat, answer)


def step(s: Session) -> None:
    watched = [g for g in s.games if "spectator" in g["tokens"]] or s.games
    if not watched:
        return new_game(s)
    game = s.rng.choice(watched)
    seat, url = s.seat_url(game, "/step")
    for _ in range(s.rng.choice([1, 1, 5, 30])):
        status, answer = s.post(url, {})
        if status != 200:
            return
        s.shown(game, seat, answer)


def save(s: Session) -> None:
    if not s.games:
        return new_game(s)
    game = s.rng.choice(s.games)
    seat, url = s.seat_url(game, "/save")
    status, answer = s.post(url, {})
    if status == 200:
        state = s.tables.game(game["id"]).state
        early = not state.is_terminal() and seat != "spectator"
        only = f"P{int(seat[1:])}" if early else None  # P01 saves as P1
        s.saves.append({"path": answer["saved"], "players": state.game.n, "only": only})
        if only and s.rng.random() < 0.5:  # straight on to what the saver may try
            s.rng.choice([open_replay, resume])(s, answer["saved"])


def graph(s: Session) -> None:
    if s.games and s.rng.random() < 0.5:
        game = s.rng.choice(s.games)
        s.request("GET", s.seat_url(game, "/graph")[1])
    elif s.replays:
        replay = s.rng.choice(s.replays)
        s.request("GET", f"/api/replays/{replay['id']}/graph?{s.token(replay['token'], [])}")


def open_replay(s: Session, path: str | None = None) -> None:
    saved = {x["path"]: x["only"] for x in s.saves}
    if s.rng.random() < 0.6:
        path = path or s.path()
        body, only = {"path": path}, saved.get(path)
    else:  # uploaded, as it is or mutated
        path, only = path or s.path(odd=False), None
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        if s.rng.random() < 0.5:
            lines = _mutate_log(s.rng, lines)
        else:
            only = saved.get(path)  # the saved text itself: as restricted as the file
        body = {"log": "\n".join(lines).replace("{tmp}", str(s.where)) + "\n"}
    if s.rng.random() < 0.2:
        body["game"] = s.rng.choice([2, 0, True, "1", 10**20])
    mangled = s.mangled(body)
    status, answer = s.post("/api/replays", mangled)
    if status == 200:
        token = parse_qs(urlparse(answer["link"]).query)["token"][0]
        only = only if mangled is body else None  # a mangled body may still open it
        s.replays.append({"id": answer["id"], "token": token, "only": only})
        replay_view(s, s.replays[-1])


def replay_view(s: Session, replay: dict | None = None) -> None:
    if not s.replays:
        return open_replay(s)
    early = [r for r in s.replays if r["only"]]  # the ones with a secret to keep
    replay = replay or s.rng.choice(early if early and s.rng.random() < 0.5 else s.replays)
    at = str(s.rng.choice([0, 1, 5, s.rng.randrange(3000)]))
    view_as = s.rng.choice(["", "", "spectator", "P1", "P2", "P3"])
    if s.rng.random() < 0.2:
        at, view_as = s.rng.choice(["-1", "x", "", "9" * 12, "%C3%A9"]), s.rng.choice(ODD_NAMES)
    query = f"at={at}" + (f"&as={view_as}" if view_as else "")
    others = [r["token"] for r in s.replays if r is not replay]
    status, answer = s.request(
        "GET", f"/api/replays/{replay['id']}?{query}&{s.token(replay['token'], others)}"
    )
    if status == 200 and replay["only"]:
        s.check(answer["seat"] == replay["only"], "a replay shown past its saver", answer)
        s.check(answer["views"] == [replay["only"]], "a replay offering other views", answer)


def resume(s: Session, path: str | None = None) -> None:
    path = path or s.path()
    saved = next((x for x in s.saves if x["path"] == path), {"only": None, "players": 2})
    saver = saved["only"]
    seats = [s.rng.choice(SEATS + ODD_SEATS[:2]) for _ in range(s.rng.randint(1, 5))]
    if s.rng.random() < 0.5:  # as many seats as the game has; the saver a person
        seats = [s.rng.choice(SEATS) for _ in range(saved["players"])]
        if saver:
            seats = ["person" if f"P{p + 1}" == saver else "random" for p in range(len(seats))]
    body = {"resume": path, "seats": seats}
    status, answer = s.post("/api/games", s.mangled(body))
    if status == 200:
        if saver:
            s.check(list(answer["links"]) == [saver], "a resume past its saver", answer)
        s.held(answer)


def junk(s: Session) -> None:
    """A route, a method or a page the API does not have, or the pages it does."""
    method = s.rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"])
    route = s.rng.choice(ODD_ROUTES + ["/", "/table", "/static/table.js", "/api/lobby"])
    s.request(method, route, b"{}" if method in ("POST", "PUT", "PATCH") else None)


def too_big(s: Session) -> None:
    """A body past the limit, whole or chunked: refused with 413 as it streams in."""
    body = b'{"log": "' + b"x" * s.rng.choice([2 * MB, 3 * MB, 8 * MB]) + b'"}'
    chunked = s.rng.random() < 0.5
    status, answer = s.post(s.rng.choice(["/api/replays", "/api/games"]), body, chunked)
    s.check(status == 413, "a body past the limit", answer)


def many_replays(s: Session) -> None:
    """The long log opened again and again: what replays hold stays bounded."""
    path = str(s.where / "long.jsonl")
    for _ in range(s.rng.randint(2, 4)):
        s.post("/api/replays", {"path": path})


ACTIONS = (new_game, view, choose, step, save, graph, open_replay, replay_view, resume)
ACTIONS += (junk, too_big, many_replays)
WEIGHTS = (4, 5, 8, 3, 4, 1, 4, 6, 3, 2, 0.3, 0.2)
