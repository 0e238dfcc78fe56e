"""Pirates Wild facts that rules scenarios cannot hold (RULINGS PW-1 .. PW-3).

Player-count bounds, the deck for each player count, and setup across a match (the
first player, the dealer moving left each game). Everything about play is in
tests/scenarios/pirates_wild/.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest
from gamekit import GAMES, counter, game_for, settled, zone

from rulespec import load_spec
from rulespec.cli import main
from rulespec.interpreter import CHANCE, Game, seat_name
from rulespec.lang.loading import load
from rulespec.table.scenarios import collect

SPEC = GAMES / "pirates_wild.yaml"

# PW-2, written out from docs/rulings.md (not read from the spec)
FULL_DECK = {
    "coins": 18,
    "map": 14,
    "jewels": 10,
    "skeleton_key": 6,
    "treasure_chest": 6,
    "daylight": 10,
    "fair_winds": 4,
    "compass": 4,
    "sloop": 6,
    "galleon": 6,
    "crew": 6,
    "nightfall": 4,
    "storm": 3,
    "lost_at_sea": 3,
    "shipwreck": 3,
    "mutiny": 3,
    "harbor": 1,
    "captain": 1,
    "flagship": 1,
    "kraken": 5,
}
# the rulebook's removal list for 3 players; 2 players remove it twice
REMOVAL = {
    "coins": 5,
    "map": 4,
    "jewels": 3,
    "skeleton_key": 2,
    "treasure_chest": 2,
    "daylight": 2,
    "fair_winds": 1,
    "compass": 1,
    "sloop": 2,
    "galleon": 2,
    "crew": 2,
}
NEVER_REMOVED = [
    "nightfall",
    "storm",
    "lost_at_sea",
    "shipwreck",
    "mutiny",
    "harbor",
    "captain",
    "flagship",
    "kraken",
]
TOTALS = {4: 114, 3: 88, 2: 62}


def deck(players: int) -> Counter:
    game = game_for("pirates_wild", players)
    return Counter(game.type_names[t] for t in game.ctype)


def current(state) -> str:
    return state.observation(None)["current"]


# --- PW-1 -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_are_accepted(players):
    assert Game(load_spec(SPEC), players).n == players


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_other_player_counts_are_refused(players):
    with pytest.raises(ValueError, match="2 to 4 players"):
        Game(load_spec(SPEC), players)


def test_default_is_four_players():
    spec = load_spec(SPEC)
    assert (spec.min_players, spec.max_players, spec.default_players) == (2, 4, 4)


def test_rulespec_run_defaults_to_four_players():
    out, err = io.StringIO(), io.StringIO()
    assert main(["run", str(SPEC), "--json", "--max-turns", "3"], out, err) == 0
    assert json.loads(out.getvalue())["players"] == 4


def test_rulespec_run_refuses_five_players():
    out, err = io.StringIO(), io.StringIO()
    assert main(["run", str(SPEC), "--players", "5"], out, err) == 2
    assert "2 to 4 players" in err.getvalue()


def test_no_help_cards_are_modelled():
    assert not [c.name for c in load_spec(SPEC).cards if "help" in c.name.lower()]


# --- PW-2 -----------------------------------------------------------------------


@pytest.mark.parametrize("players,total", sorted(TOTALS.items()))
def test_deck_size_per_player_count(players, total):
    assert len(game_for("pirates_wild", players).ctype) == total


def test_full_deck_is_the_ruling_deck():
    assert sum(FULL_DECK.values()) == 114
    assert deck(4) == Counter(FULL_DECK)


@pytest.mark.parametrize("players,times", [(3, 1), (2, 2)])
def test_removals_are_the_rulebook_list_once_or_twice(players, times):
    removed = deck(4) - deck(players)
    assert removed == Counter({card: n * times for card, n in REMOVAL.items()})
    assert deck(players) == Counter(
        {card: n - times * REMOVAL.get(card, 0) for card, n in FULL_DECK.items()}
    )


@pytest.mark.parametrize("players", [2, 3])
def test_troubles_safes_and_kraken_are_never_removed(players):
    small, full = deck(players), deck(4)
    for card in NEVER_REMOVED:
        assert small[card] == full[card] == FULL_DECK[card], card


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_count_holds_enough_treasure_for_a_win(players):
    # "each player count holds enough treasure": every player could fill every limit
    limits = {"coins": 4, "map": 3, "jewels": 2, "skeleton_key": 1, "treasure_chest": 1}
    d = deck(players)
    for card, limit in limits.items():
        assert d[card] >= limit * players, card


# --- PW-3 -----------------------------------------------------------------------


def start(players, dealer, seed=0, **kwargs):
    """Game 0 of a match, stopped after the setup's chance step picks `dealer`."""
    game = settled(game_for("pirates_wild", players).new_initial_state(seed=seed, **kwargs))
    assert game.current_player() == CHANCE
    game.apply_action(f"P{dealer + 1}")
    return settled(game)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_dealer_is_random_among_all_seats(players):
    game = settled(game_for("pirates_wild", players).new_initial_state(seed=0))
    outcomes = game.chance_outcomes()
    assert [o.label for o, _ in outcomes] == [f"P{p + 1}" for p in range(players)]
    assert {w for _, w in outcomes} == {1 / players}


@pytest.mark.parametrize("players,dealer", [(n, d) for n in (2, 3, 4) for d in range(n)])
def test_setup_deals_six_turns_one_up_and_left_of_dealer_starts(players, dealer):
    game = start(players, dealer, seed=7)
    game.check_invariants()
    assert counter(game, "dealer") == dealer
    assert current(game) == seat_name((dealer + 1) % players)
    assert seat_name(game.current_player()) == current(game)
    for p in range(players):
        assert len(zone(game, f"hand[P{p + 1}]")) == 6
        assert zone(game, f"ship[P{p + 1}]") == []
    assert len(zone(game, "discard_pile")) == 1
    assert len(zone(game, "draw_pile")) == TOTALS[players] - 6 * players - 1
    assert counter(game, "voyages") == 1  # PW-12: the first voyage
    # PW-4 at the first turn: taking the face-up card is offered unless it is a Kraken
    top = zone(game, "discard_pile")[-1]
    expected = ["draw"] if top == "kraken" else ["draw", "take discard"]
    assert game.legal_labels() == expected


def test_setup_is_reproducible_from_the_seed():
    a, b = start(4, 2, seed=11), start(4, 2, seed=11)
    assert a.observation(None) == b.observation(None)
    c = start(4, 2, seed=12)
    assert a.observation(None)["zones"] != c.observation(None)["zones"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dealer_moves_one_seat_left_each_game_of_a_match(players):
    first_dealer = 1
    game = start(players, first_dealer, seed=0)
    for k in range(1, 2 * players + 1):  # wraps round the table twice
        game = settled(
            game_for("pirates_wild", players).new_initial_state(
                seed=k, game_index=k, carried=game.carry()
            )
        )
        dealer = (first_dealer + k) % players
        assert game.current_player() != CHANCE, "only the match's first dealer is random"
        assert counter(game, "dealer") == dealer, f"game {k}"
        assert current(game) == seat_name((dealer + 1) % players), f"game {k}"
        assert seat_name(game.current_player()) == current(game)
        assert [len(zone(game, f"hand[P{p + 1}]")) for p in range(players)] == [6] * players
        assert len(zone(game, "discard_pile")) == 1


def test_match_carries_only_the_dealer():
    game = start(3, 0, seed=0)
    assert {game.game.counter_names[i] for i in game.carry()} == {"dealer"}


# --- every ruling has a scenario --------------------------------------------------


def test_every_pw_ruling_has_a_scenario():
    folder = Path(__file__).parent / "scenarios" / "pirates_wild"
    cited = {r for p in collect([folder]) for r in load(p).data.get("rulings") or ()}
    assert [f"PW-{i}" for i in range(1, 14) if f"PW-{i}" not in cited] == []
