"""Each general construct on a small game of its own, not through a seed game."""

import re
from pathlib import Path

import pytest
from gamekit import ROOT, counter, edited, settled, spec_errors, zone
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec import SpecError, load_spec
from rulespec.interpreter import Game, RuleError, State, runtime
from rulespec.interpreter.agents import make_agents, play
from rulespec.interpreter.effects import set_options
from rulespec.interpreter.runtime import distinct_sets
from rulespec.interpreter.table import RuleLimit
from rulespec.table import view as tableview
from rulespec.table.encoding import ActionSpace, ObservationEncoder
from rulespec.table.narrate import Titles, narrate

SHELF = """
rulespec: 1
name: Shelf
players: {min: 2, max: 4, default: 2}
hand: hand
deck:
  cards:
    red:   {count: 6, tags: [gem], props: {worth: 3, beats: blue}}
    blue:  {count: 6, tags: [gem], props: {worth: 1, beats: red}}
    hook:  {count: 4}
  remove:
    "2": {red: 2, blue: 2}
  totals: {"2": 12, "3": 16, "4": 16}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  bin: {visibility: public, ordered: true}
  hand: {per_player: true, visibility: owner}
  shelf: {per_player: true, visibility: public}
counters:
  rounds: {initial: 0, match: true}
  seen: {initial: 0}
goals:
  display:
    zone: shelf
    order: [{card: red, limit: 2}, {card: blue, limit: 1}]
setup:
  effect: |
    rounds += 1
    for p in players { move(top(pile, 3), hand(p)) }
    set_current(seat(game_index))
turn:
  - step: draw
    effect: move(top(pile, 1), hand(current))
  - step: play
    actions: [place, hook_gem, toss]
actions:
  place:
    card: gem
    to: shelf(current)
    if: count(card, next_goal(display, current)) > 0
  hook_gem:
    card: hook
    to: bin
    target: card
    among: union(of(shelf(p), gem) for p in others(current)) + of(top(bin, 1), gem)
    effect: move(chosen, shelf(current))
  toss:
    card: any
    to: bin
end_conditions:
  done:
    each: p
    when: goal_done(display, p)
    effect: win(p)
evaluation: goal_score(display, me)
"""


def shelf(n=2, text=SHELF):
    return Game(load_spec("shelf.yaml", text), n)


def laid_out(game, hands, shelves=(), bin_=(), current=0):
    """A game whose table is laid out by hand, as scenarios lay one out (bin_ bottom first)."""
    zones = {f"hand[P{p + 1}]": names for p, names in enumerate(hands)}
    zones |= {f"shelf[P{p + 1}]": names for p, names in enumerate(shelves)}
    zones["bin"] = list(reversed(bin_))
    return State.from_layout(game, 1, zones=zones, current=current)


def test_deck_removals_per_player_count():
    assert len(shelf(2).ctype) == 12 and len(shelf(3).ctype) == 16


@pytest.mark.parametrize(
    "old, new, code",
    [
        ('"2": {red: 2, blue: 2}', '"2": {red: 7, blue: 2}', "RS404"),
        ('totals: {"2": 12,', 'totals: {"2": 11,', "RS405"),
        ('"2": {red: 2, blue: 2}', '"2": {rad: 2}', "RS201"),
    ],
)
def test_deck_checks(old, new, code):
    with pytest.raises(SpecError) as exc:
        load_spec("shelf.yaml", SHELF.replace(old, new))
    assert code in [d.code for d in exc.value.diagnostics]


def test_goals_order_and_limits():
    rules = shelf()
    game = laid_out(rules, [["red", "blue", "hook"], ["red"]], bin_=["hook"])
    # the next goal is red: blue may not be placed yet
    assert [o for o in game.legal_labels() if o.startswith("place")] == ["place red"]


def test_goal_done_wins_and_goal_score_counts_up_to_limits():
    rules = shelf()
    game = laid_out(
        rules, [["blue", "hook"], ["red"]], shelves=[["red", "red", "red"], []], bin_=["hook"]
    )
    # 3 reds count as 2 toward the display: score 2, blue is next
    assert game.evaluate(0) == 2
    assert "place blue" in game.legal_labels() and "place red" not in game.legal_labels()
    game.apply_action("place blue")
    assert game.is_terminal() and game.winners == (0,) and game.reason == "done"


def test_card_targets_are_one_option_per_type_and_zone():
    rules = shelf()
    game = laid_out(
        rules, [["hook", "hook"], []], shelves=[[], ["red", "blue", "blue"]], bin_=["blue"]
    )
    hooks = [o for o in game.legal_labels() if o.startswith("hook_gem")]
    assert hooks == [
        "hook_gem blue from bin",
        "hook_gem blue from shelf[P2]",
        "hook_gem red from shelf[P2]",
    ]
    game.apply_action("hook_gem red from shelf[P2]")
    assert zone(game, "shelf[P1]") == ["red"]
    assert zone(game, "shelf[P2]") == ["blue", "blue"]
    assert zone(game, "bin") == ["blue", "hook"]


def test_card_any_offers_every_type_in_hand():
    game = laid_out(shelf(), [["red", "hook", "blue"], []])
    assert [o for o in game.legal_labels() if o.startswith("toss")] == [
        "toss blue",
        "toss hook",
        "toss red",
    ]


def test_props_are_typed_by_what_the_deck_declares():
    spec = load_spec(
        "shelf.yaml",
        SHELF.replace(
            "evaluation: goal_score(display, me)",
            'evaluation: prop(one(hand(me), red), "worth") + count(hand(me), prop(one(hand(me), red), "beats"))',
        ),
    )
    game = laid_out(Game(spec, 2), [["red", "blue", "blue"], []])
    assert game.evaluate(0) == 3 + 2  # worth 3; red beats blue, two blues in hand
    with pytest.raises(SpecError) as exc:
        load_spec(
            "x.yaml",
            SHELF.replace(
                "evaluation: goal_score(display, me)",
                'evaluation: prop(one(hand(me), red), "wroth")',
            ),
        )
    assert "did you mean 'worth'" in exc.value.render()


def test_match_counters_carry_and_game_index_counts():
    rules = shelf()
    first = play(rules.new_initial_state(seed=3), make_agents(["random"], 2, 3))
    second = settled(rules.new_initial_state(seed=4, game_index=1, carried=first.carry()))
    seen = second.observation(None)
    assert (
        seen["counters"]["rounds"] == 2 and seen["current"] == "P2"
    )  # set_current(seat(game_index))


def test_without_kind_of_and_seat_number():
    text = SHELF.replace(
        "evaluation: goal_score(display, me)",
        """evaluation: >-
  size(without(hand(me), of(hand(me), red))) * 100
  + count(hand(me), kind_of(of(hand(me), blue))) * 10 + seat_number(me)""",
    )
    game = laid_out(Game(load_spec("x.yaml", text), 2), [["red", "blue", "blue", "hook"], []])
    assert game.evaluate(0) == 300 + 20 + 0


def test_range_of_two_numbers_starts_at_the_first():
    text = edited(
        SHELF,
        ("evaluation: goal_score(display, me)",
         "evaluation: sum(i for i in range(2, 5)) * 100 + size(range(3, 1)) * 10 + size(range(4))"),
    )  # fmt: skip
    game = laid_out(Game(load_spec("x.yaml", text), 2), [["red"], []])
    assert game.evaluate(0) == (2 + 3 + 4) * 100 + 0 + 4


def test_range_takes_one_or_two_numbers_and_a_bad_one_says_no_more():
    text = edited(SHELF, ("    rounds += 1\n", "    for j in range(1, 2, 3) { rounds += j * j }\n"))
    assert spec_errors(text) == [("RS203", "range() takes 1 or 2 argument(s), got 3")]


def test_items_of_the_wrong_type_say_so_once_with_the_range_to_write():
    text = edited(SHELF, ("    rounds += 1\n", "    for j in rounds { rounds += j * j }\n"))
    with pytest.raises(SpecError) as exc:
        load_spec("x.yaml", text)
    ((code, message, hint),) = [(d.code, d.message, d.hint) for d in exc.value.diagnostics]
    assert (code, hint) == ("RS204", "the numbers 0 to n - 1 are range(n)")
    assert (
        message
        == "a for loop's items must be players, ints, kinds, cardsets, cards or zones, got int"
    )


def test_a_choice_of_a_range_from_a_bound_worked_out_in_play_is_in_the_action_space():
    text = edited(
        SHELF,
        ("    rounds += 1\n",
         "    rounds += 1\n    choose(current) n from range(seat_number(current) - 3, 1) { seen = n }\n"),
    )  # fmt: skip
    labels = ActionSpace(Game(load_spec("x.yaml", text), 2)).labels
    assert {"-3", "-2", "-1", "0"} <= set(labels) and "1" not in labels


def test_card_sets_add_up_in_a_chain_and_have_no_minus():
    text = SHELF.replace(
        "evaluation: goal_score(display, me)",
        "evaluation: size(hand(me) + of(hand(me), red) + hand(me)) * 10 + count(hand(me) + hand(me), blue)",
    )
    game = laid_out(Game(load_spec("x.yaml", text), 2), [["red", "blue", "blue", "hook"], []])
    assert game.evaluate(0) == (4 + 1 + 4) * 10 + 4
    minus = SHELF.replace(
        "evaluation: goal_score(display, me)", "evaluation: size(hand(me) - hand(me))"
    )
    with pytest.raises(SpecError) as exc:
        load_spec("x.yaml", minus)
    (problem,) = exc.value.diagnostics
    assert (problem.code, problem.message) == (
        "RS204",
        "'-' takes numbers: there is no '-' on cards",
    )
    assert "without(a, b)" in problem.hint


COIN_GRAB = (Path(__file__).resolve().parent / "valid" / "coin_grab.yaml").read_text()


def test_a_condition_on_whose_turn_it_is_is_checked_when_a_turn_begins():
    text = COIN_GRAB.replace(
        "end_conditions:\n",
        "end_conditions:\n  second_seat:\n    when: current == seat(1)\n    effect: win(current)\n",
        1,
    )
    game = play(
        Game(load_spec("x.yaml", text), 2).new_initial_state(seed=1), make_agents(["first"], 2, 1)
    )
    assert (game.reason, game.winners) == ("second_seat", (1,))


def test_a_game_with_everyone_out_ends():
    text = COIN_GRAB.replace(
        "    shuffle(pile)\n", "    shuffle(pile)\n    for p in players { eliminate(p) }\n", 1
    )
    game = play(
        Game(load_spec("x.yaml", text), 2).new_initial_state(seed=1), make_agents(["first"], 2, 1)
    )
    assert (game.reason, game.winners, game.turn) == ("no_players", (), 0)


def test_many_seats_are_fine():  # 64 is the most a spec may declare (docs/limits.md)
    text = COIN_GRAB.replace(
        "players: {min: 2, max: 4, default: 3}", "players: {min: 2, max: 64, default: 3}"
    )
    text = text.replace("coin: {count: 12", "coin: {count: 200").replace(
        "thief: {count: 8}", "thief: {count: 200}"
    )
    game = Game(load_spec("x.yaml", text), 64).new_initial_state(seed=1, turn_limit=40)
    offered = set()
    while not game.is_terminal():
        if game.is_chance_node():
            game.sample_chance()
            continue
        offered.update(game.legal_labels())
        game.apply_action(game.legal_actions()[-1])
    assert "steal -> P64" in offered


def test_a_loop_without_a_choice_ends_the_game_as_effect_loop():
    text = COIN_GRAB.replace(
        "    shuffle(pile)\n", "    shuffle(pile)\n    while true { steals += 1 }\n", 1
    )
    game = settled(Game(load_spec("x.yaml", text), 2).new_initial_state(seed=1))
    assert (game.is_terminal(), game.reason, game.winners, game.turn) == (
        True,
        "effect_loop",
        (),
        0,
    )
    assert counter(game, "steals") == 100_000  # every pass ran, up to the bound


def test_an_end_inside_a_loop_stops_the_rest_of_the_effect():
    """win and end_turn stop the whole effect, even from inside `for` and `if`."""
    text = COIN_GRAB.replace(
        "    shuffle(pile)\n",
        "    shuffle(pile)\n"
        "    for p in players { for q in players { if q == seat(1) { steals += 1 end_turn() } } }\n"
        "    steals += 10\n",
        1,
    )
    game = settled(Game(load_spec("x.yaml", text), 3).new_initial_state(seed=1))
    assert counter(game, "steals") == 1 and game.turn == 1
    assert [len(zone(game, f"hand[P{p}]")) for p in (1, 2, 3)] == [1, 0, 0]  # only the draw


def test_a_move_that_lists_a_card_twice_logs_where_each_copy_was():
    """`a + b` keeps a card in both twice: its second move is from where the first put it."""
    text = COIN_GRAB.replace(
        "    effect: move(top(pile, 1), hand(current))\n",
        "    effect: |\n      move(top(pile, 1), hand(current))\n"
        "      if size(hand(current)) > 3 { move(hand(current) + hand(current), discard) }\n",
        1,
    )
    game = Game(load_spec("x.yaml", text), 2).new_initial_state(seed=1)
    while not game.is_terminal() and game.turn < 6:
        game.sample_chance() if game.is_chance_node() else game.apply_action(
            game.legal_actions()[0]
        )
    moves = [
        (e["src"], e["dst"], e["n"])
        for e in game.log_for(None)
        if e["event"] == "move" and e["dst"] == "discard"
    ]
    assert moves[:2] == [("hand[P1]", "discard", 4), ("discard", "discard", 4)]


def test_a_condition_on_the_next_player_sees_the_direction_change():
    """next(p) reads the direction of play: reverse() must wake the rules that use it."""
    text = COIN_GRAB.replace(
        "  steals: {initial: 0}\n",
        "  steals: {initial: 0}\n  flips: {initial: 0}\n  seen: {per_player: true, initial: 0}\n",
        1,
    )
    text = text.replace(
        "    effect: move(top(pile, 1), hand(current))\n",
        "    effect: |\n      move(top(pile, 1), hand(current))\n"
        "      if flips == 0 { reverse() flips = 1 }\n",
        1,
    )
    text += (
        "triggers:\n  behind_me:\n    each: p\n    when: seat_number(next(p)) == 2 and seen(p) == 0\n"
        "    effect: seen(p) = 1\n"
    )
    game = Game(load_spec("x.yaml", text), 3).new_initial_state(seed=1)
    while not game.is_terminal() and game.turn < 4:
        game.sample_chance() if game.is_chance_node() else game.apply_action("pass")
    fired = [e["player"] for e in game.log_for(None) if e["event"] == "trigger"]
    assert game.observation(None)["direction"] == -1 and fired == [
        1,
        0,
    ]  # P2 before the reverse, P1 after


def test_deep_nesting_and_long_chains_run():
    """Generated code stays within Python's limits (nested loops, parentheses)."""
    loops = "".join(f"for q{i} in current {{ " for i in range(25))
    text = COIN_GRAB.replace(
        "    shuffle(pile)\n",
        "    shuffle(pile)\n    " + loops + "if true { steals += 1 }" + " }" * 25 + "\n",
        1,
    )
    # the longest chain the language allows: 61 '+' and count(hand(me)) are 64 levels
    text += "evaluation: " + " + ".join(["count(hand(me), coin)"] * 62) + "\n"
    game = settled(Game(load_spec("x.yaml", text), 2).new_initial_state(seed=1))
    assert counter(game, "steals") == 1
    assert (
        zone(game, "hand[P1]").count("coin") == 2 and game.evaluate(0) == 124
    )  # dealt 2 coins, seed 1


TITLED = (
    SHELF.replace(
        "  bin: {visibility: public, ordered: true}",
        "  bin: {visibility: public, ordered: true, title: junk bin}",
    )
    .replace("  seen: {initial: 0}", "  seen: {initial: 0, title: Cards seen}")
    .replace("  - step: draw\n", "  - step: draw\n    title: Draw a card\n")
    .replace("  place:\n    card: gem", "  place:\n    title: Place a gem\n    card: gem")
    .replace("  done:\n    each: p", "  done:\n    title: Display complete\n    each: p")
    .replace("zones:\n", "parameters:\n  reach: {default: 2, title: Reach of a hook}\nzones:\n", 1)
)


def test_titles_are_read_into_the_ir_and_default_to_the_name_made_readable():
    spec = load_spec("titled.yaml", TITLED)
    assert [z.title for z in spec.zones] == ["pile", "junk bin", "hand", "shelf"]
    assert [c.title for c in spec.counters] == ["Rounds", "Cards seen"]
    assert [s.title for s in spec.turn] == ["Draw a card", "Play"]
    assert [a.title for a in spec.actions] == ["Place a gem", "Hook gem", "Toss"]
    assert [(t.title, t.span.line) for t in spec.end_conditions] == [
        ("Display complete", TITLED.splitlines().index("  done:") + 1)
    ]
    assert [(p.name, p.value, p.title) for p in spec.params] == [("reach", 2, "Reach of a hook")]


def test_titles_change_no_game():
    def log(text):
        game = Game(load_spec("x.yaml", text), 3).new_initial_state(seed=4)
        play(game, make_agents(["random"], 3, 4))
        return game.log_for(None)

    assert log(TITLED) == log(SHELF)


def test_a_variant_that_sets_a_parameter_keeps_its_title(tmp_path):
    (tmp_path / "base.yaml").write_text(TITLED)
    (tmp_path / "far.yaml").write_text("rulespec: 1\nextends: base.yaml\nparameters:\n  reach: 3\n")
    (param,) = load_spec(tmp_path / "far.yaml").params
    assert (param.value, param.title) == (3, "Reach of a hook")


@pytest.mark.parametrize(
    "title, code, message",
    [
        ('""', "RS104", "counters.seen.title: '' should be non-empty"),
        ("7", "RS102", "counters.seen.title must be a string, got an integer"),
    ],
)
def test_a_title_is_text_that_says_something(title, code, message):
    text = TITLED.replace("title: Cards seen", f"title: {title}")
    with pytest.raises(SpecError) as exc:
        load_spec("x.yaml", text)
    (d,) = exc.value.diagnostics
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("  seen:"))
    assert (d.code, d.message, d.span.line) == (code, message, line)


def test_text_and_prompt_reach_the_ir_and_change_no_rule(tmp_path):
    """`text:` on cards (a family's filled in like its title), zones, counters,
    parameters and rules, `prompt:` on rules: kept as written, and the game is the same
    with or without them."""
    spec = load_spec(str(ROOT / "games" / "take_the_gold.yaml"))
    assert spec.cards[0].text == "Collect 4 to win!"
    assert spec.zone("set_aside").text.startswith("Successful Kraken")
    step = next(s for s in spec.turn if s.name == "discard_down")
    assert step.prompt == "which card do you discard?" and step.text.startswith("You can")
    assert spec.params[0].text == ""  # none given
    written = (ROOT / "games" / "take_the_gold.yaml").read_text(encoding="utf-8")
    bare = re.sub(r'(?m)^ +(text|prompt): ".*"\n|, text: "[^"]*"', "", written)
    assert bare.count("text:") == 0 and bare != written
    (tmp_path / "take_the_gold.yaml").write_text(bare, encoding="utf-8")
    plain = load_spec(str(tmp_path / "take_the_gold.yaml"))
    assert plain.cards[0].text == "" and all(not s.prompt for s in plain.turn)
    logs = []
    for rules in (spec, plain):
        state = Game(rules, 3).new_initial_state(seed=4)
        while not state.is_terminal() and state.length < 300:
            if state.is_chance_node():
                state.sample_chance()
            else:
                state.apply_action(state.legal_actions()[0])
        logs.append(state.log_for(None))
    assert logs[0] == logs[1]
    family = (ROOT / "games" / "draft.yaml").read_text(encoding="utf-8")
    family = family.replace(
        '      title: "Stepping Stone {step}"\n',
        '      title: "Stepping Stone {step}"\n      text: "A stone of {step} steps."\n',
    )
    (tmp_path / "draft.yaml").write_text(family, encoding="utf-8")
    cards = {c.name: c.text for c in load_spec(str(tmp_path / "draft.yaml")).cards}
    assert cards["stone_1"] == "A stone of 1 steps." and cards["stone_5"].endswith("5 steps.")


def test_a_counter_whose_initial_value_is_a_player_counter_holds_a_player():
    """A counter's type is known from its own declaration on, so one declared below it
    and starting from it holds a player too (it was typed a number, and next() of it
    refused)."""
    text = (ROOT / "tests/valid/pass_the_pair.yaml").read_text(encoding="utf-8")
    text = text.replace(
        '  last_to_lay: {initial: "seat(0)"}',
        '  last_to_lay: {initial: "seat(0)"}\n  first_to_lay: {initial: last_to_lay}',
    ).replace(
        "        last_to_lay = current",
        "        last_to_lay = current\n        first_to_lay = next(first_to_lay)",
    )
    spec = load_spec("pairs.yaml", text)
    assert {c.name: c.initial.type for c in spec.counters}["first_to_lay"] == "player"


def test_a_counter_that_holds_a_kind_is_a_name_outside_and_a_number_inside():
    """A kind counter is held as its number (Game.kind_names), and read as its kind:
    laid out as no kind (null), no coloured card matches it; the observation names it,
    the learning vector numbers it, and a name the deck lacks is refused."""
    game = Game(load_spec(str(ROOT / "tests/valid/colour_match.yaml")), 2)
    zones = {"hand[P1]": ["wild", "red_1", "blue_2"], "hand[P2]": ["red_2"], "discard": ["red_3"]}
    state = State.from_layout(game, zones=zones, counters={"colour_now": None})
    assert state.legal_labels() == ["draw", "play wild"]  # count(card, no kind) is 0
    assert state.observation(0)["counters"]["colour_now"] is None
    state = State.from_layout(game, zones=zones, counters={"colour_now": "blue"})
    assert state.legal_labels() == ["draw", "play blue_2", "play wild"]
    seen = state.observation(0)["counters"]
    assert seen == {"colour_now": "blue", "last_colour[P1]": "wild", "last_colour[P2]": "wild"}
    encoder = ObservationEncoder(game)
    numbers = encoder.encode(state.observation(0))[-4:-1]
    assert numbers == [game.kind_names.index(k) for k in ("blue", "wild", "wild")]
    assert encoder.encode_state(state, 0) == encoder.encode(state.observation(0))
    with pytest.raises(ValueError, match=r"counter colour_now holds a kind.*not 'green'"):
        State.from_layout(game, zones=zones, counters={"colour_now": "green"})
    with pytest.raises(ValueError, match=r"counter colour_now holds a kind.*not 'any'"):
        State.from_layout(game, zones=zones, counters={"colour_now": "any"})  # every card


@pytest.mark.parametrize(
    "change, message",
    [
        ("colour_now = c.colour", None),
        ("colour_now += 1", "'+=' needs a number, 'colour_now' is kind"),
        ("colour_now = 2", "cannot assign int to 'colour_now' (kind)"),
        ("colour_now = current", "cannot assign player to 'colour_now' (kind)"),
    ],
)
def test_a_kind_counter_is_set_to_a_kind_with_equals_only(change, message):
    text = (ROOT / "tests/valid/colour_match.yaml").read_text(encoding="utf-8")
    text = text.replace("        colour_now = c.colour\n", f"        {change}\n")
    if message is None:
        assert load_spec("colours.yaml", text).counters[0].initial.type == "kind"
        return
    with pytest.raises(SpecError) as err:
        load_spec("colours.yaml", text)
    assert [(d.code, d.message) for d in err.value.diagnostics] == [("RS204", message)]


def test_a_counter_whose_initial_value_is_refused_is_reported_once():
    """A counter's initial value of a type no counter holds is one error, not one more
    for every rule that reads the counter."""
    text = (ROOT / "tests/valid/colour_match.yaml").read_text(encoding="utf-8")
    text = text.replace("colour_now: {initial: red,", 'colour_now: {initial: "size(stock) > 0",')
    with pytest.raises(SpecError) as err:
        load_spec("colours.yaml", text)
    assert [(d.code, d.message) for d in err.value.diagnostics] == [
        ("RS204", "counters.colour_now.initial must be int, player or kind, got bool")
    ]


def test_values_lists_a_property_s_kinds_in_deck_order_and_its_numbers_lowest_first():
    """values("colour") is the colours' tags, as the deck first names each; values of a
    number property its numbers. A choice among them is labelled with the tags' names,
    which the action space numbers, and the table shows them in deck order."""
    text = (ROOT / "tests/valid/colour_match.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "each:\n        colour: [red, blue]", "each:\n        colour: [red, blue, green]"
    )
    text = text.replace("number: {from: 1, to: 3}", "number: [3, 1, 2]")
    game = Game(load_spec("colours.yaml", text), 2)
    assert game.prop_values("colour") == tuple(game.kinds[c] for c in ("red", "blue", "green"))
    assert game.prop_values("number") == (1, 2, 3)
    state = State.from_layout(game, zones={"hand[P1]": ["wild"], "hand[P2]": ["red_1"]})
    state.apply_action("play wild")
    assert state.legal_labels() == ["blue", "green", "red"]
    assert {"blue", "green", "red"} <= set(ActionSpace(game).labels)
    shown = tableview.arranged(state.legal_actions(), Titles.of(game.spec), game.type_names)
    assert [s["option"].label for s in shown] == ["red", "blue", "green"]
    state.apply_action("green")
    assert state.observation(None)["counters"]["colour_now"] == "green"


def test_above_lists_the_cards_on_a_card_nearest_first_so_a_run_moves_in_order():
    """`move(c + above(c), zone)` takes a card and every card on it, and keeps their order
    where they land; a card of a zone that is not ordered has none on it."""
    text = (ROOT / "tests/valid/rows.yaml").read_text(encoding="utf-8")
    text = text.replace("actions: [place, name_a_card]", "actions: [place, name_a_card, take_run]")
    text = text.replace(
        "  name_a_card:\n",
        "  take_run:\n    target: card\n    among: row(0)\n"
        "    effect: move(chosen + above(chosen), row(1))\n  name_a_card:\n",
    )
    game = Game(load_spec("rows.yaml", text), 2)
    zones = {"row[0]": ["high", "mid", "low"], "row[1]": [], "draw_pile": ["mid", "mid"]}
    state = State.from_layout(game, zones=zones)  # rows listed top first
    state.apply_action("take_run mid from row[0]")
    seen = state.observation(None)["zones"]
    assert seen["row[0]"] == ["low"] and seen["row[1]"] == ["mid", "high"]  # bottom first
    text = (ROOT / "tests/valid/market.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "move(chosen, hand(current))\n      move(top",
        "move(chosen + above(chosen), hand(current))\n      move(top",
    )
    assert "above(chosen)" in text
    market = Game(load_spec("market.yaml", text), 2)
    zones = {"market": ["fig", "pear", "apple"], "hand[P2]": ["plum"], "deck": ["plum"]}
    state = State.from_layout(market, zones=zones)
    state.apply_action("take fig from market")
    assert state.observation(None)["zones"]["market"] == ["apple", "pear", "plum"]


def _fish(change: str = "") -> str:
    text = (ROOT / "tests/valid/fish.yaml").read_text(encoding="utf-8")
    return text.replace("    again_if: lucky == 1 ", f"{change}    again_if: lucky == 1 ")


def test_an_optional_again_if_step_may_be_passed_at_every_offer():
    """`optional` decides every offer of an again_if step, the first and those after a
    lucky play alike (a repeat step offers pass on every offer after the first)."""
    game = Game(load_spec("fish.yaml", _fish("    optional: true\n")), 2)
    hands = {
        "hand[P1]": ["r1_clubs"],
        "hand[P2]": ["r1_hearts", "r3_hearts"],
        "stock": ["r4_clubs"],
    }
    state = State.from_layout(game, zones=hands)
    assert state.legal_labels() == ["ask -> P2", "pass"]
    state.apply_action("ask -> P2")
    state.apply_action("1")
    assert (state.current_player(), state.legal_labels()) == (0, ["ask -> P2", "pass"])
    state.apply_action("pass")
    assert state.current_player() == 1


@pytest.mark.parametrize(
    "change, message",
    [
        ("    repeat: true\n", "'repeat' offers the step again after every play, 'again_if' only"),
        ("    around: all_pass\n", "'again_if' does not go with 'around'"),
    ],
)
def test_again_if_goes_with_neither_repeat_nor_around(change, message):
    with pytest.raises(SpecError) as err:
        load_spec("fish.yaml", _fish(change))
    assert [d.code for d in err.value.diagnostics] == ["RS104"]
    assert err.value.diagnostics[0].message.startswith(message)


def test_again_if_is_a_condition_on_a_play_step():
    text = _fish().replace("again_if: lucky == 1 ", "again_if: lucky ")
    with pytest.raises(SpecError, match="RS204"):
        load_spec("fish.yaml", text)
    text = _fish().replace(
        "effect: if size(hand(current)) == 0",
        "again_if: true\n    effect: if size(hand(current)) == 0",
    )
    with pytest.raises(SpecError) as err:
        load_spec("fish.yaml", text)
    assert [(d.code, d.message) for d in err.value.diagnostics] == [
        ("RS104", "'again_if' is for a play step (one with actions)")
    ]


def test_a_turn_cut_short_by_end_turn_is_still_checked_as_it_ends():
    """Rules checked as a turn ends (`at: turn_end`) run when end_turn() ends it early:
    Last Draw's draw step ends the turn once the pile is out, so the player who draws
    the last card does not play it, and the round ends with P2 ahead."""
    text = (ROOT / "tests/valid/last_draw.yaml").read_text(encoding="utf-8")
    draw = "    effect: move(top(pile, 1), hand(current))\n"
    assert text.count(draw) == 1
    text = text.replace(
        draw,
        "    effect: |\n      move(top(pile, 1), hand(current))\n"
        "      if size(pile) == 0 { end_turn() }\n",
    )
    game = Game(load_spec("last_draw.yaml", text), 2)
    zones = {"pile": ["high"], "hand[P1]": ["low"], "hand[P2]": ["mid"]}
    state = State.from_layout(
        game, zones=zones, counters={"round_points[P1]": 2, "round_points[P2]": 4}
    )
    assert state.is_chance_node()  # the next round's shuffle
    assert (counter(state, "points[P1]"), counter(state, "points[P2]")) == (0, 1)
    log = state.log_for(None)
    assert not any(e["event"] == "move" and e["dst"] == "row[P1]" for e in log)  # never played
    assert {"event": "round_end", "round": 1, "rule": "pile_out", "turn": 1} in log


def test_turn_end_rules_keep_the_order_round_the_table_they_began_with():
    """A rule with `each`, checked as a turn ends, fires once for each player in the
    order round the table as the turn's end began, though an effect reverses play: the
    order was worked out afresh after each firing, so P2 fired twice and P4 never."""
    text = edited(
        (ROOT / "tests/valid/last_draw.yaml").read_text(encoding="utf-8"),
        ("    when: size(row(p)) >= row_bonus\n", "    when: true\n"),
        (
            "    effect: round_points(p) += 1\n",
            "    effect: |\n      round_points(p) += 1\n      if p == seat(1) { reverse() }\n",
        ),
    )
    game = Game(load_spec("last_draw.yaml", text), 4)
    hands = {f"hand[P{i}]": ["low"] for i in range(1, 5)} | {"pile": ["mid", "mid", "mid"]}
    state = State.from_layout(game, zones=hands)
    state.apply_action("lay low")
    points = [counter(state, f"round_points[P{i}]") for i in range(1, 5)]
    assert points == [2, 1, 1, 1]  # P1's low card, and one bonus each
    assert state.current_player() == 3  # play reversed: P4 is next


def test_a_game_needs_no_setup():
    """A match whose rounds deal needs no game setup: without one, the first round's
    setup opens the game (a designer's Euchre wrote an empty one)."""
    text = (ROOT / "tests/valid/last_draw.yaml").read_text(encoding="utf-8")
    assert text.count("setup:\n  effect: shuffle(pile)\n") == 1
    game = Game(
        load_spec("last_draw.yaml", text.replace("setup:\n  effect: shuffle(pile)\n", "")), 2
    )
    state = play(game.new_initial_state(seed=3), make_agents(["random"], 2, 3))
    assert state.result["over"] and state.result["reason"] == "enough_points"
    assert state.log_for(None)[0] == {"event": "round", "round": 1, "turn": 0}


CHIPS = """
rulespec: 1
name: Chips
players: {min: 2, max: 4, default: 3}
hand: hand
deck:
  cards:
    coin: {count: 20}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
counters:
  chips: {per_player: true, initial: 2}
turn:
  - step: draw
    effect: |
      move(top(pile, 1), hand(current))
      chips(current) -= 1
turn_order: nth(filter(chips(q) > 0 for q in others(current)), 0)
end_conditions:
  out:
    when: size(pile) == 0
    effect: end_game()
"""


def test_nth_of_players_is_one_player():
    """A designer's poker needed the next player still holding chips as the turn order,
    a player: first(..., 1) is a set of players (RS204). nth() of players gives the
    player at a place; with none there, the rule fails at its place (RS701)."""
    rich = CHIPS.replace("initial: 2}", "initial: 9}")
    state = Game(load_spec("chips.yaml", rich), 3).new_initial_state(seed=1)
    turns = [e["player"] for e in state.log_for(None) if e["event"] == "turn"]
    assert state.result["reason"] == "out" and turns == [0, 1, 2] * 6 + [0, 1]
    with pytest.raises(RuleError) as info:  # after six turns nobody else has chips
        Game(load_spec("chips.yaml", CHIPS), 3).new_initial_state(seed=1)
    assert info.value.code == "RS701"
    assert "nth() of 0 player(s) has no place 0" in str(info.value)


def test_refill_names_a_zone_that_refills():
    text = (ROOT / "tests/valid/colour_match.yaml").read_text(encoding="utf-8")
    text = text.replace("      refill(stock) ", "      refill(discard) ")
    with pytest.raises(SpecError) as err:
        load_spec("colours.yaml", text)
    assert [(d.code, d.message) for d in err.value.diagnostics] == [
        (
            "RS204",
            "zone 'discard' has no refill_from: refill() refills only a zone that declares "
            "where its cards come from",
        )
    ]


def test_card_sets_have_no_product_nor_quotient():
    """A review found `hand(me) * hand(me)` typed as cards once a chain of `+` was."""
    for op in ("*", "//", "%"):
        text = SHELF.replace(
            "evaluation: goal_score(display, me)", f"evaluation: size(hand(me) {op} hand(me))"
        )
        with pytest.raises(SpecError) as exc:
            load_spec("x.yaml", text)
        (problem,) = exc.value.diagnostics
        assert (problem.code, problem.message) == (
            "RS204",
            f"'{op}' takes numbers: there is no '{op}' on cards",
        )


SETS_ADDED = """
rulespec: 1
name: Sets
players: {min: 2, max: 2}
hand: hand
deck:
  build:
    - card: "c_{rank}"
      each:
        rank: {from: 1, to: 12}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
  table: {visibility: public}
setup:
  effect: |
    shuffle(pile)
turn:
  - step: lay
    effect: |
      choose(current) s from combinations(pile, 6) + combinations(pile, 5) { move(s, table) }
end_conditions:
  e:
    when: size(table) > 2
    effect: win(current)
"""


def test_sets_of_cards_added_up_are_bounded_as_one_combinations_is():
    """A reviewer's choice of combinations(pile, 6) + combinations(pile, 5) offered
    1,716 sets, where the docs bound a choice of sets at 1,024."""
    game = Game(load_spec("sets.yaml", SETS_ADDED), 2)
    with pytest.raises(RuleError, match="added up would give 1,716 sets, more than 1024"):
        settled(game.new_initial_state(seed=1))
    small = edited(
        SETS_ADDED,
        (
            "combinations(pile, 6) + combinations(pile, 5)",
            "combinations(pile, 1) + combinations(pile, 2)",
        ),
    )
    state = settled(Game(load_spec("sets.yaml", small), 2).new_initial_state(seed=1))
    assert len(state.legal_actions()) == 12 + 66


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3)), max_size=10),
    k=st.integers(-1, 5),
    most=st.one_of(st.none(), st.integers(-1, 12)),
    taken=st.sets(st.integers(0, 9)),
    refused=st.integers(0, 4),
)
def test_a_choice_makes_the_sets_of_alike_cards_as_every_copy_would(cards, k, most, taken, refused):
    """A choice from combinations(cards, k) (or of k to most cards) makes one set for
    each that alike cards (a type in one zone) make, not every copy: it offers what
    going through every copy offered (the same labels, of the same cards, in the same
    order), with a filter that reads the cards' types and zones, cards of a type in
    several zones, and cards an earlier pick of `simultaneously` took, which the copies
    left may replace."""
    loc, ctype = [z for z, _ in cards], [t for _, t in cards]
    ids, names = list(range(len(cards))), ["a", "b", "c", "d"]

    def keep(s):  # refuses some sets by their cards' types and zones, and a card taken
        alike = tuple(sorted((loc[c], ctype[c]) for c in s))
        return taken.isdisjoint(s) and (refused == 0 or hash(alike) % refused != 0)

    every = set_options(runtime._combinations(ids, k, most), ctype, names, keep)
    made = distinct_sets([c for c in ids if c not in taken], k, ctype, loc, most=most)
    assert [(o.label, o.cards) for o in set_options(made, ctype, names, keep)] == [
        (o.label, o.cards) for o in every
    ]


@pytest.mark.parametrize("k, most", [(2, 4), (0, 2), (3, 9), (4, 3), (-1, 1)])
def test_combinations_of_several_sizes_are_each_size_s_in_turn_smallest_first(k, most):
    """A Jaipur designer added up combinations(x, 2) + ... + combinations(x, 5) to sell
    2 or more cards: combinations(x, 2, 5) gives those sets, in that order; a largest
    size past the cards gives up to all of them, one below the least gives none."""
    cards = list(range(6))
    assert runtime._combinations(cards, k, most) == [
        s for size in range(k, most + 1) for s in runtime._combinations(cards, size)
    ]


def test_the_action_space_of_sets_of_several_sizes_holds_those_sizes_only():
    """The learning environments number every set a choice from combinations(cards, 2,
    4) may offer: the multisets of two to four of the deck's card types, no single card
    and no five."""
    game = Game(load_spec(ROOT / "tests" / "valid" / "goods_sale.yaml"), 2)
    sets = {label for label in ActionSpace(game).labels if "+" in label or label == "silk"}
    assert {len(label.split("+")) for label in sets} == {2, 3, 4}
    assert len(sets) == 6 + 10 + 15  # multisets of 2, 3 and 4 of three card types


def test_a_choice_of_sets_is_bounded_by_the_different_sets_it_makes():
    """The bound counts the sets a choice makes, copies alike: a bank of 5 colours x 7
    makes 35 sets of three (not 6,545), and 13 cards of 13 types still make too many."""
    bank = [t for t in range(5) for _ in range(7)]
    assert len(distinct_sets(list(range(35)), 3, bank, [0] * 35)) == 35
    with pytest.raises(RuleLimit, match=r"would offer 1,716 different sets .* more than 1024"):
        distinct_sets(list(range(13)), 6, list(range(13)), [0] * 13)
    assert len(distinct_sets(list(range(13)), 1, list(range(13)), [0] * 13, most=3)) == 377
    with pytest.raises(RuleLimit, match=r"of 1 to 4 of 13 cards would offer 1,092 different"):
        distinct_sets(list(range(13)), 1, list(range(13)), [0] * 13, most=4)


TOPS = """
rulespec: 1
name: Tops
players: {min: 2, max: 2}
hand: hand
deck:
  cards: {red: {count: 3}}
zones:
  box: {visibility: public, start: true, ordered: true}
  hand: {per_player: true, visibility: public}
counters:
  n: {initial: 0}
setup:
  effect: |
    n = size(top(box, 5))
    let t = top(box, 5)
    move(t, hand(current))
turn:
  - step: s
    effect: end_game()
"""


def test_the_top_cards_past_a_zones_size_are_all_of_them():
    """A review's: top(box, 5) of a 3-card box, read as a value, gave 2 cards (the
    slice from -2), where a move of it, which draws, took all 3."""
    state = Game(load_spec("tops.yaml", TOPS), 2).new_initial_state()
    assert counter(state, "n") == 3 and zone(state, "hand[P1]") == ["red"] * 3


CAMPS = edited(
    (ROOT / "tests/valid/partners.yaml").read_text(),
    (
        "  chest: {per_team: true, visibility: owner}      # seen by the side's players only",
        "  chest: {per_team: true, visibility: owner}\n"
        "  camp: {per_team: true, count: 2, visibility: owner}",
    ),
    (
        "    effect: score(current) += count(card, coin)",
        "    effect: |\n"
        "      score(current) += count(card, coin)\n"
        "      move(top(pile, 1), camp(current, score(current) % 2))",
    ),
)


def test_a_family_each_team_has_is_its_own_zones_seen_by_the_team():
    """`camp(p, i)`: zone i of p's team's family, laid out team by team, seen (with
    `visibility: owner`) by that team's seats only, and narrated by team and index."""
    game = Game(load_spec("camps.yaml", CAMPS), 4)
    camps = [s.label for s in game.slots if s.zone.name == "camp"]
    assert camps == ["camp[odd][0]", "camp[odd][1]", "camp[even][0]", "camp[even][1]"]
    state = settled(game.new_initial_state(3))
    state.apply_action(state.legal_actions()[0])  # P1 stashes: a card into an odd camp
    laid = {label: zone(state, label) for label in camps}
    assert sum(map(len, laid.values())) == 1 and not laid["camp[even][0]"] + laid["camp[even][1]"]
    where = next(label for label, cards in laid.items() if cards)
    assert state.observation(2)["zones"][where] == laid[where]  # P3, the partner
    assert state.observation(1)["zones"][where] == {"count": 1}  # P2, of the other side
    assert Titles.of(game.spec).zone("camp[odd][1]") == "odd's camp 1"


def test_a_family_each_seat_has_checks_its_owner_and_index():
    """`up(p, i)`: one player and one index; a constant index past the family is
    refused as the spec loads, one worked out in play stops the game at the rule."""
    golf = (ROOT / "tests/valid/golf_grid.yaml").read_text()
    place = "move(held(current), up(current, i))"
    for bad, said in [
        (
            "up(current, 4)",
            "RS211: up(p, 4) is out of range: the family holds 4 zones, up(p, 0) to up(p, 3)",
        ),
        (
            "up(current)",
            "RS203: zone 'up' is a family of 4 zones for each player: write "
            "up(p, i), i from 0 to 3; got 1 argument",
        ),
        ("up(0, i)", "RS204: owner of zone 'up' must be player, got int (seat(n) is the player"),
    ]:
        with pytest.raises(SpecError, match=re.escape(said)):
            load_spec("grid.yaml", edited(golf, (place, f"move(held(current), {bad})")))
    wide = edited(
        golf,
        (
            '"which place takes the card?") i from range(4)',
            '"which place takes the card?") i from range(5)',
        ),
    )
    state = settled(Game(load_spec("grid.yaml", wide), 2).new_initial_state(0))
    for label in ("from_stock", "swap"):
        state.apply_action(label)
    with pytest.raises(RuleError, match=re.escape("down(p, 4) is out of range")):
        state.apply_action("4")


@pytest.mark.parametrize(
    "written, said",
    [
        (
            "let x = (score(current), 1)",
            "RS204: (a, b, ...) is a ranking, written only as the body",
        ),
        ("let x = max((score(p), 1) for p in players)", "RS204: (a, b, ...) is a ranking"),
        (
            "let x = argmax((score(p), kept(p)) for p in players)",
            "RS204: part 2 of the ranking in argmax() must be int, got zone",
        ),
    ],
)
def test_a_ranking_is_only_the_body_of_argmax_argmin_or_sort(written, said):
    text = edited(
        (ROOT / "tests/valid/tie_break.yaml").read_text(),
        ("      score(current) += card.v\n", f"      score(current) += card.v\n      {written}\n"),
    )
    with pytest.raises(SpecError, match=re.escape(said)):
        load_spec("ranks.yaml", text)


@pytest.mark.parametrize(
    "written, said",
    [
        (
            "claimed(current) = 1",
            "RS203: counter 'claimed' is a family of 3 counters for each "
            "player: write claimed(p, i), i from 0 to 2; got 1 argument",
        ),
        ("claimed = 1", "RS204: counter 'claimed' is a family of 3 counters for each player"),
        (
            "laid(3) = 1",
            "RS211: laid(3) is out of range: the family holds 3 counters, laid(0) to laid(2)",
        ),
        ("laid(current) = 1", "RS204: index of counter family 'laid' must be int"),
    ],
)
def test_a_family_of_counters_is_written_with_its_owner_and_index(written, said):
    text = edited(
        (ROOT / "tests/valid/stones.yaml").read_text(),
        (
            "        move(card, side(current, i))\n",
            f"        move(card, side(current, i))\n        {written}\n",
        ),
    )
    with pytest.raises(SpecError, match=re.escape(said)):
        load_spec("stones.yaml", text)


def test_a_family_of_counters_may_title_each_counter():
    """The Hanamikoji designer's favour markers read "Favour 4 for P2": `titles` on a
    family of counters names each, as on a family of zones (RS104 for the wrong
    number, or on one counter)."""
    text = (ROOT / "tests/valid/stones.yaml").read_text()
    titles = Titles.of(load_spec("stones.yaml", text))
    assert titles.counter("claimed[P2][1]") == "middle stone for P2"
    assert titles.counter("claimed[P2][1]", whose=False) == "middle stone"
    assert titles.counter("laid[2]") == "Laid 2"
    for old, new, said in [
        (
            "titles: [left stone, middle stone, right stone]",
            "titles: [left, right]",
            "RS104: counter 'claimed' has 2 titles for a family of 3 counters",
        ),
        (
            "laid: {count: 3,",
            "laid: {titles: [x],",
            "RS104: counter 'laid' is one counter: titles names the counters of a family",
        ),
    ]:
        with pytest.raises(SpecError, match=re.escape(said)):
            load_spec("stones.yaml", edited(text, (old, new)))


COLOURS = """
rulespec: 1
name: Colours
players: {min: 2, max: 2}
deck:
  cards:
    red: {count: 5}
    blue: {count: 3}
    green: {count: 1}
zones:
  pile: {visibility: hidden, start: true}
  hand: {per_player: true, visibility: owner}
counters:
  second: {initial: 0}
  past_end: {initial: 9}
  green_in_two: {initial: 0}
  blue_in_two: {initial: 0}
  third: {initial: 0}
  held: {initial: 0}
setup:
  effect: |
    move(pile, hand(seat(0)))
    let most = sort(0 - count(hand(seat(0)), k) for k in card_types)
    second = count(hand(seat(0)), nth(most, 1))
    past_end = count(hand(seat(0)), nth(most, 7))
    if green in first(most, 2) { green_in_two = 1 }
    if blue in first(most, 2) and 2 not in range(2) { blue_in_two = 1 }
    third = nth(range(5), 3)
    held = size(filter(count(hand(seat(0)), k) > 1 for k in card_types)) + size(range(10))
turn:
  - step: stop
    effect: end_game()
"""


def test_nth_and_in_over_kinds_and_numbers():
    """The Coloretto designer's colour ranked second (`nth` over kinds) and the test of
    a colour among the best three (`in` over kinds) were RS204."""
    state = Game(load_spec("colours.yaml", COLOURS), 2).new_initial_state(seed=1)
    values = {name: counter(state, name) for name in ("second", "past_end", "third", "held")}
    # blue's 3; no_kind's 0; two kinds held more than once, and ten numbers
    assert values == {"second": 3, "past_end": 0, "third": 3, "held": 12}
    assert (counter(state, "green_in_two"), counter(state, "blue_in_two")) == (0, 1)
    with pytest.raises(RuleError) as info:  # no number past the end: the rule fails
        Game(
            load_spec("c.yaml", COLOURS.replace("nth(range(5), 3)", "nth(range(2), 3)")), 2
        ).new_initial_state(seed=1)
    assert "nth() of 2 number(s) has no place 3" in str(info.value)
    with pytest.raises(SpecError) as err:  # a card is still no member of a set
        load_spec(
            "c.yaml", COLOURS.replace("green in first(most, 2)", "hand(seat(0)) in first(most, 2)")
        )
    (problem,) = err.value.diagnostics
    assert "not zone among kinds" in problem.message and "count(cards, kind) > 0" in problem.hint


def test_without_target_is_for_a_card_played_at_a_player():
    """The Love Letter designer's Guard, played for nothing when every other player is
    protected, needed a second action listing the cards by hand. without_target is for
    an action that plays one card at a player, and where the card goes reads no target."""
    text = (ROOT / "tests/valid/shields.yaml").read_text(encoding="utf-8")
    no_target = edited(text, ("    target: other\n    if: shielded(target) == 0\n", ""))
    assert (
        "RS104",
        "action 'arrow': without_target is for an action that plays one card at a player "
        "(card:, and target: other or any), but its target is none",
    ) in spec_errors(no_target)
    to_target = edited(
        text,
        (
            "    to: discard\n    target: other\n    if: shielded",
            "    to: hand(target)\n    target: other\n    if: shielded",
        ),
    )
    with pytest.raises(SpecError) as err:
        load_spec("shields.yaml", to_target)
    assert "an action played without_target has no target where its card goes" in str(err.value)


def test_a_card_played_for_nothing_is_told_so():
    """Narration and the option's words say there was no one to target."""
    game = Game(load_spec(ROOT / "tests/valid/shields.yaml"), 2)
    titles = Titles.of(game.spec)
    untargeted = game.play_options["arrow", game.type_names.index("arrow"), None]
    assert tableview.option_text(untargeted, titles, game.type_names) == (
        "Play Arrow, with no one to target"
    )
    event = {
        "event": "play",
        "player": 0,
        "action": "arrow",
        "target": None,
        "card": "arrow",
        "turn": 1,
    }
    assert narrate([event], titles) == ["  P1 plays Arrow, with no one to target"]


def test_a_choice_among_a_familys_zones_is_shown_by_their_titles():
    """Three designers chose a family's zone by its number ("a number: 0-2", "P1
    chooses 1" where the titles count from 1). `choose(p) r from row` offers the zones
    by label, shows them by title, and narrates the zone taken."""
    from rulespec.table.seat import _numbers

    game = Game(load_spec(ROOT / "tests/valid/three_rows.yaml"), 2)
    state = State.from_layout(game, zones={"row[0]": ["tile"] * 3, "pile": ["tile"] * 9})
    state.apply_action("lay")
    options = state.legal_actions()
    assert [o.label for o in options] == ["row[1]", "row[2]"]
    titles = Titles.of(game.spec)
    shown = tableview.arranged(options, titles, game.type_names)
    assert [s["text"] for s in shown] == ["The middle row", "The right row"]
    assert _numbers(options) is None  # listed by title, not typed as numbers
    state.apply_action("row[2]")
    assert "  P1 chooses the right row" in narrate(state.log_for(None), titles)


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            "any(size(r) < 3 for r in row)",
            "size(argmax(size(r) for r in row)) > 0",
            "argmax() over a family's zones would give a set of zones, which is no value of the language",
        ),
        (
            "r from row if size(r) < 3",
            "r from store if size(r) < 3",
            "the zones of family 'store' to go over are written store(p), a player's own; got 0 arguments",
        ),
        (
            "r from row if size(r) < 3",
            "r from row(1, 2) if size(r) < 3",
            "the zones of family 'row' to go over are written row, without arguments; got 2 arguments",
        ),
    ],
)
def test_a_familys_zones_are_gone_over_whole(old, new, message):
    text = edited((ROOT / "tests/valid/three_rows.yaml").read_text(encoding="utf-8"), (old, new))
    assert message in [m for _, m in spec_errors(text)]


def test_a_teams_family_gone_over_without_its_team_says_a_teams_own():
    """A Canasta designer's `among: meld` of a family each team has was told it is
    written meld(p), "a player's own"."""
    text = edited(
        (ROOT / "tests/valid/partners.yaml").read_text(encoding="utf-8"),
        (
            "  chest: {per_team: true, visibility: owner}",
            "  chest: {per_team: true, visibility: owner}\n"
            "  meld: {per_team: true, count: 2, visibility: public}",
        ),
        (
            "    effect: move(top(pile, 1), hand(current))",
            "    effect: for m in meld { move(top(pile, 1), m) }",
        ),
    )
    assert (
        "the zones of family 'meld' to go over are written meld(p), a team's own; got 0 arguments"
        in [m for _, m in spec_errors(text)]
    )


ROWS_IN_ORDER = """
rulespec: 1
name: Order
players: {min: 2, max: 2}
deck:
  cards:
    a: {count: 4}
    b: {count: 4}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  row: {count: 2, visibility: public, ordered: true}
  col: {count: 2, visibility: public, ordered: true}
  by_index: {visibility: public, ordered: true}
  by_zone: {visibility: public, ordered: true}
turn:
  - step: move
    effect: |
      for i in range(2) { for c in row(i) { move(c, by_index) } }
      for r in col { for c in r { move(c, by_zone) } }
      end_game()
"""


def test_a_loop_over_the_cards_of_a_zone_a_loop_holds_keeps_its_order():
    """A review: the cards of an ordered zone held by a local (`for r in row`, a
    procedure's parameter) were looped over in deck order, not the zone's."""
    game = Game(load_spec("order.yaml", ROWS_IN_ORDER), 2)
    laid = {"row[0]": ["b", "a"], "row[1]": ["a", "b"], "col[0]": ["b", "a"], "col[1]": ["a", "b"]}
    state = State.from_layout(game, zones=laid)
    assert zone(state, "by_index") == zone(state, "by_zone")
    assert zone(state, "by_zone") != sorted(zone(state, "by_zone"))


def test_a_zone_not_shown_is_left_off_the_table_and_kept_in_the_observation():
    hidden = edited(
        SHELF,
        (
            "bin: {visibility: public, ordered: true}",
            "bin: {visibility: public, ordered: true, shown: false}",
        ),
    )
    for text, shown in ((SHELF, True), (hidden, False)):
        state = laid_out(Game(load_spec("x.yaml", text), 2), [["red"], ["blue"]], bin_=["hook"])
        view = tableview.table(state.observation(0), Titles.of(state.game.spec))
        lines = tableview.table_lines(view)
        assert ("  Bin: Hook" in lines) == shown, lines
        assert state.observation(0)["zones"]["bin"] == ["hook"]


def test_a_fallback_keeps_its_place_beside_pass_at_an_optional_step():
    """`fallback: true` (Uno's draw when you cannot play, which a designer wrote as the
    play's test over again): left out while another action can be played; `pass` is no
    action, stays on offer and keeps its place after the options."""
    text = (ROOT / "tests" / "valid" / "match_or_draw.yaml").read_text()
    step = "    actions: [match, draw]\n"
    assert step in text
    game = Game(load_spec("m.yaml", text.replace(step, step + "    optional: true\n")), 2)
    table = {"discard": ["red_2"], "hand[P2]": ["green_3", "blue_4"]}
    can = State.from_layout(game, zones=table | {"hand[P1]": ["red_1", "green_4"]})
    assert can.legal_labels() == ["match red_1", "pass"]
    cannot = State.from_layout(game, zones=table | {"hand[P1]": ["green_3", "green_4"]})
    assert cannot.legal_labels() == ["draw", "pass"]
    # pass falls among the labels: the fallback left out before it moves it up one (a
    # review found no test of where pass falls once a fallback is left out)
    take = "  take:\n    card: any\n    to: discard\n    if: card.number == 4\n"
    more = text.replace(step, step.replace("draw]", "draw, take]") + "    optional: true\n")
    game = Game(load_spec("m.yaml", more.replace("  draw:\n", take + "  draw:\n")), 2)
    can = State.from_layout(game, zones=table | {"hand[P1]": ["red_1", "green_4"]})
    assert can.legal_labels() == ["match red_1", "pass", "take green_4"]


def test_a_fallback_is_not_worked_out_while_another_action_can_be_played():
    """A second review: a fallback's options were made and then dropped, so a fallback
    that plays any group of the hand (more groups than an offer may look at) stopped
    the game with RS701 at a hand that could simply match."""
    text = (ROOT / "tests" / "valid" / "match_or_draw.yaml").read_text()
    dump = "  dump:\n    card: any\n    count: {min: 1}\n    to: discard\n    fallback: true\n"
    text = text.replace("[match, draw]", "[match, dump]").replace("  draw:\n", dump + "  draw:\n")
    game = Game(load_spec("m.yaml", text), 2)
    hand = [f"{c}_{n}" for c in ("red", "blue", "green") for n in range(1, 5) for _ in (0, 1)]
    for card in ("red_1", "blue_4"):  # one on the discards, one in P2's hand
        hand.remove(card)
    table = {"discard": ["red_1"], "hand[P1]": hand, "hand[P2]": ["blue_4"]}
    state = State.from_layout(game, zones=table)
    labels = state.legal_labels()
    assert labels and all(label.startswith("match ") for label in labels), labels


def test_a_counter_reset_each_turn_starts_every_turn_at_its_initial_value():
    """`reset: turn` (a deck-builder designer reset actions and buys by hand in the
    clean-up): a turn lays at most two cards, and two again in a later turn."""
    game = Game(load_spec(ROOT / "tests" / "valid" / "two_plays.yaml"), 2)
    laid_by_turn = []
    for seed in range(30):
        state = play(game.new_initial_state(seed=seed), make_agents(["random"] * 2, 2, seed))
        turns: dict = {}
        for e in state.log_for(None):
            if e["event"] == "play":
                turns[e["turn"]] = turns.get(e["turn"], 0) + 1
        laid_by_turn.append(turns)
    assert max(n for turns in laid_by_turn for n in turns.values()) == 2
    # without the reset, no turn after one that laid two could lay any
    assert any(sorted(turns.values()).count(2) >= 2 for turns in laid_by_turn)


def test_a_counter_reset_each_round_plays_as_one_set_back_in_the_round_s_setup():
    """`reset: round`: High Card Rounds with its round points set back by the counter's
    `reset` instead of its round setup plays the same games."""
    text = (ROOT / "tests" / "valid" / "high_card_rounds.yaml").read_text()
    reset = edited(
        text,
        (
            "round_points: {per_player: true, initial: 0}",
            "round_points: {per_player: true, initial: 0, reset: round}",
        ),
        ("        round_points(p) = 0\n", ""),
    )
    results = []
    for spec in (text, reset):
        game = Game(load_spec("rounds.yaml", spec), 3)
        results.append(
            [
                (s.result, s.observation(None)["counters"])
                for s in (
                    play(game.new_initial_state(seed=k), make_agents(["random"] * 3, 3, k))
                    for k in range(40)
                )
            ]
        )
    assert results[0] == results[1]
    assert any(r["rounds"] > 1 for r, _ in results[0])


def test_a_reset_each_round_in_a_game_without_rounds_is_rs104():
    text = (ROOT / "tests" / "valid" / "two_plays.yaml").read_text()
    bad = text.replace("reset: turn", "reset: round")
    assert spec_errors(bad) == [
        (
            "RS104",
            "counter 'plays_left' is reset as each round begins, but the game has no rounds: its one round lasts the whole game",
        )
    ]


def test_a_counter_reset_each_turn_is_not_laid_out_and_reads_no_cards():
    """A review: a laid-out `plays_left: 1` was set back to 2 as the laid-out turn
    began, silently; and an initial value that reads a hand, worked out again each
    turn, would count a hidden hand's cards for every seat to see."""
    text = (ROOT / "tests" / "valid" / "two_plays.yaml").read_text()
    game = Game(load_spec("two.yaml", text), 2)
    with pytest.raises(ValueError, match=r"counter plays_left is set back .* \(reset: turn\)"):
        State.from_layout(game, zones={"hand[P1]": ["low"]}, counters={"plays_left": 1})
    counted = text.replace(
        "plays_left: {initial: 2,", 'plays_left: {initial: "count(hand(current), high)",'
    )
    ((code, message),) = spec_errors(counted)
    assert code == "RS104" and message.startswith("counter 'plays_left' is reset as each turn")


SAY = """\
rulespec: 1
name: Say
players: {min: 2, max: 2}
hand: hand
deck:
  cards:
    coin: {count: 6}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
turn:
  - step: draw
    effect: move(top(pile, 1), hand(current))
end_conditions:
  done:
    when: size(pile) == 0
    effect: |
      say("Nothing left to draw")
      end_game()
"""


def test_say_tells_every_seat_words_and_changes_nothing():
    """`say` (a Go Fish designer wrote a one-option choice to get "Go fish" into the
    narration; a Scopa designer could not say why points were scored)."""
    game = Game(load_spec("say.yaml", SAY), 2)
    state = game.new_initial_state(seed=1)
    silent = Game(load_spec("s.yaml", SAY.replace('      say("Nothing left to draw")\n', "")), 2)
    quiet = silent.new_initial_state(seed=1)
    for s in (state, quiet):
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
    said = {"event": "say", "text": "Nothing left to draw", "turn": state.turn}
    for seat in (None, 0, 1):
        assert said in state.log_for(seat)
        assert [e for e in state.log_for(seat) if e != said] == quiet.log_for(seat)
    assert "  Nothing left to draw" in narrate(state.log_for(1), Titles.of(game.spec))
    ((code, _),) = spec_errors(SAY.replace('say("Nothing left to draw")', "say(3)"))
    assert code == "RS204"
    # a text worked out in play could tell a hidden card: the pile's top card's (a review)
    noted = SAY.replace("coin: {count: 6}", 'coin: {count: 6, props: {note: "a coin"}}')
    ((code, message),) = spec_errors(noted.replace('"Nothing left to draw"', "top(pile, 1).note"))
    assert code == "RS204" and message.startswith("say() takes a quoted text")


TURNS = """
rulespec: 1
name: Turns
players: {min: 2, max: 2}
hand: hand
deck:
  cards: {a: {count: 10}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: public}
counters:
  seen_at_setup: {initial: 9}
setup:
  effect: seen_at_setup = turn_number
turn:
  - step: draw
    effect: if turn_number > 1 { move(top(pile, 1), hand(current)) }
end_conditions:
  fourth:
    when: turn_number >= 4
    effect: win(current)
"""


def test_turn_number_counts_turns_from_1_and_wakes_a_rule_as_each_begins():
    """A battler and a beginner designer kept a flag for "the first player skips the
    first draw": turn_number says it. An end condition on it is checked as the turn
    begins (nothing else changed), before the turn's draw."""
    state = play(Game(load_spec("turns.yaml", TURNS), 2).new_initial_state(1), [])
    seen = state.observation(None)
    assert seen["counters"]["seen_at_setup"] == 0  # no turn yet
    assert (state.turn, state.reason) == (4, "fourth")
    # turns 2 and 3 drew; the first did not, nor the fourth, which ended as it began
    assert sum(len(seen["zones"][f"hand[P{p}]"]) for p in (1, 2)) == 2


def test_sides_go_over_the_teams_one_seat_each():
    """`for p in sides` goes over the teams (a Mille Bornes, a Pinochle and a Canasta
    designer each scored a side once with `for p in first(seats, 2)`, which held only
    while partners sat apart): one seat of each team, its first from the current
    player; every seat without teams."""
    partners = edited(
        (ROOT / "tests/valid/partners.yaml").read_text(encoding="utf-8"),
        (
            "    shuffle(pile)\n",
            "    shuffle(pile)\n    for p in sides { score(p) += size(sides) }\n",
        ),
    )
    for n in (4, 5, 6):
        state = _dealt(Game(load_spec("partners.yaml", partners), n))
        assert state.observation(None)["counters"] == {"score[odd]": 2, "score[even]": 2}
    alone = edited(
        (ROOT / "tests/valid/three_rows.yaml").read_text(encoding="utf-8"),
        (
            "  effect: shuffle(pile)\n",
            "  effect: |\n    shuffle(pile)\n    if size(sides) != 3 { end_game() }\n",
        ),
    )
    state = _dealt(Game(load_spec("three_rows.yaml", alone), 3))
    assert not state.is_terminal()  # three seats playing alone: three sides


def _dealt(game: Game) -> State:
    state = game.new_initial_state(seed=1)
    while state.chance_is_sampled():
        state.sample_chance()
    return state


def test_players_joined_are_each_once_in_turn_order():
    """`a + b` of players: those of either, each once, in turn order from the current
    player (a review found the scenarios of it passed with a plain concatenation)."""
    text = edited(
        (ROOT / "tests/valid/side_answers.yaml").read_text(encoding="utf-8"),
        (
            "    for p in players { move(top(pile, 3), hand(p)) }\n",
            "    for q in partners(current) + players { move(top(pile, 1), hand(q)) }\n",
        ),
    )
    state = _dealt(Game(load_spec("side_answers.yaml", text), 4))
    dealt = [e["dst"] for e in state.log_for(None) if e["event"] == "move" and e["turn"] == 0]
    assert dealt == ["hand[P1]", "hand[P2]", "hand[P3]", "hand[P4]"]
