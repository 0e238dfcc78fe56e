"""Why a card is no option at a play step, or a card, branch or value at a choice with
a filter, where the rules say so plainly: `play` and scenarios tell it beside "not an
option" (a Hearts trial's jack of hearts was refused with no word of following suit; a
Bridge trial's card of the dummy's, chosen by the declarer, with none at all)."""

from __future__ import annotations

from rulespec.interpreter import seat_name

from .narrate import Titles


def why_not(state, card: str, title: str, action: str | None = None) -> str:
    """Why no option of the pending play plays the card type `card` (titled `title`;
    by `action`, where one is named): the step has no such action, no action of the
    step plays it, the player holds none, or the `if:` of each action that would play
    it does not hold, told by the action's title and text. "" where the reason is none
    of these, or not plain (a target, a group of cards, a fallback: more than a
    condition decides those). An action that takes a card as its target (`target:
    card`) may take it from anywhere its `among:` says, not the hand: then no reason
    (a harbour's card was refused as one the player "holds no" in a game of no hand)."""
    if state.decision_kind() in ("card", "choose"):
        return _filtered(state, card, title)
    game = state.game
    spec = game.spec
    asker = (state.decision_asker() or "").removeprefix("turn.")  # a play's: its step
    step = next((s for s in spec.turn if s.name == asker), None)
    if state.decision_kind() != "play" or step is None or card not in game.type_names:
        return ""
    if action is not None and action not in step.actions:
        return f"this step has no action '{action}'"
    asked = [a for a in spec.actions if a.name in step.actions and a.name == (action or a.name)]
    if any(a.target == "card" for a in asked):
        return ""
    kinds = {"any", card, *next(c.tags for c in spec.cards if c.name == card)}
    playing = [a for a in asked if a.card in kinds]
    # told before what the hand holds, which would not help: a Dominion designer's
    # Smithy, which no action of the treasure step plays, read "P1 holds no Smithy"
    if not playing:
        return f"no action of this step plays {title}"
    if spec.hand is not None:
        seat = seat_name(state.current_player())
        if card not in state.observation(state.current_player())["zones"][f"{spec.hand}[{seat}]"]:
            return f"{seat} holds no {title}"
    if any(
        a.condition is None or a.target != "none" or a.count or a.among or a.fallback
        for a in playing
    ):
        return ""
    rules = "; ".join(f"{a.title}: {a.text.rstrip('.')}" if a.text else a.title for a in playing)
    return f"the rules do not allow {title} now ({rules})"


def _filtered(state, name: str, title: str) -> str:
    """At a choice with a filter (`choose(p) c from … if …`, a branch's `if`): that the
    rules do not allow `name` (a card type, or a branch's or value's label, in any case),
    told by the choice's rule, prompt and text, where it is among what the choice is made
    from as its chooser tells it apart; "" otherwise, whether or not a card its chooser
    cannot see lies there (State.decision_refused)."""
    wanted = name.casefold()
    refused = next((n for n in state.decision_refused() if n.casefold() == wanted), None)
    if refused is None:
        return ""
    titles, asker = Titles.of(state.game.spec), state.decision_asker()
    prompt = state.decision_prompt() or titles.prompts.get(asker, "")
    told = f"{titles.rule(asker)} — {prompt}" if prompt else titles.rule(asker)
    text = titles.text("rules", asker).rstrip(".")
    if text:  # after a question, a sentence of its own
        told += (" " if told.endswith("?") else ": ") + text
    said = title if refused in state.game.type_names else refused
    return f"the rules do not allow {said} now ({told})"
