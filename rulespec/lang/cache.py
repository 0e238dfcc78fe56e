"""Files kept between runs so that a command starts faster, in the user's cache folder.

What is kept is what every run would otherwise compute the same way again: the
expression parser's LALR tables (expressions.parser), the documents the schema found
clean (schema.py), and the IR of specs compiled clean (pipeline.py). A file's name is
a hash of all it was made from (for the parser: the grammar, the versions of Lark and
Python), so a file is never read for other inputs, and a change makes a new one. A
cache is only a speed-up: a file missing, unreadable or damaged is made again, a
folder that cannot be written (read-only, full, not there) just means each run makes
it again, and the result is the same either way. Each kind keeps its files last used
(write's `keep`); the others go.

The folder: $RULESPEC_CACHE_DIR if set, else the platform's cache folder, as pip and
ruff choose theirs: $XDG_CACHE_HOME/rulespec (~/.cache/rulespec) on Linux and other
Unixes, ~/Library/Caches/rulespec on macOS, %LOCALAPPDATA%\\rulespec\\Cache on Windows.
Files there are loaded as Python's own bytecode cache is, trusting the user's folder:
nothing else writes to it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

ENV = "RULESPEC_CACHE_DIR"


def folder() -> Path | None:
    """The cache folder, as the environment names it (None when it names none: no home)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base, "rulespec", "Cache") if base else None
    home = os.path.expanduser("~")
    if home == "~":  # no HOME and no password entry to find one by
        home = None
    if sys.platform == "darwin":
        return Path(home, "Library", "Caches", "rulespec") if home else None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):  # a relative one is ignored, as the XDG specification says
        return Path(xdg, "rulespec")
    return Path(home, ".cache", "rulespec") if home else None


def path(kind: str, *made_from: str) -> Path | None:
    """Where the file of this kind made from these inputs is kept (None: no folder)."""
    where = folder()
    if where is None:
        return None
    digest = hashlib.sha256("\0".join(made_from).encode("utf-8", "surrogatepass")).hexdigest()
    return where / f"{kind}-{digest[:32]}"


def read(file: Path | None, load: Callable[[BinaryIO], object]):
    """What load() makes of the file, or None when there is none or it cannot be read
    (damaged, cut short, from an incompatible version): it is then made again."""
    if file is None:
        return None
    try:  # not blocking on a named pipe of that name, nor reading a device
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            return load(f) if stat.S_ISREG(os.fstat(f.fileno()).st_mode) else None
    except Exception:  # a cache never stops a command
        return None


def write(file: Path | None, save: Callable[[BinaryIO], None], keep: int) -> None:
    """Keep a file that save() writes, whole or not at all, and the `keep` files of its
    kind last used (the others go). It is written under a name of its own (tempfile's)
    and renamed into place, so that another process or thread reading or writing it at
    the same time (a test run, simulate's workers, serve) never sees part of one. A
    folder that cannot be written only costs the next run the time to make it again."""
    if file is None:
        return
    import tempfile  # only a run that has something to keep loads it

    try:
        file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temporary = tempfile.mkstemp(prefix=f"{file.name}.", suffix=".tmp", dir=file.parent)
    except OSError:  # read-only, full, not a folder: no cache
        return
    try:
        with os.fdopen(fd, "wb") as f:
            save(f)
        os.replace(temporary, file)
    except Exception:  # the disk filled, or save() failed: no cache, and no leftover
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return
    _prune(file.parent, file.name[: file.name.rindex("-") + 1], keep)


ABANDONED = 3600  # s: a file still being written after this was left by a writer that died


def _prune(folder: Path, prefix: str, keep: int) -> None:
    """Remove the files named prefix... of the folder but the `keep` (at least 1) last
    changed (or used, where their reader marks them so), and those a writer left half
    written; files being written now are left alone."""
    try:
        with os.scandir(folder) as entries:
            files = [
                (e.name, e.stat().st_mtime_ns, e.path) for e in entries if e.name.startswith(prefix)
            ]
    except OSError:
        return
    whole = sorted((when, path) for name, when, path in files if not name.endswith(".tmp"))
    gone = [path for _, path in whole[:-keep]]
    now = time.time_ns()
    gone += [
        path
        for name, when, path in files
        if name.endswith(".tmp") and now - when > ABANDONED * 10**9
    ]
    for path in gone:
        with contextlib.suppress(OSError):
            os.unlink(path)
