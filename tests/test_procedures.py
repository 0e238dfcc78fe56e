"""Procedures and named conditions (docs/language.md, `procedures` and `conditions`),
on tests/valid/routines.yaml and small changes to it."""

from pathlib import Path

import pytest
from gamekit import counter, edited, settled, spec_errors, zone

from rulespec import SpecError, load_spec
from rulespec.analysis import graph as graphs
from rulespec.analysis.coverage import coverage
from rulespec.analysis.diff import changes
from rulespec.analysis.lint import Analysis
from rulespec.analysis.lint import static as lint_static
from rulespec.interpreter import Game, State
from rulespec.interpreter.agents import make_agents, play
from rulespec.interpreter.effects import MAX_CALLS

ROUTINES = (Path(__file__).resolve().parent / "valid" / "routines.yaml").read_text()


def static(spec):
    """Layer 1's findings, but RL116: these specs keep counters only for show
    (`steals`, `lost`), which nothing reads."""
    return [f for f in lint_static(spec) if f.code != "RL116"]


def changed(*pairs) -> str:
    """ROUTINES with each (old, new) replaced; each old occurs once."""
    return edited(ROUTINES, *pairs)


def with_procedures(extra: str, setup: str = "", *more) -> str:
    """ROUTINES with procedures appended and statements appended to the setup."""
    return changed(
        ("procedures:\n", "procedures:\n" + extra),
        (
            "    for p in players { deal(p, deal_size) }\n",
            "    for p in players { deal(p, deal_size) }\n" + setup,
        ),
        *more,
    )


errors = spec_errors


def laid_out(text: str, hands, pile, n=3, current=0) -> State:
    zones = {f"hand[P{p + 1}]": cards for p, cards in enumerate(hands)}
    zones["pile"] = pile
    return State.from_layout(Game(load_spec("x.yaml", text), n), 1, zones=zones, current=current)


# --- the front end ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "statement, code, message",
    [
        ("deal(current)", "RS203", "deal() takes 2 argument(s), got 1"),
        ("deal(1, 1)", "RS204", "argument 1 of deal() must be player, got int"),
        ("deel(current, 1)", "RS201", "unknown statement 'deel'"),
        ("let x = deal(current, 1)", "RS205", "'deal' is a statement, not a value"),
        ("can_be_robbed(current)", "RS205", "'can_be_robbed' is a value, not a statement"),
        (
            "if can_be_robbed { end_turn() }",
            "RS203",
            "condition 'can_be_robbed' is read by calling it with its arguments: write can_be_robbed(p)",
        ),
        ("if rich(current, 1) { end_turn() }", "RS203", "rich() takes 1 argument(s), got 2"),
        ("if rich(1) { end_turn() }", "RS204", "argument 1 of rich() must be player, got int"),
        (
            "deal(random_player(players), 1)",
            "RS206",
            "'random_player' is decided by chance and "
            "may only be the value of a let or the argument of set_current",
        ),
    ],
)
def test_calls_are_checked_when_the_spec_loads(statement, code, message):
    assert errors(with_procedures("", f"    {statement}\n")) == [(code, message)]


def test_an_unknown_procedure_suggests_the_nearest():
    with pytest.raises(SpecError) as exc:
        load_spec("x.yaml", with_procedures("", "    lose_on(current)\n"))
    assert "did you mean 'lose_one'" in exc.value.render()


@pytest.mark.parametrize(
    "name, clash",
    [
        ("move", "procedure 'move' uses a name the language reserves"),
        ("pile", "duplicate name 'pile': already a zone"),
        ("coin", "duplicate name 'coin': already a card"),
        ("steals", "duplicate name 'steals': already a counter"),
        ("hand_limit", "duplicate name 'hand_limit': already a parameter"),
    ],
)
def test_a_procedure_name_is_a_game_thing_name(name, clash):
    ((code, message),) = errors(with_procedures(f"  {name}:\n    effect: end_turn()\n"))
    assert code == "RS202" and message.startswith(clash)


def test_a_condition_named_like_a_procedure_is_rs202():
    found = errors(changed(("\nconditions:\n", "\nconditions:\n  deal:\n    when: true\n")))
    assert found[0][0] == "RS202" and found[0][1].startswith(
        "duplicate name 'deal': already a procedure"
    )


def test_a_parameter_may_not_take_a_name_of_the_spec_or_the_language():
    found = errors(
        with_procedures(
            "  odd:\n    params: {pile: player, current: int}\n    effect: end_turn()\n"
        )
    )
    assert [c for c, _ in found] == ["RS202", "RS202"]
    assert found[0][1].startswith("parameter 'pile' is already a name")


def test_a_procedure_sees_its_parameters_not_its_callers_locals():
    text = with_procedures("  peek:\n    effect: move(c, discard)\n")
    assert errors(text) == [("RS201", "unknown name 'c'")]


def test_a_procedure_may_open_a_reaction_window_only_for_an_action_or_answer():
    """Its window answers what calls it (tests/test_procedure_windows.py): a call from
    the setup, which answers nothing, is RS208 at the call."""
    ask = "  ask:\n    params: {p: player}\n    effect: react(p)\n"
    load_spec("x.yaml", with_procedures(ask))
    ((code, message),) = errors(with_procedures(ask, "    ask(current)\n"))
    assert code == "RS208" and message.startswith("procedure 'ask' opens a reaction window")


def test_conditions_that_call_each_other_in_a_circle_are_rs209():
    text = changed(
        (
            "\nconditions:\n",
            "\nconditions:\n  loop:\n    when: loop()\n"
            "  a:\n    params: {p: player}\n    when: b(p)\n"
            "  b:\n    params: {p: player}\n    when: a(next(p)) and rich(p)\n",
        )
    )
    assert errors(text) == [
        ("RS210", "condition 'loop' calls itself: loop -> loop"),
        ("RS210", "condition 'a' calls itself: a -> b -> a"),
        ("RS210", "condition 'b' calls itself: b -> a -> b"),
    ]


# --- play ------------------------------------------------------------------------------------


def test_calls_nest_and_each_has_its_own_parameters():
    """deal(p, n) in a for loop over players: each call's p and n are its own."""
    game = settled(Game(load_spec("x.yaml", ROUTINES), 3).new_initial_state(seed=2))
    assert [len(zone(game, f"hand[P{p}]")) for p in (1, 2, 3)] == [3, 2, 2]  # P1 drew


def test_a_recursive_procedure_runs_as_deep_as_its_argument_says():
    text = with_procedures(
        "  countdown:\n    params: {n: int}\n    effect: |\n"
        "      steals += 1\n      if n > 0 { countdown(n - 1) }\n",
        "    countdown(5)\n",
    )
    game = settled(Game(load_spec("x.yaml", text), 2).new_initial_state(seed=1))
    assert counter(game, "steals") == 6


def test_recursion_without_end_stops_the_game_as_effect_loop():
    text = with_procedures(
        "  forever:\n    effect: |\n      steals += 1\n      forever()\n      steals += 0\n",
        "    forever()\n",
    )
    game = settled(Game(load_spec("x.yaml", text), 2).new_initial_state(seed=1))
    assert (game.is_terminal(), game.reason, game.winners) == (True, "effect_loop", ())
    assert counter(game, "steals") == MAX_CALLS - 2  # the setup's two deal() calls count too
    errors_logged = [e for e in game.log_for(None) if e["event"] == "error"]
    assert (
        errors_logged[0]["message"]
        == f"procedure 'forever' was called more than {MAX_CALLS:,} times in one turn"
    )


def test_a_choice_inside_a_procedure_survives_a_copy_of_the_game():
    """Paused inside lose_one (called from the mug), a clone resumes like the original."""
    game = laid_out(ROUTINES, [["guard"], ["coin", "thief"], ["thief"]], ["thief", "coin", "guard"])
    game.apply_action("mug -> P2")
    assert game.current_player() == 1 and game.legal_labels() == ["coin", "thief"]
    copy = game.clone()
    assert copy.key() == game.key()
    for state in (game, copy):
        state.apply_action("thief")
    assert copy.key() == game.key()
    assert zone(game, "hand[P2]") == ["coin", "coin", "guard"] and counter(game, "lost[P2]") == 1


def test_a_cards_argument_is_the_cards_at_the_call():
    """`stash(hand(p), p)` in the setup: the chosen card goes back to the pile first, yet
    every card that was in the hand at the call, the chosen one included, then goes to
    the discard pile: the argument is those cards, not the hand as it is later."""
    text = with_procedures(
        "  stash:\n    params: {cs: cards, p: player}\n    effect: |\n"
        "      choose(p) c from hand(p) { move(c, pile) }\n"
        "      move(cs, discard)\n",
        "    stash(hand(current), current)\n",
    )
    game = Game(load_spec("x.yaml", text), 2).new_initial_state(seed=1)
    game = settled(game)
    held = zone(game, "hand[P1]")
    game.apply_action(held[0])
    assert sorted(zone(game, "discard")) == sorted(held) and len(zone(game, "pile")) == 24 - 4 - 1


def test_zone_and_players_parameters():
    text = with_procedures(
        "  give:\n    params: {z: zone, ps: players}\n    effect: |\n"
        "      for q in ps { move(top(z, 1), hand(q)) }\n",
        "    give(pile, current)\n    give(pile, players)\n",
    )
    game = settled(Game(load_spec("x.yaml", text), 3).new_initial_state(seed=1))
    assert [len(zone(game, f"hand[P{p}]")) for p in (1, 2, 3)] == [2 + 2 + 1, 3, 3]


def test_the_same_seed_plays_the_same_game():
    rules = Game(load_spec("x.yaml", ROUTINES), 3)
    logs = [
        play(rules.new_initial_state(seed=9), make_agents(["random"], 3, 9)).log_for(None)
        for _ in range(2)
    ]
    assert logs[0] == logs[1] and any(e["event"] == "choice" for e in logs[0])


# --- analysis ------------------------------------------------------------------------------


def test_the_graph_has_calls_and_counts_a_procedures_effects_where_it_is_called():
    g = graphs.build(load_spec("x.yaml", ROUTINES))
    calls = {(a, b) for a, b, k in g.edges(keys=True) if k == "calls"}
    assert ("action:mug", "procedure:lose_one") in calls
    assert ("procedure:discard_down", "procedure:discard_down") in calls
    assert ("condition:rich", "condition:can_be_robbed") in calls
    assert ("end:rich_wins", "condition:rich") in calls
    # lose_one moves to the discard pile and changes `lost`: so do the mug and the tidy step
    assert g.has_edge("action:mug", "zone:discard", "moves_to")
    assert g.has_edge("step:tidy", "counter:lost", "changes")
    assert g.has_edge("end:rich_wins", "param:coins_to_win", "reads")  # through rich()


def test_routines_lint_clean():
    assert static(load_spec("x.yaml", ROUTINES)) == []


def test_a_procedure_nothing_calls_is_rl109_and_one_only_calling_itself_too():
    text = with_procedures(
        "  spare:\n    effect: end_turn()\n"
        "  echo:\n    params: {n: int}\n    effect: if n > 0 { echo(n - 1) }\n"
    )
    text = text.replace("\nconditions:\n", "\nconditions:\n  unused:\n    when: steals > 0\n")
    found = sorted((f.code, f.message) for f in static(load_spec("x.yaml", text)))
    assert found == [
        ("RL114", "condition 'unused' is never called"),
        ("RL114", "procedure 'echo' is never called"),
        ("RL114", "procedure 'spare' is never called"),
    ]


def test_a_win_inside_a_procedure_is_an_end_for_rl106():
    text = changed(
        (
            "end_conditions:\n  rich_wins:\n    each: p\n    when: rich(p)\n    effect: win(p)\n"
            "  dry:\n    when: size(pile) == 0 and size(discard) == 0\n    effect: end_game()\n",
            "triggers:\n  rich_wins:\n    each: p\n    when: rich(p)\n    effect: crown(p)\n",
        ),
        ("procedures:\n", "procedures:\n  crown:\n    params: {p: player}\n    effect: win(p)\n"),
    )
    assert [f.code for f in static(load_spec("x.yaml", text))] == []


def test_a_counter_changed_only_in_a_procedure_is_used_and_bounded_by_it():
    text = with_procedures(
        "  raise_level:\n    effect: level = 3\n",
        "    raise_level()\n",
        ("  steals: {initial: 0}\n", "  steals: {initial: 0}\n  level: {initial: 0}\n"),
    )
    spec = load_spec("x.yaml", text)
    assert static(spec) == []  # not RL101: the setup changes it, through the procedure
    assert Analysis(spec).counter_bounds["level"] == (0, 3)


def test_simulation_reports_a_procedure_never_called():
    text = with_procedures(
        "  never:\n    effect: end_turn()\n", "    if steals > 100 { never() }\n"
    )
    found = [(f.code, f.message) for f in coverage(load_spec("x.yaml", text), 3)]
    assert ("RL301", "procedure 'never' was never called in 3 random 3-player games") in found
    assert not any("lose_one" in m for _, m in found)


def test_diff_sees_a_changed_procedure():
    old, new = (
        load_spec("a.yaml", ROUTINES),
        load_spec(
            "b.yaml",
            ROUTINES.replace(
                "effect: move(top(pile, n), hand(p))", "effect: move(top(pile, n + 1), hand(p))"
            ),
        ),
    )
    assert [(c.kind, c.name, c.what) for c in changes(old, new)] == [
        ("procedure", "deal", "changed")
    ]


def test_a_variant_replaces_adds_and_removes_procedures_and_conditions(tmp_path):
    (tmp_path / "routines.yaml").write_text(ROUTINES)
    (tmp_path / "v.yaml").write_text(
        "rulespec: 1\nextends: routines.yaml\n"
        "replace:\n  procedures:\n    deal:\n      params: {p: player, n: int}\n"
        "      effect: move(top(pile, n + 1), hand(p))\n"
        "add:\n  conditions:\n    broke:\n      params: {p: player}\n      when: count(hand(p), coin) == 0\n"
        "remove:\n  procedures: [discard_down]\n  conditions: [rich]\n"
    )
    with pytest.raises(SpecError) as exc:  # the tidy step and rich_wins still call them
        load_spec(tmp_path / "v.yaml")
    assert sorted(d.code for d in exc.value.diagnostics) == ["RS201", "RS201"]
    assert "unknown statement 'discard_down'" in exc.value.render()
    (tmp_path / "v.yaml").write_text(
        "rulespec: 1\nextends: routines.yaml\n"
        "replace:\n  procedures:\n    deal:\n      params: {p: player, n: int}\n"
        "      effect: move(top(pile, n + 1), hand(p))\n"
    )
    spec = load_spec(tmp_path / "v.yaml")
    log = settled(Game(spec, 3).new_initial_state(seed=2)).log_for(None)
    dealt = [
        sum(
            e["n"]
            for e in log
            if e["event"] == "move" and e["turn"] == 0 and e["dst"] == f"hand[P{p}]"
        )
        for p in (1, 2, 3)
    ]
    assert dealt == [3, 3, 3]  # the setup's deal(p, 2) now deals one more


@pytest.mark.parametrize(
    "length, found",
    [
        (32, []),
        (
            33,
            [
                (
                    "RS210",
                    "condition 'c0' starts a chain of 33 conditions calling one another; at most 32",
                )
            ],
        ),
        (
            400,
            [
                (
                    "RS210",
                    "condition 'c367' starts a chain of 33 conditions calling one another; at most 32",
                )
            ],
        ),
    ],
)
def test_conditions_calling_one_another_are_bounded_in_depth(length, found):
    chain = "".join(
        f"  c{i}:\n    params: {{p: player}}\n    when: c{i + 1}(p)\n" for i in range(length - 1)
    )
    chain += f"  c{length - 1}:\n    params: {{p: player}}\n    when: size(hand(p)) > 0\n"
    text = changed(
        ("\nconditions:\n", "\nconditions:\n" + chain),
        ("    when: rich(p)\n", "    when: c0(p) and rich(p)\n"),
    )
    if found:
        assert errors(text) == found
    else:  # the longest chain allowed compiles and runs
        game = settled(Game(load_spec("x.yaml", text), 3).new_initial_state(seed=1))
        assert not game.is_terminal()


@pytest.mark.parametrize("seed", range(20))
def test_random_games_keep_the_invariants_and_a_copy_plays_alike(seed):
    """Paused anywhere, inside procedures included, a copy of the game goes on exactly
    as the game does."""
    import random

    game = Game(load_spec("x.yaml", ROUTINES), 3).new_initial_state(seed=seed)
    pick = random.Random(seed)
    while not game.is_terminal():
        game.check_invariants()
        copy = game.clone()
        if game.chance_is_sampled():
            assert copy.sample_chance().cards == game.sample_chance().cards  # the RNG is copied too
        else:
            option = pick.choice(game.legal_actions())
            game.apply_action(option)
            copy.apply_action(option)
        assert copy.key() == game.key()
    assert game.reason in ("rich_wins", "dry", "turn_limit")


def test_conditions_inside_procedures_and_named_conditions_are_judged():
    text = with_procedures(
        "  hoard:\n    params: {p: player}\n    effect: if count(hand(p), coin) > 12 { end_turn() }\n",
        "    hoard(current)\n",
    )
    text = text.replace("    when: size(hand(p)) > 0\n", "    when: size(hand(p)) >= 0\n")
    found = sorted((f.code, f.message.split(" (")[0]) for f in static(load_spec("x.yaml", text)))
    assert found == [
        ("RL105", "procedure 'hoard': this if's test can never hold"),
        ("RL108", "condition 'can_be_robbed': this condition always holds"),
    ]


@pytest.mark.parametrize("nested", [False, True])
def test_a_win_inside_a_procedure_ends_the_game_under_the_calling_rule_s_name(nested):
    """The end reason is the rule that called the procedure (through any procedures
    between), as if the win were written out there: a deck-builder's two end conditions
    that call one final scoring were both told as the procedure's."""
    crown = "      win(p)\n      steals += 1\n"
    if nested:  # crown calls coronation, which wins
        crown = "      coronation(p)\n      steals += 1\n"
    text = changed(
        ("    effect: win(p)\n", "    effect: crown(p)\n"),
        (
            "procedures:\n",
            f"procedures:\n  crown:\n    params: {{p: player}}\n    effect: |\n{crown}"
            "  coronation:\n    params: {p: player}\n    effect: win(p)\n",
        ),
    )
    game = laid_out(
        text, [["guard"], ["coin", "coin", "thief"], ["thief"]], ["thief", "coin", "guard"]
    )
    game.apply_action("mug -> P2")
    game.apply_action("thief")
    assert (game.reason, game.winners, counter(game, "steals")) == ("rich_wins", (1,), 0)
