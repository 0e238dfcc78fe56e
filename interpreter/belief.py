"""What a searching seat believes of the cards it cannot see: a particle filter over
hidden deals, re-weighted by how likely each other seat's observed decision was.

A particle is a deal of the hidden cards (`State.hidden_deal`: the card types in each
zone the seat cannot see), its world (a game the seat cannot tell from the table, with
that deal) and a weight. Every decision the agent is told of is played in the worlds,
whose chance is the belief's own. When another seat decides, each world is played on
to that decision; if every world gets there looking the same to the seat, the rules
have offered the deciding seat the world's own options, and the policy model weighs
the option taken against them. Otherwise each particle is made a world again from the
table, re-dealt *like* its deal (`State.redeal(like=...)`: the deal's types where the
seat's view still allows them, the rest at random); such a world's options are not
known (a re-deal does not offer a decision again), so the model judges the option
taken alone. Either way a world whose cards would not have allowed the option is ruled
out. The particle becomes its world after the decision. When the weights grow uneven
(effective sample size under half), the particles are resampled. A search draws its
determinizations from the particles, in proportion to their weights.

What it assumes: the other seats play like the model (`random`: any option the rules
allow, alike; `greedy`: mostly as the greedy agent would). Comparing the option taken
with the true table's options would let the hidden cards in (the watching seat is not
shown them), so it is never done. And a deal is judged by the decisions seen since it
was drawn: the cards dealt at random to fill a particle (after a draw, say) carry no
evidence of earlier decisions.
"""

from __future__ import annotations

import random

from .choices import IllegalChoice


class Belief:
    """`particles` deals for `seat`; `model(world, who, taken, options, rng)` is the
    likelihood, up to a factor alike in every world, that seat `who` takes option `taken`
    in `world`, where `options` are the world's own options, or None when not known."""

    def __init__(self, seat: int, rng: random.Random, particles: int, model):
        self.seat, self.rng, self.model = seat, rng, model
        self.deals: list[dict | None] = [None] * particles  # None: nothing believed yet
        self.worlds: list = [None] * particles  # each deal's world after the last decision
        self.weights = [1.0] * particles

    def observe(self, state, who: int, label: str) -> None:
        """Seat `who`, at `state`, takes the option labelled `label`: re-weight (another
        seat's decision), or only follow (the belief's own seat's)."""
        worlds = [self._caught_up(w, state, who) for w in self.worlds]
        known = who != self.seat and all(w is not None for w in worlds)
        if not known:  # in step again, from the table as the seat sees it now
            worlds = [self._world(state, deal) for deal in self.deals]
        for j, world in enumerate(worlds):
            options = world.legal_actions() if known else None
            taken = next((o for o in options or state.legal_actions() if o.label == label), None)
            after = None if taken is None else taken_in(world, taken)
            if after is None:
                self.weights[j], self.worlds[j] = 0.0, None
                continue
            if who != self.seat:
                self.weights[j] *= self.model(world, who, taken, options, self.rng)
            self.worlds[j], self.deals[j] = after, after.hidden_deal(self.seat)
        self._settle()

    def unseen(self) -> None:
        """A decision the seat is not shown (a secret choice): the worlds cannot follow
        it, so the next decision makes them again from the table, like their deals."""
        self.worlds = [None] * len(self.worlds)

    def _world(self, state, deal):
        world = state.clone(log=False)
        world.redeal(self.seat, self.rng, canonical=True, like=deal)
        return world

    def _caught_up(self, world, state, who: int):
        """A particle's world played on (its chance its own) to the decision the table
        is at, if it gets there looking the same to the seat, with `who` to act; else
        None. Its options are then the world's own, offered by the rules on its cards."""
        if world is None:
            return None
        world = world.clone(log=False, rng=self.rng)
        while world.is_chance_node():
            world.sample_chance(self.rng)
        if world.current_player() != who or world.observation(self.seat) != state.observation(
            self.seat
        ):
            return None
        return world

    def draw(self, rng: random.Random) -> dict | None:
        """A particle's deal, in proportion to the weights."""
        return self.deals[_pick(self.weights, rng.random() * sum(self.weights))]

    def _settle(self) -> None:
        """Normalized weights; resampled (systematically) when the effective sample size
        falls under half. All weights zero (the model ruled every particle out, as it
        may when the fill at random was wrong): start over, believing nothing."""
        total, n = sum(self.weights), len(self.weights)
        if total == 0:
            self.deals, self.worlds, self.weights = [None] * n, [None] * n, [1.0] * n
            return
        self.weights = [w * n / total for w in self.weights]
        if n * n / sum(w * w for w in self.weights) >= n / 2:
            return
        start = self.rng.random()
        kept = [_pick(self.weights, start + i) for i in range(n)]
        self.deals = [self.deals[j] for j in kept]
        self.worlds = [self.worlds[j] for j in kept]  # shared: a world is copied before use
        self.weights = [1.0] * n


def taken_in(world, option):
    """A copy of `world` after `option`, or None where the world's cards do not allow it.
    The options at a decision are the ones offered on the true table (a re-deal does not
    offer them again): one that needs a card the world's deal does not give fails."""
    after = world.clone(log=False)
    try:
        after.apply_action(option)
    except IllegalChoice:
        return None
    return after


def _pick(weights: list[float], x: float) -> int:
    """The index where the running sum of `weights` passes x."""
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    return max(i for i, w in enumerate(weights) if w > 0)
