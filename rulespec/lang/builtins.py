"""The built-in vocabulary of the expression language, as data.

The front end checks calls against these signatures; the interpreter implements them.
A parameter type listed as "a|b" accepts either; one ending in "?" may be left out
(the last ones only). `zone` is accepted where `cards` is asked for, and `player` where
`players` is.
"""

from __future__ import annotations

# name: (parameter types, result type, one-line doc)
FUNCTIONS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "size": (
        ("cards|players|ints|kinds",),
        "int",
        "number of cards in a set or zone, or of players, numbers or kinds in a set",
    ),
    "count": (("cards", "kind"), "int", "number of cards of a type or tag"),
    "top": (("zone", "int"), "cards", "the top n cards of an ordered zone"),
    "random": (("zone", "int"), "cards", "n cards picked by chance (only as move's source)"),
    "one": (("cards", "kind"), "cards", "one card of a type or tag (which copy does not matter)"),
    "of": (("cards", "kind"), "cards", "every card of a type or tag"),
    "others": (("player",), "players", "the active players other than this one"),
    "partners": (
        ("player",),
        "players",
        "the active players of this one's team but itself (none without teams)",
    ),
    "team": (
        ("player",),
        "players",
        "every seat of this one's team, itself and those out included, in the order of "
        "seats (itself alone without teams)",
    ),
    "next": (("player",), "player", "the next active player in turn order"),
    "prev": (("player",), "player", "the previous active player in turn order"),
    "random_player": (
        ("players",),
        "player",
        "a player picked by chance (only as a let's value or set_current's argument)",
    ),
    "without": (("cards", "cards"), "cards", "the first cards less the second"),
    "kind_of": (("cards",), "kind", "the card type of the (first) card; none for no card"),
    "prop": (
        ("cards|kind", "str"),
        "prop",
        "a property of the (first) card, or the one every card of a kind shares, typed by "
        "the values the deck declares: a number, a card kind, or text",
    ),
    "values": (
        ("str",),
        "values",
        "every value a card property takes: its kinds in deck order, or its numbers from "
        "lowest, for a for loop or a choice",
    ),
    "seat": (("int",), "player", "the player in seat n (counted from 0, modulo player_count)"),
    "seat_number": (("player",), "int", "a player's seat number, counted from 0"),
    "extra_turns_owed": (
        ("player",),
        "int",
        "the extra turns a player is still to take (extra_turn), the turn being played not counted",
    ),
    "turns_to_skip": (("player",), "int", "the turns a player is still to miss (skip_turn)"),
    "next_goal": (("goal", "player"), "kind", "the kind a player collects next (none when done)"),
    "goal_done": (("goal", "player"), "bool", "true when every limit of the goals is reached"),
    "goal_score": (
        ("goal", "player"),
        "int",
        "cards collected toward the goals, each kind counted up to its limit",
    ),
    "min": (("int", "int"), "int", "the smaller of two numbers"),
    "max": (("int", "int"), "int", "the larger of two numbers"),
    "range": (
        ("int", "int?"),
        "ints",
        "the numbers 0 to n - 1, or with two, a to b - 1: for a for loop or a choice (at most 64)",
    ),
    "zone_of": (("cards",), "zone", "the zone the (first) card lies in; no zone for no card"),
    "index_of": (
        ("zone",),
        "int",
        "a zone's place in its family of zones, from 0 (index_of(row(2)) is 2): a chosen "
        "zone's counter in a family of counters alongside",
    ),
    "first": (
        ("cards|players|kinds|ints", "int"),
        "items",
        "the first n cards, players, kinds or numbers of a set, in its order (with sort: "
        "the best n)",
    ),
    "nth": (
        ("cards|players|kinds|ints", "int"),
        "cards",
        "the card at place n of a set (from 0), or no card; of kinds, the kind there, or "
        "no_kind; of players or numbers, the one there (a set without one stops the game)",
    ),
    "above": (
        ("cards",),
        "cards",
        "the cards lying on the (first) card in its ordered zone, nearest first; none in a "
        "zone that is not ordered",
    ),
    "combinations": (
        ("cards", "int", "int?"),
        "cardsets",
        "every set of n of the cards, or with two numbers, of a to b cards, smallest first: "
        "for an aggregate, a for loop or a choice (at most 1024)",
    ),
    "summing": (
        ("cards", "str", "int"),
        "cardsets",
        "every set of the cards whose values of the number property add up to n, smallest "
        "first (at most 1024 sets)",
    ),
    "unmelded": (
        ("cards", "str", "str"),
        "cards",
        "the cards left over when the cards are laid out in melds, groups for each of "
        "which the named condition holds, so as to leave the least total of the number "
        "property (at most 12 cards)",
    ),
}

# Names that stand for a value of the game's state.
CONSTANTS: dict[str, tuple[str, str]] = {
    "current": ("player", "the player whose turn it is"),
    "players": ("players", "the active players, in turn order from the current player"),
    "seats": (
        "players",
        "every seat, those out of the game or the round included, in turn order from the "
        "current player",
    ),
    "sides": (
        "players",
        "one seat of each team, its first in turn order from the current player (every "
        "seat, where the spec has no teams): `for p in sides` goes over the teams, "
        "`score(p)` and `meld(p)` being the team's",
    ),
    "player_count": ("int", "the number of seats in the game"),
    "game_index": ("int", "which game of a match this is, counted from 0"),
    "round_index": ("int", "which round of the game this is, counted from 0"),
    "turn_number": (
        "int",
        "the turn being played, counted from 1 over the whole game (0 in the setup, before "
        "the first turn)",
    ),
    "card_types": (
        "kinds",
        "every card type the deck holds a card of (at this player count), in deck order, "
        "for a for loop or a choice",
    ),
    "no_kind": (
        "kind",
        "the kind that matches no card: what a counter that holds a kind holds before one is named",
    ),
    "nobody": (
        "player",
        "the player value that is no player: what a counter that holds a player holds before "
        "one is named (compare with == and !=; used as a player, it stops the game)",
    ),
}

# Aggregates: func(body for var in items [if cond]), over players, cards, numbers (ints),
# card types (kinds) or sets of cards (cardsets): name: (body type, result type, doc). A
# result of "items" is a set of the kind the items are.
AGGREGATES: dict[str, tuple[str, str, str]] = {
    "any": ("bool", "bool", "true when the body holds for some item"),
    "all": ("bool", "bool", "true when the body holds for every item"),
    "sum": ("int", "int", "the sum of the body over the items"),
    "max": ("int", "int", "the highest value of the body; 0 for no items"),
    "min": ("int", "int", "the lowest value of the body; 0 for no items"),
    "count": ("bool", "int", "the number of items for which the body holds"),
    "argmax": ("int", "items", "the items for which the body is highest"),
    "argmin": ("int", "items", "the items for which the body is lowest"),
    "filter": ("bool", "items", "the items for which the body holds"),
    "union": ("cards", "cards", "all the cards the body gives, over the items"),
    "sort": ("int", "items", "the items in order of the body, lowest first (ties as they were)"),
}
# The aggregates whose body may be a ranking, `(a, b, ...)`: compared by a, ties by b, ...
RANKED = ("argmax", "argmin", "sort")

# Procedures are statements: name: (parameter types, doc).
PROCEDURES: dict[str, tuple[tuple[str, ...], str]] = {
    "move": (("cards", "zone"), "move cards to a zone (onto the top of an ordered one)"),
    "insert": (("cards", "zone", "int"), "move cards to a depth of a zone (0: the top)"),
    "swap": (
        ("zone", "zone"),
        "trade the cards of two zones: each one's cards go to the other, in their order",
    ),
    "reveal": (
        ("cards|int", "players"),
        "show cards to players while they stay where they are, or tell them a secret number",
    ),
    "shuffle": (("zone",), "shuffle a zone with the game's seeded RNG"),
    "refill": (
        ("zone",),
        "refill an empty zone from its refill_from zone now, as a draw from it would, so that "
        "a top() read finds the cards a draw would take",
    ),
    "react": (
        ("players",),
        "open a reaction window against this action or answer, the players asked in turn order "
        "(react(players, window): a named window, offering only its reactions)",
    ),
    "win": (("players",), "end the game; these players win"),
    "end_game": ((), "end the game with no winner"),
    "eliminate": (("player",), "take a player out of the game"),
    "sit_out": (("player",), "take a player out until the round ends"),
    "end_turn": ((), "end the current turn at once; the next player's turn begins"),
    "set_current": (("player",), "make this player the one whose turn it is"),
    "reverse": ((), "flip the direction of play"),
    "skip_turn": (("player",), "the player's next turn is skipped (skips stack)"),
    "skip_turns": (("player", "int"), "the player's next n turns are skipped"),
    "extra_turn": (("player",), "the player takes one more turn after their next one"),
    "extra_turns": (("player", "int"), "the player takes n more turns after their next one"),
    "cancel_extra_turns": (("player",), "the player's extra turns still to come are dropped"),
    "set_next": (("player",), "this player takes the next turn, once this one ends"),
    "say": (
        ("str",),
        'tell every seat something in words, as the narration\'s next line ("Go fish!"): '
        "it changes nothing",
    ),
}

# The procedures that pause the game are declared with the IR (ir.PAUSES): the runtime
# reads them there, as it may import nothing else of the front end.

# Functions whose value is decided by chance, and where each may stand.
CHANCE = {
    "random": "the first argument of move",
    "random_player": "the value of a let or the argument of set_current",
}

# The words of the grammar (grammar.lark), the one list of them: tests/test_keywords.py
# checks that the grammar has these and no others. A word marked True is lexed as a
# keyword wherever it stands, so it can never be a name; one marked False only where the
# grammar expects it (after `if … `, in `simultaneously(…) p chooses c from … by …`),
# so that a spec written before the word was reserved keeps reading it as its own name.
GRAMMAR_KEYWORDS: dict[str, bool] = {
    "let": True,
    "if": True,
    "then": False,
    "else": True,
    "for": True,
    "in": True,
    "while": True,
    "choose": True,
    "from": True,
    "simultaneously": False,
    "chooses": False,
    "by": False,
    "and": True,
    "or": True,
    "not": True,
    "true": True,
    "false": True,
}

# Names the sections bind (and `any`, every card type): reserved with the keywords.
ROLES = {"any", "me", "chosen", "reactor", "answer", "target", "card"}

KEYWORDS = set(GRAMMAR_KEYWORDS) | ROLES

# Names a spec could take before a later version of the language reserved them, with the
# version that reserved each. A spec's own name among them keeps its meaning with an
# RS212 warning whose hint is `rulespec migrate`, which renames it. Language v2 reserved
# the names below less those the first release had; Language v3 the rest.
RESERVED_SINCE: dict[str, int] = {
    **dict.fromkeys(
        (
            "prev",
            "range",
            "skip_turn",
            "skip_turns",
            "extra_turn",
            "extra_turns",
            "set_next",
            "sit_out",
            "reveal",
            "insert",
            "round_index",
            "card_types",
            "then",
        ),
        2,
    ),
    **dict.fromkeys(
        (
            "simultaneously",
            "chooses",
            "by",
            "seats",
            "zone_of",
            "index_of",
            "first",
            "nth",
            "combinations",
            "sort",
            "no_kind",
            "refill",
            "values",
            "above",
            "unmelded",
            "summing",
            "swap",
            "cancel_extra_turns",
            "partners",
            "say",
            "turn_number",
            "sides",
            "nobody",
            "extra_turns_owed",
            "turns_to_skip",
            "team",
        ),
        3,
    ),
}
RESERVED_IN_V2 = frozenset(n for n, v in RESERVED_SINCE.items() if v == 2)
RESERVED_IN_V3 = frozenset(n for n, v in RESERVED_SINCE.items() if v == 3)


def written(params: tuple[str, ...]) -> str:
    """A function's parameters as its docs write them: `int, int` or `int[, int]`."""
    return "".join(
        f"[, {p[:-1]}]" if p.endswith("?") else f", {p}" if i else p for i, p in enumerate(params)
    )


def accepts(want: str, got: str) -> bool:
    for w in want.split("|"):
        if w == got or (w == "cards" and got == "zone") or (w == "players" and got == "player"):
            return True
    return False
