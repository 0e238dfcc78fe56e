"""`rulespec` for the docs' transcripts, run by a real shell, without paying Python's
start-up and rulespec's imports (half a second) for each of their commands.

`python docshell.py serve SOCKET` imports rulespec once and listens on a Unix socket.
The `rulespec` the shell finds on its PATH is a small client (`client_script`): it
hands the server its arguments, working folder, environment and its standard input,
output and error (the descriptors themselves, so pipes and redirections are the
shell's), and exits with the command's exit code. The server forks for each command;
the child takes on the client's descriptors, folder and environment and runs the
console script's own entry point, `rulespec.cli.entry`. Every command starts from the
same state: the server imports rulespec's modules and validates the games, no more.
"""

import contextlib
import importlib
import io
import json
import os
import pkgutil
import socket
import sys
import traceback
from pathlib import Path


def client_script(address: str) -> str:
    """The text of the `rulespec` executable that asks the server at `address`."""
    return f"""#!{sys.executable} -IS
import json, os, socket, sys
conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
conn.connect({address!r})
socket.send_fds(conn, [b"+"], [0, 1, 2])
request = {{"argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)}}
conn.sendall(json.dumps(request).encode())
conn.shutdown(socket.SHUT_WR)
status = conn.recv(1)
sys.exit(status[0] if status else 255)  # 255: the command died without a status
"""


def serve(address: str) -> None:
    import rulespec
    from rulespec.cli import entry, main

    # imported once, each command a fork from here: the commands import their modules
    # when they run (lint networkx, simulate its workers' code...), so import them all
    for module in pkgutil.walk_packages(rulespec.__path__, "rulespec."):
        if not module.name.endswith(".__main__"):  # that one would run a command
            with contextlib.suppress(ImportError):  # an optional extra: the command says so
                importlib.import_module(module.name)
    # and fill the caches that do not depend on what a command reads (the expression
    # parser and the trees it made, the schemas' validators): compile the games, given as
    # text, for validate may read their IR from the cache folder and parse nothing, while
    # each transcript's home, and so its cache folder, is a new one.
    from rulespec import load_spec
    from rulespec.lang import source

    games = sorted(str(spec) for spec in (Path(__file__).parent.parent / "games").glob("*.yaml"))
    for game in games:
        load_spec(game, source.text(game))
    main(["validate", *games], stdout=io.StringIO(), stderr=io.StringIO())
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(16)
    listener.settimeout(1)
    parent = os.getppid()
    print("ready", flush=True)
    while os.getppid() == parent:  # a test run killed leaves no server behind
        _reap()
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        conn.setblocking(True)
        if os.fork() == 0:
            listener.close()
            _command(conn, entry)
        conn.close()


def _command(conn: socket.socket, entry) -> None:
    """In the forked child: become the client's command, run it, report its status."""
    _, fds, _, _ = socket.recv_fds(conn, 1, 3)
    chunks = []
    while chunk := conn.recv(65536):
        chunks.append(chunk)
    request = json.loads(b"".join(chunks))
    for fd, target in zip(fds, (0, 1, 2), strict=True):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = ["rulespec", *request["argv"]]
    try:
        entry()
        status = 0
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    except BaseException:  # as Python itself reports an uncaught exception
        traceback.print_exc()
        status = 1
    conn.sendall(bytes([status & 0xFF]))
    os._exit(status)


def _reap() -> None:
    """Collect the commands that have finished, so that none is left a zombie."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


if __name__ == "__main__":
    serve(sys.argv[2]) if sys.argv[1:2] == ["serve"] else sys.exit(
        "usage: docshell.py serve SOCKET"
    )
