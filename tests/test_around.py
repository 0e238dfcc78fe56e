"""A play step offered round the table (`around`): each player in turn plays or passes,
`current` while asked, until all pass in a row or all but the last to play."""

from __future__ import annotations

import random

import pytest
from gamekit import ROOT, zone

from rulespec import load_spec
from rulespec.interpreter import Game, State
from rulespec.lang.diagnostics import SpecError
from rulespec.table.encoding import ActionSpace
from rulespec.table.narrate import Titles
from rulespec.table.view import table, table_lines

CLIMB = ROOT / "tests" / "valid" / "climb.yaml"
HANDS = {
    "hand[P1]": ["card_2", "card_8"],
    "hand[P2]": ["card_5", "card_3"],
    "hand[P3]": ["card_1", "card_1"],
}


def _game(tmp_path, old="", new="", n=3) -> Game:
    text = CLIMB.read_text().replace(old, new) if old else CLIMB.read_text()
    return Game(load_spec(tmp_path / "climb.yaml", text=text), n)


def _asked(state) -> str:
    return f"P{state.current_player() + 1}"


def test_all_pass_goes_round_until_every_player_has_passed(tmp_path):
    game = _game(tmp_path, "around: all_but_one", "around: all_pass")
    state = State.from_layout(game, zones=HANDS)
    state.apply_action("climb card_2")
    state.apply_action("climb card_5")
    # P3, with nothing above a 5, is asked all the same: pass is its one option, so a
    # pass looks alike whether the player could not play or would not (a Durak
    # designer's table told the two apart, `no_play` against `pass`)
    assert (_asked(state), state.legal_labels()) == ("P3", ["pass"])
    state.apply_action("pass")
    assert _asked(state) == "P1"
    state.apply_action("pass")
    # all but one is not enough: P2, the last to play, is asked too (and cannot climb)
    assert (_asked(state), state.legal_labels()) == ("P2", ["pass"])
    state.apply_action("pass")
    passes = [e["player"] for e in state.log_for(None) if e["event"] == "pass"]
    assert passes == [2, 0, 1] and not any(e["event"] == "no_play" for e in state.log_for(None))
    assert state.turn == 2 and _asked(state) == "P2"  # P2 took the trick and leads


def test_the_turn_is_its_players_again_after_the_round(tmp_path):
    game = _game(tmp_path)
    state = State.from_layout(game, zones=HANDS, current=2)
    assert _asked(state) == "P3"
    state.apply_action("climb card_1")
    state.apply_action("climb card_2")  # P1
    state.apply_action("climb card_5")  # P2
    state.apply_action("pass")  # P3 cannot beat it: pass is all it may do
    state.apply_action("pass")  # P1
    events = [e for e in state.log_for(None) if e["event"] in ("turn", "set_next")]
    assert events[-2:] == [
        {"player": 1, "event": "set_next", "turn": 1},
        {"player": 1, "event": "turn", "turn": 2},
    ]


def test_the_table_heading_names_the_turns_player_not_the_one_asked(tmp_path):
    """Two designers' `play` headings read "Turn 2: P2's turn (you are P2)" while P2
    was only asked to answer P1's lead: the observation names the turn's player
    (`turn_of`) while another is asked, and the table's heading says it, and who is
    asked (the one asked is the viewer: another seat's view says only whose turn it is)."""
    state = State.from_layout(_game(tmp_path), zones=HANDS, current=2)
    assert "turn_of" not in state.observation(2)  # the turn's player is asked first
    state.apply_action("climb card_1")
    assert _asked(state) == "P1"
    for seat in (None, 0, 1):
        assert state.observation(seat)["turn_of"] == "P3"
        assert state.observation(seat)["current"] == "P1"
    view = table(state.observation(0), Titles.of(state.game.spec))
    assert table_lines(view)[0] == "== Turn 1: P3's turn, P1 chooses (you are P1)"
    view = table(state.observation(1), Titles.of(state.game.spec))
    assert table_lines(view)[0] == "== Turn 1: P3's turn (you are P2)"


def test_end_turn_in_a_play_ends_the_turn_of_the_turns_player(tmp_path):
    game = _game(tmp_path, "effect: last = current\n\nend", "effect: end_turn()\n\nend")
    state = State.from_layout(game, zones=HANDS)
    state.apply_action("pass")  # P1
    state.apply_action("climb card_5")  # P2 ends the turn: it was P1's, so P2 plays next
    turns = [e["player"] for e in state.log_for(None) if e["event"] == "turn"]
    assert turns == [0, 1]


def test_end_turn_in_a_pass_effect_ends_the_whole_turn_of_the_turns_player(tmp_path):
    """A Crazy Eights designer found that `end_turn()` in a pass_effect at a step
    offered round the table ends the turn of the turn's player, whoever passed: the
    round stops, and the turn's later steps (here the scoring) do not run."""
    game = _game(
        tmp_path, "around: all_but_one\n", "around: all_but_one\n    pass_effect: end_turn()\n"
    )
    state = State.from_layout(game, zones=HANDS)
    state.apply_action("climb card_2")  # P1
    state.apply_action("pass")  # P2 passes: P1's turn ends, unscored
    log = state.log_for(None)
    assert [e["player"] for e in log if e["event"] == "turn"] == [0, 1]
    assert not any(e.get("counter", "").startswith("points") for e in log)  # unscored
    assert _asked(state) == "P2" and zone(state, "trick") == ["card_2"]


def test_a_paused_round_copies_and_keys_alike(tmp_path):
    game = _game(tmp_path)
    state = State.from_layout(game, zones=HANDS)
    state.apply_action("climb card_2")
    copy = state.clone()
    assert copy.key() == state.key() and copy.legal_labels() == state.legal_labels()
    copy.apply_action("pass")
    assert copy.key() != state.key() and _asked(state) == "P2"


def test_random_games_keep_the_invariants_and_every_label_is_numbered():
    game = Game(load_spec(CLIMB), 4)
    space = ActionSpace(game)
    for seed in range(20):
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            state.check_invariants()
            if state.is_chance_node():
                state.sample_chance()
                continue
            for label in state.legal_labels():
                space.action_of(label)
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("around: all_but_one", "around: all_but_one\n    optional: true", "implied by 'around'"),
        ("around: all_but_one", "around: all_but_one\n    repeat: true", "implied by 'around'"),
        (
            "effect: last = current\n  - step: climb",
            "effect: last = current\n    around: all_pass\n  - step: climb",
            "'around' is for a play step",
        ),
    ],
)
def test_misplaced_around_is_refused(tmp_path, old, new, message):
    with pytest.raises(SpecError) as err:
        _game(tmp_path, old, new)
    found = [(d.code, d.message) for d in err.value.diagnostics]
    assert any(c == "RS104" and message in m for c, m in found), found


LEADS = ("    around: all_but_one\n", "    around: all_but_one\n    lead: true\n")


def test_a_step_that_leads_asks_the_turns_player_to_play_then_goes_round(tmp_path):
    """`lead: true`: the turn's player must play first (no pass), and the lead counts
    as the last play: once the others have passed, the leader takes the trick without
    being asked again."""
    state = State.from_layout(_game(tmp_path, *LEADS), zones=HANDS)
    assert (_asked(state), state.legal_labels()) == ("P1", ["climb card_2", "climb card_8"])
    state.apply_action("climb card_8")  # P2 and P3 have nothing above an 8: they pass
    for seat in ("P2", "P3"):
        assert (_asked(state), state.legal_labels()) == (seat, ["pass"])
        state.apply_action("pass")
    assert _asked(state) == "P1" and state.observation(None)["turn"] == 2  # P1 leads again
    assert state.observation(None)["counters"]["points[P1]"] == 1


def test_lead_is_only_for_a_step_offered_round_the_table(tmp_path):
    with pytest.raises(SpecError) as err:
        _game(tmp_path, "    around: all_but_one\n", "    lead: true\n")
    assert [(d.code, d.message.split(":")[0]) for d in err.value.diagnostics] == [
        ("RS104", "'lead' is for a step offered round the table (around)")
    ]


def test_the_graph_shows_the_step_offered_again():
    from rulespec.analysis.graph import build

    g = build(load_spec(CLIMB))
    loops = [(a, b) for a, b, k in g.edges(keys=True) if k == "repeats"]
    assert [(a.name, b.name) for a, b in loops] == [("climb", "climb")]


AUCTION = ROOT / "tests" / "valid" / "auction.yaml"


def test_one_left_ends_when_the_last_to_play_leaves_the_table(tmp_path):
    """A review: once the rule became 'every player still in but the last to play has
    settled', a last bidder who left the table (eliminated in its own play) was no
    longer in, the rule never held, and the one player left was asked to outbid a bid
    that was its own. With one player left and someone having played, the step ends."""
    text = AUCTION.read_text().replace(
        "        bid = b\n        leader = current\n",
        "        bid = b\n        leader = current\n        if b == 2 { eliminate(current) }\n",
    )
    state = State.from_layout(
        Game(load_spec(tmp_path / "auction.yaml", text=text), 3),
        zones={"pile": ["lot_3", "lot_1", "lot_2"]},
    )
    for move in ("raise", "1", "pass", "raise", "2"):  # P1 bids, P2 drops, P3 bids and leaves
        state.apply_action(move)
    zones = state.observation(None)["zones"]
    assert zones["won[P3]"] == ["lot_3"] and zones["block"] == ["lot_1"]  # sold; the next lot


@pytest.mark.parametrize("spec", ["climb", "betting", "auction", "beat_or_take"])
def test_a_pass_is_logged_at_the_step_that_asked_it(spec):
    """A review: a pass round the table was logged (and narrated) at the step before
    the one asking, the turn flow having stepped back to ask again."""
    game = Game(load_spec(ROOT / "tests" / "valid" / f"{spec}.yaml"), 3)
    rng, passes = random.Random(7), 0
    for seed in range(5):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            asker, options = state.decision_asker(), state.legal_labels()
            choice, before = rng.choice(options), len(state.log_for(None))
            state.apply_action(choice)
            if choice == "pass" and asker.startswith("turn."):
                made = next(e for e in state.log_for(None)[before:] if e["event"] == "pass")
                assert made["step"] == asker.removeprefix("turn."), (asker, made)
                passes += 1
    assert passes > 0


HARBOUR = ROOT / "tests" / "valid" / "harbour.yaml"


def test_each_once_asks_every_player_once_the_turns_player_first(tmp_path):
    """`around: each_once`: the turn's player, then each other, once each (as every
    player in turn may buy from the harbour); a buy opens nothing again."""
    text = HARBOUR.read_text().replace("    around: others_once", "    around: each_once")
    game = Game(load_spec(tmp_path / "harbour.yaml", text=text), 3)
    state = State.from_layout(game, zones={"pile": ["ship_4", "ship_1", "ship_2"] * 2})
    asked = []
    while state.turn == 1:
        asked.append(_asked(state))
        state.apply_action(state.legal_labels()[0])  # a buy while there is one to make
    assert asked == ["P1", "P2", "P3"]
    assert [e["player"] for e in state.log_for(None) if e["event"] == "play"] == [0, 1, 2]


def test_lead_does_not_go_with_others_once(tmp_path):
    """`lead` makes the turn's player play first; `others_once` never asks them."""
    text = HARBOUR.read_text().replace(
        "    around: others_once", "    around: others_once\n    lead: true"
    )
    with pytest.raises(SpecError) as exc:
        load_spec(tmp_path / "harbour.yaml", text=text)
    (d,) = exc.value.diagnostics
    assert d.code == "RS104" and "others_once" in d.message and "each_once" in d.hint


@pytest.mark.parametrize("around", ["each_once", "others_once"])
def test_once_asks_every_player_though_play_turns_back(tmp_path, around):
    """A review's buy that ends with reverse(): the step asked the next player in the
    new direction, found them asked, and ended with two players never offered it.
    It goes on to the next player not yet asked, whichever way play goes."""
    text = HARBOUR.read_text().replace(
        "      coins(host) += 1", "      coins(host) += 1\n      reverse()"
    )
    text = text.replace("    around: others_once", f"    around: {around}")
    game = Game(load_spec(tmp_path / "harbour.yaml", text=text), 4)
    state = State.from_layout(game, zones={"pile": ["ship_4", "ship_1", "ship_2"] * 4})
    asked = []
    while state.turn == 1:
        asked.append(_asked(state))
        state.apply_action(state.legal_labels()[0])  # a buy, which turns play back
    others = ["P2", "P4", "P3"] if around == "others_once" else ["P1", "P4", "P2", "P3"]
    assert asked == others
