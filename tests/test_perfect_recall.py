"""What a seat is shown is a function of what it saw (OpenSpiel's perfect recall).

For every bundled game: two games that differ only in hidden cards (the first shuffle
of one is the other's with a few cards swapped), driven by the same decisions, must
show a seat the same observation (the named values the table shows it too), vector,
and information key (State.information_key, OpenSpiel's information-state string) for
as long as they have shown it the same log, and different keys once they have not. A view that depends on where an unseen card went
(a card taken at random from a hand, one copy of several of a type) fails.
"""

import random
from dataclasses import replace
from pathlib import Path

import pytest

from rulespec import load_spec
from rulespec.interpreter import Game, IllegalChoice, Order
from rulespec.table.encoding import ObservationEncoder

GAMES = sorted((Path(__file__).parent.parent / "games").glob("*.yaml")) + [
    Path(__file__).parent / "valid" / "hand_trading.yaml",  # swap: what a trade tells each seat
    Path(__file__).parent / "valid" / "facing_out.yaml",  # others: a hand hidden from its owner
    Path(__file__).parent / "valid" / "deck_builder.yaml",  # a player's own discards refill
    Path(__file__).parent / "valid" / "top_colour.yaml",  # values shown: one of a seat's own hand
]
TURNS = 40  # the first turns of each game: where hidden cards were dealt and first move


class Twins:
    """Game `a` played by seeded agents; game `b` its twin with the first shuffle
    perturbed, given the same decisions while they are legal."""

    def __init__(self, game: Game, seed: int):
        self.game, self.rng = game, random.Random(seed)
        self.a = game.new_initial_state(seed=seed, turn_limit=TURNS)
        self.b = game.new_initial_state(seed=seed, turn_limit=TURNS)
        self.shuffles = 0
        self.read = [0] * game.n  # log events of each seat compared so far
        self.alike = set(range(game.n))  # seats shown the same log so far
        self.hidden = 0  # checks of a seat shown the same while the games differed
        self.parted = 0  # checks of a seat shown something else

    def step(self) -> bool:
        """One decision in both games; False once they part (b cannot follow a)."""
        a, b = self.a, self.b
        if a.chance_is_sampled():
            if not b.chance_is_sampled():
                return False
            self.shuffles += 1
            same = random.Random(self.shuffles)  # the same order of places in both
            order = a.sample_chance(same)
            if self.shuffles == 1:
                b.apply_action(Order("shuffle", self._swapped(order.cards)))
            else:
                b.sample_chance(random.Random(self.shuffles))
            return True
        if a.is_chance_node():
            option = a.sample_chance(self.rng)
        else:
            options = a.legal_actions()
            option = options[self.rng.randrange(len(options))]
            a.apply_action(option)
        if b.is_terminal():
            return False
        try:
            b.apply_action(option.label)
        except IllegalChoice:
            return False
        return True

    def _swapped(self, cards: tuple) -> tuple:
        cards = list(cards)
        for _ in range(self.rng.randint(1, 3)):
            i, j = self.rng.sample(range(len(cards)), 2)
            cards[i], cards[j] = cards[j], cards[i]
        return tuple(cards)

    def check(self, encoder) -> None:
        """Each seat shown the same log so far is shown the same everything; a seat
        shown another log has another information key."""
        a, b = self.a, self.b
        differ = a.observation(None) != b.observation(None)  # the cards, as a spectator sees
        for seat in range(self.game.n):
            keys = a.information_key(seat), b.information_key(seat)
            if seat in self.alike:
                start = self.read[seat]
                new_a, new_b = a.log_for(seat, start), b.log_for(seat, start)
                self.read[seat] += len(new_a)
                if new_a != new_b:
                    self.alike.discard(seat)
            if seat not in self.alike:
                assert keys[0] != keys[1], (seat, a.turn)
                self.parted += 1
                continue
            seen_a, seen_b = a.observation(seat), b.observation(seat)
            assert seen_a == seen_b, (seat, a.turn)
            assert encoder.encode(seen_a) == encoder.encode(seen_b)
            assert keys[0] == keys[1], (seat, a.turn)
            self.hidden += differ


def play_twins(game: Game, seed: int) -> tuple[int, int, int]:
    """Play one pair; returns how many decisions both games took alike, how often a seat
    was shown the same while the games differed, and how often a seat was shown else."""
    twins, encoder = Twins(game, seed), ObservationEncoder(game)
    steps = 0
    twins.check(encoder)
    while not twins.a.is_terminal() and twins.alike and twins.step():
        twins.check(encoder)
        steps += 1
    return steps, twins.hidden, twins.parted


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_a_seat_shown_the_same_log_is_shown_the_same_view(path):
    spec = load_spec(path)
    for players in sorted({spec.min_players, spec.default_players, spec.max_players}):
        game = Game(spec, players)
        steps, hidden, parted = zip(*(play_twins(game, seed) for seed in range(12)))
        assert sum(steps) > 0  # the pairs played on together: the check had something to see
        assert sum(hidden) > 0  # seats shown the same of twins that differ in hidden cards
        assert sum(parted) > 0  # and seats shown something else


@pytest.mark.slow
@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_a_seat_shown_the_same_log_is_shown_the_same_view_over_many_games(path):
    spec = load_spec(path)
    for players in spec.player_counts:
        game = Game(spec, players)
        for seed in range(100, 130):
            play_twins(game, seed)


def test_twins_tell_a_hand_s_worth_shown_to_every_seat():
    """The check's control for the values the table shows: top_colour's `in_hand(p)`
    reads p's own hand, so it is shown to p alone (rulespec/lang/shown.py); shown to
    every seat, it would show a seat of twin games values that differ."""
    spec = load_spec(Path(__file__).parent / "valid" / "top_colour.yaml")
    leaked = tuple(replace(c, shown="all") if c.name == "in_hand" else c for c in spec.conditions)
    game = Game(replace(spec, conditions=leaked), 3)
    with pytest.raises(AssertionError):
        for seed in range(12):
            play_twins(game, seed)
