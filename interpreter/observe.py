"""What one player may see (RULINGS C-6): observations and the log as seen by a seat.

Hidden information is a view: nothing here hands out the state itself. A zone's cards
are shown to a player when the zone is public or theirs (or their team's); otherwise only its size, and
the cards revealed to them there (with their depth from the top in an ordered zone). A
logged move shows its cards to whoever can see its source or its destination zone.
"""

from __future__ import annotations

from .choices import seat_name


def can_see(slot, player: int | None) -> bool:
    vis = slot.zone.visibility
    return vis == "public" or player is None or (vis == "owner" and player in slot.seats)


def seers(slot) -> frozenset[int] | None:
    """The seats that see a slot's cards; None: everyone."""
    vis = slot.zone.visibility
    if vis == "public":
        return None
    return slot.seats if vis == "owner" else frozenset()


def observation(state, player: int | None) -> dict:
    """The table as `player` sees it; `player=None` is an omniscient spectator."""
    game = state.game
    zones = {}
    for i, slot in enumerate(game.slots):
        cards = state._zones[i]
        if can_see(slot, player):
            names = [game.type_names[state._ctype[c]] for c in cards]
            zones[slot.label] = names if slot.zone.ordered else sorted(names)
        else:
            zones[slot.label] = {"count": len(cards)}
            if state._shown and player is not None:
                revealed = _revealed(state, cards, player, slot.zone.ordered)
                if revealed:
                    zones[slot.label]["revealed"] = revealed
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


def _revealed(state, cards: list[int], player: int, ordered: bool) -> list[dict]:
    """The cards of a zone hidden from `player` that were revealed to them, top first."""
    names, shown, out = state.game.type_names, state._shown, []
    for i in range(len(cards) - 1, -1, -1):
        c = cards[i]
        if player in shown.get(c, ()):
            out.append(
                {"card": names[state._ctype[c]], "depth": len(cards) - 1 - i}
                if ordered
                else {"card": names[state._ctype[c]]}
            )
    return out if ordered else sorted(out, key=lambda r: r["card"])


def visible_event(event: dict, player: int | None) -> dict:
    """The event as `player` may see it (without engine-internal fields)."""
    vis = event.get("_vis")
    out = {k: v for k, v in event.items() if k != "_vis"}
    if vis is not None and player is not None and player not in vis:
        if "cards" in out:
            out["cards"] = None  # the count stays: hand sizes are public
        if "option" in out:
            out["option"] = None
        if "value" in out:
            out["value"] = None
    return out


def log_for(state, player: int | None, start: int = 0) -> list[dict]:
    return [visible_event(e, player) for e in (state._events or ())[start:]]
