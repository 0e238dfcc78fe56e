"""rulespec: a declarative rules language for card games.

The names below load on first use, so that the runtime, which needs only
`rulespec.lang.ir`, does not pull in the front end (YAML, schema, grammar) with it.
"""

__all__ = ["Diagnostic", "Span", "SpecError", "load_spec"]
try:  # the one version string is pyproject.toml's, read from the installed metadata
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _version

    __version__ = _version("rulespec")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"


def __getattr__(name):
    if name == "load_spec":
        from .lang.compiler import load_spec

        return load_spec
    if name in ("Diagnostic", "Span", "SpecError"):
        from .lang import diagnostics

        return getattr(diagnostics, name)
    raise AttributeError(f"module 'rulespec' has no attribute {name!r}")
