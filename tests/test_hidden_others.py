"""`visibility: others`, a hand held facing the other players: every seat sees the zone
but its owner, which is shown nothing of its own cards (its observation, log,
narration, JSON output, served table, vectors, OpenSpiel strings) unless they are
revealed to it. A rules scenario is tests/scenarios/hidden/a_hand_facing_out_is_seen_by_all_but_its_owner.yaml;
tests/test_hidden_information.py's generated specs use the visibility too."""

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest
from gamekit import cli, edited, spec_errors, zone

from rulespec import load_spec
from rulespec.interpreter import Game, IllegalChoice, State
from rulespec.serve import views
from rulespec.table.encoding import ObservationEncoder

SPEC = Path(__file__).parent / "valid" / "facing_out.yaml"
TEXT = SPEC.read_text()
OTHERS = {"hand[P2]": ["red_2", "blue_1"], "hand[P3]": ["blue_2", "red_3"]}
PILE = ["red_3", "blue_1", "red_2"]  # top first


@cache
def game() -> Game:
    return Game(load_spec(SPEC), 3)


def laid_out(own: list[str], current: int = 0) -> State:
    """P1 holding `own`, the other hands and the pile the same whatever P1 holds."""
    zones = {"hand[P1]": own, **OTHERS, "pile": PILE}
    return State.from_layout(game(), zones=zones, current=current)


def views_of(state: State, seat: int) -> tuple:
    """Everything the seat is shown: its observation, its log, its vector, the table
    and narration it is served, its information key (OpenSpiel's information-state string)."""
    g = state.game
    return (
        state.observation(seat),
        state.log_for(seat),
        ObservationEncoder(g).encode_state(state, seat),
        views.view(state, seat, views.Table(g.spec, g.n)),
        state.information_key(seat),
    )


def test_each_seat_sees_every_hand_but_its_own():
    s = laid_out(["red_1", "red_1"])
    assert s.observation(0)["zones"]["hand[P1]"] == {"count": 2}
    assert s.observation(0)["zones"]["hand[P2]"] == ["blue_1", "red_2"]  # bottom first
    assert s.observation(1)["zones"]["hand[P1]"] == ["red_1", "red_1"]
    assert s.observation(1)["zones"]["hand[P2]"] == {"count": 2}


@pytest.mark.parametrize("seed", range(8))
def test_games_that_differ_only_in_the_owners_own_cards_look_the_same_to_it(seed):
    a, b = laid_out(["red_1", "red_1"]), laid_out(["blue_3", "blue_2"])
    assert views_of(a, 1) != views_of(b, 1)  # P2 sees P1's hand: the twins do differ
    pick, steps = random.Random(seed), 0
    while not a.is_terminal():
        seen = views_of(a, 0)
        if seen[1] != b.log_for(0):
            break  # P1 played one of its cards, or was told of them: now it knows
        assert seen == views_of(b, 0), steps
        options = a.legal_labels()
        label = options[pick.randrange(len(options))]
        a.apply_action(label)
        try:
            b.apply_action(label)
        except IllegalChoice:
            break
        steps += 1
    assert steps > 0


def test_a_redeal_deals_the_seats_own_hand_again_and_keeps_the_hands_it_sees():
    for seat in range(3):
        own, dealt = f"hand[P{seat + 1}]", set()
        for k in range(20):
            s = laid_out(["red_1", "blue_3"])
            before = s.observation(None)["zones"]
            seen = s.observation(seat)
            s.redeal(seat, random.Random(k))
            assert s.observation(seat) == seen
            after = s.observation(None)["zones"]
            assert {z: c for z, c in after.items() if z.startswith("hand") and z != own} == {
                z: c for z, c in before.items() if z.startswith("hand") and z != own
            }
            dealt.add(tuple(after[own]))
        assert len(dealt) > 1, own  # its own hand was dealt again


def test_cards_revealed_to_their_owner_stay_in_its_hand_through_a_redeal():
    s = laid_out(["red_1", "blue_3"], current=1)
    for label in ("tell", "P1", "red"):
        s.apply_action(label)
    assert s.observation(0)["zones"]["hand[P1]"] == {
        "count": 2,
        "revealed": [{"card": "red_1", "depth": 0}],
    }
    for k in range(10):
        t = s.clone()
        t.redeal(0, random.Random(k))
        assert zone(t, "hand[P1]")[1] == "red_1"  # bottom first: its place is kept too


def _draws_into_p1(narration: str) -> list[str]:
    """What a narration says came from the pile into P1's hand: the cards, or "2 cards"."""
    return [
        line.strip().split(":")[0]
        for line in narration.splitlines()
        if line.endswith("the pile -> P1's hand")
    ]


def test_the_narration_and_json_output_as_the_owner_name_none_of_its_cards():
    counted = re.compile(r"\d+ cards?")
    for seed in range(3):
        mine = _draws_into_p1(cli("run", str(SPEC), "--seed", str(seed), "--as", "P1")[1])
        theirs = _draws_into_p1(cli("run", str(SPEC), "--seed", str(seed), "--as", "P2")[1])
        assert mine and all(counted.fullmatch(d) for d in mine)
        assert theirs and not any(counted.fullmatch(d) for d in theirs)
        _, out, _ = cli("run", str(SPEC), "--seed", str(seed), "--as", "P1", "--json")
        events = json.loads(out)["events"]
        assert all(e["cards"] is None for e in events if e.get("dst") == "hand[P1]")


def test_a_team_zone_facing_out_is_seen_by_the_other_team_only():
    text = edited(
        (Path(__file__).parent / "valid" / "partners.yaml").read_text(),
        (
            "chest: {per_team: true, visibility: owner}",
            "chest: {per_team: true, visibility: others}",
        ),
    )
    s = State.from_layout(Game(load_spec("partners.yaml", text), 4), zones={"chest[odd]": ["coin"]})
    assert [s.observation(p)["zones"]["chest[odd]"] for p in range(4)] == [
        {"count": 1},
        ["coin"],
        {"count": 1},
        ["coin"],
    ]


def test_others_needs_an_owner_and_is_no_hand():
    shared = edited(TEXT, ("stack: {visibility: public}", "stack: {visibility: others}"))
    assert spec_errors(shared) == [
        ("RS402", "zone 'stack' is shared, so visibility: others has no owner to hide it from")
    ]
    hand = edited(TEXT, ("turn_limit: 60", "turn_limit: 60\nhand: hand"))
    assert [code for code, _ in spec_errors(hand)] == ["RS402"]
