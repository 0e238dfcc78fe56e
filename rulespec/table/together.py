"""Seats that decide at once: a simultaneous choice, which the engine asks seat by seat
(docs/python.md, "Simultaneous choices, turned sequential"). Front ends that let every
such seat choose now (PettingZoo's parallel environment, the browser table) read each
one's options here, before the seats asked earlier have picked."""

from __future__ import annotations


def options_now(state) -> dict:
    """Each seat deciding now, in the order asked -> its options. The options of those
    asked after the first are read from a copy in which each before them took its first
    option: exactly theirs when each picks from cards of its own, as a simultaneous
    choice's picks do from a hand (from a shared zone, a card an earlier pick takes is
    gone when the later seat's turn comes)."""
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
