"""Pirates Wild invariants in every state of many seeded games, random and greedy.

The checks restate the rulings in plain Python, independently of the spec, so the
spec and the engine are tested against a second reading of PW-5 … PW-10.
"""

import pytest
from gamekit import game_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.interpreter import CHANCE, seat_name
from rulespec.interpreter.agents import make_agents, play

ORDER = [("coins", 4), ("map", 3), ("jewels", 2), ("skeleton_key", 1), ("treasure_chest", 1)]
SHORE = {"coins", "map"}
TROUBLES = {"nightfall", "storm", "lost_at_sea", "shipwreck", "mutiny"}
TREASURES = {name for name, _ in ORDER}
TURN_LIMIT = 100


def ship_of(seen, p):
    return seen["zones"][f"ship[{seat_name(p)}]"]


def hand_size(seen, p):
    return len(seen["zones"][f"hand[{seat_name(p)}]"])


def may_take(ship, treasure) -> bool:
    """PW-7, restated: requirements face up, no Trouble, and the next treasure."""
    vessel = "sloop" if treasure in SHORE else "galleon"
    if not (
        "daylight" in ship
        and ("crew" in ship or "captain" in ship)
        and (vessel in ship or "flagship" in ship)
        and not TROUBLES & set(ship)
    ):
        return False
    for name, limit in ORDER:
        if ship.count(name) < limit:
            return name == treasure
    return False


def check_step(game, turn_start):
    game.check_invariants()
    seen = game.observation(None)
    for p in range(game.game.n):
        assert (
            len(TROUBLES & set(ship_of(seen, p))) <= 1
            and sum(ship_of(seen, p).count(t) for t in TROUBLES) <= 1
        ), "two Troubles on a ship"
    if game.is_terminal() or game.current_player() == CHANCE:
        return
    current = int(seen["current"][1:]) - 1
    for option in game.legal_labels():
        if option.startswith("take_treasure "):
            treasure = option.split()[1]
            assert may_take(ship_of(seen, current), treasure), (option, ship_of(seen, current))
    # the first choice of a turn: note the hand; at the next turn, check it came back
    if game.turn != turn_start.get("turn"):
        if turn_start:
            p, h0, drew = turn_start["player"], turn_start["hand"], turn_start["drew"]
            if h0 + drew > 0:
                assert hand_size(seen, p) == h0 + drew - 1, "hand size not restored"
            assert hand_size(seen, p) <= 6
        turn_start.update(
            turn=game.turn,
            player=current,
            hand=hand_size(seen, current),
            drew=int(game.decision_kind() == "choose"),
        )


def check_game(seed, players, agent):
    game = game_for("pirates_wild", players).new_initial_state(seed=seed, turn_limit=TURN_LIMIT)
    turn_start: dict = {}
    play(game, make_agents([agent], players, seed), lambda g: check_step(g, turn_start))
    assert game.is_terminal() and (game.reason == "turn_limit") == (game.winners == ())
    # treasures reach a ship only by take_treasure or a Kraken (PW-7, PW-11)
    last_play = None
    for e in game.log_for(None):
        if e["event"] == "play":
            last_play = e["action"]
        if e["event"] == "move" and e["dst"].startswith("ship[") and TREASURES & set(e["cards"]):
            assert last_play in ("take_treasure", "kraken_raid"), e


GAMES = settings(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


# One item per agent and player count, so xdist spreads them over its workers; random
# games are five times cheaper than greedy ones, so there are more of them (and the slow
# step plays 622 more of both).
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(GAMES, max_examples=30)
@given(seed=st.integers(0, 2**31))
def test_random_games_keep_the_invariants(seed, players):
    check_game(seed, players, "random")


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(GAMES, max_examples=4)
@given(seed=st.integers(0, 2**31))
def test_greedy_games_keep_the_invariants(seed, players):
    check_game(seed, players, "greedy")


@pytest.mark.slow
@settings(GAMES, max_examples=622)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 4),
    agent=st.sampled_from(["random", "greedy"]),
)
def test_many_games_keep_the_invariants(seed, players, agent):
    """The same checks over 622 games (minutes): CI's step for slow tests."""
    check_game(seed, players, agent)


@pytest.mark.parametrize(
    "seeds",
    [range(2), pytest.param(range(2, 20), marks=pytest.mark.slow)],
    ids=["first_2", "other_18"],
)
def test_greedy_finishes_four_player_games(seeds):
    """The issue asks for 95 % of 4-player games within 2,000 turns; 20 here, all (5 in
    the everyday suite, the other 15, a minute, with the slow tests)."""
    game = game_for("pirates_wild", 4)
    reasons = [
        play(game.new_initial_state(seed=s, log=False), make_agents(["greedy"], 4, s)).reason
        for s in seeds
    ]
    assert reasons.count("completion") == len(seeds)
