"""The state's API as a forward model: re-deals, keys, shuffles as chance nodes."""

import random
import re
from pathlib import Path

import pytest
from gamekit import GAMES, game_for, zone

from rulespec import load_spec
from rulespec.interpreter import CHANCE, Game, IllegalChoice, Order, Rejection, State

GEMS = """
rulespec: 1
name: Gems
players: {min: 2, max: 2, default: 2}
hand: hand
deck:
  cards:
    gem: {count: 1}
    rock: {count: 5}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
setup:
  effect: shuffle(pile)
turn:
  - step: play
    actions: [knock]
    optional: true
actions:
  knock:
    card: rock
    to: pile
end_conditions:
  gem_found:     # it reads whose turn it is, so it is checked as each turn begins
    each: p
    when: count(hand(p), gem) > 0 and size(hand(current)) >= 0
    effect: win(p)
"""


def gems():
    return Game(load_spec("gems.yaml", GEMS), 2)


def test_a_re_deal_that_makes_a_trigger_true_fires_it_at_the_next_check():
    """The re-deal bug class (issue 10): a search's re-deal of hidden cards must have the
    rules checked again; before, the check was skipped until something else changed."""
    layout = {"hand[P1]": ["rock"], "hand[P2]": ["rock"], "pile": ["gem", "rock", "rock", "rock"]}
    for seed in range(100):
        state = State.from_layout(gems(), zones=layout)
        assert state.current_player() == 0 and state.legal_labels() == ["knock", "pass"]
        state.redeal(0, random.Random(seed))  # as P1's search would: P1's own hand stays
        if zone(state, "hand[P2]") == ["gem"]:
            break
    assert zone(state, "hand[P1]") == ["rock"] and state.turn == 1
    state.apply_action("pass")
    # at the very next check, before P2's turn begins
    assert (state.is_terminal(), state.winners, state.reason, state.turn) == (
        True,
        (1,),
        "gem_found",
        1,
    )


def test_a_re_deal_keeps_what_the_seat_sees():
    state = gems().new_initial_state(seed=3)
    while state.is_chance_node():
        state.sample_chance()
    seen = state.observation(0)
    for seed in range(20):
        twin = state.clone()
        twin.redeal(0, random.Random(seed))
        twin.check_invariants()
        assert twin.observation(0) == seen


@pytest.mark.parametrize("name", ["take_the_gold", "pirates_wild"])
def test_a_re_deal_keeps_the_cards_a_seat_saw_move_where_they_went(name):
    """Cards taken from a seat's hand are shown in its view of the taker's hand, and a
    re-deal for the seat leaves them there."""
    game, rng, known = game_for(name, 4), random.Random(1), 0
    for seed in range(6):
        state = game.new_initial_state(seed=seed, log=False)
        while not state.is_terminal() and state.turn < 60:
            if state.is_chance_node():
                state.sample_chance()
                continue
            seat = state.current_player()
            seen = state.observation(seat)
            known += sum(
                len(z.get("revealed", ())) for z in seen["zones"].values() if isinstance(z, dict)
            )
            twin = state.clone(log=False)
            twin.redeal(seat, rng)
            assert twin.observation(seat) == seen
            options = state.legal_actions()
            state.apply_action(options[rng.randrange(len(options))])
    assert known > 0  # the games did show some seat a card it saw go


def test_a_shuffle_is_a_sampled_chance_node():
    state = gems().new_initial_state(seed=5)
    assert state.current_player() == CHANCE and state.chance_is_sampled()
    assert state.decision_kind() == "shuffle" and state.legal_actions() == []
    with pytest.raises(IllegalChoice) as exc:
        state.chance_outcomes()
    assert exc.value.code is Rejection.CHANCE_SAMPLED
    with pytest.raises(IllegalChoice) as exc:
        state.chance_weights()
    assert exc.value.code is Rejection.CHANCE_SAMPLED
    with pytest.raises(IllegalChoice) as exc:
        state.apply_action(Order("shuffle", (0, 1)))  # not the pile's cards
    assert exc.value.code is Rejection.CHANCE_SAMPLED and state.chance_is_sampled()
    state.apply_action(Order("shuffle", tuple(range(6))))  # an order we chose: gem at the bottom
    assert zone(state, "pile") == ["gem"] + ["rock"] * 5


def test_chance_weights_are_the_chance_outcomes_in_whole_numbers():
    met = set()
    for seed in range(30):
        state = game_for("take_the_gold", 3).new_initial_state(seed=seed)
        pick = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node() and not state.chance_is_sampled():
                outcomes, weights = state.chance_weights()
                met.add(weights is None)
                weights = weights or (1,) * len(outcomes)
                assert [(o, w / sum(weights)) for o, w in zip(outcomes, weights)] == (
                    state.chance_outcomes()
                )
                state.sample_chance()
            elif state.is_chance_node():
                state.sample_chance()
            else:
                with pytest.raises(IllegalChoice) as exc:
                    state.chance_weights()
                assert exc.value.code is Rejection.CHANCE_NOT_TO_ACT
                state.apply_action(pick.choice(state.legal_actions()))
        for ask in (state.chance_weights, state.sample_chance, state.chance_outcomes):
            with pytest.raises(IllegalChoice) as exc:  # over: as apply_action says
                ask()
            assert exc.value.code is Rejection.GAME_OVER
    assert met == {True, False}  # seats alike (random_player), and cards weighed by count


def test_sampling_from_the_state_s_seed_or_from_a_search_s_own_rng():
    a, b, c = (gems().new_initial_state(seed=5) for _ in range(3))
    a.sample_chance()
    b.sample_chance()
    orders = {tuple(zone(a, "pile")), tuple(zone(b, "pile"))}
    assert len(orders) == 1  # the seed decides
    c.sample_chance(random.Random(99))
    assert a.key() != c.key() or tuple(zone(c, "pile")) in orders


def test_equal_keys_for_equal_futures_and_unequal_otherwise():
    game = gems()
    layout = {"hand[P1]": ["rock"], "hand[P2]": ["rock"], "pile": ["rock", "gem"]}
    a, b = State.from_layout(game, zones=layout), State.from_layout(game, zones=layout)
    assert a.key() == b.key() and hash(a.key()) == hash(b.key())
    b.apply_action("knock")
    assert a.key() != b.key()
    a.apply_action("knock")
    assert a.key() == b.key()


def test_a_layout_that_does_not_fit_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="unknown zone 'hnd\\[P1\\]'"):
        State.from_layout(gems(), zones={"hnd[P1]": ["rock"]})
    with pytest.raises(ValueError, match="more 'gem' cards placed than the deck holds"):
        State.from_layout(gems(), zones={"hand[P1]": ["gem", "gem"]})
    # a Coup designer's per-seat counter named whole was told it was unknown, no more
    with pytest.raises(
        ValueError, match=r"unknown zone 'hand'; 'hand' is 2 zones: name one, hand\[P1\];"
    ):
        State.from_layout(gems(), zones={"hand": ["gem"]})


@pytest.mark.parametrize("seat", [-1, 2, 99, True, "P1", 1.0])
def test_an_observation_for_a_seat_the_game_lacks_is_refused(seat):
    """Issue 24: observation(-1) was a view for a seat 'P0', observation(True) P2's view."""
    state = gems().new_initial_state(0)
    with pytest.raises(ValueError, match=r"^no seat .*: the seats are 0 to 1, or None$"):
        state.observation(seat)
    assert state.observation(1)["seat"] == "P2" and state.observation(None)["seat"] is None


class _Index:
    """A whole number that is not an int, as numpy's integers are (np.int64(1))."""

    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n

    def __lt__(self, other):
        return self.n < other

    def __le__(self, other):
        return self.n <= other

    def __ge__(self, other):
        return self.n >= other

    def __gt__(self, other):
        return self.n > other


def test_a_seat_given_as_another_kind_of_whole_number_is_taken_as_that_seat():
    """An environment hands out numpy integers; they were refused as 'no seat
    np.int64(1): the seats are 0 to 1'."""
    state = gems().new_initial_state(0)
    assert state.observation(_Index(1)) == state.observation(1)
    assert state.log_for(_Index(1)) == state.log_for(1)
    assert state.tallies(_Index(0)) == state.tallies(0)
    laid = State.from_layout(gems(), zones={"hand[P1]": ["gem"]}, current=_Index(1))
    assert laid.key() == State.from_layout(gems(), zones={"hand[P1]": ["gem"]}, current=1).key()


def test_a_game_made_without_views_refuses_what_needs_a_seat_s_view():
    """views=False (a simulation's games) keeps no seat's knowledge: a seat's observation
    or a re-deal from its view would be wrong, so both are refused; the spectator's
    view and the logs need no seat's knowledge and stay."""
    state = gems().new_initial_state(0, views=False)
    for ask in (lambda: state.observation(0), lambda: state.redeal(1, random.Random(0))):
        with pytest.raises(ValueError, match="keeps no seat's view: it was made with views=False"):
            ask()
    assert state.observation(None)["seat"] is None and state.log_for(0) is not None


@pytest.mark.parametrize("seat", [-1, 2, True, "P1"])
def test_a_log_a_re_deal_or_an_evaluation_for_a_seat_the_game_lacks_is_refused(seat):
    """log_for(-1) gave the omniscient log's cards to no seat; redeal('x') passed."""
    state = gems().new_initial_state(0)
    with pytest.raises(ValueError, match=r"^no seat .*: the seats are 0 to 1, or None$"):
        state.log_for(seat)
    with pytest.raises(ValueError, match=r"^no seat .*: the seats are 0 to 1$"):
        state.redeal(seat, random.Random(0))
    with pytest.raises(ValueError, match=r"^no seat .*: the seats are 0 to 1$"):
        state.evaluate(seat)


def test_a_seat_s_information_key_is_what_it_saw_and_needs_the_log():
    """An AI engineer keyed search nodes by what a seat knows through rulespec.spiel's
    undocumented information_state, which needs OpenSpiel: State.information_key is it.
    A copy, and a world re-dealt for the seat, give the seat the same key; a state
    without a log, or a seat the game lacks, is refused with the reason."""
    state = game_for("take_the_gold", 3).new_initial_state(seed=5)
    while state.turn < 4:
        if state.is_chance_node():
            state.sample_chance()
        else:
            state.apply_action(state.legal_actions()[-1])
    key = state.information_key(1)
    assert key.startswith("{seat=P2 ") and "\nturn 3\n" in key and hash(key)
    assert "cards=?" in key  # another seat's draw, not named
    world = state.world_for(1, random.Random(3), log=True)
    assert world.observation(None) != state.observation(None)  # other hands, other pile
    assert world.information_key(1) == state.clone().information_key(1) == key
    for unlogged in (state.clone(log=False), state.world_for(1, random.Random(3))):
        with pytest.raises(ValueError, match=r"^this state keeps no event log \(it was made"):
            unlogged.information_key(1)
    for seat in (-1, 3, None, True, "P1"):
        with pytest.raises(ValueError, match=r"^no seat .*: the seats are 0 to 2$"):
            state.information_key(seat)


def test_who_is_shown_a_choice_follows_where_its_card_goes():
    """A card played to a public pile is shown to every seat; one played face down into
    a hidden zone to its player alone: in the log, and to agents told of the choice
    (agents.tell, what a belief learns from)."""
    spec = load_spec(Path(__file__).parent / "valid" / "face_down.yaml")
    state = Game(spec, 2).new_initial_state(1)
    while state.is_chance_node():
        state.sample_chance()
    who, [play, *_] = state.current_player(), state.legal_actions()
    assert state.choice_seen(play) == frozenset([who])
    ttg = Game(load_spec(Path(__file__).parent.parent / "games" / "take_the_gold.yaml"), 2)
    state = ttg.new_initial_state(3)
    while state.decision_kind() != "play":
        if state.is_chance_node():
            state.sample_chance()
        else:
            state.apply_action(state.legal_actions()[0])
    plays = [o for o in state.legal_actions() if o.label != "pass"]
    assert plays and all(state.choice_seen(o) is None for o in plays)


@pytest.mark.parametrize("name", sorted(p.stem for p in GAMES.glob("*.yaml")))
def test_a_re_deal_for_a_seat_not_to_act_asks_the_one_to_act_again(name):
    """A re-deal for one seat, while another seat (or chance) is to act, deals that
    seat's hidden cards again: its options are offered again from them, so none shows
    its true hand, and each of them can be taken (it once kept the options of the true
    hand, and taking one failed deep inside)."""
    spec = load_spec(GAMES / f"{name}.yaml")
    game = Game(spec, spec.default_players)
    rng = random.Random(name)
    for seed in range(2):
        s = game.new_initial_state(seed=seed)
        for _ in range(80):
            if s.is_terminal():
                break
            if not s.chance_is_sampled():
                who = s.current_player()
                seat = rng.choice([p for p in range(game.n) if p != who])
                twin = s.clone()
                twin.redeal(seat, random.Random(rng.random()))
                twin.check_invariants()
                if twin.is_chance_node() and not twin.chance_is_sampled():
                    twin.sample_chance(random.Random(0))
                elif not twin.is_terminal() and not twin.is_chance_node():
                    for option in twin.legal_actions():
                        twin.clone().apply_action(option)
            if s.is_chance_node():
                s.sample_chance()
            else:
                options = s.legal_actions()
                s.apply_action(options[rng.randrange(len(options))])


@pytest.mark.parametrize(
    "options, message",
    [
        ({"seed": None}, "seed must be a whole number, not None"),
        ({"seed": 1.5}, "seed must be a whole number, not 1.5"),
        ({"turn_limit": 0}, "turn_limit must be a whole number of at least 1, not 0"),
        ({"turn_limit": "5"}, "turn_limit must be a whole number of at least 1, not '5'"),
        ({"carried": {99: 1}}, "carried holds a carry() of the last game"),
    ],
)
def test_a_new_state_of_a_wrong_option_is_a_value_error_naming_it(options, message):
    """Each was taken, and failed deep inside the game (or made one no seed replays)."""
    with pytest.raises(ValueError) as caught:
        game_for("take_the_gold", 3).new_initial_state(**options)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    "layout, message",
    [
        ({"current": 7}, "current must be a seat from 0 to 2, not 7"),
        ({"counters": {"tiebreak": "x"}}, "counter tiebreak holds a number, not 'x'"),
        ({"counters": {"win_target": True}}, "counter win_target holds a number, not True"),
    ],
)
def test_a_layout_of_a_wrong_value_is_a_value_error_naming_it(layout, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        State.from_layout(game_for("take_the_gold", 3), **layout)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: Game(str(GAMES / "take_the_gold.yaml"), 3), "Game takes a loaded spec"),
        (lambda: game_for("take_the_gold", "3"), "Game's players is a whole number, not '3'"),
        (
            lambda: game_for("take_the_gold", 3).new_initial_state().sample_chance(42),
            "sample_chance draws from a random.Random, not 42",
        ),
        (
            lambda: game_for("take_the_gold", 3).new_initial_state().redeal(0, None),
            "redeal deals with a random.Random, not None",
        ),
    ],
)
def test_an_argument_of_the_wrong_type_is_a_type_error_naming_it(call, message):
    """Each failed deep inside (AttributeError on a str spec, on an int RNG)."""
    with pytest.raises(TypeError, match=re.escape(message)):
        call()


def test_a_zone_of_one_card_is_not_shuffled_and_no_shuffle_is_told():
    """A one-card refill was logged and narrated "the stock is shuffled" (a Durak
    designer's), though fewer than two cards are not shuffled: no chance is asked of
    such a zone, and no shuffle event is logged for it."""
    one = Game(load_spec("one.yaml", GEMS.replace("rock: {count: 5}", "rock: {count: 0}")), 2)
    state = one.new_initial_state(seed=1)
    assert not state.chance_is_sampled()
    assert not any(e["event"] == "shuffle" for e in state.log_for(None))
    state = gems().new_initial_state(seed=1)
    while state.chance_is_sampled():
        state.sample_chance()
    assert [e["event"] for e in state.log_for(None)].count("shuffle") == 1


@pytest.mark.parametrize("given", [3, None, 1.5, b"pass"])
def test_a_choice_that_is_no_option_nor_label_is_said_so(given):
    """An engineer's apply_action(b"pass") read "'b'pass'' is not a legal choice": a
    value that is neither an option nor a label is said to be none, and the game stays."""
    state = game_for("take_the_gold", 2).new_initial_state(seed=1)
    while state.is_chance_node():
        state.sample_chance()
    before = state.key()
    with pytest.raises(IllegalChoice, match=rf"^{re.escape(repr(given))} is no option: give one"):
        state.apply_action(given)
    assert state.key() == before
