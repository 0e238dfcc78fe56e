"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012): a search agent that knows no game and never peeks.

Each iteration deals the cards its seat cannot see again at random (a determinization
its observation cannot tell from the true table: `State.redeal`), or like a deal drawn
from the agent's belief (interpreter/belief.py) when it keeps one, then walks one tree
of the seat's information sets on that deal. An edge is one seat's choice, by its
label; an edge is only offered where the deal makes it legal, and UCT counts how often
it was available instead of the parent's visits. Chance (shuffles, random steals) is
sampled from the search's own RNG, never the game's, and not branched on; forced
choices are played without a node. A rollout plays the other seats on at random (or
greedily) until the searching seat's next choice, for a few turns at most; its value
for each seat is the result when the game is over, else the spec's `evaluation` of the
seat less its best rival's, on the scale of the widest gap the search has seen. The
option played is the one of best mean value. The tree may start from a root kept from
the agent's last decision (the node below its choice and the choices seen since).
"""

from __future__ import annotations

import math
import random
import time


class Node:
    __slots__ = ("available", "children", "seat", "total", "visits")

    def __init__(self, seat: int | None):
        self.seat = seat  # who chose the edge into this node: the value is theirs
        self.children: dict = {}  # (seat, kind, label) -> Node
        self.visits = self.available = 0
        self.total = 0.0


class Search:
    """One decision's search from `state` for `seat`; `rng` is the agent's own."""

    def __init__(
        self,
        state,
        seat: int,
        rng: random.Random,
        *,
        iterations: int | None,
        seconds: float | None,
        c: float,
        depth: int,
        rollout,
        root: Node | None = None,
        belief=None,
    ):
        self.state, self.seat, self.rng = state, seat, rng
        self.iterations, self.seconds, self.c = iterations, seconds, c
        self.depth, self.rollout, self.belief = depth, rollout, belief
        self.root = Node(None) if root is None else root  # a tree kept from the last decision
        self.spread = [0.0]  # the widest evaluation gap seen: the scale of values

    def best(self, options):
        """The legal option whose edge has the best mean value (ties: the most visited,
        then the first listed). Not the most visited: at a budget of a few visits per
        option, UCT's visits hardly differ and would pick almost at random."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while (self.iterations is None or done < self.iterations) and (
            deadline is None or time.perf_counter() < deadline
        ):
            self.iterate()
            done += 1
        kind = self.state.decision_kind()
        nodes = [self.root.children.get((self.seat, kind, o.label)) for o in options]
        ranks = [(n.total / n.visits, n.visits) if n else (-math.inf, 0) for n in nodes]
        return options[ranks.index(max(ranks))]

    def iterate(self) -> None:
        s = self.state.clone(log=False, rng=self.rng)
        self.deal(s)
        path = self.descend(s)
        values = self.play_out(s)
        for node in path:
            node.visits += 1
            node.total += values[node.seat]

    def deal(self, s) -> None:
        """Deal again, in the copy `s`, every card the seat cannot see: at random, or like
        a deal drawn from the belief."""
        like = None if self.belief is None else self.belief.draw(self.rng)
        s.redeal(self.seat, self.rng, canonical=True, like=like)

    def descend(self, s) -> list[Node]:
        """Selection and expansion: down the tree until a new edge is added."""
        node, path, rng = self.root, [], self.rng
        while not s.is_terminal():
            if s.is_chance_node():
                s.sample_chance(rng)
                continue
            options = s.legal_actions()
            if len(options) == 1:
                s.apply_action(options[0])
                continue
            who, kind = s.current_player(), s.decision_kind()
            edges = [(who, kind, o.label) for o in options]
            untried = [i for i, e in enumerate(edges) if e not in node.children]
            for e in edges:
                child = node.children.get(e)
                if child is not None:
                    child.available += 1
            if untried:
                i = untried[rng.randrange(len(untried))]
                child = node.children[edges[i]] = Node(who)
                child.available = 1
                s.apply_action(options[i])
                path.append(child)
                return path
            i = max(range(len(edges)), key=lambda j: self.uct(node.children[edges[j]]))
            node = node.children[edges[i]]
            s.apply_action(options[i])
            path.append(node)
        return path

    def uct(self, child: Node) -> float:
        return child.total / child.visits + self.c * math.sqrt(
            math.log(child.available) / child.visits
        )

    def play_out(self, s) -> list[float]:
        """A rollout of `depth` turns at most, stopping at the searching seat's own next
        choice (its moves are the tree's to choose: played at random they would make any
        move that keeps its turn going look worse than ending it; a pass left alone
        after a play is played on: passed_alone), then every seat's value in
        [-1, 1]."""
        while not s.is_terminal() and passed_alone(s):  # the play it follows goes on
            s.apply_action(s.legal_actions()[0])
        end, rng, seat = s.turn + self.depth, self.rng, self.seat
        while not s.is_terminal() and s.turn < end:
            if s.is_chance_node():
                s.sample_chance(rng)
            elif s.current_player() != seat:
                s.apply_action(self.rollout(s, rng))
            elif passed_alone(s):
                s.apply_action(s.legal_actions()[0])
            else:
                break
        return value(s, self.spread)


def value(s, spread: list[float]) -> list[float]:
    """Per seat: the result (1 a win, -1 a loss, a game nobody won 0, or -1 for a
    seat without a rival; with a declared payoff, the seat's less its best rival's,
    over the payoffs' range, within [-1, 1]) when the game is over; else its
    evaluation less its best rival's (a seat of another team, or any other seat), over
    the widest such gap seen so far in this search (`spread`, updated), halved: within
    [-0.5, 0.5] whatever the evaluation's scale. Against the best rival, not the
    average: in a race to a goal, holding back the leader is worth as much as one's own
    progress. A seat without a rival (alone, or all on one team: a cooperative game)
    by its evaluation itself. Without an evaluation: 0 until the end."""
    game = s.game
    if s.is_terminal():
        payoff = game.spec.payoff
        if payoff is None:  # a game nobody won: a draw among rivals, lost by a seat alone
            won = s.winners
            return [
                1.0 if p in won else -1.0 if won or not game.rivals[p] else 0.0
                for p in range(game.n)
            ]
        got, width = s.payoffs(), (payoff.high - payoff.low) or 1
        return [  # alone (no rival): where its payoff lies between min and max
            (v - max(got[q] for q in rivals)) / width
            if rivals
            else 2 * (v - payoff.low) / width - 1
            for v, rivals in zip(got, game.rivals)
        ]
    if game.evaluation is None:
        return [0.0] * game.n
    scores = [s.evaluate(p) for p in range(game.n)]
    gaps = [
        v - max(scores[q] for q in rivals) if rivals else v
        for v, rivals in zip(scores, game.rivals)
    ]
    spread[0] = max(spread[0], *(abs(g) for g in gaps))
    return [0.5 * g / spread[0] if spread[0] else 0.0 for g in gaps]


def passed_alone(s) -> bool:
    """Is the decision a pass left alone after a play (a step offered again with
    nothing left to play)? A search plays it on as part of the play before it: the
    play ended the step before such a pass was asked, and a look ahead or a rollout
    that stopped at it would weigh that play at another depth than the others."""
    return s.decision_again() and s.legal_labels() == ["pass"]


def random_move(s, rng):
    options = s.legal_actions()
    return options[rng.randrange(len(options))] if len(options) > 1 else options[0]
