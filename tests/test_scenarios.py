"""Every rules scenario under tests/scenarios/ is one named pytest case (id = file stem)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from gamekit import BOOM, GAMES, ROOT, cli

from rulespec import load_spec
from rulespec.interpreter import Game
from rulespec.lang.diagnostics import SpecError
from rulespec.lang.loading import load
from rulespec.table.scenarios import collect, run

SCENARIOS = collect([Path(__file__).parent / "scenarios"])
SPEC = GAMES / "take_the_gold.yaml"

# Every ruling of the project's rulings document must be cited by some scenario.
REQUIRED = re.findall(r"^- ([A-Z]+-\d+) ", (ROOT / "docs" / "rulings.md").read_text(), re.M)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    try:
        outcome = run(path)
    except SpecError as exc:
        pytest.fail(exc.render(), pytrace=False)
    assert outcome.passed, f"{path.name}: {outcome.name}\n" + "\n".join(
        f"  {f}" for f in outcome.failures
    )


def test_every_ruling_has_a_scenario():
    assert SCENARIOS, "no scenario files found under tests/scenarios"
    cited = {r for p in SCENARIOS for r in load(p).data.get("rulings") or ()}
    assert len(REQUIRED) > 30, "docs/rulings.md lists fewer rulings than the specs cite"
    assert [r for r in REQUIRED if r not in cited] == []
    assert sorted(cited - set(REQUIRED)) == [], "scenarios cite rulings that docs/rulings.md lacks"


def _three_players(tmp_path, name, draw_pile, rest):
    """A 3-player Take the Gold scenario: P1 to play with a Pirate, P2 holding an
    Officer and a coin, P3 a coin; `rest` adds steps and expectations."""
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(
        textwrap.dedent(f"""\
        name: {name}
        spec: {SPEC}
        players: 3
        table:
          current: P1
          zones:
            hand[P1]: [pirate]
            hand[P2]: [officer, gold_coin]
            hand[P3]: [gold_coin]
            draw_pile: {draw_pile}
        """)
        + textwrap.dedent(rest)
    )
    return scenario


def test_runner_reports_a_wrong_expectation(tmp_path):
    # An Officer blocks the Pirate, but the scenario wrongly expects the coin to be taken.
    scenario = _three_players(
        tmp_path,
        "deliberately wrong",
        "[kraken, pirate]",
        """\
        rulings: [TTG-7]
        steps:
          - P1: pirate -> P2
          - P2: officer_block
        expect:
          zones:
            hand[P1]: [gold_coin, kraken]
            discard_pile: [pirate, officer]
          counters: {successful_krakens: 1}
          events:
            - {event: move, src: "hand[P2]", dst: "hand[P1]"}
          winners: [P1]
        """,
    )
    outcome = run(scenario)
    assert outcome.passed is False
    assert outcome.name == "deliberately wrong"
    assert _unplaced(outcome, scenario) == [
        "zone hand[P1]: expected ['gold_coin', 'kraken'], got ['kraken']",
        "zone discard_pile: expected ['pirate', 'officer'], got ['officer', 'pirate']",
        "counter successful_krakens: expected 1, got 0",
        # the log's events closest to it: a writer sees what did move
        "no event matching {'event': 'move', 'src': 'hand[P2]', 'dst': 'hand[P1]'}; nearest: "
        "{'event': 'move', 'src': 'draw_pile', 'dst': 'hand[P1]'}, "
        "{'event': 'move', 'src': 'hand[P2]', 'dst': 'discard_pile'}",
        "winners: expected ['P1'], got []",
    ]


def test_an_expectation_of_who_acts_in_a_game_that_ended_says_it_ended(tmp_path):
    """A designer's scenario read 'current: expected P2, got P1' where the game had
    ended, its real cause."""
    scenario = _three_players(
        tmp_path,
        "the fourth coin wins",
        "[kraken, pirate]",
        """\
        rulings: [TTG-7]
        steps:
          - P1: pirate -> P3
          - P3: no reaction
          - chance: gold_coin
        expect:
          current: P2
          to_act: P2
        """,
    ).read_text()
    path = tmp_path / "won.yaml"
    path.write_text(
        scenario.replace(
            "hand[P1]: [pirate]", "hand[P1]: [pirate, gold_coin, gold_coin, gold_coin]"
        )
    )
    assert _failures(path) == [
        "current: expected P2, got P1 (the game is over: coin_win)",
        "to act: expected P2, got none (the game is over: coin_win)",
    ]


def test_an_expectation_of_whose_turn_it_is_says_what_the_game_waits_on(tmp_path):
    """A designer's scenario read 'current: expected P2, got P1' where P2 had a
    choice of one option to take first."""
    path = _three_players(
        tmp_path,
        "the pirate's target answers first",
        "[kraken, pirate]",
        """\
        steps:
          - P1: pirate -> P2
        expect:
          current: P2
        """,
    )
    path.write_text(
        path.read_text().replace("hand[P2]: [officer, gold_coin]", "hand[P2]: [gold_coin]")
    )
    assert _failures(path) == [
        "current: expected P2, got P1",
        "the game waits on P2 to take its one option (auto: forced takes such choices)",
    ]


def test_runner_reports_a_step_by_the_wrong_player(tmp_path):
    scenario = _three_players(
        tmp_path,
        "wrong actor",
        "[kraken]",
        """\
        steps:
          - P1: pirate -> P2
          - P3: no reaction
        """,
    )
    outcome = run(scenario)
    assert outcome.passed is False
    assert _unplaced(outcome, scenario) == [
        "step 2: expected P3 to act, but P2 is to act (options: no reaction, officer_block)"
    ]


def _unplaced(outcome, path) -> list[str]:
    """The failures, each step's and the last `expect`'s without its place, which must
    be its line in the file (a Coup designer's failing step named no line, nor did a
    misnamed zone in the last `expect`)."""
    lines = Path(path).read_text().splitlines()
    out = []
    for f in outcome.failures:
        m = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): (step .*|expect: )(.*)", f)
        if m:
            line, col = int(m[1]), int(m[2])
            at = lines[line - 1]
            if m[3] == "expect: ":  # the key
                assert at[col - 1 :].startswith("expect:"), (f, at)
                f = m[4]
            else:  # an item of steps
                assert at[: col - 1].strip() == "-", (f, at)
                f = m[3] + m[4]
        out.append(f)
    return out


def _failures(path) -> list[str]:
    return _unplaced(run(path), path)


@pytest.mark.parametrize(
    "steps, failure",
    [
        (
            ["P1: pirate -> P2", "game: 2"],
            "step 2 (game: 2): game 1 is not over: P2 is to act "
            "(options: no reaction, officer_block)",
        ),
        (["game: 3"], "step 1 (game: 3): the scenario is in game 1: the next is game 2"),
    ],
)
def test_a_next_game_step_needs_the_game_before_over_and_comes_in_order(tmp_path, steps, failure):
    listed = "".join(f"\n  - {step}" for step in steps)
    scenario = _three_players(tmp_path, "match", "[kraken]", f"steps:{listed}\n")
    assert _unplaced(run(scenario), scenario) == [failure]


def _second_game_hands(seed: int) -> dict:
    """The hands of a 3-player game of Take the Gold seeded `seed` as the second of a
    match, its first player drawn as P1."""
    state = Game(load_spec(str(SPEC)), 3).new_initial_state(seed=seed, game_index=1)
    while state.chance_is_sampled():  # the shuffle, from the game's seed
        state.sample_chance()
    state.apply_action("P1")
    return {
        f"hand[P{p}]": sorted(state.observation(None)["zones"][f"hand[P{p}]"]) for p in (1, 2, 3)
    }


def test_the_next_game_of_a_match_starts_from_the_setup_seeded_as_run_starts_it(tmp_path):
    # P1 wins game 1 at once; game 2 is the spec's own setup, seeded as `rulespec run
    # --seed 5 --games 2` seeds its second game: 6.
    hands = _second_game_hands(6)
    assert hands != _second_game_hands(5)  # so the seed is what the scenario checks
    expected = "".join(
        f"\n            {label}: [{', '.join(cards)}]" for label, cards in hands.items()
    )
    scenario = _three_players(
        tmp_path,
        "match",
        "[gold_coin]",
        f"""\
        seed: 5
        steps:
          - P1: pirate -> P2
          - P2: no reaction
          - chance: gold_coin
          - expect: {{over: true, winners: [P1]}}
          - game: 2
          - chance: P1
        expect:
          zones:{expected}
        """,
    )
    scenario.write_text(
        scenario.read_text().replace(
            "hand[P1]: [pirate]", "hand[P1]: [pirate, gold_coin, gold_coin]"
        )
    )
    outcome = run(scenario)
    assert outcome.passed, outcome.failures


def test_a_folder_s_specs_are_passed_over_and_a_spec_given_is_said_to_be_one(tmp_path):
    """A designer keeps the spec beside its scenarios: `rulespec test FOLDER` read it
    as a scenario, with an RS501 for each of its keys."""
    (tmp_path / "game.yaml").write_text((ROOT / "tests" / "valid" / "gift_giving.yaml").read_text())
    scenario = ROOT / "tests" / "scenarios" / "moves" / "a_player_is_chosen_by_seat.yaml"
    (tmp_path / "check.yaml").write_text(
        scenario.read_text().replace("../../valid/gift_giving.yaml", "game.yaml")
    )
    code, out, _ = cli("test", str(tmp_path))
    assert code == 0 and out.endswith("1 passed, 0 failed\n"), out
    code, out, _ = cli("test", str(tmp_path / "game.yaml"))
    assert code == 1 and "RS501: this is a spec (it declares 'rulespec:'), not a scenario" in out
    assert out.count("RS501") == 1, out


def test_every_ruling_a_game_cites_is_in_the_rulings_document():
    cited = {r for p in GAMES.rglob("*.yaml") for r in re.findall(r"\b[A-Z]+-\d+\b", p.read_text())}
    assert cited and sorted(cited - set(REQUIRED)) == []


def test_runner_reports_check_points_order_free_zones_and_seats_as_written(tmp_path):
    scenario = _three_players(
        tmp_path,
        "wrong check points",
        "[kraken, kraken]",
        """\
        steps:
          - expect: {to_act: P2}
          - P1: pirate -> P2
          - expect:
              options: [no reaction]
              events: [{event: play, target: P3}]
          - P2: officer_block
        expect:
          zones:
            hand[P2]: {any_order: [gold_coin, officer]}
            discard_pile: {any_order: [pirate]}
        """,
    )
    assert _unplaced(run(scenario), scenario) == [
        "step 1: to act: expected P2, got P1",
        "step 3: no event matching {'event': 'play', 'target': 'P3'}; nearest: "
        "{'event': 'play', 'target': 'P2'}",
        "step 3: options: expected ['no reaction'], got ['no reaction', 'officer_block']",
        "zone hand[P2]: expected {'any_order': ['gold_coin', 'officer']}, got ['gold_coin', 'kraken']",
        "zone discard_pile: expected {'any_order': ['pirate']}, got ['officer', 'pirate']",
    ]


def test_an_order_free_zone_passes_in_either_order(tmp_path):
    scenario = _three_players(
        tmp_path,
        "any order",
        "[kraken, kraken]",
        """\
        steps:
          - P1: pirate -> P2
          - P2: officer_block
        expect:
          zones:
            discard_pile: {any_order: [pirate, officer]}
          events: [{event: play, player: P1, target: P2}]
        """,
    )
    assert _failures(scenario) == []


@pytest.mark.parametrize(
    "rest, failures",
    [
        (
            "steps: [{P1: pass}]\nexpect_error: {code: action/invalid_choice}\n",
            ["expected a refusal (code 'action/invalid_choice'), but nothing was refused"],
        ),
        (
            "steps: [{P1: pirate -> P1}]\nexpect_error: {code: game/over, message: 'no'}\n",
            [
                "refusal code: expected 'game/over', got 'action/invalid_choice'",
                "refusal message: expected 'no', got \"'pirate -> P1' is not a legal choice for P1; "
                'legal: kraken -> P2, kraken -> P3, pass, pirate -> P2, pirate -> P3"',
            ],
        ),
        (
            "players: 9\nexpect_error: {code: RS401, message: 'Take the Gold is for 2 to 6 players, not 9'}\n",
            [],
        ),
        (
            "players: 9\nexpect_error: {code: RS402}\n",
            ["refusal code: expected 'RS402', got 'RS401'"],
        ),
    ],
    ids=["not-refused", "other-refusal", "player-count", "player-count-code"],
)
def test_runner_compares_the_refusal_it_expects(tmp_path, rest, failures):
    scenario = _three_players(tmp_path, "refusal", "[kraken]", rest.replace("players: 9\n", ""))
    if "players: 9" in rest:
        scenario.write_text(scenario.read_text().replace("players: 3", "players: 9"))
    assert _failures(scenario) == failures


def test_auto_forced_takes_single_option_choices_but_not_a_named_one(tmp_path):
    # P3 holds only coins: "no reaction" is forced and the random take of one card type too.
    scenario = _three_players(
        tmp_path,
        "forced",
        "[kraken]",
        """\
        auto: forced
        steps:
          - P1: pirate -> P3
        expect:
          zones: {"hand[P1]": [gold_coin, kraken], "hand[P3]": [pirate], discard_pile: []}
          events: [{event: choice, player: P3, kind: react, option: no reaction}]
        """,
    )
    assert _failures(scenario) == []
    named = _three_players(
        tmp_path,
        "forced, named",
        "[kraken]",
        """\
        auto: forced
        steps:
          - P1: pirate -> P3
          - P3: no reaction
        expect: {zones: {"hand[P3]": [pirate]}}
        """,
    )
    assert _failures(named) == []


def test_a_scenario_that_cannot_load_keeps_its_name(tmp_path):
    scenario = tmp_path / "broken.yaml"
    scenario.write_text(
        f"name: a named but broken scenario\nspec: {SPEC}\nexpect: {{zonez: {{}}}}\n"
    )
    outcome = run(scenario)
    assert (outcome.name, outcome.passed) == ("a named but broken scenario", False)
    assert f"{scenario}:3:10: error RS501: unknown key 'zonez' in expect" in outcome.failures[0]
    seats = _three_players(
        tmp_path,
        "a seat past the table",
        "[kraken]",
        """\
        expect: {events: [{event: turn, player: P7}]}
        """,
    )
    # said at the expect that names it, as every failure of a check point is
    assert _failures(seats) == ["'P7' is not a seat of a 3-player game (P1..P3)"]
    cli_code, out, _ = cli("test", str(scenario))
    assert cli_code == 1 and out.startswith(f"FAIL {scenario}: a named but broken scenario\n")


@pytest.mark.parametrize(
    "code, failures",
    [
        ("RS201", []),
        ("RS501", ["refusal code: expected 'RS501', got 'RS201'"]),
    ],
)
def test_a_spec_that_does_not_load_can_be_the_expected_refusal(tmp_path, code, failures):
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(
        f"spec: {ROOT / 'tests' / 'broken' / '11_unknown_zone_in_to.yaml'}\n"
        f"expect_error: {{code: {code}}}\n"
    )
    assert _failures(scenario) == failures
    scenario.write_text(scenario.read_text().split("expect_error")[0])
    assert "error RS201: unknown name 'discrad'" in _failures(scenario)[0]


def test_a_misspelt_any_order_is_an_unknown_key_at_its_place(tmp_path):
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(
        f"spec: {SPEC}\nsteps:\n  - expect: {{zones: {{draw_pile: {{any_ordr: []}}}}}}\n"
    )
    (failure,) = _failures(scenario)
    assert (
        f"{scenario}:3:34: error RS501: unknown key 'any_ordr' in steps.0.expect.zones.draw_pile "
        "(did you mean 'any_order'?)"
    ) in failure


def test_a_zone_label_unquoted_in_a_flow_mapping_is_told_to_be_quoted(tmp_path):
    """`zones: {hand[P1]: [...]}` is a YAML syntax error whose own words never said
    why (a designer's scenario); docs/python.md warns of it, and now the error does."""
    scenario = tmp_path / "flow.yaml"
    scenario.write_text(f"spec: {SPEC}\ntable:\n  zones: {{hand[P1]: [pirate]}}\nsteps: []\n")
    code, out, _ = cli("test", str(scenario))
    assert code == 1
    assert out.startswith(f"FAIL {scenario}\n")  # too broken to name itself: once, not twice
    assert f"{scenario}:3:15: error RS003: YAML syntax: expected ',' or '}}', but got '['" in out
    assert '(a key holding [ ] inside { } is quoted: {"hand[P1]": [...]})' in out


def test_a_label_holding_brackets_in_a_flow_list_is_told_to_be_quoted(tmp_path):
    """A designer's Lost Cities listed `options: [draw, take blue_4 from discard[1]]`;
    the error's own words never said to quote the item."""
    scenario = tmp_path / "flow.yaml"
    scenario.write_text(
        f"spec: {SPEC}\nsteps:\n  - expect: {{options: [pass, take x from row[1]]}}\n"
    )
    code, out, _ = cli("test", str(scenario))
    assert code == 1 and "error RS003: YAML syntax: expected ',' or ']', but got '['" in out
    assert 'an item holding [ ] inside [ ] is quoted: [draw, "take blue_4 from discard[1]"]' in out


def test_seen_by_takes_a_set_in_any_order_and_a_pile_in_its_own(tmp_path):
    """A designer listed a hand in the order it was dealt and seen_by failed, the
    observation listing a set sorted; expect.zones took either order."""
    scenario = _three_players(
        tmp_path,
        "seen in any order",
        "[kraken, officer]",
        """\
        expect:
          seen_by:
            P2: {zones: {"hand[P2]": [officer, gold_coin], "draw_pile": {count: 1}}}
            P3: {zones: {"hand[P2]": {count: 2}}}
        """,
    )
    assert _failures(scenario) == []
    wrong = _three_players(
        tmp_path,
        "seen wrongly",
        "[kraken, officer]",
        'expect: {seen_by: {P2: {zones: {"hand[P2]": [officer, kraken]}}}}\n',
    )
    assert _failures(wrong) == [
        "as P2 sees it: zone hand[P2]: expected ['kraken', 'officer'], got ['gold_coin', 'officer']"
    ]


@pytest.mark.parametrize("rest, passed", [("", False), ("expect_error: {code: RS701}\n", True)])
def test_a_rule_that_fails_fails_its_scenario_not_the_run(tmp_path, rest, passed):
    """A designer's tie broke a payoff's max: the RS701 stopped `rulespec test` at once,
    with no report of the other scenarios. It is the scenario's failure, or the refusal
    it expects."""
    (tmp_path / "boom.yaml").write_text(BOOM)
    (tmp_path / "s1.yaml").write_text(
        "name: boom\nspec: boom.yaml\ntable:\n  zones: {pile: [stone, stone]}\nsteps:\n  - P1: boom\n"
        + rest
    )
    (tmp_path / "s2.yaml").write_text(
        "name: fine\nspec: boom.yaml\ntable:\n  zones: {pile: [stone, stone]}\nsteps:\n  - P1: fine\n"
    )
    code, out, _ = cli("test", str(tmp_path))
    assert "PASS " in out and out.endswith(f"{1 + passed} passed, {1 - passed} failed\n"), out
    assert code == (0 if passed else 1)
    if not passed:
        assert "step 1: " in out and "error RS701: rule 'act' failed here" in out


def test_a_per_player_counter_s_seats_may_be_written_under_its_name(tmp_path):
    """A Hold'em designer wrote `chips: {P1: 90, P2: 90}` and met RS501 'must be an
    integer or a string or null, got a mapping'; it sets chips[P1] and chips[P2]."""
    scenario = tmp_path / "chips.yaml"
    call_it = ROOT / "tests" / "valid" / "call_it.yaml"
    text = (
        f"spec: {call_it}\nplayers: 3\ntable:\n  zones: {{}}\n  counters:\n"
        "    bid: {P1: 2, P3: 1}\nsteps: []\nexpect:\n  counters: {bid: {P1: 2, P2: 0, P3: WANT}}\n"
    )
    scenario.write_text(text.replace("WANT", "1"))
    assert _failures(scenario) == []
    scenario.write_text(text.replace("WANT", "5"))
    assert _failures(scenario) == ["counter bid[P3]: expected 5, got 1"]


def test_a_counter_holding_a_seat_is_told_its_seats_at_its_place(tmp_path):
    """`dealer: 7` was told at table:, in seats counted from 0."""
    scenario = tmp_path / "dealer.yaml"
    scenario.write_text(
        f"spec: {GAMES / 'whist.yaml'}\ntable:\n  zones: {{}}\n  counters:\n    dealer: 7\nsteps: []\n"
    )
    (failure,) = _failures(scenario)
    assert (
        f"{scenario}:5:13: error RS501: counter dealer holds a seat: write P1 to P4, or nobody, not 7"
        in failure
    )


def test_remembered_cards_in_a_table_are_told_by_their_name(tmp_path):
    """A Cribbage designer's `series: [hearts_4]`, remembered cards laid out among the
    table's counters, read "must be an integer or a string or null or a mapping, got a
    list": the name is told first, and that a table cannot lay them out."""
    scenario = tmp_path / "held.yaml"
    scenario.write_text(
        f"spec: {GAMES / 'cribbage.yaml'}\ntable:\n  zones: {{}}\n  counters:\n"
        "    held: {P1: [hearts_4]}\n    total: [hearts_4]\nsteps: []\n"
    )
    (failure,) = _failures(scenario)
    assert (
        f"{scenario}:5:12: error RS501: unknown counter: 'held[P1]' ('held' is remembered "
        "cards, not a counter a scenario lays out or checks)"
    ) in failure
    assert (
        f"{scenario}:6:12: error RS501: counter total holds a number, not ['hearts_4']" in failure
    )
    assert "got a list" not in failure
    scenario.write_text(
        f"spec: {GAMES / 'whist.yaml'}\ntable:\n  zones: {{}}\n  counters:\n"
        "    trumps: [hearts]\nsteps: []\n"
    )
    (failure,) = _failures(scenario)
    assert (
        f"{scenario}:5:13: error RS501: counter trumps holds a kind: write a card type's or "
        "tag's name, not ['hearts']"
    ) in failure


def test_remembered_cards_in_an_expect_are_told_by_their_name(tmp_path):
    """A reviewer's `expect: counters: {held: {P1: [hearts_4]}}` still read "must be an
    integer or a string or null or a mapping, got a list", where the table's counters
    name 'held' as remembered cards; so at a check point too."""
    scenario = tmp_path / "held.yaml"
    scenario.write_text(
        f"spec: {GAMES / 'cribbage.yaml'}\nsteps:\n  - expect:\n      counters: {{total: [hearts_4]}}\n"
        "expect:\n  counters: {held: {P1: [hearts_4]}}\n"
    )
    assert _failures(scenario) == [
        "step 1: counter total holds a number, not ['hearts_4']",
        "counter held[P1]: no such counter ('held' is remembered cards, "
        "not a counter a scenario lays out or checks)",
    ]


def test_a_step_naming_a_card_by_its_title_is_told_the_card_s_name(tmp_path):
    """A 6 nimmt! designer's step `P1: "55 (7)"` was told only the legal labels."""
    scenario = tmp_path / "titled.yaml"
    scenario.write_text(
        f"spec: {SPEC}\nplayers: 2\ntable:\n  zones:\n    hand[P1]: [kraken]\n"
        "    draw_pile: [pirate, pirate]\nsteps:\n  - P1: The Kraken\n"
    )
    (failure,) = _unplaced(run(scenario), scenario)
    assert failure.startswith(
        "step 1: 'The Kraken' is not a legal choice for P1 ('The Kraken' is the title of "
        "kraken); legal: kraken -> P2, pass"
    )


def test_a_step_naming_a_card_no_option_plays_says_so(tmp_path):
    """A Love Letter designer's `P1: king` was told "'king' is the title of king": the
    card is named already, and no option plays it."""
    scenario = tmp_path / "unheld.yaml"
    scenario.write_text(
        f"spec: {SPEC}\nplayers: 2\ntable:\n  zones:\n    hand[P1]: [kraken]\n"
        "    draw_pile: [pirate, pirate]\nsteps:\n  - P1: officer\n"
    )
    (failure,) = _unplaced(run(scenario), scenario)
    assert failure.startswith(
        "step 1: 'officer' is not a legal choice for P1 (no option plays or picks a card "
        "'officer'); legal: kraken -> P2, pass"
    )


def test_an_event_field_no_such_event_has_is_told_the_fields_it_has(tmp_path):
    """A Coloretto designer looked for a round_end's `reason`, and was shown the nearest
    event with `reason: None`: its field is `rule`."""
    scenario = tmp_path / "fields.yaml"
    scenario.write_text(
        f"spec: {ROOT / 'tests' / 'valid' / 'round_afresh.yaml'}\nplayers: 3\ntable:\n"
        "  zones:\n    hand[P1]: [back, plain]\n    hand[P2]: [stop, plain]\n"
        "    hand[P3]: [plain, plain]\nsteps:\n  - P1: back\n  - P3: plain\n  - P2: stop\n"
        "expect:\n  events:\n    - {event: round_end, reason: three_played}\n"
    )
    (failure,) = _failures(scenario)
    assert failure.endswith(
        "nearest: {'event': 'round_end', 'reason': None} ('round_end' events have no "
        "reason: their fields are round, rule, event, turn)"
    )


def test_an_event_expected_at_another_turn_is_not_told_it_has_no_turn(tmp_path):
    """A trial's `{event: trigger, …, turn: N}`, the rule fired at another turn, was
    told "'trigger' events have no turn": every event has one."""
    scenario = tmp_path / "turn.yaml"
    scenario.write_text(
        f"spec: {ROOT / 'tests' / 'valid' / 'round_afresh.yaml'}\nplayers: 3\ntable:\n"
        "  zones:\n    hand[P1]: [back, plain]\n    hand[P2]: [stop, plain]\n"
        "    hand[P3]: [plain, plain]\nsteps:\n  - P1: back\n  - P3: plain\n  - P2: stop\n"
        "expect:\n  events:\n    - {event: round_end, rule: three_played, turn: 9}\n"
    )
    (failure,) = _failures(scenario)
    assert failure.endswith("nearest: {'event': 'round_end', 'rule': 'three_played', 'turn': 3}")


def test_a_seat_s_counter_looked_for_with_a_player_is_told_its_label(tmp_path):
    """A Cribbage designer's `{event: counter, counter: score, player: P2}` was told only
    that 'counter' events have no player, beside the nearest events of other counters."""
    scenario = tmp_path / "label.yaml"
    scenario.write_text(
        f"spec: {ROOT / 'tests' / 'valid' / 'high_card_rounds.yaml'}\nplayers: 2\ntable:\n"
        "  zones:\n    hand[P1]: [mid]\n    hand[P2]: [low]\nsteps:\n  - P1: play_card mid\n"
        "expect:\n  events:\n    - {event: counter, counter: round_points, player: P1, value: 2}\n"
    )
    (failure,) = _failures(scenario)
    assert failure.endswith(
        "nearest: {'event': 'counter', 'counter': 'round_points[P1]', 'value': 2} ('counter' "
        "events have no player: a seat's counter is its label, counter: round_points[P1])"
    )


def test_a_card_refused_is_told_why_where_the_rules_say_it(tmp_path):
    """A Hearts designer's `play ace_of_hearts` was refused with the legal labels alone,
    never that hearts were not broken: the action's `if:` that does not hold is told by
    its title and text, as is a card the player does not hold."""
    scenario = tmp_path / "follow.yaml"
    text = (
        f"spec: {GAMES / 'whist.yaml'}\ntable:\n  current: P2\n  counters: {{led_suit: hearts}}\n"
        "  zones:\n    hand[P2]: [three_of_hearts, three_of_clubs]\nsteps:\n  - P2: CHOICE\n"
    )
    scenario.write_text(text.replace("CHOICE", "play three_of_clubs"))
    (failure,) = _failures(scenario)
    assert failure.endswith(
        "; legal: play three_of_hearts; the rules do not allow three_of_clubs now (Play: Play a "
        "card of your hand to the trick, following the suit led if you can)"
    )
    scenario.write_text(text.replace("CHOICE", "play ace_of_spades"))
    (failure,) = _failures(scenario)
    assert failure.endswith("; legal: play three_of_hearts; P2 holds no ace_of_spades")
    scenario.write_text(text.replace("CHOICE", "play_card three_of_clubs"))
    (failure,) = _failures(scenario)  # not "no action of this step plays three_of_clubs"
    assert failure.endswith("; legal: play three_of_hearts; this step has no action 'play_card'")


@pytest.mark.parametrize(
    "spec, table, choice",
    [  # harbour has no hand: buying ship_2 takes a coin, and the card in the harbour
        (
            "harbour",
            "counters: {coins: {P2: 0}, host: P1}\n  zones: {harbour: [ship_2]}",
            "P2: buy ship_2",
        ),
        # take picks a card of the market, whatever the hand holds
        (
            "market",
            'zones: {market: [apple, pear], "hand[P1]": [plum]}\n  rest: deck',
            "P1: take fig",
        ),
    ],
)
def test_a_card_an_action_targets_is_refused_with_no_false_reason(tmp_path, spec, table, choice):
    """A reviewer's `buy ship_2`, refused because the buyer had no coin, was told "P2
    holds no ship_2" in a game with no hand: an action that takes a card as its target
    (target: card) takes it from where its among: says, so what the hand holds says
    nothing of it."""
    scenario = tmp_path / "target.yaml"
    spec = ROOT / "tests" / "valid" / f"{spec}.yaml"
    scenario.write_text(f"spec: {spec}\ntable:\n  current: P1\n  {table}\nsteps:\n  - {choice}\n")
    (failure,) = _failures(scenario)
    assert re.search(r"is not a legal choice for P\d; legal: [^;]*$", failure), failure


def test_a_per_team_counter_or_zone_is_written_by_its_team(tmp_path):
    """A Bridge designer wrote `tricks: {north_south: 2}` (a raw schema message: does
    not match '^P[0-9]+$') and `won[P1]` for a team's zone ("did you mean 'hand[P1]'?")."""
    scenario = tmp_path / "teams.yaml"
    partners = ROOT / "tests" / "valid" / "partners.yaml"
    text = f"spec: {partners}\ntable:\n  zones: {{ZONES}}\n  counters:\n    score: {{odd: 3}}\nsteps: []\nexpect:\n  counters: {{score: {{odd: 3, even: 0}}}}\n"
    scenario.write_text(text.replace("ZONES", ""))
    assert _failures(scenario) == []
    scenario.write_text(text.replace("ZONES", '"chest[P2]": []'))
    (failure,) = _failures(scenario)
    assert "unknown zone: 'chest[P2]' ('chest' is one per team: P2's is chest[even])" in failure


def test_some_options_may_be_said_offered_or_not(tmp_path):
    """A Bridge designer, to say "no double here", had to list all 36 bids in
    `options`: `offered` and `not_offered` say some, the others left unsaid."""
    scenario = tmp_path / "offered.yaml"
    text = (
        f"spec: {SPEC}\nplayers: 2\ntable:\n  zones:\n    hand[P1]: [kraken, pirate]\n"
        "    draw_pile: [pirate, pirate]\nsteps: []\nexpect:\n  offered: OFFERED\n"
        "  not_offered: NOT\n"
    )
    scenario.write_text(text.replace("OFFERED", "[kraken -> P2]").replace("NOT", "[officer]"))
    assert _failures(scenario) == []
    scenario.write_text(text.replace("OFFERED", "[officer]").replace("NOT", "[pass]"))
    assert _failures(scenario) == [
        "offered: expected ['officer'], not among the options ['kraken -> P2', 'pass', 'pirate -> P2']",
        "not_offered: expected ['pass'] not offered, but among the options ['kraken -> P2', 'pass', "
        "'pirate -> P2']",
    ]


def test_an_expected_counter_the_game_has_not_is_named_so(tmp_path):
    """A review: a mistyped label in `expect: counters` failed as "expected 1, got
    null", and passed where null was expected; now it is no such counter, with the
    labels meant (a family's by their range)."""
    scenario = tmp_path / "counters.yaml"
    scenario.write_text(
        f"spec: {ROOT / 'tests/valid/stones.yaml'}\nplayers: 2\nsteps: []\n"
        "expect:\n  counters: {claimd: {P1: {0: 0}}, laid: {7: null, 0: 0}}\n"
    )
    assert _failures(scenario) == [
        "counter claimd[P1][0]: no such counter (did you mean one of claimed[P1][0] to "
        "claimed[P2][2]?)",
        "counter laid[7]: no such counter (did you mean one of laid[0] to laid[2]?)",
    ]


def test_a_table_may_lay_out_no_kind_and_a_team_family_is_told_by_team(tmp_path):
    """A review: a table's `no_kind` for a counter that holds a kind was refused as an
    unknown kind, though the docs allow it; a team's family written by seat was told
    a range of labels, not the team's own."""
    scenario = tmp_path / "kinds.yaml"
    scenario.write_text(
        f"spec: {ROOT / 'tests/valid/colour_match.yaml'}\nplayers: 2\n"
        "table:\n  counters: {colour_now: no_kind}\nsteps: []\n"
        "expect:\n  counters: {colour_now: no_kind}\n"
    )
    assert _failures(scenario) == []
    camps = tmp_path / "camps.yaml"
    camps.write_text(
        (ROOT / "tests/valid/partners.yaml")
        .read_text()
        .replace(
            "  chest: {per_team: true, visibility: owner}",
            "  chest: {per_team: true, count: 2, visibility: owner}",
        )
        .replace("to: chest(current)", "to: chest(current, 0)")
    )
    scenario.write_text(
        f"spec: {camps}\nplayers: 4\ntable:\n  zones:\n    chest[P3][1]: []\nsteps: []\n"
    )
    (failure,) = _failures(scenario)
    assert "'chest' is one per team: P3's is chest[odd][1]" in failure


def test_a_rest_zone_the_game_lacks_is_named_at_its_value(tmp_path):
    scenario = tmp_path / "rest.yaml"
    scenario.write_text(
        f"name: rest\nspec: {SPEC}\nplayers: 2\ntable:\n  rest: draw_pil\nsteps: []\n",
        encoding="utf-8",
    )
    outcome = run(scenario)
    assert not outcome.passed
    assert outcome.failures[0].startswith(
        f"{scenario}:5:9: error RS501: unknown zone: 'draw_pil' (did you mean 'draw_pile'?)"
    )


def test_a_round_index_in_a_game_without_rounds_is_rs501_at_it(tmp_path):
    scenario = tmp_path / "rounds.yaml"
    scenario.write_text(
        f"name: a round in a game of none\nspec: {SPEC}\nplayers: 2\n"
        "table:\n  round_index: 2\nexpect: {to_act: P1}\n"
    )
    (failure,) = _failures(scenario)
    assert (
        f"{scenario}:5:16: error RS501: round_index names a round, but the game is not "
        "played in rounds"
    ) in failure


def test_an_option_naming_a_family_s_zone_may_name_it_by_value(tmp_path):
    """A Klondike designer wrote `back hearts_2 from foundation[hearts]` as a step and in
    `offered`, as python.md lets a zone be written in a table and in `expect`; options
    name the zone by place (`foundation[1]`), so both were refused."""
    text = (ROOT / "tests" / "valid" / "suit_columns.yaml").read_text()
    fish = (
        "  fish:\n    target: card\n    among: union(discard(i) for i in range(3))\n"
        "    effect: move(chosen, hand(current))\n"
    )
    spec = tmp_path / "fish.yaml"
    spec.write_text(
        text.replace("actions: [lay, toss]", "actions: [lay, toss, fish]").replace(
            "actions:\n  lay:\n", f"actions:\n{fish}  lay:\n"
        )
    )
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(
        textwrap.dedent(f"""\
        spec: {spec}
        players: 2
        table:
          zones: {{"hand[P1]": [red_1], "discard[blue]": [blue_3], pile: [gold_1, gold_2]}}
        steps:
          - expect:
              offered: ["fish blue_3 from discard[blue]"]
              not_offered: ["fish blue_3 from discard[red]"]
          - P1: fish blue_3 from discard[blue]
        expect:
          zones: {{"hand[P1]": [red_1, blue_3, gold_1], "discard[blue]": []}}
        """)
    )
    assert _failures(scenario) == []
    assert run(scenario).passed
    # a list of options that differs is shown by value beside the scenario's, as written
    # (a Lost Cities designer's got list named the zones by place beside its expected)
    scenario.write_text(
        scenario.read_text().replace(
            'offered: ["fish blue_3 from discard[blue]"]',
            'options: ["fish blue_3 from discard[red]", "lay red_1", "toss red_1"]',
        )
    )
    [failure] = _failures(scenario)
    assert "got ['fish blue_3 from discard[blue]', " in failure, failure


def test_an_option_no_decision_can_offer_is_named_so(tmp_path):
    """A Mille Bornes designer's `not_offered: [drive_typo d25, drive d999, slow_down
    speed_limit -> P2]` passed: a label no decision of the game gives is never among
    the options, so it proved nothing. Such a label is a failure at its check point: a
    word no option has (an action, card or seat misnamed) named, or the option of its
    first word meant. A number is not judged: its bounds may be worked out in play."""
    scenario = tmp_path / "never.yaml"
    scenario.write_text(
        f"spec: {SPEC}\nplayers: 2\ntable:\n  zones:\n    hand[P1]: [kraken, pirate]\n"
        "    draw_pile: [pirate, pirate]\nsteps: []\nexpect:\n  offered: [pirat -> P2]\n"
        "  not_offered: [kraken -> P3, pirate kraken -> P2, 7, two_pirates -> P2]\n"
    )
    assert _failures(scenario) == [
        "offered: 'pirat -> P2' is no option of this game: no option has 'pirat' "
        "(did you mean 'pirate'?)",
        "not_offered: 'kraken -> P3' is no option of this game: no option has 'P3'",
        "not_offered: 'pirate kraken -> P2' is no option of this game "
        "(did you mean 'pirate -> P2'?)",
        "offered: expected ['pirat -> P2'], not among the options ['kraken -> P2', 'pass', "
        "'pirate -> P2']",
    ]


def test_an_option_meant_is_sought_among_the_decisions_own_first(tmp_path):
    """A Cuttle trial wrote a play at a card without the card picked, `two_oneoff
    two_of_clubs from perms[P2]`, and was told "did you mean 'two_oneoff two_of_clubs
    two_of_clubs from perms[P2]'": the closest label of the whole game, the card played
    at its own type. The option meant is the decision's own where one is close."""
    scenario = tmp_path / "meant.yaml"
    scenario.write_text(
        f"spec: {ROOT / 'tests' / 'valid' / 'market.yaml'}\nplayers: 2\ntable:\n"
        "  current: P1\n  zones:\n    hand[P1]: [apple]\n    market: [pear]\n  rest: deck\n"
        "steps: []\nexpect:\n  offered: [swap apple from market]\n"
    )
    assert _failures(scenario)[0] == (
        "offered: 'swap apple from market' is no option of this game "
        "(did you mean 'swap apple pear from market'?)"
    )


def test_an_expected_value_the_table_does_not_show_is_named_so(tmp_path):
    """`expect.values` checks the named values the table shows: one not shown says how
    to show it, a mistyped label the labels meant, a wrong value both, a seat by name."""
    spec = ROOT / "tests" / "valid" / "top_colour.yaml"
    text = spec.read_text().replace("    shown: true\n  in_hand:", "  in_hand:")  # score unshown
    (tmp_path / "top_colour.yaml").write_text(text)
    scenario = tmp_path / "values.yaml"
    scenario.write_text(
        "spec: top_colour.yaml\nplayers: 2\nsteps: []\n"
        "expect:\n  values: {colour: blue, leader: P2, score: {P1: 0}, in_hnd: {P1: 1}}\n"
    )
    assert _failures(scenario) == [
        "value colour: expected blue, got red",
        "value leader: expected P2, got P1",
        "value score[P1]: 'score' is not shown at the table (give it shown: true)",
        "value in_hnd[P1]: no such value the table shows (did you mean 'in_hand[P1]'?)",
    ]
