"""Turn-order control on small games of its own: prev, turn_order, skip_turn(s),
extra_turn(s), set_next and repeat play steps. Their rules interactions are scenarios
under tests/scenarios/turns/; these tests cover what a scenario cannot say."""

from pathlib import Path

import pytest
from gamekit import cli

from rulespec import SpecError, load_spec
from rulespec.analysis import graph
from rulespec.interpreter import Game, State
from rulespec.interpreter.agents import make_agents, play
from rulespec.table.narrate import Titles
from rulespec.table.view import table, table_lines

SPEC = Path(__file__).parent / "valid" / "turn_taking.yaml"
TEXT = SPEC.read_text()


def game(text=TEXT, n=4):
    return Game(load_spec("turns.yaml", text), n)


def laid_out(g, hand, current=0, out=(), counters=None):
    """P(current+1) holds `hand`; the pile holds blanks to draw."""
    zones = {f"hand[P{current + 1}]": hand, "pile": ["blank"] * 6}
    return State.from_layout(g, 1, zones=zones, current=current, out=out, counters=counters or {})


def seat_to_act(state):
    return state.current_player()


def test_prev_passes_over_players_out_and_follows_reverse():
    s = laid_out(game(), ["back"], out=[3])  # play passes right, P4 is out: P3 is next
    s.apply_action("pass")
    assert seat_to_act(s) == 2
    s = laid_out(game(), ["back"], out=[1])  # reversed, prev is to the left; P2 is out
    s.apply_action("back")
    s.apply_action("pass")  # the step, offered again, asks even with nothing to play
    assert seat_to_act(s) == 2


STRIDE = TEXT.replace(
    "turn_order: prev(current)", "turn_order: seat(seat_number(current) + stride)"
).replace("setup:", "counters:\n  stride: {initial: 2}\n\nsetup:")


def test_a_turn_order_may_read_counters():
    s = laid_out(game(STRIDE), ["blank"], counters={"stride": 2})
    s.apply_action("pass")
    assert seat_to_act(s) == 2
    s = laid_out(game(STRIDE), ["blank"], counters={"stride": 3})
    s.apply_action("pass")
    assert seat_to_act(s) == 3


def test_a_turn_order_that_picks_a_player_who_is_out_passes_on_from_them():
    s = laid_out(game(STRIDE), ["blank"], counters={"stride": 2}, out=[2])
    s.apply_action("pass")
    assert seat_to_act(s) == 0  # P3 is out: from P3, two seats on is P1 again


def test_a_turn_order_of_only_players_out_falls_back_to_the_next_active_player():
    s = laid_out(
        game(STRIDE.replace("seat(seat_number(current) + stride)", "seat(2)")), ["blank"], out=[2]
    )
    s.apply_action("pass")
    assert seat_to_act(s) == 3  # seat(2) is out forever: the next active after it plays


DEFAULT = TEXT.replace("turn_order: prev(current)\n", "")


def test_without_a_turn_order_play_passes_to_the_next_player():
    s = laid_out(game(DEFAULT), ["blank"])
    s.apply_action("pass")
    assert seat_to_act(s) == 1


ONE_OR_MORE = TEXT.replace("    optional: true\n    repeat: true", "    repeat: true")


def test_a_repeat_step_that_is_not_optional_asks_for_one_play_then_offers_pass():
    s = laid_out(game(ONE_OR_MORE), ["back", "back"])
    assert s.legal_labels() == ["back"]
    s.apply_action("back")
    assert s.legal_labels() == ["back", "pass"]


def test_a_repeat_step_offers_again_after_end_turn_only_in_a_later_turn():
    g = game(TEXT.replace("effect: reverse()", "effect: |\n      reverse()\n      end_turn()"))
    s = laid_out(g, ["back", "back"])
    s.apply_action("back")
    assert seat_to_act(s) == 1  # end_turn ended the turn; reversed, prev is P2
    assert s.legal_labels() == ["pass"]  # P2's first offer: optional, nothing to play


def test_pending_turn_changes_are_part_of_the_key_and_survive_a_clone():
    s, other = laid_out(game(), ["stop", "back"]), laid_out(game(), ["stop", "back"])
    s.apply_action("stop -> P4")
    other.apply_action("stop -> P3")
    assert s.key() != other.key()  # the same table; only who misses a turn differs
    copy = s.clone()
    assert copy.key() == s.key()
    for state in (s, copy):
        state.apply_action("pass")
        assert seat_to_act(state) == 2  # P4 misses the turn


def test_skips_past_the_turn_limit_end_the_game():
    g = game(
        TEXT.replace(
            "effect: skip_turn(target)",
            "effect: |\n      skip_turns(current, 1000000)\n"
            "      for p in others(current) { skip_turns(p, 1000000) }",
        )
    )
    s = State.from_layout(g, 1, zones={"hand[P1]": ["stop"], "pile": ["blank"] * 4}, turn_limit=50)
    s.apply_action("stop -> P2")
    s.apply_action("pass")  # the step, offered again, asks even with nothing to play
    assert s.is_terminal() and s.reason == "turn_limit" and s.turn == 50


@pytest.mark.parametrize("n", [2, 3, 5])
def test_random_games_are_deterministic_and_keep_the_invariants(n):
    g = game(n=n)
    for seed in range(15):
        results = []
        for _ in range(2):
            s = g.new_initial_state(seed=seed)
            agents = make_agents(["random"], n, seed)
            while not s.is_terminal():
                s.check_invariants()
                if s.is_chance_node():
                    s.sample_chance()
                else:
                    s.apply_action(
                        agents[s.current_player()].choose(
                            s.observation(s.current_player()), s.legal_actions()
                        )
                    )
            results.append((s.result, s.log_for(None)))
        assert results[0] == results[1]
        assert results[0][0]["reason"] in ("blanks", "last_one")


def test_play_counts_the_new_procedures_as_rules_fired():
    s = play(game().new_initial_state(seed=4, log=False), make_agents(["random"], 4, 4))
    assert {"stop", "again", "lead"} <= s.fired.keys()


@pytest.mark.parametrize(
    "text, code",
    [
        ("turn_order: random_player(players)", "RS206"),
        ("turn_order: prev()", "RS203"),
        ("turn_order: 3", "RS102"),  # a bare number would escape the type check
    ],
)
def test_turn_order_errors(text, code):
    with pytest.raises(SpecError) as err:
        load_spec("turns.yaml", TEXT.replace("turn_order: prev(current)", text))
    assert [d.code for d in err.value.diagnostics] == [code]


@pytest.mark.parametrize(
    "effect, code",
    [
        ("skip_turn(2)", "RS204"),
        ("extra_turns(current)", "RS203"),
        ("set_next(players)", "RS204"),
        ("let x = skip_turn(current)", "RS205"),
        ("skip(current)", "RS201"),
    ],
)
def test_procedure_errors(effect, code):
    with pytest.raises(SpecError) as err:
        load_spec("turns.yaml", TEXT.replace("effect: reverse()", f"effect: {effect}"))
    assert [d.code for d in err.value.diagnostics] == [code]


def test_the_graph_shows_a_repeat_step_and_what_the_turn_order_reads():
    g = graph.build(load_spec("turns.yaml", STRIDE))
    assert g.has_edge(graph.NodeId("step", "play"), graph.NodeId("step", "play"), key="repeats")
    assert g.has_edge(graph.NodeId("turn_order"), graph.NodeId("counter", "stride"), key="reads")


def test_lint_counts_a_counter_read_only_by_the_turn_order_as_used(tmp_path):
    spec = tmp_path / "stride.yaml"
    spec.write_text(STRIDE)
    code, out, _ = cli("lint", spec)
    assert code == 0 and "RL101" not in out, out


def test_the_log_narrates_turn_changes():
    code, out, _ = cli("run", SPEC, "--seed", 3)
    assert code == 0
    for line in ("plays next", "gets an extra turn", "will miss a turn", "misses the turn"):
        assert line in out


@pytest.mark.parametrize("out", ["eliminate", "sit_out"])
def test_a_player_who_goes_out_is_owed_no_turns(out):
    """An Exploding Kittens designer's table: P2, attacked, exploded with a turn still
    to take, and every seat was shown "P2 (out): … 1 more turn to take". A player who is
    out is passed over, its turns unused (for good, or until the round's end drops every
    seat's), so going out drops them: the rules, the observation and the table agree."""
    said = "{target}: {extra_turns_owed(target)} to take, {turns_to_skip(target)} to miss"
    boot = f'effect: |\n      {out}(target)\n      say("{said}")'
    g = game(TEXT.replace("effect: eliminate(target)", boot))
    s = laid_out(g, ["again", "stop", "boot", "blank"])
    s.apply_action("again -> P3")
    s.apply_action("stop -> P3")
    assert (s.observation(1)["extra_turns_owed"], s.observation(1)["turns_to_skip"]) == (
        {"P3": 1},
        {"P3": 1},
    )
    s.apply_action("boot -> P3")
    assert s.log_for(1)[-1]["text"] == "P3: 0 to take, 0 to miss"
    seen = s.observation(1)
    assert "extra_turns_owed" not in seen and "turns_to_skip" not in seen
    lines = table_lines(table(seen, Titles.of(g.spec)))
    assert "  P3 (out): hand empty" in lines


OUT_OWED = """\
rulespec: 1
name: Out owed
players: {min: 3, max: 3}
deck:
  cards:
    blank: {count: 6}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
counters:
  t: {initial: 0}
turn:
  - step: go
    effect: |
      t += 1
      if t == 1 {
        eliminate(seat(1))
        extra_turns(seat(1), 2)
        skip_turn(seat(1))
      }
      say("owed {extra_turns_owed(seat(1))} skip {turns_to_skip(seat(1))}")
      choose(current) { "on" { } "stop" { t += 10 } }
end_conditions:
  done:
    when: t >= 4
    effect: win(seat(0))
"""


def test_turns_given_to_a_player_already_out_are_not_kept():
    """A review: extra_turns and skip_turns given to a player already eliminated were
    kept, and every seat was shown "P2 (out): 2 more turns to take, 1 turn to miss",
    turns the player would never take. They are logged, as the rules gave them, and
    not kept."""
    g = game(OUT_OWED, 3)
    s = g.new_initial_state(0)
    log = s.log_for(2)
    assert [e["event"] for e in log if e["event"] in ("extra_turn", "skip_turn")] == [
        "extra_turn",
        "skip_turn",
    ]
    assert [e["text"] for e in log if e["event"] == "say"] == ["owed 0 skip 0"]
    seen = s.observation(2)
    assert "extra_turns_owed" not in seen and "turns_to_skip" not in seen
    lines = table_lines(table(seen, Titles.of(g.spec)))
    assert not any("to take" in line or "to miss" in line for line in lines), lines
