"""The game definition: the IR of a spec compiled for a player count (OpenSpiel's Game).

Built once per (spec, player count), never written afterwards, and shared by every state
played with it: zone and counter layouts, card ids, kinds, every expression and effect
as compiled code, and the options a state offers (made here once, so the same card type
against the same player is the same option in every state).

    game = Game(spec, 4)
    state = game.new_initial_state(seed=7)
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from functools import cached_property

from rulespec.lang import ir

from .choices import PASS, Play, seat_name
from .codegen import raise_at_spec
from .effects import StatementCompiler
from .evaluate import Compiler, mentions
from .holds import may_hold, zone_key
from .observe import can_see, seers, tally_writer
from .offers import compile_check, compile_offer
from .rounds import compile_rounds
from .runtime import _at_rest
from .table import whole_number
from .turnflow import TurnFlow


@dataclass(frozen=True)
class Slot:
    zone: ir.ZoneDef
    label: str
    seats: frozenset = frozenset()  # who owns it, for `owner` and `others`: a seat or a team
    index: int | None = None  # its index in its family


def _players(spec: ir.Spec, n_players) -> int:
    """The player count as an int (numpy's whole numbers too); TypeError for a spec
    not loaded or a count not a whole number, ValueError for one the spec does not take."""
    if not isinstance(spec, ir.Spec):
        raise TypeError(f"Game takes a loaded spec, Game(load_spec(path), players), not {spec!r}")
    if not whole_number(n_players):
        raise TypeError(f"Game's players is a whole number, not {n_players!r}")
    n_players = operator.index(n_players)
    if n_players not in spec.player_counts:
        counts = spec.player_range().removeprefix("exactly ")  # "4 players", as scenarios read
        raise ValueError(f"{spec.name} is for {counts}, not {n_players}")
    return n_players


# the format of the logs this engine writes (replay reads older ones: log_format)
LOG_FORMAT = 6


class Game:
    def __init__(self, spec: ir.Spec, n_players: int, log_format: int = LOG_FORMAT):
        """`log_format`: play as the engine did when it wrote logs of that format, for
        replay. The order cards came into a zone that is no pile is no part of the game,
        yet it showed: before format 3, cards leaving such a zone together went in that
        order, not in deck order; before format 4, so did cards of it that a `sort`,
        `argmax` or `argmin` found tied."""
        n_players = _players(spec, n_players)
        self.deck_order, self.deck_ties = log_format >= 3, log_format >= 4
        spec = spec.sized_for(n_players)  # a family sized by a parameter: this count's size
        self.spec, self.n = spec, n_players
        self.params = {p.name: p.value_for(n_players) for p in spec.params}
        self.type_names = [c.name for c in spec.cards]
        self.titles = {c.name: c.title for c in spec.cards}  # what say() calls a card type
        self.kinds = {c.name: frozenset([i]) for i, c in enumerate(spec.cards)}
        for tag in spec.tags:
            self.kinds[tag] = frozenset(i for i, c in enumerate(spec.cards) if tag in c.tags)
        self.kinds["any"] = frozenset(range(len(spec.cards)))
        self.card_types = tuple(self.kinds[name] for name in self.type_names)  # a kind each
        # a counter that holds a kind holds its number, as every counter holds a number:
        # 0 no kind, then each name's kind (every kind a rule can work out is one of them);
        # a kind two names share is known by the first, a card type before a tag
        self.kind_names = (None, *self.kinds)
        self.held_kinds = [k for k in self.kinds if k != "any"]  # `any` is every card: no value
        self.kind_values = (frozenset(), *self.kinds.values())
        self.kind_number: dict[frozenset, int] = {}
        for i, kind in enumerate(self.kind_values):
            self.kind_number.setdefault(kind, i)
        self.props = [dict(c.props) for c in spec.cards]
        self.ctype = tuple(i for i, (_, k) in enumerate(spec.deck_for(n_players)) for _ in range(k))
        self.deck_counts = tuple(self.ctype.count(t) for t in range(len(self.type_names)))
        # the language's card_types: the types this game's deck holds a card of (a
        # variant's count of 0, or a removal at this player count, takes a type out)
        self.deck_types = tuple(k for k, n in zip(self.card_types, self.deck_counts) if n)
        # fewer than 256 cards: every count of cards (and every zone's size) fits a byte,
        # so a learning environment's observation vector is written in bytes (tallies_into)
        self.byte_counts = len(self.ctype) < 256

        # teams: each one's seats, and each seat's team (none: every seat plays alone)
        self.teams = spec.teams_for(n_players)
        self.team_of = tuple(
            t for p in range(n_players) for t, s in enumerate(self.teams) if p in s
        )
        self.per_team = {x.name for x in (*spec.zones, *spec.counters) if x.per_team}
        self.zone_index, self.slots = {}, []
        for z in spec.zones:
            self.zone_index[z.name] = len(self.slots)
            self.slots.extend(_slots(z, n_players, spec.teams))
        # slot -> the seats that see its cards (None: everyone)
        self.seers = tuple(seers(s, n_players) for s in self.slots)
        self.saw, self.told = _told(self.seers, n_players)
        # slot -> whether the order of its cards matters (the box, the last, is a heap)
        self.ordered = (*(s.zone.ordered for s in self.slots), False)
        # slot -> whether cards leaving it together go in deck order: a zone that is no
        # pile, whose order (the deal's, the draws') is no part of the game
        self.leave_sorted = tuple(self.deck_order and not o for o in self.ordered)
        self.untold = [[frozenset()] * len(row) for row in self.told]  # a table without views
        # seat -> for each slot, whether the seat sees its cards
        self.sees = [tuple(can_see(s, p) for s in self.slots) for p in range(n_players)]
        self._tally_writers: dict = {}  # (seat, offset) -> its code (tally_writer), when asked
        self.start_slot = next(self.zone_index[z.name] for z in spec.zones if z.start)
        # a choice that may offer cards its chooser cannot see by place (a blind pick)
        # offers those it knows of by card: a game of it keeps what each seat knows
        self.picks_unseen = any(
            spec.unseen_sources(c)
            for c in ir.walk_statements(spec.effect_blocks())
            if type(c) is ir.ChooseCard and c.source.type in ("cards", "zone")
        )
        self.hand = None if spec.hand is None else self.zone_index[spec.hand]
        self._index_refills()
        self._index_counters()
        self._index_memories()
        # goals: name -> (zone slot base, ((kind, limit), ...)) in order
        self.goals = {
            g.name: (self.zone_index[g.zone], tuple((self.kinds[k], lim) for k, lim in g.order))
            for g in spec.goals
        }
        self.exprs = Compiler(self)
        self.exprs.conditions(spec.conditions)
        # the named values the table shows, each with its function: worked out only as
        # an observation is asked for (observe.shown_values), never in play
        self.shown = tuple((c, self.exprs.tests[c.name]) for c in spec.conditions if c.shown)
        with self.exprs.within("evaluation"):
            self.evaluation = self.exprs.expr(spec.evaluation) if spec.evaluation else None
        with self.exprs.within("payoff"):
            self.payoff = self.exprs.expr(spec.payoff.value) if spec.payoff else None
        with self.exprs.within("turn_order"):
            self.turn_order = self.exprs.seat(spec.turn_order) if spec.turn_order else None
        stmts = StatementCompiler(self)
        self.counter_initial, marks = [], []
        for c in spec.counters:
            with self.exprs.within(f"counters.{c.name}"):
                initial = self.exprs.expr(c.initial)
                initial = self._as_held(c.initial.type, initial)
                if c.per_card:
                    marks.append(initial)
                else:
                    self.counter_initial += [initial] * len(self._owners(c))
        # a per_card counter's initial value reads parameters and constants only (the
        # compiler checks it): one number for the game, read without a table
        try:
            self.mark_initial = tuple(f(None, {}) for f in marks)
        except Exception as exc:
            raise_at_spec(exc)
        self.mark_start = tuple(v for v in self.mark_initial for _ in self.ctype)
        for p in spec.procedures:
            stmts.procedure(p)
        self.setup = stmts.setup(spec.setup)
        self.actions = {a.name: stmts.action(a) for a in spec.actions}
        names = {r.name for r in spec.reactions}
        self.reactions = [
            stmts.reaction(r, any(a in names for a in r.answers)) for r in spec.reactions
        ]
        self.reactions_by_name = {r.ir.name: r for r in self.reactions}
        # action or reaction -> card type (None: no card) -> the reactions that answer
        # it with that type, in order
        self.answers = {name: {} for name in [*self.actions, *names]}
        for r in self.reactions:
            for name in r.ir.answers:
                for t in sorted(r.card) if r.ir.card else (None,):
                    self.answers[name].setdefault(t, []).append(r)
        # a named window -> the same, with only the reactions it offers
        self.window_answers = {
            w.name: {
                name: {
                    t: [r for r in rs if r.ir.name in w.offers]
                    for t, rs in by_type.items()
                    if any(r.ir.name in w.offers for r in rs)
                }
                for name, by_type in self.answers.items()
            }
            for w in spec.windows
        }
        self.steps = [stmts.step(s, self.actions) for s in spec.turn]
        self.target_suffix = [f" -> {seat_name(p)}" for p in range(n_players)]
        self.others = [tuple(q for q in range(n_players) if q != p) for p in range(n_players)]
        # per seat: who plays against it (the other seats, or the other teams' seats)
        self.rivals = [
            tuple(q for q in self.others[p] if not self.teams or self.team_of[q] != self.team_of[p])
            for p in range(n_players)
        ]
        self.play_options = self._play_options()
        self.offers = [  # a play step's options (offers.py), its fallback actions' apart
            compile_offer(self, s, self._offer_order(s, False)) if s.plays else None
            for s in self.steps
        ]
        # asked only when the step's other actions offer nothing: a fallback's options
        # (a group's, say, which may be many) are not worked out while another can be played
        self.fallbacks = [
            compile_offer(self, s, self._offer_order(s, True)) if s.fallback else None
            for s in self.steps
        ]
        self.end_conditions = [stmts.trigger(t) for t in spec.end_conditions]
        self.triggers = [stmts.trigger(t) for t in spec.triggers]
        self.rounds = compile_rounds(self, stmts) if spec.rounds else None
        # checked in this order (C-4): a round ends only if the game does not
        rules = self.end_conditions + (self.rounds.ends if self.rounds else []) + self.triggers
        self.automatic = [t for t in rules if t.ir.at is None]
        # checked only as a turn ends (at: turn_end), in the same order: (rule, its `each`
        # name, the player's place from the current one), one entry a player
        self.closing = tuple(
            (t, t.ir.each, place)
            for t in rules
            if t.ir.at == "turn_end"
            for place in (range(n_players) if t.ir.each else (None,))
        )
        self._index_watchers()
        # does a rule read the turns owed? Only then is giving or dropping one a change
        # the checks look at (Table._owed_changed): a spec that cannot read them plays
        # as before they could be read (a trigger that held does not fire again)
        self.reads_owed = mentions(
            spec, lambda n: isinstance(n, ir.Call) and n.func in ir.READS_OWED
        )
        self.check = compile_check(self)  # which dirty automatic rules hold (offers.py)
        self.flow = TurnFlow(self)
        self.block_ids = stmts.block_ids  # id(code) -> a stable number, for State.key()

    def _index_refills(self) -> None:
        """src -> (the slot that refills it, the cards left on top of that slot): of an
        owned refill zone, the same owner's (the compiler checks both are owned alike)."""
        self.refill = {}
        for slot, s in enumerate(self.slots):
            z = s.zone
            if z.refill_from:
                source = self.zone_index[z.refill_from]
                if self.spec.zone(z.refill_from).owned:
                    source += slot - self.zone_index[z.name]
                self.refill[slot] = (source, z.refill_keep)

    def _index_counters(self) -> None:
        """counter -> its first index (a per-player one has one a seat, a per-team one one a
        team), their names, the indexes of those that keep their values through a match,
        and of those set back as each turn, or round, begins (`reset`)."""
        self.counter_index, self.counter_names, self.match_counters = {}, [], []
        self.kind_counters: set[int] = set()  # the counters that hold a kind (its number)
        self.player_counters: set[int] = set()  # those that hold a seat
        resets: dict[str, list[int]] = {"turn": [], "round": []}
        # per_card counters (Table._marks): a family of one value a card, by card id
        self.mark_index, self.mark_names = {}, []
        self.mark_types: list[str] = []  # what each holds: int, player or kind (its number)
        mark_resets: dict[str, list[int]] = {"turn": [], "round": []}
        for c in self.spec.counters:
            if c.per_card:
                self.mark_index[c.name] = len(self.mark_names) * len(self.ctype)
                if c.reset:
                    mark_resets[c.reset].append(len(self.mark_names))
                self.mark_names.append(c.name)
                self.mark_types.append(c.initial.type)
                continue
            slots = range(len(self.counter_names), len(self.counter_names) + len(self._owners(c)))
            if c.match:
                self.match_counters.extend(slots)
            if c.reset:
                resets[c.reset] += slots
            if c.initial.type == "kind":
                self.kind_counters.update(slots)
            elif c.initial.type == "player":
                self.player_counters.update(slots)
            self.counter_index[c.name] = len(self.counter_names)
            self.counter_names.extend(f"{c.name}{o}" for o in self._owners(c))
        self.turn_resets, self.round_resets = tuple(resets["turn"]), tuple(resets["round"])
        self.mark_turn_resets = tuple(mark_resets["turn"])
        self.mark_round_resets = tuple(mark_resets["round"])

    def _index_memories(self) -> None:
        """Remembered cards: one slot each, or one a seat; those forgotten as each turn
        begins."""
        spec, n_players = self.spec, self.n
        self.memory_index, self.memory_names, turn_memories = {}, [], []
        for m in spec.memories:
            self.memory_index[m.name] = first = len(self.memory_names)
            self.memory_names += (
                [f"{m.name}[P{p + 1}]" for p in range(n_players)] if m.per_player else [m.name]
            )
            if m.until == "turn":
                turn_memories += range(first, len(self.memory_names))
        self.turn_memories = tuple(turn_memories)

    def new_initial_state(self, seed: int = 0, **options):
        """A new game from the spec's setup: see State."""
        from .state import State

        return State(self, seed, **options)

    @cached_property
    def may_hold(self) -> tuple[frozenset | None, ...]:
        """Slot -> the card types the rules can ever put there (holds.py), None for
        every type: worked out when a re-deal first asks."""
        every, bound = self.kinds["any"], may_hold(self.spec, self.kinds)
        keys = [zone_key(s.zone.name, s.index) for s in self.slots]
        return tuple(None if bound[k] >= every else bound[k] for k in keys)

    @cached_property
    def dealt_bounds(self) -> dict[int, frozenset]:
        """The bounds of may_hold a re-deal keeps to: of the slots some seat cannot see
        (a public zone is never dealt again), by slot; empty for most games, whose
        re-deals then test nothing more."""
        public = {i for i, seen in enumerate(self.seers) if seen is None}
        return {i: m for i, m in enumerate(self.may_hold) if m is not None and i not in public}

    @cached_property
    def value_labels(self) -> dict[str, str]:
        """A family by a card property's labels as a table may be laid out with them, by
        value (`discard[red]`, `laid[P1][red]`), to the labels by place (`discard[0]`)."""
        out = {}
        for x in (*self.spec.zones, *self.spec.counters):
            if not x.by:
                continue
            values = self.value_names(x.by)
            labels = [s.label for s in self.slots if s.zone.name == x.name] or [
                label for label in self.counter_names if label.split("[", 1)[0] == x.name
            ]
            for label in labels:
                head, index = label.rsplit("[", 1)
                out[f"{head}[{values[int(index[:-1])]}]"] = label
        return out

    def value_names(self, prop: str) -> list[str]:
        """The names of a kind property's values, in values() order: a by-family's
        members, place by place."""
        return [self.kind_name(v) for v in self.prop_values(prop)]

    def tally_writer(self, seat: int, at: int):
        """The seat's own code for State.tallies_into at offset `at` (observe.tally_writer),
        compiled when first asked for; None where a count may not fit a byte."""
        key = seat, at
        if key not in self._tally_writers:
            self._tally_writers[key] = tally_writer(self, seat, at)
        return self._tally_writers[key]

    def _as_held(self, holds: str, initial):
        """A counter's initial value as the counter holds it: a kind as its number, a
        player as its seat (nobody: -1), a number as itself."""
        if holds == "kind":
            number = self.kind_number
            return lambda g, env: number[initial(g, env)]
        if holds == "player" and self.exprs.nobody:
            return lambda g, env: _at_rest(initial(g, env))
        return initial

    def kind_title(self, kind: frozenset) -> str:
        """A kind as say() tells it: a card type by its title, a tag by its name."""
        name = self.kind_name(kind)
        return "none" if name is None else self.titles.get(name, name)

    def cards_title(self, cards) -> str:
        """Cards as say() tells them: their types' titles, in their order."""
        return ", ".join(self.titles[self.type_names[self.ctype[c]]] for c in cards) or "no card"

    def kind_name(self, kind: frozenset) -> str | None:
        """A kind's name: a card type's, else its tag's (None: no kind)."""
        return self.kind_names[self.kind_number[kind]]

    def prop_values(self, name: str) -> tuple:
        """`values("name")`: the kinds a kind property names, in the order of the first
        card type naming each, or the numbers of a number property, lowest first."""
        named = [props[name] for props in self.props if name in props]
        if named and isinstance(named[0], int):
            return tuple(sorted(set(named)))
        return tuple(dict.fromkeys(self.kinds[v] for v in named))

    def kind_value(self, slot: int, value):
        """A counter's value as the game shows it: a kind by its name (None: no kind)."""
        return self.kind_names[value] if slot in self.kind_counters else value

    def mark_value(self, family: int, value):
        """A per_card counter's value as the game shows it, as kind_value a counter's."""
        return self.kind_names[value] if self.mark_types[family] == "kind" else value

    def _owners(self, c: ir.CounterDef) -> list[str]:
        """The label suffix of each value of a counter: one a seat, one a team, or one;
        for a family, one an index of each (`bid[P1][0]`, `bid[P1][1]`, ..., `bid[P2][0]`)."""
        return [suffix for suffix, _, _ in _members(c, self.n, self.spec.teams)]

    def with_partners(self, seats) -> tuple[int, ...]:
        """The seats and their teams' other seats, in seat order: a team wins together."""
        if not self.teams:
            return tuple(seats)
        won = {self.team_of[p] for p in seats}
        return tuple(p for p in range(self.n) if self.team_of[p] in won)

    def _play_options(self) -> dict:
        """(action, card type or None, target seat or None) -> its option, for every
        action a step offers: made once, shared by every state."""
        options = {}
        for a in self.actions.values():
            if a.ir.count is not None:
                continue  # a group's options name its cards: made as offered
            types = sorted(a.card) if a.card is not None else [None]
            targets = range(self.n) if a.ir.target in ("other", "any") else [None]
            if a.ir.without_target:  # and played without one, when no player may be
                targets = [*targets, None]
            for t in types:
                for p in targets:
                    label = (
                        a.ir.name
                        + (f" {self.type_names[t]}" if a.shows_type else "")
                        + (self.target_suffix[p] if p is not None else "")
                    )
                    options[a.ir.name, t, p] = Play(label, a.ir.name, t, p)
        return options

    def _offer_order(self, step, fallback: bool) -> tuple:
        """What a play step may offer of its actions that are (or are not) a `fallback`, in
        the order of its options' labels (options are sorted by label): (option, action,
        card type, target seat) for each option an action may make, (PASS, None, None,
        None) where `pass` falls, and for an action
        that targets a card or a zone (its labels name the card or zone: worked out as
        it is offered) (None, action, card type, None) where all its labels fall, as they
        share its name and type as a prefix; likewise for an action that plays a group of cards
        (its labels name the cards), its name a prefix."""
        entries = [("pass", (PASS, None, None, None))]
        for a in step.plays:
            if a.ir.fallback != fallback:
                continue
            if a.ir.count is not None:  # a group: its labels share its name as a prefix
                entries.append((a.ir.name + " ", (None, a, None, None)))
                continue
            for t in sorted(a.card) if a.card is not None else [None]:
                if a.ir.target in ("card", "zone"):
                    prefix = self.play_options[a.ir.name, t, None].label + (
                        " -> " if a.ir.target == "zone" else " "
                    )
                    entries.append((prefix, (None, a, t, None)))
                    continue
                targets = range(self.n) if a.ir.target in ("other", "any") else [None]
                for p in targets:
                    option = self.play_options[a.ir.name, t, p]
                    entries.append((option.label, (option, a, t, p)))
        entries.sort(key=lambda e: e[0])
        return tuple(entry for _, entry in entries)

    def _index_watchers(self) -> None:
        """Which (automatic rule, player) pairs read each zone slot and counter.

        A condition's value changes only when something it reads changes, so the game
        marks the readers of whatever it changes as dirty and evaluates only those.
        Reads through the rule's own player (`hand(p)` with `each: p`) are that
        player's; any other read of a per-player zone or counter is everyone's.
        A pair is known by a small int, its key, numbered in spec order and seat order
        within a rule (C-4's order from seat 0); a set of keys is an int, a bit a key."""
        nslots, ncounters = len(self.slots) + 1, len(self.counter_names)
        watch_slots = [[] for _ in range(nslots)]
        watch_counters = [[] for _ in range(ncounters)]
        watch_marks = [[] for _ in self.mark_names]  # a per_card counter's readers, any card's
        watch_table: list = []  # readers of current, players or the turn order
        self.keys: dict = {}  # (rule index, player or None) -> key
        # key -> (rule, what its condition reads, its player or None, its rule's index)
        self.checks: list = []
        for i, t in enumerate(self.automatic):
            for p in range(self.n) if t.ir.each else (None,):
                self.keys[i, p] = len(self.keys)
                self.checks.append((t, {t.ir.each: p} if t.ir.each else {}, p, i))
        self.all_keys = (1 << len(self.keys)) - 1
        ntypes = len(self.type_names)
        typed = [[[] for _ in range(ntypes)] for _ in range(nslots)]  # readers of one type's count
        for i, t in enumerate(self.automatic):
            reads = _ConditionReads(
                self, i, t.ir.each, typed, (watch_slots, watch_counters, watch_marks)
            )
            reads.visit_all(t.ir.when)
            if reads.table:
                watch_table += reads.keys
        # readers of a card of type t moving in or out of a slot: the slot's readers and
        # the readers of counts that include t; every reader, when the whole slot changes
        self.watch_cards = [
            [_mask(watch_slots[s] + typed[s][t]) for t in range(ntypes)] for s in range(nslots)
        ]
        self.watch_slots = [_mask(set(watch_slots[s]).union(*typed[s])) for s in range(nslots)]
        self.watch_counters = [_mask(keys) for keys in watch_counters]
        self.watch_marks = tuple(_mask(keys) for keys in watch_marks)
        self.watch_table = _mask(watch_table)


def _mask(keys) -> int:
    """A set of keys as an int, a bit a key."""
    return sum(1 << k for k in set(keys))


class _ConditionReads:
    """Adds the keys of one automatic rule (index i, per player `each` or shared) to the
    game's readers of each zone slot, counter and per_card counter its condition reads, and to `typed`
    (slot -> card type -> keys) for each count of a kind in a slot."""

    def __init__(self, game: Game, i: int, each: str | None, typed: list, watches: tuple):
        self.game, self.i, self.each, self.typed = game, i, each, typed
        # readers of each zone slot, counter, and per_card counter (of every card at once)
        self.watch_slots, self.watch_counters, self.watch_marks = watches
        n = game.n
        self.keys = [game.keys[i, p] for p in range(n)] if each else [game.keys[i, None]]
        self.table = False  # does it read who is in, whose turn it is or the direction?
        self.called = {}  # the named conditions it calls, through others too: their bodies
        self.goal_zones = {g.name: g.zone for g in game.spec.goals}

    def visit_all(self, when) -> None:
        self.visit(when)
        done = set()
        while self.called.keys() - done:  # a loop, not a recursion: conditions may nest deep
            name = min(self.called.keys() - done)
            done.add(name)
            self.visit(self.called[name], own=False)

    def visit(self, node, own=True) -> None:
        """`own` when a local named like `each` is the rule's player (not a parameter of
        a named condition)."""
        if node is None:  # a zone or counter with no owner
            return
        if isinstance(node, ir.ConditionCall):  # it reads what its body reads
            self.called.setdefault(node.name, self.game.spec.condition(node.name).when)
        node = self._goal_zone(node)
        self.table = self.table or _reads_table(node)
        if self._count_of_kind(node, own):
            return
        if isinstance(node, ir.Call) and node.func == "zone_of":  # where a card lies: any move
            for watch in self.watch_slots:
                watch.extend(self.keys)
        if isinstance(node, ir.Counter) and node.name in self.game.mark_index:  # any card's
            self.watch_marks[self.game.mark_names.index(node.name)].extend(self.keys)
        elif isinstance(node, (ir.ZoneRef, ir.Zones, ir.Counter)):  # zones: a family's, all
            watch = self.watch_counters if isinstance(node, ir.Counter) else self.watch_slots
            for slot, k in self.readers(node, own):
                watch[slot].append(k)
        for child in ir.iter_children(node):
            self.visit(child, own)

    def _goal_zone(self, node):
        """A goal function reads its goal's zone of the player it names."""
        if isinstance(node, ir.Call) and node.args and node.args[0].type == "goal":
            return ir.ZoneRef(node.span, "zone", self.goal_zones[node.args[0].value], node.args[1])
        return node

    def _count_of_kind(self, node, own) -> bool:
        """Watches node if it is a count of a kind of cards in a zone; False if not."""
        if not (
            isinstance(node, ir.Call)
            and node.func == "count"
            and isinstance(node.args[0], ir.ZoneRef)  # not a local: what it holds is watched
            and isinstance(node.args[1], ir.Kind)
        ):
            return False
        # a count of a kind changes only when a card of that kind moves
        for slot, k in self.readers(node.args[0], own):
            for type_ in self.game.kinds[node.args[1].name]:
                self.typed[slot][type_].append(k)
        for part in (node.args[0].owner, node.args[0].index):  # whose zone, and which
            self.visit(part, own)
        return True

    def readers(self, node, own) -> list:
        """(slot or counter, key) for each reader of what node names."""
        g, each = self.game, self.each
        zone = not isinstance(node, ir.Counter)
        base = g.zone_index[node.name] if zone else g.counter_index[node.name]
        # a family's zones (or counters) of one owner lie together, from its owner's first
        width = (g.spec.zone(node.name) if zone else g.spec.counter(node.name)).count or 1
        if node.owner is None:
            return [(base + i, k) for i in range(width) for k in self.keys]
        team = node.name in g.per_team  # one a team: p's is at base + team_of[p]
        if own and each and isinstance(node.owner, ir.Local) and node.owner.name == each:
            at = g.team_of if team else range(g.n)
            return [
                (base + at[p] * width + i, g.keys[self.i, p])
                for p in range(g.n)
                for i in range(width)
            ]
        owners = len(g.teams) if team else g.n
        return [(base + s, k) for s in range(owners * width) for k in self.keys]


def _reads_table(node) -> bool:
    """Does node read who is in, whose turn it is (or which turn), the direction of
    play or the turns owed? Each turn that begins marks its readers to be checked again."""
    if isinstance(node, ir.Local):
        return node.name in ("current", "players", "seats", "turn_number")
    # aggregates and next, prev, others, partners read who is in and the direction of play
    return isinstance(node, ir.Aggregate) or (
        isinstance(node, ir.Call)
        and node.func in ("next", "prev", "others", "partners", *ir.READS_OWED)
    )


def _slots(z: ir.ZoneDef, n_players: int, teams) -> list[Slot]:
    """The slots of a zone: one, one per seat (`hand[P1]`, ...), one per team
    (`chest[odd]`, owned by its seats), or one per index of a family (`row[0]`, ...);
    a family per seat or team has its owner's slots together (`field[P1][0]`,
    `field[P1][1]`, ..., `field[P2][0]`, ...)."""
    return [
        Slot(z, f"{z.name}{suffix}", seats, i) for suffix, seats, i in _members(z, n_players, teams)
    ]


def _members(x: ir.ZoneDef | ir.CounterDef, n_players: int, teams) -> list[tuple]:
    """(label suffix, owning seats, index) of each zone or counter a declaration makes:
    one, one a seat (`[P1]`), one a team (`[odd]`), each times its family's indexes
    (`[P1][0]`, `[P1][1]`, ..., `[P2][0]`)."""
    if x.per_player:
        owners = [(f"[P{p + 1}]", frozenset([p])) for p in range(n_players)]
    elif x.per_team:
        owners = [(f"[{t.name}]", frozenset(p for p in t.seats if p < n_players)) for t in teams]
    else:
        owners = [("", frozenset())]
    indexes = [("", None)] if x.count is None else [(f"[{i}]", i) for i in range(x.count)]
    return [(o + s, seats, i) for o, seats in owners for s, i in indexes]


def _told(seers: tuple, n: int) -> tuple[list[list[frozenset]], list[list[frozenset]]]:
    """[src][dst] -> the seats that see a card move from src to dst (those who see
    either zone: the seats whose log names it), and those of them who cannot see dst,
    who learn which card now lies there (knowledge.py)."""
    everyone = frozenset(range(n))
    seen = [everyone if who is None else who for who in seers]
    saw = [[a | b for b in seen] for a in seen]
    return saw, [[saw[i][j] - seen[j] for j in range(len(seen))] for i in range(len(seen))]
