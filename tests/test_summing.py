"""`summing(cards, "property", n)`: every set of the cards whose values add up to n, of
any size, in combinations' order size by size; checked against a search of every
subset, with negative and zero values too; its type errors, cost and run-time bounds."""

import itertools

import pytest
from gamekit import ROOT, cli
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec import SpecError, load_spec
from rulespec.interpreter import Game, runtime
from rulespec.lang import ir

SUM_CAPTURE = ROOT / "tests" / "valid" / "sum_capture.yaml"


def every_subset(cards, values, ctype, total):
    return [
        list(s)
        for k in range(1, len(cards) + 1)
        for s in itertools.combinations(cards, k)
        if sum(values[ctype[c]] for c in s) == total
    ]


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(st.integers(-3, 7), min_size=1, max_size=6),
    types=st.lists(st.integers(0, 5), max_size=11),
    total=st.integers(-5, 20),
)
def test_summing_gives_every_subset_adding_up(values, types, total):
    ctype = [t % len(values) for t in types]
    cards = list(range(len(ctype)))
    expected = every_subset(cards, values, ctype, total)
    if len(expected) > ir.MAX_COMBINATIONS:  # eleven cards worth 0 make 2,047 sets of 0
        with pytest.raises(ValueError, match="more than"):
            runtime._summing(cards, values, ctype, total)
    else:
        assert runtime._summing(cards, values, ctype, total) == expected


def test_sets_come_smallest_first_then_by_place():
    values, ctype = [1, 2, 3, 4], [0, 1, 2, 3, 0]  # card 4 is a second 1
    assert runtime._summing([0, 1, 2, 3, 4], values, ctype, 4) == [
        [3],
        [0, 2],
        [2, 4],
        [0, 1, 4],
    ]
    assert runtime._summing([], values, [], 0) == []  # the empty set is never one


ZEROS = """\
rulespec: 1
name: Zeros
players: {min: 2, max: 2}
hand: hand
deck:
  cards:
    blank: {count: 10, props: {value: 0}}
    single: {count: 2, props: {value: 1}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
counters:
  ways: {initial: 0}
setup:
  effect: |
    ways = count(true for s in summing(pile, "value", TOTAL))
turn:
  - step: draw
    effect: move(top(pile, 1), hand(current))
end_conditions:
  drawn:
    when: size(pile) == 0
    effect: end_game()
"""


def test_too_many_sets_stop_the_game_at_the_rule(tmp_path):
    """Zero-valued cards add nothing to a set: past 1,024 sets found, or
    MAX_SUM_STEPS looked at, the rule fails, at its place; a total out of reach is no
    search at all."""
    with pytest.raises(ValueError, match="more than 1024 sets"):
        runtime._summing(list(range(12)), [0], [0] * 12, 0)
    with pytest.raises(ValueError, match=f"more than {ir.MAX_SUM_STEPS:,} sets"):
        runtime._summing(list(range(40)), [2], [0] * 40, 39)  # odd: no bound cuts it short
    assert runtime._summing(list(range(400)), [1], [0] * 400, 401) == []
    path = tmp_path / "zeros.yaml"
    path.write_text(ZEROS.replace("TOTAL", "1"))  # a one, with any set of blanks: 2,048
    code, _, err = cli("run", path)
    assert code == 2 and "error RS701" in err and "more than 1024 sets" in err
    assert f"{path}:16:" in err  # the line of the assignment, in the file
    path.write_text(ZEROS.replace("TOTAL", "2"))
    state = Game(load_spec(path), 2).new_initial_state(seed=1)
    # both ones, with any of the 2^10 sets of blanks (the whole pile, before any draw)
    assert state.observation(None)["counters"]["ways"] == 1024


@pytest.mark.parametrize(
    "call, code, words",
    [
        ('summing(table, "suit", 3)', "RS204", "'suit' is not a number"),
        ('summing(table, "colour", 3)', "RS201", "colour"),
        ('summing(table, "rank", 3)', "RS204", "cardsets"),  # sets, not cards
    ],
)
def test_bad_calls_are_refused(tmp_path, call, code, words):
    text = SUM_CAPTURE.read_text().replace(
        "    move(top(pile, 4), table)\n",
        f"    move(top(pile, 4), table)\n    move({call}, table)\n"
        if words == "cardsets"
        else f"    move(top(pile, 4), table)\n    let n = count(true for s in {call})\n",
    )
    with pytest.raises(SpecError) as exc:
        load_spec(tmp_path / "bad.yaml", text)
    found = [(d.code, d.message) for d in exc.value.diagnostics]
    assert any(c == code and words in m for c, m in found), found


def test_a_summing_nested_in_an_aggregate_over_cards_costs_too_much():
    text = SUM_CAPTURE.read_text().replace(
        "    move(top(pile, 4), table)\n",
        "    move(top(pile, 4), table)\n"
        '    let n = count(count(any(true for s in summing(pile, "rank", c.rank + d.rank)) '
        "for d in pile) > 0 for c in pile)\n",
    )
    with pytest.raises(SpecError) as exc:
        load_spec("s.yaml", text)
    assert [d.code for d in exc.value.diagnostics] == ["RS413"]


def test_must_capture_if_any_card_can_validates_with_a_40_card_deck(tmp_path):
    """'Lay only when no card of the hand captures' is summing() once per card of the
    hand: at 32,768 steps a search, within the evaluation bound for a 40-card deck."""
    text = SUM_CAPTURE.read_text().replace(
        "        suit: [cups, coins]\n        rank: {from: 1, to: 7}",
        "        suit: [cups, coins, swords, clubs]\n        rank: {from: 1, to: 10}",
    )
    text = text.replace(
        "    if: not captures(card)\n",
        "    if: not any(captures(h) for h in hand(current))\n",
    )
    spec = load_spec(tmp_path / "must.yaml", text)
    assert len(spec.cards) == 40
