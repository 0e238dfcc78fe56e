"""Files the tools read because a document names them, and files they write.

A scenario's `spec:` and a log's `spec` and `variants` name files relative to the
scenario or the log. Only YAML files are read, and a file that does not look like a
spec (no top-level `rulespec:` or `extends:`) shows no more than its first problem, so
a document cannot make the tools print another file's lines.

An output file is written whole or not at all: to a temporary file in its folder,
renamed over the old one when the writing succeeded. A file the command reads (the
spec, its base, its variants) is never an output.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..lang import ir
from ..lang.diagnostics import SpecError
from ..lang.pipeline import load_spec

SPEC_SUFFIXES = (".yaml", ".yml")
_SPEC_LIKE = re.compile(r"(rulespec|extends)\s*:")


class OutputError(Exception):
    """An output file that may not, or cannot, be written."""


def named_spec(name: str, naming_file: str | Path, variants: Iterable[str] = ()) -> ir.Spec:
    """The spec a document names, with the variants it names (files, or names of
    variants next to the spec). Raises ValueError for a name that is no YAML file, and
    SpecError (one problem at most for a file that is not a spec) for a bad one."""
    folder = Path(naming_file).parent
    path = _named(folder, name)
    variant_files = [str(_named(folder, v)) if v.endswith(SPEC_SUFFIXES) else v for v in variants]
    try:
        return load_spec(path, variants=variant_files)
    except FileNotFoundError as exc:  # a variant name with no file next to the spec
        raise ValueError(str(exc)) from None
    except SpecError as exc:
        raise _discreet(exc) from None


def _named(folder: Path, name: str) -> Path:
    path = folder / name
    if path.suffix not in SPEC_SUFFIXES:
        raise ValueError(f"'{name}' is not a YAML file (.yaml or .yml)")
    try:
        found = path.is_file()
    except (OSError, ValueError):  # a name the system refuses: too long, a NUL in it
        found = False
    if not found:
        raise ValueError(f"'{name}' is not a file (looked for {path})")
    return path


def _discreet(exc: SpecError) -> SpecError:
    """exc, keeping of each file that does not look like a spec only its first problem."""
    kept, shown = [], set()
    for d in exc.diagnostics:
        lines = exc.sources.get(d.span.file)
        if lines is None or any(_SPEC_LIKE.match(line) for line in lines):
            kept.append(d)
        elif d.span.file not in shown:
            shown.add(d.span.file)
            kept.append(
                dataclasses.replace(
                    d,
                    hint="this file does not look like a spec: "
                    "it has no top-level 'rulespec:' or 'extends:'",
                )
            )
    return SpecError(kept, exc.sources)


def check_output(path: str, inputs: Iterable[str | Path] = ()) -> None:
    """Raise OutputError when path may not be written: no name, a folder, an input."""
    if not path:
        raise OutputError("an empty file name")
    if os.path.isdir(path):
        raise OutputError(f"{path} is a folder")
    for given in inputs:
        if _same(path, given):
            also = "" if str(given) == path else f" (as {given})"
            raise OutputError(f"refusing to overwrite {path}: the command reads it{also}")


def _same(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet)
        return os.path.realpath(a) == os.path.realpath(b)


@contextmanager
def replacing(path: str, inputs: Iterable[str | Path] = ()) -> Iterator[Path]:
    """A new file to write in place of path: it becomes path when the block ends
    without an error, and is removed otherwise, so path is never left half-written.
    A device or pipe (/dev/stdout) is written directly. An OSError of the writing
    becomes an OutputError."""
    check_output(path, inputs)
    target = Path(os.path.realpath(path))  # through a link: replace the file it names
    temporary = None
    try:
        if os.path.exists(path) and not os.path.isfile(path):  # /dev/stdout, even as a pipe
            yield Path(path)
            return
        handle, name = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.stem}-", suffix=target.suffix
        )  # renderers go by the suffix
        os.close(handle)
        temporary = Path(name)
        yield temporary
        os.chmod(temporary, _mode(target))
        os.replace(temporary, target)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if temporary is not None:
            temporary.unlink(missing_ok=True)  # gone already when it was renamed


def _mode(target: Path) -> int:
    """The old file's permissions, or a new file's (as open() would give it)."""
    if target.exists():
        return target.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
