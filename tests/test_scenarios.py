"""Every rules scenario under tests/scenarios/ is one named pytest case (id = file stem)."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from gamekit import GAMES, ROOT

from rulespec.lang.diagnostics import SpecError
from rulespec.lang.loading import load
from rulespec.table.scenarios import collect, run

SCENARIOS = collect([Path(__file__).parent / "scenarios"])
SPEC = GAMES / "take_the_gold.yaml"

# Every ruling of the project's rulings document must be cited by some scenario.
REQUIRED = re.findall(r"^- ((?:C|TTG|PW)-\d+) ", (ROOT / "docs" / "rulings.md").read_text(), re.M)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    try:
        outcome = run(path)
    except SpecError as exc:
        pytest.fail(exc.render(), pytrace=False)
    assert outcome.passed, f"{path.name}: {outcome.name}\n" + "\n".join(
        f"  {f}" for f in outcome.failures)


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
    scenario.write_text(textwrap.dedent(f"""\
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
        """) + textwrap.dedent(rest))
    return scenario


def test_runner_reports_a_wrong_expectation(tmp_path):
    # An Officer blocks the Pirate, but the scenario wrongly expects the coin to be taken.
    scenario = _three_players(tmp_path, "deliberately wrong", "[kraken, pirate]", """\
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
        """)
    outcome = run(scenario)
    assert outcome.passed is False
    assert outcome.name == "deliberately wrong"
    assert outcome.failures == [
        "zone hand[P1]: expected ['gold_coin', 'kraken'], got ['kraken']",
        "zone discard_pile: expected ['pirate', 'officer'], got ['officer', 'pirate']",
        "counter successful_krakens: expected 1, got 0",
        "no event matching {'event': 'move', 'src': 'hand[P2]', 'dst': 'hand[P1]'}",
        "winners: expected ['P1'], got []",
    ]


def test_runner_reports_a_step_by_the_wrong_player(tmp_path):
    scenario = _three_players(tmp_path, "wrong actor", "[kraken]", """\
        steps:
          - P1: pirate -> P2
          - P3: no reaction
        """)
    outcome = run(scenario)
    assert outcome.passed is False
    assert outcome.failures == [
        "step 2: expected P3 to act, but P2 is to act (options: no reaction, officer_block)"]


def test_every_ruling_a_game_cites_is_in_the_rulings_document():
    cited = {r for p in GAMES.rglob("*.yaml") for r in re.findall(r"\b(?:C|TTG|PW)-\d+\b", p.read_text())}
    assert cited and sorted(cited - set(REQUIRED)) == []
