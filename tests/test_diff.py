"""`rulespec diff OLD NEW`: cases as data, plus the outcome comparison (--simulate).

Each file in tests/diff/ is a pair of specs and what diff must say about them:

    description: the Kraken threshold is above the Kraken count
    old: {file: ../../games/take_the_gold.yaml}        # a spec or variant file, as is
    new:
      base: ../../games/take_the_gold.yaml             # a full spec, changed by exact
      replace:                                         # text replacements (each `old`
        - {old: "kraken_limit: 3 ", new: "kraken_limit: 6 "}   # must occur once)
    args: []                                           # more arguments for `rulespec diff`
    expect:
      changes:                                         # exactly these, in diff's order:
        - [parameter, kraken_limit, changed, "3 -> 6"] # [kind, name, what(, detail)]
      new_findings: [RL105]                            # codes, or {code, severity,
      fixed_findings: []                               #   message, line} to match
      exit: 1
      stderr: "..."                                    # a text standard error must hold

A side may also be `text: |` (a whole file, e.g. a variant): both sides are written to
one folder as old.yaml and new.yaml, so a NEW variant can say `extends: old.yaml`.
A `changes` entry of three items leaves the detail unchecked. `known_bug:` says why diff
does not give `expect` yet; the case is then a strict xfail, so it turns red as soon as
diff is fixed and the key must be removed.

The expectations are written by hand from the specs, never copied from diff's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from gamekit import cli

from rulespec.analysis import diff
from rulespec.lang.pipeline import load_spec

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
TTG = ROOT / "games" / "take_the_gold.yaml"
CASES = sorted((TESTS / "diff").glob("*.yaml"))
KEYS = {"description", "old", "new", "args", "expect", "known_bug"}
SIDE_KEYS = ({"file"}, {"base", "replace"}, {"base"}, {"text"})
EXPECT_KEYS = {"changes", "new_findings", "fixed_findings", "exit", "stderr", "lines"}


def load_case(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path.name}: a case is a mapping"
    assert not set(data) - KEYS, f"{path.name}: unknown keys {sorted(set(data) - KEYS)}"
    for key in ("description", "old", "new", "expect"):
        assert key in data, f"{path.name}: missing '{key}'"
    for side in ("old", "new"):
        assert set(data[side]) in SIDE_KEYS, (
            f"{path.name}: {side} needs file, base (+ replace) or text"
        )
    assert not set(data["expect"]) - EXPECT_KEYS, f"{path.name}: unknown expect keys"
    assert "exit" in data["expect"], f"{path.name}: expect needs 'exit'"
    return data


def materialize(case_path: Path, side: str, spec: dict, folder: Path) -> Path:
    if "file" in spec:
        path = (case_path.parent / spec["file"]).resolve()
        assert path.exists(), f"{case_path.name}: {side}: no such file {path}"
        return path
    out = folder / f"{side}.yaml"
    if "text" in spec:
        out.write_text(spec["text"], encoding="utf-8")
        return out
    text = (case_path.parent / spec["base"]).read_text(encoding="utf-8")
    for r in spec.get("replace") or ():
        n = text.count(r["old"])
        assert n == 1, f"{case_path.name}: {side}: {r['old']!r} occurs {n} times in the base"
        text = text.replace(r["old"], r["new"])
    out.write_text(text, encoding="utf-8")
    return out


def _finding_matches(want, got: dict) -> bool:
    if isinstance(want, str):
        return got["code"] == want
    return all(got[k] == v for k, v in want.items())


def check_findings(label, wants, gots) -> list[str]:
    codes = [g["code"] for g in gots]
    if len(wants) != len(gots):
        return [
            f"{label}: expected {len(wants)} finding(s), got {codes}: "
            + "; ".join(f"{g['code']} {g['message']}" for g in gots)
        ]
    return [
        f"{label}[{i}]: expected {w}, got {g['code']} {g['severity']} line {g['line']}: "
        f"{g['message']}"
        for i, (w, g) in enumerate(zip(wants, gots))
        if not _finding_matches(w, g)
    ]


def _case_params():
    for path in CASES:
        bug = yaml.safe_load(path.read_text(encoding="utf-8")).get("known_bug")
        marks = [pytest.mark.xfail(reason=bug, strict=True)] if bug else []
        yield pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("path", list(_case_params()))
def test_diff_case(path, tmp_path):
    case = load_case(path)
    old = materialize(path, "old", case["old"], tmp_path)
    new = materialize(path, "new", case["new"], tmp_path)
    code, out, err = cli("diff", old, new, "--json", *(case.get("args") or ()))
    want = case["expect"]
    problems = []
    if code != want["exit"]:
        problems.append(f"exit: expected {want['exit']}, got {code} ({err.strip()})")
    if "stderr" in want and want["stderr"] not in err:
        problems.append(f"stderr: expected to hold {want['stderr']!r}, got {err!r}")
    if want["exit"] == 2:
        assert out == "", "a tool error prints nothing on standard output"
    else:
        report = json.loads(out)
        got = [[c["kind"], c["name"], c["what"], c["detail"]] for c in report["changes"]]
        expected = want.get("changes") or []
        cut = [g[: len(e)] for g, e in zip(got, expected)]
        if len(got) != len(expected) or cut != [list(e) for e in expected]:
            problems.append(f"changes: expected {expected}, got {got}")
        if "lines" in want:  # where each change is in OLD and NEW (None: added, removed)
            lines = [
                [c[s] and int(c[s].rsplit(":", 2)[1]) for s in ("old", "new")]
                for c in report["changes"]
            ]
            if lines != want["lines"]:
                problems.append(f"lines of the changes: expected {want['lines']}, got {lines}")
        problems += check_findings(
            "new_findings", want.get("new_findings") or [], report["new_findings"]
        )
        problems += check_findings(
            "fixed_findings", want.get("fixed_findings") or [], report["fixed_findings"]
        )
        assert report["outcomes"] == []
    assert not problems, f"{path.name}: {case['description']}\n" + "\n".join(problems)


def test_there_are_enough_cases():
    assert len(CASES) >= 8
    stems = {p.stem for p in CASES}
    for needed in (
        "same_spec",
        "reformat_and_reorder",
        "parameter_change",
        "kraken_limit_above_supply",
        "card_count_change",
        "action_added",
        "action_removed",
        "action_changed",
        "end_condition_removed",
        "variant_fixes_a_finding",
        "variant_advanced",
    ):
        assert needed in stems


def test_text_output_of_a_variant_diff(monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = cli(
        "diff", "games/take_the_gold.yaml", "games/variants/take_the_gold/advanced.yaml"
    )
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "added    step 'coin_win'  (new games/variants/take_the_gold/advanced.yaml:14:7)",
        "removed  end condition 'coin_win'  (old games/take_the_gold.yaml:151:3)",
    ]
    code, out, _ = cli("diff", "games/take_the_gold.yaml", "games/take_the_gold.yaml")
    assert (code, out) == (0, "no semantic differences\n")


def test_changes_of_identical_specs_loaded_twice_are_empty():
    assert diff.changes(load_spec(TTG), load_spec(TTG)) == []


# --- outcomes: --simulate ----------------------------------------------------------


def _outcomes(old, new, *extra):
    return {row["what"]: row for row in _report(old, new, *extra)["outcomes"]}


def _report(old, new, *extra):
    code, out, err = cli("diff", old, new, "--json", "--simulate", "200", *extra)
    assert code == 0, err
    return json.loads(out)


def test_simulate_flags_a_clearly_longer_game(tmp_path):
    # 6 coins to win instead of 4: games are about half as long again (15 -> 23 turns
    # over 200 random 4-player games), far beyond chance (p ~ 1e-21)
    longer = tmp_path / "six_coins.yaml"
    longer.write_text(TTG.read_text().replace("coins_to_win: 4 ", "coins_to_win: 6 "))
    rows = _outcomes(TTG, longer)
    length = rows["mean length (turns)"]
    assert length["significant"] is True and length["p"] < 1e-6
    assert length["new"] > length["old"] + 3
    assert rows["end reason coin_win"]["significant"] is True
    assert rows["end reason coin_win"]["new"] < rows["end reason coin_win"]["old"]
    assert set(rows) == {
        "end reason coin_win",
        "end reason ship_destroyed",
        "P1 wins",
        "P2 wins",
        "P3 wins",
        "P4 wins",
        "1st to play wins",
        "2nd to play wins",
        "3rd to play wins",
        "4th to play wins",
        "mean length (turns)",
        "median length",
        "p95 length",
    }
    for row in rows.values():  # every tested quantity comes with its 95% intervals
        if row["p"] is not None:
            assert row["old_ci"][0] <= row["old"] <= row["old_ci"][1]
            assert row["new_ci"][0] <= row["new"] <= row["new_ci"][1]
    assert rows["p95 length"]["new"] > rows["p95 length"]["old"]


def test_simulate_long_5_against_the_base():
    # long_5 makes the ship rarely sink: the end reasons move far beyond chance
    # (p ~ 1e-9). Games get longer too, but by ~2 turns only (p ~ 0.003 at 4 players,
    # ~0.01 at 3): too close to ALPHA to pin down here, so only the direction is checked.
    rows = _outcomes(TTG, ROOT / "games/variants/take_the_gold/long_5.yaml")
    assert rows["end reason ship_destroyed"]["significant"] is True
    assert rows["end reason ship_destroyed"]["new"] < rows["end reason ship_destroyed"]["old"]
    assert rows["mean length (turns)"]["new"] > rows["mean length (turns)"]["old"]


def test_simulate_plays_both_sides_with_the_variant():
    # two_player on both sides: the games are two-player ones (the spec's default),
    # seat wins of P1 and P2 only, and the same games as two_player's own file plays
    long_5 = ROOT / "games/variants/take_the_gold/long_5.yaml"
    rows = _outcomes(TTG, long_5, "--variant", "two_player")
    assert [w for w in rows if w.endswith("wins")] == [
        "P1 wins",
        "P2 wins",
        "1st to play wins",
        "2nd to play wins",
    ]
    two = ROOT / "games/variants/take_the_gold/two_player.yaml"
    alone = _outcomes(two, two)
    assert {w: r["old"] for w, r in rows.items()} == {w: r["old"] for w, r in alone.items()}


def test_simulate_flags_nothing_for_identical_specs():
    report = _report(TTG, TTG)
    assert report["verdict"] == "no significant difference in 11 measures"
    rows = {row["what"]: row for row in report["outcomes"]}
    assert rows and not any(r["significant"] for r in rows.values())
    assert all(r["old"] == r["new"] and r["p"] in (1.0, None) for r in rows.values())


def test_simulate_names_its_tests_and_corrects_for_the_rows():
    long_5 = ROOT / "games/variants/take_the_gold/long_5.yaml"
    report = _report(TTG, long_5)
    tested = [r for r in report["outcomes"] if r["p"] is not None]
    facts = report["statistics"]
    assert len(tested) == facts["tested"] == 11  # 2 end reasons, 4 seats, 4 places, length
    assert {k: facts[k] for k in ("alpha", "correction", "tests", "power", "games")} == {
        "alpha": 0.01,
        "correction": "holm",
        "power": 0.8,
        "games": [200, 200],
        "tests": {"shares": "Fisher's exact test", "mean length": "Welch's t-test"},
    }
    # 200 games a side at 0.01/11 detect about (3.32 + 0.84) * sqrt(0.25 * 2 / 200) = 21 points
    # (Fleiss's p-bar term makes it 20.3)
    assert facts["detectable_at_half"] == pytest.approx(0.203, abs=0.005)
    assert {r["test"] for r in tested} == {"fisher", "welch_t"}
    smallest = min(tested, key=lambda r: r["p"])
    assert smallest["p_holm"] == pytest.approx(11 * smallest["p"])  # Holm's first step
    assert all(r["p_holm"] >= r["p"] and r["significant"] == (r["p_holm"] < 0.01) for r in tested)
    limit = load_spec(TTG).turn_limit
    for r in tested:  # every interval inside what the quantity can take
        low, high = (0, 1) if r["test"] == "fisher" else (1, limit)
        assert all(low <= x <= high for x in r["old_ci"] + r["new_ci"])
    _code, out, _err = cli("diff", TTG, long_5, "--simulate", "200")
    moved = [r["what"] for r in tested if r["significant"]]  # the verdict sums them up
    assert moved and report["verdict"] == (
        f"{len(moved)} of 11 measures differ significantly: {', '.join(moved)}"
    )
    assert out.splitlines()[-1] == f"verdict  {report['verdict']}"
    assert out.splitlines()[-3:-1] == [
        "tests    shares: Fisher's exact test; mean length: Welch's t-test; "
        "Holm's correction over 11 rows, SIGNIFICANT when holm < 0.01",
        f"power    200 and 200 games can detect a change of {100 * facts['detectable_at_half']:.1f} points "
        f"in a 50% share, a change of {facts['detectable_mean']} turns in the mean length "
        "(80% power, alpha 0.01/11)",
    ]


def test_simulate_needs_a_player_count_both_specs_allow():
    two = ROOT / "games/variants/take_the_gold/two_player.yaml"
    code, out, err = cli("diff", TTG, two, "--simulate", "10")
    assert (code, out) == (2, "")
    assert err == ("rulespec diff: Take the Gold (two_player) is for exactly 2 players, not 4\n")
    code, out, err = cli("diff", TTG, two, "--simulate", "10", "--players", "2", "--json")
    assert code == 0, err
    assert {r["what"] for r in json.loads(out)["outcomes"]} >= {"P1 wins", "P2 wins"}


def test_the_power_of_a_sample_of_games_all_as_long_is_said_in_words():
    """A designer's Oh Hell plays every game to the same length: the report said it
    could detect "a change of 0.0 turns in the mean length"."""
    from rulespec.cli import _outcome_lines

    tests = {
        "tests": {"shares": "Fisher's exact test", "mean length": "Welch's t-test"},
        "tested": 6,
        "alpha": 0.01,
        "power": 0.8,
        "games": [20, 20],
        "detectable_at_half": None,
        "detectable_mean": 0.0,
    }
    power = [line for line in _outcome_lines([], tests) if line.startswith("power")]
    assert power == [
        "power    20 and 20 games can detect no change in a 50% share, any change in the mean "
        "length, every game of OLD as long (80% power, alpha 0.01/6)"
    ]


def test_a_game_wide_value_changed_is_placed_at_its_key():
    """A Scopa designer's `players` change was placed at `rulespec: 1`, the spec's
    start, in both files: the player counts, the turn limit and the hand now have a
    place of their own, their key."""
    old = "rulespec: 1\nname: G\n\nplayers: {min: 2, max: 4}\nturn_limit: 50\n"
    rest = (Path(__file__).parent / "valid" / "match_or_draw.yaml").read_text()
    rest = rest.split("hand: hand\n", 1)[1].split("turn_limit: 200\n", 1)[1]
    new = old.replace("max: 4}", "max: 4, default: 3}").replace("50", "60")
    a = load_spec("a.yaml", old + "hand: hand\n" + rest)
    b = load_spec("b.yaml", new + "\n\nhand: hand\n" + rest)
    placed = {
        c.name: (c.old.line, c.old.col, c.new.line, c.new.col)
        for c in diff.changes(a, b)
        if c.kind == "game"
    }
    # a default left out is placed at `players`, the key above it
    assert placed == {"players default": (4, 1, 4, 27), "turn limit": (5, 1, 5, 1)}


def test_simulate_compares_teams_where_both_sides_have_them():
    """An analyst balancing Whist: diff --simulate gave a row for each seat, P1's the
    same as P3's, saying one fact twice and making Holm's bar higher. Sides both specs
    share get a row each instead."""
    whist = ROOT / "games/whist.yaml"
    report = _report(whist, ROOT / "games/variants/whist/seven_points.yaml")
    rows = [r["what"] for r in report["outcomes"]]
    wins = [w for w in rows if w.endswith(" wins") and not w.startswith("end reason")]
    assert wins == ["north_south wins", "east_west wins"]  # no turn order: rounds
    assert report["statistics"]["tested"] == len(report["outcomes"]) - 2


def test_simulate_compares_the_rounds_a_match_takes_where_both_play_rounds():
    """A Euchre designer's variant played to 5 points in place of 10: `simulate` showed
    the matches twice as short in deals, `diff --simulate` did not say it. Whist played
    to 7 takes more deals than to 5; Take the Gold has no rounds, and no such row."""
    whist = Path("games/whist.yaml")
    _, out, _ = cli(
        "diff", whist, "games/variants/whist/seven_points.yaml", "--simulate", "60", "--json"
    )
    rows = {r["what"]: r for r in json.loads(out)["outcomes"]}
    more = rows["mean rounds per match"]
    assert more["old"] < more["new"] and more["test"] == "welch_t"
    # how each deal ended: a Mille Bornes designer's shorter trip, made five times as
    # often, showed nowhere; every deal ends by one of whist's round end conditions
    ends = [r for what, r in rows.items() if what.startswith("round end ")]
    assert ends and all(r["test"] == "fisher" for r in ends)
    assert sum(r["old"] for r in ends) == pytest.approx(1) == sum(r["new"] for r in ends)
    _, out, _ = cli(
        "diff",
        "games/take_the_gold.yaml",
        "games/variants/take_the_gold/long_5.yaml",
        "--simulate",
        "60",
    )
    assert "rounds per match" not in out
