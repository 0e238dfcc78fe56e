"""The table: where every card is, the counters, who is in, whose turn, and the log.

Its fields are private; the mutators below are the only writers, and each keeps the
table's invariants: every card lies in exactly one zone and knows where
(`_loc`), the per-zone counts of each card type (`_tcount`) match the zones, and
every change marks the automatic rules that read what changed as dirty (the index is
the game definition's `watch_*`) and bumps `_version`, so the trigger checks
(State._advance) see it. Every change is logged with what each seat may see.
"""

from __future__ import annotations

import operator
import random

from . import knowledge
from .choices import NOBODY_AT_REST

INT_LIMIT = 10**18  # a counter's value stays within ±INT_LIMIT (docs/limits.md)


class RuleLimit(ValueError):
    """A rule went past a limit of the runtime (docs/limits.md), or asked what cannot
    be (an nth of a set without that place): its message is written for the spec's
    writer, and RS701 shows it without a Python type name, which marks an engine bug."""


class Table:
    def __init__(self, game, log: bool, views: bool = True):
        self.game = game  # the definition: shared, never written
        self._n = game.n
        self._ctype = game.ctype  # card id -> card type
        # one list per zone slot, bottom to top, plus a last one, the box, for cards out of play
        self._zones: list[list[int]] = [[] for _ in range(len(game.slots) + 1)]
        self._loc = [game.start_slot] * len(game.ctype)
        self._zones[game.start_slot] = list(range(len(game.ctype)))
        self._tcount = [[0] * len(game.type_names) for _ in self._zones]
        self._tcount[game.start_slot] = list(game.deck_counts)
        self._counters = [0] * len(game.counter_names)
        # per_card counters: family f's value on card c at f * cards + c (Game.mark_index)
        self._marks = list(game.mark_start)
        self._memory: tuple[tuple[int, ...], ...] = ((),) * len(game.memory_names)  # card ids
        self._current, self._direction, self._turn = 0, 1, 0
        self._active = [True] * self._n
        self._outs = 0  # eliminations so far: the turn order's only other input
        self._skips = self._extras = (0,) * self._n  # per seat: turns to miss, turns to take again
        self._leader: int | None = None  # who takes the next turn (set_next)
        self._steered = game.turn_order is not None  # anything but "next player" decides it
        self._sitting: tuple[int, ...] = ()  # players out until the round ends
        self._order = (None, ())  # cached turn order: ((current, direction, outs), order)
        self._dirty = game.all_keys  # keys of (automatic rule, player) pairs to evaluate, as bits
        self._version = 0
        self._events: list[dict] | None = [] if log else None
        # seat -> its log's lines so far, as its information key has them (observe.py)
        self._key_lines: dict[int, tuple] = {}
        # slot -> seat -> what the seat knows of that zone it cannot see (knowledge.py);
        # kept only for a table with views: without, no seat learns anything (`_told`)
        self._known: dict[int, dict[int, knowledge.Known]] = {}
        self._told = game.told if views else game.untold

    @property
    def _keeps_views(self) -> bool:
        """Does this table keep what each seat knows (made with views)?"""
        return self._told is self.game.told

    # --- reads --------------------------------------------------------------------

    def active_players(self) -> tuple[int, ...]:
        """Active players in turn order, starting with the current one."""
        key = (self._current, self._direction, self._outs)
        if self._order[0] == key:
            return self._order[1]
        out, p = [], self._current
        for _ in range(self._n):
            if self._active[p]:
                out.append(p)
            p = (p + self._direction) % self._n
        self._order = (key, tuple(out))
        return self._order[1]

    def seats(self) -> tuple[int, ...]:
        """Every seat, those out included, in turn order starting with the current one."""
        n, d, p = self._n, self._direction, self._current
        return tuple((p + d * i) % n for i in range(n))

    def next_player(self, p: int) -> int:
        return self._active_after(p, self._direction)

    def prev_player(self, p: int) -> int:
        return self._active_after(p, -self._direction)

    def _active_after(self, p: int, step: int) -> int:
        """The first active player after p, going round the table by step (±1)."""
        for _ in range(self._n):
            p = (p + step) % self._n
            if self._active[p]:
                return p
        return p

    # --- mutators -----------------------------------------------------------------

    def move_cards(self, cards, dst: int, top: bool = False) -> None:
        """Move cards one by one onto dst; `top` when the rules drew them from the top of
        their zone (a draw: which place each left is public). The log gets one move
        event per source zone. The hot path of every game: one loop, nothing called
        per card unless some seat knows of, or learns of, the zones."""
        if self._events is not None:
            self._move_logged(cards, dst, top)
            return
        loc, zones, ctype, tcount, known = (
            self._loc,
            self._zones,
            self._ctype,
            self._tcount,
            self._known,
        )
        told, watch = self._told, self.game.watch_cards
        into, counts, dirty = zones[dst], tcount[dst], self._dirty
        emptied = self._emptied(cards, dst, top) if known and len(cards) > 1 else None
        for c in cards:
            src = loc[c]
            zone = zones[src]
            if zone[-1] == c:
                zone.pop()  # a draw from the top: no search through the pile
            else:
                zone.remove(c)
            into.append(c)
            loc[c] = dst
            t = ctype[c]
            tcount[src][t] -= 1
            counts[t] += 1
            if (known and src in known) or told[src][dst]:  # a seat knew of src, or learns of dst
                self._learn_move(src, dst, t, len(zone) if top else None)
            dirty |= watch[src][t] | watch[dst][t]
        self._dirty = dirty
        self._version += len(cards)
        if emptied:
            self.know_emptied(emptied, dst)

    def _unmark(self, cards) -> None:
        """Set these cards' per_card counters back to their initial values: a card that
        changes zones leaves its state behind. Not logged: the move is, and a seat sees
        a card's counters only where it sees the card."""
        marks, n = self._marks, len(self._ctype)
        for f, initial in enumerate(self.game.mark_initial):
            changed = False
            for c in cards:
                if marks[f * n + c] != initial:
                    marks[f * n + c], changed = initial, True
            if changed:
                self._dirty |= self.game.watch_marks[f]

    def _emptied(self, cards, dst: int, top: bool) -> list[tuple[int, dict]]:
        """(seat, the types it knows were there) for each zone these cards empty, for a
        seat that sees neither it nor dst and knew some of its cards: it saw the whole
        zone go to dst, so what it knew lay there lies in dst now (a pile picked up
        whole: the cards the seat put in it are in the taker's hand). Told card by card
        in _learn_move, and so left out here: a zone whose every card the seat knew, all
        of one type, and the cards at places the seat knew in an ordered zone drawn from
        the top. Worked out before the cards move, and told once they have (move_cards;
        State.draw, logging card by card)."""
        zones, loc, known, saw = self._zones, self._loc, self._known, self.game.saw
        leaving: dict[int, int] = {}
        for c in dict.fromkeys(cards):  # a card listed twice leaves its zone once
            leaving[loc[c]] = leaving.get(loc[c], 0) + 1
        out = []
        for src, n in leaving.items():
            on = known.get(src)
            if on is None or src == dst or n != len(zones[src]):
                continue
            placed = top and self.game.ordered[src]
            for q, k in on.items():
                whole_of_one = len(k.types) == 1 and sum(k.types.values()) == n
                if k.types and not whole_of_one and q not in saw[src][dst]:
                    types = dict(k.types)
                    for t in k.at.values() if placed else ():
                        types[t] -= 1
                    out.append((q, {t: m for t, m in types.items() if m > 0}))
        return out

    def know_emptied(self, emptied, dst: int) -> None:
        """What `_emptied` found, told once the cards have moved."""
        for q, types in emptied:
            if types:
                self._know_more(dst, q, types)

    def _know_more(self, dst: int, q: int, types: dict, at: int | None = None) -> None:
        """Seat q now knows these cards (type -> how many) lie in dst, the last at
        `at` (from the bottom) when known."""
        k = self._known.setdefault(dst, {}).get(q)
        if k is None:
            k = self._known[dst][q] = knowledge.Known()
        for t, n in types.items():
            k.types[t] = k.types.get(t, 0) + n
        if at is not None:
            k.at[at] = next(iter(types))

    def _move_logged(self, cards, dst: int, top: bool) -> None:
        by_src: dict[int, list[int]] = {}  # where each card was as it moved
        seen: set[int] = set()  # a card listed twice moves the second time from dst
        events, self._events = self._events, None
        try:
            for c in cards:
                by_src.setdefault(dst if c in seen else self._loc[c], []).append(c)
                seen.add(c)
            self.move_cards(cards, dst, top)
        finally:
            self._events = events
        for src, moved in by_src.items():
            self._log_move(src, dst, moved)

    def _learn_move(self, src: int, dst: int, t: int, place: int | None) -> None:
        """What each seat learns from a card of type t moving from src (from `place`,
        counted from the bottom, when drawn from the top) to dst: those who knew of src
        lose a card of t if they saw it, else a card of any type; those who saw it and
        cannot see dst know one more of t lies there. A card put back into the zone
        that is no pile it came from stays where it was: nothing is learnt."""
        game, known = self.game, self._known
        if src == dst and not game.ordered[src]:
            return
        at = len(self._zones[dst]) - 1 if game.slots[dst].zone.ordered else None
        on = known.get(src)
        if on is not None:
            saw, ordered = game.saw[src][dst], game.slots[src].zone.ordered
            left = len(self._zones[src])
            for q, k in list(on.items()):
                if q in saw and t not in k.types and not k.at:
                    continue  # it saw a card it knew nothing of leave: it knows as much
                if q not in saw and len(k.types) == 1 and sum(k.types.values()) == left + 1:
                    # it knew every card there, all of one type: so is this one
                    self._know_more(dst, q, dict.fromkeys(k.types, 1), at)
                elif q not in saw and ordered and place in k.at:  # drawn from a place it knew
                    self._know_more(dst, q, {k.at[place]: 1}, at)
                if not k.left(t if q in saw else None, place, ordered):
                    del on[q]
            if not on:
                del known[src]
        # those who saw it go: one more of t, at its place if known (a refill tells every seat)
        for q in self._told[src][dst]:
            self._know_more(dst, q, {t: 1}, at)

    def swap_cards(self, a: int, b: int) -> None:
        """Trade the cards of zones a and b (`swap`): a's go onto b, then b's own onto a,
        a pile's in its order and another zone's in deck order (the order its cards
        came in is no part of the game), so each zone ends holding the other's. A
        seat that sees neither zone saw the two trade places: what it knew of one it now
        knows of the other (places too, into an ordered zone); a seat that sees one saw
        its cards go and the other's come, and knows every card the other now holds."""
        if a == b:
            return
        sort = self.game.leave_sorted
        first, second = (
            sorted(self._zones[z]) if sort[z] else list(self._zones[z]) for z in (a, b)
        )
        neither = set(range(self._n)) - self.game.saw[a][b] if self._keeps_views else set()
        known = self._known
        was = {
            z: {q: k.copy() for q, k in known.get(z, {}).items() if q in neither} for z in (a, b)
        }
        labels = [self.game.slots[z].label for z in (a, b)]
        # every seat's log says the zones traded places: what a seat that sees neither
        # knew of one it knows of the other (two moves alone would not tell it so)
        self._log("swap", zones=labels, n=[len(first), len(second)])
        self.move_cards(first, b)
        self.move_cards(second, a)
        ctype = self._ctype
        for z, other, came in ((a, b, second), (b, a, first)):
            on = was[other]
            if not self.game.ordered[z]:  # the places came from an ordered zone: none here
                for k in on.values():
                    k.unplace()
            # a seat that sees the other zone, not this one, saw all its cards come here
            # and this zone's own leave: it holds those cards and no more, in their order
            # (told card by card, a card of a type that came and left was forgotten)
            seen = self._told[other][z] if came else ()
            if seen:
                types: dict[int, int] = {}
                for c in came:
                    types[ctype[c]] = types.get(ctype[c], 0) + 1
                places = dict(enumerate(ctype[c] for c in came)) if self.game.ordered[z] else {}
                for q in seen:
                    on[q] = knowledge.Known(dict(types), dict(places))
            if on:
                known[z] = on
            else:
                known.pop(z, None)

    def insert_cards(self, cards, dst: int, depth: int) -> None:
        """Move cards one by one to `depth` cards below the top of dst (0: the top;
        past the bottom: the bottom). Who cannot see dst no longer knows any place
        there, only which cards it holds: the depth may be secret, and at depth 0 too
        (knowing the card on top would tell the others the depth was 0)."""
        if depth < 0:
            raise RuleLimit(f"insert() at depth {depth}: depths count from 0, the top")
        for c in cards:
            self.move_cards((c,), dst)
            zone = self._zones[dst]
            zone.pop()
            at = max(len(zone) - depth, 0)
            zone.insert(at, c)
            self._unplace(dst)  # before the next card's move reads a place now wrong

    def reveal(self, cards: list[int], players) -> None:
        """Show cards to players, who know them in their zone from then on (see
        knowledge.py); logged once per zone, for those players (and whoever sees the
        zone) only, with each card's depth in an ordered zone (shown with the card), and
        in deck order from a zone that is no pile, as cards leave one."""
        seats = frozenset(players)
        by_slot: dict[int, list[int]] = {}
        for c in dict.fromkeys(cards):  # a card named twice is shown once
            by_slot.setdefault(self._loc[c], []).append(c)
        for slot, here in by_slot.items():
            ordered, zone = self.game.slots[slot].zone.ordered, self._zones[slot]
            if self.game.leave_sorted[slot]:
                here.sort()
            at = [zone.index(c) for c in here] if ordered else []
            places = {p: self._ctype[zone[p]] for p in at}
            seen = self._seers(slot)
            blind = seats if seen is None else seats - seen
            if blind and seen is not None and self._keeps_views:
                types: dict[int, int] = {}
                for c in here:
                    types[self._ctype[c]] = types.get(self._ctype[c], 0) + 1
                on = self._known.setdefault(slot, {})
                for q in blind:
                    on.setdefault(q, knowledge.Known()).shown(types, places)
            fields = {"depths": [len(zone) - 1 - p for p in at]} if ordered else {}
            self._log(
                "reveal",
                zone=self.game.slots[slot].label,
                players=sorted(seats),
                n=len(here),
                cards=[self.game.type_names[self._ctype[c]] for c in here],
                **fields,
                _vis=None if seen is None else seen | seats,
            )

    def reveal_value(self, name: str, value: int, players) -> None:
        """Tell players a secret number (`choose … from lo..hi`): in their log only."""
        seats = frozenset(players)
        self._log("reveal", value=value, name=name, players=sorted(seats), _vis=seats)

    def _unplace(self, slot: int) -> None:
        """Who cannot see slot forgets every place there (its cards stay known)."""
        for k in self._known.get(slot, {}).values():
            k.unplace()

    def reorder(self, slot: int, cards: tuple[int, ...]) -> None:
        """Put a zone's cards in a new order (a shuffle's outcome: the same cards); who
        cannot see the zone forgets every place there, not which cards it holds."""
        self._zones[slot][:] = cards
        self._unplace(slot)
        self._dirty |= self.game.watch_slots[slot]
        self._version += 1
        if len(cards) > 1:  # fewer are not shuffled (language.md): nobody saw one
            self._log("shuffle", zone=self.game.slots[slot].label)

    def set_counter(self, slot: int, value: int) -> None:
        if not -INT_LIMIT <= value <= INT_LIMIT:
            raise _past_limit(self.game.counter_names[slot], value)
        if self._counters[slot] != value:
            self._counters[slot] = value
            self._dirty |= self.game.watch_counters[slot]
            self._version += 1
            if self._events is not None:
                name, shown = self.game.counter_names[slot], self.game.kind_value(slot, value)
                self._log("counter", counter=name, value=shown)

    def set_mark(self, slot: int, value: int) -> None:
        """Set a per_card counter of one card (slot: Game.mark_index + its id). Logged
        with the card and its zone, all three blanked for a seat that cannot see the
        zone (observe.visible_event); where some seat cannot, logged even when the value stays, so that
        whether an event comes tells nothing of the card's old value."""
        n = len(self._ctype)
        name, c = self.game.mark_names[slot // n], slot % n
        if not -INT_LIMIT <= value <= INT_LIMIT:
            raise _past_limit(name, value)
        zone = self._loc[c]  # the box, past the slots, holds cards out of play: nobody's
        in_play = zone < len(self.game.slots)
        seen = self._seers(zone) if in_play else frozenset()
        if self._marks[slot] != value:
            self._marks[slot] = value
            self._dirty |= self.game.watch_marks[slot // n]
            self._version += 1
        elif seen is None:
            return
        if self._events is not None:
            label = self.game.slots[zone].label if in_play else None
            self._log(
                "mark",
                counter=name,
                zone=label,
                card=self.game.type_names[self._ctype[c]],
                value=self.game.mark_value(slot // n, value),
                _vis=seen,
            )

    def reset_marks(self, families: tuple[int, ...]) -> None:
        """Set every card's value of these per_card counters back to its initial value
        (`reset`), unlogged as a move's setting back is: the rule says it of every card."""
        marks, n, initial = self._marks, len(self._ctype), self.game.mark_initial
        for f in families:
            if any(v != initial[f] for v in marks[f * n : (f + 1) * n]):
                marks[f * n : (f + 1) * n] = [initial[f]] * n
                self._dirty |= self.game.watch_marks[f]
                self._version += 1

    def remember(self, slot: int, cards) -> None:
        """Remember these cards (ids) in a `remember:` slot. Not logged: the cards may be
        hidden from some seats (a re-deal remaps them as it remaps the cards it deals)."""
        self._memory = self._memory[:slot] + (tuple(cards),) + self._memory[slot + 1 :]
        self._dirty = self.game.all_keys  # rare: every automatic rule looks again
        self._version += 1

    def reset_counters(self, slots: tuple[int, ...]) -> None:
        """Set these counters back to their initial values, worked out again (`reset`)."""
        initial = self.game.counter_initial
        for slot in slots:
            self.set_counter(slot, initial[slot](self, {}))

    def forget_turn_memories(self) -> None:
        memory = list(self._memory)
        for slot in self.game.turn_memories:
            memory[slot] = ()
        if tuple(memory) != self._memory:  # a condition may read what is forgotten
            self._memory = tuple(memory)
            self._dirty = self.game.all_keys
            self._version += 1

    def eliminate(self, p: int) -> None:
        if p in self._sitting:  # out for the round already: now out for good
            self._sitting = tuple(q for q in self._sitting if q != p)
        elif self._active[p]:
            self._set_active(p, False)
        else:
            return
        self._log("eliminate", player=p)
        self._drop_owed(p)

    def sit_out(self, p: int) -> None:
        """Out until the round ends, as if eliminated meanwhile."""
        if self._active[p]:
            self._sitting += (p,)
            self._set_active(p, False)
            self._log("sit_out", player=p)
            self._drop_owed(p)

    def _drop_owed(self, p: int) -> None:
        """A player gone out is owed no turns: a player who is out is passed over, its
        turns unused, and the round's end (which a sit_out lasts until) drops every
        seat's; so extra_turns_owed(p), turns_to_skip(p) and the table read none."""
        if self._extras[p] or self._skips[p]:
            self._extras = add_at(self._extras, p, -self._extras[p])
            self._skips = add_at(self._skips, p, -self._skips[p])
            self._owed_changed()

    def end_sitting_out(self) -> None:
        """The round is over: who sat it out is back."""
        if self._sitting:
            back, self._sitting = self._sitting, ()
            for p in back:
                self._set_active(p, True)
            self._log("back", players=sorted(back))

    def _set_active(self, p: int, active: bool) -> None:
        self._active[p] = active
        self._outs += -1 if active else 1
        self._order = (None, ())  # keyed by how many are out, which no longer tells who
        self._dirty = self.game.all_keys
        self._version += 1

    def set_current(self, p: int) -> None:
        self._current = p
        self._dirty |= self.game.watch_table
        self._version += 1
        self._log("set_current", player=p)

    def reverse(self) -> None:
        self._direction = -self._direction
        self._dirty |= self.game.watch_table
        self._version += 1
        self._log("reverse", direction=self._direction)

    def say(self, text: str) -> None:
        """Words for every seat (`say`): logged, public, changing nothing."""
        self._log("say", text=text)

    def skip_turns(self, p: int, n: int) -> None:
        """Turns for p to miss; none are kept for a player who is out (_drop_owed)."""
        if n > 0:
            self._log("skip_turn", player=p, turns=n)
            if self._active[p]:
                self._skips, self._steered = add_at(self._skips, p, n), True
                self._owed_changed()

    def extra_turns(self, p: int, n: int) -> None:
        """Turns for p to take again; none are kept for a player who is out."""
        if n > 0:
            self._log("extra_turn", player=p, turns=n)
            if self._active[p]:
                self._extras, self._steered = add_at(self._extras, p, n), True
                self._owed_changed()

    def cancel_extra_turns(self, p: int) -> None:
        if self._extras[p]:
            self._log("extra_turns_dropped", player=p, turns=self._extras[p])
            self._extras = add_at(self._extras, p, -self._extras[p])
            self._owed_changed()

    def _owed_changed(self) -> None:
        """Who plays next changes nothing a condition reads, unless the spec reads the
        turns owed (extra_turns_owed, turns_to_skip): then it is a change as a move is.
        A turn that uses one up begins a turn, which marks the same readers."""
        if self.game.reads_owed:
            self._dirty |= self.game.watch_table
            self._version += 1

    def set_next(self, p: int) -> None:
        self._leader, self._steered = p, True
        self._log("set_next", player=p)

    def _changed_everything(self) -> None:
        """After a change made outside the mutators (a layout, a re-deal): recount, and
        have every automatic rule evaluated again."""
        ntypes = len(self.game.type_names)
        self._tcount = [[0] * ntypes for _ in self._zones]
        for slot, zone in enumerate(self._zones):
            row = self._tcount[slot]
            for c in zone:
                row[self._ctype[c]] += 1
        self._outs = self._active.count(False)
        self._dirty = self.game.all_keys
        self._version += 1

    # --- whole-table changes ------------------------------------------------------

    def _lay_out(self, zones: dict, counters: dict, out, current: int, sitting=()) -> None:
        """Cards by type name into zones by label (ordered zones listed top first), the
        rest to the box; counters by name; seats out, for good or for the round
        (`sitting`); whose turn. ValueError says what does not fit."""
        game = self.game
        zones, counters = _placed(game, zones), _placed(game, counters)
        labels = {slot.label: i for i, slot in enumerate(game.slots)}
        counter_slots = {name: i for i, name in enumerate(game.counter_names)}
        _known("zone", zones, labels)
        _known("counter", counters, counter_slots)
        self._place_cards(zones, labels)
        for slot, zone in enumerate(self._zones):
            for c in zone:
                self._loc[c] = slot
        if not (whole_number(current) and 0 <= current < self._n):
            raise ValueError(f"current must be a seat from 0 to {self._n - 1}, not {current!r}")
        current = operator.index(current)
        for name, value in counters.items():
            slot = counter_slots[name]
            if slot in game.turn_resets:  # the turn laid out begins: it would be set back
                raise ValueError(
                    f"counter {name} is set back to its initial value as each turn begins "
                    "(reset: turn), and a laid-out table begins a turn: leave it out, and "
                    "make the plays that change it"
                )
            holds = (
                "player"
                if slot in game.player_counters
                else "kind"
                if slot in game.kind_counters
                else "int"
            )
            self._counters[slot] = self._laid_value(name, holds, value)
        for p in (*out, *sitting):
            self._active[p] = False
        self._sitting = tuple(p for p in dict.fromkeys(sitting) if p not in out)
        self._current = current
        self._known = {}
        self._changed_everything()

    def _lay_marks(self, marks: dict) -> None:
        """Per_card counters of laid-out cards: zone label -> entries, each the next card
        of its type there (`card`) and its counters' values. ValueError for what does
        not fit."""
        game, n = self.game, len(self._ctype)
        labels = {slot.label: i for i, slot in enumerate(game.slots)}
        _known("zone", marks, labels)
        for label, entries in marks.items():
            cards = list(self._zones[labels[label]])
            for entry in entries:
                name = entry.get("card")
                c = next((c for c in cards if game.type_names[self._ctype[c]] == name), None)
                if c is None:
                    raise ValueError(f"marks of {label}: no more '{name}' cards there")
                cards.remove(c)
                for counter, value in entry.items():
                    if counter == "card":
                        continue
                    if counter not in game.mark_names:
                        said = ", ".join(game.mark_names) or "none"
                        raise ValueError(f"'{counter}' is no per_card counter (they are: {said})")
                    f = game.mark_names.index(counter)
                    if f in game.mark_turn_resets:  # as for a counter: the turn begins
                        raise ValueError(
                            f"counter {counter} is set back as each turn begins (reset: "
                            "turn), and a laid-out table begins a turn: leave it out"
                        )
                    self._marks[f * n + c] = self._laid_value(counter, game.mark_types[f], value)
        self._changed_everything()

    def _laid_value(self, name: str, holds: str, value) -> int:
        """A laid-out counter's value as the table holds it: a number; a seat's number
        (-1: nobody) where it holds a player; a kind's name (None: no kind) as its
        number where it holds a kind. ValueError for one that does not fit."""
        game = self.game
        number = whole_number(value)
        if holds == "player":
            # nobody only where the rules test for it: elsewhere -1 would be read as a seat
            lowest = NOBODY_AT_REST if game.exprs.nobody else 0
            if not (number and lowest <= value < self._n):
                nobody = " (-1: nobody)" if lowest else ", as the spec never writes nobody"
                raise ValueError(
                    f"counter {name} holds a seat, from 0 to {self._n - 1}{nobody}, not {value!r}"
                )
        elif holds == "kind":  # a kind by its name, None for no kind
            if value is not None and value not in game.held_kinds:
                raise ValueError(
                    f"counter {name} holds a kind: a card type's or tag's name "
                    f"({', '.join(game.held_kinds)}), or null for no kind, not {value!r}"
                )
            return game.kind_names.index(value)
        elif not number:
            raise ValueError(f"counter {name} holds a number, not {value!r}")
        return operator.index(value)

    def _place_cards(self, zones: dict, labels: dict) -> None:
        """Cards by type name into the slots of zones by label, the deck's cards of each
        type in order; the cards left to the box."""
        game = self.game
        free: dict[int, list[int]] = {t: [] for t in range(len(game.type_names))}
        for c in range(len(self._ctype)):
            free[self._ctype[c]].append(c)
        self._zones = [[] for _ in self._zones]
        for label, names in zones.items():
            slot = labels[label]
            for name in reversed(names) if game.slots[slot].zone.ordered else names:
                if name not in game.type_names:
                    raise ValueError(f"unknown card '{name}' in {label}")
                if not free[game.type_names.index(name)]:
                    raise ValueError(f"more '{name}' cards placed than the deck holds")
                self._zones[slot].append(free[game.type_names.index(name)].pop(0))
        self._zones[len(game.slots)] = sorted(c for cards in free.values() for c in cards)

    def _hidden_slots(self, seat: int) -> list[int]:
        """The zone slots `seat` cannot see."""
        return [i for i, sees in enumerate(self.game.sees[seat]) if not sees]

    def _hidden_types(self, seat: int) -> dict[int, tuple[int, ...]]:
        ctype = self._ctype
        return {i: tuple(ctype[c] for c in self._zones[i]) for i in self._hidden_slots(seat)}

    def told_apart(self, seat: int, cards: list[int]) -> tuple[list[int], dict[int, list]]:
        """The cards `seat` can tell apart, of `cards` (a choice's): those in zones it
        sees, those at the places it knows in a pile, and those of a whole zone whose
        every card it knows, all of one type; and the others, by zone. A card it knows
        lies in a zone but not where (a hand held face down, a pile shuffled since)
        cannot be singled out among the others. A choice offers the others by their
        place only: its options are never a function of cards the seat cannot see
        (RULINGS C-6)."""
        sees, loc, ctype = self.game.sees[seat], self._loc, self._ctype
        if all(sees[loc[c]] for c in cards):  # the common case: nothing unseen
            return cards, {}
        told, unseen = [], {}
        for c in cards:
            (told if sees[loc[c]] else unseen.setdefault(loc[c], [])).append(c)
        for slot, some in unseen.items():
            k, zone = self._known.get(slot, {}).get(seat), self._zones[slot]
            known = set()
            if k is not None and self.game.ordered[slot]:  # a pile: by the places it knows
                known = {c for c in some if k.at.get(zone.index(c)) == ctype[c]}
            if (  # every card there known and alike: whichever is taken, it is that type
                k is not None
                and len(some) == len(zone)
                and len({ctype[c] for c in zone}) == 1
                and len(knowledge.kept(k, zone, ctype)) == len(zone)
            ):
                known = set(zone)
            placed = {zone[p] for p in k.at} if k is not None else set()
            # those known at their place first: of a type, the one a choice takes
            told += sorted((c for c in some if c in known), key=lambda c: c not in placed)
            unseen[slot] = [c for c in some if c not in known]
        return told, {slot: some for slot, some in unseen.items() if some}

    def _redeal_hidden(
        self, seat: int, rng: random.Random, canonical: bool = False, like: dict | None = None
    ) -> dict[int, int]:
        """Deal every card `seat` cannot see again at random, each hidden zone keeping its
        size: a table that `seat`'s observation cannot tell from this one.
        The cards `seat` knows of keep their places (knowledge.kept); what the other
        seats knew is cut to what still holds. Returns each card dealt again -> the card
        now lying where it lay."""
        hidden = self._hidden_slots(seat)
        keep = set().union(
            *(
                knowledge.kept(self._known.get(i, {}).get(seat), self._zones[i], self._ctype)
                for i in hidden
            )
        )

        zones, loc = self._zones, self._loc
        pool = [c for i in hidden for c in zones[i] if c not in keep]
        if canonical:  # cards of a type are alike (C-3): their order tells nothing
            pool.sort(key=self._ctype.__getitem__)
        rng.shuffle(pool)
        if like is not None:
            pool = self._ordered_like(hidden, keep, pool, like, rng)
        bounds = self.game.dealt_bounds
        if bounds and any(i in bounds for i in hidden):
            pool = self._within_bounds(hidden, keep, pool, bounds)
        dealt, now = iter(pool), {}
        for i in hidden:  # the search's hot path: one pass a zone
            zone = zones[i] = list(zones[i])
            for j, c in enumerate(zone):
                if c not in keep:
                    zone[j] = now[c] = d = next(dealt)
                    loc[d] = i
        if self.game.mark_names:  # the seat never saw these cards' per_card counters
            self._unmark([c for i in hidden for c in zones[i]])
        if any(self._memory):  # the rules' memory names the card now lying there, too
            self._memory = tuple(tuple(now.get(c, c) for c in m) for m in self._memory)
        for i in hidden:
            self._clamp_known(i)
        self._changed_everything()
        return now

    def _ordered_like(self, hidden, keep, pool: list[int], like: dict, rng) -> list[int]:
        """`pool` put in the order the deal hands it out (zone by zone in `hidden`, each
        zone's unseen places in turn), giving each zone the cards of the types `like`
        has there that are not already known to lie in it, then the rest in pool order;
        each zone's share shuffled, so its known types take no fixed places.
        The wants are served in a random order, not zone by zone: where the unseen cards
        no longer hold all that `like` puts somewhere (the seat has seen one of them
        since), or a zone has shrunk, the shortfall falls on the zones in proportion to
        what they want of the type, as it would on the true table, and never always on
        the zones listed last."""
        ctype, free = self._ctype, {}
        for c in pool:
            free.setdefault(ctype[c], []).append(c)
        wants, need = [], {}
        for i in hidden:
            want = list(like.get(i, ()))
            for c in self._zones[i]:
                if c in keep and ctype[c] in want:
                    want.remove(ctype[c])  # a kept card already stands for its type
            need[i] = sum(1 for c in self._zones[i] if c not in keep)
            wants += [(i, t) for t in want]
        rng.shuffle(wants)
        shares = {i: [] for i in hidden}
        for i, t in wants:
            if len(shares[i]) < need[i] and free.get(t):
                shares[i].append(free[t].pop())
        taken = {c for share in shares.values() for c in share}
        rest = iter([c for c in pool if c not in taken])
        out = []
        for i in hidden:
            share = shares[i]
            share += [next(rest) for _ in range(need[i] - len(share))]
            rng.shuffle(share)
            out += share
        return out

    def _within_bounds(self, hidden, keep, pool: list[int], may: dict) -> list[int]:
        """`pool` put in an order whose deal gives each hidden zone only the card types
        the rules can put there (`may`: Game.dealt_bounds). The pool as it is when its deal already
        fits (a deal `like` a belief drawn from the rules); else the bounded zones, those
        of fewest types first, each take the first cards of their types in pool order,
        a card taken already passed on where another zone needs it (a matching: one
        always exists, the true deal), and the other zones the rest, in pool order."""
        ctype, zones = self._ctype, self._zones
        need = {i: sum(1 for c in zones[i] if c not in keep) for i in hidden}
        at, fits = 0, True
        for i in hidden:
            share, at = pool[at : at + need[i]], at + need[i]
            fits = fits and (i not in may or all(ctype[c] in may[i] for c in share))
        if fits:
            return pool
        bounded = sorted((i for i in hidden if i in may), key=lambda i: len(may[i]))
        places = [i for i in bounded for _ in range(need[i])]  # a place of a bounded zone each
        wants = {i: [c for c in pool if ctype[c] in may[i]] for i in bounded}
        held: list[int | None] = [None] * len(places)  # place -> its card
        owner: dict[int, int] = {}  # card -> its place
        for place in range(len(places)):
            if not _matched(place, places, wants, held, owner):
                return pool
        shares = {i: [] for i in hidden}
        for place, c in enumerate(held):
            shares[places[place]].append(c)
        rest = iter([c for c in pool if c not in owner])
        return [
            c
            for i in hidden
            for c in (shares[i] if i in wants else (next(rest) for _ in range(need[i])))
        ]

    def _clamp_known(self, slot: int) -> None:
        """Cut what each seat knows of slot to what its cards now bear out."""
        now = {
            q: k
            for q, k in self._known.pop(slot, {}).items()
            if k.clamp(self._zones[slot], self._ctype)
        }
        if now:
            self._known[slot] = now

    def _table_invariants(self) -> None:
        """AssertionError unless every card is in exactly one zone, where `_loc` says,
        and the per-type counts match the zones."""
        seen = sorted(c for zone in self._zones for c in zone)
        assert seen == list(range(len(self._ctype))), "cards are not conserved"
        for slot, zone in enumerate(self._zones):
            assert all(self._loc[c] == slot for c in zone), (
                f"a card in slot {slot} is located elsewhere"
            )
            counts = [0] * len(self.game.type_names)
            for c in zone:
                counts[self._ctype[c]] += 1
            assert counts == self._tcount[slot], f"the type counts of slot {slot} are stale"

    # --- the log ------------------------------------------------------------------

    def _log(self, event: str, **fields) -> None:
        if self._events is not None:
            fields["event"], fields["turn"] = event, self._turn
            self._events.append(fields)

    def _seers(self, slot: int) -> frozenset[int] | None:
        """The seats that see a zone's cards; None: everyone."""
        return self.game.seers[slot]

    def _log_move(self, src: int, dst: int, cards: list[int]) -> None:
        """A move shows its cards to whoever sees its source or its destination."""
        slots = self.game.slots
        a, b = self._seers(src), self._seers(dst)
        vis = None if a is None or b is None else a | b
        self._log(
            "move",
            src=slots[src].label,
            dst=slots[dst].label,
            n=len(cards),
            cards=[self.game.type_names[self._ctype[c]] for c in cards],
            _vis=vis,
        )


def whole_number(value) -> bool:
    """A whole number (numpy's too, as a Gym seed may be), not a bool."""
    if isinstance(value, bool):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def add_at(counts: tuple, p: int, n: int) -> tuple:
    """A per-seat count with n added to seat p's (the counts stay immutable, so a
    clone shares them)."""
    return counts[:p] + (counts[p] + n,) + counts[p + 1 :]


def _past_limit(counter: str, value: int) -> RuleLimit:
    """The failure of a counter set past ±10^18, the engine's limit on a number."""
    return RuleLimit(
        f"counter {counter} would be {_magnitude(value)}, past the limit of ±10^18 (docs/limits.md)"
    )


def _magnitude(value: int) -> str:
    """A huge number in a few characters (str() refuses past 4,300 digits)."""
    digits = value.bit_length() * 0.30103
    return f"{'-' if value < 0 else ''}about 10^{digits:.0f}"


def _placed(game, laid: dict) -> dict:
    """A layout's labels by place, a by-family's written by value (`discard[red]` for
    `discard[0]`, as scenarios write them); ValueError for two labels of one."""
    out, written = {}, {}
    for label, value in laid.items():
        place = game.value_labels.get(label, label)
        if place in out:
            raise ValueError(f"'{written[place]}' and '{label}' name one place, {place}: give one")
        out[place], written[place] = value, label
    return out


def _known(what: str, names, known: dict) -> None:
    """ValueError for the first of names that is not known, listing those that are."""
    for name in names:
        if name not in known:
            said = one_of_many(what, name, known)
            said = f"{said}; " if said else ""
            raise ValueError(f"unknown {what} '{name}'; {said}{what}s: {', '.join(known)}")


def one_of_many(what: str, name: str, labels) -> str:
    """Where `name` stands for several zones or counters (one a seat, a family's), by
    their labels: which, and how to name one; else ''."""
    each = [k for k in labels if str(k).startswith(f"{name}[")]
    return f"'{name}' is {len(each)} {what}s: name one, {each[0]}" if each else ""


def _matched(root: int, places: list, wants: dict, held: list, owner: dict) -> bool:
    """Give place `root` a card (Table._within_bounds): the first it wants that no place
    holds, or one another place gives up for a card of its own (an augmenting path,
    found breadth first). False when no card can be found for it."""
    wanted_by: dict[int, int] = {}  # card -> the place that asked for it
    queue = [root]
    for place in queue:  # grows as places holding a wanted card are asked to give it up
        for c in wants[places[place]]:
            if c in wanted_by:
                continue
            wanted_by[c] = place
            if c not in owner:  # a free card: each place on the path takes the one it asked for
                while True:
                    taker = wanted_by[c]
                    c, held[taker] = held[taker], c
                    owner[held[taker]] = taker
                    if c is None:
                        return True
            queue.append(owner[c])
    return False
