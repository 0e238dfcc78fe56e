"""Named values the table shows (docs/language.md, `shown`: a value the table shows): in
the observation, the text table and `help`, worked out only when asked, to the seats
that may see what they read. On tests/valid/top_colour.yaml; the errors are data in
tests/broken/ (RS104, RS415), the perfect-recall proof in tests/test_perfect_recall.py."""

import random
from pathlib import Path

import pytest
from gamekit import edited, spec_errors

from rulespec import load_spec
from rulespec.interpreter import Game, RuleError, State
from rulespec.table.narrate import Titles, narrate
from rulespec.table.seat import help_text
from rulespec.table.view import table, table_lines

TOP_COLOUR = Path(__file__).resolve().parent / "valid" / "top_colour.yaml"
TEXT = TOP_COLOUR.read_text()
SPEC = load_spec(TOP_COLOUR)

# P1 to play, its draw made; blue on top of the pot: P1's Blue 1 scores
LAYOUT = {
    "deck": ["green_6", "green_5"],
    "hand[P1]": ["blue_3"],
    "hand[P2]": ["red_6"],
    "laid[P1]": ["blue_1", "red_2"],
    "pot": ["blue_5"],
}


def laid_out(spec=SPEC, players: int = 3) -> State:
    return State.from_layout(Game(spec, players), zones=LAYOUT)


def test_each_seat_is_shown_the_values_of_the_table_and_its_own_hand_s_alone():
    state = laid_out()
    shared = {"colour": "blue", "leader": 0, "score[P1]": 1, "score[P2]": 0, "score[P3]": 0}
    hands = {"in_hand[P1]": 9, "in_hand[P2]": 6, "in_hand[P3]": 0}  # P1 drew Green 6
    assert state.observation(None)["values"] == shared | hands  # a spectator sees them all
    for seat in range(3):
        own = f"in_hand[P{seat + 1}]"
        assert state.observation(seat)["values"] == shared | {own: hands[own]}


def test_the_table_shows_them_by_title_after_the_counters_and_they_are_not_counters():
    state = laid_out()
    seen = state.observation(1)
    assert "colour" not in seen["counters"] and "score[P1]" not in seen["counters"]
    lines = table_lines(table(seen, Titles.of(SPEC)))
    assert lines[-4:] == [
        "  P1: hand 2 cards; cards laid Red 2, Blue 1; Score 1",
        "  P2 (you): hand Red 6; cards laid empty; Score 0, Points in hand 6",
        "  P3: hand empty; cards laid empty; Score 0",
        "  Colour that scores blue, Leader P1",
    ]


def test_a_value_is_not_narrated_and_changes_no_information_key():
    """A shown value is no event, and the information key leaves it out: it follows
    from what the key holds, and working it out would cost every search's step."""
    state = laid_out()
    state.apply_action("paint blue_3")
    titles = Titles.of(SPEC)
    assert not any("Colour that scores" in line for line in narrate(state.log_for(None), titles))
    plain = Game(load_spec("plain.yaml", TEXT.replace("    shown: true\n", "")), 3)
    twin = State.from_layout(plain, zones=LAYOUT)
    twin.apply_action("paint blue_3")
    assert "values" not in twin.observation(1)
    assert state.information_key(1) == twin.information_key(1)


def test_help_names_a_shown_value_by_its_name_or_title_as_a_value():
    titles = Titles.of(SPEC)
    said = "Colour that scores: The colour on top of the pot; red while the pot is empty."
    assert help_text("colour", titles) == said
    assert help_text("colour that scores", titles) == said
    assert titles.rules["in_hand"] == ("value", "Points in hand")


def test_a_value_is_worked_out_only_when_the_table_is_asked_for():
    """A value that fails wherever it is worked out, which no rule calls: a whole game
    plays without working it out, and the table fails at the value's place (RS701), as
    a rule does."""
    failing = "size(range(size(hand(p)) + 65))"  # past range's 64 numbers
    text = edited(TEXT, ("    value: sum(c.rank for c in hand(p))\n", f"    value: {failing}\n"))
    game = Game(load_spec("fails.yaml", text), 3)
    state = game.new_initial_state(seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(RuleError) as failed:
        state.observation(0)
    assert failed.value.code == "RS701"
    assert failed.value.span.line == text[: text.index(failing)].count("\n") + 1


@pytest.mark.parametrize(
    "value, shown_to",
    [
        ("size(hand(p)) + size(top(deck, 2))", "all"),  # sizes are public
        ("worth(hand(p))", "own"),  # its own hand, passed to a value of cards
        ("sum(held(hand(q)) for q in players)", "all"),  # only the size of the hands
        ("sum(worth(hand(q)) for q in others(p))", "RS415"),
        ("coins_of(p)", "own"),  # its own seat passed on to a value of a player
        ("coins_of(next(p))", "RS415"),
    ],
)
def test_what_a_value_reads_is_read_through_the_values_it_calls(value, shown_to):
    helpers = (
        "  worth:\n    params: {cs: cards}\n    value: sum(c.rank for c in cs)\n"
        "  held:\n    params: {cs: cards}\n    value: size(cs)\n"
        "  coins_of:\n    params: {q: player}\n    value: worth(hand(q))\n"
        f"  probe:\n    params: {{p: player}}\n    value: {value}\n    shown: true\n"
    )
    text = edited(TEXT, ("\nconditions:\n", "\nconditions:\n" + helpers))
    if shown_to == "RS415":
        assert [code for code, _ in spec_errors(text)] == ["RS415"]
        return
    assert load_spec("probe.yaml", text).condition("probe").shown == shown_to
