"""`nobody`, the player value that is no player: held, shown, and refused as a seat."""

import pickle

import pytest
from gamekit import ROOT, counter, edited, spec_errors

from rulespec import load_spec
from rulespec.interpreter import Game, RuleError, State
from rulespec.interpreter.runtime import NOBODY
from rulespec.table import view as tableview
from rulespec.table.encoding import ObservationEncoder
from rulespec.table.narrate import Titles

SPEC = ROOT / "tests" / "valid" / "first_claim.yaml"
TEXT = SPEC.read_text()


def passed_round(text=TEXT, players=2):
    """A game whose first gem P1 passed: the claimer is still nobody."""
    game = Game(load_spec("first_claim.yaml", text), players)
    state = State.from_layout(game, 1, zones={"pile": ["gem_3", "gem_1"]}, current=0)
    state.apply_action("pass")
    return state


def test_a_counter_holds_nobody_as_minus_one_where_it_is_read_as_a_number():
    game = Game(load_spec(SPEC), 2)
    state = State.from_layout(game, 1, zones={"pile": ["gem_3"]})
    assert counter(state, "claimer") == -1  # an observation's seat number: none
    encoder = ObservationEncoder(game)
    at = encoder.names().index("counter[claimer]")
    assert encoder.encode_state(state, 0)[at] == -1 == encoder.encode(state.observation(0))[at]


def test_the_table_says_nobody_then_the_seat():
    state = passed_round(players=3)
    titles = Titles.of(state.game.spec)
    assert "Claimed by nobody" in "\n".join(
        tableview.table_lines(tableview.table(state.observation(1), titles))
    )
    state.apply_action("claim")
    assert "Claimed by P2" in "\n".join(
        tableview.table_lines(tableview.table(state.observation(1), titles))
    )


def test_a_rule_that_uses_nobody_as_a_player_stops_at_its_place():
    text = edited(
        TEXT, ("if claimer == nobody { move(offer, discard) }", "move(offer, kept(claimer))")
    )
    with pytest.raises(RuleError) as exc:
        passed_round(text).apply_action("pass")
    error = exc.value
    assert error.code == "RS701" and error.rule == "settle"
    assert "nobody" in error.message and "!= nobody" in error.message
    line = text.splitlines()[error.span.line - 1]
    assert "kept(claimer)" in line


@pytest.mark.parametrize(
    "statement",
    [
        "set_current(claimer)",
        "set_next(claimer)",
        "eliminate(claimer)",
        "extra_turn(claimer)",
        # a review's: these had gone on, picking seats or telling 'nobody' for a number
        "let n = seat_number(claimer)",
        "for q in others(claimer) { move(offer, kept(q)) }",
        "let m = size(partners(claimer))",
        'say("{size(claimer)}")',
        "for q in claimer { move(offer, kept(q)) }",
        "win(claimer + current)",
    ],
)
def test_nobody_handed_to_the_game_as_a_player_stops_there(statement):
    text = edited(TEXT, ("if claimer == nobody { move(offer, discard) }", statement))
    with pytest.raises(RuleError) as exc:
        passed_round(text).apply_action("pass")
    assert exc.value.rule == "settle" and "nobody" in exc.value.message


def test_nobody_is_one_value_across_a_pickle():
    assert pickle.loads(pickle.dumps(NOBODY)) is NOBODY
    assert NOBODY == NOBODY and NOBODY not in (0, 1, 2)


def test_a_spec_without_nobody_reads_its_player_counters_unchecked():
    """The checks cost nothing where no value can be nobody: a spec that never writes
    it compiles no _who or _seat call."""
    from rulespec.interpreter import codegen

    Game(load_spec(ROOT / "games" / "whist.yaml"), 4)
    written = "".join(
        line
        for listing in codegen._live.values()
        for line in listing.lines
        if "whist" in listing.filename
    )
    assert written and "_who(" not in written and "_seat(" not in written
    Game(load_spec(SPEC), 2)
    written = "".join(
        line
        for listing in codegen._live.values()
        for line in listing.lines
        if "first_claim" in listing.filename
    )
    assert "_who(" in written


@pytest.mark.parametrize(
    "statement", ["for q in nobody { move(offer, kept(q)) }", "win(nobody + current)"]
)
def test_nobody_written_where_players_are_needed_is_refused_as_the_spec_loads(statement):
    text = edited(TEXT, ("if claimer == nobody { move(offer, discard) }", statement))
    ((code, message),) = spec_errors(text)
    assert code == "RS204" and "is nobody, which is no player" in message


def test_a_table_lays_out_nobody_only_where_the_rules_test_for_it():
    """A review's: a scenario put -1 in a spec that never writes nobody, whose rules then
    read it as a seat (score(-1) is another counter's slot)."""
    whist = Game(load_spec(ROOT / "games" / "whist.yaml"), 4)
    with pytest.raises(ValueError, match="never writes nobody"):
        State.from_layout(whist, 1, zones={}, counters={"dealer": -1})
