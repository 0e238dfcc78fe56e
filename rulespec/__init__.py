"""rulespec: a declarative rules language for card games."""
from .compiler import load_spec
from .diagnostics import Diagnostic, Span, SpecError

__all__ = ["load_spec", "Diagnostic", "Span", "SpecError"]
__version__ = "0.1.0"
