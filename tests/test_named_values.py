"""Named values (docs/language.md, `conditions`: `value:`): an int expression with typed
parameters, called like a named condition. On tests/valid/routines.yaml with a value
added."""

from pathlib import Path

import pytest
from gamekit import counter, edited, spec_errors

from rulespec import SpecError, load_spec
from rulespec.analysis import graph as graphs
from rulespec.analysis.lint import static
from rulespec.interpreter import Game, State

ROUTINES = (Path(__file__).resolve().parent / "valid" / "routines.yaml").read_text()

# the value of a hand: a coin is worth 2, a thief 1, and a guard doubles a small total
WORTH = """  worth:
    params: {cards: cards}
    value: >-
      2 * count(cards, coin) + count(cards, thief)
      + (if count(cards, guard) > 0 and 2 * count(cards, coin) <= 2 then count(cards, thief) else 0)
"""


def spec_text(*pairs) -> str:
    return edited(ROUTINES, ("\nconditions:\n", "\nconditions:\n" + WORTH), *pairs)


errors = spec_errors


def test_a_named_value_is_an_int_and_is_worked_out_at_each_call():
    text = spec_text(
        (
            "  lost: {per_player: true, initial: 0}\n",
            "  lost: {per_player: true, initial: 0}\n  score: {per_player: true, initial: 0}\n",
        ),
        (
            "  - step: draw\n    effect: deal(current, 1)\n",
            "  - step: draw\n    effect: |\n      deal(current, 1)\n"
            "      score(current) = worth(hand(current)) * 10\n",
        ),
    )
    game = Game(load_spec("x.yaml", text), 2)
    state = State.from_layout(
        game,
        1,
        zones={
            "hand[P1]": ["coin", "thief"],
            "hand[P2]": ["guard", "thief"],
            "pile": ["thief", "coin"],
        },
    )
    assert counter(state, "score[P1]") == 40  # coin, thief, thief: 2 + 1 + 1
    state.apply_action("pass")
    while state.current_player() == 0:
        state.apply_action(state.legal_actions()[0])
    assert counter(state, "score[P2]") == 40  # guard, thief, coin: 2 + 1, and the guard's 1


@pytest.mark.parametrize(
    "use, code, message",
    [
        (
            "if worth(hand(p)) { end_game() }",
            "RS204",
            "an if's condition must be bool, got int",
        ),
        ("if worth(1) > 0 { end_game() }", "RS204", "argument 1 of worth() must be cards, got int"),
        ("worth(hand(p))", "RS205", "'worth' is a value, not a statement"),
        (
            "if worth > 0 { end_game() }",
            "RS203",
            "named value 'worth' is read by calling it with its arguments: write worth(cards)",
        ),
    ],
)
def test_a_named_value_is_checked_where_it_is_used(use, code, message):
    text = spec_text(
        (
            "    for p in players { deal(p, deal_size) }\n",
            f"    for p in players {{ deal(p, deal_size)\n      {use} }}\n",
        )
    )
    assert (code, message) in errors(text)


def test_exactly_one_of_when_and_value():
    both = spec_text(("    value: >-\n", "    when: true\n    value: >-\n"))
    assert errors(both) == [
        (
            "RS103",
            "condition 'worth' needs exactly one of 'when' (a condition) or 'value' (a number)",
        )
    ]
    neither = ROUTINES.replace(
        "\nconditions:\n", "\nconditions:\n  worth:\n    params: {p: player}\n"
    )
    assert [c for c, _ in errors(neither)] == ["RS103"]


def test_lint_and_the_graph_see_a_value_where_it_is_called():
    text = spec_text(("    when: rich(p)\n", "    when: rich(p) and worth(hand(p)) > 5\n"))
    spec = load_spec("x.yaml", text)
    g = graphs.build(spec)
    assert g.has_edge("end:rich_wins", "condition:worth", "calls")
    # an int body is no condition to judge: no finding about it holding or not
    assert [f for f in static(spec) if f.code != "RL116"] == []  # `steals` is kept for show


def test_named_values_calling_one_another_are_bounded_by_their_cost():
    """Issue 24: each value of a chain calling the next twice doubles the work, so 25
    links validated and then took 2^25 calls; RS413 reports the first link over the
    bound, once (not the links above it, nor their callers)."""
    chain = "".join(
        f"  link{k}:\n    params: {{p: player}}\n    value: link{k - 1}(p) + link{k - 1}(p)\n"
        for k in range(1, 26)
    )
    text = spec_text(
        (
            "\nconditions:\n",
            "\nconditions:\n  link0:\n    params: {p: player}\n    value: 1\n" + chain,
        )
    )
    assert errors(text) == [
        (
            "RS413",
            "this expression may take 3,145,723 steps to evaluate at 4 players and 24 cards; "
            "at most 2,000,000",
        )
    ]


# Two suits of three ranks; a two counts as a trump (Euchre's bowers, made small)
TYPED = """
rulespec: 1
name: Typed values
players: {min: 2, max: 2}
hand: hand
deck:
  build:
    - card: "{suit}_{rank}"
      each:
        suit: [clubs, spades]
        rank: {from: 1, to: 3}
zones:
  pile: {visibility: public, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
counters:
  trump: {initial: clubs}
  led: {initial: no_kind}
  trumps_held: {initial: 0}
  dealer: {initial: "seat(0)"}
conditions:
  effective_suit:
    params: {c: cards}
    type: kind
    value: if c.rank == 2 then trump else c.suit
  trumps:
    params: {h: cards}
    type: cards
    value: filter(effective_suit(c) == trump for c in h)
  next_dealer:
    type: player
    value: if size(pile) > 3 then seat(0) else seat(1)
setup:
  effect: |
    led = effective_suit(top(pile, 1))
    move(top(pile, 3), hand(seat(0)))
    trumps_held = size(trumps(hand(seat(0))))
    move(trumps(hand(seat(0))), hand(seat(1)))
    dealer = next_dealer()
turn:
  - step: stop
    effect: end_game()
"""


def test_a_named_value_may_give_a_kind_a_player_or_cards():
    """`type:` names what a value gives: the suit a card counts as (a kind), a set of
    cards named once and read twice, a player. The pile is in deck order, spades on
    top: the three spades are dealt, and the two of spades, a trump, is passed on."""
    state = Game(load_spec("typed.yaml", TYPED), 2).new_initial_state(seed=1)
    seen = state.observation(None)
    assert seen["counters"]["led"] == "spades"
    assert seen["counters"]["trumps_held"] == 1
    assert seen["zones"]["hand[P2]"] == ["spades_2"]
    assert seen["counters"]["dealer"] == 1


@pytest.mark.parametrize(
    "old, new, error",
    [
        (
            "    value: if c.rank == 2 then trump else c.suit",
            "    value: c.rank",
            ("RS204", "conditions.effective_suit.value must be kind, got int"),
        ),
        (
            "    value: filter(effective_suit(c) == trump for c in h)",
            "    when: size(h) > 0",
            ("RS104", "condition 'trumps' is true or false: 'type' is for a named value (value:)"),
        ),
        (
            "    led = effective_suit(top(pile, 1))",
            "    led = trumps(hand(current))",
            ("RS204", "cannot assign cards to 'led' (kind)"),
        ),
    ],
)
def test_a_typed_value_is_checked_against_its_type(old, new, error):
    assert TYPED.count(old) == 1
    assert error in errors(TYPED.replace(old, new))


FIVE_OF_SEVEN = """
rulespec: 1
name: Best five of seven
players: {min: 2, max: 6}
hand: hand
deck:
  build:
    - card: "{suit}_{rank}"
      each: {suit: [clubs, diamonds, hearts, spades], rank: {from: 2, to: 14}}
zones:
  stock: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
conditions:
  pairs:
    params: {s: cards}
    value: count(count(d.rank == c.rank for d in s) >= 2 for c in s)
  best:
    params: {h: cards}
    value: max(pairs(s) for s in combinations(h, 5))
setup:
  effect: |
    shuffle(stock)
    for p in players { move(top(stock, 7), hand(p)) }
turn:
  - step: look
    effect: if best(hand(current)) > 3 { end_game() }
"""


def test_a_value_called_on_one_set_of_combinations_costs_that_set():
    """A designer's poker ranked the best five of seven cards as `max(pairs(s) for s in
    combinations(h, 5))`, and RS413 refused it (319 million steps): the value's cards
    parameter was costed as the whole deck in each of 1,024 sets, though the same body
    written in was within the bound. A cards argument of known size (one set of
    combinations(cards, 5), top or first of a written n, nth) is costed at that size;
    a set of unknown size still as the deck."""
    assert load_spec("five.yaml", FIVE_OF_SEVEN).name == "Best five of seven"
    whole = FIVE_OF_SEVEN.replace("combinations(h, 5)", "combinations(h, size(h))")
    assert [code for code, _ in spec_errors(whole)] == ["RS413"]


def test_the_hint_of_rs413_bounds_cards_in_a_form_lint_accepts():
    """A Hold'em designer wrote the RS413 hint's `combinations(first(h, 7), 5)` as told,
    of a hand, and lint noted it (RL124: first() of cards in the order they came). The
    form the hint gives now, sorted, loads and lint says nothing of it."""
    heavy = "count(count(d.rank == c.rank and d.rank > 9 for d in s) >= 2 for c in s)"
    of_hand = (
        FIVE_OF_SEVEN.replace("count(count(d.rank == c.rank for d in s) >= 2 for c in s)", heavy)
        .replace("params: {h: cards}", "params: {p: player}")
        .replace(
            "if best(hand(current)) > 3", "if any(best(p) > 3 or best(p) < 0 for p in players)"
        )
    )
    with pytest.raises(SpecError) as exc:
        load_spec("five.yaml", of_hand.replace("combinations(h, 5)", "combinations(hand(p), 5)"))
    form = "combinations(first(sort(c.rank for c in h), 7), 5)"
    assert [(d.code, form in d.hint) for d in exc.value.diagnostics] == [("RS413", True)]
    for bound, codes in (
        ("combinations(first(hand(p), 7), 5)", ["RL124"]),
        (form.replace("in h)", "in hand(p))"), []),
    ):
        spec = load_spec("five.yaml", of_hand.replace("combinations(h, 5)", bound))
        assert [f.code for f in static(spec)] == codes


def test_diff_calls_a_named_value_a_value_and_its_key_value():
    """A designer's diff said "changed condition 'points': when" of a `value:`."""
    from rulespec.analysis.diff import changes

    old = load_spec("r.yaml", spec_text())
    new = load_spec("r.yaml", spec_text(("+ count(cards, thief)\n", "+ 2 * count(cards, thief)\n")))
    assert [(c.kind, c.name, c.detail) for c in changes(old, new)] == [("value", "worth", "value")]


def test_a_true_or_false_test_under_value_is_told_to_go_under_when():
    """A poker designer wrote a condition's test under value:, which names a number."""
    text = ROUTINES.replace(
        "\nconditions:\n",
        "\nconditions:\n  wealthy:\n    params: {cards: cards}\n    value: count(cards, coin) > 0\n",
    )
    with pytest.raises(SpecError) as exc:
        load_spec("routines.yaml", text)
    first = exc.value.diagnostics[0]
    assert (first.code, first.hint) == ("RS204", "a true/false test is written under when:")


def test_combinations_of_a_set_of_known_size_are_costed_as_the_sets_it_makes():
    """A Hold'em designer's best five of seven, `combinations(first(h, 7), 5)`, was
    costed as 1,024 sets, not the 21 that seven cards make, and refused (RS413) once
    it was called twice for each of six seats. Of a set of unknown size it is still
    the bound."""
    heavy = "count(count(d.rank == c.rank and d.rank > 9 for d in s) >= 2 for c in s)"
    twice = FIVE_OF_SEVEN.replace(
        "count(count(d.rank == c.rank for d in s) >= 2 for c in s)", heavy
    ).replace(
        "if best(hand(current)) > 3",
        "if any(best(hand(p)) > 3 or best(hand(p)) < 0 for p in players)",
    )
    known = twice.replace("combinations(h, 5)", "combinations(first(h, 7), 5)")
    assert load_spec("five.yaml", known).name == "Best five of seven"
    assert [code for code, _ in spec_errors(twice)] == ["RS413"]
    # five to seven of seven cards: 29 sets, each of up to seven cards
    sizes = twice.replace("combinations(h, 5)", "combinations(first(h, 7), 5, 7)")
    assert load_spec("five.yaml", sizes).name == "Best five of seven"
    unknown = twice.replace("combinations(h, 5)", "combinations(h, 5, 7)")
    assert [code for code, _ in spec_errors(unknown)] == ["RS413"]


TAKE_TO_MELD = """
rulespec: 1
name: Take to meld
players: {min: 2, max: 4}
hand: hand
deck:
  build:
    - card: "{suit}_{rank}"
      each: {suit: [clubs, diamonds, hearts, spades], rank: {from: 1, to: 13}}
zones:
  stock: {visibility: hidden, ordered: true, start: true}
  discard_pile: {visibility: public, ordered: true}
  hand: {per_player: true, visibility: owner}
conditions:
  is_set:
    params: {g: cards}
    when: size(g) == 3 and all(count(d.rank == c.rank for d in g) == 3 for c in g)
  usable:
    params: {c: cards, p: player}
    when: any(is_set(s + c) for s in combinations(hand(p), 2))
setup:
  effect: |
    shuffle(stock)
    for p in players { move(top(stock, 7), hand(p)) }
    move(top(stock, 1), discard_pile)
turn:
  - step: draw
    actions: [draw, take]
actions:
  draw:
    effect: move(top(stock, 1), hand(current))
  take:
    target: card
    among: discard_pile
    if: usable(chosen, current)
    effect: move(chosen, hand(current))
end_conditions:
  stock_out:
    when: size(stock) == 0
    effect: end_game()
"""


@pytest.mark.parametrize(
    "call", ["usable(chosen, current)", "any(usable(c, current) for c in top(discard_pile, 3))"]
)
def test_a_condition_is_costed_at_the_cards_its_calls_pass(call):
    """A Rummy designer's "can the discard be melded with two cards of the hand",
    `any(is_meld(s + c) for s in combinations(hand(p), 2))`, called on the card taken,
    was refused (RS413, 24 million steps) though the real work is 1,024 sets of three
    cards: alone, the body was costed with `c` as the whole deck, and so each set. A
    body is costed at the most cards its calls pass; a call that passes a set of no
    known size still costs it at the deck, reported at the body."""
    assert load_spec("meld.yaml", edited(TAKE_TO_MELD, ("usable(chosen, current)", call))).actions
    unknown = edited(TAKE_TO_MELD, ("usable(chosen, current)", f"{call} or usable(stock, current)"))
    with pytest.raises(SpecError) as refused:
        load_spec("meld.yaml", unknown)
    (problem,) = refused.value.diagnostics
    assert (problem.code, problem.span.line) == ("RS413", 20)  # usable's body
