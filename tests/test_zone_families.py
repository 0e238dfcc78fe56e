"""Families of zones (`count: n`, `row(i)`), loops and choices over numbers and card
types (`range(n)`, `card_types`) and refills that keep the top of their source
(`refill_from: {zone, keep_top}`), on the small game tests/valid/rows.yaml. Their rules
interactions are scenarios under tests/scenarios/zones/; these tests cover the rest."""

from pathlib import Path

import pytest
from gamekit import cli, settled, zone

from rulespec import SpecError, load_spec
from rulespec.analysis import graph
from rulespec.interpreter import Game, RuleError, State
from rulespec.interpreter.agents import make_agents, play
from rulespec.table.narrate import Titles, narrate

SPEC = Path(__file__).parent / "valid" / "rows.yaml"
TEXT = SPEC.read_text()


def game(text=TEXT, n=2):
    return Game(load_spec("rows.yaml", text), n)


def laid_out(g, **zones):
    """P1 is to play; hand_P1=[...] lays out hand[P1]."""
    zones = {k.replace("_P", "[P") + "]" if "_P" in k else k: v for k, v in zones.items()}
    return State.from_layout(g, 1, zones={"draw_pile": ["low"] * 4, **zones}, current=0)


def codes(text):
    with pytest.raises(SpecError) as exc:
        load_spec("rows.yaml", text)
    return [d.code for d in exc.value.diagnostics]


def test_a_family_is_one_zone_per_index_each_with_its_label():
    s = settled(game().new_initial_state(seed=3))
    rows = [zone(s, f"row[{i}]") for i in range(3)]
    assert [len(r) for r in rows] == [1, 1, 1]  # the setup's loop dealt one card to each
    assert "row" not in s.observation(None)["zones"]


def test_a_family_is_public_to_every_seat():
    s = settled(game().new_initial_state(seed=3))
    assert s.observation(1)["zones"]["row[2]"] == zone(s, "row[2]")


def test_choosing_a_row_offers_each_index_in_order():
    s = laid_out(game(), hand_P1=["high"])
    s.apply_action("place high")
    assert s.legal_labels() == ["0", "1", "2"]
    s.apply_action("2")
    assert zone(s, "row[2]") == ["high"]


def test_an_index_worked_out_in_play_out_of_range_is_rs701():
    g = game(TEXT.replace("choose(current) i from range(3)", "choose(current) i from range(4)"))
    s = laid_out(g, hand_P1=["high"])
    s.apply_action("place high")
    with pytest.raises(RuleError) as exc:
        s.apply_action("3")
    assert exc.value.code == "RS701"
    assert "row(3) is out of range: the family holds 3 zones" in str(exc.value.__cause__)


def test_a_range_past_64_numbers_is_rs701():
    g = game(TEXT.replace("range(3) {\n", "range(65) {\n"))
    s = laid_out(g, hand_P1=["high"])
    with pytest.raises(RuleError) as exc:
        s.apply_action("place high")
    assert "range(65)" in str(exc.value.__cause__)


def test_range_of_zero_asks_nothing_and_the_effect_goes_on():
    g = game(TEXT.replace("choose(current) i from range(3)", "choose(current) i from range(0)"))
    s = laid_out(g, hand_P1=["high"])
    s.apply_action("place high")
    assert s.current_player() == 1 and zone(s, "discard_pile") == ["high"]


def test_every_card_type_may_be_named_even_one_nobody_holds():
    s = laid_out(game(), hand_P1=["low"], hand_P2=["mid", "high"])
    s.apply_action("name_a_card")
    assert s.legal_labels() == ["high", "low", "mid"]
    s.apply_action("mid")
    assert zone(s, "hand[P1]") == ["low", "low", "mid"]  # and the card drawn
    named = [e["option"] for e in s.log_for(1) if e["event"] == "choice" and e["kind"] == "choose"]
    assert named == ["mid"]  # said aloud: every seat's log shows the type named


def test_a_loop_over_card_types_binds_a_kind_each_pass():
    text = TEXT.replace(
        """      choose(current) k from card_types {
        move(of(hand(next(current)), k), hand(current))
      }""",
        """      for k in card_types { if count(hand(current), k) > 0 { score(current) += 1 } }""",
    )
    s = laid_out(game(text), hand_P1=["low", "high", "high"])
    s.apply_action("name_a_card")
    assert s.observation(None)["counters"]["score[P1]"] == 2  # low and high, once each


PAUSING = TEXT.replace(
    """      choose(current) k from card_types {
        move(of(hand(next(current)), k), hand(current))
      }""",
    """      for i in range(2) {
        choose(current) k from card_types { move(of(hand(next(current)), k), row(i)) }
      }""",
)


def test_a_loop_over_numbers_that_pauses_resumes_with_the_next_number():
    s = laid_out(game(PAUSING), hand_P1=["low"], hand_P2=["mid", "high"])
    s.apply_action("name_a_card")
    s.apply_action("mid")
    copy = s.clone()
    s.apply_action("high")
    assert zone(s, "row[0]") == ["mid"] and zone(s, "row[1]") == ["high"]
    copy.apply_action("high")
    assert copy.key() == s.key()


def test_a_refill_moves_all_but_the_kept_cards():
    s = laid_out(game(), hand_P1=["low"], discard_pile=["high", "mid", "low"], draw_pile=[])
    s = settled(s)
    assert zone(s, "discard_pile") == ["high"]
    assert sorted(zone(s, "hand[P1]") + zone(s, "draw_pile")) == ["low", "low", "mid"]


def test_the_short_refill_form_still_moves_every_card():
    text = TEXT.replace(
        "refill_from: {zone: discard_pile, keep_top: 1}", "refill_from: discard_pile"
    )
    s = settled(laid_out(game(text), hand_P1=["low"], discard_pile=["high", "mid"], draw_pile=[]))
    assert zone(s, "discard_pile") == []
    assert load_spec("rows.yaml", text).zone("draw_pile").refill_keep == 0


@pytest.mark.parametrize(
    "old, new, code",
    [
        ("move(card, row(i))", "move(card, row(-1))", "RS211"),
        ("move(card, row(i))", "move(card, row(current))", "RS204"),
        ("move(card, row(i))", "move(card, row(i, 1))", "RS203"),
        ("choose(current) i from range(3)", "choose(current) i from 3", "RS204"),
        (
            "for i in range(3) { move(top(draw_pile, 1), row(i)) }",
            "for i in range(3) { move(top(draw_pile, 1), hand(i)) }",
            "RS204",
        ),
        ("for i in range(3)", "for i in card_types", "RS204"),
        (
            "refill_from: {zone: discard_pile, keep_top: 1}",
            "refill_from: {zone: row, keep_top: 1}",
            "RS402",
        ),
        (
            "refill_from: {zone: discard_pile, keep_top: 1}",
            "refill_from: {zone: discard_pile, keep_top: -1}",
            "RS104",
        ),
        ("row: {count: 3,", "row: {count: 0,", "RS104"),
        (
            "draw_pile: {visibility: hidden, ordered: true, start: true,",
            "draw_pile: {visibility: hidden, ordered: true, count: 2, start: true,",
            "RS402",
        ),
    ],
)
def test_misuse_is_a_positioned_error(old, new, code):
    assert TEXT.count(old) >= 1
    assert code in codes(TEXT.replace(old, new, 1))


def test_the_graph_counts_a_familys_reads_and_moves_under_its_name():
    g = graph.build(load_spec(SPEC))
    edges = set(g.edges(keys=True))
    assert ("action:place", "zone:row", "moves_to") in edges
    assert ("zone:row", "action:place", "moves_from") in edges
    assert ("setup", "zone:row", "moves_to") in edges


@pytest.mark.parametrize(
    "draw",
    [
        "choose(current) r from row if size(r) > 0 { move(top(r, 1), hand(current)) }",
        "for r in row { move(top(r, 1), hand(current)) }",
        "let r = row(2); move(top(r, 1), hand(current))",
        "choose(current) r from row { choose(current) c from top(r, 2) { move(c, hand(current)) } }",
    ],
)
def test_the_graph_moves_out_of_every_zone_a_zone_local_may_be(draw):
    """A Splendor designer's draw from the top of a pile chosen from a family showed a
    read of the family and no move out of it."""
    g = graph.build(load_spec("rows.yaml", drawn_by(draw)))
    assert g.has_edge("zone:row", "step:draw", key="moves_from")
    assert g.has_edge("step:draw", "zone:hand", key="moves_to")


def test_the_graph_moves_out_of_the_zones_passed_to_a_procedure():
    text = drawn_by("take_top(row(1))").replace(
        "\nend_conditions:",
        "\nprocedures:\n  take_top:\n    params: {z: zone}\n"
        "    effect: move(top(z, 1), hand(current))\n\nend_conditions:",
    )
    g = graph.build(load_spec("rows.yaml", text))
    assert g.has_edge("zone:row", "step:draw", key="moves_from")
    assert g.has_edge("step:draw", "zone:hand", key="moves_to")


def drawn_by(effect: str) -> str:
    """rows.yaml, its draw step's effect replaced."""
    old = "effect: move(top(draw_pile, 1), hand(current))"
    assert TEXT.count(old) == 1
    return TEXT.replace(old, f"effect: {effect}")


def test_lint_finds_nothing_wrong_with_the_game():
    code, out, _ = cli("lint", SPEC)
    assert code == 0, out


def test_the_narration_names_a_row_by_its_number():
    s = laid_out(game(), hand_P1=["high"])
    s.apply_action("place high")
    s.apply_action("1")
    assert "  high: the discard pile -> row 1" in narrate(s.log_for(None), Titles())


def test_random_games_keep_the_invariants_and_clones_key_alike():
    g = game(n=3)

    def on_step(state):
        state.check_invariants()
        assert state.clone().key() == state.key()

    for seed in range(20):
        s = play(g.new_initial_state(seed=seed), make_agents(["random"], 3, seed), on_step)
        assert s.is_terminal() and s.reason in ("enough", "turn_limit")


# --- families by a card property (`by: suit`), on tests/valid/suit_columns.yaml --------

COLUMNS = (Path(__file__).parent / "valid" / "suit_columns.yaml").read_text()


def columns_error(old, new):
    assert COLUMNS.count(old) == 1, old
    with pytest.raises(SpecError) as exc:
        load_spec("suit_columns.yaml", COLUMNS.replace(old, new))
    return [(d.code, d.message, d.hint) for d in exc.value.diagnostics]


def test_a_family_by_a_property_has_a_member_per_value_titled_by_it():
    g = Game(load_spec("suit_columns.yaml", COLUMNS), 2)
    assert g.spec.zone("discard").count == 3
    assert g.spec.zone("discard").titles == ("red discards", "blue discards", "gold discards")
    labels = [s.label for s in g.slots if s.zone.name == "column"]
    assert labels[:3] == ["column[P1][0]", "column[P1][1]", "column[P1][2]"]


def test_a_table_laid_out_names_a_family_by_a_property_by_value_too():
    """A Lost Cities designer's `State.from_layout` refused `discard[red]`, which a
    scenario takes (python.md says from_layout is what scenarios do)."""
    g = Game(load_spec("suit_columns.yaml", COLUMNS), 2)
    state = State.from_layout(
        g,
        zones={"discard[blue]": ["blue_3"], "column[P1][gold]": ["gold_1"]},
        counters={"laid[P1][gold]": 1},
    )
    seen = state.observation(None)
    assert seen["zones"]["discard[1]"] == ["blue_3"] and seen["zones"]["column[P1][2]"] == [
        "gold_1"
    ]
    assert seen["counters"]["laid[P1][2]"] == 1
    with pytest.raises(ValueError, match=r"'discard\[red\]' and 'discard\[0\]' name one place"):
        State.from_layout(g, zones={"discard[red]": ["red_1"], "discard[0]": ["red_2"]})


@pytest.mark.parametrize(
    "old, new, code, said",
    [
        ("by: suit, ordered: true, visibility: public, title", "by: rank, ordered: true, "
         "visibility: public, title", "RS204", "by: 'rank' must be a card property whose values "
         "are card types or tags (its values are int)"),
        ("by: suit, ordered: true, visibility: public, title", "by: colour, ordered: true, "
         "visibility: public, title", "RS204", "(no card declares it)"),
        ("by: suit, ordered: true, visibility: public, title", "by: suit, count: 3, ordered: "
         "true, visibility: public, title", "RS104", "'discard' has both count and by"),
        ("to: discard(card.suit)", "to: discard(blue_3)", "RS211",
         "zone family 'discard' has one zone for each value of 'suit': 'blue_3' is not one"),
        ("to: discard(card.suit)", "to: discard(no_kind)", "RS211",
         "zone family 'discard' has one zone for each value of 'suit': 'no_kind' is not one"),
        ("suit: [red, blue, gold]", "suit: [red, blue, gold, 3]", "RS406", "property 'suit' mixes"),
    ],
)  # fmt: skip
def test_a_family_by_a_property_is_checked_as_it_loads(old, new, code, said):
    found = columns_error(old, new)  # one error: the family's uses say no more
    assert [c for c, _, _ in found] == [code]
    assert said in found[0][1]


def test_a_family_by_a_property_indexed_by_a_kind_that_is_none_of_its_values_is_rs701():
    text = COLUMNS.replace("to: discard(card.suit)", "to: discard(kind_of(card))")
    g = Game(load_spec("x.yaml", text), 2)
    s = State.from_layout(g, 1, zones={"hand[P1]": ["red_1"], "pile": ["red_2"]}, current=0)
    with pytest.raises(RuleError) as exc:
        s.apply_action("toss red_1")
    assert exc.value.code == "RS701"
    assert (
        "zone family 'discard' has no zone for a kind that is none of the values of 'suit' "
        "(red, blue, gold)"
    ) in str(exc.value.__cause__)


# --- families sized by a parameter (`count: rows`), on tests/valid/three_rows.yaml -----

ROWS_BY_PLAYERS = (
    (Path(__file__).parent / "valid" / "three_rows.yaml")
    .read_text()
    .replace("row: {count: 3,", "row: {count: rows,")
    .replace("zones:\n", 'parameters:\n  rows: {default: 3, players: {"2": 2}}\nzones:\n', 1)
)


@pytest.mark.parametrize(
    "players, labels", [(2, ["row[0]", "row[1]"]), (3, ["row[0]", "row[1]", "row[2]"])]
)
def test_a_family_sized_by_a_parameter_has_that_many_members_at_each_player_count(players, labels):
    g = Game(load_spec("rows.yaml", ROWS_BY_PLAYERS), players)
    assert [s.label for s in g.slots if s.zone.name == "row"] == labels
    assert g.spec.zone("row").titles == ("left row", "middle row", "right row")[: len(labels)]
    s = play(g.new_initial_state(seed=1), make_agents(["random"], players, 1))
    assert s.is_terminal()


def test_a_family_sized_by_a_parameter_counts_as_using_it(tmp_path):
    (tmp_path / "rows.yaml").write_text(ROWS_BY_PLAYERS)
    code, out, _ = cli("lint", tmp_path / "rows.yaml")
    assert code == 0 and "RL101" not in out, out


@pytest.mark.parametrize(
    "old, new, said",
    [
        ("row: {count: rows,", "row: {count: rowz,",
         "count: 'rowz' is neither a number nor a parameter"),
        ('players: {"2": 2}}', 'players: {"2": 0}}',
         "count: parameter 'rows' is 0 with 2 players: a family holds 1 to 64"),
    ],
)  # fmt: skip
def test_a_family_sized_by_a_wrong_parameter_is_one_error(old, new, said):
    with pytest.raises(SpecError) as exc:
        load_spec("rows.yaml", ROWS_BY_PLAYERS.replace(old, new))
    assert [(d.code, d.message) for d in exc.value.diagnostics] == [("RS204", said)]


def test_an_index_read_from_another_property_of_none_of_the_values_is_rs211():
    text = COLUMNS.replace(
        "        rank: {from: 1, to: 5}\n",
        "        rank: {from: 1, to: 5}\n      props:\n        shade: {suit: {red: warm, blue: cool, gold: warm}}\n",
    ).replace("to: discard(card.suit)", "to: discard(card.shade)")
    with pytest.raises(SpecError) as exc:
        load_spec("suit_columns.yaml", text)
    ((code, message),) = [(d.code, d.message) for d in exc.value.diagnostics]
    assert code == "RS211" and "its index reads 'shade', none of whose values is one" in message


def test_two_values_naming_the_same_cards_are_refused():
    text = """
rulespec: 1
name: Same Cards
players: {min: 2, max: 2}
deck:
  cards:
    a: {count: 4, props: {goes: b}}
    b: {count: 4, tags: [bee], props: {goes: bee}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  spot: {by: goes, visibility: public}
setup:
  effect: move(top(pile, 1), spot(b))
turn:
  - step: wait
    effect: move(top(pile, 1), spot(0))
end_conditions:
  out: {when: size(pile) == 0, effect: end_game()}
"""
    with pytest.raises(SpecError) as exc:
        load_spec("same.yaml", text)
    assert [(d.code, d.message) for d in exc.value.diagnostics] == [
        ("RS204", "by: values 'b' and 'bee' of 'goes' name the same cards, so a card's 'goes' "
         "could not tell their zones apart"),
    ]  # fmt: skip


def test_a_scenario_misnaming_a_member_of_a_by_family_is_told_each_place_s_value(tmp_path):
    from rulespec.table.scenarios import run

    scenario = tmp_path / "by.yaml"
    spec = Path(__file__).parent / "valid" / "suit_columns.yaml"
    scenario.write_text(f"spec: {spec}\nplayers: 2\ntable:\n  zones:\n    discard[5]: [red_1]\n")
    (failure,) = run(scenario).failures
    assert (
        "did you mean one of discard[0] to discard[2]? (by suit: [0] red, [1] blue, [2] gold; "
        "a value names its place too: discard[red] is discard[0])"
    ) in failure


# --- index_of, on tests/valid/closed_rows.yaml ----------------------------------------

CLOSED = (Path(__file__).parent / "valid" / "closed_rows.yaml").read_text()


def test_index_of_a_zone_in_no_family_written_out_is_rs204():
    text = CLOSED.replace("closed(index_of(r)) = 1", "closed(index_of(pile)) = 1")
    with pytest.raises(SpecError) as exc:
        load_spec("closed_rows.yaml", text)
    assert [(d.code, d.message) for d in exc.value.diagnostics] == [
        ("RS204", "index_of() gives a zone's place in its family: 'pile' is no family")
    ]


def test_index_of_a_zone_in_no_family_worked_out_in_play_is_rs701():
    text = CLOSED.replace("closed(index_of(r)) = 1", "closed(index_of(zone_of(top(pile, 1)))) = 1")
    g = Game(load_spec("closed_rows.yaml", text), 2)
    s = State.from_layout(g, 1, zones={"row[0]": ["tile"], "pile": ["tile"]}, current=0)
    s.apply_action("take")
    with pytest.raises(RuleError) as exc:
        s.apply_action("row[0]")
    assert "index_of() of a zone that is in no family of zones" in str(exc.value.__cause__)


def test_a_variant_may_size_a_family_down_and_diff_names_the_parameter(tmp_path):
    base, variant, fixed = tmp_path / "rows.yaml", tmp_path / "fewer.yaml", tmp_path / "three.yaml"
    base.write_text(ROWS_BY_PLAYERS)
    variant.write_text("rulespec: 1\nextends: rows.yaml\nparameters:\n  rows: 2\n")
    fixed.write_text(ROWS_BY_PLAYERS.replace("row: {count: rows,", "row: {count: 3,"))
    assert cli("validate", variant)[0] == 0  # its titles, written for 3, cut to 2
    out = cli("diff", base, fixed)[1]
    assert "changed  zone 'row': count rows (3) -> 3" in out, out
    # the parameter's new value resizes it: said (a Bohnanza designer's third field was
    # a bare "changed")
    out = cli("diff", base, variant)[1]
    assert "changed  zone 'row': count rows (3) -> rows (2)" in out, out


def test_a_spread_zone_is_shown_whole_however_long():
    """A Lost Cities designer's expedition of eight cards read "8 cards, top Yellow 9" at
    the table, where a player counts every card, wagers and all: `spread: true` shows
    an ordered zone whole; the discards, a plain pile, still show their top."""
    from rulespec.table.narrate import Titles
    from rulespec.table.view import table, table_lines

    g = Game(load_spec("suit_columns.yaml", COLUMNS), 2)
    eight = ["red_1", "red_2", "red_3", "red_4", "red_5", "blue_1", "blue_2", "blue_3"]
    state = State.from_layout(
        g,
        zones={
            "column[P1][red]": eight,
            "discard[gold]": ["gold_1", "gold_2", "gold_3", "gold_4", "gold_5", "blue_4", "blue_5"],
        },
    )
    text = "\n".join(table_lines(table(state.observation(1), Titles.of(g.spec))))
    # laid out top first, listed bottom first, as a pile is
    assert "red column Blue 3, Blue 2, Blue 1, Red 5, Red 4, Red 3, Red 2, Red 1 (top)" in text
    assert "Gold discards: 7 cards, top Gold 1" in text, text
    assert columns_error(
        "discard: {by: suit, ordered: true,", "discard: {by: suit, spread: true,"
    ) == [
        (
            "RS104",
            "'spread' is for an ordered zone, which the table shows by its top card once it "
            "is long; 'discard' is not ordered, and is shown whole already",
            "leave out spread, or add ordered: true",
        )
    ]


def test_a_long_line_of_the_table_is_broken_between_cards():
    """A Kings in the Corner designer's spread corner of thirteen cards printed as one
    line of 239 characters: a line of the table past 120 is broken after a comma,
    between two cards, the rest indented under it."""
    from rulespec.table.view import WIDE, table_lines

    cards = [{"title": f"Card number {i}"} for i in range(20)]
    zone = {"title": "the corner", "cards": cards, "size": 20, "pile": True, "top_only": False}
    view = {"seat": None, "over": False, "current": "P1", "turn": 1, "zones": [zone | {"revealed": []}],
            "seats": [], "counters": [], "values": []}  # fmt: skip
    lines = table_lines(view)[1:]
    assert len(lines) > 1 and all(len(line) <= WIDE for line in lines), lines
    assert lines[0].startswith("  The corner: Card number 0, ") and lines[0].endswith(",")
    assert lines[1].startswith("      Card number ") and lines[-1].endswith("Card number 19 (top)")
    assert ", ".join(line.strip().rstrip(",") for line in lines).count("Card number") == 20
