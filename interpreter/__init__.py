"""The runtime: plays any game compiled from a rulespec spec.

`Game` is the definition (a spec compiled for a player count, OpenSpiel's Game) and
`State` a game in play (OpenSpiel's State); see docs/python.md.
"""

from .choices import (
    CHANCE,
    TERMINAL,
    IllegalChoice,
    Option,
    Order,
    Outcome,
    PickCard,
    PickCards,
    Play,
    React,
    Rejection,
    seat_name,
)
from .codegen import RuleError
from .game import LOG_FORMAT, Game
from .state import State

__all__ = [
    "CHANCE",
    "LOG_FORMAT",
    "TERMINAL",
    "Game",
    "IllegalChoice",
    "Option",
    "Order",
    "Outcome",
    "PickCard",
    "PickCards",
    "Play",
    "React",
    "Rejection",
    "RuleError",
    "State",
    "seat_name",
]
