"""Simultaneous secret choices (`simultaneously(players) p chooses c from cards by key
{ … }`), on the small game tests/valid/all_at_once.yaml: every player picks a card in
secret, asked in turn; the picks are resolved in the declared order once all are in."""

import json
import random
from pathlib import Path

import pytest
from gamekit import cli

from rulespec import SpecError, load_spec
from rulespec.analysis import graph
from rulespec.interpreter import Game, State
from rulespec.interpreter.agents import make_agents, play

SPEC = Path(__file__).parent / "valid" / "all_at_once.yaml"
TEXT = SPEC.read_text()
STATEMENT = "simultaneously(players) p chooses c from hand(p) by 0 - c.rank {"
BODY = TEXT.split(STATEMENT)[1].split("\n      move(table, done)")[0]  # down to the closing brace
WHOLE = STATEMENT + BODY
HANDS = {
    "hand[P1]": ["card_9", "card_2"],
    "hand[P2]": ["card_5", "card_11"],
    "hand[P3]": ["card_7", "card_1"],
}


def game(text=TEXT, n=3):
    return Game(load_spec("all_at_once.yaml", text), n)


def tricks(s):
    return [s.observation(None)["counters"][f"tricks[P{i}]"] for i in (1, 2, 3)]


def laid_out(g=None, zones=HANDS, current=0):
    return State.from_layout(g or game(), 1, zones=dict(zones), current=current)


def test_each_player_is_asked_in_turn_from_the_current_one():
    s = laid_out(current=1)
    asked = []
    for label in ("card_5", "card_7", "card_9"):
        asked.append((s.current_player(), s.decision_kind()))
        s.apply_action(label)
    assert asked == [(1, "card"), (2, "card"), (0, "card")]


def test_nothing_moves_until_the_last_pick_then_the_picks_resolve_in_order():
    s = laid_out()
    s.apply_action("card_2")
    s.apply_action("card_11")
    assert (
        s.observation(None)["zones"]["done"] == []
        and len(s.observation(None)["zones"]["hand[P1]"]) == 2
    )
    s.apply_action("card_1")
    moves = [e["cards"] for e in s.log_for(None) if e["event"] == "move" and e["dst"] == "table"]
    assert moves == [["card_11"], ["card_2"], ["card_1"]]  # highest first, not the asking order
    assert tricks(s) == [0, 1, 0]


# all_at_once.yaml's picks moved face down by its one step, counted by a second step
FACE_DOWN = TEXT.replace(
    "  done: {visibility: public}\n",
    "  done: {visibility: public}\n  down: {per_player: true, visibility: owner}\n",
).replace(
    WHOLE + "\n      move(table, done)\n",
    """simultaneously(players) p chooses c from hand(p) { move(c, down(p)) }
  - step: count
    effect: |
      for q in players {
        tricks(q) += size(down(q))
        move(down(q), done)
      }
""",
)


@pytest.mark.parametrize(
    "text, counted",
    [
        (TEXT, 2),
        (FACE_DOWN, 3),
        (FACE_DOWN.replace("    effect: win(", "    at: turn_end\n    effect: win("), 6),
    ],
)
def test_an_end_on_empty_hands_comes_after_the_last_picks_resolve(text, counted):
    """recipes.md, "everyone plays at once": picks resolved in the block need nothing
    more (2 tricks of 2 turns), but picks moved face down by one step and resolved by
    the next are lost to an end on empty hands, checked after that step, unless it is
    `at: turn_end` (3 picks of 6 counted, or all). A Sushi Go designer read the row as
    saying a game of the first kind needs `at: turn_end`."""
    s = laid_out(game(text))
    for label in ("card_2", "card_11", "card_1", "card_5", "card_7", "card_9"):
        s.apply_action(label)
    assert s.is_terminal() and sum(tricks(s)) == counted


def test_without_an_order_the_picks_resolve_in_the_order_asked():
    s = laid_out(game(TEXT.replace(STATEMENT, STATEMENT.replace(" by 0 - c.rank", ""))))
    for label in ("card_2", "card_11", "card_1"):
        s.apply_action(label)
    moves = [e["cards"] for e in s.log_for(None) if e["event"] == "move" and e["dst"] == "table"]
    assert moves == [["card_2"], ["card_11"], ["card_1"]]


def test_a_player_with_nothing_to_pick_is_not_asked():
    s = laid_out(zones=dict(HANDS, **{"hand[P2]": []}))
    s.apply_action("card_9")
    assert s.current_player() == 2


def test_other_seats_see_only_that_a_pick_was_made_until_it_is_laid():
    s = laid_out()
    s.apply_action("card_9")
    for seat in (1, 2):
        last = s.log_for(seat)[-1]
        assert last == {**last, "event": "choice", "player": 0, "option": None}
        assert "card_9" not in str(s.observation(seat)) and "card_9" not in str(s.log_for(seat))
    assert s.log_for(0)[-1]["option"] == "card_9"


def test_a_card_picked_from_a_shared_zone_is_not_offered_again():
    text = TEXT.replace(STATEMENT, STATEMENT.replace("hand(p)", "pile"))
    s = laid_out(game(text), zones=dict(HANDS, pile=["card_3", "card_4"]))
    s.apply_action("card_3")
    assert s.legal_labels() == ["card_4"]
    s.apply_action("card_4")
    laid = [e["cards"] for e in s.log_for(None) if e["event"] == "move" and e["dst"] == "table"]
    assert laid == [["card_4"], ["card_3"]]  # P3 was not asked: nothing was left


def test_a_paused_pick_copies_and_keys_with_its_cards():
    s = laid_out()
    s.apply_action("card_9")
    other = laid_out()
    other.apply_action("card_2")
    copy = s.clone()
    assert copy.key() == s.key() and other.key() != s.key()
    for state in (s, copy):
        state.apply_action("card_5")
        state.apply_action("card_7")
    assert copy.key() == s.key() and copy.log_for(None) == s.log_for(None)


def test_a_redeal_between_picks_holds_whatever_card_now_lies_where_the_pick_lay():
    laid = set()
    for seed in range(12):
        s = laid_out()
        s.apply_action("card_9")
        s.redeal(1, random.Random(seed))  # as P2's search would: P1's pick is not P2's to know
        s.apply_action("card_5")
        s.apply_action(s.legal_labels()[0])
        s.check_invariants()
        p1 = [e for e in s.log_for(None) if e["event"] == "move" and e["src"] == "hand[P1]"]
        assert len(p1) == 1 and len(s.observation(None)["zones"]["hand[P1]"]) == 1
        laid |= set(p1[0]["cards"])
    assert len(laid) > 1  # the redeal did not keep P1's true pick


@pytest.mark.parametrize(
    "wrap",
    [
        "for q in range(2) {{ {0} }}",
        "if size(pile) >= 0 {{ {0} }}",
    ],
)
def test_it_composes_with_loops_and_ifs(wrap):
    text = TEXT.replace(WHOLE, wrap.format(WHOLE))
    s = laid_out(game(text))
    for label in ("card_9", "card_5", "card_7"):
        s.apply_action(label)
    assert [e["cards"] for e in s.log_for(None) if e["event"] == "move" and e["dst"] == "table"][
        :3
    ] == [["card_9"], ["card_7"], ["card_5"]]


def test_it_runs_inside_a_procedure_with_its_players_as_a_parameter():
    proc = (
        "procedures:\n  lay:\n    params: {who: players}\n    effect: |\n      "
        + WHOLE.replace("(players)", "(who)")
        + "\n"
    )
    text = TEXT.replace(WHOLE, "lay(others(current))").replace("turn:\n", proc + "\nturn:\n")
    s = laid_out(game(text))
    assert s.current_player() == 1  # P1 (current) is not in the set
    s.apply_action("card_5")
    s.apply_action("card_7")
    assert tricks(s) == [0, 0, 1]


@pytest.mark.parametrize(
    "statement, code, where",
    [
        (
            "simultaneously(3) p chooses c from hand(p) { move(c, table) }",
            "RS204",
            "who chooses must be players",
        ),
        (
            "simultaneously(players) p chooses c from range(3) { }",
            "RS204",
            "what to choose from must be cards",
        ),
        ("simultaneously(players) p chooses p from hand(p) { }", "RS202", "'p' is already a local"),
        (
            "simultaneously(players) p chooses c from hand(p) by c { }",
            "RS204",
            "the order of the picks must be int",
        ),
        (
            "simultaneously(players) p chooses c from hand(p) { } tricks(p) += 1",
            "RS201",
            "unknown name 'p'",
        ),
    ],
)
def test_misuse_is_a_positioned_error(statement, code, where):
    with pytest.raises(SpecError) as info:
        game(TEXT.replace(WHOLE, statement))
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line) == (code, 34) and where in d.message


def test_run_as_a_seat_replay_and_graph():
    code, out, _ = cli("run", SPEC, "--seed", "1", "--as", "P2")
    assert code == 0 and "P1 chooses a card" in out and "P1 chooses Card " not in out
    code, out, _ = cli("run", SPEC, "--seed", "1")
    assert code == 0 and "P1 chooses Card " in out and "Game over" in out
    assert "chooses card_" not in out  # the card's title, not its name


def test_a_logged_game_replays(tmp_path):
    log = tmp_path / "game.jsonl"
    assert cli("run", SPEC, "--seed", "4", "--log", log)[0] == 0
    assert cli("replay", log)[0] == 0


def test_the_graph_sees_the_picks_move_from_the_hands():
    g = graph.build(load_spec(str(SPEC)))
    assert g.has_edge(graph.NodeId("zone", "hand"), graph.NodeId("step", "trick"))


def test_lint_counts_a_card_judged_by_its_properties_as_used():
    code, out, _ = cli("lint", SPEC, "--explore", "--depth", "4", "--format", "json")
    # nothing but the note that depth 4 cut the search
    assert code == 0 and [f["code"] for f in json.loads(out)] == ["RL203"]


ROUNDS = """
rounds:
  setup:
    effect: |
      move(done, pile)
      for q in players { move(hand(q), pile) }
      shuffle(pile)
      for q in players { move(top(pile, 3), hand(q)) }
  end_conditions:
    hands_empty:
      when: all(size(hand(q)) == 0 for q in players)
  match_end:
    enough_tricks:
      when: any(tricks(q) >= 5 for q in players)
      effect: win(argmax(tricks(q) for q in players))
"""


def test_it_plays_in_every_round_of_a_match():
    text = TEXT.split("end_conditions:")[0].replace(
        "    for p in players { move(top(pile, 3), hand(p)) }\n", ""
    )
    g = game(text + "turn_limit: 200\n" + ROUNDS + "end_conditions: {}\n")
    state = play(g.new_initial_state(seed=3), make_agents(["random"], 3, 3))
    assert state.result["reason"] == "enough_tricks" and state.result["rounds"] >= 2
    asked = [e for e in state.log_for(None) if e["event"] == "choice"]
    assert len(asked) == 3 * state.result["turns"]  # every player picked on every turn


PAIRS = Path(__file__).parent / "valid" / "pass_the_pair.yaml"


@pytest.mark.parametrize("seed", range(4))
def test_everyone_passes_a_set_at_once_before_any_card_moves(seed):
    """`simultaneously(players) p chooses gift from combinations(hand(p), 2)`: each
    seat in turn is offered every pair of its hand's card types once (a `cards`
    decision), no card moves until all have picked, nobody is told another's pair,
    then each pair lands in the next seat's hand, by way of its giver's `passing` zone,
    and every giver still knows the pair it gave (a Hearts designer's passers, each
    gift moved straight into the next hand, forgot theirs as the next gift left it)."""
    game = Game(load_spec(PAIRS), 3)
    state = game.new_initial_state(seed=seed)
    while state.is_chance_node():
        state.sample_chance()
    hand = lambda p: sorted(state.observation(None)["zones"][f"hand[P{p + 1}]"])  # noqa: E731
    dealt, place, gifts = [hand(p) for p in range(3)], game.type_names.index, []
    rng = random.Random(seed)
    for p in range(3):
        assert (state.current_player(), state.decision_kind()) == (p, "cards")
        pairs = {
            "+".join(sorted((a, b), key=place))
            for i, a in enumerate(dealt[p])
            for b in dealt[p][i + 1 :]
        }
        assert sorted(o.label for o in state.legal_actions()) == sorted(pairs)
        assert [hand(q) for q in range(3)] == dealt  # nothing has moved yet
        gifts.append(rng.choice(state.legal_actions()).label.split("+"))
        state.apply_action("+".join(gifts[-1]))
    passed = [
        (e["src"], e["dst"], sorted(e["cards"]))
        for e in state.log_for(None)
        if e["event"] == "move" and e["turn"] == 0 and e["src"].startswith("passing")
    ]
    assert passed == [
        (f"passing[P{p + 1}]", f"hand[P{(p + 1) % 3 + 1}]", sorted(gifts[p])) for p in range(3)
    ]
    for p in range(3):
        there = state.observation(p)["zones"][f"hand[P{(p + 1) % 3 + 1}]"]
        assert sorted(r["card"] for r in there["revealed"]) == sorted(gifts[p])
    for seat in range(3):
        picks = [e for e in state.log_for(seat) if e["event"] == "choice"]
        assert [e["option"] is None for e in picks] == [p != seat for p in range(3)]


POOL = Path(__file__).parent / "valid" / "pool_pick.yaml"


def _pool(first: str) -> State:
    """Pool Pick with P1 holding `first` (crown or plain), P2 a crown."""
    return State.from_layout(
        Game(load_spec(POOL), 2),
        zones={"pool": ["red", "blue"], "hand[P1]": [first], "hand[P2]": ["crown"]},
    )


def test_seats_picking_from_their_own_cards_decide_apart_from_a_shared_zone_they_do_not():
    """A review: the parallel environment's mask (and the browser table's early
    options) for P2 were read after P1 took its first option, which hung on P1's hidden
    card: P2 learnt whether P1 held the crown. Options are shown before a seat's turn
    only where each seat picks from cards of its own."""
    own = State.from_layout(game(), zones=HANDS)
    assert own.deciding_together() == (0, 1, 2) and own.deciding_apart()
    for first in ("crown", "plain"):
        state = _pool(first)
        assert state.deciding_together() == (0, 1) and not state.deciding_apart()
    pytest.importorskip("pettingzoo")
    from rulespec.env import RulespecParallelEnv

    masks = []
    for first in ("crown", "plain"):
        env = RulespecParallelEnv(str(POOL))
        env.state = _pool(first)
        env._settle()
        masks.append({seat: list(legal) for seat, (legal, _) in env._masks.items()})
    assert [list(m) for m in masks] == [[0], [0]]  # P1 alone: P2 is asked next


@pytest.mark.parametrize(
    "source, apart",
    [
        ("hand(p)", True),
        ("filter(c.rank > 1 for c in hand(p))", True),
        ("hand(p) + done", False),  # a shared zone
        ("hand(next(p))", False),  # another's
        ("if size(hand(next(p))) > 1 then hand(p) else done", False),  # hangs on another's
        ("filter(low(c) for c in hand(p))", False),  # a named condition may read any zone
    ],
)
def test_seats_decide_apart_only_when_the_source_reads_the_chooser_s_own_zones(source, apart):
    text = TEXT.replace("chooses c from hand(p) by", f"chooses c from {source} by") + (
        "conditions:\n  low:\n    params: {c: cards}\n    when: size(hand(seat(0))) > 1\n"
    )
    state = State.from_layout(game(text), zones=HANDS)
    assert state.deciding_together() == (0, 1, 2) and state.deciding_apart() is apart


def test_a_local_the_source_reads_or_a_team_s_zone_is_not_apart():
    """Second review: `let n = …` read another's hand before the choice, and a team's
    vault is two seats' zone; both read as the chooser's own."""
    let = TEXT.replace(
        "      simultaneously(players) p chooses c from hand(p) by",
        "      let n = size(hand(seat(0)))\n      simultaneously(players) p chooses c from top(hand(p), n) by",
    )
    assert not State.from_layout(game(let), zones=HANDS).deciding_apart()
    team = """\
rulespec: 1
name: Team vault
players: {min: 4, max: 4}
teams: {odd: [P1, P3], even: [P2, P4]}
hand: hand
deck:
  cards: {ace: {count: 2}, zed: {count: 6}}
zones:
  stock: {visibility: hidden, start: true}
  hand: {per_player: true, visibility: owner}
  vault: {per_team: true, visibility: owner}
  got: {per_player: true, visibility: public}
turn:
  - step: pick
    effect: |
      simultaneously(players) p chooses c from hand(p) + vault(p) { move(c, got(p)) }
      end_game()
"""
    zones = {f"hand[P{p}]": ["zed"] for p in range(1, 5)} | {"vault[odd]": ["ace"]}
    state = State.from_layout(Game(load_spec("vault.yaml", team), 4), zones=zones)
    assert state.deciding_together() == (0, 1, 2, 3) and not state.deciding_apart()


SETS = """
rulespec: 1
name: Sets At Once
players: {min: 2, max: 2}
hand: hand
deck:
  cards:
    a: {count: 10}
    b: {count: 10}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
  table: {per_player: true, visibility: public}
setup:
  effect: |
    shuffle(pile)
    for p in players { move(top(pile, 4), hand(p)) }
turn:
  - step: pick
    effect: |
      simultaneously(players) p chooses s from combinations(hand(p), 1) + combinations(hand(p), 2) {
        move(s, table(p))
      }
end_conditions:
  done:
    when: all(size(hand(p)) == 0 for p in players)
    effect: end_game()
"""


@pytest.mark.parametrize("size", [1, 2])
def test_a_seat_asked_later_learns_nothing_of_how_many_cards_another_picked(size):
    """A Sushi Go designer's Chopsticks: P2's log said P1 took 2 cards before P2 picked."""
    s = Game(load_spec("sets.yaml", SETS), 2).new_initial_state(seed=3)
    while s.is_chance_node():
        s.sample_chance()
    first = s.current_player()
    s.apply_action(next(o for o in s.legal_actions() if len(o.cards) == size))
    other = s.current_player()
    assert other != first
    (told,) = [e for e in s.log_for(other) if e["event"] == "choice"]
    assert told == {"event": "choice", "player": first, "kind": "cards", "option": None,
                    "turn": told["turn"]}  # fmt: skip


@pytest.mark.parametrize(
    "source, offered",
    [
        ("combinations(hand(p), 1) + combinations(hand(p), 2)", ["a", "a+a"]),
        ("hand(p)", ["a"]),  # one card each: the filter reads it as a set of one
    ],
)
def test_a_simultaneous_pick_offers_only_what_its_filter_accepts(source, offered):
    text = (
        SETS.replace("a: {count: 10}", "a: {count: 10, props: {worth: 1}}")
        .replace("b: {count: 10}", "b: {count: 10, props: {worth: 3}}")
        .replace(
            "from combinations(hand(p), 1) + combinations(hand(p), 2) {",
            f"from {source} if sum(c.worth for c in s) <= 2 {{",
        )
    )
    g = Game(load_spec("sets.yaml", text), 2)
    s = State.from_layout(g, 1, zones={"hand[P1]": ["a", "a", "b", "b"], "hand[P2]": ["b"]})
    assert s.legal_labels() == offered


# the specs whose seats pick together from cards of their own (pool_pick.yaml picks from
# a shared pool: a card one seat takes is gone for the next, as language.md says)
SIMULTANEOUS = [
    *(
        Path(__file__).parent / "valid" / name
        for name in ("all_at_once.yaml", "in_order.yaml", "pass_the_pair.yaml")
    ),
    Path(__file__).parent.parent / "games" / "draft.yaml",
]  # fmt: skip


@pytest.mark.parametrize("spec", [*SIMULTANEOUS, "sets"], ids=lambda p: getattr(p, "name", p))
def test_no_pick_shows_a_seat_asked_later_anything_until_all_have_picked(spec):
    """Property: where each seat picks from its own cards, whatever a seat picks, the
    next seat asked is shown the same (its observation and its log), until the picks
    resolve: no pick's card, nor how many it holds (the Sushi Go leak), reaches it."""
    loaded = load_spec("sets.yaml", SETS) if spec == "sets" else load_spec(spec)
    game = Game(loaded, loaded.default_players)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance()
                continue
            seats = state.deciding_together()
            if len(seats) > 1 and state.deciding_apart():
                later, seen = seats[1], set()
                for option in state.legal_actions():
                    after = state.clone()
                    after.apply_action(option)
                    while after.is_chance_node():
                        after.sample_chance()
                    view = (after.observation(later), after.log_for(later)[-8:])
                    seen.add(json.dumps(view, sort_keys=True, default=str))
                assert len(seen) == 1, f"seed {seed}: seat {later} told apart {len(seen)} picks"
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0
