"""`refill_from` between owned zones: a player's draw pile refills from the same player's
discard pile (a team's from the team's), an owned pile may refill from a shared one,
and every other link is refused with RS402. The deck-builder's draws across a reshuffle
are scenarios under tests/scenarios/zones/; these tests cover the rest."""

from collections import Counter
from pathlib import Path

import pytest
from gamekit import edited, settled, zone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec import SpecError, load_spec
from rulespec.interpreter import Game, State
from rulespec.interpreter.agents import make_agents, play

DECK_BUILDER = Path(__file__).parent / "valid" / "deck_builder.yaml"

PILES = """\
rulespec: 1
name: Piles
players: {min: 2, max: 4, default: 3}
hand: hand
teams: {odd: [P1, P3], even: [P2, P4]}
deck:
  cards:
    a: {count: 8}
    b: {count: 8}
zones:
  box: {start: true}
  draw: {per_player: true, visibility: hidden, ordered: true,
         refill_from: {zone: discard, keep_top: 1}}
  discard: {per_player: true, visibility: public, ordered: true}
  stock: {per_player: true, visibility: hidden, ordered: true, refill_from: heap}
  heap: {visibility: public, ordered: true}
  chest: {per_team: true, visibility: hidden, ordered: true, refill_from: spoils}
  spoils: {per_team: true, visibility: public, ordered: true}
  hand: {per_player: true, visibility: owner}
turn:
  - step: act
    actions: [draw_three, refill_only, from_stock, from_chest, through_a_local]
actions:
  draw_three:
    effect: move(top(draw(current), 3), hand(current))
  refill_only:
    effect: refill(draw(current))
  from_stock:
    effect: move(top(stock(current), 2), hand(current))
  through_a_local:
    effect: |
      let pile = draw(current)
      move(top(pile, 3), hand(current))
  from_chest:
    effect: move(top(chest(current), 2), hand(current))
end_conditions: {}
"""


def after(action, players=3, current=1, **zones):
    """The table once the seat `current` (P2 by default) has taken `action` and its
    refill's shuffle is sampled; zones by label (top first), the rest out of play."""
    state = State.from_layout(
        Game(load_spec("piles.yaml", PILES), players), zones=zones, current=current
    )
    state.apply_action(action)
    return settled(state)


def test_a_players_draw_refills_from_their_own_discard_keeping_its_top():
    s = after("draw_three", **{"discard[P2]": ["a", "b", "b"], "discard[P1]": ["a", "a"]})
    assert zone(s, "hand[P2]") == ["b", "b"]  # the kept top stays, so two of three
    assert zone(s, "discard[P2]") == ["a"]
    assert zone(s, "discard[P1]") == ["a", "a"]
    refill = [e for e in s.log_for(None) if e["event"] == "refill"]
    assert refill == [{**refill[0], "zone": "draw[P2]", "source": "discard[P2]"}]


def test_a_draw_from_a_pile_a_local_holds_refills_it_as_one_written_out():
    """A deck-builder trial's `let z = draw` then `move(top(z, 2), …)`: the draws
    stopped at an empty pile though its discard pile held cards."""
    s = after("through_a_local", **{"discard[P2]": ["a", "b", "b"]})
    assert zone(s, "hand[P2]") == ["b", "b"] and zone(s, "discard[P2]") == ["a"]


def test_refill_of_a_players_draw_pile_takes_only_their_discard():
    s = after("refill_only", **{"discard[P2]": ["a", "b", "b"], "discard[P3]": ["b"]})
    assert sorted(zone(s, "draw[P2]")) == ["b", "b"] and zone(s, "hand[P2]") == []
    assert zone(s, "discard[P3]") == ["b"] and zone(s, "draw[P3]") == []


def test_a_players_pile_may_refill_from_a_shared_one():
    s = after("from_stock", heap=["a", "b"], **{"stock[P1]": ["a"]})
    assert sorted(zone(s, "hand[P2]")) == ["a", "b"]
    assert zone(s, "heap") == [] and zone(s, "stock[P1]") == ["a"]


def test_a_teams_pile_refills_from_the_same_teams():
    s = after("from_chest", players=4, current=3, **{"spoils[even]": ["b"], "spoils[odd]": ["a"]})
    assert zone(s, "hand[P4]") == ["b"]
    assert zone(s, "spoils[odd]") == ["a"]


def refused(text):
    """(code, message, hint) of each problem of a spec that must be refused."""
    with pytest.raises(SpecError) as exc:
        load_spec("piles.yaml", text)
    return [(d.code, d.message, d.hint) for d in exc.value.diagnostics]


@pytest.mark.parametrize(
    "old, new, message, hint",
    [
        (
            "heap: {visibility: public,",
            "heap: {refill_from: discard, visibility: public,",
            "shared zone 'heap' cannot refill from per-player zone 'discard': a shared zone "
            "has no owner whose discard to take",
            "give heap `per_player: true` too, so that each owner's heap refills from their "
            "own discard",
        ),
        (
            "refill_from: spoils}",
            "refill_from: discard}",
            "per-team zone 'chest' cannot refill from per-player zone 'discard': a zone "
            "refills from the same owner's",
            "make both per_player or both per_team, or refill from a shared zone",
        ),
        (
            "refill_from: heap}",
            "refill_from: spoils}",
            "per-player zone 'stock' cannot refill from per-team zone 'spoils': a zone "
            "refills from the same owner's",
            "make both per_player or both per_team, or refill from a shared zone",
        ),
        (
            "heap: {visibility: public,",
            "heap: {count: 2, visibility: public,",
            "refill_from cannot link a family of zones: 'heap' is 2 zones",
            "refill from one zone, or gather the family in an effect: move(heap(i), pile) "
            "and shuffle(pile)",
        ),
    ],
)
def test_a_link_without_one_owners_pair_is_refused(old, new, message, hint):
    assert ("RS402", message, hint) in refused(edited(PILES, (old, new)))


@settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 3))
def test_cards_are_conserved_and_a_refill_takes_no_other_players_card(seed, players):
    """In random deck-builder games the table keeps its invariants (every card in one
    place, counted) at every step, and the cards a player owns (draw pile, discard
    pile, hand) never leave them: they only grow, by what the player buys."""
    state = Game(load_spec(DECK_BUILDER), players).new_initial_state(seed=seed)
    owned = [Counter() for _ in range(players)]

    def check(s):
        s.check_invariants()
        zones = s.observation(None)["zones"]
        for p, before in enumerate(owned):
            now = Counter(c for z in ("draw", "discard", "hand") for c in zones[f"{z}[P{p + 1}]"])
            assert not before - now, f"P{p + 1} lost {before - now}"
            owned[p] = now

    play(state, make_agents(["random"], players, seed), check)
    assert any(e["event"] == "refill" for e in state.log_for(None))
