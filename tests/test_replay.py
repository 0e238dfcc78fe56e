"""`rulespec replay`: a log from `run --log` plays out the same; a changed log does not."""

import itertools
import json

import pytest
from gamekit import GAMES, cli

TTG = GAMES / "take_the_gold.yaml"


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "game.jsonl"
    code, _, _ = cli(
        "run", TTG, "--players", 3, "--seed", 7, "--games", 2, "--max-turns", 6, "--log", path
    )
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


def test_replay_as_a_seat_narrates_each_game_as_run_as_that_seat_does(log):
    """A player watches their game again: each game as `run --as P2` narrates it, no
    card P2 did not see; JSON gives the events P2 saw."""
    code, out, _ = cli("replay", log, "--as", "P2")
    ran = cli("run", TTG, "--players", 3, "--seed", 7, "--max-turns", 6, "--as", "P2")[1]
    assert code == 0 and out.startswith("== Game 1 (seed 7), as P2 saw it\n")
    assert ran.split("\n", 1)[1] in out  # the same narration after run's heading line
    assert "== Game 2 (seed 8), as P2 saw it" in out
    assert out.splitlines()[-1] == "2 of 2 game(s) replayed the same"
    code, out, _ = cli("replay", log, "--as", "P2", "--json")
    seen = json.loads(out)[0]["seen"]
    ran = json.loads(
        cli("run", TTG, "--players", 3, "--seed", 7, "--max-turns", 6, "--as", "P2", "--json")[1]
    )
    assert code == 0 and seen == ran["events"]
    code, out, err = cli("replay", log, "--as", "P4")  # refused before any game is replayed
    assert (code, out) == (
        2,
        "",
    ) and "'P4' is not a seat of a 3-player game (P1..P3), or all" in err


def test_another_choice_is_found(log):
    def change(e):
        if e["event"] == "choice" and e["kind"] == "play" and e["option"] != "pass":
            e["option"] = "pass"
            return True

    line = edit(log, change)
    code, out, _ = cli("replay", log, "--json")
    (first,) = json.loads(out)  # the replay stops at the first difference
    assert code == 1 and not first["same"]
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


def test_the_replay_stops_at_the_first_difference_and_reads_no_further(log):
    """Issue 24: the whole log was read and checked before any game was replayed, so a
    large log kept replay busy for minutes even when it differed at line 2; now the
    lines after the difference are never read (a line that is no JSON is not found)."""
    lines = log.read_text().splitlines()
    event = json.loads(lines[1])
    event["turn"] = 99
    log.write_text("\n".join([lines[0], json.dumps(event), "not json", *lines[2:]]) + "\n")
    code, out, err = cli("replay", log)
    assert (code, err) == (1, "")
    assert out == (
        f"game 1 (seed 7): differs at line 2: logged {json.dumps(event)}, replayed "
        f"{lines[1]}\n0 of 1 game(s) replayed the same (the replay stops at the first "
        "difference)\n"
    )


def test_a_logged_event_where_the_replay_waits_for_a_choice_is_a_difference(log):
    lines = log.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if json.loads(line).get("event") == "choice")
    moved = json.loads(lines[first - 1])  # the event before the first choice, logged again
    log.write_text("\n".join(lines[:first] + [json.dumps(moved)] + lines[first:]) + "\n")
    code, out, _ = cli("replay", log)
    player = json.loads(lines[first])["player"]
    assert (
        code == 1
        and (
            f"differs at line {first + 1}: logged {json.dumps(moved)}; the replay waits for a "
            f"choice by player {player}\n"
        )
        in out
    )


def test_a_game_cut_short_is_a_difference_at_its_last_line(log):
    """The replay goes on past the log's last event: named at that line (it said
    'differs at after the log's last event')."""
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:-3]) + "\n")
    code, out, _ = cli("replay", log)
    assert code == 1
    assert (
        f"differs at line {len(lines) - 3}: the log's game ends here, and the replay goes on with {lines[-3]}\n"
        in out
    )


def test_an_illegal_logged_choice_is_found(log):
    line = edit(log, lambda e: e["event"] == "choice" and e.update(option="dance") is None)
    code, out, _ = cli("replay", log)
    assert code == 1 and f"line {line}: 'dance' is not a legal choice" in out


HEADER = {"spec": "take_the_gold.yaml", "variants": [], "players": 3, "seed": 7, "game": 1}


@pytest.mark.parametrize(
    "text, where",
    [
        ("not json\n", ":1: error RS801: not JSON (Expecting value at column 1)"),
        (  # a log cut short (a President designer's lost where)
            '{"spec": "x.yaml", "seed": "ab',
            ":1: error RS801: not JSON (Unterminated string starting at column 28)",
        ),
        (  # a spec given for its log (a Love Letter designer's)
            "rulespec: 1\nname: A Game\n",
            ":1: error RS801: not JSON (Expecting value at column 1): this looks like YAML; replay "
            "reads a log written by `rulespec run --log LOG`",
        ),
        (  # a file that is no YAML either (a browser trial's /etc/passwd): no such hint
            "root:x:0:0:root:/root:/bin/bash\n",
            ":1: error RS801: not JSON (Expecting value at column 1)",
        ),
        ("[1, 2]\n", ":1: error RS801: a log line is a JSON object"),
        (
            "[" * 10_000 + "]" * 10_000 + "\n",
            ":1: error RS801: arrays and objects are nested more than 20 deep",
        ),
        (
            '{"seed": "' + "x" * 100_001 + '"}\n',
            ":1: error RS801: the line is longer than 100,000 bytes",
        ),
        (b"\xff\n".decode("latin-1"), ":1: error RS801: not UTF-8 (invalid start byte)"),
        (
            '{"event": "move"}\n',
            ":1: error RS803: an event before the first game header (write logs "
            "with rulespec run --log)",
        ),
        (
            '{"spec": "x.yaml"}\n',
            ":1: error RS802: a game header needs variants, players, seed, game",
        ),
        ("", ": error RS803: no game in the log"),
    ],
)
def test_a_bad_log_is_reported_at_its_line(tmp_path, text, where):
    path = tmp_path / "game.jsonl"
    path.write_bytes(text.encode("latin-1" if "\xff" in text else "utf-8"))
    code, _out, err = cli("replay", path)
    assert (code, err) == (2, f"{path}{where}\n")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"seed": [7]}, "seed must be an integer, not [7]"),
        ({"players": "3"}, 'players must be an integer, not "3"'),
        ({"players": 3.0}, "players must be an integer, not 3.0"),
        ({"spec": 5}, "spec must be a string, not 5"),
        ({"spec": ["take_the_gold.yaml"]}, 'spec must be a string, not ["take_the_gold.yaml"]'),
        ({"variants": 1}, "variants must be an array, not 1"),
        ({"variants": "abc"}, 'variants must be an array, not "abc"'),
        ({"game": -1}, "game: -1 is less than the minimum of 1"),
        ({"game": 1.5}, "game must be an integer, not 1.5"),
        ({"max_turns": []}, "max_turns must be an integer or null, not []"),
        ({"max_turns": 0}, "max_turns: 0 is less than the minimum of 1"),
        ({"spec": "x" * 5000 + ".yaml"}, "spec: '" + "x" * 199 + "…"),
        (
            {"colour": "red"},
            "a game header: Additional properties are not allowed ('colour' was unexpected)",
        ),
    ],
)
def test_a_header_is_checked_against_the_log_schema(log, change, message):
    lines = log.read_text().splitlines()
    lines[0] = json.dumps(json.loads(lines[0]) | change)
    log.write_text("\n".join(lines) + "\n")
    code, _out, err = cli("replay", log)
    assert (code, err) == (2, f"{log}:1: error RS802: {message}\n")


def test_a_choice_is_checked_against_the_log_schema(log):
    line = edit(log, lambda e: e["event"] == "choice" and e.update(option=["pass"]) is None)
    code, _, err = cli("replay", log)
    assert (code, err) == (
        2,
        f'{log}:{line}: error RS802: option must be a string, not ["pass"]\n',
    )


def test_the_games_of_a_match_follow_each_other(log):
    lines = log.read_text().splitlines()
    second = next(i for i, line in enumerate(lines) if i and "event" not in json.loads(line))
    for change, message in (
        (
            lambda h: h.update(game=3),
            "game 3 does not follow the game before; "
            "the games of a match are numbered 1, 2, 3, ...",
        ),
        (
            lambda h: h.update(players=2),
            "game 2 has another players than the game before it in its match",
        ),
    ):
        header = json.loads(lines[second])
        change(header)
        log.write_text(
            "\n".join(lines[:second] + [json.dumps(header)] + lines[second + 1 :]) + "\n"
        )
        code, _, err = cli("replay", log)
        assert (code, err) == (2, f"{log}:{second + 1}: error RS803: {message}\n")


def test_the_spec_is_found_next_to_the_log_wherever_replay_runs(log, tmp_path, monkeypatch):
    header = json.loads(log.read_text().splitlines()[0])
    assert (log.parent / header["spec"]).resolve() == TTG.resolve()
    monkeypatch.chdir(tmp_path.parent)
    assert cli("replay", log)[0] == 0


@pytest.mark.parametrize(
    "spec, message",
    [
        ("/etc/passwd", "'/etc/passwd' is not a YAML file (.yaml or .yml)"),
        ("nope.yaml", "'nope.yaml' is not a file (looked for {folder}/nope.yaml)"),
        (
            "x" * 300 + ".yaml",
            "'" + "x" * 300 + ".yaml' is not a file (looked for {folder}/" + "x" * 300 + ".yaml)",
        ),
    ],
)
def test_a_spec_that_is_no_yaml_file_is_refused_in_one_line(tmp_path, spec, message):
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(HEADER | {"spec": spec}) + "\n")
    code, _out, err = cli("replay", path)
    assert (code, err) == (2, f"{path}:1: error RS803: {message.format(folder=tmp_path)}\n")


def test_a_yaml_file_that_is_no_spec_shows_one_line(tmp_path):
    (tmp_path / "config.yaml").write_text("".join(f"secret_{i}: {i}\n" for i in range(20)))
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(HEADER | {"spec": "config.yaml"}) + "\n")
    code, _out, err = cli("replay", path)
    assert code == 2 and err.count("secret_") == 2, err  # the message and its line
    assert "does not look like a spec" in err


def test_a_missing_log_or_spec_is_a_usage_error(tmp_path):
    code, _, err = cli("replay", tmp_path / "nope.jsonl")
    assert (code, err) == (
        2,
        f"{tmp_path / 'nope.jsonl'}: error RS801: cannot read file: No such file or directory\n",
    )


def test_a_game_that_begins_without_chance_replays_the_same(tmp_path):
    """A game with no setup (or none that shuffles) logs its first turn as it is made,
    before any decision: the replay compared that event with nothing and reported a
    difference at line 2."""
    text = (GAMES.parent / "tests" / "valid" / "last_draw.yaml").read_text(encoding="utf-8")
    plain = tmp_path / "plain.yaml"  # the pile in deck order: nothing shuffled at all
    plain.write_text(
        text.replace("setup:\n  effect: shuffle(pile)\n", "").replace("      shuffle(pile)\n", "")
    )
    path = tmp_path / "game.jsonl"
    assert cli("run", plain, "--seed", 3, "--log", path)[0] == 0
    assert json.loads(path.read_text().splitlines()[1])["event"] == "round"  # no chance first
    code, out, _ = cli("replay", path)
    assert code == 0 and out.splitlines()[-1] == "1 of 1 game(s) replayed the same"


def test_a_log_saved_with_a_byte_order_mark_replays(log):
    """As a spec with one loads: an editor may save it so."""
    log.write_bytes(b"\xef\xbb\xbf" + log.read_bytes())
    code, out, _ = cli("replay", log)
    assert code == 0 and out.endswith("2 of 2 game(s) replayed the same\n")


def test_a_header_field_of_the_wrong_type_is_said_in_json_words(log):
    """It said `players: True is not of type 'integer'`, Python's spelling."""
    lines = log.read_text().splitlines()
    header = json.loads(lines[0]) | {"players": True}
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    code, _, err = cli("replay", log)
    assert code == 2 and f"{log}:1: error RS802: players must be an integer, not true" in err


def test_an_older_log_of_simultaneous_set_picks_replays_the_same_and_says_so(tmp_path):
    """Before 2026-12 a simultaneous pick of a set of cards logged its size (a seat asked
    later learned how many cards another took); such a log still replays, with a note."""
    from test_simultaneous import SETS

    spec, path = tmp_path / "sets.yaml", tmp_path / "game.jsonl"
    spec.write_text(SETS)
    assert cli("run", spec, "--seed", 1, "--log", path)[0] == 0
    line = edit(path, lambda r: r["event"] == "choice" and r.setdefault("count", 1) == 1)
    code, out, _ = cli("replay", path)  # a log of this format is read as it is
    assert code == 1 and f"differs at line {line}" in out
    lines = path.read_text().splitlines()  # an older rulespec's: no format in its header
    header = json.loads(lines[0])
    del header["log"]
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert line > 1
    code, out, _ = cli("replay", path)
    assert code == 0, out
    assert out.splitlines()[-1].startswith(
        "note: 1 event(s) logged as an older rulespec logged them"
    )
    edit(
        path, lambda r: r["event"] == "choice" and r.get("count") == 1 and r.update(count=2) is None
    )
    code, out, _ = cli("replay", path)  # a count that is not the set's: a difference
    assert code == 1 and "differs at line" in out


def test_a_log_before_forced_branches_replays_the_same_and_says_so(tmp_path):
    """Before log format 6 a `choose`'s only branch offered was logged as any choice,
    without `forced`: such a log replays the same, with a note; in a log of format 6
    the missing `forced` is a difference."""
    spec, path = GAMES.parent / "tests" / "valid" / "draw_or_pass.yaml", tmp_path / "game.jsonl"
    assert cli("run", spec, "--seed", 1, "--log", path)[0] == 0
    records = [json.loads(line) for line in path.read_text().splitlines()]
    forced = sum(r.pop("forced", False) for r in records)
    assert forced > 1 and records[0]["log"] == 6
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, _ = cli("replay", path)
    assert code == 1 and "differs at line" in out
    records[0]["log"] = 5
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, _ = cli("replay", path)
    assert code == 0, out
    assert out.splitlines()[-1].startswith(
        f"note: {forced} event(s) logged as an older rulespec logged them"
    )


def test_a_log_before_deck_order_moves_replays_with_cards_as_they_came(tmp_path):
    """A Take the Gold log of format 2 (at 7d13b56), whose Kraken discarded a hand in
    the order its cards came in: replayed so, the same, though a game now discards them
    in deck order (read as format 3, it differs at that move)."""
    log = GAMES.parent / "tests" / "logs" / "take_the_gold_7d13b56.jsonl"
    code, out, _ = cli("replay", log)
    assert code == 0 and out.splitlines()[-1] == "1 of 1 game(s) replayed the same"
    newer = tmp_path / "newer.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    header = lines[0].replace('"log": 2', '"log": 3').replace("../../games/", f"{GAMES}/")
    newer.write_text("\n".join([header, *lines[1:]]) + "\n", encoding="utf-8")
    code, out, _ = cli("replay", newer)
    assert code == 1 and '"cards": ["gold_coin", "gold_coin", "officer"]' in out


def test_a_log_before_deck_order_ties_replays_with_ties_as_the_cards_came(tmp_path):
    """A log of format 3 (at 0f9f681), whose players laid the best card of their hand
    with a sort that found two tied, in the order they came into the hand: replayed so,
    the same, though a sort now ties them in deck order (read as format 4, it differs)."""
    log = GAMES.parent / "tests" / "logs" / "best_given_0f9f681.jsonl"
    code, out, _ = cli("replay", log)
    assert code == 0 and out.splitlines()[-1] == "1 of 1 game(s) replayed the same"
    newer = tmp_path / "newer.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    spec = log.parent / "best_given.yaml"
    header = lines[0].replace('"log": 3', '"log": 4').replace('"best_given.yaml"', f'"{spec}"')
    newer.write_text("\n".join([header, *lines[1:]]) + "\n", encoding="utf-8")
    code, out, _ = cli("replay", newer)
    assert code == 1 and "differs at line" in out


@pytest.mark.parametrize(
    "log, older",
    [
        # an around step's `no_play` where a pass is now asked (climb, at main 9c24abf),
        # and its 7 passes, logged without their step
        ("climb_9c24abf.jsonl", 15),
        # a shuffle of a one-card pile, which is no shuffle (at main 9c24abf)
        ("one_card_refill_9c24abf.jsonl", 5),
        # five buys from a face-down reserve, logged without the card bought (at 34aa7a5)
        ("reserve_34aa7a5.jsonl", 5),
        # eight repeat steps ended unasked once only pass was left, now asked (at 5fbbf35)
        ("turn_taking_5fbbf35.jsonl", 8),
        # five secret picks of one card or two, each logged with its size (format 4)
        ("one_or_two_4eef06d.jsonl", 5),
        # the same, where the log goes on with a choice (or a pass) at the next step,
        # and where the next step's no_play follows (a review's, at f644d83)
        ("building_piles_f644d83.jsonl", 12),
        ("building_piles_ismcts_f644d83.jsonl", 9),  # a stash played at the next step
        ("melds_f644d83.jsonl", 2),
    ],
)
def test_a_log_an_older_rulespec_wrote_replays_the_same_and_says_so(log, older):
    """Logs written before the around step asked a player with nothing to play, and
    before a one-card shuffle went unlogged, replay the same (a review found both
    failing at their first such line), with a note of how many events were older."""
    code, out, _ = cli("replay", GAMES.parent / "tests" / "logs" / log)
    assert code == 0, out
    assert out.splitlines()[-2] == "1 of 1 game(s) replayed the same"
    assert out.splitlines()[-1].startswith(
        f"note: {older} event(s) logged as an older rulespec logged"
    )


def test_a_log_of_this_format_missing_an_asked_pass_is_a_difference(tmp_path):
    """A review deleted the pass a step offered again asks for (its choice and its pass)
    from a new log, and replay took the log for an older rulespec's and said it replayed
    the same: a log with this format's `log` is compared as it is."""
    spec = GAMES.parent / "tests" / "valid" / "building_piles.yaml"
    path = tmp_path / "game.jsonl"
    assert cli("run", spec, "--seed", 1, "--log", path)[0] == 0
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records[0]["log"] >= 2
    at = next(
        i
        for i, (r, after) in enumerate(itertools.pairwise(records))
        if r.get("event") == "choice" and r.get("option") == "pass" and after.get("step") == "build"
        and any(e.get("event") == "play" for e in records[max(0, i - 3) : i])
    )  # fmt: skip
    del records[at : at + 2]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, _ = cli("replay", path)
    assert code == 1 and f"differs at line {at + 1}" in out, out


def test_a_log_before_format_6_replays_without_where_a_picked_card_lay(tmp_path):
    """A play at a card some seat is not told of names the zone it lay in (`chosen_from`)
    from log format 6: a log of format 5 lacks it, and replays the same, with a note; a
    log of format 6 that lacks it differs."""
    spec = GAMES.parent / "tests" / "valid" / "vault.yaml"
    path = tmp_path / "game.jsonl"
    assert cli("run", spec, "--seed", 2, "--log", path)[0] == 0
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records[0]["log"] == 6
    placed = [r for r in records if "chosen_from" in r]
    assert placed and all(r["event"] == "play" for r in placed)
    for r in placed:
        del r["chosen_from"]
    for log, code, said in ((5, 0, f"note: {len(placed)} event(s)"), (6, 1, "differs at line")):
        records[0]["log"] = log
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        replayed, out, _ = cli("replay", path)
        assert replayed == code and said in out, out
