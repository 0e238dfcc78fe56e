"""A reaction window opened in a procedure (docs/language.md, "Windows opened in a
procedure"): it answers the action or answer whose effect called the procedure, and
everything that finds windows looks through the call. On tests/valid/nope_cancel.yaml."""

from __future__ import annotations

import random

import pytest
from gamekit import ROOT, edited, spec_errors

from rulespec import load_spec
from rulespec.analysis.graph import build
from rulespec.analysis.lint import static
from rulespec.interpreter import Game, State
from rulespec.table.narrate import Titles

NOPE = (ROOT / "tests" / "valid" / "nope_cancel.yaml").read_text()
HANDS = {"hand[P1]": ["thief", "taxman"], "hand[P2]": ["nope"], "hand[P3]": ["nope"]}


def _state(text: str = NOPE, hands=HANDS) -> State:
    game = Game(load_spec("nope.yaml", text), 3)
    return State.from_layout(game, zones=hands, counters={"coins[P2]": 2, "coins[P3]": 1})


def test_the_window_answers_the_action_that_called_the_procedure():
    state = _state()
    state.apply_action("plunder -> P2")
    assert (state.current_player(), state.decision_kind(), state.decision_asker()) == (
        1,
        "react",
        "plunder",
    )
    assert state.legal_labels() == ["cancel", "no reaction"]


def test_the_answers_read_the_action_s_target_through_the_call():
    """A reaction offered in a procedure's window reads the answered action's `target`
    (copied into the procedure's locals at the call): only the target may dodge."""
    text = edited(
        NOPE,
        (
            "end_conditions:",
            "  dodge:\n    answers: [plunder]\n    if: reactor == target\n"
            "    effect: noped = 1\n\nend_conditions:",
        ),
    )
    state = _state(text)
    state.apply_action("plunder -> P3")
    assert state.current_player() == 1 and "dodge" not in state.legal_labels()
    state.apply_action("no reaction")
    assert state.current_player() == 2 and state.legal_labels() == [
        "cancel",
        "dodge",
        "no reaction",
    ]


def test_a_procedure_called_by_a_reaction_opens_its_window_against_that_reaction():
    """The Nope's own window through a procedure: what answers it answers the Nope,
    asked in turn from its reactor."""
    text = edited(
        NOPE,
        (
            "      noped = 1 - noped\n      react(others(reactor))\n",
            "      noped = 1 - noped\n      ask_again(reactor)\n",
        ),
        (
            "procedures:\n",
            "procedures:\n  ask_again:\n    params: {p: player}\n    effect: react(others(p))\n",
        ),
    )
    state = _state(text, {**HANDS, "hand[P1]": ["thief", "nope"]})
    state.apply_action("plunder -> P2")
    state.apply_action("cancel")  # P2 Nopes the Thief
    assert (state.current_player(), state.decision_asker()) == (2, "cancel")  # P3, from P2 on
    state.apply_action("no reaction")
    state.apply_action("cancel")  # P1 Nopes the Nope
    state.apply_action("no reaction")
    state.apply_action("no reaction")
    counters = state.measures()[1]
    assert (counters["coins[P1]"], counters["noped"]) == (1, 0)


def test_the_answers_see_no_local_of_an_action_whose_window_a_procedure_opens():
    """They run in the procedure's locals, which end with the call: a flag the
    action set would be flipped in a copy it never reads (docs: the flag is a counter)."""
    text = edited(
        NOPE,
        (
            "      cancellable()\n      if noped == 0 { coins(current) += 2 }",
            "      let taken = 1\n      cancellable()\n      if taken == 1 { coins(current) += 2 }",
        ),
        (
            "      cancellable()\n      if noped == 0 {\n",
            "      let taken = 1\n      cancellable()\n      if taken == 1 {\n",
        ),
        ("      noped = 1 - noped\n", "      taken = 0\n"),
    )
    assert [(code, message.split(" (")[0]) for code, message in spec_errors(text)] == [
        ("RS201", "unknown counter or local 'taken'")
    ]


def test_the_graph_opens_the_answers_of_what_calls_the_procedure():
    g = build(load_spec("nope.yaml", NOPE))
    opens = sorted((a.name, b.name) for a, b, k in g.edges(keys=True) if k == "opens")
    assert opens == [("cancel", "cancel"), ("collect", "cancel"), ("plunder", "cancel")]


def test_lint_finds_the_answers_offered_and_a_procedure_s_window_nobody_answers():
    assert [f.code for f in static(load_spec("nope.yaml", NOPE))] == []
    dead = edited(NOPE, ("answers: [collect, plunder, cancel]", "answers: [cancel]"))
    found = [(f.code, f.message) for f in static(load_spec("nope.yaml", dead))]
    assert (
        "RL109",
        "procedure 'cancellable': this react(...) asks nobody: no reaction answers what "
        "calls it ('collect', 'plunder'), or none their windows offer",
    ) in found


def test_narration_counts_a_procedure_s_windows_at_each_call():
    """An action that opens two windows (the procedure called twice) has its answers
    narrated with what they answer."""
    assert Titles.of(load_spec("nope.yaml", NOPE)).reacting == {
        "collect": False,
        "plunder": False,
        "cancel": False,
    }
    twice = edited(
        NOPE,
        (
            "      cancellable()\n      if noped == 0 { coins(current) += 2 }",
            "      cancellable()\n      cancellable()\n      if noped == 0 { coins(current) += 2 }",
        ),
    )
    assert Titles.of(load_spec("nope.yaml", twice)).reacting["collect"] is True


def test_a_round_part_may_not_call_a_procedure_that_opens_a_window():
    text = edited(
        NOPE,
        (
            "end_conditions:",
            "rounds:\n  setup:\n    effect: cancellable()\n  end_conditions:\n"
            "    dealt:\n      when: size(pile) == 0\n  match_end:\n    once:\n"
            "      when: round_index >= 1\n      effect: end_game()\n\nend_conditions:",
        ),
    )
    ((code, message),) = spec_errors(text)
    assert code == "RS208" and message.startswith(
        "procedure 'cancellable' opens a reaction window (react() at spec.yaml:48:7)"
    )


@pytest.mark.parametrize("seed", range(10))
def test_random_games_keep_the_invariants_and_a_copy_plays_alike(seed):
    """Paused in a procedure's window, a copy of the game goes on as the game does."""
    game = Game(load_spec("nope.yaml", NOPE), 3).new_initial_state(seed=seed)
    pick = random.Random(seed)
    while not game.is_terminal():
        game.check_invariants()
        copy = game.clone()
        if game.chance_is_sampled():
            assert copy.sample_chance().cards == game.sample_chance().cards
        else:
            option = pick.choice(game.legal_actions())
            game.apply_action(option)
            copy.apply_action(option)
        assert copy.key() == game.key()
