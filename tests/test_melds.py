"""unmelded(cards, "condition", "property") (docs/language.md): the cards left over by
the best arrangement into melds. On tests/valid/knock.yaml, a hand of Gin Rummy; the
arrangement is checked against a search over every partition of small hands."""

import random
from pathlib import Path

import pytest
from gamekit import edited, spec_errors
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec import load_spec
from rulespec.interpreter import Game, RuleError, State
from rulespec.interpreter.runtime import _unmelded
from rulespec.lang.diagnostics import SpecError

KNOCK = (Path(__file__).resolve().parent / "valid" / "knock.yaml").read_text(encoding="utf-8")


def spec_text(*pairs) -> str:
    return edited(KNOCK, *pairs)


def errors(text: str) -> list[tuple[str, str]]:
    return spec_errors(text, "knock.yaml")


def partitions(items: list) -> list[list[list]]:
    """Every way to split items into non-empty groups."""
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for split in partitions(rest):
        out.append([[first], *split])
        for i in range(len(split)):
            out.append([*split[:i], [first, *split[i]], *split[i + 1 :]])
    return out


def best_by_partitions(cards, is_meld, worth) -> tuple[int, int]:
    """(least total left, fewest cards left) over every partition: a group that is no
    meld leaves its cards."""
    best = None
    for split in partitions(list(cards)):
        left = [c for group in split if not is_meld(group) for c in group]
        score = (sum(worth[c] for c in left), len(left))
        best = score if best is None or score < best else best
    return best


# a meld of a small deck: three or more alike, or a run of three or more in one suit
RANKS, SUITS = 5, 3


def small_meld(group) -> bool:
    ranks, suits = [c % RANKS for c in group], [c // RANKS for c in group]
    if len(group) < 3:
        return False
    if len(set(ranks)) == 1:
        return True
    return len(set(suits)) == 1 and max(ranks) - min(ranks) == len(group) - 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, RANKS * SUITS - 1), min_size=0, max_size=8, unique=True))
def test_the_arrangement_is_the_best_of_every_partition(hand):
    """The total left (then the number of cards) is the least over every way to split the
    hand, and the cards left are the hand's, each once."""
    worth = [1 + c % RANKS for c in range(RANKS * SUITS)]
    ctype = list(range(RANKS * SUITS))
    for judged in (None, {}):  # judged afresh, and by a kept verdict of each group
        left = _unmelded(None, hand, lambda g, env: small_meld(env["g"]), "g", worth, ctype, judged)
        assert set(left) <= set(hand) and len(set(left)) == len(left)
        assert (sum(worth[c] for c in left), len(left)) == best_by_partitions(
            hand, small_meld, worth
        )
        melded = [c for c in hand if c not in left]
        assert best_by_partitions(melded, small_meld, worth) == (0, 0)  # all in melds


def test_a_group_of_copies_of_one_type_is_judged_once():
    """Cards of one type are alike (C-3): a kept verdict serves every group of the same
    types in the same order, whichever copies it holds."""
    calls = []
    ctype = [0, 0, 0, 1]  # three copies of type 0, one card of type 1

    def meld(g, env):  # three of type 0
        calls.append(len(env["g"]))
        return [ctype[c] for c in env["g"]] == [0, 0, 0]

    judged = {}
    left = _unmelded(None, [0, 1, 2, 3], meld, "g", [1, 1], ctype, judged)
    assert left == [3]
    assert sorted(calls) == [1, 1, 2, 2, 3, 3, 4]  # 15 groups, 7 sequences of types
    _unmelded(None, [2, 0, 1, 3], meld, "g", [1, 1], ctype, judged)
    assert len(calls) == 7  # other copies in the same places: nothing judged again


def test_a_verdict_kept_is_one_of_the_types_in_their_order():
    """A condition may read its group's first card (`g.points`): a group of the same
    types in another order is judged afresh, so a hand and the same hand reordered are
    each arranged by what the condition says of them. A verdict kept by the types
    alone gave the second hand the first one's arrangement, in this game and the games
    after it in the process."""
    ctype, worth = [0, 1], [1, 2]

    def meld(g, env):  # a pair led by the card of type 0
        return len(env["g"]) == 2 and ctype[env["g"][0]] == 0

    judged = {}
    assert _unmelded(None, [0, 1], meld, "g", worth, ctype, judged) == []
    assert _unmelded(None, [1, 0], meld, "g", worth, ctype, judged) == [1, 0]


def test_a_meld_condition_that_reads_the_table_is_judged_at_each_call():
    """A condition that reads a counter is not judged once for good: the verdicts
    follow the counter (the evaluation is 100 less the deadwood)."""
    text = spec_text(
        ("parameters:\n", "counters:\n  shortest: {initial: 3}\n\nparameters:\n"),
        ("    when: >-\n      size(g) >= 3 and", "    when: >-\n      size(g) >= shortest and"),
    )
    game = Game(load_spec("knock.yaml", text), 2)
    hand = {"hand[P1]": ["four_of_clubs", "four_of_hearts", "four_of_spades", "king_of_clubs"]}
    for shortest, deadwood in ((3, 10), (4, 22), (3, 10)):  # a set of three, then none
        state = State.from_layout(game, zones=hand, counters={"shortest": shortest})
        assert state.evaluate(0) == 100 - deadwood


def test_more_cards_than_the_limit_fail_at_their_place():
    text = spec_text(("  hand_size: 10\n", "  hand_size: 13\n"))
    game = Game(load_spec("knock.yaml", text), 2)
    with pytest.raises(RuleError) as info:
        state = game.new_initial_state(seed=1)
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance()
            else:
                state.apply_action(state.legal_actions()[0])
    assert info.value.code == "RS701"
    assert "unmelded() of 13 cards: it tries every group of them, at most 12" in str(info.value)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            'unmelded(h, "melds", "points")',
            "unmelded() takes, in quotes, the name of a condition of one cards parameter "
            "that says whether a group of cards is a meld",
        ),
        (
            'unmelded(h, "meld", "face")',
            "unmelded() adds up a number property over the cards left; 'face' is not a number",
        ),
        ('unmelded(h, "meld", "pips")', "unknown card property 'pips'"),
    ],
)
def test_unmelded_names_a_meld_condition_and_a_number_property(call, message):
    text = spec_text(
        (
            '    value: sum(c.points for c in unmelded(h, "meld", "points"))',
            f"    value: sum(c.points for c in {call})",
        )
    )
    assert ("RS204" if "unknown" not in message else "RS201", message) in errors(text)


def test_a_named_value_is_no_meld_condition():
    text = spec_text(
        (
            '    value: sum(c.points for c in unmelded(h, "meld", "points"))',
            '    value: sum(c.points for c in unmelded(h, "deadwood_points", "points"))',
        )
    )
    assert errors(text) == [
        ("RS204", "unmelded() needs a condition ('when:'); 'deadwood_points' is a named value")
    ]


def test_a_meld_condition_too_costly_for_every_group_is_refused():
    """Every group of up to 12 cards is judged: a condition of nested aggregates over the
    group is refused when the spec loads (RS413), as an aggregate would be."""
    text = spec_text(
        (
            "      size(g) >= 3 and (",
            "      size(g) >= 3 and all(all(a.rank != b.rank + 20 for b in g) for a in g) and (",
        )
    )
    found = errors(text)
    assert [code for code, _ in found] == ["RS413", "RS413"]  # the value's call, the lay-out's
    for _, message in found:
        assert message.startswith(
            "unmelded() judges every group of up to 12 cards with 'meld': it may take "
        )
        assert message.endswith("at most 2,000,000")


def test_a_meld_condition_reading_a_zone_says_to_bound_it():
    """A Gin Rummy designer's lay-off, `meld(g) or meld(g + table)`, was refused with a
    hint to test a group in one pass: the cost was the table, counted as the whole deck
    for every group. The hint names the zone; cards put together are costed as both
    hold, so the table bounded with first() fits."""
    lay_off = "  lay_off:\n    params: {g: cards}\n    when: meld(g) or meld(g + {cards})\n"

    def text(cards):
        return spec_text(
            ("  deadwood_points:\n", lay_off.replace("{cards}", cards) + "  deadwood_points:\n"),
            (
                'value: sum(c.points for c in unmelded(h, "meld", "points"))',
                'value: sum(c.points for c in unmelded(h, "lay_off", "points"))',
            ),
        )

    with pytest.raises(SpecError) as exc:
        load_spec("knock.yaml", text("discard_pile"))
    (problem,) = exc.value.diagnostics
    assert problem.code == "RS413" and problem.hint.startswith(
        "'lay_off' reads 'discard_pile' besides the group, counted as it may hold the whole "
        "deck (52 cards) for every group: where it holds fewer, say so with "
        "first(discard_pile, N); else test a group in one pass"
    )
    assert load_spec("knock.yaml", text("first(discard_pile, 3)")).conditions
    with pytest.raises(SpecError) as exc:  # a seat's zone, written as one is (a review)
        load_spec("knock.yaml", text("deadwood(current)"))
    assert "say so with first(deadwood(p), N)" in exc.value.diagnostics[0].hint


def test_a_condition_that_calls_unmelded_on_itself_is_a_circle():
    text = spec_text(
        (
            "      size(g) >= 3 and (",
            '      size(g) >= 3 and size(unmelded(g, "meld", "points")) >= 0 and (',
        )
    )
    assert {code for code, _ in errors(text)} == {"RS210"}


def test_the_lay_out_moves_the_melds_and_leaves_the_deadwood():
    """Games of Knock in which a player knocks whenever the rules let them: the knocker
    is left with knock_limit points or fewer, and every laid-out hand is empty."""
    spec = load_spec("knock.yaml", KNOCK)
    game, points = Game(spec, 2), {c.name: dict(c.props)["points"] for c in spec.cards}
    knocks = 0
    for seed in range(3):
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance()
                continue
            options = state.legal_actions()
            knocking = [o for o in options if o.label.startswith("knock")]
            state.apply_action(knocking[0] if knocking else rng.choice(options))
        if state.reason != "knock":
            continue
        knocks += 1
        zones = state.observation(None)["zones"]
        knocker = [e for e in state.log_for(None) if e["event"] == "play"][-1]["player"]
        assert sum(points[c] for c in zones[f"deadwood[P{knocker + 1}]"]) <= 10
        assert zones["hand[P1]"] == zones["hand[P2]"] == []
    assert knocks > 0


def test_unmelded_in_a_value_called_on_a_sized_set_is_costed_as_written_in():
    """The value's body, costed at its argument's size, still counts unmelded's groups:
    called once for every card of the stock it is as costly as the body written in."""
    call = "sum(deadwood_points(top(stock, 10)) for c in stock)"
    inline = 'sum(sum(d.points for d in unmelded(top(stock, 10), "meld", "points")) for c in stock)'
    for expr in (call, inline):
        text = spec_text(("evaluation: 100 - deadwood_points(hand(me))", f"evaluation: {expr}"))
        assert [code for code, _ in errors(text)] == ["RS413"], expr


def test_a_misspelt_meld_condition_is_given_the_nearest_name():
    """A Gin Rummy designer's "meld2" was told what unmelded() takes, not 'meld'."""
    text = spec_text(('unmelded(h, "meld", "points"))', 'unmelded(h, "meld2", "points"))'))
    with pytest.raises(SpecError) as exc:
        load_spec("knock.yaml", text)
    assert [(d.code, d.hint) for d in exc.value.diagnostics] == [("RS204", "did you mean 'meld'?")]
