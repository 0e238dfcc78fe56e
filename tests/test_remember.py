"""Remembered cards (`remember:`): the card just drawn, kept from one step to a later
one, on the small game tests/valid/draw_and_play.yaml."""

import random
from pathlib import Path

import pytest
from gamekit import cli

from rulespec import SpecError, load_spec
from rulespec.analysis import graph
from rulespec.interpreter import Game, State
from rulespec.interpreter.agents import make_agents, play

SPEC = Path(__file__).parent / "valid" / "draw_and_play.yaml"
TEXT = SPEC.read_text()


def game(text=TEXT, n=2):
    return Game(load_spec("draw_and_play.yaml", text), n)


def laid_out(g, hand, pile):
    """P1's turn begins: P1 holds `hand` and draws the first card of `pile` (top first)."""
    return State.from_layout(g, 1, zones={"hand[P1]": hand, "pile": pile}, current=0)


def test_only_a_card_of_the_type_just_drawn_may_be_played():
    s = laid_out(game(), ["plain"], ["star", "plain"])
    assert s.legal_labels() == ["pass", "play_drawn star"]
    assert s.observation(None)["remembered"]["drawn"] == ["star"]


def test_a_turn_memory_is_forgotten_as_the_next_turn_begins():
    s = laid_out(game(), ["plain"], ["star", "plain", "plain"])
    s.apply_action("play_drawn star")
    seen = s.observation(None)["remembered"]
    assert seen["drawn"] == ["plain"]  # P2's draw, not P1's star
    assert seen["last_played[P1]"] == ["star"]  # until: game: kept


def test_a_turn_memory_left_unset_is_empty_and_offers_nothing():
    text = TEXT.replace(
        "      drawn = top(pile, 1)\n      move(drawn, hand(current))",
        "      move(top(pile, 1), hand(current))",
    )
    s = laid_out(game(text), ["plain"], ["star", "plain", "plain"])
    assert s.legal_labels() == ["pass"]


def test_only_the_spectator_sees_what_the_rules_remember():
    s = laid_out(game(), ["plain"], ["star", "plain"])
    assert "remembered" not in s.observation(0) and "remembered" not in s.observation(1)
    assert not any("star" in str(e) for e in s.log_for(1) if e.get("event") != "move")


def test_games_without_memories_show_no_memory():
    assert "remembered" not in Game(
        load_spec(Path(__file__).parent / "valid" / "rows.yaml"), 2
    ).new_initial_state(seed=1).observation(None)


def test_a_memory_is_part_of_the_state_key():
    a = laid_out(game(), ["plain"], ["star", "plain"])
    b = laid_out(game(), ["star"], ["plain", "star"])  # same cards in hand, another drawn
    assert a.observation(None)["zones"]["hand[P1]"] == b.observation(None)["zones"]["hand[P1]"]
    assert a.key() != b.key()
    assert a.clone().key() == a.key()


@pytest.mark.parametrize(
    "old, new, code",
    [
        ("last_played(current) = card", "last_played = card", "RS204"),
        ("last_played(current) = card", "last_played(current) = 1", "RS204"),
        ("      drawn = top(pile, 1)", "      drawn(current) = top(pile, 1)", "RS204"),
        ("played(current) += 1", "played(current) += size(drawn) + drawn", "RS204"),
        ("  drawn: {until: turn}", "  drawn: {until: round}", "RS104"),
        ("  drawn: {until: turn}", "  pile: {until: turn}", "RS202"),
    ],
)
def test_misuse_is_a_positioned_error(old, new, code):
    assert old in TEXT
    with pytest.raises(SpecError) as exc:
        load_spec("draw_and_play.yaml", TEXT.replace(old, new))
    assert code in [d.code for d in exc.value.diagnostics]


def test_the_graph_shows_who_remembers_and_who_reads():
    edges = set(graph.build(load_spec(SPEC)).edges(keys=True))
    assert ("step:draw", "memory:drawn", "remembers") in edges
    assert ("action:play_drawn", "memory:drawn", "reads") in edges
    assert ("action:play_drawn", "memory:last_played", "remembers") in edges


def test_lint_and_a_simulation_run_clean():
    assert cli("lint", SPEC)[0] == 0
    code, out, _ = cli("simulate", "--games", "10", SPEC)
    assert code == 0 and "three_played" in out


def test_random_games_keep_the_invariants_and_clones_key_alike():
    g = game(n=3)

    def on_step(state):
        state.check_invariants()
        assert state.clone().key() == state.key()

    for seed in range(15):
        assert play(
            g.new_initial_state(seed=seed), make_agents(["random"], 3, seed), on_step
        ).is_terminal()


def test_a_trigger_that_reads_a_memory_sees_it_forgotten():
    """P1 plays a star, remembered until the turn ends; a trigger waits for it to be
    forgotten. Forgetting must mark the trigger for a new look, as a change does."""
    text = (
        TEXT.replace(
            "      drawn = top(pile, 1)\n      move(drawn, hand(current))",
            "      move(top(pile, 1), hand(current))",
        )
        .replace("    if: kind_of(card) == kind_of(drawn)  # cards of a type are alike (C-3)\n", "")
        .replace(
            "last_played: {per_player: true, until: game}",
            "last_played: {per_player: true, until: turn}",
        )
        .replace("counters:", "counters:\n  stars: {initial: 0}")
        .replace(
            "end_conditions:",
            """triggers:
  remembered:
    when: size(last_played(seat(0))) > 0 and stars == 0
    effect: stars = 1
  forgotten:
    when: size(last_played(seat(0))) == 0 and stars == 1
    effect: stars = 2

end_conditions:""",
        )
    )
    s = laid_out(game(text), ["plain"], ["star", "plain", "plain", "plain"])
    s.apply_action("play_drawn star")
    assert s.current_player() == 1
    assert s.observation(None)["counters"]["stars"] == 2


def test_a_redeal_keeps_a_remembered_card_where_the_rules_put_it():
    """P1 has just drawn; P2 cannot see P1's hand, so its re-deal deals that card again.
    The memory then names the card lying where the drawn one lay, in P1's hand, as a
    paused effect's cards do, never a card that is now somewhere else."""
    g, moved = game(), 0
    for seed in range(30):
        s = laid_out(g, ["plain", "star"], ["star", "plain", "plain", "star"])
        twin = s.clone()
        twin.redeal(1, random.Random(seed))
        seen = twin.observation(None)
        hand, drawn = seen["zones"]["hand[P1]"], seen["remembered"]["drawn"]
        assert drawn[0] in hand, (seed, drawn, hand)
        moved += drawn != ["star"]
        twin.check_invariants()
    assert moved  # some re-deals did put another card where the drawn one lay
