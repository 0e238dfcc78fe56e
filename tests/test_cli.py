"""The CLI is a function: main(argv, stdout, stderr) -> exit code."""

import json
import re

import pytest
from gamekit import BOOM, GAMES, cli, edited

TTG = str(GAMES / "take_the_gold.yaml")
ROWS = str(GAMES.parent / "tests" / "valid" / "rows.yaml")


def test_run_narrates_a_whole_game():
    code, out, err = cli("run", TTG, "--seed", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Take the Gold: 4 players, seed 3, agents random"
    assert "Turn 1: " in out
    assert lines[-1].startswith("Game over after ")
    assert re.search(
        r'wins, by the end condition "(Coin win|Ship destroyed)"$|as the turn limit was reached$',
        lines[-1],
    )


def test_run_is_deterministic_and_seed_sensitive():
    assert cli("run", TTG, "--seed", "5")[1] == cli("run", TTG, "--seed", "5")[1]
    assert cli("run", TTG, "--seed", "5")[1] != cli("run", TTG, "--seed", "6")[1]


def test_run_json_and_log(tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, _ = cli(
        "run",
        TTG,
        "--players",
        "3",
        "--agents",
        "random,first,random",
        "--json",
        "--log",
        str(log),
        "--seed",
        "2",
    )
    assert code == 0
    data = json.loads(out)
    assert data["players"] == 3 and data["result"]["over"] is True
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[0]["seed"] == 2 and records[0]["result"] == data["result"]
    assert records[-1]["event"] == "end"
    assert len(records) - 1 == len(data["events"])


def test_a_game_a_rule_stops_is_logged_up_to_it_and_replays_to_it(tmp_path):
    """A Cheat trial's game stopped by RS701 (`run --json --log`) printed no JSON and
    wrote no log: it could be neither replayed nor reported. The log (and --json) holds
    the game up to the rule that failed, its result naming it; a replay stops there too,
    and says so; run still exits 2 with the error."""
    text = (GAMES.parent / "tests" / "valid" / "coin_grab.yaml").read_text()
    text = text.replace("steals: {initial: 0}", "steals: {initial: 2}").replace(
        "    effect: move(top(pile, 1), hand(current))\n",
        "    effect: |\n      move(top(pile, 1), hand(current))\n      steals = steals * steals\n",
    )
    spec, log = tmp_path / "grow.yaml", tmp_path / "grow.jsonl"
    spec.write_text(text)
    code, out, err = cli("run", spec, "--players", "2", "--json", "--log", log)
    line = text[: text.index("steals = steals * steals")].count("\n") + 1
    assert code == 2 and f"grow.yaml:{line}:7: error RS701: rule 'draw' failed here" in err
    header, *events = [json.loads(row) for row in log.read_text().splitlines()]
    stopped = header["result"]
    assert stopped["over"] is False and stopped["turns"] > 1
    assert stopped["error"] == {
        "code": "RS701",
        "rule": "draw",
        "line": line,
        "col": 7,
        "message": "rule 'draw' failed here (a product past the limit of ±10^18 (docs/limits.md))",
    }
    document = json.loads(out)  # the same game, as the seat-less --json shows it
    assert document["result"] == stopped and document["events"] == events
    code, out, err = cli("replay", log)
    assert (code, err) == (0, "")
    assert out.startswith(
        f"game 1 (seed 0): the same as the log, {len(events)} events, stopped at turn "
        f"{stopped['turns']} as it was, by error RS701 at line {line}, column 7: rule 'draw' "
        "failed here (a product past"
    )
    # a log that does not say so differs where the replay stops, with no traceback
    del header["result"]["error"]
    log.write_text("\n".join(json.dumps(row) for row in [header, *events]) + "\n")
    code, out, err = cli("replay", log)
    assert (code, err) == (1, "")
    assert (
        f"the log's game ends here, and the replay stopped on {spec}:{line}:7: error RS701" in out
    )


def test_a_match_a_rule_stops_prints_its_games_so_far_with_json(tmp_path):
    """`run --games N --json` printed nothing when a rule stopped the second game,
    though its log kept the first: it prints the games played, the stopped one with its
    error as the log's header has it, and still exits 2 with the diagnostic."""
    spec, log = tmp_path / "boom.yaml", tmp_path / "boom.jsonl"
    spec.write_text(edited(BOOM, ("900000000000000000 * 2", "900000000000000000 * game_index * 2")))
    argv = ("--agents", "first", "--max-turns", "2", "--games", "3", "--json", "--log", log)
    code, out, err = cli("run", spec, *argv)
    assert code == 2 and f"{spec}:16:18: error RS701: rule 'act' failed here" in err
    rows = [json.loads(row) for row in log.read_text().splitlines()]
    headers = [row for row in rows if "log" in row]  # a game's header names the log's format
    document = json.loads(out)
    assert [g["game"] for g in document["games"]] == [1, 2]  # the third was never played
    assert document["games"] == [
        h["result"] | {"game": h["game"], "seed": h["seed"]} for h in headers
    ]
    assert document["games"][1]["error"]["rule"] == "act"
    assert document["tally"] == {"P1": 0, "P2": 0}


HOARD = """\
rulespec: 1
name: Hoard
players: {min: 2, max: 2}
hand: hand
deck:
  cards:
    gem: {count: 4}
    rock: {count: 4}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
counters:
  t: {initial: 0}
setup:
  effect: |
    shuffle(pile)
    for p in players { move(top(pile, 3), hand(p)) }
turn:
  - step: go
    effect: |
      t += 1
      for i in range(count(hand(current), gem) * 30 + 10) { t += 0 }
end_conditions:
  done:
    when: t >= 2
    effect: win(seat(0))
"""


def test_a_seat_is_not_told_a_stopped_rules_message(tmp_path):
    """A review: `run --as P2 --json` and `replay --as P2` of a game a rule stopped gave
    the rule's message, "range(70) would give more than 64 numbers", which told P2 how
    many gems P1 holds. A seat's view keeps the error's code, rule and place; the
    message goes to standard error, and to a view of everything."""
    spec, log = tmp_path / "hoard.yaml", tmp_path / "hoard.jsonl"
    spec.write_text(HOARD)
    place = {"code": "RS701", "rule": "go", "line": 22, "col": 16}
    code, out, err = cli("run", spec, "--seed", "1", "--as", "P2", "--json", "--log", log)
    assert code == 2 and "range(70) would give more than 64 numbers" in err
    assert json.loads(out)["result"]["error"] == place
    code, out, _ = cli("run", spec, "--seed", "1", "--as", "P2", "--games", "2", "--json")
    assert code == 2 and json.loads(out)["games"][0]["error"] == place
    code, out, _ = cli("replay", log, "--as", "P2")
    assert code == 0 and "by error RS701 at line 22, column 16\n" in out and "range" not in out
    code, out, _ = cli("replay", log, "--as", "P2", "--json")
    assert code == 0 and json.loads(out)[0]["result"]["error"] == place
    for everything in ((), ("--as", "all")):
        code, out, _ = cli("replay", log, *everything, "--json")
        assert "range(70)" in json.loads(out)[0]["result"]["error"]["message"]


def test_run_as_a_seat_hides_other_hands():
    _code, out, _ = cli("run", TTG, "--as", "P2", "--seed", "1", "--json")
    events = json.loads(out)["events"]
    hidden = [
        e
        for e in events
        if e["event"] == "move" and e["dst"] == "hand[P1]" and e["src"] == "draw_pile"
    ]
    assert hidden and all(e["cards"] is None for e in hidden)
    mine = [
        e
        for e in events
        if e["event"] == "move" and e["dst"] == "hand[P2]" and e["src"] == "draw_pile"
    ]
    assert mine and all(e["cards"] for e in mine)


def test_max_turns_reports_turn_limit():
    _code, out, _ = cli("run", TTG, "--max-turns", "1", "--agents", "first", "--json")
    assert json.loads(out)["result"] == {
        "over": True,
        "winners": [],
        "reason": "turn_limit",
        "turns": 1,
    }


def test_usage_errors_exit_2_without_traceback():
    for argv in (
        ["run", TTG, "--players", "9"],
        ["run", TTG, "--players", "x"],
        ["run", TTG, "--agents", "clever"],
        ["run", TTG, "--agents", "random,first"],
        ["run", TTG, "--as", "P7"],
        ["run", "nope.yaml"],
        ["bogus"],
        [],
        ["diff", TTG, TTG, "--simulate", "-3"],
    ):
        code, out, err = cli(*argv)
        assert code == 2, argv
        assert "Traceback" not in out + err
        assert (out + err).strip(), argv


def test_validate_and_schema():
    assert cli("validate", TTG)[0] == 0
    code, out, _ = cli("schema")
    assert code == 0 and json.loads(out)["title"].startswith("rulespec")


def test_validate_tells_problems_in_file_order_and_a_base_s_once(tmp_path):
    """A 6 nimmt! designer: a schema's errors came in the order of their paths (an
    unknown key in `rounds` before the mistake a line above it), though cli.md promises
    file order; and `validate base.yaml variants/*.yaml` told the base's mistake once
    per variant, where lint tells it once."""
    base = tmp_path / "base.yaml"
    text = (GAMES / "take_the_gold.yaml").read_text()
    assert "\nturn:\n" in text
    stray = text.replace("\nturn:\n", "\nzz_stray: 1\nturn:\n")
    base.write_text(stray + "rounds:\n  end_conditions:\n  stray_key: 1\n")
    variants = [tmp_path / f"v{i}.yaml" for i in (1, 2)]
    for v in variants:
        v.write_text(f"rulespec: 1\nextends: {base.name}\n")
    alone = cli("validate", str(base))[1]
    code, out, _ = cli("validate", str(base), *map(str, variants))
    places = re.findall(rf"^{re.escape(str(base))}:(\d+):(\d+): error", out, re.M)
    assert code == 1 and len(places) >= 3, out
    assert places == sorted(places, key=lambda p: (int(p[0]), int(p[1]))), out
    assert out.replace("3 spec(s)", "1 spec(s)") == alone


def test_help_has_examples():
    code, out, err = cli("--help")
    assert code == 0 and "examples:" in out + err


def test_a_badly_typed_scenario_fails_with_its_place(tmp_path):
    scenario = tmp_path / "typed.yaml"
    scenario.write_text(f"spec: {TTG}\nplayers: two\nexpect: {{events: [foo]}}\n")
    code, out, err = cli("test", str(scenario))
    assert code == 1 and "Traceback" not in out + err
    assert f"{scenario}:2:10: error RS501: players must be an integer, got a string" in out
    assert f"{scenario}:3:19: error RS501: expect.events.0 must be a mapping, got a string" in out


def test_a_folder_of_no_scenario_says_so(tmp_path):
    """A Coup designer ran `rulespec test variants/`, a folder of variants only, and was
    told only "0 passed, 0 failed"."""
    (tmp_path / "quick.yaml").write_text(f"rulespec: 1\nextends: {TTG}\n")
    code, out, err = cli("test", tmp_path)
    assert (code, err) == (1, "")
    assert out == (
        f"no scenario file found in {tmp_path} (specs and variants, the files that "
        "declare `rulespec:`, are passed over)\n0 passed, 0 failed\n"
    )


def test_a_scenario_run_as_a_spec_says_to_test_it():
    """A Coup designer ran `rulespec run` on a scenario, and was told of unknown keys
    (did you mean 'rulespec'?)."""
    scenario = GAMES.parent / "tests/scenarios/hidden/hands_traded_alike_keep_what_each_gave.yaml"
    code, _out, err = cli("run", scenario)
    assert code == 2 and "Traceback" not in err
    assert (
        f"{scenario}:9:1: error RS101: unknown key 'spec' in the document (this looks "
        "like a rules scenario, which names its spec: run it with `rulespec test FILE`)"
    ) in err


@pytest.mark.parametrize(
    "table, said",
    [
        (
            "zones: {'hand[P1]': [gold_coins]}",
            "unknown card in hand[P1]: 'gold_coins' (did you mean 'gold_coin'?)",
        ),
        (
            "zones: {discard_pil: [kraken]}",
            "unknown zone: 'discard_pil' (did you mean 'discard_pile'?)",
        ),
        (  # a 6 nimmt! designer placed "10" for card_10, and was given every card's name
            "zones: {'hand[P1]': [Two Officers]}",
            "unknown card in hand[P1]: 'Two Officers' "
            "('Two Officers' is the title of two_officers: a scenario names cards)",
        ),
        (  # a 6 nimmt! designer's second card_10 was told at table:, not where it was
            "zones: {'hand[P1]': [kraken, kraken], 'hand[P2]': [kraken, kraken, kraken, kraken]}",
            "more 'kraken' cards placed than the deck holds (5 for 2 players)",
        ),
        (  # a Lost Cities designer was offered one of five discard piles
            "zones: {rows: [low]}",
            "unknown zone: 'rows' (did you mean one of row[0] to row[2]?)",
        ),
        (  # a President designer's counter per player was offered place[P4]
            "zones: {hand: [kraken]}",
            "unknown zone: 'hand' ('hand' is 2 zones: name one, hand[P1])",
        ),
        (  # a Crew designer's `rest:` among the zones was "must be a list", then, as
            # a list, an unknown zone
            "zones: {'hand[P1]': [kraken], rest: draw_pile}",
            "table.zones.rest must be a list, got a string "
            "('rest' goes directly under table, beside 'zones', not inside it)",
        ),
        (
            "zones: {'hand[P1]': [kraken], rest: [draw_pile]}",
            "unknown zone: 'rest' ('rest' goes directly under table, beside 'zones', not inside it)",
        ),
    ],
)
def test_a_scenario_table_naming_what_the_game_lacks_says_the_closest_name(tmp_path, table, said):
    scenario = tmp_path / "named.yaml"
    spec = ROWS if "rows" in table else TTG
    scenario.write_text(f"name: n\nspec: {spec}\nplayers: 2\ntable: {{{table}}}\nsteps: []\n")
    code, out, err = cli("test", str(scenario))
    assert code == 1 and "Traceback" not in out + err
    assert f"{scenario}:4:" in out and f"error RS501: {said}" in out, out  # at its place
    if "more" in said:  # the card one too many, the last kraken of the table
        column = len("table: {") + table.rindex("kraken") + 1
        assert f"{scenario}:4:{column}:" in out, out


def test_a_scenario_table_s_mistakes_are_all_told_at_once_in_file_order(tmp_path):
    """An Uno designer's table of five mistakes was told one a run, the fourth first."""
    scenario = tmp_path / "many.yaml"
    scenario.write_text(
        f"name: n\nspec: {TTG}\nplayers: 2\ntable:\n  current: P4\n"
        "  counters: {tiebrake: 1}\n  zones:\n    hand[P1]: [gold_coins]\n"
        "    discard_pil: [kraken]\nsteps: []\n"
    )
    code, out, _ = cli("test", str(scenario))
    assert code == 1
    told = re.findall(rf"{re.escape(str(scenario))}:(\d+):\d+: error RS501: (.*)", out)
    assert [(int(line), said.split(" (")[0]) for line, said in told] == [
        (5, "'P4' is not a seat of a 2-player game"),
        (6, "unknown counter: 'tiebrake'"),
        (8, "unknown card in hand[P1]: 'gold_coins'"),
        (9, "unknown zone: 'discard_pil'"),
    ]
