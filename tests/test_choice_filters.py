"""A choice's filter (`choose(p) VAR from … if cond { … }`): only the items for which
cond holds are offered, for every kind of one-item choice; bidding is one."""

from __future__ import annotations

import pytest
import yaml
from gamekit import GAMES, ROOT

from rulespec import load_spec
from rulespec.analysis.graph import build
from rulespec.interpreter import Game, State
from rulespec.lang.diagnostics import SpecError

CALL_IT = ROOT / "tests" / "valid" / "call_it.yaml"
TTG = GAMES / "take_the_gold.yaml"


def _ttg(tmp_path, effect: str):
    """Take the Gold with a trigger whose effect is `effect`, firing on a hand of ten."""
    data = yaml.safe_load(TTG.read_text())
    data["triggers"]["check_choice"] = {"each": "p", "when": "size(hand(p)) > 9", "effect": effect}
    text = yaml.safe_dump(data, sort_keys=False, width=1000)
    return Game(load_spec(tmp_path / "t.yaml", text=text), 2)


def _ten(game, **zones):
    hand = ["gold_coin", "pirate", "pirate", "kraken", "officer"] + ["two_pirates"] * 5
    return State.from_layout(game, zones={"hand[P1]": hand, **zones})


@pytest.mark.parametrize(
    "effect, kind, labels",
    [
        (
            "choose(p) c from hand(p) if count(c, pirate) + count(c, kraken) == 0 {\n"
            "  move(c, discard_pile)\n}",
            "card",
            ["gold_coin", "officer", "two_pirates"],
        ),
        (
            "choose(p) k from card_types if count(hand(p), k) == 0 { end_turn() }",
            "choose",
            ["pirate_captain", "two_officers"],
        ),
        ("choose(p) n from 1..5 if n % 2 == 0 { end_turn() }", "number", ["n = 2", "n = 4"]),
        (
            "choose(p) n from range(6) if n >= size(hand(p)) - 6 { end_turn() }",
            "choose",
            ["4", "5"],
        ),
    ],
)
def test_only_the_items_the_filter_keeps_are_offered(tmp_path, effect, kind, labels):
    state = _ten(_ttg(tmp_path, effect))
    assert state.decision_kind() == kind
    assert state.legal_labels() == labels


def test_a_filter_that_keeps_nothing_skips_the_choice(tmp_path):
    game = _ttg(tmp_path, "choose(p) n from range(4) if n > 9 { end_turn() }\nwin_target = 9")
    state = _ten(game)
    assert state.decision_kind() == "play"
    assert state.observation(None)["counters"]["win_target"] == 9


def test_a_bid_reads_the_others_bids():
    state = Game(load_spec(CALL_IT), 3).new_initial_state(seed=1)
    state.sample_chance()
    state.apply_action("0")
    state.apply_action("2")
    assert state.legal_labels() == ["0", "2", "3"]  # 0 + 2 + 1 would make 3
    state.apply_action("3")
    counters = state.observation(1)["counters"]
    assert [counters[f"bid[P{i}]"] for i in (1, 2, 3)] == [0, 2, 3]


def test_what_a_filter_reads_is_in_the_graph():
    g = build(load_spec(CALL_IT))
    reads = {(a.name, b.name) for a, b, k in g.edges(keys=True) if k == "reads"}
    assert ("setup", "bid") in reads


def test_a_filter_that_is_not_a_condition_is_refused(tmp_path):
    with pytest.raises(SpecError) as err:
        _ttg(tmp_path, "choose(p) c from hand(p) if size(c) { move(c, discard_pile) }")
    assert [(d.code, d.message) for d in err.value.diagnostics] == [
        ("RS204", "a choice's filter must be bool, got int")
    ]
