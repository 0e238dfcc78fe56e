"""load_spec: a spec file to its IR, through the front end, or as an earlier run made it.

The pipeline is loading.py (YAML text -> positioned tree), variants.py (what the spec
extends, and variants merged in), schema.py and compiler.py (-> IR). A spec read from
its file as it is, without variants, that compiled clean (warnings allowed) is kept in
the user's cache folder (cache.py), as ruff keeps a file's results: the next run that
finds the same file (same text, read from the same folder under the same name), the
same files it extends, and the same front end (its own files, the YAML, grammar and
schema libraries' and Python's version) reads the IR back and loads no parser at all.
A spec with errors is never kept: its diagnostics are made every time. A spec given as
text (standard input, the editor's unsaved buffer) or with variants is compiled every
time too, so that neither fills the folder with what is seen once.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
from functools import cache
from pathlib import Path

from . import cache as kept
from . import ir, source
from .diagnostics import SpecError

_KEPT = 64  # specs kept: past that, the least recently used goes
_FRONT_END = Path(__file__).resolve().parent
_LIBRARIES = ("yaml", "lark", "jsonschema", "referencing")


def load_spec(path: str | Path, text: str | None = None, variants=()) -> ir.Spec:
    """The spec's IR; raises SpecError with every problem found."""
    if text is not None or variants or str(path) == source.STDIN:
        return _compiled(path, text, variants)[0]
    text = source.text(path)
    file = _kept_file(str(path), text)
    entry = _read_back(file)
    if entry is not None:
        return entry[1]
    spec, sources = _compiled(path, text, ())
    _keep(file, spec, {f: lines for f, lines in sources.items() if f != str(path)})
    return spec


def spec_files(path: str | Path, variants=()) -> list[str]:
    """Every file a spec with these variants is read from: itself, the files it extends,
    the variants and theirs (for a spec kept in the cache, as its entry lists them,
    without reading YAML)."""
    if not variants and str(path) != source.STDIN:
        with contextlib.suppress(SpecError):  # said by the load that follows
            entry = _read_back(_kept_file(str(path), source.text(path)))
            if entry is not None:
                return [str(path), *(f for f, _ in entry[0])]
    from .variants import load_composed

    return list(load_composed(str(path), list(variants)).all_sources())


def _compiled(path, text, variants) -> tuple[ir.Spec, dict[str, list[str]]]:
    """The IR through the whole front end, and the lines of every file it was read from."""
    from .compiler import compile_document
    from .loading import load
    from .variants import load_composed, resolve

    doc = load_composed(str(path), list(variants)) if variants else resolve(load(path, text))
    return compile_document(doc), doc.all_sources()


@cache
def _front_end() -> tuple[str, ...] | None:
    """What the IR of a text depends on besides the text: None when that cannot be told
    (a library not installed as files), and nothing is kept."""
    libraries = kept.packages(*_LIBRARIES)
    try:
        own = kept.stamp(_FRONT_END, (".py", ".lark")) + kept.stamp(
            _FRONT_END / "schemas", (".json",)
        )
    except OSError:
        return None
    return None if libraries is None else (sys.version, *own, *libraries)


def _kept_file(file: str, text: str) -> Path | None:
    """Where the IR of this text, read from this file name in this folder, is kept."""
    made_from = _front_end()
    if made_from is None:
        return None
    try:
        here = os.getcwd()  # a relative file name is read from here, and spans name it
    except OSError:
        return None
    return kept.path("spec", *made_from, here, file, text)


def _read_back(file: Path | None) -> tuple[tuple[tuple[str, str], ...], ir.Spec] | None:
    """The entry kept in file, (each other file the spec was read from with its digest,
    the IR), when every such file is as it was then."""
    entry = kept.read(file, pickle.load)
    if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], ir.Spec)):
        return None
    try:
        if any(_digest(source.text(f)) != digest for f, digest in entry[0]):
            return None
    except Exception:  # a file gone or unreadable: compile it again, to say why
        return None
    with contextlib.suppress(OSError):
        os.utime(file)  # recently used: the last to go
    return entry


def _keep(file: Path | None, spec: ir.Spec, others: dict[str, list[str]]) -> None:
    """Keep the IR, with the digest of each other file it was read from (what it
    extends), as long as each is still what the compiler read."""
    if file is None:
        return
    digests = []
    for f, lines in others.items():
        try:
            text = source.text(f)
        except Exception:
            return
        if (text.splitlines() or [""]) != lines:  # changed while it compiled
            return
        digests.append((f, _digest(text)))
    kept.write(file, lambda out: pickle.dump((tuple(digests), spec), out, protocol=5))
    kept.prune(file.parent, "spec-", _KEPT)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
