"""Invariants that hold in every state of many seeded random games (RULINGS C-1..C-6)."""

from collections import Counter

import pytest
from gamekit import game_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.interpreter import CHANCE, IllegalChoice
from rulespec.interpreter.agents import make_agents, play
from rulespec.interpreter.observe import can_see

HAND_LIMIT = 5  # TTG-5


@settings(
    max_examples=500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_random_games_keep_the_invariants(seed, players):
    game = game_for("take_the_gold", players).new_initial_state(seed=seed, log=False)
    last_turn = [game.turn]

    def on_step(g):
        g.check_invariants()
        if g.turn != last_turn[0] and not g.is_terminal():
            # a new turn has begun: every hand but the new current player's (who has
            # just drawn) is within the limit, as the last turn ended with it
            seen = g.observation(None)
            for p in range(1, players + 1):
                if f"P{p}" != seen["current"]:
                    assert len(seen["zones"][f"hand[P{p}]"]) <= HAND_LIMIT, (seed, g.turn, p)
            last_turn[0] = g.turn

    play(game, make_agents(["random"], players, seed), on_step)
    assert game.is_terminal()
    if game.reason == "turn_limit":
        assert game.winners == ()
    else:
        assert game.reason in ("coin_win", "ship_destroyed") and len(game.winners) == 1


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_no_player_sees_hidden_cards(seed, players):
    definition = game_for("take_the_gold", players)
    game = play(definition.new_initial_state(seed=seed), make_agents(["random"], players, seed))
    labels = {slot.label: slot for slot in definition.slots}
    everything = game.observation(None)["zones"]
    for p in range(players):
        obs = game.observation(p)
        for label, content in obs["zones"].items():
            if can_see(labels[label], p):
                assert isinstance(content, list)
            else:  # a count, and cards the seat saw go there, which truly lie there
                assert content["count"] == len(everything[label])
                assert set(content) <= {"count", "revealed"}
                shown = Counter(r["card"] for r in content.get("revealed", ()))
                assert shown <= Counter(everything[label]), (p, label, content)
        for event in game.log_for(p):
            if event["event"] == "move" and not (
                can_see(labels[event["src"]], p) or can_see(labels[event["dst"]], p)
            ):
                assert event["cards"] is None, event
            if event["event"] == "choice" and event["kind"] == "card" and event["player"] != p:
                assert event["option"] is None


def test_same_seed_same_game():
    game = game_for("take_the_gold", 4)
    runs = [
        play(game.new_initial_state(seed=11), make_agents(["random"], 4, 11)).log_for(None)
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    other = play(game.new_initial_state(seed=12), make_agents(["random"], 4, 12)).log_for(None)
    assert other != runs[0]


def test_turn_limit_is_reported():
    game = play(
        game_for("take_the_gold", 4).new_initial_state(seed=3, turn_limit=2),
        make_agents(["first"], 4, 3),
    )
    assert (game.reason, game.winners, game.turn) == ("turn_limit", (), 2)


def test_clone_plays_on_independently():
    game = game_for("take_the_gold", 3).new_initial_state(seed=5)
    while game.turn < 3:
        game.sample_chance() if game.is_chance_node() else game.apply_action(
            game.legal_actions()[0]
        )
    twin = game.clone()
    a = play(game, make_agents(["random"], 3, 9)).log_for(None)
    b = play(twin, make_agents(["random"], 3, 9)).log_for(None)
    assert a == b


def test_a_clone_has_a_table_of_its_own():
    game = game_for("take_the_gold", 3).new_initial_state(seed=5)
    while game.is_chance_node():
        game.sample_chance()
    twin = game.clone()
    before = game.observation(None)
    twin.apply_action(twin.legal_actions()[0])
    assert game.observation(None) == before != twin.observation(None)


def test_clone_inside_an_effect_does_not_share_its_locals():
    """A game paused in a reaction window is copied with the effect's locals."""
    definition = game_for("take_the_gold", 2)
    for seed in range(200):
        game = definition.new_initial_state(seed=seed)
        while not game.is_terminal() and not (
            game.decision_kind() == "react" and len(game.legal_actions()) > 1
        ):
            game.sample_chance() if game.is_chance_node() else game.apply_action(
                game.legal_actions()[0]
            )
        if not game.is_terminal():
            break
    key = game.key()
    twin = game.clone()
    block = next(o for o in twin.legal_actions() if o.label != "no reaction")
    twin.apply_action(block)
    assert game.key() == key  # the original, its paused effect's locals included, is untouched
    game.apply_action("no reaction")
    assert game.log_for(None) != twin.log_for(None)


def test_chance_api_refuses_when_a_player_is_to_act():
    game = game_for("take_the_gold", 2).new_initial_state(seed=1)
    while game.current_player() == CHANCE:
        game.sample_chance()
    with pytest.raises(IllegalChoice):
        game.sample_chance()
    with pytest.raises(IllegalChoice):
        game.chance_outcomes()
