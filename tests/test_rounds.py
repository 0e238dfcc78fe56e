"""Rounds and matches of rounds (docs/language.md "rounds"), on tests/valid/high_card_rounds.yaml
and variations of it. The edge cases a rulebook states are scenarios in tests/scenarios/rounds/."""

import json
from pathlib import Path

import networkx as nx
import pytest
from gamekit import cli, counter, settled

from rulespec import SpecError, load_spec
from rulespec.analysis import graph, lint
from rulespec.interpreter import Game, State
from rulespec.interpreter.agents import make_agents, play
from rulespec.table.narrate import Titles, narrate

HCR_PATH = Path(__file__).resolve().parent / "valid" / "high_card_rounds.yaml"
HCR = HCR_PATH.read_text()


def game(text=HCR, n=3):
    return Game(load_spec("rounds.yaml", text), n)


def played(text=HCR, n=3, seed=1, **options):
    return play(
        game(text, n).new_initial_state(seed=seed, **options), make_agents(["random"], n, seed)
    )


def laid_out(text=HCR, current=0, **zones):
    """Every hand holds one low card but those given, the pile enough for a new deal."""
    g = game(text)
    hands = {f"hand[P{p + 1}]": ["low"] for p in range(3)} | {
        k.replace("_", "[") + "]": v for k, v in zones.items()
    }
    return State.from_layout(g, 1, zones=hands | {"pile": ["low"] * 9}, current=current)


def rounds_of(state):
    return [e for e in state.log_for(None) if e["event"] in ("round", "round_end")]


def test_a_match_is_played_as_rounds_to_its_end():
    state = played(seed=3)
    log = rounds_of(state)
    assert state.reason == "enough_points" and state.is_terminal()
    assert [e["round"] for e in log if e["event"] == "round"] == list(
        range(1, state.result["rounds"] + 1)
    )
    assert [e["event"] for e in log] == ["round", "round_end"] * state.result["rounds"]
    assert (
        sum(state.round_lengths) == state.turn
        and len(state.round_lengths) == state.result["rounds"]
    )
    assert max(counter(state, f"points[P{p + 1}]") for p in range(3)) == 3


def test_the_rounds_setup_runs_after_the_games_setup_and_round_index_counts_from_0():
    text = HCR.replace(
        "      shuffle(pile)\n      for p in players { move(top(pile, deal_size)",
        "      shuffle(pile)\n      last_winner = round_index * 10\n"
        "      for p in players { move(top(pile, deal_size)",
    )
    text = text.replace("starter: seat(last_winner)", "starter: seat(0)")
    text = text.replace("        last_winner = seat_number(p)\n", "")
    state = settled(game(text).new_initial_state(seed=2))
    events = [e["event"] for e in state.log_for(None)]
    assert events.index("round") > events.index("shuffle")  # the game's own setup came first
    assert counter(state, "last_winner") == 0
    state = played(text, seed=2)
    assert counter(state, "last_winner") == 10 * (state.result["rounds"] - 1)


def test_without_a_starter_the_seat_after_the_last_starter_begins():
    text = HCR.replace("  starter: seat(last_winner)\n", "")
    state = laid_out(text, current=1)  # P2 starts round 1
    for _ in range(3):
        state.apply_action("play_card low")
    settled(state)
    assert (
        state.current_player() == 2 and counter(state, "points[P1]") == 1
    )  # a three-way tie: all score


def test_a_starter_who_is_out_passes_to_the_next_seat():
    text = HCR.replace("    effect: sit_out(current)", "    effect: eliminate(current)")
    state = laid_out(text.replace("starter: seat(last_winner)", "starter: seat(0)"))
    state.apply_action("fold")  # P1 is out of the game
    for _ in range(2):
        state.apply_action("play_card low")
    settled(state)
    assert state.current_player() == 1 and state.observation(None)["active"] == ["P2", "P3"]


def test_a_round_whose_setup_puts_its_starter_out_begins_with_the_next_seat():
    """A designer's Euchre: the lone maker's partner sits out in the round's setup, and
    was the round's first player, who then took an empty turn that counted."""
    text = HCR.replace(
        "      for p in players { move(top(pile, deal_size), hand(p)) }",
        "      for p in players { move(top(pile, deal_size), hand(p)) }\n      sit_out(current)",
    )
    state = game(text).new_initial_state(seed=2)
    settled(state)
    turns = [e for e in state.log_for(None) if e["event"] == "turn"]
    assert [(e["player"], e["turn"]) for e in turns] == [(1, 1)]  # P2's, the first
    assert state.current_player() == 1 and state.observation(None)["active"] == ["P2", "P3"]


def test_a_player_out_for_the_round_then_eliminated_stays_out():
    text = HCR.replace(
        "    effect: sit_out(current)",
        "    effect: |\n      sit_out(current)\n      eliminate(current)",
    )
    state = laid_out(text)
    state.apply_action("fold")
    for _ in range(2):
        state.apply_action("play_card low")
    settled(state)
    assert state.observation(None)["active"] == ["P2", "P3"]
    assert not [e for e in state.log_for(None) if e["event"] == "back"]


def test_a_match_end_that_does_not_end_the_game_lets_the_next_round_begin():
    text = HCR.replace(
        "      effect: win(argmax(points(p) for p in players))", "      effect: last_winner = 0"
    )
    state = laid_out(text.replace("points_to_win: 3", "points_to_win: 0"))
    for _ in range(3):
        state.apply_action("play_card low")
    settled(state)
    assert not state.is_terminal() and state.fired["enough_points"] == 1
    assert [e["round"] for e in rounds_of(state)] == [1, 2]


def test_a_win_in_the_scoring_ends_the_match_at_once():
    text = HCR.replace(
        "        last_winner = seat_number(p)\n",
        "        last_winner = seat_number(p)\n        win(p)\n",
    )
    state = laid_out(text, hand_P2=["high"])
    for label in ("play_card low", "play_card high", "play_card low"):
        state.apply_action(label)
    assert (state.reason, state.winners) == ("rounds.scoring", (1,))
    assert [e["event"] for e in rounds_of(state)] == ["round_end"]


def test_a_state_paused_in_the_scoring_clones_and_keys_alike():
    text = HCR.replace(
        "    effect: |\n      for p in argmax",
        "    effect: |\n"
        '      choose(seat(0)) { "bonus" { points(seat(0)) += 1 } "none" { } }\n'
        "      for p in argmax",
    )
    state = laid_out(text)
    for _ in range(3):
        state.apply_action("play_card low")
    assert state.decision_kind() == "choose" and state.legal_labels() == ["bonus", "none"]
    copy = state.clone()
    assert copy.key() == state.key()
    for s in (state, copy):
        s.apply_action("bonus")
        settled(s)
    assert copy.key() == state.key() and counter(state, "points[P1]") == 2
    assert [e["round"] for e in rounds_of(state)] == [1, 2]


def test_the_same_seed_plays_the_same_match():
    a, b = played(seed=7), played(seed=7)
    assert a.log_for(None) == b.log_for(None) and a.result == b.result


def test_a_game_without_rounds_reports_and_logs_as_before():
    state = play(
        Game(
            load_spec(Path(__file__).resolve().parent / "valid" / "coin_grab.yaml"), 3
        ).new_initial_state(seed=1),
        make_agents(["random"], 3, 1),
    )
    assert "rounds" not in state.result and state.round_lengths == [state.turn]
    assert not [e for e in state.log_for(None) if e["event"] in ("round", "round_end", "back")]


def test_narration_says_how_rounds_begin_and_end():
    state = laid_out(current=1, hand_P1=[])
    for _ in range(2):
        state.apply_action("play_card low")
    lines = narrate(state.log_for(None), Titles.of(state.game.spec))
    assert 'Round 1 ends: "Hands empty"' in lines and "Round 2 begins" in lines
    folded = laid_out()
    folded.apply_action("fold")
    titles = Titles.of(folded.game.spec)
    assert "  P1 is out for the round" in narrate(folded.log_for(None), titles)
    # in a game without rounds, sitting out lasts the game (a poker fold)
    alone = narrate(folded.log_for(None), Titles())
    assert "  P1 is out for the rest of the game" in alone


@pytest.mark.parametrize(
    "old, new, code",
    [
        ("      for p in argmax", "      end_turn()\n      for p in argmax", "RS209"),
        ("starter: seat(last_winner)", "starter: last_winner", "RS204"),
        ("when: size(players) == 1", "when: size(players)", "RS204"),
        ("  match_end:", "  match_ends:", "RS101"),
    ],
)
def test_misused_rounds_are_positioned_errors(old, new, code):
    with pytest.raises(SpecError) as exc:
        load_spec("rounds.yaml", HCR.replace(old, new))
    assert code in [d.code for d in exc.value.diagnostics]
    line = next(
        i
        for i, text in enumerate(HCR.replace(old, new).splitlines(), 1)
        if new.split("\n")[0] in text
    )
    assert next(d for d in exc.value.diagnostics if d.code == code).span.line == line


def test_a_match_end_named_like_an_action_is_a_duplicate():
    with pytest.raises(SpecError) as exc:
        load_spec("rounds.yaml", HCR.replace("    enough_points:\n", "    fold:\n"))
    assert [d.code for d in exc.value.diagnostics] == ["RS202"]
    assert "also in actions" in exc.value.render()


def test_lint_and_the_graph_see_the_round_flow():
    spec = load_spec(HCR_PATH)
    g = graph.build(spec)
    nexts = nx.DiGraph((a, b) for a, b, k in g.edges(keys=True) if k == "next")
    assert nx.has_path(nexts, "setup", "round:setup") and nx.has_path(
        nexts, "round_end:one_left", "round:setup"
    )
    assert nx.has_path(nexts, "round:scoring", "match_end:enough_points")
    assert g.has_edge("round:setup", "zone:pile") and g.has_edge("round:scoring", "counter:points")
    # the starter reads it, a part of its own: the round's setup does not
    assert g.has_edge("round:starter", "counter:last_winner")
    assert not g.has_edge("round:setup", "counter:last_winner")
    assert [f.code for f in lint.static(spec)] == []


def test_a_round_end_that_can_never_hold_is_found():
    text = HCR.replace("when: size(players) == 1", "when: size(players) == 9")
    findings = lint.static(load_spec("rounds.yaml", text))
    assert any(f.code == "RL105" and "one_left" in f.message for f in findings)


def test_run_replay_simulate_and_lint_simulate_take_matches_of_rounds(tmp_path):
    log = tmp_path / "match.jsonl"
    code, out, _ = cli("run", HCR_PATH, "--seed", 4, "--log", log)
    assert code == 0 and "Round 2 begins" in out
    code, out, _ = cli("replay", log)
    assert code == 0 and "1 of 1 game(s) replayed the same" in out
    code, out, _ = cli("simulate", HCR_PATH, "--games", 40, "--json")
    report = json.loads(out)
    assert (
        code == 0
        and report["rounds"]["per_match"]["mean"] >= 3
        and report["rounds"]["round_length"]["max"] >= 1
    )
    code, out, _ = cli("simulate", HCR_PATH, "--games", 40)
    assert "rounds per match" in out and "round (turns)" in out
    code, out, _ = cli("lint", "--simulate", 30, HCR_PATH)
    assert code == 0 and "RL301" not in out
    code, out, _ = cli("run", HCR_PATH, "--games", 2)
    assert code == 0 and "Match:" in out


def test_a_logged_round_must_have_its_number(tmp_path):
    log = tmp_path / "match.jsonl"
    cli("run", HCR_PATH, "--seed", 4, "--log", log)
    lines = log.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if '"event": "round"' in line)
    lines[first] = lines[first].replace('"round": 1', '"round": 0')
    log.write_text("\n".join(lines) + "\n")
    code, out, err = cli("replay", log)
    assert (
        code == 2
        and f"{log}:{first + 1}: error RS802: round: 0 is less than the minimum of 1" in out + err
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_keep_the_invariants(players):
    """The conformance test of tests/test_properties.py, on matches of rounds: every state
    keeps the table's invariants and the automatic rules' dirty index, a clone keys alike,
    and every match ends by its match end."""
    for seed in range(8):

        def on_step(g):
            g.check_invariants()
            assert g.clone(log=False).key() == g.key()

        state = play(
            game(n=players).new_initial_state(seed=seed),
            make_agents(["random"], players, seed),
            on_step,
        )
        assert state.reason == "enough_points" and state.winners
        assert (
            len([e for e in state.log_for(None) if e["event"] == "round"]) == state.result["rounds"]
        )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_turn_order_that_says_next_plays_the_same_match_of_rounds(seed):
    """turn_order takes the steered path of turn passing; with the default order written
    out it must give the same match, round starters included."""
    plain_text = HCR.replace(
        "  starter: seat(last_winner)\n", ""
    )  # the default starter: the seat after
    steered = plain_text.replace("\nrounds:\n", '\nturn_order: "next(current)"\n\nrounds:\n', 1)
    assert HCR != plain_text != steered
    plain, written = played(plain_text, seed=seed), played(steered, seed=seed)
    assert rounds_of(plain) and written.log_for(None) == plain.log_for(None)


SCORED_SKIP = """
rulespec: 1
name: Scored skip
players: {min: 3, max: 3}
deck:
  cards:
    x: {count: 3}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
counters:
  turns: {initial: 0}
setup:
  effect: reverse()
rounds:
  setup:
    effect: turns = 0
  end_conditions:
    two:
      when: turns == 2
  scoring:
    effect: skip_turn(current)
  match_end:
    second:
      when: round_index == 1
      effect: win(current)
turn:
  - step: t
    effect: turns += 1
"""


def test_what_a_round_s_end_gives_is_the_next_round_s():
    """A reviewer's round: play reversed in the game's setup, a skip given in the
    scoring. Play turns forward as the round ends (a logged reverse, narrated), and
    the scoring's skip, given after, holds for the next round, where it had been
    dropped once the round's play was reset at its start."""
    game = Game(load_spec("skip.yaml", SCORED_SKIP), 3)
    state = play(game.new_initial_state(seed=1), make_agents(["random"], 3, 1))
    log = state.log_for(None)
    turns = [(e["event"], e["player"]) for e in log if e["event"] in ("turn", "skipped")]
    assert turns == [("turn", 0), ("turn", 2), ("turn", 1), ("skipped", 2), ("turn", 0)]
    ends = [e["event"] for e in log if e["event"] in ("round_end", "reverse", "skip_turn")]
    assert ends[:4] == ["reverse", "round_end", "reverse", "skip_turn"]


DEALT_OVER = """
rulespec: 1
name: Instant Rounds
players: {min: 2, max: 2}
hand: hand
deck:
  cards: {coin: {count: 4}}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
counters:
  score: {per_player: true, initial: 0}
rounds:
  setup:
    effect: for p in players { move(hand(p), pile) }
  end_conditions:
    nothing_to_draw:
      when: size(pile) < 10
  match_end:
    someone_scored:
      each: p
      when: score(p) > 0
      effect: win(p)
turn:
  - step: draw
    effect: score(current) += 1
"""


def test_a_round_that_ends_as_it_is_dealt_is_named_as_the_rule_that_looped(tmp_path):
    """A designer's Jaipur ended 'trigger nothing_to_draw keeps firing' with no trigger
    declared: the round end condition is named as one, with the rounds it ended."""
    state = play(
        Game(load_spec("r.yaml", DEALT_OVER), 2).new_initial_state(), make_agents(["random"], 2, 0)
    )
    assert state.reason == "trigger_loop"
    (error,) = [e for e in state.log_for(None) if e["event"] == "error"]
    assert error["message"] == (
        "round end condition 'nothing_to_draw' keeps firing (1000 rounds ended without a turn)"
    )
    path = tmp_path / "r.yaml"
    path.write_text(DEALT_OVER)
    code, out, _ = cli("lint", str(path), "--simulate", "2")
    assert code == 1 and "trigger_loop in round end condition 'nothing_to_draw'" in out
    # a scenario stepped into it says why the game is over, with the engine's words
    (tmp_path / "s.yaml").write_text("name: dealt over\nspec: r.yaml\nsteps:\n  - P1: draw\n")
    code, out, _ = cli("test", str(tmp_path / "s.yaml"))
    assert code == 1 and "already over (trigger_loop: round end condition 'nothing_to_draw'" in out
