"""What a seat's browser draws (rulespec/serve/views.py), without a server: the
terminal's own table, options and narration, and the rule that fired."""

from gamekit import ROOT, game_for

from rulespec import load_spec
from rulespec.interpreter import Game, State
from rulespec.interpreter.choices import PickValue
from rulespec.serve import views
from rulespec.table import view as tableview
from rulespec.table.narrate import Titles


def _played(seed=1, decisions=40, players=2, asked=None):
    """A Take the Gold played by always taking the last option, and the (label, text)
    of every option offered on the way; `asked` collects (decision, asker, heading)."""
    game = game_for("take_the_gold", players)
    state, table = game.new_initial_state(seed=seed), views.Table(game.spec, players)
    seen = set()
    for _ in range(decisions):
        while state.is_chance_node():
            state.sample_chance()
        if state.is_terminal():
            break
        options = state.legal_actions()
        view = views.view(state, state.current_player(), table)
        seen |= {(o["label"], o["text"]) for o in view["options"]}
        if asked is not None:
            asked.add((view["decision"], state.decision_asker(), view["asking"]))
        state.apply_action(options[-1])
    return state, table, seen


def test_a_decision_names_the_rule_or_step_that_asks_by_its_title():
    """Issue 28: "Your choice: Gold Coin | Officer | ..." never said it was the discard
    down to the hand limit; the step, the action answered, or the rule choosing says."""
    asked = set()
    _played(seed=2, decisions=400, players=3, asked=asked)
    assert {
        ("play", "turn.play", "Play — play a card, or pass?"),  # the step's title, its prompt
        ("card", "turn.discard_down", "Discard down — which card do you discard?"),
        ("react", "pirate", "You may answer Pirate — block it with an Officer?"),
    } <= asked


def test_options_are_grouped_by_card_with_pass_last_and_the_asker_is_data():
    """Issue 28: seven long buttons with Pass moving from turn to turn. The options come
    grouped by card (a group's options together, the cards in deck order), Pass last;
    the rule asking comes as data, its title, text and prompt."""
    game = game_for("take_the_gold", 3)
    state, table = game.new_initial_state(seed=5), views.Table(game.spec, 3)
    deck = {table.titles.card(n): i for i, n in enumerate(table.titles.cards)}
    decisions = 0
    for k in range(300):
        while state.is_chance_node():
            state.sample_chance()
        if state.is_terminal():
            break
        view = views.view(state, state.current_player(), table)
        options = view["options"]
        last = [o for o in options if o["label"] in ("pass", "no reaction")]
        assert options[len(options) - len(last) :] == last
        groups = [o["group"] for o in options if o["group"] is not None]
        # each group's options together, the cards in deck order
        assert groups == sorted(groups, key=lambda g: deck.get(g, len(deck)))
        if len(options) > 1:
            asker = view["asker"]
            assert asker["title"] == table.titles.rule(asker["name"]) != asker["name"]
            assert asker["prompt"] == table.titles.prompts.get(asker["name"], "")
            decisions += 1
        legal = state.legal_actions()
        state.apply_action(legal[k % len(legal)])
    assert decisions >= 10
    discard = tableview.asker("turn.discard_down", table.titles)  # a step asks as turn.NAME
    assert discard == {
        "name": "turn.discard_down",
        "title": "Discard down",
        "text": "You can have a maximum of 5 cards in hand and must discard down to 5 "
        "before ending your turn.",
        "prompt": "which card do you discard?",
    }


def test_options_read_as_at_the_terminal_table():
    _, _, seen = _played()
    assert {
        ("pass", "Pass"),
        ("no reaction", "Do not answer"),
        ("pirate -> P2", "Play Pirate at P2"),
        ("captain_raid -> P2", "Play Pirate Captain (Captain raid) at P2"),
        ("officer_block", "Answer with Officer (Officer block)"),
    } <= seen


def test_the_rule_that_fired_is_a_node_of_the_rules_graph():
    state, table, _ = _played()
    assert state.is_terminal()
    fired = table.fired(state.log_for(None))
    assert fired["id"] == f"end:{state.reason}"
    assert fired["id"] in {n["id"] for n in table.graph["nodes"]}
    assert fired["title"] == table.titles.rule(state.reason) != state.reason  # "Coin win"
    assert table.fired([]) is None


def test_the_table_is_the_terminal_one_and_hidden_zones_carry_no_card():
    state, table, _ = _played(decisions=3)
    view = views.view(state, 1, table)
    terminal = tableview.table(state.observation(1), table.titles, state.game.params)
    assert {k: view[k] for k in terminal} == terminal
    theirs, mine = (p["zones"][0] for p in view["seats"])
    assert mine["cards"] == [
        {"name": c, "title": table.titles.card(c), "text": table.titles.text("cards", c)}
        for c in state.observation(None)["zones"]["hand[P2]"]
    ]
    assert theirs["cards"] is None and theirs["size"] == len(
        state.observation(None)["zones"]["hand[P1]"]
    )
    assert {z["name"]: z["cards"] for z in view["zones"]}["draw_pile"] is None
    assert view["narration"][0] == "  the draw pile is shuffled"


def test_a_finished_game_says_why_it_ended_in_words():
    state, table, _ = _played()
    view = views.view(state, 0, table)
    assert view["result"] == state.result
    assert view["why"] == table.titles.why(state.reason)
    assert "_" not in view["why"]  # the rule's title, not its name


def test_the_rules_graph_without_graphviz_is_its_nodes_and_edges(monkeypatch):
    game = game_for("take_the_gold", 2)
    monkeypatch.setattr(views.shutil, "which", lambda name: None)
    graph = views.Table(game.spec, 2).graph
    assert graph["svg"] is None
    ids = {n["id"] for n in graph["nodes"]}
    assert "action:pirate" in ids and all(e["source"] in ids for e in graph["edges"])


def test_card_types_named_are_shown_in_deck_order():
    """A designer's Go Fish asked for a rank among Ace, Eight, Five, Four, ...: a choice
    `from card_types` is shown in deck order, as a hand is."""
    game = Game(load_spec(ROOT / "tests/valid/rows.yaml"), 2)
    names = list(reversed(game.type_names))  # high, mid, low: not the deck's order
    options = [PickValue(n, game.kinds[n]) for n in names]
    shown = tableview.arranged(options, Titles.of(game.spec), game.type_names)
    assert [s["option"].label for s in shown] == game.type_names == ["low", "mid", "high"]


MARKET = """
rulespec: 1
name: Market
players: {min: 2, max: 2}
hand: hand
deck:
  cards: {zebra: {count: 2}, mango: {count: 2}, apple: {count: 2}}
zones:
  market: {visibility: public, start: true}
  hand: {per_player: true, visibility: owner}
turn:
  - step: take
    actions: [take]
actions:
  take:
    target: card
    among: market
    effect: move(chosen, hand(current))
end_conditions:
  out:
    when: size(market) == 0
    effect: end_game()
"""


def test_a_target_card_play_is_shown_in_deck_order():
    """A designer's shop listed its buys Apple, Mango, Zebra, though the deck lists
    zebra, mango, apple: a `target: card` play's card is placed as a hand's cards are."""
    game = Game(load_spec("market.yaml", MARKET), 2)
    state = game.new_initial_state(seed=0)
    while state.is_chance_node():
        state.sample_chance()
    shown = tableview.arranged(state.legal_actions(), Titles.of(game.spec), game.type_names)
    assert [s["text"] for s in shown] == [
        "Take: Zebra from the market",
        "Take: Mango from the market",
        "Take: Apple from the market",
    ]


GUESS = """
rulespec: 1
name: Guess
players: {min: 3, max: 3}
hand: hand
deck:
  cards: {guard: {count: 6}, priest: {count: 4}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
turn:
  - step: guess
    prompt: "play on?"
    effect: |
      choose(current, "whom do you ask?") t from others(current) {
        choose(current) {
          "name one" { choose(current, "which card?") k from card_types { move(top(pile, 1), hand(t)) } }
          "pass" { move(top(pile, 1), hand(current)) }
        }
      }
end_conditions:
  done:
    when: size(pile) == 0
    effect: end_game()
"""


def test_a_choice_words_its_own_question_else_its_rules():
    """Three designers asked for it (a Guard asks whom, then which card; an exchange
    asks what to take, then what to give): `choose(p, "…")` heads that choice, and a
    choice without one keeps its rule's prompt."""
    game = Game(load_spec("guess.yaml", GUESS), 3)
    state, table = game.new_initial_state(seed=0), views.Table(game.spec, 3)
    headings = []
    for _ in range(3):
        while state.is_chance_node():
            state.sample_chance()
        view = views.view(state, state.current_player(), table)
        headings.append((view["asking"], view["asker"]["prompt"], state.decision_prompt()))
        assert state.clone().decision_prompt() == state.decision_prompt()  # copied
        state.apply_action(state.legal_actions()[0])
    assert headings == [
        ("Guess — whom do you ask?", "whom do you ask?", "whom do you ask?"),
        ("Guess — play on?", "play on?", ""),
        ("Guess — which card?", "which card?", "which card?"),
    ]


def test_the_turns_a_seat_is_owed_are_shown_at_the_seat_on_both_tables():
    """An Exploding Kittens designer's table hid who still had to play twice after an
    Attack: the browser's seat and the terminal's seat line say what it is owed."""
    game = Game(load_spec(ROOT / "tests" / "valid" / "stacked_attacks.yaml"), 3)
    hands = {"hand[P1]": ["attack"], "hand[P2]": ["nap", "blank"], "hand[P3]": ["blank"]}
    state = State.from_layout(game, 1, zones={**hands, "pile": ["blank"] * 6})
    state.apply_action("attack")  # P2 takes two turns
    state.apply_action("nap")  # P2 plays first: P3 misses a turn
    seen = state.observation(0)
    assert (seen["extra_turns_owed"], seen["turns_to_skip"]) == ({"P2": 1}, {"P3": 1})
    view = views.view(state, 0, views.Table(game.spec, 3))
    assert [s["owed"] for s in view["seats"]] == [
        None,
        "1 more turn to take",
        "1 turn to miss",
    ]
    lines = tableview.table_lines(view)
    assert "  P2: hand 1 card; 1 more turn to take" in lines
    assert "  P3: hand 1 card; 1 turn to miss" in lines


def test_a_seat_asked_in_another_seats_turn_is_told_so_and_no_other_seat_is():
    """Open Hand: at the dummy's (P2's) turn the declarer, P1, chooses which of its cards
    it plays. P1's view says P1 is asked, as the terminal's heading does; P3's says
    only whose turn it is, as it would of an answer it must not learn is held."""
    spec = load_spec(ROOT / "tests" / "valid" / "open_hand.yaml")
    state = State.from_layout(
        Game(spec, 3),
        zones={"open_hand": ["two_of_spades", "three_of_clubs"], "hand[P3]": ["two_of_clubs"]},
        counters={"declarer": 0, "dummy": 1},
        current=1,
    )
    table = views.Table(spec, 3)
    assert state.current_player() == 0
    mine, theirs = views.view(state, 0, table), views.view(state, 2, table)
    assert (mine["current"], mine["asked"], theirs["current"], theirs["asked"]) == (
        "P2",
        "P1",
        "P2",
        None,
    )
    assert tableview.table_lines(mine)[0] == "== Turn 1: P2's turn, P1 chooses (you are P1)"
