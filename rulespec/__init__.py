"""rulespec: a declarative rules language for card games.

The names below load on first use, so that the runtime, which needs only
`rulespec.lang.ir`, does not pull in the front end (YAML, schema, grammar) with it.
"""
__all__ = ["load_spec", "Diagnostic", "Span", "SpecError"]
__version__ = "0.1.0"


def __getattr__(name):
    if name == "load_spec":
        from .lang.compiler import load_spec
        return load_spec
    if name in ("Diagnostic", "Span", "SpecError"):
        from .lang import diagnostics
        return getattr(diagnostics, name)
    raise AttributeError(f"module 'rulespec' has no attribute {name!r}")
