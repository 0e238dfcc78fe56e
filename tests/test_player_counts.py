"""A game for some player counts only (`players: {counts: [2, 4]}`): everything that
builds a game refuses the others, and everything that goes through every count goes
through those the game allows. The example spec is tests/valid/two_or_four.yaml."""

from pathlib import Path

import pytest
from gamekit import cli

from rulespec import load_spec
from rulespec.analysis import diff
from rulespec.analysis.explore import Bounds, explore
from rulespec.cli import _players_shown
from rulespec.interpreter import Game

SPEC = Path(__file__).parent / "valid" / "two_or_four.yaml"


def test_the_counts_are_the_game_s_and_said_so():
    spec = load_spec(SPEC)
    assert (spec.min_players, spec.max_players, spec.player_counts) == (2, 4, (2, 4))
    assert spec.player_range() == "2 or 4 players"
    assert _players_shown({"players": [2, 4, 4], "player_counts": [2, 4]}) == (
        "2 or 4 players, default 4"
    )


def test_a_count_between_is_refused_by_the_engine_and_every_command():
    with pytest.raises(ValueError, match="Two or Four is for 2 or 4 players, not 3"):
        Game(load_spec(SPEC), 3)
    for command in (["run"], ["simulate", "--games", "2"], ["lint", "--simulate", "2"]):
        code, _, err = cli(command[0], SPEC, *command[1:], "--players", "3")
        assert code == 2 and "is for 2 or 4 players, not 3" in err, command
    code, out, _ = cli("run", SPEC, "--players", "2", "--seed", "1")
    assert code == 0 and "P1" in out and "P3" not in out


def test_exploring_every_count_goes_through_those_the_game_allows():
    report = explore(load_spec(SPEC), Bounds(max_states=200, depth=3, seeds=(0,)))
    assert report.counts == (2, 4) and report.every_count


def test_a_count_skipped_between_min_and_max_is_a_change(tmp_path):
    every = tmp_path / "every.yaml"
    every.write_text(
        SPEC.read_text(encoding="utf-8").replace(
            "players: {counts: [2, 4], default: 4}", "players: {min: 2, max: 4, default: 4}"
        ),
        encoding="utf-8",
    )
    changes = [(c.name, c.detail) for c in diff.changes(load_spec(every), load_spec(SPEC))]
    assert ("player counts", "[2, 3, 4] -> [2, 4]") in changes
