"""The language front end: YAML with positions -> schema -> expressions -> IR -> semantic checks. Imports no runtime."""

from pathlib import Path as _Path

from .stamps import digest as _digest

# The front end's files as this process imports them: the code that compiles a spec here,
# which names the IR kept for it (pipeline.py). None: they cannot be read, nothing is kept.
try:
    SOURCE: str | None = _digest(_Path(__file__).parent)
except OSError:
    SOURCE = None
