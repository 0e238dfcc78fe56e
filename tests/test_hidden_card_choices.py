"""Twin games that differ only in what P2 cannot see (a hand's cards, the order they
came in) give P2 the same log. A card chosen is named to the other seats only where
the rules offer face-up cards alone (a source reading public zones only): never by
where the chosen card happens to lie, which hangs on hidden cards where a source mixes
a hidden hand with the row (one option per card type, its card the first of the type
in the set). A loop over a hand goes in deck order, not in the order its cards came."""

import json
import random

import pytest
from gamekit import ROOT, edited, spec_errors

from rulespec import load_spec
from rulespec.interpreter import Game, State

MIX = """
rulespec: 1
name: Mix
players: {min: 2, max: 2}
hand: hand
deck:
  cards:
    a: {count: 2}
    b: {count: 2}
    z: {count: 4}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
  row: {visibility: public}
conditions:
  face_up:
    type: cards
    value: row
counters:
  n: {initial: 0}
turn:
  - step: pick
    effect: |
      choose(current) c from SOURCE { n += 1 }
end_conditions:
  done:
    when: n >= 1
    effect: win(current)
"""


def _p2_choices(source: str, hand: list[str], pick: str) -> list[dict]:
    spec = load_spec("mix.yaml", edited(MIX, ("SOURCE", source)))
    state = State.from_layout(Game(spec, 2), zones={"hand[P1]": hand, "row": ["b"], "pile": ["z"]})
    state.apply_action(pick)
    return [e for e in state.log_for(1) if e["event"] == "choice"]


@pytest.mark.parametrize(
    "source", ["hand(current) + row", "face_up() + hand(current)", "row + top(pile, 0)"]
)
def test_a_choice_that_reads_a_hidden_zone_stays_secret_whatever_it_offers(source):
    """A reviewer's twins: P1 holds a or b and takes the row's b. Shown where P1 held
    no b (the b offered lay in the row), hidden where it held one: P2 learnt P1's hand.
    A source that reads a hidden zone is secret, even where it offers none of its cards.
    (Holding a b, P1 is offered each b by its zone.)"""
    holding_a = _p2_choices(source, ["a"], "b")
    holding_b = _p2_choices(source, ["b"], "b" if "top(pile" in source else "b from row")
    assert holding_a == holding_b
    assert [e["option"] for e in holding_a] == [None]


@pytest.mark.parametrize("source", ["row", "face_up()", "union(row for q in players)"])
def test_a_choice_among_face_up_cards_is_named_to_every_seat(source):
    assert [e["option"] for e in _p2_choices(source, ["a"], "b")] == ["b"]


def _p2_twins(effect, picks, *edits, held_in="hand[P1]", zones=None) -> list[list[dict]]:
    """P2's choice events where P1 holds an a, then a b (in `held_in`; picks: P1's
    answers in each), of the MIX game whose pick step runs `effect`, its text edited so
    too (`edits`), the row (or `zones`) face up."""
    text = edited(MIX, ("      choose(current) c from SOURCE { n += 1 }", effect), *edits)
    logs = []
    for held in ("a", "b"):
        laid = {held_in: [held], "pile": ["z"]} | (zones or {"row": ["b", "z"]})
        state = State.from_layout(Game(load_spec("mix.yaml", text), 2), zones=laid)
        for pick in picks[held]:
            state.apply_action(pick)
        logs.append([e for e in state.log_for(1) if e["event"] == "choice"])
    return logs


PROCEDURE = (
    "turn:",
    "procedures:\n  take:\n    params: {k: int}\n    effect: choose(current) c from "
    "(if k > 0 then of(row, z) else of(row, b)) { n += 1 }\nturn:",
)


@pytest.mark.parametrize(
    "effect, picks, edits",
    [
        # a count of P1's hand, held in a let, picks which face-up cards are offered
        (
            "      let k = count(hand(current), a)\n"
            "      choose(current) c from (if k > 0 then of(row, z) else of(row, b)) { n += 1 }",
            {"a": ["z"], "b": ["b"]},
            (),
        ),
        # so does a procedure's number parameter given that count
        ("      take(count(hand(current), a))", {"a": ["z"], "b": ["b"]}, (PROCEDURE,)),
        # a choice's own filter that reads P1's hand
        (
            "      choose(current) c from row if count(hand(current), a) == count(c, b) { n += 1 }",
            {"a": ["b"], "b": ["z"]},
            (),
        ),
    ],
    ids=["let", "procedure", "filter"],
)
def test_a_choice_whose_face_up_cards_hang_on_a_hidden_count_stays_secret(effect, picks, edits):
    """A review's twins: the cards offered from the row, or which of them a filter keeps,
    hang on P1's hand through a number; naming the pick told P2 what P1 held."""
    held_a, held_b = _p2_twins(effect, picks, *edits)
    assert held_a == held_b and [e["option"] for e in held_a] == [None]


STASH = (
    "  row: {visibility: public}\n",
    "  row: {visibility: public}\n  stash: {per_player: true, count: 2, visibility: owner}\n",
)


@pytest.mark.parametrize(
    "effect",
    [
        "      for r in stash(current) { choose(current) c from r { n += 1 } }",
        "      choose(current) c from union(r for r in stash(current)) { n += 1 }",
    ],
    ids=["loop", "union"],
)
def test_a_choice_from_a_family_of_face_down_zones_stays_secret(effect):
    """A review's: a loop over a seat's face-down stashes, or their union, named the
    card P1 took from them: a or b, what P1 stashed."""
    held_a, held_b = _p2_twins(effect, {"a": ["a"], "b": ["b"]}, STASH, held_in="stash[P1][0]")
    assert held_a == held_b and [e["option"] for e in held_a] == [None]


def test_a_loop_s_variable_over_face_up_zones_is_read_through_its_items():
    """`for i in range(2)`: the rows it goes over are public, and so is the pick."""
    rows = ("  row: {visibility: public}\n", "  row: {visibility: public, count: 2}\n")
    effect = "      for i in range(1) { choose(current) c from row(i) { n += 1 } }"
    face_up = ("    value: row\n", "    value: row(0)\n")
    picks = {"a": ["b"], "b": ["b"]}
    held_a, held_b = _p2_twins(effect, picks, rows, face_up, zones={"row[0]": ["b"]})
    assert held_a == held_b and [e["option"] for e in held_a] == ["b"]


PLAYED = """
rulespec: 1
name: Played
players: {min: 2, max: 2}
hand: hand
deck:
  build:
    - card: "c{n}"
      each: {n: {from: 1, to: 6}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
  row: {visibility: public}
  taken: {per_player: true, visibility: VISIBILITY}
turn:
  - step: play
    actions: [take]
actions:
  take:
    card: any
    to: taken(current)
    effect: choose(current) s from summing(row, "n", card.n) { move(s, taken(current)) }
end_conditions:
  done:
    when: size(row) < 4
    effect: end_game()
"""


@pytest.mark.parametrize("visibility, shown", [("public", "c1+c4"), ("owner", None)])
def test_a_choice_that_reads_a_card_every_seat_saw_played_is_named_to_every_seat(visibility, shown):
    """A Scopa designer's capture: the cards of the row that sum to the played card's
    rank. Every seat saw the card go face up, so the choice reads nothing hidden and
    is named to them; played face down, its rank is P1's to know, and the choice is
    secret."""
    spec = load_spec("played.yaml", edited(PLAYED, ("VISIBILITY", visibility)))
    row = ["c1", "c4", "c2", "c3"]
    state = State.from_layout(Game(spec, 2), zones={"row": row, "hand[P1]": ["c5"]})
    state.apply_action("take c5")
    assert state.legal_labels() == ["c1+c4", "c2+c3"]
    state.apply_action("c1+c4")
    assert [e["option"] for e in state.log_for(1) if e["event"] == "choice"][-1] == shown


@pytest.mark.parametrize(
    "visibility, shown", [("public", "c1+c4"), ("owner", None), ("hidden", None)]
)
def test_a_choice_that_reads_a_group_every_seat_saw_played_is_named_to_every_seat(
    visibility, shown
):
    """An Exploding Kittens designer's five-card combo, then a card taken from the
    discard: a group played (`count:`) shows its cards where they go, as a single card
    does, so a choice that reads it is named to every seat where they went face up, and
    stays secret where they went to an owner's zone or face down; say() may name the
    cards taken where the choice is named."""
    take = ("card: any", "card: any\n    count: 2")
    total = ("card.n)", "sum(d.n for d in card))")
    text = edited(PLAYED, ("VISIBILITY", visibility), take, total)
    said = edited(text, ("move(s, taken(current))", 'say("takes {s}")'))
    if shown:
        load_spec("group.yaml", said)  # no RS415
    else:
        assert [code for code, _ in spec_errors(said)] == ["RS415"]
    spec = load_spec("group.yaml", text)
    row = ["c1", "c4", "c5", "c6"]
    state = State.from_layout(Game(spec, 2), zones={"row": row, "hand[P1]": ["c2", "c3"]})
    state.apply_action("take c2+c3")
    assert state.legal_labels() == ["c1+c4", "c5"]
    state.apply_action("c1+c4")
    assert [e["option"] for e in state.log_for(1) if e["event"] == "choice"][-1] == shown


LOOP = """
rulespec: 1
name: Hand to row
players: {min: 2, max: 2}
hand: hand
deck:
  build:
    - card: "c_{rank}"
      each:
        rank: {from: 1, to: 9}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
  row: {visibility: public, ordered: true}
turn:
  - step: lay
    effect: |
      for c in LOOPED { move(c, row) }
end_conditions:
  over:
    when: size(row) > 0
    effect: win(current)
"""


@pytest.mark.parametrize(
    "looped, row",
    [
        ("hand(current)", ["c_7", "c_1"]),  # deck order: c_1 first, so it lies below
        ("sort(0 - c.rank for c in hand(current))", ["c_1", "c_7"]),  # as sort gives them
    ],
)
def test_a_loop_over_a_hand_goes_in_deck_order_not_the_order_cards_came(looped, row):
    """A reviewer's twins: hands that came [c_7, c_1] and [c_1, c_7], alike to every
    seat, laid a row in the order they came."""
    spec = load_spec("loop.yaml", edited(LOOP, ("LOOPED", looped)))
    logs = []
    for came in (["c_7", "c_1"], ["c_1", "c_7"]):
        state = State.from_layout(Game(spec, 2), zones={"hand[P1]": came, "pile": ["c_3"]})
        assert state.is_terminal()  # the loop ran as the layout's first turn began
        logs.append(state.log_for(1))
        assert state.observation(1)["zones"]["row"] == row[::-1]  # listed bottom first
    assert logs[0] == logs[1]


BLIND = """
rulespec: 1
name: Blind
players: {min: 2, max: 2}
hand: hand
deck:
  cards: {low: {count: 4}, high: {count: 4}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  down: {count: 2, visibility: hidden}
  hand: {per_player: true, visibility: owner}
  discard: {visibility: public}
turn:
  - step: take
    effect: |
      choose(current) c from down(0) + down(1) + hand(current) { move(c, discard) }
end_conditions:
  done:
    when: size(discard) > 0
    effect: end_game()
"""


def _blind(zones: dict, effect: str | None = None) -> State:
    text = BLIND if effect is None else edited(BLIND, ("choose(current) c from", effect))
    return State.from_layout(Game(load_spec("blind.yaml", text), 2), zones=zones)


def test_a_choice_offers_the_cards_its_chooser_cannot_see_by_their_place():
    """A Golf designer's face-down grid: a choice among face-down cards named them in
    its options ("high from down[1]"), showing the chooser what lay there. Twins that
    differ only in the face-down cards offer the same, each zone by its label."""
    twins = [
        _blind({"down[0]": ["low"], "down[1]": ["high", "low"], "hand[P1]": ["low"]}),
        _blind({"down[0]": ["high"], "down[1]": ["high", "high"], "hand[P1]": ["low"]}),
    ]
    offered = [[o.label for o in s.legal_actions()] for s in twins]
    assert offered[0] == offered[1] == ["down[0]", "down[1]", "low"]
    # chance then picks which card of the zone it is, by the types lying there
    twins[0].apply_action("down[1]")
    assert twins[0].is_chance_node()
    assert sorted((o.label, p) for o, p in twins[0].chance_outcomes()) == [
        ("high", 0.5),
        ("low", 0.5),
    ]
    twins[0].apply_action("high")
    assert twins[0].observation(None)["zones"]["discard"] == ["high"]
    twins[1].apply_action("down[0]")  # one card there: no chance to ask
    assert twins[1].observation(None)["zones"]["discard"] == ["high"]


def test_cards_the_chooser_knows_lie_there_are_offered_by_card():
    """A peek first (reveal), then the choice: the cards shown are told apart, the
    others still by place."""
    state = _blind(
        {"down[0]": ["low"], "down[1]": ["high", "low"], "hand[P1]": []},
        "reveal(down(0), current)\n      choose(current) c from",
    )
    assert [o.label for o in state.legal_actions()] == ["down[1]", "low"]


def test_a_card_known_in_a_zone_in_no_order_is_not_singled_out():
    """Shown both cards of down[1] (a zone in no order, as a hand held face down), the
    chooser still picks there blind: a Skull designer's player, who had seen a Flower go
    back into a hand, was offered that Flower by card. Shown the one card of down[0],
    it takes that card, as it would by the zone."""
    state = _blind(
        {"down[0]": ["low"], "down[1]": ["high", "low"], "hand[P1]": []},
        "reveal(down(0) + down(1), current)\n      choose(current) c from",
    )
    assert [o.label for o in state.legal_actions()] == ["down[1]", "low"]
    state.apply_action("down[1]")
    assert sorted((o.label, p) for o, p in state.chance_outcomes()) == [
        ("high", 0.5),
        ("low", 0.5),
    ]


def test_a_card_known_in_a_pile_shuffled_since_is_not_singled_out():
    """Shown the whole pile, then seeing it shuffled, the chooser knows what lies there
    but not where: it picks blind (a review: it was offered 'high' by name, and took
    one, out of a shuffled pile). Of a pile all of one type, any card is that type."""
    for pile in (["high", "low", "low"], ["low", "low"]):
        state = _blind(
            {"pile": pile, "hand[P1]": []},
            "reveal(pile, current)\n      shuffle(pile)\n      choose(current) c from pile {"
            " move(c, discard) }\n      choose(current) c from",
        )
        while state.is_chance_node():
            state.sample_chance()
        offered = [o.label for o in state.legal_actions()]
        assert offered == (["pile"] if "high" in pile else ["low"]), pile


BLINDS = ROOT / "tests" / "blind"  # a review's specs of blind picks


def test_a_blind_pick_plays_alike_with_views_or_without():
    """The choice reads what its chooser knows (of a zone all of one type it knows,
    the cards are offered by card), which a state made with views=False (simulate's)
    did not keep: `rulespec simulate`
    and `rulespec run` of one seed played different games (a review)."""
    game = Game(load_spec(BLINDS / "give.yaml"), 2)
    for seed in range(10):
        games = [game.new_initial_state(seed, views=v) for v in (True, False)]
        pick = random.Random(seed)
        while not games[0].is_terminal():
            labels = [s.legal_labels() if not s.is_chance_node() else None for s in games]
            assert labels[0] == labels[1]
            for s in games:
                if s.is_chance_node():
                    s.sample_chance()
            if labels[0] is not None:
                choice = pick.choice(labels[0])
                for s in games:
                    s.apply_action(choice)
        assert games[0].result == games[1].result


def test_a_card_known_at_its_place_in_a_pile_is_the_one_taken():
    """P1 put a high on top of a hidden pile holding a high at its bottom: its option
    'high' took the bottom one, and after a re-deal a card from another zone (a review)."""
    game = Game(load_spec(BLINDS / "pile.yaml"), 2)

    def put_high():
        zones = {"pile": ["low", "high"], "hand[P1]": ["high"], "box": ["low"] * 3 + ["high"] * 2}
        state = State.from_layout(game, zones=zones)
        state.apply_action("high")  # P1 puts it on top: it knows the top card
        return state

    state = put_high()
    assert [o.label for o in state.legal_actions()] == ["high", "pile"]
    state.apply_action("high")
    assert state.observation(None)["zones"]["pile"] == ["high", "low"]  # bottom first: top gone
    for seed in range(20):  # the known top card stays put in a re-deal, and is the one taken
        state = put_high()
        state.redeal(0, random.Random(seed))
        state.apply_action("high")
        zones = state.observation(None)["zones"]
        assert (len(zones["pile"]), len(zones["box"]), zones["discard"]) == (2, 5, ["high"])


def test_of_a_type_known_with_and_without_its_place_the_placed_one_is_taken():
    """P1 put a high in a pile, shuffled, then a second on top: it knows the top one's
    place and one more high somewhere; 'high' took the other (a second review)."""
    game = Game(load_spec(BLINDS / "pile2.yaml"), 2)
    for seed in range(10):
        zones = {"pile": ["low"] * 3, "hand[P1]": ["high", "high"], "box": ["low", "high", "high"]}
        state = State.from_layout(game, seed, zones=zones)
        state.apply_action("high")
        while state.is_chance_node():
            state.sample_chance(random.Random(seed))
        state.apply_action("high")
        seen = state.observation(0)["zones"]["pile"]["revealed"]
        assert {"card": "high", "depth": 0} in seen
        before = state.observation(None)["zones"]["pile"]  # bottom first
        state.apply_action("high")
        assert state.observation(None)["zones"]["pile"] == before[:-1], seed  # the top one


@pytest.mark.parametrize("name", ["alias", "hanabi_sim", "give", "take", "blind_pick"])
def test_every_place_a_blind_pick_offers_is_in_the_action_space(name):
    """A zone held facing out, named through a local (`let who = current`), was left
    out of the space: OpenSpiel and PettingZoo stopped on 'hand[P1]' (a review)."""
    from rulespec.table.encoding import ActionSpace

    path = BLINDS / f"{name}.yaml" if name != "blind_pick" else ROOT / "tests/valid/blind_pick.yaml"
    game = Game(load_spec(path), 2)
    space = ActionSpace(game)
    for seed in range(10):
        state, pick = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance()
                continue
            assert set(state.legal_labels()) <= set(space.index), state.legal_labels()
            state.apply_action(pick.choice(state.legal_labels()))


@pytest.mark.parametrize(
    "name, says",
    [
        ("simul_hidden", "names each option by its card"),
        ("hanabi_sim", "names each option by its card"),
        ("of_hidden", "tests them"),
        ("give_filter", "tests them"),
        ("give", None),
        ("take", None),
        ("lint_local", None),  # through a local: lint stopped on it
        ("lint_named", None),  # the chooser's own hand, through a named value
        ("lint_of", None),  # of() of the public discard only
    ],
)
def test_rl122_warns_where_a_choice_still_names_or_tests_unseen_cards(name, says):
    """RL122 went quiet for picks made simultaneously and for sets chosen by kind, which
    still show the chooser what lies there (a review); a plain blind pick is silent."""
    from gamekit import cli

    _, out, _ = cli("lint", str(BLINDS / f"{name}.yaml"), "--format", "json")
    found = [f["message"] for f in json.loads(out) if f["code"] == "RL122"]
    assert found[0].split("see, ")[1].startswith(says) if says else found == [], found


SETS = """
rulespec: 1
name: Sets
players: {min: 2, max: 2}
deck:
  cards:
    red: {count: 3}
    blue: {count: 3}
zones:
  stock: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
turn:
  - step: pick
    effect: |
      choose(current) s from SOURCE { }
  - step: done
    effect: end_game()
"""


@pytest.mark.parametrize(
    "source, secret",
    [
        ("combinations(hand(current), 1, 3)", True),
        ("combinations(hand(current), 1) + combinations(hand(current), 3)", True),
        ("combinations(hand(current), 2)", False),  # its size is the rules': 2
    ],
)
def test_a_secret_pick_of_a_set_tells_the_others_its_size_only_where_the_rules_fix_it(
    source, secret
):
    """A review: a secret pick from a hand of one to three cards, which stay in it,
    told every other seat how many it took."""
    game = Game(load_spec("sets.yaml", SETS.replace("SOURCE", source)), 2)
    logs = []
    for pick in (0, -1):  # the fewest cards, and the most
        state = State.from_layout(game, zones={"hand[P1]": ["red", "red", "red"]}, current=0)
        label = state.legal_labels()[pick]
        state.apply_action(label)
        logs.append(state.log_for(1))
        mine = [e for e in state.log_for(0) if e["event"] == "choice"]
        assert mine[0]["option"] == label  # its chooser sees it
    if secret:
        assert logs[0] == logs[1]
    else:
        assert [e.get("count") for e in logs[0] if e["event"] == "choice"] == [2]


def test_a_pick_whose_size_a_hidden_count_sets_keeps_its_size():
    """A review: `combinations(hand(current), count(hand(current), red))` reads no local,
    so its size was taken as the rules', and every seat's log told how many red cards
    the hand held."""
    source = "combinations(hand(current), count(hand(current), red))"
    game = Game(load_spec("sets.yaml", SETS.replace("SOURCE", source)), 2)
    logs = []
    for hand in (["red", "blue", "blue"], ["red", "red", "blue"]):
        state = State.from_layout(game, zones={"hand[P1]": hand}, current=0)
        state.apply_action(state.legal_labels()[0])
        logs.append(state.log_for(1))
    assert logs[0] == logs[1]
