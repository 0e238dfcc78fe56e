"""What a seat's browser draws (rulespec/serve/views.py), without a server: options in
words with card titles and seat names, the rule that fired, zones as areas."""

from gamekit import game_for

from rulespec.serve import views


def _played(seed=1, decisions=40):
    """A two-player Take the Gold played by always taking the last option, and the
    (label, text) of every option offered on the way."""
    game = game_for("take_the_gold", 2)
    state, table, seen = game.new_initial_state(seed=seed), views.Table(game.spec, 2), set()
    for _ in range(decisions):
        while state.is_chance_node():
            state.sample_chance()
        if state.is_terminal():
            break
        options = state.legal_actions()
        seen |= {(o.label, views.option_text(o, game.type_names, table)) for o in options}
        state.apply_action(options[-1])
    return state, table, seen


def test_options_read_with_card_titles_and_seat_names():
    _, _, seen = _played()
    assert {
        ("pass", "Pass"),
        ("no reaction", "Do not react"),
        ("pirate -> P2", "Play Pirate (pirate) at P2"),
        ("captain_raid -> P2", "Play Pirate Captain (captain raid) at P2"),
        ("officer_block", "Answer with Officer (officer block)"),
    } <= seen


def test_the_rule_that_fired_is_a_node_of_the_rules_graph():
    state, table, _ = _played()
    assert state.is_terminal()
    fired = table.fired(state.log_for(None))
    assert fired == f"end:{state.reason}"
    assert fired in {n["id"] for n in table.graph["nodes"]}
    assert table.fired([]) is None


def test_zones_are_areas_and_hidden_ones_carry_no_card():
    state, table, _ = _played(decisions=3)
    view = views.view(state, 0, table)
    assert [p["seat"] for p in view["players"]] == ["P1", "P2"]  # the seat's own first
    mine, theirs = (p["zones"][0] for p in view["players"])
    assert mine["cards"] is not None and len(mine["cards"]) == mine["count"]
    assert theirs["cards"] is None and theirs["count"] == len(
        state.observation(None)["zones"]["hand[P2]"]
    )
    assert {z["name"]: z["cards"] for z in view["shared"]}["draw_pile"] is None
    assert view["narration"][0] == "  the draw pile is shuffled"


def test_the_rules_graph_without_graphviz_is_its_nodes_and_edges(monkeypatch):
    game = game_for("take_the_gold", 2)
    monkeypatch.setattr(views.shutil, "which", lambda name: None)
    graph = views.Table(game.spec, 2).graph
    assert graph["svg"] is None
    ids = {n["id"] for n in graph["nodes"]}
    assert "action:pirate" in ids and all(e["source"] in ids for e in graph["edges"])
