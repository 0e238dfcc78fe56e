"""A real `rulespec serve` app on 127.0.0.1 in a thread, and a small JSON client for it."""

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from urllib.parse import parse_qs, urlparse

from gamekit import GAMES

# no proxy: the server is on this machine
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@contextmanager
def running(saves, paths=()):
    """The app serving `paths` (default: the bundled games) on a free port: its base URL
    and its tables."""
    import uvicorn

    from rulespec.serve.app import create_app, served_specs

    paths = list(paths) or [str(GAMES / "take_the_gold.yaml"), str(GAMES / "pirates_wild.yaml")]
    app = create_app(served_specs(paths), str(saves))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", app.state.tables
    finally:
        server.should_exit = True
        thread.join(10)


def call(url: str, body=None, raw: bytes | None = None) -> tuple[int, dict]:
    """(status, JSON answer) of a GET, or of a POST of `body` as JSON (or `raw` bytes)."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET")
    try:
        with _OPENER.open(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def seat_api(base: str, link: str) -> tuple[str, str]:
    """(the seat's API URL, its token) from a seat link of the lobby."""
    q = parse_qs(urlparse(link).query)
    if "replay" in q:
        return f"{base}/api/replays/{q['replay'][0]}", q["token"][0]
    return f"{base}/api/games/{q['game'][0]}/{q['seat'][0]}", q["token"][0]
