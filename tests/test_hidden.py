"""Finer hidden information: reveal(cards, players), a look at the top of a pile,
insert(cards, zone, depth) and the secret `choose … from lo..hi`. Rules interactions
are scenarios under tests/scenarios/hidden/; the property that no seat is shown a
hidden card is tests/test_hidden_information.py; these tests cover the rest."""

import random
import re
from io import StringIO
from pathlib import Path

import pytest
from gamekit import cli, zone

from rulespec import SpecError, load_spec
from rulespec.analysis import graph
from rulespec.cli import main
from rulespec.interpreter import Game, RuleError, State

SPEC = Path(__file__).parent / "valid" / "peek_and_bury.yaml"
TEXT = SPEC.read_text()


def game(text=TEXT, n=3):
    return Game(load_spec("peek.yaml", text), n)


def with_turn(effect: str, n=3) -> Game:
    """Peek and Bury with one step of its own in place of the turn."""
    start, end = TEXT.index("turn:\n"), TEXT.index("end_conditions")
    return game(
        TEXT[:start]
        + "turn:\n  - step: only\n    effect: |\n      "
        + effect.replace("\n", "\n      ")
        + "\n\n"
        + TEXT[end:],
        n,
    )


def laid_out(g, pile, hands=None, **options):
    """The pile (top first), and each hand by seat, with the turn of P1 begun."""
    zones = {"pile": pile, **{f"hand[P{p + 1}]": h for p, h in enumerate(hands or ())}}
    return State.from_layout(g, 1, zones=zones, **options)


def pile_as(state, seat):
    return state.observation(seat)["zones"]["pile"]


# --- reveal -------------------------------------------------------------------------


def test_a_look_at_the_top_shows_the_cards_and_their_depth_to_that_seat_only():
    s = laid_out(game(), ["crown", "stone", "stone"], [["stone"], ["stone"], ["stone"]])
    assert pile_as(s, 0) == {
        "count": 3,
        "revealed": [{"card": "crown", "depth": 0}, {"card": "stone", "depth": 1}],
    }
    assert pile_as(s, 1) == {"count": 3}  # no `revealed` key: the shape of old observations
    assert s.observation(None)["zones"]["pile"] == ["stone", "stone", "crown"]


def test_a_reveal_to_all_shows_a_hand_to_every_seat_until_a_card_leaves_it():
    g = with_turn(
        "reveal(hand(current), players)\nchoose(current) c from hand(current) { move(c, pile) }"
    )
    s = laid_out(g, ["stone"], [["crown", "stone"], [], []])
    for seat in (1, 2):
        assert s.observation(seat)["zones"]["hand[P1]"] == {
            "count": 2,
            "revealed": [{"card": "crown"}, {"card": "stone"}],
        }  # unordered: by name
    s.apply_action("crown")
    assert s.observation(1)["zones"]["hand[P1]"] == {"count": 1, "revealed": [{"card": "stone"}]}


def test_a_shuffle_forgets_the_places_of_a_zone_s_revealed_cards_not_the_cards():
    g = with_turn(
        'reveal(top(pile, 2), current)\nchoose(current) { "mix" { shuffle(pile) } "keep" { } }'
    )
    s = laid_out(g, ["crown", "stone", "stone"], [["stone"], ["stone"], ["stone"]])
    kept = s.clone()
    kept.apply_action("keep")
    s.apply_action("mix")
    while s.chance_is_sampled():
        s.sample_chance()
    assert pile_as(kept, 0)["revealed"] == [
        {"card": "crown", "depth": 0},
        {"card": "stone", "depth": 1},
    ]
    assert pile_as(s, 0) == {"count": 3, "revealed": [{"card": "crown"}, {"card": "stone"}]}


def test_an_insert_below_the_top_forgets_the_places_of_the_zone_not_its_cards():
    g = with_turn(
        "reveal(pile, current)\nchoose(current) c from hand(current) { insert(c, pile, 1) }"
    )
    s = laid_out(g, ["crown", "stone", "stone"], [["stone"], ["stone"], ["stone"]])
    s.apply_action("stone")
    assert zone(s, "pile") == ["stone", "stone", "stone", "crown"]
    # P1 saw the three and put the fourth in, at a depth the log does not tell
    assert pile_as(s, 0) == {
        "count": 4,
        "revealed": [{"card": "crown"}, {"card": "stone"}, {"card": "stone"}, {"card": "stone"}],
    }
    assert pile_as(s, 2) == {"count": 4}


def test_what_a_seat_knows_of_a_hand_does_not_depend_on_which_unseen_card_left_it():
    # P1 gives its crown to P2, then a card of P2's, at random, goes into the pile:
    # whichever it was, P1 sees the same log, so it must see the same hand
    g = with_turn(
        "choose(current) c from hand(current) { move(c, hand(next(current))) }\n"
        "move(random(hand(next(current)), 1), pile)"
    )
    s = laid_out(g, ["stone"], [["crown"], ["stone", "stone"], []])
    s.apply_action("crown")
    assert s.observation(0)["zones"]["hand[P2]"] == {"count": 3, "revealed": [{"card": "crown"}]}
    outcomes = []
    for label in ("crown", "stone"):
        t = s.clone()
        t.apply_action(label)
        outcomes.append((t.log_for(0), t.observation(0)["zones"]["hand[P2]"]))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][1] == {"count": 2}  # the crown may be gone: P1 knows nothing now


def test_a_card_seen_leaving_takes_one_of_its_type_an_unseen_one_one_of_each():
    g = with_turn(
        "reveal(hand(current), players)\nmove(one(hand(current), stone), hand(next(current)))\n"
        'choose(current) { "done" { } }'
    )
    s = laid_out(g, ["stone"], [["stone", "stone", "crown"], [], []])
    hand = [s.observation(seat)["zones"]["hand[P1]"] for seat in (1, 2)]
    assert hand[0] == {"count": 2, "revealed": [{"card": "crown"}, {"card": "stone"}]}  # P2 got it
    assert hand[1] == {"count": 2, "revealed": [{"card": "stone"}]}  # P3 saw a card go


def test_reveals_are_in_the_key_and_the_clone():
    s = laid_out(game(), ["crown", "stone", "stone"], [["stone"], ["stone"], ["stone"]])
    unseen = laid_out(
        with_turn("move(top(pile, 0), pile)"),
        ["crown", "stone", "stone"],
        [["stone"], ["stone"], ["stone"]],
    )
    c = s.clone()
    assert c.key() == s.key() and pile_as(c, 0) == pile_as(s, 0)
    assert s.key()[-1] != unseen.key()[-1]  # the same table, but P1 knows the top two


def test_a_redeal_keeps_the_cards_revealed_to_the_seat_in_place():
    for seed in range(20):
        s = laid_out(
            game(), ["crown", "stone", "stone", "stone"], [["stone"], ["stone"], ["stone"]]
        )
        s.redeal(0, random.Random(seed))
        assert zone(s, "pile")[-2:] == ["stone", "crown"]
        assert pile_as(s, 0)["revealed"] == [
            {"card": "crown", "depth": 0},
            {"card": "stone", "depth": 1},
        ]


def test_a_secret_number_is_told_only_to_the_players_named():
    s = laid_out(game(), ["stone", "stone"], [["crown"], ["stone"], ["stone"]])
    s.apply_action("draw")
    s.apply_action("guess = 2")
    told = [e for e in s.log_for(1) if e["event"] == "reveal" and "value" in e]
    hidden = [e for e in s.log_for(2) if e["event"] == "reveal" and "value" in e]
    assert [(e["name"], e["value"]) for e in told] == [("guess", 2)]
    assert [(e["name"], e["value"]) for e in hidden] == [("guess", None)]


# --- insert -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "depth, pile",
    [
        (0, ["crown", "stone", "stone"]),
        (1, ["stone", "crown", "stone"]),
        (2, ["stone", "stone", "crown"]),
        (9, ["stone", "stone", "crown"]),
    ],
)
def test_insert_puts_the_card_at_its_depth_from_the_top(depth, pile):
    g = with_turn(f"insert(of(hand(current), crown), pile, {depth})\nend_game()")
    s = laid_out(g, ["stone", "stone"], [["crown"], [], []])
    assert zone(s, "pile")[::-1] == pile


def test_a_negative_depth_is_a_rule_error_at_the_spec_place():
    g = with_turn("insert(hand(current), pile, 0 - 1)")
    with pytest.raises(RuleError, match="depth -1: depths count from 0, the top") as e:
        laid_out(g, ["stone"], [["crown"], [], []])
    assert "RS701" in str(e.value)


# --- the secret choice of a number -----------------------------------------------------


def test_a_number_choice_offers_each_number_of_its_range():
    s = laid_out(with_turn("choose(current) n from 2..4 { }"), ["stone"], [["crown"], [], []])
    assert s.decision_kind() == "number"
    assert s.legal_labels() == ["n = 2", "n = 3", "n = 4"]
    assert s.observation(0)["options"] == s.legal_labels() and "options" not in s.observation(1)


def test_an_empty_range_asks_nothing():
    s = laid_out(
        with_turn("choose(current) n from 3..2 { end_game() }\nwin(current)"),
        ["stone"],
        [[], [], []],
    )
    assert s.is_terminal() and s.winners == (0,)


def test_a_range_too_wide_is_a_rule_error():
    with pytest.raises(RuleError, match="would offer 5000 numbers; at most 1000"):
        laid_out(with_turn("choose(current) n from 1..5000 { }"), ["stone"], [[], [], []])


# --- the front end --------------------------------------------------------------------


@pytest.mark.parametrize(
    "effect, where, message",
    [
        (
            "reveal(current, players)",
            "RS204",
            "argument 1 of reveal() must be cards or int, got player",
        ),
        ("reveal(pile, pile)", "RS204", "argument 2 of reveal() must be players, got zone"),
        ("insert(pile, pile)", "RS203", "insert() takes 3 argument(s), got 2"),
        (
            "insert(hand(current), pile, true)",
            "RS204",
            "argument 3 of insert() must be int, got bool",
        ),
        ("choose(current) n from 0..pile { }", "RS204", "the highest number must be int, got zone"),
        ("choose(current) buried from 0..2 { }", "RS202", "'buried' is already a name of the spec"),
        ("choose(current) n from 0.. { }", "RS301", "unexpected '{'"),
    ],
)
def test_misuse_is_reported_at_its_place(effect, where, message):
    with pytest.raises(SpecError) as e:
        with_turn(effect)
    text = str(e.value)
    assert f"error {where}: {message}" in text and "peek.yaml:" in text


def test_the_graph_counts_an_insert_as_a_move_and_a_reveal_as_a_read():
    g = graph.build(load_spec(str(SPEC)))
    edges = set(g.edges(keys=True))
    assert ("step:draw_or_bury", "zone:pile", "moves_to") in edges
    assert ("step:peek", "zone:pile", "reads") in edges


# --- the narration, the CLI and the seat ----------------------------------------------


def test_the_narration_of_another_seat_says_only_that_a_choice_was_made():
    code, out, _ = cli("run", SPEC, "--seed", 2, "--as", "P3")
    mine, theirs = (
        [line for line in out.splitlines() if "P3 chooses" in line],
        [line for line in out.splitlines() if "P2 chooses" in line],
    )
    said = re.compile(r"  P\d chooses \d+ \(\w+\)")  # a number and its local, to its chooser alone
    assert code == 0 and any(said.fullmatch(line) for line in mine)
    assert not any(said.fullmatch(line) for line in theirs)
    assert "  P2 chooses a number" in theirs


def test_a_logged_game_with_secret_choices_replays_the_same(tmp_path):
    log = tmp_path / "game.jsonl"
    assert cli("run", SPEC, "--seed", 4, "--log", log)[0] == 0
    code, out, _ = cli("replay", log)
    assert code == 0 and out.splitlines()[-1] == "1 of 1 game(s) replayed the same"


def test_the_seat_shows_the_cards_revealed_to_the_person():
    out = StringIO()
    code = main(
        ["play", str(SPEC), "--as", "P1", "--seed", "1"],
        stdout=out,
        stderr=StringIO(),
        stdin=StringIO("1\n" * 200),
    )
    assert code == 0
    assert "  Pile: 7 cards; known to you: Crown (on top), Stone (1 down)\n" in out.getvalue()


SWAP_OR_MOVE = """\
rulespec: 1
name: Swap or move
players: {min: 3, max: 3}
hand: hand
deck:
  cards:
    crown: {count: 1}
    pebble: {count: 1}
    gem: {count: 1}
zones:
  pile: {visibility: hidden, start: true}
  hand: {per_player: true, visibility: owner}
turn:
  - step: only
    effect: |
      reveal(of(hand(seat(1)), crown), seat(0))
      if count(hand(seat(1)), pebble) > 0 { swap(hand(seat(1)), hand(seat(2))) }
      else { move(hand(seat(1)), hand(seat(2))) }
      end_game()
"""


def test_what_a_swap_tells_a_seat_follows_from_its_log():
    """A review: with P3's hand empty, swap(hand(P2), hand(P3)) and move(hand(P2),
    hand(P3)) logged the same single move, yet P1, who saw neither hand, was shown the
    Crown in P3's hand after the swap only: which one ran hung on P2's hidden card. A
    swap is now in every seat's log, and a seat shown the same log is shown the same."""
    g = Game(load_spec("swap.yaml", SWAP_OR_MOVE), 3)
    games = [
        State.from_layout(g, zones={"hand[P2]": ["crown", hidden], "hand[P3]": []})
        for hidden in ("pebble", "gem")
    ]
    swapped, moved = games  # laid out, each plays its one step to the end
    assert [e["event"] for e in swapped.log_for(0)].count("swap") == 1
    assert swapped.log_for(0) != moved.log_for(0)  # P1 can tell them apart, so may know more
    assert swapped.observation(0)["zones"]["hand[P3]"] == {
        "count": 2,
        "revealed": [{"card": "crown"}],
    }


BLIND_PICK = """\
rulespec: 1
name: Blind pick
players: {min: 2, max: 3}
hand: hand
deck:
  cards: {red: {count: 3}, blue: {count: 3}}
zones:
  pile: {visibility: hidden, start: true}
  hand: {per_player: true, visibility: owner}
  out: {visibility: public}
turn:
  - step: pick
    actions: [take, flip]
actions:
  take:                      # picked from the hidden pile into the hand: the chooser sees it
    target: card
    among: pile
    effect: move(chosen, hand(current))
  flip:                      # picked into a public zone: everyone sees it land
    target: card
    among: pile
    effect: move(chosen, out)
end_conditions:
  out:
    when: size(pile) == 0
    effect: end_game()
"""


def test_a_card_picked_from_a_zone_a_seat_cannot_see_is_not_named_in_that_seat_s_log():
    """A review found a card-free play's choice event, whose label names the card
    chosen from a hidden pile, in every seat's log: the other seats see that a card was
    taken, and which only where it lands in view. Twin tables differing in the pile
    give the other seat the same log."""
    g = Game(load_spec("blind_pick.yaml", BLIND_PICK), 2)
    logs = []
    for pile in (["red", "blue", "red"], ["blue", "blue", "red"]):
        s = State.from_layout(g, zones={"pile": pile, "hand[P1]": [], "hand[P2]": []})
        s.apply_action(next(o for o in s.legal_actions() if o.label.startswith("take")))
        logs.append(s.log_for(1))
        picked = [e for e in s.log_for(0) if e["event"] == "choice"]
        assert picked and picked[-1]["option"].startswith("take")  # the chooser's own
    assert logs[0] == logs[1]
    assert [e["option"] for e in logs[0] if e["event"] == "choice"] == [None]
    moved = [e for e in logs[0] if e["event"] == "move"]
    assert moved[-1]["src"] == "pile" and moved[-1]["cards"] is None  # a card, unnamed


def test_a_step_offered_again_asks_whether_or_not_something_is_left_to_play():
    """An Uno designer's other seats learnt whether a drawn card fitted: a step offered
    again after a play ended unasked when nothing but pass was left, but asked (and
    logged a pass) when a card still fitted. Twin tables that differ only in the second
    card of P1's hidden hand now look alike to every other seat once P1 passes."""
    g = Game(load_spec(Path(__file__).parent / "valid" / "turn_taking.yaml"), 4)
    keys = []
    for second in ("blank", "stop"):  # a card that cannot be played, and one that can
        s = State.from_layout(g, 1, zones={"hand[P1]": ["back", second], "pile": ["blank"] * 4})
        assert not s.decision_again()
        s.apply_action("back")
        assert "pass" in s.legal_labels() and s.current_player() == 0 and s.decision_again()
        s.apply_action("pass")
        keys.append([s.information_key(seat) for seat in (1, 2, 3)])
    assert keys[0] == keys[1]
