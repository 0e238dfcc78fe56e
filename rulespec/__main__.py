"""`python -m rulespec`: the same command as `rulespec`."""

from .cli import entry

entry()
