"""Response windows on a small game of their own (tests/valid/claim_challenge.yaml):
react(players) asks several players in turn order, answers without a card, answers to
answers (chains). Their rules interactions are scenarios under tests/scenarios/respond/;
these tests cover what a scenario cannot say."""

from io import StringIO
from pathlib import Path

import pytest

from rulespec import SpecError, load_spec
from rulespec.analysis import graph
from rulespec.analysis.coverage import coverage
from rulespec.analysis.lint import static
from rulespec.cli import main
from rulespec.interpreter import Game, State
from rulespec.interpreter.agents import make_agents, play
from rulespec.interpreter.observe import can_see
from rulespec.table.narrate import Titles, narrate

SPEC = Path(__file__).parent / "valid" / "claim_challenge.yaml"
TEXT = SPEC.read_text()


def game(text=TEXT, n=4):
    return Game(load_spec("claim.yaml", text), n)


def laid_out(g, hands, current=0, counters=None):
    zones = {f"hand[P{p + 1}]": cards for p, cards in hands.items()}
    return State.from_layout(g, 1, zones=zones, current=current, counters=counters or {})


def asked(state, answers):
    """Apply `answers` (one label per decision) and return who was asked, in order."""
    seats = []
    for label in answers:
        seats.append(state.current_player())
        state.apply_action(label)
    return seats


def test_players_are_asked_in_turn_order_from_the_actor():
    s = laid_out(game(), {0: ["duke"], 1: ["duke"], 2: ["duke"], 3: ["duke"]}, current=2)
    s.apply_action("tax")
    assert asked(s, ["no reaction"] * 3) == [3, 0, 1]


def test_an_answers_window_is_asked_from_the_one_who_answered():
    s = laid_out(
        game(), {0: ["veto"], 1: ["veto"], 2: ["veto"], 3: ["duke"]}, counters={"coins[P3]": 1}
    )
    s.apply_action("steal -> P3")
    assert asked(s, ["no reaction", "cancel"]) == [1, 2]  # P3 cancels: P4, P1, P2 are asked
    assert asked(s, ["no reaction", "no reaction", "no reaction"]) == [3, 0, 1]


def test_the_first_answer_closes_the_window():
    s = laid_out(game(), {0: ["duke"], 1: ["duke", "captain"], 2: ["captain"], 3: ["veto"]})
    s.apply_action("tax")
    s.apply_action("challenge_tax")  # P2 challenges a true claim and loses a card
    s.apply_action("duke")
    assert s.current_player() == 1 and s.decision_kind() == "play"  # P3, P4 were not asked
    assert [
        e["player"] for e in s.log_for(None) if e["event"] == "choice" and e["kind"] == "react"
    ] == [1]


def test_an_answer_without_a_card_is_offered_by_its_condition_alone():
    s = laid_out(
        game(), {0: ["duke"], 1: ["duke"], 2: ["duke"], 3: ["duke"]}, counters={"coins[P3]": 1}
    )
    s.apply_action("steal -> P3")
    assert s.legal_labels() == ["challenge_steal", "no reaction"]  # P2: no card, not the target
    s.apply_action("no reaction")
    assert s.legal_labels() == ["block", "challenge_steal", "no reaction"]  # P3 is the target


def test_a_forced_answer_without_a_card_removes_the_pass():
    text = TEXT.replace("    answers: [tax]\n", "    answers: [tax]\n    forced: true\n")
    s = laid_out(game(text), {0: ["duke"], 1: ["duke"], 2: ["duke"], 3: ["duke"]})
    s.apply_action("tax")
    assert s.legal_labels() == ["challenge_tax"]


RETURNS = TEXT.replace(
    """      taken = 0
      react(others(reactor))
""",
    """      taken = 0
      react(others(reactor))
      coins(reactor) += 10
""",
)


def test_an_answered_answer_gets_its_own_reactor_back_once_its_answer_is_done():
    s = laid_out(
        game(RETURNS),
        {0: ["duke"], 1: ["duke"], 2: ["duke"], 3: ["duke"]},
        counters={"coins[P2]": 1},
    )
    s.apply_action("steal -> P2")
    s.apply_action("block")  # P2 blocks; its window asks P3, P4, P1
    s.apply_action("no reaction")
    s.apply_action("challenge_block")  # P4 challenges the block: P2 holds a Duke
    s.apply_action("duke")  # P4 loses a card
    counters = s.observation(None)["counters"]
    assert counters["coins[P2]"] == 11 and counters["coins[P4]"] == 0


LOOP = TEXT.replace(
    """    card: veto
    answers: [steal, cancel]
    to: discard
""",
    """    answers: [tax, cancel]
""",
)


def test_an_endless_chain_of_answers_ends_as_an_effect_loop():
    s = laid_out(game(LOOP, 2), {0: ["duke"], 1: ["duke"]})
    s.apply_action("tax")
    while not s.is_terminal():
        s.apply_action("cancel")
    assert s.reason == "effect_loop"


def test_a_clone_in_the_middle_of_a_chain_plays_on_alike():
    s = laid_out(
        game(),
        {0: ["veto", "veto"], 1: ["veto", "veto"], 2: ["duke"], 3: ["duke"]},
        counters={"coins[P2]": 2},
    )
    s.apply_action("steal -> P2")
    s.apply_action("cancel")
    s.apply_action("no reaction")
    s.apply_action("no reaction")
    s.apply_action("cancel")  # P1 cancels P2's cancel: a window on an answer to an answer
    c = s.clone()
    assert c.key() == s.key() and hash(c.key()) == hash(s.key())  # search dedups by it
    for state in (s, c):
        for label in ["cancel"] + ["no reaction"] * 3:
            state.apply_action(label)
    assert c.key() == s.key()
    assert s.observation(None)["counters"]["coins[P1]"] == 0  # three cancels: the steal is off


def test_random_games_keep_the_invariants_end_and_are_deterministic():
    def result(seed, n):
        state = play(
            game(n=n).new_initial_state(seed=seed),
            make_agents(["random"], n, seed),
            lambda g: g.check_invariants(),
        )
        return state.result, state.log_for(None)

    for seed in range(30):
        n = 2 + seed % 3
        first = result(seed, n)
        assert first[0]["reason"] in ("rich", "last_standing")
        assert result(seed, n) == first


def test_no_seat_sees_a_hand_it_does_not_own_in_its_log():
    g = game(n=3)
    labels = {slot.label: slot for slot in g.slots}
    for seed in range(10):
        s = play(g.new_initial_state(seed=seed), make_agents(["random"], 3, seed))
        for p in range(3):
            for event in s.log_for(p):
                if event["event"] == "move" and not (
                    can_see(labels[event["src"]], p) or can_see(labels[event["dst"]], p)
                ):
                    assert event["cards"] is None, event
                if event["event"] == "choice" and event["kind"] == "card" and event["player"] != p:
                    assert event["option"] is None, (
                        event
                    )  # which card a loser gave up, until it shows


def test_answers_to_answers_are_opened_by_the_answer_in_the_graph():
    g = graph.build(load_spec("claim.yaml", TEXT))
    opens = {(a.name, b.name) for a, b, k in g.edges(keys=True) if k == "opens"}
    assert ("block", "challenge_block") in opens and ("cancel", "cancel") in opens
    assert ("steal", "block") in opens and ("steal", "cancel") in opens
    assert not any(
        b.kind == "card"
        for a, b, k in g.edges(keys=True)
        if a.name in ("block", "challenge_block") and k == "enables"
    )


def test_lint_reaches_answers_to_answers_but_not_a_chain_no_action_opens():
    assert [f.code for f in static(load_spec("claim.yaml", TEXT))] == []
    # a Veto answers only a steal that opens no window: its answers to itself are out of reach too
    orphan = TEXT.replace(
        "let taken = 1\n      react(others(current))\n      if taken == 1 {\n",
        "let taken = 1\n      if taken == 1 {\n",
    )
    found = [(f.code, f.message) for f in static(load_spec("claim.yaml", orphan))]
    assert (
        "RL104",
        "reaction 'cancel' can never answer: no action's window leads to steal, cancel",
    ) in found


def test_coverage_counts_answers_without_a_card_and_answers_to_answers():
    assert [f.code for f in coverage(load_spec("claim.yaml", TEXT), 40)] == []


def test_a_reaction_may_open_a_window_and_react_takes_several_players():
    load_spec("claim.yaml", TEXT)  # cancel calls react(others(reactor))
    with pytest.raises(SpecError) as exc:
        load_spec(
            "claim.yaml",
            TEXT.replace(
                "react(others(current))\n      if taken == 1 { coins(current) += 2 }",
                "react(coins(current))\n      if taken == 1 { coins(current) += 2 }",
            ),
        )
    assert [d.code for d in exc.value.diagnostics] == ["RS204"]


def test_actor_is_bound_only_in_answers_to_answers():
    with pytest.raises(SpecError) as exc:
        load_spec(
            "claim.yaml",
            TEXT.replace(
                "if count(hand(current), duke) > 0 {\n        choose(reactor)",
                "if count(hand(actor), duke) > 0 {\n        choose(reactor)",
                1,
            ),
        )
    assert [(d.code, d.message) for d in exc.value.diagnostics] == [
        ("RS201", "unknown name 'actor'")
    ]


def test_an_answer_to_an_answer_names_what_it_answers():
    """An Exploding Kittens trial read "P3 answers with Nope / P1 does not react / P2
    answers with Nope": nothing said P2's Nope answered P3's and not the Attack. The
    narration names the answer answered, from any point of the turn on."""
    hands = {0: ["veto", "duke"], 1: ["veto", "duke"], 2: ["captain"]}
    s = laid_out(game(n=3), hands, counters={"coins[P2]": 1})
    s.apply_action("steal -> P2")
    answers = ["cancel", "no reaction", "cancel", "no reaction", "no reaction"]
    assert asked(s, answers) == [1, 2, 0, 1, 2]
    log, titles = s.log_for(1), Titles.of(s.game.spec)
    said = [line for line in narrate(log, titles) if "react" in line or "answers" in line]
    assert said == [
        "  P2 answers with Veto (Cancel)",  # the steal's answer: said as ever
        "  P3 does not react",
        "  P1 answers P2's Cancel with Veto (Cancel)",
        "  P2 does not react",  # to P1's Cancel, just told
        "  P3 does not react",
    ]
    after = next(i for i, e in enumerate(log) if e["event"] == "react") + 1
    assert "  P1 answers P2's Cancel with Veto (Cancel)" in narrate(log, titles, after)


def test_narration_and_the_seat_prompt_read_as_answers():
    lines = narrate(
        [
            {"event": "react", "player": 2, "reaction": "challenge_tax", "card": None},
            {"event": "react", "player": 0, "reaction": "cancel", "card": "veto"},
        ],
        Titles(cards={"veto": "Veto"}, rules={"challenge_tax": ("reaction", "Challenge tax")}),
    )
    assert lines == ["  P3 answers: Challenge tax", "  P1 answers with Veto (cancel)"]
    out = StringIO()
    assert (
        main(
            ["play", str(SPEC), "--as", "P2", "--seed", "3"],
            stdout=out,
            stderr=StringIO(),
            stdin=StringIO("1\n" * 40),
        )
        == 0
    )
    assert "You may answer Tax:\n  1) Answer: Challenge tax\n  2) Do not answer\n" in out.getvalue()
    assert (
        "  P1 chooses Tax\n" in out.getvalue() and "  P2 answers: Challenge tax\n" in out.getvalue()
    )
