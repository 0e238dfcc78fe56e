"""Narration, the table view and option texts: pure functions of events, observations
and the spec's titles (rulespec.table.narrate and rulespec.table.view)."""

import dataclasses

import pytest
from gamekit import GAMES, ROOT, edited

from rulespec import SpecError, load_spec
from rulespec.interpreter import Game, State
from rulespec.interpreter.agents import make_agents, play
from rulespec.interpreter.choices import (
    NO_REACTION,
    PASS,
    Branch,
    GroupPlay,
    PickCard,
    PickCards,
    PickValue,
    Play,
    React,
)
from rulespec.table.narrate import Titles, narrate, third_person, with_rule
from rulespec.table.view import (
    arranged,
    decision_heading,
    end_lines,
    option_text,
    table,
    table_lines,
)

TTG = load_spec(GAMES / "take_the_gold.yaml")
TITLES = Titles.of(TTG)
TYPES = [c.name for c in TTG.cards]
ROWS = Titles(
    cards={"crown": "Crown"},
    rules={"hands_empty": ("round end condition", "Hands are empty")},
    counters={"score": "Score"},
    zones={"row": "row"},
)


def test_titles_of_a_spec_know_every_part():
    assert TITLES.card("gold_coin") == "Gold Coin"
    assert TITLES.rules["refill_empty_hand"] == ("trigger", "Refill empty hand")
    assert TITLES.rules["coin_win"] == ("end condition", "Coin win")
    assert TITLES.rules["captain_block"] == ("reaction", "Captain block")
    assert TITLES.counters["successful_krakens"] == "Successful krakens"
    assert TITLES.params["coins_to_win"] == "Coins to win"
    assert TITLES.piles == {"draw_pile", "discard_pile"}


@pytest.mark.parametrize(
    "label, said",
    [("hand[P2]", "P2's hand"), ("discard_pile", "the discard pile"), ("row[2]", "row 2")],
)
def test_a_zone_is_named_as_a_rulebook_does(label, said):
    assert Titles(zones={**TITLES.zones, "row": "row"}).zone(label) == said


def test_a_title_that_ends_in_a_number_takes_no_article():
    """The Coloretto designer's rows, titled "row 1" to "row 5", read "the row 2"."""
    titles = Titles(zones={"spare": "spare 1"}, members={"row": ("row 1", "row 2", "Gold")})
    assert [titles.zone(z) for z in ("row[1]", "row[2]", "spare")] == [
        "row 2",
        "the Gold",
        "spare 1",
    ]


# one event, and the line it reads as (TTG's titles; ROWS' for a spec with rounds)
EVENTS = [
    ({"event": "turn", "turn": 3, "player": 0}, "Turn 3: P1"),
    (
        {"event": "move", "src": "draw_pile", "dst": "hand[P2]", "n": 2, "cards": None},
        "  2 cards: the draw pile -> P2's hand",
    ),
    (
        {
            "event": "play",
            "player": 0,
            "action": "captain_raid",
            "card": "pirate_captain",
            "target": 1,
        },
        "  P1 plays Pirate Captain (Captain raid) at P2",
    ),
    (
        {"event": "play", "player": 0, "action": "kraken", "card": "kraken", "target": 2},
        "  P1 plays The Kraken at P3",
    ),
    (
        {"event": "react", "player": 1, "reaction": "officer_block", "card": "officer"},
        "  P2 answers with Officer (Officer block)",
    ),
    (
        {"event": "choice", "player": 1, "kind": "card", "option": "gold_coin"},
        "  P2 chooses Gold Coin",
    ),
    (
        {"event": "choice", "player": 1, "kind": "cards", "option": "gold_coin+officer"},
        "  P2 chooses Gold Coin, Officer",
    ),
    (
        {"event": "choice", "player": 1, "kind": "cards", "option": None, "count": 2},
        "  P2 chooses 2 cards",
    ),
    ({"event": "choice", "player": 1, "kind": "card", "option": None}, "  P2 chooses a card"),
    ({"event": "choice", "player": 0, "kind": "choose", "option": "pay"}, "  P1 chooses pay"),
    (
        {
            "event": "move",
            "src": "discard_pile",
            "dst": "discard_pile",
            "n": 1,
            "cards": ["pirate"],
        },
        "  Pirate: moved within the discard pile",
    ),
    (  # a card shown and kept in an unordered zone did not move (a Schnapsen marriage)
        {"event": "move", "src": "hand[P1]", "dst": "hand[P1]", "n": 1, "cards": ["pirate"]},
        "  Pirate: stays in P1's hand",
    ),
    ({"event": "back", "players": [1]}, "  P2 is back in"),
    ({"event": "back", "players": [1, 2]}, "  P2, P3 are back in"),
    (
        {"event": "choice", "player": 2, "kind": "react", "option": "no reaction"},
        "  P3 does not react",
    ),
    (
        {"event": "counter", "counter": "successful_krakens", "value": 2},
        "  Successful krakens is now 2",
    ),
    (
        {"event": "trigger", "rule": "refill_empty_hand", "player": 2},
        '  The trigger "Refill empty hand" fires for P3',
    ),
    (
        {"event": "trigger", "rule": "ship_destroyed", "player": None},
        '  The end condition "Ship destroyed" holds',
    ),
    (
        {"event": "end", "winners": [0, 2], "reason": "coin_win", "turn": 12},
        'Game over after 12 turns: P1, P3 win, by the end condition "Coin win"',
    ),
    (
        {"event": "end", "winners": [], "reason": "turn_limit", "turn": 1},
        "Game over after 1 turn: nobody wins, as the turn limit was reached",
    ),
    (  # a turn of endless decisions too (a Port Royal designer's), not only an effect
        {"event": "end", "winners": [], "reason": "effect_loop", "turn": 82},
        "Game over after 82 turns: nobody wins, as the rules went on without end",
    ),
]
ROUND_EVENTS = [
    ({"event": "counter", "counter": "score[P2]", "value": 5}, "  Score for P2 is now 5"),
    ({"event": "round_end", "round": 1, "rule": "hands_empty"}, 'Round 1 ends: "Hands are empty"'),
    (
        {"event": "move", "src": "hand[P1]", "dst": "row[2]", "n": 1, "cards": ["crown"]},
        "  Crown: P1's hand -> row 2",
    ),
]


@pytest.mark.parametrize(
    "titles, event, line",
    [(TITLES, e, s) for e, s in EVENTS] + [(ROWS, e, s) for e, s in ROUND_EVENTS],
    ids=[s.strip() for _, s in EVENTS + ROUND_EVENTS],
)
def test_an_event_reads_as_a_sentence_in_the_titles(titles, event, line):
    assert narrate([event | {"turn": event.get("turn", 1)}], titles) == [line]


# a turn of a discard, then a play step that applies only after a knock (a Gin Rummy
# designer's), whose pass is called Pass, and a card counter whose title is a phrase
RUMMY = Titles.of(
    load_spec(
        "rummy.yaml",
        text="""
rulespec: 1
name: Lay-off
players: {min: 2, max: 2}
hand: hand
deck: {cards: {three_c: {count: 4, title: Three of clubs}}}
zones:
  hand: {per_player: true, visibility: owner}
  stock: {visibility: hidden, start: true}
  melds: {visibility: public}
counters:
  knocked: {initial: 0}
  laid_off_by: {per_card: true, initial: nobody, title: laid off by}
turn:
  - step: discard
    actions: [discard]
  - step: lay_off
    actions: [lay_off]
    optional: true
    pass_title: Pass
actions:
  discard: {card: any, to: melds}
  lay_off:
    card: any
    to: melds
    if: knocked == 1
    effect: laid_off_by(card) = current
end_conditions:
  done: {when: size(melds) == 4, effect: win(players)}
""",
    )
)
RUMMY_EVENTS = [
    (  # the step said where the turn has several: the player did play at another
        {"event": "no_play", "player": 0, "step": "lay_off"},
        "  P1 has nothing to play at Lay off",
    ),
    ({"event": "pass", "player": 2, "step": "lay_off"}, "  P3 passes"),  # not "(Pass)"
    (  # the table's words, "Three of clubs (laid off by P2)", not "Laid off by of ..."
        {"event": "mark", "counter": "laid_off_by", "card": "three_c", "value": 1},
        "  Three of clubs: laid off by P2",
    ),
    (
        {"event": "mark", "counter": "laid_off_by", "card": None, "value": None},
        "  a card is marked (laid off by)",
    ),
    (  # the label's `d` is the rule's local, a letter: no word to say
        {"event": "choice", "player": 0, "kind": "number", "option": "d = 0"},
        "  P1 chooses 0",
    ),
    (  # an Exploding Kittens trial read "P2 chooses 12" of a secret depth: its local says it
        {"event": "choice", "player": 1, "kind": "number", "option": "bury_depth = 12"},
        "  P2 chooses 12 (bury depth)",
    ),
    (  # the other seats are not shown it
        {"event": "choice", "player": 1, "kind": "number", "option": None},
        "  P2 chooses a number",
    ),
]


@pytest.mark.parametrize("event, line", RUMMY_EVENTS, ids=[s.strip() for _, s in RUMMY_EVENTS])
def test_an_event_reads_for_any_title(event, line):
    assert narrate([event | {"turn": 1}], RUMMY) == [line]


def test_no_play_names_no_step_where_the_turn_has_one_play_step():
    one_step = dataclasses.replace(RUMMY, plays=frozenset({"lay_off"}))
    event = {"event": "no_play", "player": 0, "step": "lay_off", "turn": 1}
    assert narrate([event], one_step) == ["  P1 has no legal play"]
    assert narrate([event | {"step": None}], RUMMY) == ["  P1 has no legal play"]  # older log


def test_moves_between_the_same_zones_are_one_line_and_titles_cannot_steer_the_terminal():
    move = {"event": "move", "src": "draw_pile", "dst": "hand[P1]", "n": 1, "turn": 0}
    titles = Titles(cards={"a": "Ace", "b": "Bad\x1b[2J"})
    lines = narrate([move | {"cards": ["a"]}, move | {"cards": ["b"]}], titles)
    assert lines == ["  Ace, Bad\\x1b[2J: the draw pile -> P1's hand"]


@pytest.mark.parametrize(
    "option, text",
    [
        (
            Play("two_pirates -> P2", "two_pirates", TYPES.index("two_pirates"), 1),
            "Play Two Pirates at P2",
        ),
        (
            Play("captain_raid -> P3", "captain_raid", TYPES.index("pirate_captain"), 2),
            "Play Pirate Captain (Captain raid) at P3",
        ),
        (
            React("captain_block", "captain_block", TYPES.index("pirate_captain")),
            "Answer with Pirate Captain (Captain block)",
        ),
        (React("challenge", "challenge", None), "Answer: challenge"),
        (PASS, "Pass"),
        (NO_REACTION, "Do not answer"),
        (Branch("refuse", 1), "refuse"),
        (PickCard("gold_coin", 7), "Gold Coin"),
        (PickCards("gold_coin+officer", (7, 9)), "Gold Coin, Officer"),
        (PickValue("n = 3", 3), "n = 3"),
    ],
)
def test_an_option_says_what_it_does(option, text):
    assert option_text(option, TITLES, TYPES) == text


OBSERVATION = {
    "seat": "P2",
    "turn": 6,
    "current": "P1",
    "active": ["P1", "P2", "P3"],
    "over": False,
    "zones": {
        "draw_pile": {"count": 30, "revealed": [{"card": "kraken", "depth": 0}]},
        "discard_pile": ["pirate", "officer"],
        "set_aside": [],
        "hand[P1]": {"count": 1},
        "hand[P2]": ["gold_coin", "gold_coin", "officer"],
        "hand[P3]": {"count": 4},
    },
    "counters": {"successful_krakens": 1, "win_target": 4, "tiebreak": 0},
}


def test_the_table_as_data():
    view = table(OBSERVATION, TITLES, {"coins_to_win": 4})
    assert view["zones"][0] == {
        "label": "draw_pile",
        "name": "draw_pile",
        "title": "draw pile",
        "pile": True,
        "text": "Draw a card from here; when it runs out, the discard pile is shuffled into a new one.",
        "size": 30,
        "cards": None,
        "revealed": [
            {
                "name": "kraken",
                "title": "The Kraken",
                "text": "Make a player discard all of their cards, unless they have the Pirate Captain!",
                "where": "on top",
            }
        ],
        "top_only": False,
    }
    assert view["seats"][1]["zones"][0]["cards"][2] == {
        "name": "officer",
        "title": "Officer",
        "text": "Stop one Pirate from taking your card!",  # the spec's text: public
    }
    assert [(s["seat"], s["you"], s["zones"][0]["size"]) for s in view["seats"]] == [
        ("P1", False, 1),
        ("P2", True, 3),
        ("P3", False, 4),
    ]
    assert view["params"] == [{"name": "coins_to_win", "title": "Coins to win", "value": 4}]


def test_cards_known_in_a_hidden_zone_are_listed_at_their_depth_then_in_deck_order():
    """A 6 nimmt! designer's table read "known to you: 101 (1), 25 (2), 34 (1), 5 (2)",
    the observation's order by name, where a hand of theirs read in deck order."""
    seen = dict(OBSERVATION, zones=dict(OBSERVATION["zones"]))
    known = [{"card": "kraken", "depth": 2}, {"card": "officer"}, {"card": "two_pirates"}]
    seen["zones"]["hand[P3]"] = {"count": 4, "revealed": known}  # the observation's: by name
    deck = list(TITLES.cards)
    assert deck.index("two_pirates") < deck.index("officer")
    (p3,) = [s for s in table(seen, TITLES, {})["seats"] if s["seat"] == "P3"]
    assert [(c["name"], c["where"]) for c in p3["zones"][0]["revealed"]] == [
        ("kraken", "2 down"),
        ("two_pirates", None),
        ("officer", None),
    ]


def test_the_table_as_text():
    assert table_lines(table(OBSERVATION, TITLES, {"coins_to_win": 4}), params=True) == [
        "== Turn 6: P1's turn (you are P2)",
        "  Draw pile: 30 cards; known to you: The Kraken (on top)",
        "  Discard pile: Pirate, Officer (top)",
        "  Set aside: empty",
        "  P1: hand 1 card",
        "  P2 (you): hand Gold Coin x2, Officer",
        "  P3: hand 4 cards",
        "  Successful krakens 1, Win target 4, Tiebreak 0",
        "  Rules: Coins to win 4",
    ]


@pytest.mark.parametrize(
    "pile, shown",
    [
        (["pirate"] * 6 + ["officer"], "7 cards, top Officer"),
        (["pirate"] * 5 + ["officer"], "Pirate x5, Officer (top)"),
    ],
)
def test_a_pile_is_listed_whole_up_to_six_cards_then_by_its_top(pile, shown):
    observation = OBSERVATION | {"zones": OBSERVATION["zones"] | {"discard_pile": pile}}
    assert f"  Discard pile: {shown}" in table_lines(table(observation, TITLES))


@pytest.mark.parametrize(
    "pile, shown",
    [(["officer"], "Officer"), (["pirate", "officer"], "Pirate, Officer (top)")],
)
def test_a_pile_of_one_card_has_no_top_marked(pile, shown):
    """A Lost Cities designer read "red 3 (top)" on a one-card expedition as noise."""
    observation = OBSERVATION | {"zones": OBSERVATION["zones"] | {"discard_pile": pile}}
    assert f"  Discard pile: {shown}" in table_lines(table(observation, TITLES))


def test_a_shared_familys_empty_zones_are_one_line():
    """A Canasta designer's two sides' twelve melds each had a line of their own,
    "North south's fours: empty", 25 lines above the hand: a family's empty shared (or
    a team's) zones are told on one line, where the first of them stood, and one that
    holds cards keeps its own."""
    spec = load_spec(ROOT / "tests/valid/three_rows.yaml")
    state = State.from_layout(Game(spec, 3), zones={"row[1]": ["tile"]})
    lines = table_lines(table(state.observation(0), Titles.of(spec)))
    assert "  Row: empty: left row, right row" in lines, lines
    assert "  Middle row: Tile" in lines and not any("Left row" in x for x in lines)


def test_a_seat_with_many_zones_is_listed_a_zone_a_line():
    """A Lost Cities designer's seat line ran past 250 characters: one over 120 is
    broken, a zone a line under the seat, the empty ones on one line (a Hanamikoji
    designer's seven empty places each had a line); a short one stays whole."""
    spec = load_spec(ROOT / "tests/valid/golf_grid.yaml")
    state = Game(spec, 2).new_initial_state(seed=2)
    while state.chance_is_sampled():
        state.sample_chance()
    lines = table_lines(table(state.observation(0), Titles.of(spec)))
    at = lines.index("  P1 (you):")
    assert lines[at + 1 : at + 6] == [
        "    top left face down 1 card; known to you: Clubs 2",
        "    top right face down 1 card; known to you: Clubs 3",
        "    bottom left face down 1 card",
        "    bottom right face down 1 card",
        "    empty: held, top left, top right, bottom left, bottom right",
    ]
    assert all(len(line) <= 120 for line in lines)
    short = table(OBSERVATION | {"active": ["P1", "P2"]}, TITLES)
    assert "  P3 (out): hand 4 cards" in table_lines(short)


def test_a_seat_that_is_out_is_marked():
    observation = OBSERVATION | {"active": ["P1", "P2"]}
    assert "  P3 (out): hand 4 cards" in table_lines(table(observation, TITLES))


PW_TITLES = Titles.of(load_spec(GAMES / "pirates_wild.yaml"))
SHIPS = {  # P1's ship seen, five Coins of four counted and a Map beyond the order; P2's not
    "seat": "P1",
    "turn": 9,
    "current": "P1",
    "active": ["P1", "P2"],
    "over": False,
    "zones": {
        "ship[P1]": ["coins"] * 5 + ["jewels", "crew"],
        "ship[P2]": {"count": 3},
        "hand[P1]": ["map"],
    },
    "counters": {},
}


def test_each_seat_s_progress_toward_a_goal_set_is_counted_from_what_the_viewer_sees():
    """The table showed a ship's cards, not how far they went toward the treasures nor
    which came next. Each entry counts up to its limit, in or out of order; a zone the
    viewer cannot see shows no progress, as it shows no card."""
    p1, p2 = table(SHIPS, PW_TITLES)["seats"]
    (treasures,) = p1["goals"]
    assert treasures["title"] == "Treasures" and treasures["next"] == "Map"
    assert [(e["title"], e["have"], e["limit"]) for e in treasures["entries"]] == [
        ("Coins", 4, 4),
        ("Map", 0, 3),
        ("Jewels", 1, 2),
        ("Skeleton Key", 0, 1),
        ("Treasure Chest", 0, 1),
    ]
    assert p2["goals"] == []
    lines = table_lines(table(SHIPS, PW_TITLES))
    assert lines[1].endswith("; Treasures 5/11, next Map 0/3") and "Treasures" not in lines[2]
    done = SHIPS["zones"] | {"ship[P1]": ["coins"] * 4 + ["map"] * 3 + ["jewels"] * 2
                             + ["skeleton_key", "treasure_chest"]}  # fmt: skip
    assert table_lines(table(SHIPS | {"zones": done}, PW_TITLES))[1].endswith("; Treasures 11/11")


def test_a_goal_set_has_a_title_and_words_for_the_rules_panel_and_help():
    from rulespec.serve.views import Table
    from rulespec.table.seat import help_text

    words = "Collect in order, in your ship: Coins 4, Map 3, Jewels 2, Skeleton Key 1, Treasure Chest 1."
    assert help_text("treasures", PW_TITLES) == f"Treasures: {words}"
    text = (GAMES / "pirates_wild.yaml").read_text(encoding="utf-8")
    said = edited(text, ("  treasures:  ", "  treasures:\n    title: Loot\n    text: Bank it.\n  "))
    titles = Titles.of(load_spec(GAMES / "pirates_wild.yaml", text=said))
    assert help_text("LOOT", titles) == f"Loot: Bank it. {words}"
    rules = Table(load_spec(GAMES / "pirates_wild.yaml", text=said), 2).rules
    assert rules[-1] == {
        "name": "treasures",
        "kind": "goals",
        "title": "Loot",
        "text": f"Bank it. {words}",
    }


def test_the_end_says_who_won_and_why():
    over = OBSERVATION | {
        "over": True,
        "result": {"over": True, "winners": [], "reason": "turn_limit", "turns": 6},
    }
    lines = end_lines(over, TITLES)
    assert lines[:2] == [
        "Nobody wins: the game ended as the turn limit was reached.",
        "== Turn 6: game over (you are P2)",
    ]
    won = over | {"result": over["result"] | {"winners": ["P3"], "reason": "ship_destroyed"}}
    assert end_lines(won, TITLES)[0] == (
        'The winner is P3: the game ended by the end condition "Ship destroyed".'
    )
    assert table(won, TITLES)["why"] == 'by the end condition "Ship destroyed"'
    side = won | {"result": won["result"] | {"winners": ["P2", "P4"]}}  # the viewer, P2
    assert end_lines(side, TITLES)[0].startswith("You win (P2, with P4): the game ended")
    assert end_lines(OBSERVATION, TITLES) == ["The game was left unfinished: nobody wins."]
    assert table(OBSERVATION, TITLES)["why"] is None


def _words(options) -> list[str]:
    return [s["text"] for s in arranged(options, TITLES, TYPES)]


def test_options_stand_in_deck_order_numbers_rising_branches_as_written():
    """Sorted by their words, a bet of 10 came before one of 2, and a Two Pirates
    before a Pirate Captain; a choice's branches stood in alphabetical order."""
    cards = [Play(f"{t}:steal", "steal", card_type=TYPES.index(t)) for t in TYPES[::-1]]
    assert _words(cards + [PASS]) == [f"Play {TITLES.card(t)} (steal)" for t in TYPES] + ["Pass"]
    bets = [PickValue(f"n = {v}", v) for v in (10, 2, 1)]
    assert _words(bets) == ["n = 1", "n = 2", "n = 10"]
    assert _words([Branch("zed", 0), Branch("alpha", 1)]) == ["zed", "alpha"]
    named = [PickValue(t, t) for t in sorted(TYPES)]
    assert _words(named) == [TITLES.card(t) for t in TYPES]


def test_plays_without_a_card_stand_in_the_order_the_spec_declares_them():
    """A Hold'em designer's Fold, Check, Call and Raise were listed by their words
    (Call, Check, Fold, Raise); Blackjack's read Double down, Hit, Stand."""
    built = load_spec(GAMES / "blackjack.yaml")
    titles = Titles.of(built)
    options = [Play(a, a) for a in ("double_down", "stand", "hit")]
    words = [s["option"].action for s in arranged(options, titles, TYPES)]
    assert words == ["hit", "stand", "double_down"]  # as the spec lists its actions


def test_a_hand_is_listed_in_deck_order():
    """By name, a hand read "ace of clubs, eight of clubs, five of diamonds"."""
    built = load_spec(GAMES / "whist.yaml")
    names = [c.name for c in built.cards]
    hand = names[:3] + names[13:15]
    seen = OBSERVATION | {"zones": {"hand[P2]": sorted(hand)}, "counters": {}}
    view = table(seen, Titles.of(built))
    (you,) = [s for s in view["seats"] if s["you"]]
    assert [c["name"] for c in you["zones"][0]["cards"]] == hand


def test_a_choice_in_the_setup_is_headed_as_the_setup_not_turn_0():
    """A designer's Hearts passed cards in the setup under "== Turn 0: P1 to play" and
    "setup — your options:"."""
    lines = table_lines(table(OBSERVATION | {"turn": 0}, TITLES))
    assert lines[0] == "== Setup (you are P2)"
    assert decision_heading("card", "setup", TITLES) == "Setup — your options:"


def test_a_counter_that_holds_a_player_is_told_by_its_seat():
    """A designer's Euchre told "Dealer is now 1" of a seat number counted from 0."""
    titles = Titles.of(load_spec(GAMES.parent / "tests/valid/pass_the_pair.yaml"))
    event = {"event": "counter", "counter": "last_to_lay", "value": 1, "turn": 3}
    assert narrate([event], titles) == ["  Last to lay is now P2"]
    seen = OBSERVATION | {"counters": {"last_to_lay": 2, "score[P1]": 5}}
    assert "  Last to lay P3" in table_lines(table(seen, titles))


@pytest.mark.parametrize(
    "card, rule, said",
    [
        ("Seven of clubs", "Play", "Seven of clubs"),  # the verb says it: "plays ... (Play)"
        ("Ace", "Play ace", "Ace"),
        ("The Joker", "Joker", "The Joker"),
        ("Kraken", "Raid", "Kraken (Raid)"),
        # a designer's "jack of diamonds (Play a jack (skip the next player))"
        ("Jack", "Jack skips (the next player)", "Jack [Jack skips (the next player)]"),
    ],
)
def test_a_card_is_said_with_its_rule_unless_the_words_say_it_already(card, rule, said):
    assert with_rule(card, rule) == said


def test_a_named_condition_has_words_for_the_rules_panel():
    """A designer's `text:` on a named condition was refused, though a procedure's was
    taken: the condition is listed among the rules, with its words."""
    titles = Titles.of(load_spec(GAMES.parent / "tests/valid/colour_match.yaml"))
    assert titles.rules["fits"] == ("condition", "Fits")
    assert titles.text("rules", "fits") == "A card fits if it is a wild or of the colour in play."


def test_a_counter_that_holds_a_kind_is_told_by_its_name():
    """A designer's Uno kept the colour in play as a number: "Colour in play is now 2"."""
    titles = Titles.of(load_spec(GAMES.parent / "tests/valid/colour_match.yaml"))
    told = narrate(
        [
            {"event": "counter", "counter": "colour_now", "value": "red", "turn": 3},
            {"event": "counter", "counter": "last_colour[P1]", "value": "wild", "turn": 3},
            {"event": "counter", "counter": "colour_now", "value": None, "turn": 4},
        ],
        titles,
    )
    assert told == [
        "  Colour in play is now red",  # a tag, as written
        "  Last colour played for P1 is now Wild",  # a card type, by its title
        "  Colour in play is now none",
    ]


@pytest.mark.parametrize("key, at_the_table", [("narrate: false", True), ("shown: false", False)])
def test_a_counter_kept_for_bookkeeping_is_not_narrated(key, at_the_table):
    """A designer's poker narrated every change of its contribution counters: with
    `narrate: false` the narration leaves them out. A designer's Crazy Eights kept the
    cards drawn this turn for a rule, and the table still listed "Cards drawn this turn
    1": `shown: false` keeps it off the table too. Observations and the log keep both."""
    plain = (ROOT / "tests/valid/last_draw.yaml").read_text(encoding="utf-8")
    text = edited(
        plain,
        (
            "  round_points: {per_player: true, initial: 0}\n",
            f"  round_points: {{per_player: true, initial: 0, {key}}}\n",
        ),
    )
    for spec, said in ((load_spec("ld.yaml", plain), True), (load_spec("ld.yaml", text), False)):
        state = play(Game(spec, 2).new_initial_state(seed=3), make_agents(["random"], 2, 3))
        titles, events, seen = Titles.of(spec), state.log_for(None), state.observation(0)
        lines = narrate(events, titles)
        assert any(e["event"] == "counter" and "round_points" in e["counter"] for e in events)
        assert "round_points[P1]" in seen["counters"]  # observed either way
        assert any("Round points for P1 is now" in line for line in lines) == said
        assert any("Points for P" in line for line in lines)  # other counters still are
        shown = any("Round points" in line for line in table_lines(table(seen, titles)))
        assert shown == (said or at_the_table)


def test_a_bookkeeping_rule_is_not_narrated_firing_but_its_effect_is():
    """The Lost Cities designer kept a shown score equal to a named value with a
    trigger, and every play then read 'The trigger "Keep the score" fires for P1':
    `narrate: false` on a checked rule leaves that line out; what it does is still
    narrated, and the event log keeps the firing."""
    plain = (ROOT / "tests/valid/last_draw.yaml").read_text(encoding="utf-8")
    quiet = edited(
        plain,
        (
            "    at: turn_end\n    effect: round_points(p) += 1",
            "    at: turn_end\n    narrate: false\n    effect: round_points(p) += 1",
        ),
    )
    for spec, said in ((load_spec("ld.yaml", plain), True), (load_spec("ld.yaml", quiet), False)):
        state = play(Game(spec, 2).new_initial_state(seed=3), make_agents(["random"], 2, 3))
        events = state.log_for(None)
        lines = narrate(events, Titles.of(spec))
        assert any(e["event"] == "trigger" and e["rule"] == "row_bonus" for e in events)
        assert any('The trigger "Row bonus" fires' in line for line in lines) == said
        assert any("Round points for P" in line for line in lines)  # its effect, narrated


@pytest.mark.parametrize(
    "verb, said",
    [("discard", "discards"), ("bury", "buries"), ("lay", "lays"), ("catch up", "catches up")]
    + [("pass", "passes"), ("go", "goes"), ("have", "has"), ("play", "plays")],
)
def test_a_verb_is_said_of_a_player_in_the_third_person(verb, said):
    assert third_person(verb) == said


def test_an_actions_verb_words_its_options_and_its_narration():
    """Pirates Wild's discard read "Play Coins (Discard card)", and a player took it
    for banking the treasure: its verb says what is done with the card."""
    pw = load_spec(GAMES / "pirates_wild.yaml")
    titles, types = Titles.of(pw), [c.name for c in pw.cards]
    discard = Play("discard_card", "discard_card", types.index("coins"), None)
    shown = arranged([discard], titles, types)[0]
    assert (shown["text"], shown["group"], shown["short"]) == ("Discard Coins", "Coins", "Discard")
    event = {"event": "play", "player": 1, "action": "discard_card", "card": "coins"}
    assert narrate([event], titles) == ["  P2 discards Coins"]
    assert with_rule("Coins", "Discard", "discard") == "Coins"
    # a verb that begins with the title says it (a Scopa designer's "P2 lays down Seven
    # of clubs (Lay)" for an action `lay`, untitled, with the verb lay down)
    assert with_rule("Seven", "Lay", "lay down") == "Seven"
    assert with_rule("Five", "Capture", "capture with") == "Five"
    assert with_rule("Seven", "Layer", "lay down") == "Seven (Layer)"


def test_an_action_without_a_card_is_narrated_by_its_verb_and_words_read_once():
    """A designer's `verb: draw` on an action without a card was ignored ("P4 chooses
    Draw"); a zone titled "the pond" read "the the pond"; a refill that left the top
    card said "the discard pile becomes the stock"."""
    titles = Titles(
        rules={
            "draw": ("action", "Draw"),
            "knock": ("action", "Knock early"),
            "out": ("action", "Go out"),
            "catch_up": ("action", "Catch Up"),
            "stand": ("action", "Stand"),
            "cash": ("action", "Play all treasures"),
            "attack": ("action", "Attack"),
        },
        verbs={
            "draw": "draw",
            "knock": "knock",
            "out": "knock",
            "catch_up": "catch up",
            "cash": "play",
            "attack": "attack with",
        },
        cards={"squire": "Squire"},
        zones={"pond": "the pond", "discard": "discard pile"},
    )
    events = [
        {"event": "play", "player": 0, "action": a}
        for a in ("draw", "knock", "out", "catch_up", "stand", "cash")
    ]
    events += [{"event": "play", "player": 1, "action": "attack", "chosen": "squire"}]
    events += [
        {"event": "shuffle", "zone": "pond"},
        {"event": "refill", "zone": "pond", "source": "discard"},
    ]
    assert narrate(events, titles) == [
        "  P1 draws",
        "  P1 knocks early",  # a title that begins with the verb goes on from it
        "  P1 knocks (Go out)",
        "  P1 catches up",  # a verb of two words, all the title (a review)
        "  P1 chooses Stand",
        "  P1 plays all treasures",  # `verb: play` given: a deck-builder designer's
        # a verb that begins with the title says it, as for a card played (a designer's
        # "P2 attacks with Squire (Attack)")
        "  P2 attacks with Squire",
        "  the pond is shuffled",
        "  the pond is refilled from the discard pile",
    ]
    text = (ROOT / "tests" / "valid" / "match_or_draw.yaml").read_text()
    spec = load_spec("m.yaml", text.replace("fallback: true\n", "fallback: true\n    verb: play\n"))
    assert narrate([{"event": "play", "player": 0, "action": "draw"}], Titles.of(spec)) == [
        "  P1 plays (Draw)"  # a verb given in the spec, play too, is kept
    ]


def test_a_verb_that_holds_the_title_says_it_and_no_bracket_repeats_it():
    """A No Thanks! designer's action titled No Thanks, `verb: say no thanks`, read "P1
    says no thanks (No Thanks)": a title was left out only where it or the verb began
    with the other. A verb that holds the title's words says it, a card's action too."""
    titles = Titles(
        rules={"no_thanks": ("action", "No Thanks"), "hide": ("action", "Face down")},
        verbs={"no_thanks": "say no thanks", "hide": "lay face down"},
        cards={"seven": "Seven"},
        carded=frozenset({"hide"}),
    )
    events = [
        {"event": "play", "player": 0, "action": "no_thanks"},
        {"event": "play", "player": 1, "action": "hide", "card": "seven"},
    ]
    assert narrate(events, titles) == ["  P1 says no thanks", "  P2 lays face down Seven"]
    assert with_rule("Seven", "Face down", "lay face down") == "Seven"
    assert with_rule("Seven", "Face up", "lay face down") == "Seven (Face up)"


def test_a_verb_alone_is_followed_by_its_target_with_no_at():
    """A Coup designer's `verb: steal from` and `verb: assassinate` on targeted actions
    without a card read "P2 steals from at P3" and "P2 assassinates at P3"."""
    titles = Titles(
        rules={
            "steal": ("action", "Steal"),
            "kill": ("action", "Assassinate"),
            "out": ("action", "Go out"),
        },
        verbs={"steal": "steal from", "kill": "assassinate", "out": "knock"},
        cards={"squire": "Squire"},
    )
    events = [
        {"event": "play", "player": 1, "action": "steal", "target": 2},
        {"event": "play", "player": 1, "action": "kill", "target": 0},
        # a title the verb leaves in brackets, or a card: at the target, as before
        {"event": "play", "player": 0, "action": "out", "target": 1},
        {"event": "play", "player": 0, "action": "steal", "chosen": "squire", "target": 1},
    ]
    assert narrate(events, titles) == [
        "  P2 steals from P3",
        "  P2 assassinates P1",
        "  P1 knocks (Go out) at P2",
        "  P1 steals from Squire at P2",
    ]


def test_a_step_named_as_its_action_keeps_its_own_title_and_prompt():
    """A designer's Go Fish had a step `ask` offering the action `ask`: the choice of
    whom to ask was headed "Ask — which rank do you ask for?", the action's prompt. A
    step asks as `turn.NAME`, as a round's part asks as `rounds.NAME`: the play it
    offers and the choices of its own effect, whatever rule, procedure or condition
    shares its name (the draft's step and procedure `pick`)."""
    from rulespec.table.view import decision_heading

    titles = Titles(
        rules={"turn.ask": ("step", "Your turn"), "ask": ("action", "Ask")},
        prompts={"turn.ask": "whom do you ask?", "ask": "which rank do you ask for?"},
    )
    assert decision_heading("play", "turn.ask", titles) == "Your turn — whom do you ask?"
    assert decision_heading("choose", "ask", titles) == "Ask — which rank do you ask for?"
    draft = load_spec(GAMES / "draft.yaml")
    state = Game(draft, 3).new_initial_state(seed=2)
    while state.is_chance_node():
        state.sample_chance()
    assert (state.decision_kind(), state.decision_asker()) == ("card", "turn.pick")
    assert decision_heading("card", "turn.pick", Titles.of(draft)) == (
        "Pick — which card do you keep?"
    )
    ttg = Game(TTG, 2).new_initial_state(seed=1)
    while state.is_chance_node() or ttg.is_chance_node():
        ttg.sample_chance()
    assert (ttg.decision_kind(), ttg.decision_asker()) == ("play", "turn.play")


def test_a_card_free_play_names_the_card_it_chose_from_a_public_zone():
    """A designer's buys read 'P1 buys' and named the card only on the move after."""
    game = Game(load_spec(ROOT / "tests" / "valid" / "market.yaml"), 3)
    state = play(game.new_initial_state(seed=1), make_agents(["random"], 3, 1))
    log = state.log_for(None)
    takes = [i for i, e in enumerate(log) if e["event"] == "play" and e["action"] == "take"]
    assert takes
    for i in takes:  # the card named is the one the effect moves next
        moved = next(e for e in log[i:] if e["event"] == "move")
        assert [log[i]["chosen"]] == moved["cards"] and moved["src"] == "market"
    lines = narrate(log, Titles.of(game.spec))
    assert "  P1 chooses Take: Fig" in lines
    swaps = [e for e in log if e["event"] == "play" and e["action"] == "swap"]
    assert swaps and all("chosen" not in e for e in swaps)  # a card played says its own


def test_an_answer_at_a_named_window_says_which_window_asks():
    """A Coup designer's table printed 'P3 does not react' once per window, and the
    window's title nowhere; its prompt could not be given."""
    text = (ROOT / "tests" / "valid" / "challenge_then_block.yaml").read_text()
    text = edited(
        text,
        (
            "    title: Challenge window\n",
            "    title: Challenge window\n    prompt: Call the bluff?\n",
        ),
    )
    game = Game(load_spec("windows.yaml", text), 3)
    titles = Titles.of(game.spec)
    state = game.new_initial_state(seed=3)
    while state.decision_window() is None:
        if state.is_chance_node():
            state.sample_chance()
        else:
            state.apply_action(state.legal_actions()[-1])
    assert state.decision_kind() == "react" and state.decision_window() == "challenges"
    heading = decision_heading("react", state.decision_asker(), titles, state.decision_window())
    assert (
        heading
        == f"You may answer {titles.rule(state.decision_asker())} (Challenge window) — Call the bluff?"
    )
    seat = state.current_player()
    state.apply_action("no reaction")
    said = narrate([e for e in state.log_for(None) if e["event"] == "choice"][-1:], titles)
    assert said == [f"  P{seat + 1} does not react (Challenge window)"]
    assert decision_heading("react", "tax", titles) == "You may answer Tax:"  # no window


def test_a_pass_names_what_it_declines_where_that_was_not_just_told():
    """An Exploding Kittens trial read "P2 does not react" and could not tell to what.
    Here P2's challenge was told last, and P2's pass in the next window declines the
    Steal, which opens both windows."""
    spec = load_spec(ROOT / "tests" / "valid" / "challenge_then_block.yaml")
    hands = {"hand[P1]": ["captain"], "hand[P2]": ["veto", "duke"], "hand[P3]": ["captain"]}
    state = State.from_layout(Game(spec, 3), zones=hands, counters={"coins[P2]": 2})
    for label in ("steal -> P2", "challenge_steal", "duke", "no reaction"):
        state.apply_action(label)
    lines = narrate(state.log_for(2), Titles.of(spec))
    assert lines[1:6] == [
        "  P1 chooses Steal at P2",
        "  P2 answers: Challenge steal",
        "  P2 chooses a card",
        "  Duke: P2's hand -> the discard",
        "  P2 does not react to P1's Steal (Block window)",
    ]


def test_an_answer_that_may_answer_two_things_names_neither():
    """The log does not say what a window answers: where an action opens several
    windows, a Veto after a Veto may answer either, and the narration does not guess."""
    titles = Titles(
        rules={"steal": ("action", "Steal"), "cancel": ("reaction", "Cancel")},
        cards={"veto": "Veto"},
        answers={"cancel": frozenset({"steal", "cancel"})},
        reacting={"steal": True, "cancel": False},
    )
    play_ = {"event": "play", "player": 0, "action": "steal", "target": 1, "card": None}
    answer = {"event": "react", "reaction": "cancel", "card": "veto"}
    lines = narrate([play_, answer | {"player": 1}, answer | {"player": 2}], titles)
    assert lines[1:] == ["  P2 answers with Veto (Cancel)", "  P3 answers with Veto (Cancel)"]


def test_a_zone_of_an_ordered_family_is_a_pile_top_last():
    """A designer's Lost Cities discard piles (`discard: {count: 5, ordered: true}`)
    were listed sorted, with no top marked, while only the top card could be taken."""
    built = load_spec(GAMES.parent / "tests" / "valid" / "rows.yaml")
    seen = OBSERVATION | {"zones": {"row[1]": ["high", "low", "mid"]}, "counters": {}}
    (row,) = table(seen, Titles.of(built))["zones"]
    assert row["pile"] and [c["name"] for c in row["cards"]] == ["high", "low", "mid"]
    assert "  Row 1: High, Low, Mid (top)" in table_lines(table(seen, Titles.of(built)))


def test_a_move_of_many_cards_names_each_title_once_with_its_count():
    """A designer's deck-builder narrated its supply as 220 titles on one line."""
    titles = Titles.of(load_spec(ROOT / "games" / "take_the_gold.yaml"))
    many = {"event": "move", "src": "draw_pile", "dst": "discard_pile", "turn": 0}
    cards = ["gold_coin"] * 10 + ["pirate"] * 3
    line = narrate([many | {"n": len(cards), "cards": cards}], titles)[0]
    assert line == "  Gold Coin x10, Pirate x3: the draw pile -> the discard pile"
    line = narrate([many | {"n": 12, "cards": cards[1:]}], titles)[0]  # 12: one by one
    assert line.startswith("  Gold Coin, Gold Coin, ") and line.count("Pirate") == 3


def test_a_set_chosen_and_moved_is_named_in_deck_order_both_times():
    """A President designer read 'P3 chooses Five of Diamonds, Seven of Diamonds', then
    'Seven of Diamonds, Five of Diamonds: P3's hand -> P4's hand': the move named the
    cards as the hand held them. Between zones that are no piles, a move names them in
    deck order, as the choice and the table do; a draw from a pile, as they came."""
    spec = load_spec(ROOT / "tests" / "valid" / "pass_the_pair.yaml")
    zones = {"hand[P1]": ["blue_4", "red_2"], "stock": ["red_1", "blue_1", "red_3"]}
    state = State.from_layout(Game(spec, 2), zones=zones, current=0)
    state.apply_action("red_1+blue_4")  # drawn last, the hand holds Red 1 after Blue 4
    lines = narrate(state.log_for(None), Titles.of(spec))
    assert "  P1 chooses Red 1, Blue 4" in lines
    assert "  Red 1, Blue 4: P1's hand -> the laid" in lines
    many = {"event": "move", "src": "stock", "dst": "hand[P2]", "turn": 0}
    drawn = narrate([many | {"n": 2, "cards": ["blue_1", "red_3"]}], Titles.of(spec))
    assert drawn == ["  Blue 1, Red 3: the stock -> P2's hand"]


def test_a_card_the_viewer_may_not_see_is_a_card_not_a_play_without_one():
    """A Hanamikoji designer's secret card read "P1 chooses Bury", as an action without
    a card; a review found an answer with a hidden card read as a claim ("answers: Block")."""
    titles = Titles.of(load_spec(ROOT / "games" / "take_the_gold.yaml"))
    play_ = {"event": "play", "player": 0, "action": "pirate", "target": 1, "card": None}
    answer = {"event": "react", "player": 1, "reaction": "officer_block", "card": None}
    assert narrate([play_ | {"turn": 1}, answer | {"turn": 1}], titles) == [
        "  P1 plays a card (Pirate) at P2",
        "  P2 answers with a card (Officer block)",
    ]


FAMILY = """
rulespec: 1
name: Tokens
players: {min: 2, max: 2}
hand: hand
deck:
  cards: {gem: {count: 6}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  tokens: {count: 2, visibility: public, titles: [Diamonds, Gold], text: "Goods tokens."}
  hand: {per_player: true, visibility: owner}
turn:
  - step: s
    effect: move(top(pile, 1), tokens(1))
end_conditions:
  done:
    when: size(pile) == 0
    effect: end_game()
"""


def test_a_familys_zones_each_go_by_their_own_title():
    """A Jaipur designer's six token piles read "Goods tokens 0" to "Goods tokens 5", each
    good mapped to its number in the zone's text: `titles:` names each zone."""
    from rulespec.table.seat import help_text

    titles = Titles.of(load_spec("tokens.yaml", FAMILY))
    move = {"event": "move", "src": "pile", "dst": "tokens[1]", "n": 1, "cards": ["gem"]}
    assert narrate([move | {"turn": 1}], titles) == ["  Gem: the pile -> the Gold"]
    assert titles.zone("tokens[0]") == "the Diamonds"
    assert help_text("gold", titles) == "Gold: Goods tokens."
    with pytest.raises(SpecError) as refused:  # one title a zone
        load_spec("tokens.yaml", FAMILY.replace("[Diamonds, Gold]", "[Diamonds]"))
    assert [(d.code, d.message) for d in refused.value.diagnostics] == [
        ("RS104", "zone 'tokens' has 1 titles for a family of 2 zones")
    ]
    with pytest.raises(SpecError) as refused:  # one zone has a title: it was left unread
        load_spec(
            "tokens.yaml", FAMILY.replace("visibility: owner}", "visibility: owner, titles: [H]}")
        )
    assert [d.message for d in refused.value.diagnostics] == [
        "zone 'hand' is one zone: titles names the zones of a family (count)"
    ]
    # two zones by one word are each told (the Jaipur designer's won tokens and the piles)
    won = FAMILY.replace(
        "  hand: {", "  won: {visibility: public, title: gold, text: Won.}\n  hand: {"
    )
    assert help_text("gold", Titles.of(load_spec("tokens.yaml", won))) == (
        "Gold (zone): Won; Gold (zone): Goods tokens"
    )
    # a family found by its name is told once, not again for its zone of that title (a
    # deck-builder's `help ready`: "ready (zone): no text in the rules; ready (zone): …")
    named = FAMILY.replace("[Diamonds, Gold]", "[tokens, Gold]")
    assert help_text("tokens", Titles.of(load_spec("tokens.yaml", named))) == (
        "Tokens: Goods tokens."
    )


def test_one_card_shown_from_a_pile_is_no_order():
    """A Bohnanza designer read "Blue Bean (top first) in P2's hand" of a single card."""
    titles = Titles.of(load_spec(ROOT / "games" / "take_the_gold.yaml"))
    shown = {"event": "reveal", "zone": "draw_pile", "players": [1], "turn": 1}
    one = shown | {"cards": ["pirate"], "depths": [0]}
    two = shown | {"cards": ["pirate", "kraken"], "depths": [1, 0]}
    assert [line.split(" shown")[0] for line in narrate([one, two], titles)] == [
        "  Pirate in the draw pile",
        "  The Kraken, Pirate (top first) in the draw pile",
    ]


def test_two_zones_of_one_title_are_warned_of():
    """The Jaipur designer's second trial: a family's zone titled as another zone, which
    the table and `help` name alike, validated without a word (cards had RS215)."""
    clash = FAMILY.replace("  hand: {", "  spent: {visibility: public, title: gold}\n  hand: {")
    notices = load_spec("tokens.yaml", clash).notices
    assert [(d.code, d.severity, d.message) for d in notices] == [
        (
            "RS216",
            "warning",
            "zones 'tokens(1)' and 'spent' are both titled 'gold': the table names them alike",
        )
    ]
    assert load_spec("tokens.yaml", FAMILY).notices == ()


def test_groups_of_cards_played_as_one_move_are_shown_action_by_action():
    """The Hanamikoji designer's 53 options mixed Trade-off, Gift and Competition by
    their first card: groups now follow the single cards, each action's together under
    its title in the spec's order, each group by its cards in deck order."""
    spec = load_spec(ROOT / "tests/valid/melds.yaml")
    titles, types = Titles.of(spec), [c.name for c in spec.cards]

    def group(action, *names):
        return GroupPlay(action, action, None, None, group=tuple(sorted(map(types.index, names))))

    options = [group("bury_two", types[0], types[1]), group("lay_set", types[1], types[1])]
    options += [group("bury_two", types[0], types[0]), group("lay_set", types[0], types[0])]
    shown = arranged(options, titles, types)
    assert [(s["group"], s["option"].action, s["option"].group) for s in shown] == [
        ("Lay set", "lay_set", (0, 0)),
        ("Lay set", "lay_set", (1, 1)),
        ("Bury two", "bury_two", (0, 0)),
        ("Bury two", "bury_two", (0, 1)),
    ]


def test_a_pass_names_its_step_where_a_turn_has_several_to_pass():
    """A deck-builder's turn passed its action phase, then its treasures, then its buy,
    each "P1 passes"; a turn with one step to pass keeps the short form, as does an
    older log's pass, which names no step. The step follows "at" (a Cuttle trial read
    "P2 passes (Play)" as a pass called Play); a pass_title stays in brackets."""
    two = Titles(
        rules={"turn.act": ("step", "Action phase"), "turn.buy": ("step", "Buy phase")},
        passed=frozenset({"act", "buy"}),
    )
    one = Titles(rules={"turn.buy": ("step", "Buy phase")}, passed=frozenset({"buy"}))
    events = [{"event": "pass", "player": 0, "step": s} for s in ("act", "buy")]
    assert narrate(events, two) == ["  P1 passes at Action phase", "  P1 passes at Buy phase"]
    titled = dataclasses.replace(two, pass_titles={"turn.buy": "Done"})
    assert narrate(events, titled) == ["  P1 passes at Action phase", "  P1 passes (Done)"]
    assert narrate(events[1:], one) == ["  P1 passes"]
    assert narrate([{"event": "pass", "player": 0}], two) == ["  P1 passes"]
    # read from a spec: the steps a player may pass
    assert Titles.of(TTG).passed == {"play"}


def test_a_yes_or_no_parameter_reads_as_a_person_says_it():
    """An Oh Hell designer's table read "Rules: Back down after the top deal True", then
    "Lose the difference when a bid fails false"."""
    params = {"coins_to_win": 4, "down": True, "lose": False}
    lines = table_lines(table(OBSERVATION, TITLES, params), params=True)
    assert lines[-1] == "  Rules: Coins to win 4, down yes, lose no"


def test_a_card_s_own_play_at_a_target_is_its_target_within_its_group():
    """A browser player saw "Two pirates at P2" under the group "Two Pirates": the rule
    the card says anyway, in other capitals. The target alone is shown there; a rule
    the card does not say keeps its words (Pirates Wild's Discard, above)."""
    types = [c.name for c in TTG.cards]
    options = [
        Play(f"two_pirates -> P{p + 1}", "two_pirates", types.index("two_pirates"), p)
        for p in (1, 2)
    ]
    shown = arranged(options, TITLES, types)
    assert [(o["group"], o["short"], o["text"]) for o in shown] == [
        ("Two Pirates", "at P2", "Play Two Pirates at P2"),
        ("Two Pirates", "at P3", "Play Two Pirates at P3"),
    ]


def test_a_seat_that_owns_nothing_has_no_line():
    """A Klondike designer's table said "P1 (you): nothing" at every turn of a game
    without a hand."""
    seen = dict(OBSERVATION, zones={"draw_pile": {"count": 30}}, active=["P1", "P3"])
    lines = table_lines(table(seen, TITLES, {}))
    assert not any(line.startswith(("  P1", "  P3")) for line in lines), lines


def test_a_zone_title_keeps_its_capitals_at_the_table():
    """A Spite and Malice designer's "building pile A" read "Building pile a" (and
    "Stock of NASA", "Stock of nasa"): only the first letter is made a capital."""
    titles = Titles(zones={"draw_pile": "building pile A", "discard_pile": "stock of NASA"})
    lines = table_lines(table(OBSERVATION, titles, {}))
    assert any(line.startswith("  Building pile A:") for line in lines), lines
    assert any(line.startswith("  Stock of NASA:") for line in lines), lines


def test_a_current_player_set_in_a_setup_is_not_told():
    """A Skat designer's deal thrown in said "P3 is to play", then the round ended and
    P3 never played; the first deal said "P2 goes first", the later ones "is to play".
    A setup's set_current is not told (the turn that begins says who plays); one in a
    turn is, however the events are cut (`play` narrates those since the last time)."""
    events = [
        {"event": "round", "round": 1, "turn": 0},
        {"event": "set_current", "player": 1, "turn": 0},
        {"event": "turn", "player": 1, "turn": 1},
        {"event": "set_current", "player": 2, "turn": 1},
        {"event": "round_end", "round": 1, "rule": "out", "turn": 1},
        {"event": "round", "round": 2, "turn": 1},
        {"event": "set_current", "player": 2, "turn": 1},
        {"event": "round_end", "round": 2, "rule": "out", "turn": 1},
    ]
    titles = Titles(rules={"out": ("round end condition", "Passed in")})
    said = narrate(events, titles)
    assert said == [
        "Round 1 begins",
        "Turn 1: P2",
        "P3 is to play",
        'Round 1 ends: "Passed in"',
        "Round 2 begins",
        'Round 2 ends: "Passed in"',
    ]
    for cut in range(len(events) + 1):
        assert narrate(events[:cut], titles) + narrate(events, titles, start=cut) == said


def test_a_player_set_to_play_next_is_not_told_when_the_round_ends_first():
    """A Schnapsen designer's last trick said "P1 plays next", then the round ended and
    the next round's starter played: a new round drops a set_next (language.md,
    rounds). One followed by the turn it names is told."""
    events = [
        {"event": "turn", "player": 0, "turn": 1},
        {"event": "set_next", "player": 1, "turn": 1},
        {"event": "turn", "player": 1, "turn": 2},
        {"event": "set_next", "player": 0, "turn": 2},
        {"event": "round_end", "round": 1, "rule": "out", "turn": 2},
        {"event": "round", "round": 2, "turn": 2},
        {"event": "turn", "player": 1, "turn": 3},
        {"event": "set_next", "player": 0, "turn": 3},
        {"event": "end", "winners": [1], "reason": "out", "turn": 3},
    ]
    titles = Titles(rules={"out": ("round end condition", "Played out")})
    said = narrate(events, titles)
    assert [line for line in said if "next" in line] == ["  P2 plays next"], said
    # events cut before the round's end (a decision between) cannot show it: told
    assert narrate(events[:4], titles)[-1] == "  P1 plays next"


def test_a_play_onto_a_target_zone_says_the_zone_by_its_title():
    """`target: zone`: a card played onto the zone chosen reads "onto" its title, in
    the options and the narration; a card hidden from a seat is "a card" there, the
    zone still said; a zone chosen by an action without a card is said as a chosen
    card is, and the options of a card stand in the family's order."""
    spec = load_spec(ROOT / "tests" / "valid" / "building_piles.yaml")
    titles, types = Titles.of(spec), [c.name for c in spec.cards]
    built = {"event": "play", "player": 0, "action": "build", "target": None, "turn": 1}
    stashed = {"event": "play", "player": 0, "action": "stash", "target": None, "turn": 1}
    taken = {"event": "play", "player": 0, "action": "take_back", "target": None, "turn": 1}
    assert narrate(
        [
            built | {"card": "two", "zone": "build[1]"},
            stashed | {"card": None, "zone": "stash[P1][1]"},
            taken | {"card": None, "zone": "stash[P1][0]"},
        ],
        titles,
    ) == [
        "  P1 builds Two onto the second pile",
        "  P1 stashes a card onto P1's right stash",
        "  P1 takes back P1's left stash",
    ]
    two, ace = types.index("two"), types.index("ace")
    options = [
        Play("build two -> build[2]", "build", two, zone=5),
        Play("build two -> build[1]", "build", two, zone=4),
        Play("build ace -> build[0]", "build", ace, zone=3),
        Play("take_back -> stash[P1][1]", "take_back", zone=8),
    ]
    shown = arranged(options, titles, types)
    assert [(o["group"], o["short"], o["text"]) for o in shown] == [
        ("Ace", "Build onto the first pile", "Build Ace onto the first pile"),
        ("Two", "Build onto the second pile", "Build Two onto the second pile"),
        ("Two", "Build onto the third pile", "Build Two onto the third pile"),
        ("Take back", "P1's right stash", "Take back: P1's right stash"),
    ]
    # the verb stays under the card, or a Build and a Bury read alike (a Kings in the
    # Corner designer's "1) onto the first pile, 2) onto the first pile")
    bury = Play("bury ace -> build[0]", "bury", ace, zone=3)
    titles = dataclasses.replace(
        titles,
        rules={**titles.rules, "bury": ("action", "Bury")},
        verbs={**titles.verbs, "bury": "bury"},
    )
    assert [o["short"] for o in arranged([options[2], bury], titles, types)] == [
        "Build onto the first pile",
        "Bury onto the first pile",
    ]


def test_a_reaction_window_is_headed_by_the_prompts_of_the_reactions_offered():
    """A Mille Bornes designer's Coup fourré had `prompt: "call Coup fourré?"`, never
    shown: its window read "You may answer Speed limit:", the answered action's prompt
    (none) only. The reactions offered word it, each prompt once; the answered action's
    prompt where none of them has one."""
    text = edited(
        (GAMES / "take_the_gold.yaml").read_text(encoding="utf-8"),
        ("    card: officer\n", '    prompt: "block with an Officer?"\n    card: officer\n'),
        (
            "    card: two_officers\n",
            '    prompt: "block with Two Officers?"\n    card: two_officers\n',
        ),
    )
    spec = load_spec("take_the_gold.yaml", text)
    titles = Titles.of(spec)

    def heading(p2_hand: list[str]) -> str:
        state = State.from_layout(
            Game(spec, 2),
            zones={"hand[P1]": ["pirate"], "hand[P2]": p2_hand, "draw_pile": ["gold_coin"] * 3},
        )
        state.apply_action("pirate -> P2")
        assert state.decision_kind() == "react"
        return decision_heading(
            "react", state.decision_asker(), titles, offered=state.legal_actions()
        )

    assert heading(["officer", "gold_coin"]) == "You may answer Pirate — block with an Officer?"
    assert heading(["officer", "officer", "two_officers"]) == (
        "You may answer Pirate — block with an Officer? / block with Two Officers?"
    )
    assert decision_heading("react", "pirate", titles) == (  # none offered with a prompt
        "You may answer Pirate — block it with an Officer?"
    )


def test_a_text_shows_the_parameters_it_names_as_the_game_sets_them():
    """A browser trial read "The first side to 5 points wins." beside "Points to win 7"
    in a variant: a text names a parameter in braces, `{points_to_win}`, and shows its
    value, a variant's too; one that names no parameter shows as written, RS214."""
    whist = ROOT / "games/whist.yaml"
    for variants, points in (((), 5), (("seven_points",), 7)):
        titles = Titles.of(load_spec(whist, variants=variants))
        assert titles.text("rules", "side_wins") == f"The first side to {points} points wins."
    text = (ROOT / "tests/valid/high_card.yaml").read_text(encoding="utf-8")
    spec = load_spec(
        "high_card.yaml",
        text.replace(
            "  hands_empty:\n",
            '  hands_empty:\n    text: "{deal_size} cards each, then {deal_sise}."\n',
        ),
    )
    # a parameter set by player count: its value and the counts' own
    said = Titles.of(spec).text("rules", "hands_empty")
    assert said == "5 (4 with 5 players) cards each, then {deal_sise}."
    [notice] = [d for d in spec.notices if d.code == "RS214"]
    assert "{deal_sise}" in notice.message and "deal_size" in notice.hint


def test_a_refill_names_its_cards_bottom_first_as_a_pile_moved_whole():
    """A Crazy Eights designer read a refill's line as bottom first where cli.md said
    "a pile's cards, top first": a draw takes a pile's cards top first, card by card,
    but a pile moved whole (a refill's cards too) goes from the bottom up, as `move`
    lays it, and the line names them so: the first card laid on the discards first."""
    spec = load_spec(ROOT / "tests" / "valid" / "pass_draws.yaml")
    state = play(Game(spec, 2).new_initial_state(seed=0), make_agents(["random"], 2, 0))
    log = state.log_for(None)
    refill = next(i for i, e in enumerate(log) if e["event"] == "refill")
    laid = [e["cards"][0] for e in log[:refill] if e["event"] == "move" and e["dst"] == "discard"]
    moved = [e for e in log[:refill] if e["event"] == "move" and e["src"] == "discard"][-1]
    assert moved["cards"] == laid[:-1]  # all but the top, bottom first
    line = narrate(log[: refill + 1], Titles.of(spec))[-3]
    bottom, below_the_top = (name.replace("_", " ") for name in (laid[0], laid[-2]))
    assert bottom != below_the_top  # the two ends are told apart
    assert line.startswith(f"  {bottom}") and line.endswith(": the discard -> the stock")
