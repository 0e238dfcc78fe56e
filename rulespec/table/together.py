"""Seats that decide at once: a simultaneous choice, which the engine asks seat by seat
(docs/python.md, "Simultaneous choices, turned sequential"). Front ends that let every
such seat choose now (PettingZoo's parallel environment, the browser table) read each
one's options here, before the seats asked earlier have picked."""

from __future__ import annotations


def options_now(state) -> dict:
    """Each seat deciding now, in the order asked -> its options. Where each seat picks
    from cards of its own (State.deciding_apart), the options of those asked after the
    first are read from a copy in which each before them took its first option: theirs
    whatever those before pick, or hold. Otherwise (a shared zone: a card a seat picks
    is gone for the next, and what the first may pick tells what it holds) only the seat
    asked now: the others choose when the rules ask them."""
    if not state.deciding_apart():
        return {state.current_player(): state.legal_actions()} if state.deciding_together() else {}
    group = state.deciding_together()
    out, probe = {}, state
    while asks_next(probe, group):
        options = probe.legal_actions()
        out[probe.current_player()] = options
        group = group[group.index(probe.current_player()) + 1 :]
        if group:
            probe = probe.clone(log=False) if probe is state else probe
            probe.apply_action(options[0])
    return out


def asks_next(state, group: tuple[int, ...]) -> bool:
    """Whether the state's pending decision is the next of `group`, seats deciding at
    once: its seats still to be asked are the end of the group (a seat the rules pass
    over is skipped; a new simultaneous choice is not this one)."""
    now = state.deciding_together()
    return bool(now) and 0 < len(now) <= len(group) and group[len(group) - len(now) :] == now
