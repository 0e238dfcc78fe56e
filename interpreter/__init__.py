"""The runtime: plays any game compiled from a rulespec spec."""
from .choices import CHANCE, TERMINAL, ChoicePoint, Option, seat_name
from .codegen import RuleError
from .game import Game, IllegalChoice
from .rules import Rules

__all__ = ["CHANCE", "TERMINAL", "ChoicePoint", "Option", "Game", "IllegalChoice", "Rules",
           "RuleError", "seat_name"]
