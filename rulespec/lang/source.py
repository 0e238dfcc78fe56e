"""A spec's text: read from a regular file, safely, or as given (standard input).

The first step of the front end, apart from YAML so that a command can read a spec,
and find its IR kept from an earlier run (pipeline.py), without loading a parser.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from .diagnostics import Diagnostic, Span, SpecError
from .limits import MAX_BYTES

STDIN = "<stdin>"  # the file name of a spec read from standard input (`-` to the CLI)
_given: dict[str, str] = {}
_PACKAGE = Path(__file__).resolve().parent.parent
GAME_NAME = re.compile(r"[a-z][a-z0-9_]*")  # a bundled game's name: its file's stem


def games_folder() -> Path | None:
    """Where the games that ship with rulespec are: an installed wheel's rulespec/games,
    else a source tree's games/ (pyproject.toml maps one onto the other)."""
    if (_PACKAGE / "games").is_dir():
        return _PACKAGE / "games"
    tree = _PACKAGE.parent
    return (
        tree / "games"
        if (tree / "pyproject.toml").is_file() and (tree / "games").is_dir()
        else None
    )


def bundled(path: str | Path) -> str | Path | None:
    """The file of a bundled game named by its bare name (`my_game`) where no file
    of that name exists; any other path as given; None for a bare name that is neither
    a file nor a bundled game."""
    # os.path's checks, as Path's raise for a name too long for the system (fuzz, issue 24)
    if not GAME_NAME.fullmatch(str(path)) or os.path.exists(path):
        return path
    games = games_folder()
    found = games is not None and os.path.isfile(games / f"{path}.yaml")
    return str(games / f"{path}.yaml") if found else None


def give(name: str, text: str) -> None:
    """Serve `text` as the contents of the file `name` to every later load: a spec that
    came on standard input, which can be read only once."""
    _given[name] = text


def text(path: str | Path) -> str:
    """The text of the spec file at path (or given for it); raises SpecError (RS001,
    RS002) for a file that cannot be read, is not a regular file, is too big or is not
    UTF-8."""
    file = str(path)
    given = _given.get(file)
    return given if given is not None else _decode(_read(path, file), file)


_NOT_REGULAR = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _read(path: str | Path, file: str) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES. Anything else is refused
    before reading: a named pipe would block and a device never end. Opening does not
    block (O_NONBLOCK), and at most MAX_BYTES + 1 bytes are read whatever the file."""

    def refuse(code, message):
        return SpecError([Diagnostic(code, message, Span(file, 1, 1))])

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise refuse("RS001", f"cannot read file: {exc.strerror}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = next((name for test, name in _NOT_REGULAR if test(mode)), "not a file")
        raise refuse("RS001", f"cannot read file: it is {kind}; a spec is a regular file")
    with os.fdopen(fd, "rb") as f:
        try:
            raw = f.read(MAX_BYTES + 1)
        except OSError as exc:
            raise refuse("RS001", f"cannot read file: {exc.strerror}") from None
    if len(raw) > MAX_BYTES:
        raise too_large(file)
    return raw


def too_large(file: str) -> SpecError:
    """RS002 for a spec of more than MAX_BYTES, read or given."""
    return SpecError(
        [
            Diagnostic(
                "RS002", f"file is over {MAX_BYTES} bytes, the most a spec may be", Span(file, 1, 1)
            )
        ]
    )


def _decode(raw: bytes, file: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:  # placed at the first bad byte: its line, its column
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8")) + 1
        message = f"file is not UTF-8 ({exc.reason}, byte 0x{raw[exc.start]:02x})"
        raise SpecError([Diagnostic("RS001", message, Span(file, line, col))]) from None
