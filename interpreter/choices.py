"""Choice points: who acts, and the options they have.

As in OpenSpiel, the one to act is a seat number, CHANCE or TERMINAL; options are a
stable list sorted by label, and options that do the same thing (the same card type,
targets and parameters) are one option (RULINGS C-3).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable, NamedTuple

CHANCE = -1
TERMINAL = -2


def seat_name(p: int) -> str:
    return f"P{p + 1}"


class Option(NamedTuple):
    """One legal choice: its stable label, what it does, and (chance only) its weight.
    A named tuple, because options are made by the thousand on the hot path."""

    label: str
    value: object = None
    weight: int = 1

    def __str__(self) -> str:
        return self.label


# make_option((label, value, weight)): an Option without the named tuple's Python-level
# __new__, for the hot path
make_option = partial(tuple.__new__, Option)


def first_of_each_type(cards, ctype, types=None) -> dict[int, int]:
    """Card type -> the first of `cards` of that type (only types in `types`, if given).
    Cards of one type do the same thing, so one stands for all of them (C-3)."""
    first: dict[int, int] = {}
    for c in cards:
        t = ctype[c]
        if t not in first and (types is None or t in types):
            first[t] = c
    return first


@dataclass(slots=True)
class ChoicePoint:
    player: int                          # a seat, or CHANCE
    kind: str                            # play | react | choose | card | chance
    options: list[Option]
    resume: Callable                     # resume(game, env, option); closes over no state
    env: dict | None = None              # the paused effect's locals, kept as data
