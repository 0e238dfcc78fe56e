"""The order cards came into an unordered zone (a hand) is no part of the game
(language.md#ordered): twin tables whose hands hold the same cards, listed in another
order, look alike to the other seat after every way several cards leave the hand."""

import pytest

from rulespec import load_spec
from rulespec.interpreter import CHANCE, Game, State

IN_ORDER = """\
rulespec: 1
name: Laid in order
players: {min: 2, max: 2}
hand: hand
deck:
  cards:
    red: {count: 1, props: {rank: 4}}
    green: {count: 1, props: {rank: 3}}
    blue: {count: 1, props: {rank: 2}}
    white: {count: 1, props: {rank: 1}}
    black: {count: 1, props: {rank: 0}}
zones:
  pile: {visibility: hidden, ordered: true, start: true, refill_from: stash}
  stash: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  row: {visibility: public, ordered: true}
  heap: {visibility: public}
turn:
  - step: lay
    actions: [lay]
    optional: true
  - step: other
    effect: |
      choose(current) {
        "spread" { move(hand(current), row) }
        "dump" { move(hand(current), heap) }
        "trade" { swap(hand(current), row) }
        "bury" { insert(hand(current), pile, 1) }
        "ranked" { move(sort(c.rank for c in hand(current)), row) }
        "draw" { move(top(pile, 2), heap) }
        "show" { reveal(hand(current), players) }
        "least" { move(first(sort(c.rank // 10 for c in hand(current)), 1), row) }
        "best" { move(first(argmax(c.rank // 10 for c in hand(current)), 1), row) }
        "worst" { move(first(argmin(c.rank // 10 for c in hand(current)), 1), row) }
        "mixed" { move(first(sort(c.rank // 10 for c in hand(current) + row), 1), row) }
        "added" { move(hand(current) + row, heap) }
      }
actions:
  lay:
    card: any
    count: {min: 2, max: 3}
    to: row
end_conditions:
  out:
    when: size(pile) == 0
    effect: end_game()
"""

HAND = ["red", "green", "blue", "white"]  # deck order


def played(*labels: str, held: str = "hand[P1]") -> list[State]:
    """The twins, the cards `held` laid out in deck order and reversed, each played
    alike."""
    g = Game(load_spec("in_order.yaml", IN_ORDER), 2)
    twins = []
    for cards in (HAND, HAND[::-1]):
        s = State.from_layout(g, zones={held: cards, "pile": ["black"]})
        for label in labels:
            s.apply_action(label)
        twins.append(s)
    return twins


@pytest.mark.parametrize(
    "labels",
    [
        ("lay green+blue+white",),  # a group played
        ("pass", "spread"),  # a whole hand moved onto a pile
        ("pass", "dump"),  # ... into a public zone that is no pile: its log
        ("pass", "trade"),  # swapped with a pile
        ("pass", "bury"),  # inserted into a hidden pile
        ("pass", "show"),  # shown to every seat, where it stays
    ],
)
def test_cards_leaving_a_hand_together_go_in_deck_order(labels):
    """A trial of gin rummy found a meld laid from a hand in the order its cards were
    dealt and drawn: the other seat learnt which melded cards were drawn late, and two
    states with one key played on apart."""
    a, b = played(*labels)
    assert a.log_for(1) == b.log_for(1)
    assert a.observation(1) == b.observation(1)
    assert a.key() == b.key()
    log = a.log_for(0)
    moved = [
        c
        for e in log
        if e["event"] in ("move", "reveal") and e.get("src", e.get("zone")) == "hand[P1]"
        for c in e["cards"]
    ]
    assert moved in (["green", "blue", "white"], HAND)


@pytest.mark.parametrize("choice", ["least", "best", "worst", "mixed"])
def test_cards_of_a_hand_a_sort_finds_tied_come_in_deck_order(choice):
    """A trial of President gave away its best two cards with `first(sort(...), 2)`:
    among cards of one rank, those that came into the hand first went, so the other
    seats learnt which were dealt and which drawn."""
    a, b = played("pass", choice)
    assert a.log_for(1) == b.log_for(1)
    assert a.key() == b.key()
    assert a.observation(1)["zones"]["row"] == ["red"]  # the first in deck order


def test_cards_of_a_hand_added_to_a_pile_go_in_deck_order_the_pile_s_as_they_lie():
    """A review: `hand(current) + row`, the row a pile, was taken as in an order the
    rules give whole, so the hand's part kept the order its cards came in, in a move
    and in a sort's ties (`mixed`, above)."""
    a, b = played("pass", "added")
    assert a.log_for(1) == b.log_for(1)
    moved = [e["cards"] for e in a.log_for(None) if e["event"] == "move" and e["dst"] == "heap"]
    assert moved == [HAND]


def test_an_order_the_rules_give_is_kept():
    a, b = played("pass", "ranked")
    for s in (a, b):
        assert s.observation(1)["zones"]["row"] == ["white", "blue", "green", "red"]


def test_a_pile_refilled_from_a_zone_that_is_no_pile_gets_its_cards_in_deck_order():
    a, b = played("pass", "draw", held="stash")  # the second card drawn needs a refill
    assert a.current_player() == b.current_player() == CHANCE  # the refill's shuffle
    assert a.key() == b.key()
