"""Aggregates over cards, `card.prop`, and `if … then … else …`, on a small game of their
own: each case is an expression, a table laid out by hand, and the value it must give."""

import pytest
from gamekit import edited, zone

from rulespec import SpecError, load_spec
from rulespec.analysis import graph as graphs
from rulespec.analysis import lint
from rulespec.interpreter import Game, State
from rulespec.interpreter.agents import make_agents, play

RANKS = """
rulespec: 1
name: Ranks
players: {min: 2, max: 3, default: 2}
hand: hand
deck:
  cards:
    red_low:  {count: 3, tags: [red], props: {rank: 2, suit: red, face: false}}
    red_high: {count: 3, tags: [red], props: {rank: 9, suit: red, face: true}}
    blue_low: {count: 3, tags: [blue], props: {rank: 3, suit: blue}}
    blue_mid: {count: 3, tags: [blue], props: {rank: 5, suit: blue}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  trick: {visibility: public, ordered: true}
  hand: {per_player: true, visibility: owner}
counters:
  best: {initial: 0}
setup:
  effect: |
    shuffle(pile)
    for p in players { move(top(pile, 3), hand(p)) }
turn:
  - step: play
    actions: [follow, pass]
actions:
  # a card at least as high as the trick's highest, or any card when none in hand is
  follow:
    card: any
    to: trick
    if: >-
      card.rank >= max(c.rank for c in trick)
      or not any(c.rank >= max(d.rank for d in trick) for c in hand(current))
    effect: best = if card.rank > best then card.rank else best
  pass:
    effect: |
      choose(current) mine from hand(current) {
        if mine.face { move(mine, trick) } else { move(mine, pile) }
      }
end_conditions:
  trick_full:
    when: sum(c.rank for c in trick) >= 20
    effect: win(argmax(count(c.suit == red for c in hand(q)) for q in players))
  hands_empty:
    when: all(size(hand(q)) == 0 for q in players)
    effect: end_game()
evaluation: 0
"""


def ranks(evaluation: str = "0", text: str = RANKS):
    return load_spec("ranks.yaml", text.replace("evaluation: 0", f"evaluation: >-\n  {evaluation}"))


def laid_out(spec, hand=(), trick=(), other=(), current=0):
    zones = {"hand[P1]": list(hand), "hand[P2]": list(other), "trick": list(trick)}
    return State.from_layout(Game(spec, 2), 1, zones=zones, current=current)


HAND = ["red_low", "red_high", "blue_mid"]


@pytest.mark.parametrize(
    "expr, hand, trick, value",
    [
        # sum, max, min, count over a zone's cards, a card's property read as c.name
        ("sum(c.rank for c in hand(me))", HAND, [], 2 + 9 + 5),
        ("max(c.rank for c in hand(me))", HAND, [], 9),
        ("min(c.rank for c in hand(me))", HAND, [], 2),
        ("count(c.face for c in hand(me))", HAND, [], 1),  # blue cards have no face: false
        # the filter clause
        (
            "max(c.rank for c in trick if c.suit == blue)",
            [],
            ["red_high", "blue_low", "blue_mid"],
            5,
        ),
        ("count(c.rank > 2 for c in hand(me) if c.suit == red)", HAND, [], 1),
        ("sum(c.rank for c in hand(me) if not c.face)", HAND, [], 7),
        # empty sets, and filters that match nothing
        ("sum(c.rank for c in trick)", HAND, [], 0),
        ("max(c.rank for c in trick) + min(c.rank for c in trick)", HAND, [], 0),
        ("max(c.rank for c in trick if c.suit == blue)", [], ["red_high", "red_low"], 0),
        ("count(true for c in hand(me) if c.rank > 100)", HAND, [], 0),
        ("size(argmax(c.rank for c in trick))", HAND, [], 0),
        ("size(filter(c.face for c in trick))", HAND, [], 0),
        ("if any(c.face for c in trick) then 1 else 0", HAND, [], 0),
        ("if all(c.face for c in trick) then 1 else 0", HAND, [], 1),  # all of nothing holds
        # argmax, argmin and filter over cards are cards
        ("size(argmax(c.rank for c in hand(me)))", ["red_high", "blue_low", "red_high"], [], 2),
        ("argmin(c.rank for c in hand(me)).rank", HAND, [], 2),
        ("count(hand(me), kind_of(argmax(c.rank for c in hand(me))))", HAND + ["red_high"], [], 2),
        ("size(filter(c.suit == red for c in hand(me) if c.rank > 2))", HAND, [], 1),
        ("filter(true for c in trick).rank", [], ["blue_low", "red_high"], 9),  # bottom up
        ("size(union(of(hand(me), kind_of(c)) for c in trick))", HAND, ["blue_mid", "blue_mid"], 2),
        # nested aggregates: cards in cards, cards in players, players in cards
        (
            "sum(count(d.rank > c.rank for d in hand(me)) for c in trick)",
            HAND,
            ["blue_low", "red_high"],
            2,
        ),
        ("sum(max(c.rank for c in hand(q)) for q in players)", HAND, ["red_low"], 9),
        # over players (the item a name of the generated code): an inner one reading the
        # outer one's; players as the items of filter, argmax and union
        ("sum(count(q == p for q in players) for p in players)", HAND, [], 2),
        ("size(argmax(size(hand(q)) for q in players))", HAND, [], 1),
        ("count(q != me for q in filter(size(hand(q)) > 0 for q in players))", HAND, [], 0),
        ("size(union(hand(q) for q in players if q != me))", HAND, [], 0),
        ("size(union(hand(q) for q in players))", HAND, ["red_low"], 3),
        # one whose body needs code compiled apart that reads q: the bindings' way
        ("sum(count(hand(q), kind_of(hand(q))) for q in players)", HAND, [], 1),
        ("count(count(c.rank >= 5 for c in hand(q)) > 0 for q in players)", HAND, [], 1),
        (
            "max(sum(c.rank for c in hand(me) if c.rank > t.rank) for t in trick)",
            HAND,
            ["blue_low", "red_low"],
            14,
        ),
        # aggregates over players take the new forms too
        (
            "max(size(hand(q)) for q in players) * 10 + min(size(hand(q)) for q in players)",
            HAND,
            [],
            30,
        ),
        ("sum(size(hand(q)) for q in players if q != me)", HAND, [], 0),
        ("count(size(hand(q)) == 0 for q in players)", HAND, [], 1),
        # a property of the first card of a kind in a zone (of() then .rank: no list made)
        ("of(hand(me), blue).rank", HAND, [], 5),
        ("of(hand(me), red).rank + of(trick, blue).rank", HAND, [], 2),  # none in trick: 0
        # prop() and c.name agree; a property of no card is 0; the two-argument max stays
        ('prop(argmax(c.rank for c in hand(me)), "rank") + top(trick, 1).rank', HAND, [], 9),
        ("max(top(trick, 1).rank, 4) + min(3, 7)", HAND, ["blue_mid"], 5 + 3),
        # the if expression: the arm the condition picks, of any type both arms have
        ("if size(trick) == 0 then 100 else top(trick, 1).rank", HAND, [], 100),
        ("if size(trick) == 0 then 100 else top(trick, 1).rank", HAND, ["blue_low"], 3),
        ("size(if me == current then hand(me) + trick else trick)", HAND, ["blue_low"], 4),
        ("size(if me == current then argmax(size(hand(q)) for q in players) else me)", HAND, [], 1),
        (
            "if top(trick, 1).suit == blue then 1 else if top(trick, 1).suit == red then 2 else 3",
            HAND,
            ["red_low"],
            2,
        ),
        (
            "if count(hand(me), kind_of(if size(trick) > 0 then trick else hand(me))) > 1 then 1 else 0",
            HAND,
            [],
            0,
        ),
    ],
)
def test_card_expressions(expr, hand, trick, value):
    assert laid_out(ranks(expr), hand, trick).evaluate(0) == value


def test_a_played_and_a_chosen_card_have_their_properties_readable():
    spec = ranks()
    # the trick's highest is 5: red_high (9) follows; red_low (2) may not, since 9 could
    game = laid_out(spec, ["red_low", "red_high"], ["blue_mid"])
    follows = [o for o in game.legal_labels() if o.startswith("follow")]
    assert follows == ["follow red_high"]
    game.apply_action("follow red_high")
    assert zone(game, "trick") == ["blue_mid", "red_high"]  # bottom first
    assert game.observation(None)["counters"]["best"] == 9
    # holding nothing that high, any card follows
    game = laid_out(spec, ["red_low", "blue_low"], ["red_high"])
    assert sorted(o for o in game.legal_labels() if o.startswith("follow")) == [
        "follow blue_low",
        "follow red_low",
    ]
    # a chosen card: a face card goes to the trick, another back to the pile
    game = laid_out(spec, ["red_high", "blue_low"], [])
    game.apply_action("pass")
    game.apply_action(next(o for o in game.legal_labels() if "blue_low" in o))
    assert zone(game, "trick") == [] and zone(game, "hand[P1]") == ["red_high"]


def test_a_condition_over_a_zones_cards_is_checked_when_cards_move():
    game = laid_out(
        ranks(), ["red_high"], ["red_high", "blue_low", "blue_low"], other=["red_low", "red_high"]
    )
    assert not game.is_terminal()  # 9 + 3 + 3 = 15
    game.apply_action("follow red_high")  # 24: P2 holds the most red cards
    assert game.is_terminal() and game.reason == "trick_full" and game.winners == (1,)


def test_random_games_end_and_repeat():
    rules = Game(ranks(), 3)
    runs = [
        [
            (g.reason, g.winners, g.turn)
            for g in (
                play(rules.new_initial_state(seed=s), make_agents(["random"], 3, s))
                for s in range(20)
            )
        ]
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert {reason for reason, _, _ in runs[0]} <= {"trick_full", "hands_empty", "turn_limit"}
    assert any(reason == "trick_full" for reason, _, _ in runs[0])


def _problems(evaluation: str = "0", text: str = RANKS) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as exc:
        ranks(evaluation, text)
    return [(d.code, d.message) for d in exc.value.diagnostics]


@pytest.mark.parametrize(
    "expr, code, message",
    [
        ("sum(c.rnak for c in hand(me))", "RS201", "unknown card property 'rnak'"),
        (
            "max(q.rank for q in players)",
            "RS204",
            "the left of '.rank' must be cards or kind, got player",
        ),
        ("max(c for c in hand(me))", "RS204", "the body of max() must be int, got cards"),
        ("count(c.rank for c in hand(me))", "RS204", "the body of count() must be bool, got int"),
        (
            "sum(c.rank for c in hand(me) if c.rank)",
            "RS204",
            "the condition of sum() must be bool, got int",
        ),
        (
            "sum(c.rank for c in 3)",
            "RS204",
            "the items of sum() must be players, cards, ints, kinds, cardsets or zones, got int",
        ),
        ("me.rank", "RS204", "the left of '.rank' must be cards or kind, got player"),
        (
            "if true then 1 else hand(me)",
            "RS204",
            "the two values of an if expression must have one type, got int and zone",
        ),
        ("if 1 then 2 else 3", "RS204", "an if expression's condition must be bool, got int"),
        (
            "if size(trick) > 0 then trick.suit else 0",
            "RS204",
            "the two values of an if expression must have one type, got kind and int",
        ),
        (
            "sum(c.rank for c in hand(me)) + sum(c.rank for red in trick)",
            "RS202",
            "'red' is already a name of the spec or the language; a local needs a name of its own",
        ),
        ('prop(top(trick, 1), "rnak")', "RS201", "unknown card property 'rnak'"),
    ],
)
def test_misuse_is_a_type_error_in_place(expr, code, message):
    assert _problems(expr) == [(code, message)]


def test_an_unknown_property_suggests_the_declared_ones():
    with pytest.raises(SpecError) as exc:
        ranks("top(trick, 1).colour")
    assert (
        "unknown card property 'colour' (the deck's card properties: face, rank, suit)"
        in exc.value.render()
    )
    with pytest.raises(SpecError) as exc:
        ranks("top(trick, 1).rnak")
    assert exc.value.diagnostics[0].span.col == len("  top(trick, 1).") + 1  # at the name
    assert "did you mean 'rank'?" in exc.value.render()


@pytest.mark.parametrize(
    "effect, message, col, expected",
    [
        # an if statement as a value: the caret is at the '{' where 'then' was due
        (
            "let z = if best == 1 { end_game() }",
            "unexpected '{' in expression: a value's 'if' reads if COND then A else B",
            21,
            "'then'",
        ),
        (
            "let z = for q in players { end_game() }",
            "'for' begins a statement, and a value is expected here",
            8,
            "a name",
        ),
        (
            "best = while best > 0 { best -= 1 }",
            "'while' begins a statement, and a value is expected here",
            7,
            "'if'",
        ),
        ("let z = if best == 1 then 2", "expression ends too early", 26, "'else'"),  # at its end
    ],
)
def test_a_statement_keyword_in_a_value_is_reported_at_itself(effect, message, col, expected):
    text = RANKS.replace(
        "effect: best = if card.rank > best then card.rank else best", f"effect: {effect}"
    )
    with pytest.raises(SpecError) as exc:
        load_spec("ranks.yaml", text)
    (d,) = exc.value.diagnostics
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if effect in ln)
    assert (d.code, d.message, d.span.line, d.span.col) == (
        "RS301",
        message,
        line,
        len("    effect: ") + col + 1,
    )
    assert expected in d.hint


def test_a_refused_let_is_reported_once_not_at_every_use():
    text = RANKS.replace(
        "effect: best = if card.rank > best then card.rank else best",
        "effect: |\n      let max = card.rank\n      let trick = 2\n"
        "      let worth = nothing\n"
        "      best = max + trick + worth\n      best += max",
    )
    assert _problems(text=text) == [
        (
            "RS202",
            "'max' is already a name of the spec or the language; a local needs a name of its own",
        ),
        (
            "RS202",
            "'trick' is already a name of the spec or the language; a local needs a name of its own",
        ),
        ("RS201", "unknown name 'nothing'"),
    ]


def test_graph_and_lint_see_inside_card_aggregates():
    spec = ranks()
    trick_full = next(r for r in spec.end_conditions if r.name == "trick_full")
    assert ("zone", "trick") in graphs.touches_of(trick_full.when).reads
    assert ("zone", "hand") in graphs.touches_of(trick_full.effect).reads
    assert not [f for f in lint.static(spec) if f.severity == "error"]


@pytest.mark.parametrize(
    "when, holds",
    [
        ("max(c.rank for c in trick) > 9", False),  # no card ranks above 9
        ("min(c.rank for c in hand(q)) < 0", False),
        ("count(c.face for c in trick) > 12", False),  # the deck holds 12 cards
        ("(if size(trick) > 0 then 5 else 30) > 40", False),
        ("(if size(trick) > 0 then 5 else 30) > 10", None),  # the else arm can
        ("max(c.rank for c in trick if c.face) >= 9", None),
        ("sum(c.rank for c in trick) > 1000", None),  # no bound is claimed for a sum
    ],
)
def test_lint_bounds_of_the_new_forms_are_sound(when, holds):
    text = RANKS.replace("when: all(size(hand(q)) == 0 for q in players)", f"when: {when}").replace(
        "hands_empty:\n", "hands_empty:\n    each: q\n"
    )
    findings = [f for f in lint.static(load_spec("ranks.yaml", text)) if "hands_empty" in f.message]
    never = [f for f in findings if f.code == "RL105" and f.severity == "error"]
    assert bool(never) == (holds is False), findings


def _nest(depth: int, items: str) -> str:
    return "sum(" * depth + "1" + "".join(f" for x{i} in {items})" for i in range(depth))


def test_nested_aggregates_are_bounded_by_their_cost():
    """RS413: an aggregate is a step and its body for each item, one per card, or per
    player at players.max; its items are worked out once. Aggregates over players alone
    were never bounded, so 30 of them nested validated, then hung (issue 24)."""
    ranks(_nest(5, "pile"))  # 12^5 passes, 520,285 steps
    assert _problems(_nest(6, "pile")) == [
        (
            "RS413",
            "this aggregate may take 6,514,873 steps to evaluate at 3 players and 12 cards; "
            "at most 2,000,000",
        )
    ]
    ranks(f"sum({_nest(5, 'pile')} for q in players)")  # 3 * 12^5 passes
    assert (
        _problems(f"sum(sum({_nest(5, 'pile')} for q in players) for r in players)")[0][0]
        == "RS413"
    )
    items = "pile"
    for i in range(6):  # items are worked out once, not per item
        items = f"filter(true for y{i} in {items})"
    ranks(f"sum(1 for x in {items})")
    ranks(_nest(12, "players"))  # 3^12 passes
    assert _problems(_nest(20, "players")) == [
        (
            "RS413",
            "this aggregate may take 10,460,353,201 steps to evaluate at 3 players and 12 "
            "cards; at most 2,000,000",
        )
    ]


@pytest.mark.parametrize(
    "expr, value, per_seat",
    [
        ("count(size(hand(q)) > 0 for q in players)", 2, True),  # P2 is out: not counted
        ("sum(size(hand(q)) for q in players if q != me)", 1, True),
        ("sum(size(hand(q)) + 10 for q in players)", 24, True),
        ("if all(size(hand(q)) > 0 for q in players) then 1 else 0", 1, True),
        ("if any(size(hand(q)) == 2 for q in players) then 1 else 0", 0, True),
        ("if any(size(hand(q)) == 1 for q in players if q != me) then 1 else 0", 1, True),
        ("if all(q == me for q in players if size(hand(q)) > 2) then 1 else 0", 1, True),
        # a product may fail as the game runs: worked out in turn order, as written
        ("sum(size(hand(q)) * 10 for q in players)", 40, False),
        ("max(size(hand(q)) for q in players)", 3, False),  # max and min: not by seat
    ],
)
def test_an_aggregate_over_players_written_seat_by_seat_skips_those_out(
    expr, value, per_seat, monkeypatch
):
    """all, any, sum and count over `players` are written once per seat (no generator,
    no turn order): the same values as the generic comprehension, a player out left out."""
    from rulespec.interpreter import evaluate

    zones = {"hand[P1]": HAND, "hand[P2]": ["red_low", "red_low"], "hand[P3]": ["blue_low"]}

    def value_of(spec):
        game = Game(spec, 3)
        state = State.from_layout(game, 1, zones=zones, out=(1,), current=0)
        source = "".join(
            line
            for listing in game.exprs.listings
            if listing.rule == "evaluation"
            for line in listing.lines
        )
        return state.evaluate(0), "active_players" in source

    assert value_of(ranks(expr)) == (value, not per_seat)
    monkeypatch.setattr(evaluate, "PER_SEAT", 0)
    assert value_of(ranks(expr))[0] == value


def _follow_if(condition: str) -> str:
    """RANKS with `follow` offered where condition holds."""
    return edited(
        RANKS,
        (
            "card.rank >= max(c.rank for c in trick)\n"
            "      or not any(c.rank >= max(d.rank for d in trick) for c in hand(current))",
            condition,
        ),
    )


@pytest.mark.parametrize(
    "hand, follows",
    [
        (HAND, ["follow red_high", "follow red_low"]),  # two red, one blue
        (["blue_low", "blue_mid", "red_low"], ["follow blue_low", "follow blue_mid"]),
        (["blue_low", "red_low"], []),
    ],
)
def test_a_count_of_a_kind_read_from_a_card_of_known_type_is_a_type_counter(
    hand, follows, monkeypatch
):
    """count(zone, card.suit) in the branch of an offer for one card type: the kind is
    known as the code is compiled, so it is counted from the zone's per-type counts with
    no loop over the kind's types; the options are the generic count's."""
    from rulespec.interpreter import evaluate

    text = _follow_if("count(hand(current), card.suit) >= 2")

    def offered():
        state = laid_out(load_spec("ranks.yaml", text), hand=hand)
        source = "".join(
            line
            for listing in state.game.exprs.listings
            if listing.rule == "play"
            for line in listing.lines
        )
        return [o for o in state.legal_labels() if o != "pass"], "_count_types" in source

    assert offered() == (follows, False)
    monkeypatch.setattr(evaluate.Compiler, "_known_kind", lambda self, kind: None)
    assert offered() == (follows, True)


def test_the_tables_of_an_aggregate_reading_the_card_offered_are_compiled_once(monkeypatch):
    """any(d.suit == card.suit for d in trick) in an offer: its table by card type is
    made by one function compiled for the node, called with each type offered."""
    from rulespec.interpreter import evaluate

    made = []
    tables = evaluate.Compiler._tables
    monkeypatch.setattr(
        evaluate.Compiler, "_tables", lambda self, *args: made.append(args) or tables(self, *args)
    )
    text = _follow_if("any(d.suit == card.suit for d in trick)")
    state = laid_out(load_spec("ranks.yaml", text), hand=HAND, trick=["blue_low"])
    assert sorted(state.legal_labels()) == ["follow blue_mid", "pass"]
    # one compiled for the four card types offered (the card as a parameter), whatever
    # others the rules' other code needs
    assert [typed for _, _, typed in made].count(["card"]) == 1


CLANS = """
rulespec: 1
name: Clans
players: {min: 2, max: 2}
hand: hand
deck:
  build:
    - card: "{colour}_{value}"
      each:
        colour: [red, blue, green, yellow, purple, brown]
        value: {from: 1, to: 9}
zones:
  draw: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
conditions:
  best:
    params: {o: cards}
    value: ITEMS
turn:
  - step: s
    effect: if best(hand(current)) > 0 { end_game() } else { move(top(draw, 1), hand(current)) }
end_conditions:
  out:
    when: size(draw) == 0
    effect: end_game()
"""
RUNS = "sum(sum(count(x.value == w and x.colour == col for x in {cards}) for w in range(64)) for col in {kinds})"


def test_an_aggregate_over_a_propertys_values_or_a_few_cards_costs_so_many_passes():
    """A Schotten Totten designer's rule was refused: RS413 counted values("colour") as
    every card type (54, not 6), values("value") as 64 numbers (not 9), and the cards of
    first(o, 3) as the deck (not 3)."""
    for kinds, cards in (('values("colour")', "o"), ("card_types", "first(o, 3)")):
        load_spec("clans.yaml", CLANS.replace("ITEMS", RUNS.format(kinds=kinds, cards=cards)))
    with pytest.raises(SpecError) as refused:  # the bound still bites past them
        load_spec("clans.yaml", CLANS.replace("ITEMS", RUNS.format(kinds="card_types", cards="o")))
    assert [d.code for d in refused.value.diagnostics] == ["RS413"]
    load_spec("clans.yaml", CLANS.replace("ITEMS", 'sum(v for v in values("value"))'))
