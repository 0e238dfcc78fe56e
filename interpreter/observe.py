"""What one player may see (RULINGS C-6): observations and the log as seen by a seat.

Hidden information is a view: nothing here hands out the state itself. A zone's cards
are shown to a player when the zone is public, theirs (or their team's) with `owner`
visibility, or someone else's with `others`; otherwise only its size, and the cards
they know lie there from what they saw (knowledge.py), with their depth from the top
where they know it. A logged move shows its cards to whoever can see its source or its
destination zone.
"""

from __future__ import annotations

from rulespec.lang import ir

from . import knowledge
from .choices import seat_name
from .codegen import CodeWriter, quote, raise_at_spec
from .runtime import _at_rest


def can_see(slot, player: int | None) -> bool:
    vis = slot.zone.visibility
    if vis == "public" or player is None:
        return True
    if vis == "owner":
        return player in slot.seats
    return vis == "others" and player not in slot.seats


def seers(slot, n: int) -> frozenset[int] | None:
    """The seats (of n) that see a slot's cards; None: everyone."""
    if slot.zone.visibility == "public":
        return None
    return frozenset(p for p in range(n) if can_see(slot, p))


def observation(state, player: int | None, values: bool = True) -> dict:
    """The table as `player` sees it; `player=None` is an omniscient spectator. Without
    `values`, the named values the table shows are left out (an information key's: they
    follow from the rest)."""
    game = state.game
    zones, marks = _zones_seen(state, player)
    obs = {
        "seat": seat_name(player) if player is not None else None,
        "turn": state._turn,
        "current": seat_name(state._current),
        "active": [seat_name(p) for p in range(state._n) if state._active[p]],
        "direction": state._direction,
        "zones": zones,
        "counters": dict(zip(game.counter_names, state._counters)),
        "over": state._over,
    }
    if state._ring is not None and state._ring[0] != state._current:
        obs["turn_of"] = seat_name(state._ring[0])  # a step round the table asks another
    # the turns owed are public (each was given by a logged event): the seats owing some
    for key, owed in (("extra_turns_owed", state._extras), ("turns_to_skip", state._skips)):
        if any(owed):
            obs[key] = {seat_name(p): n for p, n in enumerate(owed) if n}
    if game.mark_names:
        obs["marks"] = marks
    for slot in game.kind_counters:  # a kind by its name
        obs["counters"][game.counter_names[slot]] = game.kind_names[state._counters[slot]]
    if game.shown and values:
        obs["values"] = shown_values(state, player)
    if player is None and game.memory_names:  # the rules' memory: its cards may be hidden
        obs["remembered"] = {
            name: [game.type_names[state._ctype[c]] for c in cards]
            for name, cards in zip(game.memory_names, state._memory)
        }
    if state._over:
        obs["result"] = state.result
    elif state._pending is not None and state._pending.player == player:
        obs["options"] = [o.label for o in state._pending.options]
    return obs


def _zones_seen(state, player: int | None) -> tuple[dict, dict]:
    """Each zone as `player` sees it (its cards, else its size and what it was shown),
    and the per_card counters off their initial values of the cards it sees."""
    game = state.game
    zones, marks = {}, {}
    for i, slot in enumerate(game.slots):
        cards = state._zones[i]
        if can_see(slot, player):
            if game.mark_names:  # each card's per_card counters, beside its name
                on = [(game.type_names[state._ctype[c]], marks_of(state, c)) for c in cards]
                on = on if slot.zone.ordered else sorted(on, key=_by_name_and_marks)
                zones[slot.label] = [name for name, _ in on]
                off = [_off_initial(game, m) for _, m in on]
                if any(off):  # a card at its initial values carries nothing to say
                    marks[slot.label] = off
                continue
            names = [game.type_names[state._ctype[c]] for c in cards]
            zones[slot.label] = names if slot.zone.ordered else sorted(names)
        else:
            zones[slot.label] = {"count": len(cards)}
            known = state._known.get(i, {}).get(player) if player is not None else None
            if known is not None:
                zones[slot.label]["revealed"] = knowledge.view(known, len(cards), game.type_names)
    return zones, marks


def shown_values(state, player: int | None) -> dict:
    """The named values the table shows `player` (None: every one), worked out now, by
    label as counters are (`colour`, `score[P2]`): a value of one player for each seat,
    or, where it reads its player's own cards (ir.OWN_SEAT), for `player` alone. A kind
    is given by its name and a player by its seat's number (-1: nobody), as counters give
    them."""
    game, out = state.game, {}
    try:
        for value, work_out in game.shown:
            if not value.params:
                out[value.name] = _as_shown(game, value, work_out(state, {}))
                continue
            ((param, _),) = value.params
            for p in range(game.n):
                if value.shown == ir.EVERY_SEAT or player in (None, p):
                    got = work_out(state, {param: p})
                    out[f"{value.name}[{seat_name(p)}]"] = _as_shown(game, value, got)
    except Exception as exc:  # a RuleError at the value's place, as a rule's
        raise_at_spec(exc)
    return out


def _as_shown(game, value, got):
    """A value as an observation gives it: a kind by its name (a kind is a set of types),
    nobody as -1, as a counter holds it."""
    return game.kind_name(got) if value.type == "kind" else _at_rest(got)


def marks_of(state, c: int) -> dict[str, int]:
    """Card c's per_card counters by name: for a seat that sees the zone it lies in."""
    return dict(zip(state.game.mark_names, state._marks[c :: len(state._ctype)]))


def _off_initial(game, marks: dict[str, int]) -> dict:
    """A card's per_card counters that are off their initial values, as counters are
    given (a kind by its name): a counter every card starts at (chips 11) says nothing
    of the card."""
    held = zip(marks.items(), game.mark_initial)
    return {k: game.mark_value(f, v) for f, ((k, v), start) in enumerate(held) if v != start}


def _by_name_and_marks(pair) -> tuple:
    """An unordered zone's cards listed by name, alike ones by their counters' values."""
    name, marks = pair
    return name, tuple(marks.values())


def tallies(state, player: int) -> tuple:
    """observation()'s numbers without its names, for a learning environment's vector:
    (the current seat, who is active, the direction, the turn, `seen`, the counters,
    whether the game is over), where `seen` holds, slot after slot in `game.slots`
    order, the slot's size and then how many cards of each type (spec order) `player`
    sees there: all of a zone it can see, the cards it knows lie in one it cannot."""
    game, zones, tcount, known = state.game, state._zones, state._tcount, state._known
    unknown = (0,) * len(game.type_names)
    seen: list[int] = []
    for i, visible in enumerate(game.sees[player]):
        seen.append(len(zones[i]))
        if visible:
            seen += tcount[i]
            continue
        k = known[i].get(player) if i in known else None
        if k is None:
            seen += unknown
        else:  # as knowledge.view lists them: each type as often as known
            row = list(unknown)
            for t, n in k.types.items():
                row[t] = n
            seen += row
    return (
        state._current,
        tuple(state._active),
        state._direction,
        state._turn,
        seen,
        tuple(state._counters),
        state._over,
    )


def tallies_into(state, player: int, out: bytearray, at: int) -> tuple | None:
    """tallies() with `seen` written into `out` from `at` (zeros there) and not returned,
    where every count fits a byte (Game.byte_counts): by the seat's own code
    (tally_writer), each slot's size and each seen slot's counts at fixed places, a
    hidden slot's left 0 unless the seat knows cards in it. None, writing nothing,
    where they may not."""
    write = state.game.tally_writer(player, at)
    return None if write is None else write(state, out)


def tally_writer(game, player: int, at: int, flags: tuple | None = None):
    """`tallies_into(state, player, out, at)` for one seat of `game` and one offset, as
    a function of its own, write(state, out): a line for each slot (its size; a seen
    slot's counts copied whole, a hidden one's known types, as knowledge.view lists
    them), no loop over slots, no look-up of where a slot's counts go. None where a
    count may not fit a byte (Game.byte_counts).

    With `flags`, the seat's whole vector, (current, active, over, wide, counters,
    blank, array, dtype): write(state) fills a copy of `blank` (bytes, the seat's
    vector before the state's numbers, every seat active) as above, with the current
    seat's one-hot from `current`, the active flags from `active` (only when a seat is
    out), the game's end at `over`, the direction and the turn at `wide` and
    `wide + 1`, the counters from `counters`, and returns `array(the bytes, dtype)`
    (an array of numbers, as numpy's), in which a direction or turn that does not fit
    a byte (the turn of a long game), or counters that do not, are then set."""
    if not game.byte_counts:
        return None
    stride = 1 + len(game.type_names)  # a slot's size, then a count a card type
    # each slot the seat cannot see -> where its counts begin
    hidden = {i: stride * i + 1 for i, seen in enumerate(game.sees[player]) if not seen}
    params = "state, out" if flags is None else "state"
    w, scope = CodeWriter(f"tallies_{seat_name(player)}", game.spec.span, params), {}
    span = game.spec.span
    if flags is not None:
        w.line(f"out = bytearray({quote(flags[5], scope)})", span)
    w.line("zones, tcount, known = state._zones, state._tcount, state._known", span)
    for i in range(len(game.slots)):
        if i in hidden:
            w.line(f"out[{at + stride * i}] = len(zones[{i}])", span)
            continue
        w.line(f"if zones[{i}]:", span)  # an empty zone's zeros are there already
        with w.indented():
            w.line(f"out[{at + stride * i}] = len(zones[{i}])", span)
            w.line(f"out[{at + stride * i + 1}:{at + stride * (i + 1)}] = tcount[{i}]", span)
    if hidden:
        w.line("if known:", span)
        with w.indented():
            for i, start in hidden.items():
                w.line(f"of = known.get({i})", span)
                w.line(f"if of is not None and {player} in of:", span)
                with w.indented():
                    w.line(f"for t, count in of[{player}].types.items():", span)
                    with w.indented():
                        w.line(f"out[{at + start} + t] = count", span)
    if flags is None:
        w.line(
            "return (state._current, tuple(state._active), state._direction, state._turn, "
            "tuple(state._counters), state._over)",
            span,
        )
    else:
        current, active, over, wide, counters, _, array, dtype = flags
        array, dtype, k = quote(array, scope), quote(dtype, scope), len(game.counter_names)
        w.line(f"out[{current} + state._current] = 1", span)
        w.line("if False in state._active:", span)  # `out` holds 1s there (all active)
        with w.indented():
            w.line(f"out[{active}:{active + game.n}] = state._active", span)
        w.line("if state._over:", span)
        with w.indented():
            w.line(f"out[{over}] = 1", span)
        # the direction (-1 is no byte) and the turn (past 255 in a long game): each in
        # the bytes when it fits one, else set among the numbers
        wide_numbers = (("direction", wide), ("turn", wide + 1))
        for name, place in wide_numbers:
            w.line(f"{name} = state._{name}", span)
            w.line(f"byte_{name} = 0 <= {name} < 256", span)
            w.line(f"if byte_{name}:", span)
            with w.indented():
                w.line(f"out[{place}] = {name}", span)
        if k:
            w.line("try:", span)
            with w.indented():
                w.line(f"out[{counters}:{counters + k}] = state._counters", span)
                w.line("counted = True", span)
            w.line("except ValueError:  # one below 0 or past 255: set among the numbers", span)
            with w.indented():
                w.line("counted = False", span)
        w.line(f"vec = {array}(out, {dtype})", span)
        for name, place in wide_numbers:
            w.line(f"if not byte_{name}:", span)
            with w.indented():
                w.line(f"vec[{place}] = {name}", span)
        if k:
            w.line("if not counted:", span)
            with w.indented():
                w.line(f"vec[{counters}:{counters + k}] = state._counters", span)
        w.line("return vec", span)
    return w.compile(scope, f"tallies {seat_name(player)}")[0]


def visible_event(event: dict, player: int | None) -> dict:
    """The event as `player` may see it (without engine-internal fields)."""
    vis = event.get("_vis")
    out = {k: v for k, v in event.items() if k != "_vis"}
    if "forced" in out and player is not None and player != out["player"]:
        del out["forced"]  # an only option, told its chooser alone: it may hang on its cards
    if vis is not None and player is not None and player not in vis:
        if "cards" in out:
            out["cards"] = None  # the count stays: hand sizes are public
        if "option" in out:
            out["option"] = None
        if "card" in out:
            out["card"] = None  # a card played into a zone the player cannot see
        if "chosen" in out:
            out["chosen"] = None  # a card chosen from a zone the player cannot see
        if out.get("event") == "mark":  # which unseen zone the card lies in: a secret
            out["zone"] = None  # choice among two of them would be told by it
        if "value" in out:
            out["value"] = None
        if "depths" in out:
            out["depths"] = None
    return out


def kept_for(event: dict, player: int) -> dict:
    """The event as a world re-dealt for `player` keeps it: with what `player` did not
    see left out, for every seat (who saw it is kept, so a seat that saw what `player`
    saw still sees that). In the new deal the other seats' hidden cards are not the
    ones the log names, and their logs must not tell the searching seat the truth."""
    if "forced" in event and event["player"] != player:  # the chooser's alone (visible_event)
        event = {k: v for k, v in event.items() if k != "forced"}
    vis = event.get("_vis")
    if vis is None or player in vis:
        return event
    return {**visible_event(event, player), "_vis": vis}


def log_for(state, player: int | None, start: int = 0) -> list[dict]:
    return [visible_event(e, player) for e in (state._events or ())[start:]]


def information_key(state, player: int, kept: dict) -> str:
    """What `player` has seen, in a compact, deterministic form (State.information_key):
    its observation now, then its log an event a line, a `turn N` line where a turn
    begins. The log's lines are kept in `kept` (seat -> (events read, turn, lines)) and
    extended as the log grows, so asking again after a step costs the new events, not
    the whole log."""
    count, turn, text = kept.get(player, (0, 0, ""))
    lines = [text] if text else []
    for event in log_for(state, player, count):
        count += 1
        if event["turn"] != turn:
            turn = event["turn"]
            lines.append(f"turn {turn}")
        lines.append(
            " ".join(
                [event["event"]]
                + [f"{k}={compact(v)}" for k, v in event.items() if k not in _NOT_SHOWN]
            )
        )
    text = "\n".join(lines)
    kept[player] = count, turn, text
    return f"{compact(observation(state, player, values=False))}\n{text}"


_NOT_SHOWN = frozenset({"event", "turn"})


def compact(value) -> str:
    """A value of an observation or an event, short and unambiguous: dicts in braces,
    lists in brackets, None as `?`."""
    if isinstance(value, dict):
        return "{" + " ".join(f"{k}={compact(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(map(compact, value)) + "]"
    return "?" if value is None else str(value)
