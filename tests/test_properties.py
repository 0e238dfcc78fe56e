"""Invariants that hold in every state of many seeded random games (RULINGS C-1..C-6)."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import Game
from interpreter.agents import make_agents, play
from interpreter.observe import can_see, log_for, observation

from gamekit import check_cards_conserved, check_no_rule_missed, rules_for

HAND_LIMIT = 5  # TTG-5


@settings(max_examples=500, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_random_games_keep_the_invariants(seed, players):
    rules = rules_for("take_the_gold", players)
    game = Game(rules, seed=seed, log=False)
    hand = rules.hand
    last_turn = [game.turn]

    def on_step(g):
        check_cards_conserved(g)
        check_no_rule_missed(g)
        if g.turn != last_turn[0] and not g.over:
            # a new turn has begun: every hand but the new current player's (who has
            # just drawn) is within the limit, as the last turn ended with it
            for p in range(g.n):
                if p != g.current:
                    assert len(g.zones[hand + p]) <= HAND_LIMIT, (seed, g.turn, p)
            last_turn[0] = g.turn

    play(game, make_agents(["random"], players, seed), on_step)
    assert game.over
    if game.reason == "turn_limit":
        assert game.winners == ()
    else:
        assert game.reason in ("coin_win", "ship_destroyed") and len(game.winners) == 1


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_no_player_sees_hidden_cards(seed, players):
    rules = rules_for("take_the_gold", players)
    game = play(Game(rules, seed=seed), make_agents(["random"], players, seed))
    labels = {slot.label: slot for slot in rules.slots}
    for p in range(players):
        obs = observation(game, p)
        for label, content in obs["zones"].items():
            if can_see(labels[label], p):
                assert isinstance(content, list)
            else:
                assert content == {"count": len(game.zones[rules.slots.index(labels[label])])}
        for event in log_for(game, p):
            if event["event"] == "move" and not (can_see(labels[event["src"]], p)
                                                 or can_see(labels[event["dst"]], p)):
                assert event["cards"] is None, event
            if event["event"] == "choice" and event["kind"] == "card" and event["player"] != p:
                assert event["option"] is None


def test_same_seed_same_game():
    rules = rules_for("take_the_gold", 4)
    runs = [log_for(play(Game(rules, seed=11), make_agents(["random"], 4, 11)), None)
            for _ in range(2)]
    assert runs[0] == runs[1]
    other = log_for(play(Game(rules, seed=12), make_agents(["random"], 4, 12)), None)
    assert other != runs[0]


def test_turn_limit_is_reported():
    rules = rules_for("take_the_gold", 4)
    game = play(Game(rules, seed=3, turn_limit=2), make_agents(["first"], 4, 3))
    assert (game.reason, game.winners, game.turn) == ("turn_limit", (), 2)


def test_clone_plays_on_independently():
    rules = rules_for("take_the_gold", 3)
    game = Game(rules, seed=5)
    while game.turn < 3:
        game.apply(game.legal()[0]) if game.to_act() >= 0 else game.sample_chance()
    twin = game.clone()
    agents = make_agents(["random"], 3, 9)
    a = log_for(play(game, agents), None)
    b = log_for(play(twin, make_agents(["random"], 3, 9)), None)
    assert a == b and twin.zones is not game.zones


def test_clone_inside_an_effect_does_not_share_its_locals():
    """A game paused in a reaction window is copied with the effect's locals."""
    rules = rules_for("take_the_gold", 2)
    for seed in range(200):
        game = Game(rules, seed=seed)
        while not game.over and not (game.pending.kind == "react" and len(game.legal()) > 1):
            game.apply(game.legal()[0]) if game.to_act() >= 0 else game.sample_chance()
        if not game.over:
            break
    twin = game.clone()
    block = next(o for o in twin.legal() if o.label != "no reaction")
    twin.apply(block)
    assert game.pending.env.get("reactor") is None           # the original is untouched
    assert twin.pending is None or twin.pending.env is not game.pending.env
    game.apply("no reaction")
    assert log_for(game, None) != log_for(twin, None)


def test_chance_api_refuses_when_a_player_is_to_act():
    from interpreter import IllegalChoice
    game = Game(rules_for("take_the_gold", 2), seed=1)
    while game.to_act() < 0:
        game.sample_chance()
    with pytest.raises(IllegalChoice):
        game.sample_chance()
    with pytest.raises(IllegalChoice):
        game.chance_outcomes()
