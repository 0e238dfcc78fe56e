"""load_spec: a spec file to its IR, through the front end, or as an earlier run made it.

The pipeline is loading.py (YAML text -> positioned tree), variants.py (what the spec
extends, and variants merged in), schema.py and compiler.py (-> IR). A spec read from
its file as it is, without variants, that compiled clean (warnings allowed) is kept in
the user's cache folder (cache.py), as ruff keeps a file's results. The next run that
reads the same text under the same file name, with every file it extends the same
(by content, and by where its name leads, symbolic links followed), compiled by the
same front end (its files' contents as the process imported them, the YAML, grammar
and schema libraries' files, Python's version), reads the IR back and loads no parser.
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

from . import SOURCE, ir, source, stamps
from . import cache as kept
from .diagnostics import SpecError

_KEPT = 64  # specs kept: past that, the least recently used goes
_FRONT_END = Path(__file__).resolve().parent
_LIBRARIES = ("yaml", "lark", "jsonschema", "referencing", "jsonschema_specifications")

# an entry: ((file name, the file it leads to, digest of its text) for each file the spec
# was read from, itself first; its IR)
Entry = tuple[tuple[tuple[str, str, str], ...], ir.Spec]


def load_spec(path: str | Path, text: str | None = None, variants=()) -> ir.Spec:
    """The spec's IR; raises SpecError with every problem found. `path` may name a
    bundled game (`my_game`) where no file of that name exists."""
    if text is None:
        path = source.bundled(path) or path  # a name that is neither: RS001 names it
    if text is not None or variants or str(path) == source.STDIN:
        return _compiled(path, text, variants)[0]
    text = source.text(path)
    file = _kept_file(str(path), text)
    entry = _read_back(file)
    if entry is not None:
        return entry[1]
    spec, files = _compiled(path, text, ())
    _keep(file, spec, files)
    return spec


def spec_files(path: str | Path, variants=()) -> list[str]:
    """Every file a spec with these variants is read from: itself, the files it extends,
    the variants and theirs (for a spec kept in the cache, as its entry lists them,
    without reading YAML)."""
    if not variants and str(path) != source.STDIN:
        with contextlib.suppress(SpecError):  # said by the load that follows
            entry = _read_back(_kept_file(str(path), source.text(path)))
            if entry is not None:
                return [name for name, _, _ in entry[0]]
    from .variants import load_composed

    return list(load_composed(str(path), list(variants)).all_sources())


def _compiled(path, text, variants) -> tuple[ir.Spec, list[str]]:
    """The IR through the whole front end, and every file it was read from."""
    from .compiler import compile_document
    from .loading import load
    from .variants import load_composed, resolve

    doc = load_composed(str(path), list(variants)) if variants else resolve(load(path, text))
    return compile_document(doc), list(doc.all_sources())


@cache
def _front_end() -> tuple[str, ...] | None:
    """What the IR of a text depends on besides its files: None when that cannot be told
    (a library not installed as files), and nothing is kept."""
    libraries = stamps.packages(*_LIBRARIES)
    if SOURCE is None or libraries is None:
        return None
    return (sys.version, str(_FRONT_END), SOURCE, *libraries)


def _kept_file(file: str, text: str) -> Path | None:
    """Where the IR of this text, read from this file name, is kept."""
    made_from = _front_end()
    return None if made_from is None else kept.path("spec", *made_from, file, text)


def _read_back(file: Path | None) -> Entry | None:
    """The entry kept in file, when every file the spec was read from is as it was."""
    entry = kept.read(file, pickle.load)
    if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], ir.Spec)):
        return None
    try:
        if any(_identity(name) != (leads_to, digest) for name, leads_to, digest in entry[0]):
            return None
    except Exception:  # a file gone or unreadable: compile it again, to say why
        return None
    with contextlib.suppress(OSError):
        os.utime(file)  # recently used: the last to go
    return entry


def _keep(file: Path | None, spec: ir.Spec, files: list[str]) -> None:
    """Keep the IR with what each file it was read from is, as long as each is still
    what the compiler read, and the front end's files are as they were imported."""
    from .loading import loaded_text

    if file is None:
        return
    try:
        identities = [(name, *_identity(name)) for name in files]
        if any(_digest(loaded_text(name) or "") != digest for name, _, digest in identities):
            return  # changed while it compiled
        if stamps.digest(_FRONT_END) != SOURCE:
            return  # changed since this process imported it
    except Exception:
        return
    entry: Entry = (tuple(identities), spec)
    kept.write(file, lambda out: pickle.dump(entry, out, protocol=5), keep=_KEPT)


def _identity(name: str) -> tuple[str, str]:
    """The file a name leads to (links followed: a variant's circle is found so), and
    the digest of its text."""
    return os.path.realpath(name), _digest(source.text(name))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
