"""The expression constructs of Language v3 (issue 26): aggregates over numbers, card types
and sets of cards, `seats`, `zone_of`, `sort`, `first`, `nth` and `combinations`, each
case an expression on a table laid out by hand and the value it must give; their type
errors, costs, run-time bounds, and what the analyses and the game's watchers see."""

import pytest
from gamekit import ROOT, cli
from show_score import show
from test_card_aggregates import HAND, RANKS, laid_out, ranks

from rulespec import SpecError, load_spec
from rulespec.analysis import graph as graphs
from rulespec.analysis import lint
from rulespec.interpreter import Game, State, runtime
from rulespec.lang import ir

FIFTEENS = ROOT / "tests" / "valid" / "fifteens.yaml"


@pytest.mark.parametrize(
    "expr, hand, trick, value",
    [
        # aggregates over numbers
        ("sum(i * 2 for i in range(4))", [], [], 12),
        ("max(i for i in range(5) if i < 3)", [], [], 2),
        ("min(i + 1 for i in range(0))", [], [], 0),
        ("count(i % 2 == 0 for i in range(5))", [], [], 3),
        (
            "if all(i < 3 for i in range(3)) and not any(i > 2 for i in range(3)) then 1 else 0",
            [],
            [],
            1,
        ),
        ("sum(i for i in filter(i % 2 == 1 for i in range(6)))", [], [], 9),
        ("sum(i for i in argmax(i % 3 for i in range(6)))", [], [], 7),
        ("sum(i * j for i in range(3) for j in range(3))", [], [], None),  # see below
        # aggregates over card types
        ("count(count(hand(me), k) > 0 for k in card_types)", HAND, [], 3),
        (
            "size(union(of(hand(me), k) for k in card_types if count(of(hand(me), k), red) == 0))",
            HAND,
            [],
            1,
        ),
        (
            "sum(count(hand(me), k) for k in argmax(count(hand(me), k) for k in card_types))",
            HAND + ["red_low"],
            [],
            2,
        ),
        # every seat
        ("size(seats)", [], [], 2),
        # a spec's own name hides the constant (RS212): it was read as every seat
        ("sum(seats + 1 for seats in range(3))", [], [], 6),
        # the kind that matches no card
        ("count(hand(me), no_kind) + size(of(hand(me), no_kind))", HAND, [], 0),
        ("if kind_of(trick) == no_kind then 1 else 0", [], [], 1),
        ("if kind_of(trick) == no_kind then 1 else 0", [], ["blue_low"], 0),
        ("if first(seats, 1) == current then 1 else 0", [], [], 1),
        ("sum(size(hand(q)) for q in seats)", HAND, [], 3),
        # sort, first, nth: the best cards by a key
        ("sum(c.rank for c in first(sort(0 - c.rank for c in hand(me)), 2))", HAND, [], 14),
        ("nth(sort(c.rank for c in hand(me)), 1).rank", HAND, [], 5),
        ("nth(sort(c.rank for c in hand(me)), 0).rank", HAND, [], 2),
        ("nth(hand(me), 7).rank + size(nth(hand(me), -1))", HAND, [], 0),
        ("size(first(hand(me), 10)) * 10 + size(first(hand(me), -2))", HAND, [], 30),
        (
            "top(trick, 1).rank * 10 + nth(sort(c.rank for c in trick if c.rank > 2), 0).rank",
            [],
            ["blue_low", "red_high", "red_low"],
            33,
        ),
        # sort keeps the order of equal keys; over players, the players in order
        ("size(sort(0 for c in hand(me)))", HAND, [], 3),
        ("if first(sort(size(hand(q)) for q in seats), 1) == me then 1 else 0", HAND, [], 0),
        # combinations
        ("count(sum(c.rank for c in s) == 7 for s in combinations(hand(me), 2))", HAND, [], 1),
        ("count(true for s in combinations(hand(me), 2))", HAND, [], 3),
        ("count(true for s in combinations(hand(me), 0))", HAND, [], 1),
        ("count(true for s in combinations(hand(me), 4))", HAND, [], 0),
        ("sum(count(true for s in combinations(hand(me), k)) for k in range(4))", HAND, [], 8),
        ("max(sum(c.rank for c in s) for s in combinations(hand(me), 2))", HAND, [], 14),
        (
            "size(union(s for s in argmax(sum(c.rank for c in s) for s in combinations(hand(me), 2))))",
            HAND,
            [],
            2,
        ),
        # where a card lies
        ("if zone_of(top(trick, 1)) == trick then 1 else 0", [], ["blue_low"], 1),
        ("if zone_of(trick) == trick then 1 else 0", [], [], 0),  # no card: no zone
        ("if zone_of(argmax(c.rank for c in hand(me))) == hand(me) then 1 else 0", HAND, [], 1),
        ("count(zone_of(c) == hand(me) for c in hand(me) + trick)", HAND, ["blue_low"], 3),
    ],
)
def test_v3_expressions(expr, hand, trick, value):
    if value is None:  # aggregates take one `for`: nest them instead
        with pytest.raises(SpecError):
            ranks(expr)
        return
    assert laid_out(ranks(expr), hand, trick).evaluate(0) == value


def test_seats_includes_those_out_in_turn_order_from_the_current_player():
    spec = ranks("sum(seat_number(q) for q in seats)")
    three = Game(spec, 3)
    state = State.from_layout(three, 1, zones={}, out=[1], current=2)
    order = three.exprs.expr(ir.Local(spec.span, "players", "seats", builtin=True))
    assert order(state, {}) == (2, 0, 1)  # P2 is out, and still a seat
    state.reverse()  # as the rules do: the direction of play flips
    assert order(state, {}) == (2, 1, 0)


@pytest.mark.parametrize(
    "expr, message",
    [
        (
            "sum(i for i in 3)",
            "the items of sum() must be players, cards, ints, kinds, cardsets or zones, got int",
        ),
        (
            "size(combinations(hand(me), 2))",
            "argument 1 of size() must be cards, players, ints or kinds, got cardsets",
        ),
        (
            "size(first(3, 1))",
            "argument 1 of first() must be cards, players, kinds or ints, got int",
        ),
        ("size(sort(c.face for c in hand(me)))", "the body of sort() must be int, got bool"),
        ("size(nth(3, 1))", "argument 1 of nth() must be cards, players, kinds or ints, got int"),
        (
            "if zone_of(me) == trick then 1 else 0",
            "argument 1 of zone_of() must be cards, got player",
        ),
        ("sum(i for i in combinations(hand(me), 2))", "the body of sum() must be int, got cards"),
        ("if range(2) == 2 then 1 else 0", "'==' operand must be int, got ints"),
    ],
)
def test_v3_type_errors_are_one_error_each_in_the_file(expr, message):
    with pytest.raises(SpecError) as exc:
        ranks(expr)
    found = exc.value.diagnostics
    assert len(found) == 1 and found[0].code == "RS204", [str(d) for d in found]
    assert message in found[0].message
    assert found[0].span.file == "ranks.yaml" and found[0].span.line > 1


def test_a_set_of_cards_can_be_chosen_and_looped_over():
    """Chosen (a `cards` decision, see tests/scenarios/moves/several_cards_are_chosen_as_one_set.yaml)
    and looped over, as here."""
    text = FIFTEENS.read_text(encoding="utf-8")
    chosen = load_spec(
        "f.yaml",
        text.replace(
            "effect: laid += 1",
            "effect: choose(current) s from combinations(hand(current), 2) { laid += size(s) }",
        ),
    )
    assert any(
        isinstance(s, ir.ChooseCard) and s.source.type == "cardsets"
        for s in ir.walk_statements(chosen.effect_blocks())
    )
    looped = load_spec(
        "f.yaml",
        text.replace(
            "effect: laid += 1",
            "effect: for s in combinations(table(current), 2) { laid += size(s) }",
        ),
    )
    state = State.from_layout(
        Game(looped, 2),
        1,
        zones={
            "hand[P1]": ["hearts_1", "hearts_4"],
            "hand[P2]": ["spades_1"],
            "table[P1]": ["hearts_2", "hearts_3"],
        },
    )
    state.apply_action("lay hearts_1")  # 3 pairs of the 3 cards on the table: 6
    assert state.observation(None)["counters"]["laid"] == 6


def test_combinations_past_the_bound_stop_the_game_at_the_rule(tmp_path):
    path = tmp_path / "many.yaml"
    path.write_text(
        FIFTEENS.read_text(encoding="utf-8").replace(
            "    shuffle(pile)\n",
            "    shuffle(pile)\n    laid = count(true for s in combinations(pile, 5))\n",
        ),
        encoding="utf-8",
    )
    code, _, err = cli("run", path)
    assert code == 2
    assert "error RS701" in err and "65,780 sets, more than 1024" in err
    assert f"{path}:43:" in err  # the line of the let, in the file


def test_combinations_come_in_the_cards_order():
    assert runtime._combinations([7, 8, 9], 2) == [[7, 8], [7, 9], [8, 9]]
    assert runtime._combinations([7, 8], 3) == [] and runtime._combinations([7], -1) == []


def test_nested_combinations_cost_too_much_to_validate():
    text = FIFTEENS.read_text(encoding="utf-8").replace(
        "    shuffle(pile)\n",
        "    shuffle(pile)\n"
        "    laid = count(count(true for t in combinations(pile, 2)) > 0 "
        "for s in combinations(pile, 2))\n",
    )
    with pytest.raises(SpecError) as exc:
        load_spec("f.yaml", text)
    assert [d.code for d in exc.value.diagnostics] == ["RS413"]


def test_a_set_of_k_cards_costs_k_passes_so_fifteens_validate():
    """`sum(… for c in s)` over one set of combinations(cards, 3) is 3 passes, not a
    pass per card of the deck."""
    spec = load_spec(FIFTEENS)
    assert spec.notices == ()


def test_a_condition_reading_zone_of_is_checked_after_any_move(tmp_path):
    """zone_of reads where a card lies, which any move may change: the game's watchers
    mark its rule for every zone."""
    path = tmp_path / "where.yaml"
    path.write_text(
        FIFTEENS.read_text(encoding="utf-8").replace(
            "triggers:\n",
            "triggers:\n"
            "  on_a_row:\n"
            "    when: any(zone_of(c) == row(2) for c in table(current)) and laid == 0\n"
            "    effect: laid = 100\n",
        ),
        encoding="utf-8",
    )
    game = Game(load_spec(path), 2)
    key = game.keys[next(i for i, t in enumerate(game.automatic) if t.ir.name == "on_a_row"), None]
    assert all(game.watch_slots[slot] >> key & 1 for slot in range(len(game.slots)))
    state = State.from_layout(
        game,
        1,
        zones={
            "hand[P1]": ["hearts_1", "hearts_2"],
            "hand[P2]": ["spades_1"],
            "row[2]": ["hearts_9"],
        },
    )
    state.apply_action("swap hearts_1 hearts_9 from row[2]")
    assert state.observation(None)["counters"]["laid"] == 0  # hearts_9 left row 2


def test_zone_of_is_read_of_any_zone_for_the_graph_and_lint():
    spec = load_spec(FIFTEENS)
    touches = graphs.touches_of(spec.actions[1].to)
    assert ("zone", graphs.ANY_ZONE) in touches.reads
    g = graphs.build(spec)
    assert graphs.NodeId("zone", graphs.ANY_ZONE) not in g  # no zone of that name
    assert graphs.overlaps({("zone", "row")}, {("zone", graphs.ANY_ZONE)})
    assert not graphs.overlaps({("counter", "laid")}, {("zone", graphs.ANY_ZONE)})
    # laid is a counter the spec keeps for the tests that rewrite its action: RL116
    assert [f.code for f in lint.static(spec) if f.code != "RL116"] == []


def test_the_fifteens_game_plays_to_an_end_by_its_rule():
    for seed in range(5):
        code, out, err = cli("run", FIFTEENS, "--seed", seed, "--players", 4)
        assert code == 0, err
        assert 'by the end condition "One left"' in out


def test_a_player_chooses_a_zone_of_a_family_among_those_a_filter_keeps():
    """Choosing a zone of a family is choosing its index: from a filter over the range,
    only the rows that hold cards are offered."""
    text = FIFTEENS.read_text(encoding="utf-8").replace(
        "effect: laid += 1",
        "effect: |\n"
        "      choose(current) i from filter(size(row(i)) > 0 for i in range(3)) {\n"
        "        move(top(row(i), 1), table(current))\n"
        "      }",
    )
    game = Game(load_spec("f.yaml", text), 2)
    state = State.from_layout(
        game,
        1,
        zones={
            "hand[P1]": ["hearts_1", "hearts_4"],
            "hand[P2]": ["spades_1"],
            "row[0]": ["hearts_9"],
            "row[2]": ["hearts_7", "hearts_8"],
        },
    )
    state.apply_action("lay hearts_1")
    assert state.legal_labels() == ["0", "2"]
    state.apply_action("2")
    assert state.observation(None)["zones"]["table[P1]"] == ["hearts_1", "hearts_7"]


def test_a_card_type_is_named_among_those_a_filter_keeps():
    """ "Name any card but a low one": a choice over the card types a filter keeps."""
    spec = ranks(
        text=RANKS.replace(
            """      choose(current) mine from hand(current) {
        if mine.face { move(mine, trick) } else { move(mine, pile) }
      }""",
            """      choose(current) k from filter(k != red_low and k != blue_low for k in card_types) {
        move(of(hand(current), k), trick)
      }""",
        )
    )
    state = laid_out(spec, HAND)
    state.apply_action("pass")
    assert state.legal_labels() == ["blue_mid", "red_high"]
    state.apply_action("red_high")
    assert state.observation(None)["zones"]["trick"] == ["red_high"]


def test_a_game_paused_in_a_loop_over_sets_of_cards_has_a_key_and_clones():
    """A loop over combinations that asks a player keeps the sets left, and a local may
    hold sets of cards: the state's key and clone take both (search and exploration)."""
    text = FIFTEENS.read_text(encoding="utf-8").replace(
        "effect: laid += 1",
        "effect: |\n"
        "      let pairs = combinations(table(current), 2)\n"
        "      for s in pairs {\n"
        '        choose(current) { "count" { laid += size(s) } "skip" { } }\n'
        "      }",
    )
    game = Game(load_spec("f.yaml", text), 2)
    state = State.from_layout(
        game,
        1,
        zones={
            "hand[P1]": ["hearts_1", "hearts_4"],
            "hand[P2]": ["spades_1"],
            "table[P1]": ["hearts_2", "hearts_3"],
        },
    )
    state.apply_action("lay hearts_1")  # 3 pairs: asked three times
    assert state.legal_labels() == ["count", "skip"]
    key = state.key()
    assert hash(key) == hash(state.clone().key())
    state.apply_action("count")
    assert state.key() != key
    copy = state.clone()
    copy.apply_action("count")
    copy.apply_action("skip")
    assert copy.observation(None)["counters"]["laid"] == 4
    assert state.legal_labels() == ["count", "skip"]  # the original goes on by itself


def test_a_redeal_for_a_searching_seat_takes_the_sets_of_cards_a_paused_effect_holds():
    """An agent that searches deals the cards it cannot see anew; the sets of cards a
    paused loop over combinations holds follow their cards, as a card local does."""
    import random

    text = FIFTEENS.read_text(encoding="utf-8").replace(
        "effect: laid += 1",
        "effect: |\n"
        "      let pairs = combinations(hand(next(current)) + table(current), 2)\n"
        "      for s in pairs {\n"
        '        choose(current) { "count" { laid += size(s) } "skip" { } }\n'
        "      }",
    )
    game = Game(load_spec("f.yaml", text), 2)
    state = State.from_layout(
        game,
        1,
        zones={
            "hand[P1]": ["hearts_1", "hearts_4"],
            "hand[P2]": ["spades_1", "spades_2"],
            "table[P1]": ["hearts_2"],
        },
    )
    state.apply_action("lay hearts_1")
    copy = state.clone()
    copy.redeal(0, random.Random(1))
    copy.check_invariants()
    for _ in range(6):
        copy.apply_action("count")
    assert copy.observation(None)["counters"]["laid"] == 12  # 6 pairs of 2 cards


SHOW = ROOT / "tests" / "valid" / "the_show.yaml"
SUITS = ("hearts", "diamonds", "clubs", "spades")


def test_the_show_written_with_combinations_scores_as_a_python_scorer():
    import random

    game = Game(load_spec(SHOW), 2)
    deck = [(s, r) for s in SUITS for r in range(1, 14)]
    rng = random.Random(26)
    hands = [rng.sample(deck, 5) for _ in range(2000)]
    hands += [  # the rare hands: a double run, a five-card flush, nobs, 29
        [("hearts", 3), ("spades", 3), ("hearts", 4), ("hearts", 5), ("clubs", 9)],
        [("clubs", 2), ("clubs", 6), ("clubs", 9), ("clubs", 12), ("clubs", 1)],
        [("hearts", 11), ("clubs", 2), ("spades", 7), ("clubs", 9), ("hearts", 4)],
        [("hearts", 5), ("spades", 5), ("clubs", 5), ("diamonds", 11), ("diamonds", 5)],
    ]
    for cards in hands:
        hand, starter = cards[:4], cards[4]
        state = State.from_layout(
            game,
            zones={
                "hand[P1]": [f"{s}_{r}" for s, r in hand],
                "starter": [f"{starter[0]}_{starter[1]}"],
            },
        )
        assert state.evaluate(0) == show(hand, starter), cards
    assert show(hands[-1][:4], hands[-1][4]) == 29
