"""What generated code may use: the one declared runtime (Jinja2's `runtime.py`).

Generated code (expressions, conditions, straight-line effects, a play step's offers,
the checks) reads and calls the running game `g` only through the names in READS and
CALLS, and calls the helpers in HELPERS by name (the namespace it is compiled in, with
`_team`, the game's team of each seat, and the `_cN` values quote() binds). Nothing
else: tests/test_runtime.py parses every generated function of every bundled and
test spec and checks it, so a renamed State method or field fails there, not in a game.
Which statements pause the game (a choice, a chance point) is declared once, with the
language's built-ins (rulespec/lang/builtins.py: PAUSES, CHANCE).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, compress
from math import comb
from operator import itemgetter

from rulespec.lang.ir import MAX_COMBINATIONS, MAX_MELD_CARDS, MAX_RANGE, MAX_SUM_STEPS

from .choices import NOBODY_AT_REST, seat_name
from .table import INT_LIMIT, RuleLimit

# what generated code reads of the game `g`
READS = {
    "_zones": "each zone slot's cards, bottom to top (card ids)",
    "_tcount": "each zone slot's count of cards of each type",
    "_ctype": "card id -> its card type",
    "_counters": "the counters' values, by slot",
    "_marks": "the per_card counters' values, by slot (Game.mark_index + card id)",
    "_memory": "the remembered cards, by slot",
    "_current": "whose turn it is",
    "_n": "the player count",
    "_game_index": "which game of a match this is",
    "_round": "which round this is",
    "_active": "per seat: still in",
    "_extras": "per seat: the extra turns still to take (extra_turns_owed)",
    "_skips": "per seat: the turns still to miss (turns_to_skip)",
    "_loc": "card id -> the zone slot it lies in (zone_of, above)",
    "_dirty": "the automatic rules to check, as bits (the checks)",
    "_quiet": "per automatic rule: the version at which it last fired (the checks)",
    "_version": "the table's version: one more for each change (the checks)",
    "game": "the game definition: the card types its deck holds (card_types), its refills and "
    "slots, the titles say() tells (kind_title, cards_title)",
}

# what generated code calls on the game `g` (State and Table methods)
CALLS = {
    "draw": "move the top n cards of a zone onto another; how many are left to draw",
    "move_cards": "move cards onto a zone",
    "insert_cards": "move cards to a depth of a zone",
    "swap_cards": "trade the cards of two zones",
    "reveal": "show cards to players",
    "reveal_value": "tell players a secret number",
    "set_counter": "set a counter, within its limit",
    "set_mark": "set a per_card counter of one card, within its limit",
    "remember": "remember cards in a remember: slot",
    "finish": "end the game with these winners and this reason",
    "eliminate": "take a player out",
    "sit_out": "take a player out until the round ends",
    "end_turn": "end the turn now",
    "set_current": "make a player the current one",
    "reverse": "flip the direction of play",
    "say": "words for every seat, in the log",
    "skip_turns": "a player misses their next n turns",
    "extra_turns": "a player takes n more turns",
    "cancel_extra_turns": "a player's extra turns still to come are dropped",
    "set_next": "a player takes the next turn",
    "next_player": "the next active player in the direction of play",
    "prev_player": "the previous active player",
    "active_players": "the active players from the current one",
    "seats": "every seat, those out included, from the current one",
    "_offer_cards": "the options of an action that targets a card (a play step's offer)",
    "_offer_groups": "the options of an action that plays a group of cards (a play step's offer)",
    "_offer_zones": "the options of an action that targets a zone (a play step's offer)",
}


class _Nobody:
    """`nobody`, the player value that is no player, while generated code holds it. A
    counter keeps it as -1 (NOBODY_AT_REST: observations and tensors stay numbers), read
    through _who. It equals only itself, so `maker == nobody` and `maker in players`
    work; used as a seat (an owner's zone or counter, arithmetic, next(), a chooser, a
    turn) it stops the game with RS701 at the rule's place, never picking a seat."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "nobody"

    def __reduce__(self) -> str:
        return "NOBODY"  # one of it, across a pickle (workers) or a deep copy

    def _used(self, *_):
        raise RuleLimit(
            "a player here is nobody: test it with `!= nobody` before using it as a player"
        )

    __index__ = __int__ = __float__ = __neg__ = __abs__ = _used
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _used
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _used
    __lt__ = __le__ = __gt__ = __ge__ = _used


NOBODY = _Nobody()


def _who(value: int):
    """A player counter's value as generated code holds it: nobody for -1."""
    return NOBODY if value == NOBODY_AT_REST else value


def _at_rest(value) -> int:
    """A player as a counter holds it: -1 for nobody."""
    return NOBODY_AT_REST if value is NOBODY else value


def _said_seats(players) -> str:
    """Players as a say() text tells them: P1, P3 (nobody, for none)."""
    named = [seat_name(p) for p in players if p is not NOBODY]
    return ", ".join(named) or "nobody"


def _seat(p):
    """A player the rules hand to the game to keep or ask (a chooser, a winner, the
    next turn's): nobody stops it here, where the rule is."""
    if p is NOBODY:
        NOBODY._used()
    return p


def _on_card(base: int, cards, name: str) -> int:
    """The slot of a per_card counter's value on one card: its family's first, `base`,
    plus the card's id. A set of another size is a rule's mistake, told as RS701."""
    if len(cards) != 1:
        raise RuleLimit(
            f"{name}(...) is a counter on one card, but it is given {len(cards)} cards here "
            "(a per_card counter is read and set one card at a time)"
        )
    return base + cards[0]


def _div(a, b):
    return a // b if b else 0  # x // 0 is 0: a rule never crashes the game


def _mod(a, b):
    return a % b if b else 0


def _mul(a, b):
    """a * b, refused past ±INT_LIMIT: repeated products would grow without bound."""
    product = a * b
    if -INT_LIMIT <= product <= INT_LIMIT:
        return product
    raise RuleLimit("a product past the limit of ±10^18 (docs/limits.md)")


# Helpers that go through cards: plain loops, which CPython 3.11 runs faster than
# map/compress over bound methods for the few cards of a hand or a tableau (and no
# slower for a pile of fifty). Conditions run them on every option and trigger check.


def _count_types(row, types) -> int:
    """How many cards of the types a zone holds, from its per-type counts."""
    n = 0
    for t in types:
        n += row[t]
    return n


@cache
def type_counter(types: tuple[int, ...]):
    """row -> how many cards of these types a zone's per-type counts hold, its sum
    written out (`row[3] + row[7]`): for a kind known as the code is compiled, about
    three times as fast as _count_types' loop."""
    if not all(type(t) is int for t in types):
        raise ValueError(f"type_counter takes card type numbers, not {types!r}")
    return eval("lambda row: " + (" + ".join(f"row[{t}]" for t in types) or "0"))  # numbers only


def _count_of(cards, ctype, kinds) -> int:
    """How many of the cards are of a type in kinds."""
    n = 0
    for c in cards:
        if ctype[c] in kinds:
            n += 1
    return n


def _of(cards, ctype, kinds) -> list:
    """The cards of a type in kinds, in order."""
    return [c for c in cards if ctype[c] in kinds]


def _one(cards, ctype, kinds) -> list:
    """The first card of a type in kinds, as a set of one (none: empty)."""
    for c in cards:
        if ctype[c] in kinds:
            return [c]
    return []


def _of_types(cards, ctype, keep) -> list:
    """The cards whose type `keep` (a table by card type) says to keep, in order."""
    return [c for c in cards if keep[ctype[c]]]


def _types_of(ctype, cards) -> list:
    """The cards' types, in order."""
    return [ctype[c] for c in cards]


def _sum_by_type(table, ctype, cards):
    """The sum over the cards of a value by card type (a table made as compiled)."""
    n = 0
    for c in cards:
        n += table[ctype[c]]
    return n


def _any_by_type(table, ctype, cards) -> bool:
    """Does the table (by card type) hold for any of the cards?"""
    for c in cards:  # noqa: SIM110 (a loop: four times as fast as any() of a generator)
        if table[ctype[c]]:
            return True
    return False


def _best_by_type(highest: bool, values, keep, ctype, cards):
    """The highest (or lowest) over the cards `keep` keeps of a value by card type (0
    for none): a loop, about twice as fast as max() of a generator for a hand."""
    best = None
    for c in cards:
        t = ctype[c]
        if keep[t]:
            v = values[t]
            if best is None or (v > best if highest else v < best):
                best = v
    return 0 if best is None else best


def _top(cards, n) -> list:
    """The top n cards of a zone, top first."""
    return cards[max(len(cards) - n, 0) :][::-1] if n > 0 else []  # n past the zone: all


def _others(players, me) -> tuple:
    return tuple(q for q in players if q != me)


def _team_seats(seats, me, team_of) -> tuple:
    """Those of seats on me's team, me included; me alone without teams (team_of is
    empty)."""
    return tuple(q for q in seats if q == me or (team_of and team_of[q] == team_of[me]))


def _partners(players, me, team_of) -> tuple:
    """The players of me's team but me; none without teams."""
    return tuple(q for q in _team_seats(players, me, team_of) if q != me)


def _sides(seats, team_of) -> tuple:
    """One seat of each team, its first of `seats`; every seat without teams."""
    if not team_of:
        return seats
    first = {}
    for q in seats:
        first.setdefault(team_of[q], q)
    return tuple(first.values())


def _joined(seats, a, b) -> tuple:
    """`a + b` of players: those of either, each once, in turn order (that of seats)."""
    either = {*a, *b}
    return tuple(q for q in seats if q in either)


def _without(cards, less) -> list:
    drop = set(less)
    return [c for c in cards if c not in drop]


def _in_family(base: int, count: int, i: int, past: str) -> int:
    """The slot of zone (or counter) i of a family of count starting at slot base;
    `past`: the message for an index out of range (ir.out_of_family)."""
    if 0 <= i < count:
        return base + i
    raise RuleLimit(past.format(i))


def _index_of(places: tuple, slot: int) -> int:
    """index_of(): a zone's place in its family; `places` holds each slot's (None for a
    zone of no family), and no zone (zone_of of no card) lies past them."""
    i = places[slot] if slot < len(places) else None
    if i is None:
        raise RuleLimit("index_of() of a zone that is in no family of zones")
    return i


def _range(a: int, b: int | None = None) -> range:
    """range(n): 0 to n - 1; range(a, b): a to b - 1."""
    numbers = range(a) if b is None else range(a, b)
    if len(numbers) > MAX_RANGE:
        written = a if b is None else f"{a}, {b}"
        raise RuleLimit(f"range({written}) would give more than {MAX_RANGE} numbers")
    return numbers


def _prop(values, ctype, cards, default):
    """A property of the first card, from its value per card type."""
    return values[ctype[cards[0]]] if cards else default


def _prop_of(values, ctype, cards, kinds, default):
    """A property of the first of the cards of a type in kinds: _prop of _of's list."""
    for c in cards:
        t = ctype[c]
        if t in kinds:
            return values[t]
    return default


def _kind_prop(shared, refused, kind):
    """A kind's property: the value its card types share (`shared`, by kind), else the
    rule stops with why the kind has none (`refused`, by kind: a rank's colour)."""
    if kind in shared:
        return shared[kind]
    raise RuleLimit(refused[kind])


def _each_player(env, var, players):
    """The bindings with var bound to each player in turn (or each number, card type or
    set of cards): one dict, rebound, since an aggregate uses each binding before it
    asks for the next."""
    inner = dict(env)
    for p in players:
        inner[var] = p
        yield inner


def _each_card(env, var, cards):
    """The same for cards: var is bound to a set of one card, as a chosen card is."""
    inner = dict(env)
    for c in cards:
        inner[var] = [c]
        yield inner


def _best(pick, pairs, kind):
    """The items of (item, value) pairs whose value is the highest (pick=max) or the
    lowest (min), in their order, as a kind (list for cards, tuple for players)."""
    if not pairs:
        return kind()
    top = pick(v for _, v in pairs)
    return kind(x for x, v in pairs if v == top)


_second = itemgetter(1)


def _sorted(pairs, kind):
    """The items of (item, value) pairs in order of their values, lowest first; items
    of equal value keep their order."""
    return kind(x for x, _ in sorted(pairs, key=_second))


def _zone_of(loc, cards, box: int) -> int:
    """The slot the first card lies in; the box (no zone of the spec) for no card."""
    return loc[cards[0]] if cards else box


def _above(zones, loc, ordered, cards) -> list:
    """The cards lying on the first card in its zone, nearest first (the top last):
    with it, `cards + above(cards)` lists a pile from that card up, as `move` keeps it.
    None in a zone that is not ordered, or for no card."""
    slot = loc[cards[0]] if cards else None
    if slot is None or not ordered[slot]:
        return []
    pile = zones[slot]
    return pile[pile.index(cards[0]) + 1 :]


def _first(items, n: int):
    """The first n items of a set of cards (a list), or of players, numbers or kinds (a
    tuple)."""
    return items[: max(n, 0)]


def _nth(cards, n: int) -> list:
    """The card at place n of a set (from 0), as a set of one; none past the end."""
    return list(cards[n : n + 1]) if n >= 0 else []


def _nth_one(items, n: int, noun: str):
    """The player (or number) at place n of a set (from 0). There is no player or
    number for none, so a set without one fails, at the rule's place."""
    if 0 <= n < len(items):
        return items[n]
    raise RuleLimit(f"nth() of {len(items)} {noun}(s) has no place {n}")


def _nth_kind(kinds, n: int) -> frozenset:
    """The kind at place n of a set of kinds (from 0); no_kind past the end."""
    return kinds[n] if 0 <= n < len(kinds) else frozenset()


def _sizes(k: int, most: int | None, n: int, least: int = 0) -> range:
    """The sizes of the sets combinations(cards, k[, most]) gives of n cards: k, or k to
    most (past n: up to n); none below `least`."""
    return range(max(k, least), min(k if most is None else most, n) + 1)


def _of_sizes(k: int, most: int | None) -> str:
    """combinations()'s sizes as its call wrote them, for a message: "3", "2 to 5"."""
    return str(k) if most is None else f"{k} to {most}"


def _combinations(cards, k: int, most: int | None = None) -> list:
    """Every set of k of the cards (with `most`, of k to most cards, the smallest sets
    first), each in the cards' order, those of a size in the order
    itertools.combinations gives them (by place: the first cards' sets first)."""
    sizes = _sizes(k, most, len(cards))
    count = sum(comb(len(cards), s) for s in sizes)
    if count > MAX_COMBINATIONS:
        raise RuleLimit(
            f"combinations of {_of_sizes(k, most)} of {len(cards)} cards would give "
            f"{count:,} sets, more than {MAX_COMBINATIONS}"
        )
    return [list(c) for s in sizes for c in combinations(cards, s)]


def distinct_sets(cards, k: int, ctype, loc, marks=(), most: int | None = None) -> list:
    """The sets of k (with `most`, k to most, the smallest first) of the cards a choice
    offers (`choose s from combinations(cards, k)`): cards of one type in one zone are
    alike (C-3, as State.key holds them), so one set for each that alike cards make, of
    the first cards that make it, in the order combinations() gives those cards. They
    are made as such, never going through every copy, and past MAX_COMBINATIONS of them
    the rule fails. Cards of a type in two zones are not alike: which zone a card leaves
    matters; nor are copies whose per_card counters differ (`marks`, the table's: a
    filter may read them)."""
    sizes = _sizes(k, most, len(cards), least=1)  # the empty set is never offered
    if not sizes:
        return []
    n = len(ctype)
    places: dict[tuple, list[int]] = {}  # alike cards -> their places among the cards
    for place, c in enumerate(cards):
        places.setdefault((loc[c], ctype[c], *marks[c::n]), []).append(place)
    pools = list(places.values())
    ways = [1] + [0] * sizes[-1]  # ways[s]: the sets of s cards the pools so far make
    for pool in pools:
        ways = [sum(ways[s - j] for j in range(min(len(pool), s) + 1)) for s in range(len(ways))]
    count = sum(ways[s] for s in sizes)
    if count > MAX_COMBINATIONS:
        raise RuleLimit(
            f"combinations of {_of_sizes(k, most)} of {len(cards)} cards would offer "
            f"{count:,} different sets (cards of one type in one zone alike), more than "
            f"{MAX_COMBINATIONS}"
        )
    return [set_ for s in sizes for set_ in _alike_sets(cards, pools, s)]


def _alike_sets(cards, pools: list, k: int) -> list:
    """distinct_sets() of one size k: of the cards' pools of alike cards, the first j of
    a pool standing for any j of it."""
    left = [0] * (len(pools) + 1)  # the cards of the pools from i on
    for i in range(len(pools) - 1, -1, -1):
        left[i] = left[i + 1] + len(pools[i])
    made = [()]  # the places taken from the pools so far, of sets k cards can finish
    for i, pool in enumerate(pools):
        made = [
            taken + tuple(pool[:j])  # alike cards: the first j
            for taken in made
            for j in range(min(len(pool), k - len(taken)) + 1)
            if len(taken) + j + left[i + 1] >= k
        ]
    return [[cards[p] for p in taken] for taken in sorted(sorted(t) for t in made)]


def _sets_added(a, b) -> list:
    """The sets of cards of a, then b (`combinations(h, 1) + combinations(h, 2)`); past
    MAX_COMBINATIONS together it fails, as one combinations() would."""
    if len(a) + len(b) > MAX_COMBINATIONS:
        raise RuleLimit(
            f"sets of cards added up would give {len(a) + len(b):,} sets, more than "
            f"{MAX_COMBINATIONS}"
        )
    return list(a) + list(b)


def _summing(cards, values, ctype, total: int) -> list:
    """Every non-empty set of the cards whose values (by card type) add up to total, each
    in the cards' order, the smallest sets first and sets of a size in the order of
    their places, as combinations() of each size gives them. A depth-first search (a
    stack, not recursion: a zone may hold hundreds of cards) that drops a branch once no
    choice of the cards left can reach the total (the least and the most the rest can
    add, negative values included); past MAX_SUM_STEPS sets looked at, or
    MAX_COMBINATIONS found, it fails."""
    cards = list(cards)
    n, worth = len(cards), [values[ctype[c]] for c in cards]
    low, high = [0] * (n + 1), [0] * (n + 1)  # the least and most cards i.. can add
    for i in range(n - 1, -1, -1):
        low[i] = low[i + 1] + min(worth[i], 0)
        high[i] = high[i + 1] + max(worth[i], 0)
    found, chosen, steps = [], [], 0
    stack = [[0, 0]] if n and low[0] <= total <= high[0] else []  # [next place, sum so far]
    while stack:
        frame = stack[-1]
        j, so_far = frame
        if j == n:  # every card after the chosen ones tried
            stack.pop()
            if chosen:
                chosen.pop()
            continue
        frame[0] = j + 1
        steps += 1
        if steps > MAX_SUM_STEPS:
            raise RuleLimit(
                f"summing() over {n} cards would look at more than {MAX_SUM_STEPS:,} sets"
            )
        added = so_far + worth[j]
        if added == total:
            found.append((*chosen, j))
            if len(found) > MAX_COMBINATIONS:
                raise RuleLimit(f"summing() over {n} cards gives more than {MAX_COMBINATIONS} sets")
        if j + 1 < n and added + low[j + 1] <= total <= added + high[j + 1]:
            chosen.append(j)
            stack.append([j + 1, added])
    found.sort(key=lambda places: (len(places), places))
    return [[cards[i] for i in places] for places in found]


MELD_CACHE = 1 << 17  # groups judged and kept per meld condition, before starting over


def _unmelded(g, cards, meld, param: str, values, ctype, judged: dict | None) -> list:
    """The cards left over by the best arrangement of `cards` into melds: disjoint
    groups for each of which `meld(g, {param: group})` holds, leaving the least total
    of `values` (by card type), then the fewest cards; among equals, the first found,
    leaving each card (in the cards' order) before melding it, its melds in order of
    their places. Every group of the cards is judged: at most MAX_MELD_CARDS cards.
    `judged` (a condition that reads nothing but its group: its verdicts by the group's
    card types in order, kept between calls) spares judging such a group again."""
    n = len(cards)
    if n > MAX_MELD_CARDS:
        raise RuleLimit(
            f"unmelded() of {n} cards: it tries every group of them, at most {MAX_MELD_CARDS}"
        )
    types = [ctype[c] for c in cards]
    by_first = _melds(g, cards, types, len(values) + 1, meld, param, judged)
    worth = [values[t] for t in types]
    best: dict[int, tuple] = {0: (0, 0, 0)}  # bits -> (total left, cards left, meld or 0)

    def arrange(bits: int) -> tuple:
        if bits in best:
            return best[bits]
        low = bits & -bits
        i = low.bit_length() - 1
        total, left, _ = arrange(bits ^ low)
        choice = (total + worth[i], left + 1, 0)  # card i is left over
        for m in by_first[i]:
            if m & bits == m:
                total, left, _ = arrange(bits ^ m)
                if (total, left) < choice[:2]:
                    choice = (total, left, m)
        best[bits] = choice
        return choice

    left, bits = [], (1 << n) - 1
    arrange(bits)
    while bits:
        low = bits & -bits
        m = best[bits][2]
        if m:
            bits ^= m
        else:
            left.append(cards[low.bit_length() - 1])
            bits ^= low
    return left


def _melds(g, cards, types, base, meld, param, judged: dict | None) -> list[list[int]]:
    """For each card, the groups (as bits of the cards' places) it is the first card of
    and the condition holds for; a group's verdict kept in `judged` by its card types in
    order (a condition may read its first card: `g.rank`), a digit of `base` each."""
    n = len(cards)
    keys = [0] * (1 << n)
    by_first: list[list[int]] = [[] for _ in range(n)]
    if judged is not None and len(judged) > MELD_CACHE:
        judged.clear()
    for i in range(n - 1, -1, -1):  # the groups whose first card is i, after those of i + 1
        low, digit, melds = 1 << i, types[i] + 1, by_first[i]
        for upper in range(0, 1 << n, low << 1):  # the cards after i in the group, as bits
            bits = upper | low
            key = keys[bits] = keys[upper] * base + digit
            holds = None if judged is None else judged.get(key)
            if holds is None:
                holds = bool(meld(g, {param: [cards[j] for j in range(n) if bits >> j & 1]}))
                if judged is not None:
                    judged[key] = holds
            if holds:
                melds.append(bits)
    return by_first


_UNSET = object()  # a value an offer works out once, not yet worked out

# the helpers generated code calls by name
HELPERS = {
    "_div": _div,
    "_mod": _mod,
    "_mul": _mul,
    "_count_types": _count_types,
    "_count_of": _count_of,
    "_of": _of,
    "_one": _one,
    "_of_types": _of_types,
    "_types_of": _types_of,
    "_sum_by_type": _sum_by_type,
    "_any_by_type": _any_by_type,
    "_best_by_type": _best_by_type,
    "_top": _top,
    "_others": _others,
    "_partners": _partners,
    "_team_seats": _team_seats,
    "_joined": _joined,
    "_sides": _sides,
    "_without": _without,
    "_in_family": _in_family,
    "_on_card": _on_card,
    "_range": _range,
    "_index_of": _index_of,
    "_prop": _prop,
    "_prop_of": _prop_of,
    "_kind_prop": _kind_prop,
    "_each_player": _each_player,
    "_each_card": _each_card,
    "_best": _best,
    "_sorted": _sorted,
    "_zone_of": _zone_of,
    "_above": _above,
    "_first": _first,
    "_nth": _nth,
    "_nth_one": _nth_one,
    "_nth_kind": _nth_kind,
    "_combinations": _combinations,
    "_sets_added": _sets_added,
    "_summing": _summing,
    "_unmelded": _unmelded,
    "_UNSET": _UNSET,
    "_nobody": NOBODY,
    "_who": _who,
    "_at_rest": _at_rest,
    "_seat": _seat,
    "_said_seats": _said_seats,
    "compress": compress,
}
