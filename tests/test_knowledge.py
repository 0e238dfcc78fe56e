"""What a seat knows of zones it cannot see (knowledge.py) where places and whole
zones meet: each claim must be true, and alike whether the table keeps a log or not.
Found by a review: a known place carried into an unordered zone by a swap, a draw
from a place only an ordered zone has, and a pile drawn whole told twice."""

import random

from gamekit import ROOT

from rulespec import load_spec
from rulespec.interpreter import Game, State

VALID = ROOT / "tests" / "valid"


def _heap(steps: list[str]) -> State:
    game = Game(load_spec(str(VALID / "heap_and_pile.yaml")), 2)
    zones = {"pile": ["crown", "stone", "stone", "stone"], "stock": ["stone"]}
    state = State.from_layout(game, zones=zones, current=0)
    for step in steps:
        state.apply_action(step)
    return state


def test_a_pile_swapped_into_a_heap_brings_its_cards_not_their_places():
    """P2 saw the crown on top of the pile, and the pile and the heap trade places: the
    heap, unordered, holds the crown at no place. Its place was kept, came back once a
    card left, and a card later taken from the heap's top was claimed the crown."""
    state = _heap(["peek", "swap"])
    assert state.observation(1)["zones"]["heap"] == {"count": 4, "revealed": [{"card": "crown"}]}
    state = _heap(["peek", "swap", "pick", "heap", "crown", "add", "take"])
    assert state.observation(None)["zones"]["hand[P1]"] == ["stone"]
    assert state.observation(1)["zones"]["hand[P1]"] == {"count": 1}
    assert state.observation(1)["zones"]["heap"] == {"count": 3}
    state.redeal(1, random.Random(1))  # it crashed on a place in the heap


def test_a_pile_drawn_whole_is_known_once_whether_or_not_the_table_keeps_a_log():
    """Every seat saw the two cards of the pile, at their places, go into P1's hand:
    the hand holds a crown and a stone. Without a log the draw is one move, and told
    twice (card by card from the places, and as the pile gone whole)."""
    game = Game(load_spec(str(VALID / "show_and_take.yaml")), 2)
    stock = ["crown", "stone", "stone", "stone", "stone", "crown"]
    seen = []
    for log in (True, False):
        state = State.from_layout(game, zones={"stock": stock}, current=0).clone(log=log)
        state.apply_action("go")
        seen.append((state.observation(1)["zones"]["hand[P1]"], state.key()))
    assert seen[0][0] == {"count": 2, "revealed": [{"card": "crown"}, {"card": "stone"}]}
    assert seen[0] == seen[1]


KEPT = """\
rulespec: 1
name: Kept in hand
players: {min: 2, max: 2}
hand: hand
deck:
  cards:
    red: {count: 2}
    blue: {count: 2}
zones:
  stock: {visibility: hidden, ordered: true, start: true}
  pool: {visibility: public}
  hand: {per_player: true, visibility: owner}
turn:
  - step: take
    effect: move(pool, hand(current))
  - step: play
    actions: [keep]
actions:
  keep:
    card: any
    to: hand(current)
end_conditions:
  out:
    when: size(stock) == 0
    effect: end_game()
"""


def test_a_card_played_back_into_the_hand_it_came_from_keeps_what_others_knew():
    """A Go Fish trial played the card asked with back into the asker's hand: the
    other seats forgot a card they had seen go into that hand, though none left it."""
    game = Game(load_spec("kept.yaml", KEPT), 2)
    zones = {"pool": ["red"], "hand[P1]": ["blue"], "stock": ["red", "blue"]}
    for label in ("keep blue", "keep red"):
        for log in (True, False):
            state = State.from_layout(game, zones=zones, current=0).clone(log=log)
            assert state.observation(1)["zones"]["hand[P1]"]["revealed"] == [{"card": "red"}]
            state.apply_action(label)
            assert state.observation(1)["zones"]["hand[P1]"] == {
                "count": 2,
                "revealed": [{"card": "red"}],
            }
