"""`rulespec replay`: a log from `run --log` plays out the same; a changed log does not."""
import json

import pytest
from gamekit import GAMES, cli

TTG = GAMES / "take_the_gold.yaml"


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "game.jsonl"
    code, _, _ = cli("run", TTG, "--players", 3, "--seed", 7, "--games", 2, "--max-turns", 6,
                     "--log", path)
    assert code == 0
    return path


def edit(path, change):
    """Rewrite the first event line for which change(record) returns True."""
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        record = json.loads(line)
        if "event" in record and change(record):
            lines[i] = json.dumps(record)
            path.write_text("\n".join(lines) + "\n")
            return i + 1
    raise AssertionError("nothing to change")


def test_a_log_replays_the_same(log):
    code, out, _ = cli("replay", log)
    assert code == 0
    assert out.splitlines()[-1] == "2 of 2 game(s) replayed the same"
    assert out.startswith("game 1 (seed 7): the same as the log")


def test_another_choice_is_found(log):
    def change(e):
        if e["event"] == "choice" and e["kind"] == "play" and e["option"] != "pass":
            e["option"] = "pass"
            return True
    line = edit(log, change)
    code, out, _ = cli("replay", log, "--json")
    first, second = json.loads(out)
    assert code == 1 and not first["same"] and second["same"]
    # the log says pass; the replay passes too, so the next event is the first to differ
    assert first["difference"].startswith(f"line {line + 1}: logged")


def test_another_card_is_found(log):
    def change(e):
        if e["event"] == "move" and e["cards"] and e["turn"] > 0:
            e["cards"] = ["kraken"] * len(e["cards"])
            return True
    line = edit(log, change)
    code, out, _ = cli("replay", log)
    assert code == 1
    assert f"game 1 (seed 7): differs at line {line}: logged" in out


def test_an_illegal_logged_choice_is_found(log):
    line = edit(log, lambda e: e["event"] == "choice" and e.update(option="dance") is None)
    code, out, _ = cli("replay", log)
    assert code == 1 and f"line {line}: 'dance' is not a legal choice" in out


@pytest.mark.parametrize("text, message", [
    ("not json\n", "game.jsonl:1: not JSON"),
    ('{"event": "move"}\n', "an event before the first game header"),
    ('{"spec": "x.yaml"}\n', "a game header needs variants, players, seed, game"),
    ("", "no game in the log"),
])
def test_a_bad_log_is_a_usage_error(tmp_path, text, message):
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    code, out, err = cli("replay", path)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_missing_log_or_spec_is_a_usage_error(tmp_path):
    code, _, err = cli("replay", tmp_path / "nope.jsonl")
    assert code == 2 and "cannot read" in err
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps({"spec": "nope.yaml", "variants": [], "players": 2, "seed": 1, "game": 1}))
    code, _, err = cli("replay", path)
    assert code == 2 and "nope.yaml" in err and "Traceback" not in err
