"""A spec's `payoff`: what each seat scores at the end (chips, points), in returns(),
the result, every environment's rewards and OpenSpiel's utilities, and the search's
value of a finished game; its min and max are checked."""

import json

import pytest
from gamekit import ROOT, cli

from rulespec import SpecError, load_spec
from rulespec.interpreter import Game, RuleError, State
from rulespec.interpreter.search import value

KUHN = ROOT / "tests" / "valid" / "mini_kuhn.yaml"


def _antes_of_two(tmp_path):
    """Mini Kuhn played for antes of 2: payoffs of ±2, where a win alone would be ±1."""
    text = (
        KUHN.read_text().replace("= 1\n", "= 2\n").replace("min: -1\n  max: 1", "min: -2\n  max: 2")
    )
    path = tmp_path / "kuhn2.yaml"
    path.write_text(text)
    return path


def _dealt(jack_at: str = "hand[P1]", **options) -> State:
    other = "hand[P2]" if jack_at == "hand[P1]" else "hand[P1]"
    return State.from_layout(
        Game(load_spec(KUHN), 2), zones={jack_at: ["jack"], other: ["king"]}, **options
    )


def test_returns_are_the_payoffs_once_the_game_is_over_and_zero_before():
    state = _dealt()
    assert state.returns() == [0.0, 0.0] and "payoffs" not in state.result
    state.apply_action("see")
    assert state.returns() == [-1.0, 1.0]
    assert state.result["payoffs"] == {"P1": -1, "P2": 1} and state.result["winners"] == ["P2"]
    folded = _dealt("hand[P2]")
    folded.apply_action("fold")  # P1 held the King and folded: a loss of 1, as a win is 1
    assert folded.returns() == [-1.0, 1.0]


def test_a_payoff_outside_its_declared_min_and_max_is_a_rule_error_at_the_payoff():
    text = KUHN.read_text().replace("  max: 1\n", "  max: 0\n")
    state = State.from_layout(
        Game(load_spec("kuhn.yaml", text), 2), zones={"hand[P1]": ["jack"], "hand[P2]": ["king"]}
    )
    with pytest.raises(RuleError) as exc:
        state.apply_action("see")
    assert (
        exc.value.code == "RS701"
        and exc.value.span.line == text[: text.index("payoff:")].count("\n") + 1
    )
    assert "payoff 1 of P2 is outside its declared min and max, -1 to 0" in exc.value.message


def test_payoffs_that_do_not_add_up_to_zero_fail_a_zero_sum_game():
    text = (
        KUHN.read_text().replace("value: net(me)", "value: net(me) + 1").replace("max: 1", "max: 2")
    )
    state = State.from_layout(
        Game(load_spec("kuhn.yaml", text), 2), zones={"hand[P1]": ["jack"], "hand[P2]": ["king"]}
    )
    with pytest.raises(RuleError) as exc:
        state.apply_action("see")
    assert exc.value.message == "the payoffs [0, 2] add up to 2, not 0 (zero_sum)"
    assert not state.is_terminal()  # the rule that ended the game failed: it did not end


def test_a_min_above_the_max_is_rs414():
    text = KUHN.read_text().replace("  min: -1\n", "  min: 2\n")
    with pytest.raises(SpecError) as exc:
        load_spec("kuhn.yaml", text)
    assert [d.code for d in exc.value.diagnostics] == ["RS414"]


def test_a_search_values_a_finished_game_by_its_payoff_within_one():
    state = _dealt()
    state.apply_action("see")
    assert value(state, [0.0]) == [-1.0, 1.0]  # max(|min|, |max|) is 1 here
    text = KUHN.read_text().replace("  min: -1\n  max: 1\n", "  min: -4\n  max: 4\n")
    wider = State.from_layout(
        Game(load_spec("kuhn.yaml", text), 2), zones={"hand[P1]": ["jack"], "hand[P2]": ["king"]}
    )
    wider.apply_action("see")
    assert wider.returns() == [-1.0, 1.0] and value(wider, [0.0]) == [-0.25, 0.25]


def test_simulate_reports_each_seat_s_mean_payoff():
    code, out, _ = cli("simulate", str(KUHN), "--games", "60")
    assert code == 0
    line = next(ln for ln in out.splitlines() if ln.startswith("  payoff "))
    p1, p2 = (
        float(x) for x in line.split("mean ")[1].replace("P1 ", "").replace("P2 ", "").split(", ")
    )
    assert p1 == -p2 and -1 <= p1 <= 1  # zero-sum, chips of one ante


def test_diff_simulate_compares_each_seat_s_mean_payoff(tmp_path):
    """A fold that costs nothing: the first seat, which folds half its games at random,
    no longer loses half a chip a game on average; its win share moves less."""
    free = tmp_path / "free_fold.yaml"
    free.write_text(
        KUHN.read_text().replace(
            '"fold" {\n          net(current) -= 1\n          net(next(current)) += 1\n',
            '"fold" {\n',
        )
    )
    code, out, _ = cli("diff", str(KUHN), str(free), "--simulate", "400", "--format", "json")
    assert code == 0
    report = json.loads(out)
    rows = {row["what"]: row for row in report["outcomes"]}
    first, second = rows["mean payoff P1"], rows["mean payoff P2"]
    assert first["old"] < -0.3 and abs(first["new"]) < 0.15 and first["significant"]
    assert second["old"] == -first["old"] and second["new"] == -first["new"]
    assert -1 <= first["old_ci"][0] <= first["old"] <= first["old_ci"][1] <= 1
    assert report["statistics"]["tests"]["mean payoffs"] == "Welch's t-test"
    code, out, _ = cli("diff", str(KUHN), str(free), "--simulate", "400")
    assert "mean length and payoffs: Welch's t-test" in out
    assert any(ln.startswith("outcome  mean payoff P1 ") for ln in out.splitlines())


def test_diff_simulate_of_a_side_without_a_payoff_compares_none(tmp_path):
    bare = tmp_path / "bare.yaml"
    bare.write_text(KUHN.read_text().split("payoff:")[0] + "evaluation: net(me)\n")
    code, out, _ = cli("diff", str(KUHN), str(bare), "--simulate", "50")
    tested = [ln for ln in out.splitlines() if ln.startswith(("outcome", "tests"))]
    assert code == 0 and tested and not any("payoff" in ln for ln in tested)


def test_openspiel_s_utilities_and_returns_are_the_payoffs(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    from rulespec import spiel

    game = pyspiel.load_game(spiel.register(str(_antes_of_two(tmp_path))))
    assert (game.min_utility(), game.max_utility()) == (-2.0, 2.0)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM  # zero_sum: true
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    assert exploitability.exploitability(game, policy.UniformRandomPolicy(game)) >= 0
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(
            state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[-1]
        )
    assert sorted(state.returns()) == [-2.0, 2.0]


def test_pettingzoo_s_rewards_are_the_payoffs(tmp_path):
    pytest.importorskip("pettingzoo")
    from rulespec.env import RulespecEnv

    env = RulespecEnv(str(_antes_of_two(tmp_path)))
    env.reset(seed=3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, done, cut, _ = env.last()
        total[agent] += reward
        env.step(None if done or cut else int(env.observe(agent)["action_mask"].argmax()))
    assert sorted(total.values()) == [-2.0, 2.0]


def test_a_search_values_a_finished_game_alone_by_where_its_payoff_lies():
    solo = """\
rulespec: 1
name: Solo
players: {min: 1, max: 1}
hand: hand
deck:
  cards: {gold: {count: 1}, lead: {count: 1}}
zones:
  pile: {visibility: public, start: true}   # face up: the choice names its cards
  hand: {per_player: true, visibility: owner}
turn:
  - step: take
    effect: |
      choose(current) c from pile { move(c, hand(current)) }
      end_game()
payoff:
  value: 5 * count(hand(me), gold)
  min: 0
  max: 5
"""
    for card, want in (("gold", [1.0]), ("lead", [-1.0])):
        state = State.from_layout(
            Game(load_spec("solo.yaml", solo), 1), zones={"pile": ["gold", "lead"]}
        )
        state.apply_action(card)
        assert value(state, [0.0]) == want


def test_a_search_values_a_cooperative_game_s_positions_by_the_shared_evaluation():
    """Every seat on one team has no rival: a gap to the best rival would be 0 at every
    position (a Hanabi designer's search found nothing to go by), so the evaluation
    itself is the value, scaled as gaps are."""
    together = """\
rulespec: 1
name: Together
players: {min: 2, max: 3}
hand: hand
teams: {everyone: [P1, P2, P3]}
deck:
  cards: {gold: {count: 2}, lead: {count: 2}}
zones:
  pile: {visibility: hidden, start: true}
  hand: {per_player: true, visibility: owner}
  chest: {visibility: public}
turn:
  - step: take
    effect: |
      choose(current) c from pile { move(c, chest) }
      if size(pile) == 0 { end_game() }
evaluation: count(chest, gold) * 3
"""
    game = Game(load_spec("together.yaml", together), 2)
    spread = [0.0]
    for chest, pile, want in (
        (["gold"], ["gold", "lead", "lead"], [0.5, 0.5]),
        (["lead"], ["gold", "gold", "lead"], [0.0, 0.0]),
        (["gold", "gold"], ["lead", "lead"], [0.5, 0.5]),  # the widest seen is 6 now
        (["gold"], ["gold", "lead", "lead"], [0.25, 0.25]),
    ):
        state = State.from_layout(game, zones={"chest": chest, "pile": pile})
        assert value(state, spread) == want
