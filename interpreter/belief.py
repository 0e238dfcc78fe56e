"""What a searching seat believes of the cards it cannot see: a particle filter over
hidden deals, re-weighted by how likely each other seat's observed decision was.

A particle is a deal of the hidden cards (`State.hidden_deal`: the card types in each
zone the seat cannot see) and a weight. At each decision the agent is told of, every
particle is made a world: the table as the seat sees it now, dealt again *like* the
particle (`State.redeal(like=...)`: the deal's types where the seat's view still
allows them; where it does not, because the seat has since seen a card the deal put
elsewhere or a zone has shrunk, the shortfall falls on the zones in proportion to what
they want of the type, and the rest is dealt at random). Another seat's decision is
asked again in the world, from its cards (a re-deal asks every decision of a seat
again), so the options the policy model weighs the option taken against are the
world's own; a world whose cards would not have allowed the option, or where the rules
would not have asked that decision at all, is ruled out. The particle becomes the
world's deal after the decision. When the weights grow uneven (effective sample size
under half), the particles are resampled. A search draws its determinizations from the
particles, in proportion to their weights.

A world is made again at every decision rather than played on from the last one: the
chance between two decisions that the seat saw (a card stolen from its hand, its own
draw) would rarely come out the same in a world, and what it did not see (another
seat's draw) is dealt at random either way. A decision the seat is not shown (a secret
choice) is left to the next decision's re-deal, like a draw.

What it assumes: the other seats play like the model (`random`: any option the rules
allow, alike; `greedy`: mostly as the greedy agent would). Comparing the option taken
with the true table's options would let the hidden cards in (the watching seat is not
shown them), so it is never done. And a deal is judged by the decisions seen since it
was drawn: the cards dealt at random to fill a particle (after a draw, say) carry no
evidence of earlier decisions.
"""

from __future__ import annotations

import random


class Belief:
    """`particles` deals for `seat`; `model(world, who, taken, options, rng)` is the
    likelihood, up to a factor alike in every world, that seat `who` takes option `taken`
    in `world`, where `options` are the world's own options."""

    def __init__(self, seat: int, rng: random.Random, particles: int, model):
        self.seat, self.rng, self.model = seat, rng, model
        self.deals: list[dict | None] = [None] * particles  # None: nothing believed yet
        self.weights = [1.0] * particles

    def observe(self, state, who: int, label: str) -> None:
        """Seat `who`, at `state`, takes the option labelled `label`: re-weight (another
        seat's decision), or only follow (the belief's own seat's)."""
        live = [j for j, w in enumerate(self.weights) if w > 0]  # the ruled out stay out
        kind = state.decision_kind()
        for j in live:
            world = self._world(state, self.deals[j], who, kind)
            options = None if world is None else world.legal_actions()
            taken = next((o for o in options or () if o.label == label), None)
            if taken is None:  # the world's cards do not allow it
                self.weights[j] = 0.0
                continue
            if who != self.seat:
                self.weights[j] *= self.model(world, who, taken, options, self.rng)
            world.apply_action(taken)
            self.deals[j] = world.hidden_deal(self.seat)
        self._settle()

    def _world(self, state, deal, who: int, kind: str):
        """The table dealt again like `deal`. Another seat's decision is asked again
        from the new deal, so the world's options are its own; a world where the rules
        then ask `who` nothing, or another decision, is None: it cannot have made the
        decision seen."""
        world = state.clone(log=False, rng=self.rng)  # its chance the belief's, not the table's
        world.redeal(self.seat, self.rng, canonical=True, like=deal)
        return world if world.current_player() == who and world.decision_kind() == kind else None

    def draw(self, rng: random.Random) -> dict | None:
        """A particle's deal, in proportion to the weights."""
        return self.deals[_pick(self.weights, rng.random() * sum(self.weights))]

    def _settle(self) -> None:
        """Normalized weights; resampled (systematically) when the effective sample size
        falls under half. All weights zero (the model ruled every particle out, as it
        may when the fill at random was wrong): start over, believing nothing."""
        total, n = sum(self.weights), len(self.weights)
        if total == 0:
            self.deals, self.weights = [None] * n, [1.0] * n
            return
        self.weights = [w * n / total for w in self.weights]
        if n * n / sum(w * w for w in self.weights) >= n / 2:
            return
        start = self.rng.random()
        kept = [_pick(self.weights, start + i) for i in range(n)]
        self.deals = [self.deals[j] for j in kept]
        self.weights = [1.0] * n


def _pick(weights: list[float], x: float) -> int:
    """The index where the running sum of `weights` passes x."""
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    return max(i for i, w in enumerate(weights) if w > 0)
