"""rulespec: a declarative rules language for card games.

The names below load on first use, so that the runtime, which needs only
`rulespec.lang.ir`, does not pull in the front end (YAML, schema, grammar) with it;
`__version__` too, as reading the installed metadata takes longer than a command's
start-up can spare.
"""

__all__ = ["Diagnostic", "Span", "SpecError", "load_spec"]


def __getattr__(name):
    if name == "load_spec":
        from .lang.pipeline import load_spec

        return load_spec
    if name in ("Diagnostic", "Span", "SpecError"):
        from .lang import diagnostics

        return getattr(diagnostics, name)
    if name == "__version__":
        global __version__
        __version__ = _version()
        return __version__
    raise AttributeError(f"module 'rulespec' has no attribute {name!r}")


def _version() -> str:
    """The one version string, pyproject.toml's, read from the installed metadata."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulespec")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"
