"""`rulespec graph --focus/--depth/--kind/--changes/--variant`: graphs cut down to what a
reader asks about (issue 28), counted on variants of the seed games, and rendered."""

import json
import shutil
from collections import Counter
from xml.etree import ElementTree

import pytest
from gamekit import ROOT, cli

SVG = "{http://www.w3.org/2000/svg}"


def graph(*argv) -> dict:
    code, out, err = cli("graph", *argv, "--format", "json")
    assert (code, err) == (0, ""), err
    return json.loads(out)


def counts(g: dict) -> tuple[int, int]:
    return len(g["nodes"]), len(g["edges"])


def marks(g: dict) -> dict:
    return {n["id"]: n["mark"] for n in g["nodes"] if "mark" in n}


def test_variant_applies_as_in_run():
    assert counts(graph("pirates_wild")) == (45, 184)
    g = graph("pirates_wild", "--variant", "reverse")
    assert counts(g) == (46, 188)
    assert "action:kraken_reverse" in {n["id"] for n in g["nodes"]}


def test_focus_keeps_the_rule_and_its_neighbours():
    g = graph("pirates_wild", "--variant", "reverse", "--focus", "kraken_reverse")
    assert marks(g) == {"action:kraken_reverse": "focus"}
    assert sorted(n["id"] for n in g["nodes"]) == [
        "action:kraken_reverse",
        "card:kraken",
        "step:play",
        "zone:discard_pile",
        "zone:hand",
    ]
    assert counts(g) == (5, 4)


def test_depth_widens_the_neighbourhood():
    one = graph("take_the_gold", "--focus", "draw")
    two = graph("take_the_gold", "--focus", "draw", "--depth", "2")
    zero = graph("take_the_gold", "--focus", "draw", "--depth", "0")
    assert counts(zero) == (1, 0)
    assert counts(one) == (7, 17)
    assert counts(two)[0] > counts(one)[0]


def test_a_name_several_parts_share_means_the_rule(tmp_path):
    # in the advanced variant, coin_win is a step; ids name any part exactly
    g = graph("take_the_gold", "--variant", "advanced", "--focus", "coin_win", "--depth", "0")
    assert [n["id"] for n in g["nodes"]] == ["step:coin_win"]
    assert [
        n["id"] for n in graph("take_the_gold", "--focus", "zone:hand", "--depth", "0")["nodes"]
    ] == ["zone:hand"]


def test_kind_keeps_those_nodes_and_the_edges_between_them():
    g = graph("pirates_wild", "--kind", "rules")
    kinds = Counter(n["kind"] for n in g["nodes"])
    assert set(kinds) <= {"setup", "step", "action", "reaction", "end", "trigger", "turn_order"}
    ids = {n["id"] for n in g["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in g["edges"])
    # no path through a zone is collapsed: only flow, offers, opens and feeds are left
    assert {e["kind"] for e in g["edges"]} <= {"next", "repeats", "offers", "opens", "feeds"}
    assert counts(g) == (len(ids), len(g["edges"])) and counts(g)[1] < 127
    both = graph("pirates_wild", "--kind", "rules,zones")
    assert counts(both)[0] == len(ids) + Counter(n["kind"] for n in both["nodes"])["zone"]


def test_changes_shows_what_a_variant_changed_and_what_it_touches():
    g = graph("pirates_wild", "--variant", "reverse", "--changes", "pirates_wild")
    assert marks(g) == {"step:play": "changed", "action:kraken_reverse": "added"}
    assert counts(g) == (15, 40)
    added = {(e["source"], e["target"], e["kind"]) for e in g["edges"] if e.get("mark")}
    assert added == {
        ("card:kraken", "action:kraken_reverse", "enables"),
        ("zone:hand", "action:kraken_reverse", "moves_from"),
        ("step:play", "action:kraken_reverse", "offers"),
        ("action:kraken_reverse", "zone:discard_pile", "moves_to"),
    }


def test_changes_shows_a_removed_part_as_it_was():
    g = graph("take_the_gold", "--variant", "advanced", "--changes", "take_the_gold")
    assert marks(g) == {"step:coin_win": "added", "end:coin_win": "removed"}
    assert counts(g) == (10, 26)
    removed = {(e["source"], e["target"]) for e in g["edges"] if e.get("mark") == "removed"}
    assert ("setup", "step:draw") in removed  # the turn now starts at coin_win
    assert ("end:coin_win", "zone:hand") in removed
    assert ("end:coin_win", "card:gold_coin") in removed  # the card it counted


def test_a_card_is_linked_to_the_rules_that_read_it_by_name_or_tag():
    """An analyst's --focus gold_coin --depth 3 found the card alone: no rule that
    counts it was linked to it. A rule that names a card, or a tag it carries, reads it."""
    g = graph("take_the_gold", "--focus", "gold_coin")
    reads = {e["source"] for e in g["edges"] if e["target"] == "card:gold_coin"}
    assert reads == {"action:captain_raid", "end:coin_win", "end:ship_destroyed"}
    pw = graph("pirates_wild", "--focus", "coins")  # the Kraken takes `of(ship(p), treasure)`
    assert ("action:kraken_raid", "card:coins", "reads") in {
        (e["source"], e["target"], e["kind"]) for e in pw["edges"]
    }


def test_changes_reads_its_base_from_standard_input(monkeypatch):
    import io

    from gamekit import GAMES

    monkeypatch.setattr("sys.stdin", io.StringIO((GAMES / "pirates_wild.yaml").read_text()))
    g = graph("pirates_wild", "--variant", "reverse", "--changes", "-")
    assert marks(g) == {"step:play": "changed", "action:kraken_reverse": "added"}


def test_a_spec_against_itself_changes_nothing():
    assert counts(graph("take_the_gold", "--changes", "take_the_gold")) == (0, 0)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--focus", "play_crow"],
            "rulespec graph: --focus: no part named 'play_crow' in the graph of Pirates Wild "
            "(did you mean 'play_crew'?)\n",
        ),
        (
            ["--kind", "rule"],
            "rulespec graph: --kind: unknown kind 'rule' (one of rules, definitions, cards, "
            "zones, counters, memories, params, goals) (did you mean 'rules'?)\n",
        ),
        (
            ["--depth", "2"],
            "rulespec graph: --depth is the reach of --focus: give --focus RULE as well\n",
        ),
        (
            ["--kind", "zones", "--focus", "play_crew"],
            "rulespec graph: --focus: 'play_crew' is action:play_crew, of a kind this view "
            "leaves out\n",
        ),
    ],
)
def test_a_view_asked_of_nothing_is_a_usage_error_with_a_hint(argv, message):
    assert cli("graph", "pirates_wild", *argv) == (2, "", message)


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot")
def test_a_focused_view_renders_as_svg_with_its_rule(tmp_path):
    svg = tmp_path / "kraken.svg"
    code, _out, err = cli(
        "graph", "pirates_wild", "--variant", "reverse", "--focus", "kraken_reverse",
        "--render", svg, "-o", tmp_path / "kraken.dot",
    )  # fmt: skip
    assert (code, err) == (0, "")
    root = ElementTree.parse(svg).getroot()
    assert root.tag == f"{SVG}svg"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "kraken_reverse" in texts and "play" in texts
    nodes = [n for n in root.iter(f"{SVG}g") if n.get("class") == "node"]
    assert len(nodes) == 5
    # the focused rule is filled with the focus colour
    fills = {
        p.get("fill")
        for n in nodes
        for p in n.iter()
        if p.tag in (f"{SVG}ellipse", f"{SVG}polygon")
    }
    assert "#ffd966" in fills


def test_the_setup_node_is_placed_at_its_key():
    # it was placed at the spec's first key, where `setup:` is line 41
    lines = (ROOT / "games" / "take_the_gold.yaml").read_text().splitlines()
    (node,) = [n for n in graph("games/take_the_gold.yaml")["nodes"] if n["id"] == "setup"]
    assert lines[int(node["span"].split(":")[1]) - 1].startswith("setup:")


def edges_of(g: dict, node: str) -> set[tuple[str, str]]:
    return {(e["kind"], e["target"]) for e in g["edges"] if e["source"] == node}


def test_the_round_starter_is_a_part_of_its_own():
    """A Love Letter trial's graph drew `rounds.starter`'s read of last_winner from the
    round's setup, whose effect never names it."""
    g = graph("tests/valid/high_card_rounds.yaml")
    (node,) = [n for n in g["nodes"] if n["id"] == "round:starter"]
    line = (
        (ROOT / "tests/valid/high_card_rounds.yaml")
        .read_text()
        .splitlines()[int(node["span"].split(":")[1]) - 1]
    )
    assert line.strip() == "starter: seat(last_winner)"
    assert edges_of(g, "round:starter") == {("reads", "counter:last_winner")}
    assert ("reads", "counter:last_winner") not in edges_of(g, "round:setup")


def test_a_spec_without_a_setup_has_no_setup_node():
    """A Hearts trial's graph showed a `setup` node placed at the spec's first line,
    for a spec with no `setup:`; its rounds, or its first step, begin the flow."""
    g = graph("tests/valid/round_afresh.yaml")
    assert "setup" not in {n["id"] for n in g["nodes"]}
    assert not [e for e in g["edges"] if "setup" in (e["source"], e["target"])]
    g = graph("tests/valid/gem_bank.yaml")
    assert "setup" not in {n["id"] for n in g["nodes"]}
    assert edges_of(g, "step:take") >= {("next", "step:take")}


def test_a_player_taken_out_reaches_the_end_that_counts_who_is_in():
    """An Exploding Kittens designer's graph left `last one standing` (`size(players) <=
    1`) unconnected: nothing drew the elimination that makes it hold. Who is in is a
    node where a rule takes a player out; a trigger that does feeds the end."""
    g = graph("tests/valid/last_card_out.yaml", "--focus", "last_standing", "--depth", "2")
    assert ("reads", "players") in edges_of(g, "end:last_standing")
    assert ("takes_out", "players") in edges_of(g, "reaction:challenge")
    g = graph("tests/valid/fifteens.yaml")
    assert {("takes_out", "players"), ("feeds", "end:one_left")} <= edges_of(
        g, "trigger:out_of_cards"
    )


def test_who_is_in_is_no_part_of_a_game_that_takes_no_player_out():
    g = graph("tests/valid/bid_then_play.yaml")
    assert "players" not in {n["id"] for n in g["nodes"]}
