"""Named reaction windows (`windows`, `react(players, window)`): a window offers only
the reactions it lists; several windows may answer one action."""

from __future__ import annotations

import random

import pytest
from gamekit import ROOT

from rulespec import load_spec
from rulespec.analysis.diff import changes
from rulespec.analysis.graph import build
from rulespec.interpreter import Game, State
from rulespec.lang.diagnostics import SpecError

CTB = ROOT / "tests" / "valid" / "challenge_then_block.yaml"
HANDS = {"hand[P1]": ["duke"], "hand[P2]": ["veto", "duke"], "hand[P3]": ["captain"]}


def _spec(tmp_path, old="", new=""):
    text = CTB.read_text()
    if old:
        assert old in text
        text = text.replace(old, new)
    return load_spec(tmp_path / "ctb.yaml", text=text)


def _steal(spec) -> State:
    state = State.from_layout(Game(spec, 3), zones=HANDS, counters={"coins[P2]": 2})
    state.apply_action("steal -> P2")
    return state


def test_each_window_offers_only_its_reactions(tmp_path):
    state = _steal(load_spec(CTB))
    assert state.legal_labels() == ["challenge_steal", "no reaction"]
    copy = state.clone()
    assert copy.key() == state.key()
    for _ in range(2):
        state.apply_action("no reaction")
    assert state.legal_labels() == ["claim_block", "no reaction", "veto_block"]
    assert copy.legal_labels() == ["challenge_steal", "no reaction"]


def test_without_a_window_every_answer_is_offered(tmp_path):
    spec = _spec(
        tmp_path,
        "react(others(current), challenges)\n      if taken == 1 { react(target",
        "react(others(current))\n      if taken == 1 { react(target",
    )
    state = _steal(spec)
    assert state.legal_labels() == [
        "challenge_steal",
        "claim_block",
        "no reaction",
        "veto_block",
    ]


def test_a_window_with_no_answer_to_what_is_answered_opens_nothing(tmp_path):
    spec = _spec(tmp_path, "offers: [claim_block, veto_block]", "offers: [challenge_tax]")
    state = _steal(spec)
    for _ in range(2):
        state.apply_action("no reaction")
    assert state.decision_kind() == "play" and state.current_player() == 1  # P2's turn
    assert state.observation(None)["counters"]["coins[P1]"] == 1


def test_random_games_hold_their_invariants():
    game = Game(load_spec(CTB), 4)
    for seed in range(20):
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            state.check_invariants()
            if state.is_chance_node():
                state.sample_chance()
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_help_finds_a_window_by_its_name_or_title(tmp_path):
    """A Coup designer's `help blocks` and `help block window` were "no card, tag, rule,
    ...", though the window had a text and the decision was headed by its title."""
    from rulespec.table.narrate import Titles
    from rulespec.table.seat import help_text

    said = "    title: Block window\n    text: The player stolen from may block the steal.\n"
    titles = Titles.of(_spec(tmp_path, "    title: Block window\n", said))
    for name in ("blocks", "Block Window"):
        assert (
            help_text(name, titles) == "Block window: The player stolen from may block the steal."
        )
    assert help_text("challenges", Titles.of(_spec(tmp_path))) == (
        "Challenge window: no text in the rules"
    )


def test_the_graph_opens_only_what_the_windows_offer():
    g = build(load_spec(CTB))
    opens = sorted((a.name, b.name) for a, b, k in g.edges(keys=True) if k == "opens")
    assert opens == [
        ("steal", "challenge_steal"),
        ("steal", "claim_block"),
        ("steal", "veto_block"),
        ("tax", "challenge_tax"),
    ]


def test_diff_names_a_changed_window(tmp_path):
    new = _spec(tmp_path, "offers: [claim_block, veto_block]", "offers: [veto_block]")
    found = [(c.kind, c.name, c.what) for c in changes(load_spec(CTB), new)]
    assert found == [("window", "blocks", "changed")]


def test_a_variant_adds_a_window(tmp_path):
    variant = tmp_path / "v.yaml"
    variant.write_text(
        f"rulespec: 1\nextends: {CTB}\n"
        "add:\n  windows:\n    vetoes: {offers: [veto_block]}\n"
        "replace:\n  actions:\n    tax:\n      effect: |\n"
        "        let taken = 1\n        react(others(current), vetoes)\n"
        "        if taken == 1 { coins(current) += 2 }\n"
    )
    spec = load_spec(variant)
    assert [w.name for w in spec.windows] == ["challenges", "blocks", "vetoes"]


@pytest.mark.parametrize(
    "old, new, code, message",
    [
        ("  blocks:\n    title", "  discard:\n    title", "RS202", "duplicate name 'discard'"),
        (
            "react(others(current), challenges)\n      if taken == 1 { coins",
            "react(others(current), 2)\n      if taken == 1 { coins",
            "RS204",
            "argument 2 of react() must be window",
        ),
    ],
)
def test_bad_windows_are_refused(tmp_path, old, new, code, message):
    with pytest.raises(SpecError) as err:
        _spec(tmp_path, old, new)
    found = [(d.code, d.message) for d in err.value.diagnostics]
    assert any(c == code and message in m for c, m in found), found
