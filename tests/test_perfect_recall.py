"""What a seat is shown is a function of what it saw (OpenSpiel's perfect recall).

For every bundled game: two games that differ only in hidden cards (the first shuffle
of one is the other's with a few cards swapped), driven by the same decisions, must
show a seat the same observation, vector, and OpenSpiel information-state string for
as long as they have shown it the same log. A view that depends on where an unseen
card went (a card taken at random from a hand, one copy of several of a type) fails.
"""

import random
from pathlib import Path

import pytest

from rulespec import load_spec
from rulespec.interpreter import Game, IllegalChoice, Order
from rulespec.table.encoding import ObservationEncoder

GAMES = sorted((Path(__file__).parent.parent / "games").glob("*.yaml")) + [
    Path(__file__).parent / "valid" / "hand_trading.yaml",  # swap: what a trade tells each seat
    Path(__file__).parent / "valid" / "facing_out.yaml",  # others: a hand hidden from its owner
    Path(__file__).parent / "valid" / "deck_builder.yaml",  # a player's own discards refill
]
TURNS = 40  # the first turns of each game: where hidden cards were dealt and first move

try:
    from rulespec.spiel import SeatObserver, information_state
except ImportError:  # the openspiel extra is not installed: the other views are still checked
    SeatObserver = None


class _Held:
    """What SeatObserver reads of an OpenSpiel state: the rulespec state as `table`, and
    its information-state string, made as a SpecState makes it (its log's lines kept in
    `seen` from one step to the next)."""

    def __init__(self, state, seen: dict):
        self.table, self.seen = state, seen

    def information_state_string(self, seat: int) -> str:
        return information_state(self.table, seat, self.seen)


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
        self.seen: tuple[dict, dict] = ({}, {})  # each game's information-state lines so far

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

    def check(self, encoder, observer) -> None:
        """Each seat shown the same log so far is shown the same everything."""
        for seat in sorted(self.alike):
            start = self.read[seat]
            new_a, new_b = self.a.log_for(seat, start), self.b.log_for(seat, start)
            if new_a != new_b:
                self.alike.discard(seat)
                continue
            self.read[seat] += len(new_a)
            seen_a, seen_b = self.a.observation(seat), self.b.observation(seat)
            assert seen_a == seen_b, (seat, self.a.turn)
            assert encoder.encode(seen_a) == encoder.encode(seen_b)
            if observer is not None:
                strings = [
                    observer.string_from(_Held(s, seen), seat)
                    for s, seen in zip((self.a, self.b), self.seen)
                ]
                assert strings[0] == strings[1], (seat, self.a.turn)


def _observer(game: Game):
    if SeatObserver is None:
        return None
    observer = SeatObserver.__new__(SeatObserver)  # the string needs no OpenSpiel game
    observer.encoder, observer.perfect_recall = ObservationEncoder(game), True
    return observer


def play_twins(game: Game, seed: int) -> int:
    """Play one pair; returns how many decisions both games took alike."""
    twins, encoder, observer = Twins(game, seed), ObservationEncoder(game), _observer(game)
    steps = 0
    twins.check(encoder, observer)
    while not twins.a.is_terminal() and twins.alike and twins.step():
        twins.check(encoder, observer)
        steps += 1
    return steps


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_a_seat_shown_the_same_log_is_shown_the_same_view(path):
    spec = load_spec(path)
    for players in sorted({spec.min_players, spec.default_players, spec.max_players}):
        game = Game(spec, players)
        steps = [play_twins(game, seed) for seed in range(12)]
        assert sum(steps) > 0  # the pairs played on together: the check had something to see


@pytest.mark.slow
@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_a_seat_shown_the_same_log_is_shown_the_same_view_over_many_games(path):
    spec = load_spec(path)
    for players in range(spec.min_players, spec.max_players + 1):
        game = Game(spec, players)
        for seed in range(100, 130):
            play_twins(game, seed)
