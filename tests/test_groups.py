"""Several cards as one move (an action's `count`): one option per distinct group, its
condition read on the whole group, the group played together; seen by those who see
it; numbered in a fixed action space; bounded."""

from __future__ import annotations

import itertools
import random

import pytest
from gamekit import GAMES, ROOT

from rulespec import load_spec
from rulespec.interpreter import Game, RuleError, State
from rulespec.interpreter.agents import make_agents, play
from rulespec.interpreter.choices import GroupPlay, groups
from rulespec.lang.costs import group_count
from rulespec.lang.diagnostics import SpecError
from rulespec.table.encoding import ActionSpace

MELDS = ROOT / "tests" / "valid" / "melds.yaml"


@pytest.fixture(scope="module")
def game():
    return Game(load_spec(MELDS), 2)


def test_groups_are_multisets_of_the_types_held_smallest_first():
    assert list(groups([(0, 2), (1, 1)], 1, 3)) == [
        (0,),
        (1,),
        (0, 0),
        (0, 1),
        (0, 0, 1),
    ]
    assert list(groups([(0, 1)], 2, 4)) == []  # one card cannot make a pair


def test_options_are_distinct_sorted_and_the_same_in_a_clone(game):
    hand = ["red_3", "blue_3", "blue_3", "red_4", "blue_4"]
    state = State.from_layout(game, zones={"hand[P1]": hand, "pile": ["red_6", "red_5", "red_6"]})
    labels = state.legal_labels()
    assert labels == sorted(labels) and len(set(labels)) == len(labels)
    assert "lay_set blue_3+blue_3" in labels and labels.count("lay_set red_3+blue_3") == 1
    assert all(isinstance(o, GroupPlay) for o in state.legal_actions() if o.label != "pass")
    assert state.clone().legal_labels() == labels


def test_a_hand_of_distinct_cards_is_offered_every_set_its_rules_allow(game):
    """A hand holding one card of each type (a deck with suits) is offered every set of
    its cards that the rules allow, as a hand with copies is: every run of three to six
    in one suit, every set of two to four of one rank, worked out here by brute force."""
    hand = ["red_1", "red_2", "red_3", "red_4", "blue_2", "blue_4"]
    state = State.from_layout(game, zones={"hand[P1]": hand, "pile": ["blue_6", "blue_1", "red_6"]})
    held = state.observation(0)["zones"]["hand[P1]"]  # the turn's draw added the pile
    assert len(set(held)) == len(held) == 8
    order = {name: i for i, name in enumerate(game.type_names)}
    suit, rank = (lambda c: c.split("_")[0]), (lambda c: int(c.split("_")[1]))
    want = []
    for n in range(2, 7):
        for cards in itertools.combinations(sorted(held, key=order.get), n):
            ranks = sorted(rank(c) for c in cards)
            if n <= 4 and len(set(ranks)) == 1:
                want.append("lay_set " + "+".join(cards))
            if (
                n >= 3
                and len({suit(c) for c in cards}) == 1
                and ranks == list(range(ranks[0], ranks[0] + n))
            ):
                want.append("lay_run " + "+".join(cards))
    assert [x for x in state.legal_labels() if x != "pass"] == sorted(want)
    assert "lay_run red_1+red_2+red_3+red_4" in want and "lay_set red_1+blue_1" in want


def test_the_played_group_is_bound_as_card_and_moves_together(game):
    state = State.from_layout(
        game,
        zones={"hand[P1]": ["red_2", "red_2", "blue_2"], "pile": ["red_6", "blue_5", "red_6"]},
    )
    state.apply_action("lay_set red_2+red_2+blue_2")
    obs = state.observation(0)
    assert sorted(obs["zones"]["table[P1]"]) == ["blue_2", "red_2", "red_2"]
    assert obs["counters"]["score[P1]"] == 6
    moves = [e for e in state.log_for(None) if e["event"] == "move" and e["dst"] == "table[P1]"]
    assert len(moves) == 1 and moves[0]["n"] == 3


def test_random_play_keeps_the_invariants_and_every_label_is_numbered(game):
    space = ActionSpace(game)
    for seed in range(20):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.check_invariants()
            if state.is_chance_node():
                state.sample_chance()
                continue
            for label in state.legal_labels():
                space.action_of(label)
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.result["over"]


def test_the_random_agent_plays_whole_games(game):
    state = play(game.new_initial_state(seed=4), make_agents(["random"], 2, 4))
    assert state.is_terminal() and state.result["reason"] in ("thirty", "pile_out")


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
def test_an_offer_of_too_many_groups_fails_at_the_spec(tmp_path):
    text = MELDS.read_text().replace("count: {min: 3, max: 6}", "count: {min: 1}")
    text = text.replace("count: 2\n    to: buried", "count: {min: 1}\n    to: buried")
    spec = load_spec(tmp_path / "many.yaml", text=text)
    game = Game(spec, 2)
    with pytest.raises(ValueError, match="too many to number"):
        ActionSpace(game)
    pile = [f"{s}_{r}" for s in ("red", "blue") for r in range(1, 7)] * 2
    with pytest.raises(RuleError, match="more than 10,000 groups"):
        State.from_layout(game, zones={"hand[P1]": pile[:20], "pile": pile[20:]})


AROUND = """\
rulespec: 1
name: Lead Or Discard
players: {min: 2, max: 2}
hand: hand
deck:
  build:
    - card: "c{n}"
      each: {n: {from: 1, to: 30}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  table: {visibility: public}
  hand: {per_player: true, visibility: owner}
turn:
  - step: play
    actions: [lead, discard]
    around: all_pass
actions:
  lead:
    card: any
    count: {min: 1, max: 4}
    if: RULES_OUT and size(card) <= 1
    to: table
  discard:
    card: any
    to: table
"""


@pytest.mark.parametrize(
    "rules_out", ["current == seat(0)", "size(hand(target)) > 100"], ids=["player", "target"]
)
def test_no_group_is_made_where_the_condition_rules_out_every_group(tmp_path, rules_out):
    """P2's hand of 24 types has 12,950 groups of one to four; a part of lead's `if`
    that does not read the group rules P2 out (or P2's one target), so asking P2 makes
    no group (it failed with RS701 when every group was made, then tried)."""
    text = AROUND.replace("RULES_OUT", rules_out)
    if "target" in rules_out:
        text = text.replace("card: any\n    count", "card: any\n    target: other\n    count")
    game = Game(load_spec(tmp_path / "lead.yaml", text=text), 2)
    cards = [f"c{n}" for n in range(1, 31)]
    state = State.from_layout(
        game, zones={"hand[P1]": cards[:2], "hand[P2]": cards[2:26], "pile": cards[26:]}
    )
    state.apply_action(state.legal_actions()[0])  # P1 plays; P2 is asked next
    assert state.current_player() == 1
    assert not any(label.startswith("lead") for label in state.legal_labels())
    assert len(state.legal_labels()) == 25  # each card to discard, or pass


@pytest.mark.parametrize(
    "change, code, message",
    [
        ("count: 2\n    target: card\n    among: hand(current)", "RS104", "'count' is for an"),
        ("count: {min: 2, max: 65}", "RS104", "over 64"),
    ],
)
def test_bad_groups_are_refused(tmp_path, change, code, message):
    text = MELDS.read_text().replace("count: 2\n    to: buried", change + "\n    to: buried")
    with pytest.raises(SpecError) as err:
        load_spec(tmp_path / "bad.yaml", text=text)
    found = [(d.code, d.message) for d in err.value.diagnostics]
    assert any(c == code and message in m for c, m in found), found


def _source(game) -> str:
    return "\n".join(line for listing in game.exprs.listings for line in listing.lines)


def test_steps_without_groups_generate_the_same_offers(game):
    """The hot path: a play step of a bundled game without a group action (`count`)
    calls no group helper."""
    assert "g._offer_groups(" in _source(game)
    for path in sorted(GAMES.glob("*.yaml")):
        spec = load_spec(path)
        if any(action.count for action in spec.actions):
            continue  # Cribbage lays away two cards as one move
        assert "_offer_groups" not in _source(Game(spec, spec.default_players)), path.name


def test_a_person_reads_a_group_option_as_its_cards(game):
    from rulespec.table.narrate import Titles
    from rulespec.table.view import option_text

    state = State.from_layout(
        game, zones={"hand[P1]": ["red_3", "blue_3"], "pile": ["red_1", "red_6", "red_5"]}
    )
    titles = Titles.of(game.spec)
    texts = [option_text(o, titles, game.type_names) for o in state.legal_actions()]
    assert texts == ["Play Red 3, Blue 3 (Lay set)", "Pass"]


def test_a_group_may_have_a_target(tmp_path):
    text = MELDS.read_text().replace(
        "count: 2\n    to: buried", "count: 2\n    target: other\n    to: table(target)"
    )
    game = Game(load_spec(tmp_path / "gift.yaml", text=text), 3)
    state = State.from_layout(
        game, zones={"hand[P1]": ["red_3"], "pile": ["red_1", "red_6", "red_5"]}, out=[2]
    )
    state.apply_action("pass")
    assert state.legal_labels() == [
        "bury_two red_1+red_3 -> P2",
        "bury_two red_1+red_6 -> P2",
        "bury_two red_3+red_6 -> P2",
    ]
    state.apply_action("bury_two red_1+red_6 -> P2")
    assert sorted(state.observation(None)["zones"]["table[P2]"]) == ["red_1", "red_6"]


RANKS_SPEC = """\
rulespec: 1
name: Lead A Rank
players: {min: 2, max: 2}
hand: hand
deck:
  build:
    - card: "{suit}_{rank}"
      each:
        suit: [red, blue, green, gold]
        rank: {from: 1, to: 8}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  table: {visibility: public}
  hand: {per_player: true, visibility: owner}
turn:
  - step: play
    actions: [lead]
actions:
  lead:
    card: any
    COUNT
    to: table
"""
SAME_RANK = "if: all(c.rank == card.rank for c in card)"


@pytest.mark.parametrize("ranks", [3, 6])
def test_same_makes_the_groups_of_one_value_only(tmp_path, ranks):
    """`same: rank` offers what an `if` that all cards share the rank offers, without
    making every other group first: 24 cards of 6 ranks hold 12,950 groups of one to
    four, too many to try (RS701), and 90 of one rank."""
    made = {}
    for name, count in (
        ("same", "count: {min: 1, max: 4, same: rank}"),
        ("if", "count: {min: 1, max: 4}\n    " + SAME_RANK),
    ):
        spec = load_spec(tmp_path / f"{name}.yaml", text=RANKS_SPEC.replace("COUNT", count))
        made[name] = Game(spec, 2)
    suits = ("red", "blue", "green", "gold")
    hand = [f"{s}_{r}" for r in range(1, ranks + 1) for s in suits]
    rest = [f"{s}_{r}" for r in range(ranks + 1, 9) for s in suits]
    layout = {"hand[P1]": hand, "hand[P2]": rest[:1], "pile": rest[1:]}
    labels = State.from_layout(made["same"], zones=layout).legal_labels()
    assert len(labels) == ranks * 15  # 4 + 6 + 4 + 1 groups of each rank's four suits
    played = [label.split()[1].split("+") for label in labels]
    assert all(len({card.split("_")[1] for card in group}) == 1 for group in played)
    if ranks == 3:  # few enough to try them all: the if gives the same options
        assert State.from_layout(made["if"], zones=layout).legal_labels() == labels
    else:
        with pytest.raises(RuleError, match="more than 10,000 groups"):
            State.from_layout(made["if"], zones=layout)


def test_same_names_a_property_of_the_deck(tmp_path):
    text = RANKS_SPEC.replace("COUNT", "count: {min: 1, max: 4, same: rnak}")
    with pytest.raises(SpecError) as err:
        load_spec(tmp_path / "bad.yaml", text=text)
    ((d,),) = [err.value.diagnostics]
    assert d.code == "RS201" and "rnak" in d.message and "rank" in d.hint


PAIR_AT = """\
rulespec: 1
name: Pair At The Holder
players: {min: 2, max: 2}
hand: hand
deck:
  build:
    - card: "card_{rank}"
      each:
        rank: {from: 1, to: 6}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
  table: {visibility: public}
turn:
  - step: play
    actions: [pair, lay]
actions:
  pair:
    card: any
    count: 2
    if: IF
    to: table
  lay:
    card: any
    to: table
"""
HOLDER = "nth(filter(size(hand(q)) > 2 for q in players), 0) != current"  # fails with none


@pytest.mark.parametrize(
    "condition, fails",
    [
        (f"all(c.rank == nth(card, 0).rank for c in card) and {HOLDER}", False),
        (f"{HOLDER} and all(c.rank == nth(card, 0).rank for c in card)", True),
    ],
    ids=["after-the-group's-part", "first"],
)
def test_the_card_free_part_is_tested_first_only_where_the_condition_tests_it_first(
    tmp_path, condition, fails
):
    """No hand holds more than 2 cards, so HOLDER fails (nth of no player). Written after
    a part that reads the group, it is never reached (the two cards are no pair): the
    offer goes on as it always did. Written first, every group reaches it: it fails."""
    spec = load_spec(tmp_path / "pair.yaml", text=PAIR_AT.replace("IF", condition))
    layout = {"hand[P1]": ["card_1", "card_2"], "hand[P2]": ["card_3"], "pile": ["card_4"]}
    if fails:
        with pytest.raises(RuleError, match="nth"):
            State.from_layout(Game(spec, 2), zones=layout)
    else:
        state = State.from_layout(Game(spec, 2), zones=layout)
        assert state.legal_labels() == ["lay card_1", "lay card_2"]


def test_same_groups_a_card_without_the_property_as_the_if_reads_it(tmp_path):
    """A card type without the property has the value c.rank reads for it (0): with a
    rank-0 card, a joker without a rank makes a group, as the if's form offers it."""
    deck = """deck:
  cards:
    low: {count: 2, props: {rank: 1}}
    zero: {count: 1, props: {rank: 0}}
    joker: {count: 1}
"""
    labels = {}
    for name, count in (
        ("same", "count: {min: 2, max: 2, same: rank}"),
        ("if", "count: 2\n    " + SAME_RANK),
    ):
        text = RANKS_SPEC.replace("COUNT", count)
        text = text[: text.index("deck:")] + deck + text[text.index("zones:") :]
        game = Game(load_spec(tmp_path / f"{name}.yaml", text=text), 2)
        layout = {"hand[P1]": ["low", "low", "zero", "joker"], "hand[P2]": [], "pile": []}
        labels[name] = State.from_layout(game, zones=layout).legal_labels()
    assert labels["same"] == labels["if"] == ["lead low+low", "lead zero+joker"]


def test_a_fixed_action_space_numbers_the_groups_of_one_value_only(tmp_path):
    """32 card types, groups of one to eight: over 15 million multisets; of one rank
    (four suits), 15 for each of 8 ranks."""
    text = RANKS_SPEC.replace("COUNT", "count: {min: 1, max: 8, same: rank}")
    space = ActionSpace(Game(load_spec(tmp_path / "r.yaml", text=text), 2))
    leads = [label for label in space.labels if label.startswith("lead ")]
    assert len(leads) == 8 * 15
    with pytest.raises(ValueError, match="or a same property"):
        ActionSpace(Game(load_spec(tmp_path / "n.yaml", text=text.replace(", same: rank", "")), 2))


@pytest.mark.parametrize("copies", [(1,), (4, 4, 4), (2, 1, 3, 1), (5, 0, 2)])
def test_the_groups_are_counted_as_many_as_are_made(copies):
    """The refusal of too many groups counts them first (making 15 million took
    seconds); the count is the number made, for every size range."""
    held = [(t, n) for t, n in enumerate(copies) if n]
    for low in range(sum(copies) + 1):
        for high in range(low, sum(copies) + 2):
            made = len(list(groups(held, low, min(high, sum(copies)))))
            assert group_count(held, low, high) == made, (low, high)


SELL = """
rulespec: 1
name: Sell
players: {min: 2, max: 2}
hand: hand
deck:
  cards: {cloth: {count: 6}, spice: {count: 6}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
  sold: {visibility: public}
setup:
  effect: |
    shuffle(pile)
    for p in players { move(top(pile, 4), hand(p)) }
turn:
  - step: sell
    actions: [sell]
actions:
  sell:
    card: any
    count: {min: 1, same: card}
    to: sold
end_conditions:
  done:
    when: size(hand(current)) == 0
    effect: end_game()
"""


def test_a_group_of_one_card_type_needs_no_property():
    """A Jaipur designer sold "any number of one good" by giving each card a property
    naming its own type (`same: pile`): `same: card` groups cards of one type."""
    game = Game(load_spec("sell.yaml", SELL), 2)
    for seed in range(10):
        state = game.new_initial_state(seed=seed)
        while state.is_chance_node():
            state.sample_chance()
        for option in state.legal_actions():
            assert len({game.type_names[t] for t in option.group}) == 1, option.label
        held = state.observation(state.current_player())["zones"][
            f"hand[P{state.current_player() + 1}]"
        ]
        # one option for each type held and each number of its copies, as many as held
        assert len(state.legal_actions()) == sum(held.count(t) for t in set(held))
