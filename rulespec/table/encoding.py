"""Fixed encodings of a game for learning environments: every option a spec can offer
as one numbered action, and a seat's observation as a vector of numbers.

Both are derived from the spec and the player count alone, so they are the same in
every game of that (spec, n): action 17 means the same option in every state, and
position 40 of the vector the same quantity. Options are known by label, so the
action space is the sorted set of every label a decision can offer (labels of
different decisions may coincide: at one decision a label names one option).
"""

from __future__ import annotations

import operator

from rulespec.interpreter.choices import NO_REACTION, PASS, groups, seat_name
from rulespec.interpreter.effects import MAX_NUMBERS, SEATS
from rulespec.interpreter.observe import tally_writer
from rulespec.interpreter.table import INT_LIMIT
from rulespec.lang import ir
from rulespec.lang.costs import group_count

try:  # for encode_array: the `rl` and `openspiel` extras bring numpy
    import numpy as np
except ImportError:  # pragma: no cover - the encodings themselves need no numpy
    np = None


MAX_NUMBERINGS = 8192  # the sets of options whose numbering an ActionSpace keeps


class ActionSpace:
    """Every label a player's decision may offer in a game of `game`, numbered."""

    def __init__(self, game):
        self.labels: tuple[str, ...] = tuple(sorted(set(_player_labels(game))))
        self.index = {label: i for i, label in enumerate(self.labels)}
        # options offered together -> their numbering (`numbered`): a game offers the
        # same few sets again and again, of options made once and known by identity
        self.numberings: dict[tuple, tuple] = {}

    def numbered(self, options: tuple) -> tuple:
        """(the numbers of `options` sorted, number -> option, their mask: a read-only
        int8 numpy array with 1 for each), for options offered together; worked out
        once for each set, up to MAX_NUMBERINGS sets (those met first), and shared:
        never to be written. An option outside the space is a ValueError naming it."""
        known = self.numberings.get(options)
        if known is None:  # one pass: a game may offer tens of thousands of sets
            index, numbered, mask = self.index, {}, bytearray(len(self.labels))
            for option in options:
                number = index.get(option.label)
                if number is None:
                    number = self.action_of(option.label)  # the ValueError naming it
                numbered[number] = option
                mask[number] = 1
            known = sorted(numbered), numbered, np.frombuffer(bytes(mask), np.int8)
            if len(self.numberings) < MAX_NUMBERINGS:
                self.numberings[options] = known
        return known

    def __len__(self) -> int:
        return len(self.labels)

    def action_of(self, label: str) -> int:
        try:
            return self.index[label]
        except KeyError:
            number = label.lstrip("-").isdigit() or "= " in label  # a number chosen
            raise ValueError(
                f"option {label!r} is outside the spec's action space"
                + (
                    ": a choice of numbers whose bounds are worked out in play is numbered "
                    "from a bound written out (from 0 when neither is): write one of its "
                    "bounds as a constant or a parameter"
                    if number
                    else ""
                )
            ) from None

    def mask(self, labels) -> list[int]:
        """1 for each action whose label is in `labels`, else 0."""
        out = [0] * len(self.labels)
        for label in labels:
            out[self.action_of(label)] = 1
        return out


def action_number(action, count: int, legal=None, name=str) -> int:
    """`action` as a number of a space of `count` actions, once it is a whole number
    (numpy's integers are; a bool, a string or a float is not) from 0 to count - 1 and,
    when `legal` lists the numbers allowed now, one of them; else a ValueError saying
    which it is not. `name(n)` shows an action in the message. A learning library's
    mistake must not become another action: -12 was action 10, "10" action 10."""
    try:
        number = None if isinstance(action, bool) else operator.index(action)
    except TypeError:  # a string, a float, an array of several
        number = None
    if number is None:
        raise ValueError(f"an action is a whole number from 0 to {count - 1}, not {action!r:.60}")
    if not 0 <= number < count:
        raise ValueError(f"action {number} is outside the action space, 0 to {count - 1}")
    if legal is not None and number not in legal:
        allowed = ", ".join(f"{n} ({name(n)})" for n in legal) or "none"
        raise ValueError(f"action {number} ({name(number)}) is not legal now; legal: {allowed}")
    return number


def _player_labels(game):
    """Labels of plays, passes, reactions and every kind of `choose`."""
    names, spec = game.type_names, game.spec
    yield from _play_labels(game)
    if any(s.optional or s.repeat or s.around for s in spec.turn):  # passed to end it
        yield PASS.label
    for r in game.reactions:
        yield from (o.label for o in r.options.values())
    if game.reactions:
        yield NO_REACTION.label
    for stmt in ir.walk_statements(spec.effect_blocks()):
        if isinstance(stmt, ir.ChooseBranch):
            yield from (b.label for b in stmt.branches)
        elif isinstance(stmt, ir.ChooseNumber):
            yield from (f"{stmt.var} = {v}" for v in _numbers(game, stmt.low, stmt.high))
        elif isinstance(stmt, ir.ChooseCard) and stmt.source.type == "cardsets":
            yield from _set_labels(game, stmt)
        elif isinstance(stmt, ir.ChooseCard) and stmt.source.type == "ints":  # range(n)
            ranged = isinstance(stmt.source, ir.Call) and stmt.source.func == "range"
            yield from map(str, _ranged(game, stmt.source.args) if ranged else range(MAX_NUMBERS))
            yield from map(str, _listed(game, stmt.source))
        elif isinstance(stmt, ir.ChooseCard) and stmt.source.type in SEATS:
            yield from map(seat_name, range(game.n))
        elif isinstance(stmt, ir.ChooseCard) and stmt.source.type == "zones":  # by label
            yield from (s.label for s in game.slots if s.zone.name == stmt.source.name)
        elif isinstance(stmt, ir.ChooseCard):  # a card, or a card type: named by type
            yield from names
            spread = spec.spread_sources(stmt)  # and by its zone, where one type lies in two
            yield from (
                f"{t} from {s.label}" for s in game.slots if s.zone.name in spread for t in names
            )
            yield from map(game.kind_name, _listed(game, stmt.source))  # or a tag
            yield from _unseen_labels(game, stmt)  # a card its chooser cannot see: its zone


def _unseen_labels(game, stmt: ir.ChooseCard):
    """The zones whose cards a choice may offer by their place (PickUnseen), by label."""
    unseen = game.spec.unseen_sources(stmt)
    return (s.label for s in game.slots if s.zone.name in unseen)


def _listed(game, source: ir.Expr) -> list:
    """The values every `values("name")` in a choice's items lists."""
    return [
        v
        for e in ir.walk(source)
        if isinstance(e, ir.Call) and e.func == "values"
        for v in game.prop_values(e.args[0].value)
    ]


def _play_labels(game):
    """Labels of plays: an action's with each card type and target, a picked card's
    type and zone, a target zone (each of its family's), a group's cards."""
    actions = {a.name: a for a in game.spec.actions}
    for (name, _, _), option in game.play_options.items():
        a = actions[name]
        yield option.label
        if a.target == "card":  # the picked card: its type and where it lies
            yield from (
                f"{option.label} {t} from {s.label}" for t in game.type_names for s in game.slots
            )
        elif a.target == "zone":  # every zone of the family its `among` goes over
            family = a.among.name
            yield from (f"{option.label} -> {s.label}" for s in game.slots if s.zone.name == family)
    for a in game.actions.values():
        if a.ir.count is not None:
            yield from _group_labels(game, a)


MAX_GROUP_LABELS = 500_000  # the labels one action that plays a group of cards may make


def _group_labels(game, a):
    """Every label an action that plays a group of cards (`count`) can offer: each
    multiset of its kind's card types the deck can hold, of a size its count allows, at
    each target."""
    held = sorted((t, game.deck_counts[t]) for t in a.card if game.deck_counts[t])
    low, high = a.ir.count
    suffixes = [""] if a.ir.target == "none" else [f" -> {seat_name(p)}" for p in range(game.n)]
    too_many = (
        f"action '{a.ir.name}' can play more than {MAX_GROUP_LABELS:,} groups of cards",
        "give its count a lower max" + ("" if a.same else ", or a same property (same: rank)"),
    )
    pools: dict = {}  # with `same`, the types of each value apart: a group is of one
    for t, n in held:
        pools.setdefault(None if a.same is None else a.same[t], []).append((t, n))
    for label in _multisets(game, list(pools.values()), low, high, len(suffixes), too_many):
        yield from (f"{a.ir.name} {label}{s}" for s in suffixes)


def _set_labels(game, stmt: ir.ChooseCard):
    """Every label a choice of a set of cards (`choose s from combinations(cards, k)`)
    can offer: each multiset of the deck's card types of size k when k is a constant
    or a parameter (of sizes j to k for combinations(cards, j, k), a bound that is
    neither leaving the sizes open at its end), else of any size."""
    held = [(t, n) for t, n in enumerate(game.deck_counts) if n]
    src = stmt.source
    direct = isinstance(src, ir.Call) and src.func == "combinations"
    low, high = (_constant(game, a) for a in (src.args[1], src.args[-1])) if direct else (None,) * 2
    summed = isinstance(src, ir.Call) and src.func == "summing"
    too_many = (
        f"choosing '{stmt.var}' can offer more than {MAX_GROUP_LABELS:,} sets of cards",
        "a choice from summing() may offer a set of any size, and a deck of more than "
        "about 18 card types has too many to number"
        if summed
        else "choose from combinations(cards, k) with k a constant or a parameter (both "
        "sizes of combinations(cards, j, k))",
    )
    yield from _multisets(game, [held], 1 if low is None else low, high, 1, too_many)


def _multisets(game, pools: list, low: int, high: int | None, each: int, too_many: tuple):
    """The labels of every multiset of low to high (None: any number) of the (type,
    copies) pairs of one pool, pool after pool, its types joined by '+', each to be
    offered `each` times (at each target). Past MAX_GROUP_LABELS labels the space is too
    large to number as actions: ValueError saying what (too_many[0]) and the fix
    (too_many[1]), counted before any is made."""
    sizes = [sum(k for _, k in held) for held in pools]  # a group is at most its pool
    most = [size if high is None else min(high, size) for size in sizes]
    if sum(map(group_count, pools, [low] * len(pools), most)) * each > MAX_GROUP_LABELS:
        raise ValueError(f"{too_many[0]}, too many to number as actions; {too_many[1]}")
    for held, largest in zip(pools, most):
        for group in groups(held, low, largest):
            yield "+".join(game.type_names[t] for t in group)


def _constant(game, expr: ir.Expr):
    """The value of a constant or a parameter (fixed for the player count), else None."""
    if isinstance(expr, ir.Const):
        return expr.value
    return game.params[expr.name] if isinstance(expr, ir.Param) else None


def _ranged(game, bounds: tuple) -> range:
    """The numbers a choice of `range(n)` or `range(a, b)` may offer: all of them when
    its bounds are constants, else the most a range gives (MAX_RANGE) next to the bound
    that is one (from 0 when neither is: a number outside is refused by `action_of`)."""
    low, high = (ir.Const(None, "int", 0), *bounds) if len(bounds) == 1 else bounds
    lo, hi = _constant(game, low), _constant(game, high)
    if lo is None and hi is not None:
        return range(hi - ir.MAX_RANGE, hi)
    lo = 0 if lo is None else lo
    return range(lo, lo + ir.MAX_RANGE if hi is None else hi)


def _numbers(game, low: ir.Expr, high: ir.Expr) -> range:
    """The numbers a `choose VAR from low..high` may offer: its bounds when they are
    constants, else the MAX_NUMBERS the interpreter allows from the low bound (0 when
    that is not a constant either: a number outside is refused by `action_of`)."""
    lo, hi = _constant(game, low), _constant(game, high)
    lo = 0 if lo is None else lo
    return range(lo, lo + MAX_NUMBERS if hi is None else hi + 1)


class ObservationEncoder:
    """A seat's observation (`State.observation(seat)`) as a fixed-length vector:

    own seat one-hot (n) | current seat one-hot (n) | active seats (n) | direction |
    turn | per zone slot, in `game.slots` order: its size, then how many cards of each
    type the seat sees there (types in spec order) | counters in `game.counter_names`
    order (one that holds a kind: the kind's place in `game.kind_names`, 0 no kind) |
    game over."""

    def __init__(self, game):
        self.n, self.types = game.n, {name: i for i, name in enumerate(game.type_names)}
        self.slots = [s.label for s in game.slots]
        self.counters = list(game.counter_names)
        # a counter that holds a kind is a number here too: its place in Game.kind_names
        self._kinds = {name: i for i, name in enumerate(game.kind_names)}
        self._kind_counters = {game.counter_names[slot] for slot in game.kind_counters}
        self.size = (
            3 * self.n + 2 + len(self.slots) * (1 + len(self.types)) + len(self.counters) + 1
        )
        # the numbers that may be negative or large, by position: direction and turn,
        # then the counters
        self._wide_at, self._counters_at = 3 * self.n, self.size - 1 - len(self.counters)
        # encode_array's: each seat's code, state -> its vector as a float32 array
        self.encoders = [self._encoder(game, p) for p in range(self.n)]

    def bounds(self, game, turn_limit: int) -> tuple[list[float], list[float]]:
        """The least and the greatest number at each position (a space's bounds): a
        zone's size within the deck, a type's count within its copies, the turn within
        the turn limit, a counter within any counter's limit (a kind's place within
        the kinds)."""
        n, zone = self.n, [float(len(game.ctype)), *map(float, game.deck_counts)]
        low, high = [0.0] * (3 * n) + [-1.0, 0.0], [1.0] * (3 * n) + [1.0, float(turn_limit)]
        for _ in self.slots:
            low, high = low + [0.0] * len(zone), high + zone
        for c in self.counters:
            kinds = c in self._kind_counters
            low.append(0.0 if kinds else float(-INT_LIMIT))
            high.append(float(len(game.kind_names) - 1) if kinds else float(INT_LIMIT))
        return low + [0.0], high + [1.0]

    def names(self) -> list[str]:
        """What each position of the vector holds, for docs and debugging."""
        seats = [seat_name(p) for p in range(self.n)]
        out = (
            [f"seat={s}" for s in seats]
            + [f"current={s}" for s in seats]
            + [f"active[{s}]" for s in seats]
            + ["direction", "turn"]
        )
        for slot in self.slots:
            out += [f"size[{slot}]"] + [f"{slot}.{t}" for t in self.types]
        return out + [f"counter[{c}]" for c in self.counters] + ["over"]

    def encode(self, obs: dict) -> list[float]:
        seats = [seat_name(p) for p in range(self.n)]
        vec = (
            [float(obs["seat"] == s) for s in seats]
            + [float(obs["current"] == s) for s in seats]
            + [float(s in obs["active"]) for s in seats]
            + [float(obs["direction"]), float(obs["turn"])]
        )
        for slot in self.slots:
            vec += self._zone(obs["zones"][slot])
        counters = obs["counters"]
        vec += [
            float(self._kinds[counters[c]] if c in self._kind_counters else counters[c])
            for c in self.counters
        ]
        return vec + [float(obs["over"])]

    def encode_state(self, state, seat: int) -> list[int]:
        """`encode(state.observation(seat))`, from the observation's numbers
        (`State.tallies`) without the names the dict spells out: a step's hot path.
        Its numbers are whole (ints, 1 for true): numpy makes an array of them faster."""
        return self._vector(seat, *state.tallies(seat))

    def _vector(self, seat, current, active, direction, turn, seen, counters, over) -> list[int]:
        n = self.n
        vec = [0] * (3 * n)
        vec[seat] = vec[n + current] = 1
        vec[2 * n : 3 * n] = active
        vec += (direction, turn)
        vec += seen
        vec += counters
        vec.append(over)
        return vec

    def encode_array(self, state, seat: int):
        """`encode_state` as a float32 numpy array (numpy comes with the `rl` and
        `openspiel` extras): `encoders[seat](state)`."""
        return self.encoders[seat](state)

    def _encoder(self, game, seat: int):
        """encode_array for one seat. Where every count fits a byte (a game of fewer
        than 256 cards), the seat's own code (Game.tally_writer) writes the whole vector
        into a copy of the seat's blank one and numpy reads it at once from bytes; a
        direction, turn or counter that does not fit a byte is set after."""
        n = self.n
        blank = bytearray(self.size)
        blank[seat] = 1
        blank[2 * n : 3 * n] = b"\x01" * n  # every seat active, as most of a game
        flags = (n, 2 * n, self.size - 1, 3 * n, self._counters_at, bytes(blank))
        write = None
        if np is not None:
            write = tally_writer(game, seat, 3 * n + 2, (*flags, np.array, np.float32))
        if write is None:  # a game of 256 cards or more
            return lambda state: np.array(self.encode_state(state, seat), np.float32)
        return write

    def _zone(self, seen) -> list[float]:
        counts = [0.0] * len(self.types)
        if isinstance(seen, list):  # cards the seat can see
            cards, size = seen, len(seen)
        else:  # a hidden zone: its size, and the cards revealed to the seat
            cards, size = [r["card"] for r in seen.get("revealed", ())], seen["count"]
        for name in cards:
            counts[self.types[name]] += 1
        return [float(size)] + counts
