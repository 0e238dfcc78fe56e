"""Choice points: who acts, the options they have, and why a choice is refused.

As in OpenSpiel, the one to act is a seat number, CHANCE or TERMINAL; options are a
stable list sorted by label, and options that do the same thing (the same card type,
targets and parameters) are one option (RULINGS C-3).

An option is a small frozen record whose fields say what it does. Most are made once
per game definition and shared by every state, so they compare by identity; an option
is also found by its label, so one taken from a clone applies to the original.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

CHANCE = -1
TERMINAL = -2


def seat_name(p: int) -> str:
    return f"P{p + 1}"


NOBODY_AT_REST = -1  # how a counter (an observation, a log) holds the player `nobody`


def seat_said(p: int) -> str:
    """A player value as the table says it: its seat's name, or nobody."""
    return "nobody" if p == NOBODY_AT_REST else seat_name(p)


@dataclass(frozen=True, slots=True, eq=False)
class Option:
    """One legal choice, known by its stable label."""

    label: str

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True, eq=False)
class Play(Option):
    """Play an action, with a card of a type from the hand (or none), at a target:
    a seat, (`target: card`) the card `chosen` from where it lies, or (`target: zone`)
    a zone, by its slot."""

    action: str
    card_type: int | None = None
    target: int | None = None
    chosen: int | None = None
    zone: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class GroupPlay(Play):
    """Play an action with a group of cards from the hand as one move (`count:`): the
    group's card types, one a card, in type order (cards of one type are alike, C-3).
    Which cards a player plays is theirs to know: the choice is logged as a secret one,
    and the play shows its cards to those who see the hand or where the cards go."""

    group: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class Pass(Option):
    """Pass an optional step."""


@dataclass(frozen=True, slots=True, eq=False)
class React(Option):
    """Answer the action (or answer) being played with a reaction, and a card of a type
    unless the reaction needs none."""

    reaction: str
    card_type: int | None


@dataclass(frozen=True, slots=True, eq=False)
class NoReaction(Option):
    """Let the action be."""


@dataclass(frozen=True, slots=True, eq=False)
class Branch(Option):
    """One branch of a `choose`: its place among the statement's branches."""

    index: int


@dataclass(frozen=True, slots=True, eq=False)
class PickCard(Option):
    """A card chosen by a player (`choose c from ...`): one of its type and zone stands
    for the others there. Labelled by its type (`seven`), and by its zone as well
    (`seven from discard[1]`, `place` the zone's label) when cards of its type lie in
    another zone among the choice's too: taking one from here or from there is not
    the same move."""

    card: int
    place: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class PickUnseen(Option):
    """A card chosen by its place, from a zone its chooser cannot see (`choose c from
    ...`): labelled by the zone's label (`down[1]`), never by a card. Chance then picks
    which of the cards there it is, as a hand picks a face-down card."""

    slot: int


@dataclass(frozen=True, slots=True, eq=False)
class PickCards(Option):
    """A set of cards chosen by a player (`choose s from combinations(...)`), labelled
    by its card types joined by '+': the cards that stood for the set when offered."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True, eq=False)
class PickValue(Option):
    """A value chosen by a player: a number (`choose n from 0..3`, a secret choice,
    labelled `n = 3` so that a person at the table cannot take it for the option's
    place in the list; or `choose i from range(n)`, labelled `3`) or a kind named
    whether or not any card of it is at hand (`choose k from card_types`, or from
    `values("suit")`), labelled with its name."""

    value: object


@dataclass(frozen=True, slots=True, eq=False)
class PickPlayer(PickValue):
    """A player chosen by a player (`choose(p) q from others(p)`), labelled with its
    seat (`P2`); its value is the seat's number, from 0."""


@dataclass(frozen=True, slots=True, eq=False)
class Outcome(Option):
    """A chance outcome: a card of a type drawn at random from a zone (the first card
    of the type stands for all, C-3), or a seat drawn at random."""

    card_type: int | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Order(Option):
    """A chance outcome of a shuffle: the zone's new order, bottom to top. A shuffle is
    sampled, never enumerated (its outcomes are every ordering of the zone)."""

    cards: tuple[int, ...]


PASS = Pass("pass")
NO_REACTION = NoReaction("no reaction")
SECRET_KINDS = frozenset(
    {"card", "cards", "number"}
)  # decisions whose option only the chooser sees in the log


class Rejection(str, Enum):
    """Why a choice or a request was refused: stable codes, as boardgame.io's errors."""

    INVALID_CHOICE = "action/invalid_choice"
    GAME_OVER = "game/over"
    CHANCE_NOT_TO_ACT = "chance/not_to_act"
    CHANCE_SAMPLED = "chance/sampled"


class IllegalChoice(ValueError):
    """A choice or request the state refuses; `code` is a Rejection."""

    def __init__(self, message: str, code: Rejection = Rejection.INVALID_CHOICE):
        super().__init__(message)
        self.code = code


def card_picks(cards, table, names, keep=None) -> list[PickCard]:
    """The options of a choice among `cards`: one for each card type in each zone they
    lie in, of those `keep` lets through (it is given a card), the first card of it
    there that it lets through standing for the others (C-3: alike, unless they carry
    counters of their own, or the filter reads their place); a type found in several
    zones is labelled with each zone's label. `table` gives where each card lies and
    its type."""
    loc, ctype, first = table._loc, table._ctype, {}
    for c in cards:
        key = (ctype[c], loc[c])
        if key not in first and (keep is None or keep(c)):
            first[key] = c
    if len(first) > 1 and len({t for t, _ in first}) < len(first):  # a type in two zones
        spread, slots = Counter(t for t, _ in first), table.game.slots
        return [
            PickCard(f"{names[t]} from {slots[z].label}", c, slots[z].label)
            if spread[t] > 1
            else PickCard(names[t], c)
            for (t, z), c in first.items()
        ]
    return [PickCard(names[t], c) for (t, _), c in first.items()]


def first_of_each_type(cards, ctype, types=None) -> dict[int, int]:
    """Card type -> the first of `cards` of that type (only types in `types`, if given).
    Cards of one type do the same thing, so one stands for all of them (C-3)."""
    first: dict[int, int] = {}
    for c in cards:
        t = ctype[c]
        if t not in first and (types is None or t in types):
            first[t] = c
    return first


def group_of_types(cards, ctype, group: tuple[int, ...]) -> list[int]:
    """The first of `cards` of each type of a group, as many of a type as the group
    names, in the order of `cards`: the cards that stood for the group when offered."""
    need: dict[int, int] = {}
    for t in group:
        need[t] = need.get(t, 0) + 1
    out = []
    for c in cards:
        t = ctype[c]
        if need.get(t):
            need[t] -= 1
            out.append(c)
    if len(out) != len(group):
        raise IllegalChoice("the group's cards are no longer where they were offered")
    return out


def groups(held: list, low: int, high: int):
    """Every multiset of low to high of the (type, copies held) pairs, as a tuple of
    types in type order, smaller groups first, each size in lexicographic order."""
    left = [0] * (len(held) + 1)  # the copies held of the types from i on
    for i in range(len(held) - 1, -1, -1):
        left[i] = left[i + 1] + held[i][1]
    for size in range(max(low, 1), high + 1):
        yield from _groups_of_size(held, left, 0, size)


def _groups_of_size(held: list, left: list, i: int, size: int):
    if size == 0:
        yield ()
        return
    if left[i] < size:  # the types left cannot fill the group
        return
    t, copies = held[i]
    for k in range(min(copies, size), -1, -1):
        for rest in _groups_of_size(held, left, i + 1, size - k):
            yield (t,) * k + rest


def first_of_type(cards, ctype, t: int) -> int:
    """The first of `cards` of type t: the one that stood for its type when offered."""
    for c in cards:
        if ctype[c] == t:
            return c
    raise IllegalChoice("no card of that type where it was offered")


class Together(tuple):
    """A simultaneous choice's pending data: the seats still to be asked after the one
    asked now, in order (State.deciding_together)."""


class Apart(Together):
    """The same, where each seat picks from cards of its own (`hand(p)`): no seat's
    options depend on what another picks (State.deciding_apart)."""


@dataclass(slots=True)
class ChoicePoint:
    player: int  # a seat, or CHANCE
    kind: str  # play | react | choose | card | number | chance | shuffle
    options: list[Option]  # empty for a sampled chance point (a shuffle)
    resume: Callable  # resume(state, point, option); closes over no state
    env: dict | None = None  # the paused effect's locals, kept as data
    weights: tuple[int, ...] | None = None  # chance: each outcome's weight
    sample: Callable | None = None  # sampled chance: sample(state, point, rng) -> Option
    data: tuple | None = None  # plain data the resume needs (a draw's zones, ...)
    asking: str | None = None  # the rule, step or procedure that asks: a view names it
    # again(state, point): ask it again from the table as it now lies, when a re-deal
    # changed what the one asked holds (State.redeal); None: nothing it offers can change
    again: Callable | None = None
    prompt: str = ""  # the choice's own question (`choose(p, "…")`); "": its rule's prompt
    # refused(state, point): by name, what a choice is made from that its filter (`if …`)
    # refuses, of what its chooser can tell apart (State.decision_refused); None: no filter
    refused: Callable | None = None
