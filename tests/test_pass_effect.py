"""A step's `pass_effect:` (tests/valid/pass_draws.yaml, pass_folds.yaml; their rules
scenarios are in tests/scenarios/turns/): what a pass does, run after the pass is
logged, with `current` the player who passed, before the step goes on."""

from pathlib import Path

from gamekit import edited, zone

from rulespec import load_spec
from rulespec.interpreter import Game, State
from rulespec.table.narrate import Titles, narrate

VALID = Path(__file__).parent / "valid"
SPEC = VALID / "pass_draws.yaml"
HANDS = {"hand[P1]": ["blue_2", "red_4"], "hand[P2]": ["green_1"], "discard": ["red_3"]}
STOCK = ["green_4", "green_1", "blue_4", "blue_1"]


def _state(*changes) -> State:
    text = edited(SPEC.read_text(encoding="utf-8"), *changes)
    game = Game(load_spec("pass_draws.yaml", text), 2)
    return State.from_layout(game, zones=dict(HANDS, stock=STOCK), current=0)


def test_the_pass_is_logged_before_what_it_does():
    state = _state()
    state.apply_action("pass")
    kinds = [e["event"] for e in state.log_for(None)]
    assert kinds[-3:] == ["pass", "move", "turn"]
    assert zone(state, "hand[P1]") == ["blue_2", "green_4", "red_4"]


def test_a_named_pass_that_does_something_is_said_by_its_name():
    """An Exploding Kittens trial read "P1 passes (Draw)" of a turn's draw: a pass
    whose effect draws is said as what it does, "P1: Draw", to every seat; a named pass
    that does nothing more still passes ("P2 passes (Fold)", tests/test_pass_title.py)."""
    state = _state()
    state.apply_action("pass")
    titles = Titles.of(state.game.spec)
    for seat in (None, 0, 1):
        said = narrate(state.log_for(seat), titles)
        assert "  P1: Draw" in said and not any("passes" in line for line in said)


def test_a_pass_at_a_repeat_step_runs_its_effect_once_and_ends_the_step():
    """Play any number of cards, then pass: the pass draws one card, and the turn goes
    on (here to the next player's), the step not offered again."""
    state = _state(("    optional: true\n", "    optional: true\n    repeat: true\n"))
    state.apply_action("match red_4")
    assert (state.current_player(), state.legal_labels()) == (0, ["pass"])
    state.apply_action("pass")
    assert zone(state, "hand[P1]") == ["blue_2", "green_4"]
    assert state.current_player() == 1


def test_a_player_who_may_not_pass_and_cannot_play_does_not_run_it():
    """Where pass_if shuts the pass, a player with nothing to play passes at once, with
    a `no_play` event: no pass, so nothing drawn."""
    state = _state(("    pass_title: Draw\n", "    pass_title: Draw\n    pass_if: false\n"))
    state.apply_action("match red_4")  # P2's green 1 matches nothing
    told = [(e["event"], e.get("player")) for e in state.log_for(None)]
    assert ("no_play", 1) in told and ("pass", 1) not in told
    assert zone(state, "hand[P2]") == ["green_1"]
