"""The bundled games by name (`rulespec run take_the_gold`), `rulespec games`, and the
starter spec of `rulespec new`."""

from __future__ import annotations

import json
import os

import pytest
from gamekit import GAMES, cli

from rulespec.lang.pipeline import load_spec


def test_games_lists_every_bundled_game_with_its_variants():
    code, out, err = cli("games", "--json")
    assert (code, err) == (0, "")
    rows = {row["name"]: row for row in json.loads(out)}
    assert sorted(rows) == sorted(p.stem for p in GAMES.glob("*.yaml"))
    for name, row in rows.items():
        spec = load_spec(GAMES / f"{name}.yaml")
        assert row["title"] == spec.name
        assert row["players"] == [spec.min_players, spec.max_players, spec.default_players]
        assert row["variants"] == sorted(p.stem for p in (GAMES / "variants" / name).glob("*.yaml"))


def test_games_as_text_names_each_game_and_its_variants():
    code, out, _ = cli("games")
    assert code == 0
    assert "take_the_gold" in out and "Take the Gold" in out and "two_player" in out


def test_a_bundled_game_by_name_is_the_same_game_as_its_file():
    by_name = cli("run", "take_the_gold", "--seed", 5, "--variant", "long_5", "--json")
    by_file = cli("run", GAMES / "take_the_gold.yaml", "--seed", 5, "--variant", "long_5", "--json")
    assert by_name[0] == 0 and by_name == by_file


@pytest.mark.parametrize("command", [["validate"], ["lint"], ["graph"], ["compile"], ["run"]])
def test_an_unknown_name_is_a_usage_error_that_lists_the_bundled_games(command):
    code, out, err = cli(*command, "no_such_game")
    assert code == 2 and out == ""
    assert f"rulespec {command[0]}: argument SPEC" in err and "no bundled game" in err
    assert "take_the_gold" in err


def test_a_name_too_long_for_a_file_is_a_usage_error():
    """Fuzz find (issue 24): a name of 300 letters made Path.exists raise (the name is too
    long for the system) out of main(), a traceback."""
    code, out, err = cli("validate", "x" * 300)
    assert code == 2 and out == "" and "no bundled game" in err


def test_a_file_in_the_working_folder_wins_over_a_bundled_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "take_the_gold").write_text("rulespec: 1\nname: mine\n")
    code, out, _ = cli("validate", "take_the_gold")
    assert code == 1 and "take_the_gold:" in out  # the local (broken) file, not the bundled game


def test_new_writes_a_starter_that_validates_plays_and_lints_clean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("new", "card_race")[0] == 0
    assert load_spec(tmp_path / "card_race.yaml").name == "Card Race"
    code, out, _ = cli("run", "card_race.yaml", "--seed", 1)
    assert code == 0 and "Game over after" in out
    code, out, _ = cli("lint", "card_race.yaml", "--explore")
    assert (code, out.splitlines()[-1]) == (
        0,
        "1 spec(s) linted: 0 error(s), 0 warning(s), 1 note(s)",
    )
    assert "info RL203: exploration stopped at its bounds" in out  # the one note
    code, out, _ = cli("lint", "card_race.yaml", "--simulate", 100, "--workers", 1)
    assert (code, out) == (0, "1 spec(s) linted: 0 error(s), 0 warning(s), 0 note(s)\n")


def test_new_never_overwrites_and_refuses_a_bad_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.yaml").write_text("keep me")
    code, _, err = cli("new", "mine")
    assert code == 2 and "mine.yaml exists already" in err
    assert (tmp_path / "mine.yaml").read_text() == "keep me"
    code, _, err = cli("new", "My Game")
    assert code == 2 and "not a game name" in err
    code, _, err = cli("new", "other", "--output", "")  # it wrote other.yaml
    assert (
        code == 2 and "--output needs a file name" in err and not (tmp_path / "other.yaml").exists()
    )
    code, _, err = cli("new", "other", "--output", tmp_path)
    assert code == 2 and f"{tmp_path} is a folder" in err
    assert sorted(os.listdir(tmp_path)) == ["mine.yaml"]


def test_new_writes_where_output_says(tmp_path):
    code, _out, _ = cli("new", "duel", "--output", tmp_path / "x.yaml")
    assert code == 0 and load_spec(tmp_path / "x.yaml").name == "Duel"
