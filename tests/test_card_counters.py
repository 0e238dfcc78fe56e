"""Counters on each card (`per_card: true`): a set of other than one card is a rule
failure at its place, and a seat is shown a card's counters only where it sees the
card. Rules scenarios are tests/scenarios/marks/; the example specs are
tests/valid/creatures.yaml (public marks) and tests/valid/studied_hands.yaml (marks on
cards in a hidden hand)."""

import random
from functools import cache
from pathlib import Path

import pytest
from gamekit import edited
from test_hidden_others import views_of  # everything a seat is shown

from rulespec import load_spec
from rulespec.interpreter import Game, RuleError, State
from rulespec.table.narrate import Titles, narrate
from rulespec.table.view import table, table_lines

VALID = Path(__file__).parent / "valid"
STUDIED = VALID / "studied_hands.yaml"


@cache
def studied() -> Game:
    return Game(load_spec(STUDIED), 2)


def test_a_counter_of_two_cards_is_a_rule_failure_at_its_place():
    text = edited(
        (VALID / "creatures.yaml").read_text(encoding="utf-8"),
        ("      sick(card) = 1", "      sick(field(current)) = 1"),
    )
    state = State.from_layout(
        Game(load_spec("creatures.yaml", text), 2),
        zones={"hand[P1]": ["squire"], "field[P1]": ["knight"], "pile": ["ogre", "ogre"]},
    )
    with pytest.raises(RuleError) as info:
        state.apply_action("summon squire")
    assert info.value.code == "RS701"
    assert info.value.span.line == 60
    assert "sick(...) is a counter on one card, but it is given 2 cards here" in str(info.value)


def laid_out(own: list[str]) -> State:
    zones = {"hand[P1]": own, "hand[P2]": ["red", "blue"], "pile": ["blue"] * 4 + ["red"] * 4}
    return State.from_layout(studied(), zones=zones)


@pytest.mark.parametrize("seed", range(6))
def test_marks_on_hidden_cards_look_the_same_to_the_other_seat(seed):
    """P1 studies cards of its own hand, the two games' hands differing: P2 is shown
    the same in both, until a card is laid on the table (then it sees that card)."""
    a, b = laid_out(["red", "red", "blue"]), laid_out(["blue", "blue", "red"])
    pick, steps = random.Random(seed), 0
    while not a.is_terminal() and steps < 40:
        seen = views_of(a, 1)
        if any(e["event"] == "move" and e["dst"] == "table" for e in seen[1]):
            break  # a card laid on the table is seen: the games now differ
        assert seen == views_of(b, 1), steps
        i = pick.randrange(len(a.legal_actions()))
        a.apply_action(a.legal_actions()[i])
        b.apply_action(b.legal_actions()[i])
        steps += 1
    assert steps > 4
    marks = [e for e in a.log_for(1) if e["event"] == "mark" and e["card"] is None]
    assert marks and all(e["value"] is e["zone"] is None for e in marks)  # P1's, blanked
    assert "hand[P1]" not in a.observation(1)["marks"]


def test_a_redeal_sets_the_unseen_cards_marks_back():
    state = laid_out(["red", "red", "blue"])
    for _ in range(3):  # P1 studies, passes; P2 studies, passes; P1 studies
        state.apply_action(state.legal_actions()[0])
    assert "hand[P1]" in state.observation(None)["marks"]  # a card studied
    state.redeal(1, random.Random(3))
    assert "hand[P1]" not in state.observation(None)["marks"]  # every card at 0 again
    assert state.observation(0)["marks"] == {}


def test_a_card_shows_its_counters_only_off_their_initial_values():
    """A No Thanks! trial: with chips kept on each card from `initial: 11`, every card
    at the table read "(chips 11)" (a face-up card seemed to carry chips), and each
    observation listed 11 for every card its seat saw. A value off its initial shows,
    0 included."""
    text = edited(STUDIED.read_text(encoding="utf-8"), ("initial: 0, text", "initial: 11, text"))
    spec = load_spec("studied_hands.yaml", text)
    state = State.from_layout(
        Game(spec, 2),
        zones={"hand[P1]": ["red", "red", "blue"], "hand[P2]": ["blue"], "pile": ["blue"] * 4},
        marks={"hand[P2]": [{"card": "blue", "study": 0}]},
    )
    assert state.observation(0)["marks"] == {}  # P2's hand is not P1's to see
    state.apply_action("red")  # P1 draws a blue, then studies a red: 12
    assert state.observation(0)["marks"] == {"hand[P1]": [{}, {}, {}, {"study": 12}]}
    lines = table_lines(table(state.observation(0), Titles.of(spec)))
    assert "  P1 (you): hand Red, Red (study 12), Blue x2; Points 0" in lines
    assert "(study 0)" in "\n".join(table_lines(table(state.observation(1), Titles.of(spec))))


def test_a_copy_its_filter_refuses_does_not_hide_one_it_accepts():
    """Copies of one type in one zone stood for one another through the first of them,
    the one a filter or an action's `if` was tested on: a tapped first squire hid an
    untapped second from the attack and from the block. The first copy the test
    accepts now stands for the others, and is the one taken."""
    text = edited(  # the action's `if` and a choice's filter read a card's counters
        (VALID / "creatures.yaml").read_text(encoding="utf-8"),
        (
            "    among: filter(tapped(c) == 0 and sick(c) == 0 for c in field(current))\n",
            "    among: field(current)\n    if: tapped(chosen) == 0 and sick(chosen) == 0\n",
        ),
        (
            "b from filter(tapped(c) == 0 for c in field(opp)) {",
            "b from field(opp) if tapped(b) == 0 {",
        ),
    )
    state = State.from_layout(
        Game(load_spec("creatures.yaml", text), 2),
        zones={
            "field[P1]": ["squire", "squire"],
            "field[P2]": ["knight", "knight"],
            "pile": ["ogre"] * 3,
        },
        marks={"field[P2]": [{"card": "knight", "tapped": 1}]},  # the first knight
    )
    state.apply_action("attack squire from field[P1]")  # the first squire, which taps
    state.apply_action("no block")
    assert "attack squire from field[P1]" in state.legal_labels()  # the second, untapped
    state.apply_action("attack squire from field[P1]")
    state.apply_action("block")
    assert state.legal_labels() == ["knight"]  # the untapped knight, though laid out second
    state.apply_action("knight")
    seen = state.observation(None)
    assert seen["zones"]["graveyard"] == ["squire"]  # the second squire, blocked, died
    assert seen["marks"]["field[P1]"] == [{"tapped": 1}]
    assert sorted(map(sorted, map(dict.items, seen["marks"]["field[P2]"]))) == [
        [("damage", 1)],  # the knight that blocked
        [("tapped", 1)],
    ]


def test_a_mark_does_not_tell_another_seat_which_unseen_zone_its_card_lies_in():
    """A review's twins: P1 studies a red of its hand or of its stash, both face down,
    by a secret choice; the choice is hidden from P2, but the mark event named the
    zone ("a card in P1's stash"), which told P2 which was taken."""
    text = edited(
        STUDIED.read_text(encoding="utf-8"),
        (
            "  table: {visibility: public}\n",
            "  table: {visibility: public}\n  stash: {per_player: true, visibility: owner}\n",
        ),
        ("c from hand(current) {", "c from hand(current) + stash(current) {"),
    )
    game = Game(load_spec("studied_hands.yaml", text), 2)

    def seen_by_p2(pick: str):
        state = State.from_layout(
            game, zones={"hand[P1]": ["red"], "stash[P1]": ["red"], "pile": ["blue"] * 3}
        )
        state.apply_action(pick)
        return state.log_for(1), state.observation(1)

    assert seen_by_p2("red from hand[P1]") == seen_by_p2("red from stash[P1]")


def _studied_with(step: str) -> Game:
    """Studied Hands with its study step's choice replaced."""
    old = '      choose(current, "study which card?") c from hand(current) { study(c) += 1 }\n'
    return Game(
        load_spec("studied_hands.yaml", edited(STUDIED.read_text(encoding="utf-8"), (old, step))), 2
    )


def test_a_blind_pick_takes_a_copy_its_filter_keeps():
    """A review: a choice among another seat's unseen cards tested its filter on the
    first copy of each type only, so a red studied second (study 1) was never offered
    where the first (study 0) was refused, and the pick was skipped."""
    game = _studied_with(
        "      choose(current) c from hand(next(current)) if study(c) >= 1 { move(c, hand(current)) }\n"
    )
    state = State.from_layout(
        game,
        zones={"hand[P2]": ["red", "red"], "pile": ["blue"] * 4},
        marks={"hand[P2]": [{"card": "red", "study": 0}, {"card": "red", "study": 1}]},
    )
    assert state.legal_labels() == ["hand[P2]"]
    state.apply_action("hand[P2]")
    assert "hand[P2]" not in state.observation(None)["marks"]  # the studied one went


def test_a_set_of_cards_its_filter_keeps_is_offered_whichever_copy_comes_first():
    """A review: the sets of alike cards were made of the first copies, so a filter on
    their counters (no card studied) refused {red, blue} where the first red was
    studied and the second was not."""
    game = _studied_with(
        "      choose(current) s from combinations(hand(current), 2) if all(study(c) == 0 for c in s) { move(s, table) }\n"
    )
    state = State.from_layout(
        game,
        zones={"hand[P1]": ["red", "red", "blue"], "pile": ["blue"] * 4},
        marks={"hand[P1]": [{"card": "red", "study": 1}]},
    )
    assert sorted(state.legal_labels()) == ["blue+blue", "red+blue"]  # and the blue drawn
    state.apply_action("red+blue")
    assert state.observation(None)["marks"]["hand[P1]"] == [{}, {"study": 1}]


def test_the_key_tells_copies_apart_by_their_counters_not_by_which_copy():
    """A review: State.key held the counters by card id, so two tables that differ only
    in which of two alike reds was studied had different keys (a search missed that
    they are one position), while copies are alike (C-3)."""

    def key(*marks):
        zones = {"hand[P1]": ["red", "red", "blue"], "pile": ["blue"] * 4}
        laid = [{"card": "red", "study": m} for m in marks]
        return State.from_layout(studied(), zones=zones, marks={"hand[P1]": laid}).key()

    assert key(1, 0) == key(0, 1)
    assert key(1, 0) != key(0, 0) and key(1, 1) != key(1, 0)


WILD_TRICKS = VALID / "wild_tricks.yaml"


def test_a_card_tells_its_player_and_its_kind_as_counters_of_those_types_are_told():
    """A per_card counter that holds a player or a kind (wild_tricks.yaml: who played
    the card, the colour a wild was named): the observation gives a seat's number and a
    kind's name, the table and the narration say the seat and the kind's title."""
    spec = load_spec(WILD_TRICKS)
    state = State.from_layout(
        Game(spec, 3),
        zones={"hand[P1]": ["red_2", "blue_1"], "hand[P2]": ["wild"], "hand[P3]": ["red_4"]},
    )
    for option in ("play red_2", "play wild", "red"):
        state.apply_action(option)
    marks = [{"played_by": 0}, {"played_by": 1, "named": "red"}]
    assert state.observation(2)["marks"] == {"trick": marks}
    lines = table_lines(table(state.observation(2), Titles.of(spec)))
    assert "  Trick: red 2 (played by P1), Wild (played by P2, colour red) (top)" in lines
    assert "  Wild: colour red" in narrate(state.log_for(2), Titles.of(spec))
    state.apply_action("play red_4")  # the trick is taken: its cards leave their values
    assert state.observation(None)["marks"] == {}
