"""`simulate --plot` and `diff --plot` (issue 28): charts that answer a designer's
questions, checked in the SVG they write (its words are text): how games end, their
lengths with the turn limit marked and labelled, seat wins against the fair share, the
agents named, and OLD and NEW side by side."""

import json
from xml.etree import ElementTree

import pytest
from gamekit import GAMES, cli

pytest.importorskip("matplotlib")
SVG = "{http://www.w3.org/2000/svg}"
LONG_5 = GAMES / "variants" / "take_the_gold" / "long_5.yaml"


def words(path) -> list[str]:
    root = ElementTree.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_simulate_plot_names_the_turn_limit_the_fair_share_and_the_agents(tmp_path):
    svg = tmp_path / "pw.svg"
    code, out, err = cli("simulate", "pirates_wild", "--games", "6", "--plot", svg, "--json")
    assert code == 0, err
    text = words(svg)
    assert "Pirates Wild: 6 games, 4 players, agents random" in text
    # most games unwon: the seats' wins spread evenly, not 25 %, which every seat is below
    report = json.loads(out)
    fair = 100 * sum(s["share"] for s in report["seat_wins"].values()) / 4
    assert fair < 25 and {"how games end", "game length", f"fair share {fair:.0f}%"} <= set(text)
    assert "turn limit (no rule ended it)" in text  # random agents rarely finish it
    limit = next(t for t in text if t.startswith("turn limit 2000: "))
    assert limit.endswith("%)") and "games (" in limit
    assert "seat win rate (95% interval, agents random)" in text


def test_one_agent_per_seat_is_named_under_its_seat(tmp_path):
    svg = tmp_path / "ttg.svg"
    argv = ["simulate", "take_the_gold", "--games", "20", "--players", "3"]
    code, _out, err = cli(*argv, "--agents", "greedy,random,first", "--plot", svg)
    assert code == 0, err
    text = words(svg)
    assert {"P1", "greedy", "P2", "random", "P3", "first", "fair share 33%"} <= set(text)
    # Take the Gold's games end long before the limit: it is said, not drawn across
    assert any(t.startswith("turn limit ") and t.endswith("past every game") for t in text)


def test_a_solitaire_has_no_fair_share_nor_turn_order(tmp_path):
    """A Klondike designer's chart drew "fair share 0%" and the report listed "turn
    order wins 1st": one seat has no share to measure against, nor an order."""
    svg = tmp_path / "patience.svg"
    patience = GAMES.parent / "tests" / "valid" / "patience_pairs.yaml"
    code, out, err = cli("simulate", patience, "--games", "20", "--plot", svg)
    assert code == 0 and "Warning" not in err, err
    assert "seat wins        P1" in out and "turn order wins" not in out
    assert not [t for t in words(svg) if "fair share" in t]


def test_diff_plot_puts_old_and_new_side_by_side(tmp_path):
    svg = tmp_path / "diff.svg"
    code, out, err = cli(
        "diff", "take_the_gold", LONG_5, "--simulate", "40", "--plot", svg
    )  # fmt: skip
    assert code == 0, err
    assert "verdict" in out
    text = words(svg)
    title = (
        "OLD Take the Gold -> NEW Take the Gold (long_5): 40 games each, 4 players, agents random"
    )
    assert title in text
    assert text.count("OLD") == 3 and text.count("NEW") == 3  # a legend in each chart
    assert any(t.startswith("OLD turn limit ") for t in text)
    assert any(t.startswith("NEW turn limit ") for t in text)
    assert {"coin_win", "ship_destroyed", "fair share 25%"} <= set(text)


def test_diff_plot_needs_games_to_draw(tmp_path):
    code, out, err = cli("diff", "take_the_gold", LONG_5, "--plot", tmp_path / "d.svg")
    assert (code, out) == (2, "")
    assert err == "rulespec diff: --plot draws the games of --simulate N: give it as well\n"
    assert not (tmp_path / "d.svg").exists()


def test_diff_plot_checks_its_format_before_any_game(tmp_path):
    code, _out, err = cli("diff", "take_the_gold", LONG_5, "--simulate", "5", "--plot", "chart")
    assert code == 2 and "--plot: chart: its suffix names the image's format" in err
