"""The web app: the pages, and a JSON API whose every answer to a seat is that seat's view.

Starlette, because an ASGI app of a dozen routes needs routing, JSON and static files
and nothing more (no templates, forms or sessions); uvicorn serves it. A refused
request gets a 4xx status and {"error": message}, and leaves every game as it was.
Games are played in a worker thread (an agent's search can take seconds), one request
at a time per game.
"""

from __future__ import annotations

import html
import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rulespec.interpreter import RuleError
from rulespec.interpreter.agents import AGENTS
from rulespec.interpreter.choices import seat_name

from ..lang.variants import variant_names
from ..table.view import option_text
from . import views
from .tables import PERSON, Live, Refused, Spec, Tables, same_token, save_name

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 2_000_000  # bytes: a log of a long game, uploaded for a replay


class Api:
    """The JSON API's handlers over one server's tables."""

    def __init__(self, tables: Tables, saves: str):
        self.tables, self.saves = tables, saves

    async def index(self, request: Request):
        return FileResponse(STATIC / "index.html")

    async def table(self, request: Request):
        if not {"game", "replay"} & request.query_params.keys():  # a link cut short: its
            # page would ask for game "null" and blame a restart (a browser trial's)
            raise HTTPException(
                400,
                "this table link names no game (?game=…&seat=…&token=…): open one from the lobby",
            )
        return FileResponse(STATIC / "table.html")

    async def lobby(self, request: Request):
        return {"games": self.tables.lobby(), "agents": [PERSON, *AGENTS]}

    async def new_game(self, request: Request):
        body = await _body(request)
        if "resume" in body:
            game = await run_in_threadpool(
                self.tables.resume, self._path(body["resume"]), body.get("seats")
            )
        else:
            game = await run_in_threadpool(self.tables.new_game, body)
        return {"id": game.id, "links": _links(game)}

    def _path(self, value) -> str:
        """A log's path on the server: a name the "saved as" line gave is found in the
        saves folder, else a relative path is the folder the server started in."""
        if not isinstance(value, str) or not value or "\0" in value:
            raise Refused(400, "'path' is the path of a log file on the server")
        saved = Path(self.saves) / value
        try:
            found = not Path(value).is_absolute() and saved.is_file()
        except OSError:  # a name the file system refuses (too long): no saved game
            found = False
        return str(saved) if found else value

    async def seat_view(self, request: Request):
        game, seat = _game_and_seat(self.tables, request)
        return await run_in_threadpool(_locked, game, lambda: _view(game, seat))

    async def choose(self, request: Request):
        game, seat = _game_and_seat(self.tables, request)
        body = await _body(request)
        if seat is None:
            raise Refused(409, "a spectator makes no choices")

        def act():
            game.choose(seat, body.get("option"), body.get("events"))
            return _view(game, seat)

        return await run_in_threadpool(_locked, game, act)

    async def step(self, request: Request):
        game, seat = _game_and_seat(self.tables, request)
        if seat is not None:
            raise Refused(409, "only a watched game is played step by step")

        def one():
            game.settle(one=True)
            return _view(game, seat)

        return await run_in_threadpool(_locked, game, one)

    async def rematch(self, request: Request):
        """A new game at a finished game's table: this seat's link to it."""
        game, seat = _game_and_seat(self.tables, request)
        again = await run_in_threadpool(_locked, game, lambda: self.tables.rematch(game))
        return {"id": again.id, "link": _links(again)[_seat_name(seat)]}

    async def save(self, request: Request):
        game, seat = _game_and_seat(self.tables, request)
        target = Path(self.saves) / save_name(game.spec_path)
        text = await run_in_threadpool(_locked, game, lambda: game.log_lines(target.parent, seat))
        await run_in_threadpool(_write, target, text)
        return {"saved": str(target)}

    async def graph(self, request: Request):
        game, _ = _game_and_seat(self.tables, request)
        return await run_in_threadpool(lambda: game.table.graph)

    async def open_replay(self, request: Request):
        body = await _body(request)
        number = body.get("game", 1)
        if "log" in body:  # uploaded: its spec is found by file name among the served ones
            text = body["log"]
            if not isinstance(text, str):
                raise Refused(400, "'log' is the text of a log")
            replay = await run_in_threadpool(_open_text, self.tables, text, number)
        else:
            replay = await run_in_threadpool(
                self.tables.open_log, self._path(body.get("path")), number
            )
        return {
            "id": replay.id,
            "link": f"/table?replay={replay.id}&token={replay.token}",
        }

    async def replay_view(self, request: Request):
        replay = self.tables.replay(request.path_params["id"])
        _check_token(replay.token, request)
        at = _whole(request.query_params.get("at", "0"), "at")
        names = [_seat_name(s) for s in replay.seats]
        seat = replay.seat(request.query_params.get("as", names[0]))
        shown = await run_in_threadpool(lambda: views.view(replay.at(at), seat, replay.table))
        # the option taken at this decision, shown among those offered to the seat
        if shown["options"] and at < len(replay.choices):
            shown["chosen"] = replay.choices[at][1].get("option")
        # the seed deals every card: a replay shown to one seat keeps it back
        told = ("spec", "variants", "players", "game") + (("seed",) if None in replay.seats else ())
        return shown | {
            "at": at,
            "frames": replay.positions,
            "header": {k: replay.header[k] for k in told},
            "title": replay.table.spec.name,
            "players": [seat_name(p) for p in range(replay.table.players)],
            "views": names,
        }

    async def replay_graph(self, request: Request):
        replay = self.tables.replay(request.path_params["id"])
        _check_token(replay.token, request)
        return await run_in_threadpool(lambda: replay.table.graph)


def create_app(specs: list[Spec], saves: str = ".", debug: bool = False) -> Starlette:
    """The app serving `specs` in its lobby; games are saved as logs into `saves`."""
    api = Api(Tables(specs), saves)

    def _json(handler):
        return _json_route(handler, debug)

    routes = [
        Route("/", api.index),
        Route("/table", api.table),
        Route("/api/lobby", _json(api.lobby)),
        Route("/api/games", _json(api.new_game), methods=["POST"]),
        Route("/api/games/{id}/{seat}", _json(api.seat_view)),
        Route("/api/games/{id}/{seat}/choose", _json(api.choose), methods=["POST"]),
        Route("/api/games/{id}/{seat}/step", _json(api.step), methods=["POST"]),
        Route("/api/games/{id}/{seat}/save", _json(api.save), methods=["POST"]),
        Route("/api/games/{id}/{seat}/rematch", _json(api.rematch), methods=["POST"]),
        Route("/api/games/{id}/{seat}/graph", _json(api.graph)),
        Route("/api/replays", _json(api.open_replay), methods=["POST"]),
        Route("/api/replays/{id}", _json(api.replay_view)),
        Route("/api/replays/{id}/graph", _json(api.replay_graph)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error})
    app.state.tables = api.tables
    return app


def _json_route(handler, debug: bool = False):
    """A route answering JSON: what the handler returns, or a refusal as {"error": ...}.
    A bug is one line on standard error (its traceback with --debug) and a JSON 500:
    the page can say it, and the server goes on."""

    async def route(request: Request):
        try:
            return JSONResponse(await handler(request))
        except Refused as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        except RuleError as exc:  # the spec's rule, not the server: the game stops there
            print(f"rulespec serve: {exc}", file=sys.stderr)
            # the cause may hang on cards the seat asking does not see: the output has it
            said = f"{exc.span}: error {exc.code}: the game stopped: rule '{exc.rule}' failed here"
            return JSONResponse({"error": said}, status_code=409)
        except Exception as exc:
            if debug:
                traceback.print_exc(file=sys.stderr)
            print(
                f"rulespec serve: internal error ({type(exc).__name__}: {exc}), answering "
                f"{request.method} {request.url.path}; this is a bug in rulespec"
                + ("" if debug else " (--debug shows the traceback)"),
                file=sys.stderr,
            )
            # its message may name what the seat asking may not see: the server's output has it
            said = f"internal error ({type(exc).__name__}); this is a bug in rulespec"
            return JSONResponse({"error": said}, status_code=500)

    return route


async def _http_error(request: Request, exc: HTTPException):
    """Starlette's own refusals (no such route, a wrong method) as JSON too; a page a
    browser asks for that is not there, as a page with the way back to the lobby (a
    person who mistyped a link saw the bare JSON)."""
    path = request.url.path
    if "text/html" in request.headers.get("accept", "") and not path.startswith("/api/"):
        said = html.escape(f"{exc.detail}: {path[:200]}")
        page = (
            f'<!doctype html><title>rulespec</title><p>{said}.</p><p><a href="/">The lobby</a></p>'
        )
        return HTMLResponse(page, status_code=exc.status_code)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


async def _body(request: Request) -> dict:
    """The request's JSON object, read no further than MAX_BODY bytes."""
    too_big = Refused(413, f"a request is at most {MAX_BODY:,} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise too_big
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise too_big
    try:
        body = json.loads(raw or b"{}")
        json.dumps(body, ensure_ascii=False).encode()  # a lone surrogate (\ud800) is no text
    except (ValueError, RecursionError):
        raise Refused(400, "the request is not JSON text") from None
    if not isinstance(body, dict):
        raise Refused(400, "the request is a JSON object")
    return body


def _seat_name(seat: int | None) -> str:
    return "spectator" if seat is None else seat_name(seat)


def _whole(text: str, name: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) < 10):
        raise Refused(400, f"'{name}' is a whole number, 0 or more, not '{text[:20]}'")
    return int(text)


def _check_token(expected: str, request: Request) -> None:
    if not same_token(expected, request.query_params.get("token")):
        raise Refused(403, "this link's token is wrong: ask for the replay's link")


def _game_and_seat(tables: Tables, request: Request) -> tuple[Live, int | None]:
    game = tables.game(request.path_params["id"])
    seat = game.seat_of(request.path_params["seat"], request.query_params.get("token"))
    return game, seat


def _locked(game: Live, work):
    with game.lock:
        return work()


def _view(game: Live, seat: int | None) -> dict:
    return (
        views.view(game.state, seat, game.table)
        | _early(game, seat)
        | {
            "title": game.table.spec.name,
            "players": [  # who sits where: the view's own "seats" are what each seat holds
                {"seat": seat_name(p), "who": "person" if s == PERSON else s}
                for p, s in enumerate(game.seats)
            ],
            "watched": game.watched,
            # the next game at this table, once someone asked for it: this seat's own link
            "rematch": _links(game.rematch)[_seat_name(seat)] if game.rematch else None,
        }
    )


def _early(game: Live, seat: int | None) -> dict:
    """At a simultaneous choice the rules ask seat by seat, a person asked later may
    choose now: their options, or the one they chose, taken when their turn comes."""
    if seat in game.early:
        (option, _), titles = game.early[seat], game.table.titles
        return {"picked": option_text(option, titles, game.state.game.type_names)}
    options = game.choosing_early().get(seat)
    if options is None:
        return {}
    log = game.state.log_for(seat)
    return views.decision(game.state, game.table, options, log) | {"waiting_for": None}


def _links(game: Live) -> dict[str, str]:
    """Each person's seat link, or the spectator's of a watched game."""
    names = {seat: _seat_name(seat) for seat in game.tokens}
    return {
        names[seat]: f"/table?game={game.id}&seat={names[seat]}&token={token}"
        for seat, token in game.tokens.items()
    }


def _write(target: Path, text: str) -> None:
    """Write a save whole or not at all; 507 when the system refuses (a full disk)."""
    temporary = target.with_suffix(".tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise Refused(507, f"cannot save the game: {exc.strerror or exc}") from None


def _open_text(tables: Tables, text: str, number):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "uploaded.jsonl"
        path.write_text(text, encoding="utf-8")  # _body let no lone surrogate through
        try:
            return tables.open_log(str(path), number)
        except Refused as exc:
            raise Refused(exc.status, str(exc).replace(str(path), "the log")) from None


def seatable(spec) -> list[str]:
    """Who the lobby offers to seat at a spec: a person, and the agents it can play
    with (not one that needs an evaluation it lacks: a player's trial seated greedy at
    a spec without one, and was refused only at Start)."""
    return [PERSON] + [
        a
        for a, agent in AGENTS.items()
        if spec.evaluation is not None or not getattr(agent, "needs_evaluation", None)
    ]


def served_specs(paths: list[str]) -> list[Spec]:
    """The lobby's games: the spec files given (each loaded, so a broken one stops the
    server before it starts), else the bundled games; variants are the files in
    variants/<name>/ beside each spec, as `rulespec games` finds them."""
    from ..lang.pipeline import load_spec
    from ..table import bundled

    if not paths:
        folder = bundled.folder()
        paths = [str(folder / f"{name}.yaml") for name in bundled.names()] if folder else []
    specs, ids = [], set()
    for path in paths:
        spec = load_spec(path)
        stem, k = Path(path).stem, 2
        name = stem
        while name in ids:  # two files of one name from two folders
            name, k = f"{stem}_{k}", k + 1
        ids.add(name)
        variants = variant_names(path)
        players = [
            spec.min_players,
            spec.max_players,
            spec.default_players,
            list(spec.player_counts),
        ]
        specs.append(Spec(name, path, variants, spec.name, players, seatable(spec)))
    return specs


def serve(paths: list[str], host: str, port: int, saves: str, out, debug: bool = False) -> None:
    """Serve until Ctrl-C (uvicorn stops, then the interrupt goes on to the caller).
    ValueError for a `saves` that is no folder to write in, or an address taken."""
    import socket

    import uvicorn

    if not (os.path.isdir(saves) and os.access(saves, os.W_OK | os.X_OK)):
        raise ValueError(f"--saves {saves!r} is not a folder the server can write in")
    app = create_app(served_specs(paths), saves, debug)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except (OSError, OverflowError) as exc:
        sock.close()
        raise ValueError(
            f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    sock.listen(128)  # before the address is shown: a client may come at once
    shown_host = f"[{host}]" if ":" in host else host
    print(
        f"serving {len(app.state.tables.specs)} game(s) at http://{shown_host}:{sock.getsockname()[1]}/"
        " (Ctrl-C stops)",
        file=out,
        flush=True,
    )
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    server.run(sockets=[sock])
    # The server only stops when a signal tells it to. uvicorn re-raises the signal once
    # it has shut down, but a Ctrl-C that lands while asyncio is still starting can be
    # swallowed with the cancelled start-up: either way, this was an interrupt.
    raise KeyboardInterrupt
