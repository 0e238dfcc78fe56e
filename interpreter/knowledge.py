"""What a seat knows of a zone it cannot see (RULINGS C-6), from what it saw happen.

A seat sees a hidden zone's size. Beyond that it knows only what it was shown: a card
it saw go in (it saw the card in the zone it came from), a card revealed to it there.
What it knows is a lower bound on how many cards of each type lie in the zone and, in
an ordered zone, the type at some places. Every change below is worked out from what
the seat itself saw, never from where a hidden card truly went, so two games that look
the same to a seat leave it knowing the same (OpenSpiel's perfect recall):

- a card it saw go in: one more of its type (in an ordered zone, on top: its place too);
- a card it saw leave: one fewer of its type (it cannot tell which copy left);
- a card it did not see leave: one fewer of *every* type, as it may have been any of
  them; in an ordered zone a draw from the top takes a known place's card, known
  where it went (Table._learn_move), and any other removal (from a place the seat
  cannot tell) forgets every place;
- but from a zone whose every card it knows: a card of the zone's one type is that
  type where it went (Table._learn_move); and a move that empties a zone into one zone
  puts what the seat knew lay there where they went, known wholly or in part
  (Table._emptied: a pile picked up whole);
- a shuffle, or an `insert` at any depth (it may be secret, 0 too), forgets the
  places, not the cards: the same cards lie there;
- a reveal raises each type's bound to what was shown, and shows the places.

A `Known` changes in place as its seat sees things happen; a state's clone copies it.
"""

from __future__ import annotations


class Known:
    """What one seat knows of one zone it cannot see. Changed in place as the seat sees
    things happen; a state's clone copies it."""

    __slots__ = ("at", "types")

    def __init__(self, types: dict | None = None, at: dict | None = None):
        self.types = {} if types is None else types  # card type -> at least this many lie there
        self.at = {} if at is None else at  # place from the bottom -> card type (ordered zones)

    def copy(self) -> Known:
        return Known(dict(self.types), dict(self.at))

    def left(self, t: int | None, place: int | None, ordered: bool) -> bool:
        """A card left the zone: of type t if the seat saw it (None if not), from `place`
        (from the bottom) when it was drawn from the top of an ordered zone. False when
        the seat knows nothing of the zone any more."""
        at, types = self.at, self.types
        if not at and t is not None:  # the common case: a card seen leaving, no places known
            n = types.get(t)
            if n == 1:
                del types[t]
            elif n is not None:
                types[t] = n - 1
            return bool(types)
        if ordered and at:
            if place is None:
                at.clear()  # from a place the seat cannot tell: the places above it shift
            elif place in at:
                t = at.pop(place)  # the seat knew which card lay on top
        for u in list(types) if t is None else (t,) if t in types else ():
            types[u] -= 1
        return self._settle()

    def shown(self, types: dict, places: dict) -> None:
        """Cards revealed to the seat: `types` counts them, `places` maps the places of
        those in an ordered zone. Each type is known at least as many times as shown."""
        for t, n in types.items():
            self.types[t] = max(self.types.get(t, 0), n)
        self.at.update(places)

    def unplace(self) -> None:
        """The places forgotten (an insert); the cards are still there."""
        self.at.clear()

    def clamp(self, cards: list[int], ctype) -> bool:
        """Cut to what still holds in a zone now holding `cards` (after a re-deal for
        another seat, a search's copy of the game): no more of a type than lie there,
        and only places that hold their type. False when nothing is left."""
        counts: dict[int, int] = {}
        for c in cards:
            counts[ctype[c]] = counts.get(ctype[c], 0) + 1
        self.at = {p: t for p, t in self.at.items() if p < len(cards) and ctype[cards[p]] == t}
        self.types = {t: min(n, counts.get(t, 0)) for t, n in self.types.items()}
        return self._settle()

    def _settle(self) -> bool:
        """A type is known at least as often as its known places; drop what is known
        zero times; False when nothing is known."""
        types = self.types
        for t in self.at.values():
            types[t] = max(types.get(t, 0), sum(1 for u in self.at.values() if u == t))
        for t in [t for t, n in types.items() if n <= 0]:
            del types[t]
        return bool(types)


def view(k: Known, size: int, names) -> list[dict]:
    """The cards a seat knows lie in a zone it cannot see: those at known places first
    (ordered zones), top first with their depth; then the others, by name."""
    out, rest = [], dict(k.types)
    for place in sorted(k.at, reverse=True):
        t = k.at[place]
        out.append({"card": names[t], "depth": size - 1 - place})
        rest[t] -= 1
    return out + [
        {"card": name} for name in sorted(names[t] for t, n in rest.items() for _ in range(n))
    ]


def key(known: dict) -> tuple:
    """A canonical, hashable form of a table's knowledge: slot -> seat -> Known."""
    return tuple(
        (slot, seat, tuple(sorted(k.types.items())), tuple(sorted(k.at.items())) if k.at else ())
        for slot in sorted(known)
        for seat, k in sorted(known[slot].items())
    )


def kept(k: Known | None, cards: list[int], ctype) -> set[int]:
    """The cards of a zone that a re-deal for the seat keeps in place: one at each known
    place, and as many more of each type as the seat knows lie there (the first ones)."""
    if k is None:
        return set()
    keep = {cards[p] for p in k.at}
    want = dict(k.types)
    for c in keep:
        want[ctype[c]] -= 1
    for c in cards:
        t = ctype[c]
        if c not in keep and want.get(t, 0) > 0:
            keep.add(c)
            want[t] -= 1
    return keep
