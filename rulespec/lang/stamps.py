"""What a folder of files is: by content, or by each file's size and time of change.

Cheap enough to be taken as the front end is imported (rulespec/lang/__init__.py), so
that the IR a process compiles is named for the code that made it (pipeline.py).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def digest(folder: Path) -> str:
    """A hash of the names and contents of every file below the folder (bytecode caches
    left out). Raises OSError for one that cannot be read."""
    h = hashlib.sha256()
    for name in _files(folder):
        with open(name, "rb") as f:
            h.update(f"{os.path.relpath(name, folder)}\0".encode("utf-8", "surrogatepass"))
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def packages(*names: str) -> list[str] | None:
    """Each file of these installed packages (found without importing them) by path,
    size and time of change: what an installed library is, told as Python's bytecode
    cache tells a changed module. None when one is not installed as files, or cannot be
    listed."""
    import importlib.util

    stamps = []
    try:
        for name in names:
            found = importlib.util.find_spec(name)
            if found is None or not found.origin:
                return None
            for file in _files(Path(found.origin).parent):
                st = os.stat(file)
                stamps.append(f"{file} {st.st_size} {st.st_mtime_ns}")
    except (OSError, ImportError, ValueError):
        return None
    return stamps


def _files(folder: Path) -> list[str]:
    """Every file below the folder, in a fixed order, bytecode caches left out."""

    def refuse(error):
        raise error

    found = []
    for root, folders, files in os.walk(folder, onerror=refuse):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        found += [os.path.join(root, f) for f in sorted(files)]
    return found
