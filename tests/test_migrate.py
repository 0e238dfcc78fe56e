"""`rulespec migrate` and the RS212 warning for names Language v2 reserved after
`rulespec: 1` was released. tests/valid-v1/ holds specs that validated then (checked by
hand against commit ff87898, the last before Language v2)."""

from __future__ import annotations

import subprocess

import pytest
from gamekit import ROOT, cli

from rulespec.interpreter import Game
from rulespec.interpreter.agents import make_agents, play
from rulespec.lang import builtins
from rulespec.lang.expressions import RESERVED, deprecated_names
from rulespec.lang.migrate import migrate
from rulespec.lang.pipeline import load_spec
from rulespec.table import files

V1 = ROOT / "tests" / "valid-v1" / "reserved_names.yaml"
CLASHES = {
    "range": "range_",
    "insert": "insert_",
    "prev": "prev_",
    "reveal": "reveal_",
    "round_index": "round_index_",
    "sit_out": "sit_out_",
    "set_next": "set_next_",
    "card_types": "card_types_",
}


def _reserved(module_text: str) -> set[str]:
    space: dict = {}
    exec(compile(module_text, "old_builtins", "exec"), space)
    return (
        space["KEYWORDS"]
        | set(space["CONSTANTS"])
        | set(space["FUNCTIONS"])
        | set(space["PROCEDURES"])
        | set(space["AGGREGATES"])
    )


def _reserved_at(commit: str) -> set[str]:
    old = subprocess.run(
        ["git", "show", f"{commit}:rulespec/lang/builtins.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if old.returncode != 0:
        pytest.skip(f"no git history of {commit} here")
    return _reserved(old.stdout)


def test_the_reserved_since_sets_are_the_new_reserved_less_the_old():
    """ff87898 is the first release; 8996f71 the last commit of Language v2, whose
    keyword list lacked the grammar's `simultaneously`, `chooses` and `by`."""
    assert RESERVED - _reserved_at("ff87898") == set(builtins.RESERVED_SINCE)
    assert RESERVED - _reserved_at("8996f71") == builtins.RESERVED_IN_V3


def test_a_v1_spec_still_validates_with_a_warning_at_each_clash():
    spec = load_spec(V1)
    assert deprecated_names(spec.notices) == set(CLASHES)
    assert {d.severity for d in spec.notices} == {"warning"}
    first = spec.notices[0]
    assert first.code == "RS212" and first.message == (
        "'insert' is a built-in name since Language v2 (a later release of the language, which reads `rulespec: 1` specs still); this spec's card hides the built-in "
        "(allowed, so that a spec written before then keeps working): rename it, or let "
        f"`rulespec migrate {V1}` rename it"
    )


def test_a_v1_spec_keeps_its_meaning_its_names_hide_the_built_ins():
    """The old form plays the game its migrated form plays, which is the game of a copy
    renamed by hand (below): no silent change of meaning."""
    old, migrated = load_spec(V1), load_spec(V1, text=migrate(str(V1)).new)
    assert migrated.notices == ()
    for seed in (1, 2, 3):
        assert _outcome(old, seed) == _outcome(migrated, seed)


def test_validate_and_lint_report_the_warnings_and_pass():
    declared = len(load_spec(V1).notices)  # sit_out is declared twice: an each and a local
    assert declared == len(CLASHES) + 1
    code, out, _ = cli("validate", V1)
    assert code == 0 and out.endswith(f"0 problem(s), {declared} warning(s)\n")
    assert out.count("warning RS212") == declared
    code, out, _ = cli("lint", V1, "--select", "RS212")
    assert out.count("warning RS212") == declared
    code, out, err = cli("run", V1, "--players", "3")
    assert code == 0 and err.count("warning RS212") == declared


def test_migrate_renames_every_clash_and_leaves_prose():
    m = migrate(str(V1))
    assert m.renames == CLASHES
    assert "title: Insert a range" in m.new  # prose keeps its words
    assert '"insert and reveal are card names here, range a counter"' in m.new
    assert "count(hand(sit_out_), prev_) >= range_" in m.new  # uses, in expressions
    assert "tags: [prev_]" in m.new and "card: reveal_" in m.new  # plain name values


def _outcome(spec, seed):
    state = Game(spec, 3).new_initial_state(seed=seed)
    play(state, make_agents(["random"] * 3, 3, seed))
    sizes = {z: len(cards) for z, cards in state.observation(None)["zones"].items()}
    return state.returns(), state.turn, state.length, state.reason, sizes


def test_migrated_spec_plays_the_game_of_a_hand_renamed_copy(tmp_path):
    text = V1.read_text(encoding="utf-8")
    by_hand = text
    for word in (
        "round_index",
        "card_types",
        "set_next",
        "sit_out",
        "insert",
        "reveal",
        "range",
        "prev",
    ):
        by_hand = by_hand.replace(f"{word}", f"my_{word}")  # the test's own copy, by hand
    by_hand = by_hand.replace("title: Insert a my_range", "title: Insert a range")
    hand_path = tmp_path / "by_hand.yaml"
    hand_path.write_text(by_hand, encoding="utf-8")
    migrated = load_spec(V1, text=migrate(str(V1)).new)
    renamed = load_spec(hand_path)
    for seed in (1, 2, 3):
        assert _outcome(migrated, seed) == _outcome(renamed, seed)


def test_migrate_prints_a_diff_and_exits_1_without_changing_the_file():
    before = V1.read_bytes()
    code, out, err = cli("migrate", V1)
    assert (code, err) == (1, "")
    assert "\n-    each: sit_out\n" in out and "\n+    each: sit_out_\n" in out
    assert V1.read_bytes() == before


def test_migrate_write_changes_the_file_and_the_result_validates(tmp_path):
    path = tmp_path / "old.yaml"
    path.write_text(V1.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = cli("migrate", path, "--write")
    assert code == 1 and out.startswith(f"{path}: renamed card_types -> card_types_")
    load_spec(path)
    assert cli("migrate", path) == (0, f"{path}: nothing to migrate\n", "")
    assert [p.name for p in tmp_path.iterdir()] == ["old.yaml"]  # no temporary left


def test_migrate_renames_a_name_a_variant_adds(tmp_path):
    """A variant declares its names under `add:`: migrate renamed their uses and not the
    declaration, and the result did not validate (RS201), so nothing was offered."""
    variant = tmp_path / "legacy.yaml"
    variant.write_text(
        f"rulespec: 1\nextends: {ROOT / 'games' / 'take_the_gold.yaml'}\nadd:\n"
        "  counters:\n    range: {initial: 0}\n  turn:\n    - step: tick\n"
        "      after: discard_down\n      effect: range += 1\n  end_conditions:\n"
        "    long_voyage:\n      when: range >= 40\n      effect: end_game()\n",
        encoding="utf-8",
    )
    code, out, _ = cli("migrate", variant, "--write")
    assert code == 1 and out.startswith(f"{variant}: renamed range -> range_")
    assert "    range_: {initial: 0}" in variant.read_text(encoding="utf-8")
    assert cli("validate", variant)[0] == 0


def test_migrate_write_leaves_the_file_whole_when_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "old.yaml"
    path.write_text(V1.read_text(encoding="utf-8"), encoding="utf-8")
    before = path.read_bytes()

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", failing_replace)
    code, _, err = cli("migrate", path, "--write")
    assert code == 2 and "No space left on device" in err
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["old.yaml"]


def test_migrate_has_nothing_to_do_for_the_seed_games():
    games = sorted((ROOT / "games").glob("*.yaml"))
    code, out, err = cli("migrate", *games)
    assert (code, err) == (0, "")
    assert out == "".join(f"{g}: nothing to migrate\n" for g in games)


def test_migrate_exits_2_for_a_spec_with_other_problems():
    broken = ROOT / "tests" / "broken" / "06_unknown_key_zone.yaml"
    code, out, err = cli("migrate", broken)
    assert code == 2 and out == "" and "error RS" in err


def test_migrate_exits_2_for_a_missing_file(tmp_path):
    code, _, err = cli("migrate", tmp_path / "none.yaml")
    assert code == 2 and "none.yaml" in err


def test_a_new_name_skips_names_the_spec_uses(tmp_path):
    path = tmp_path / "taken.yaml"
    path.write_text(
        V1.read_text(encoding="utf-8")
        .replace("hand: hand\n", "hand: range_\n")
        .replace("  hand: {per_player", "  range_: {per_player")
        .replace("hand(", "range_("),
        encoding="utf-8",
    )
    assert migrate(str(path)).renames["range"] == "range_2"


def test_a_counter_named_then_still_reads_as_the_counter(tmp_path):
    """`then` is a keyword only where an `if ... then` expects one, so a first-release
    spec's parameter named `then` keeps working (with RS212) and plays the same game."""
    original = (ROOT / "games" / "take_the_gold.yaml").read_text(encoding="utf-8")
    path = tmp_path / "then.yaml"
    path.write_text(original.replace("deal_size", "then"), encoding="utf-8")
    spec = load_spec(path)
    assert deprecated_names(spec.notices) == {"then"}
    ttg = load_spec(ROOT / "games" / "take_the_gold.yaml")
    for seed in (1, 2):
        assert _outcome(spec, seed) == _outcome(ttg, seed)


V2 = ROOT / "tests" / "valid-v2" / "reserved_names.yaml"
V3_CLASHES = {"by", "seats", "combinations", "sort", "nth", "first", "zone_of"}


def test_a_v2_spec_keeps_names_language_v3_reserved_with_a_warning_at_each():
    """tests/valid-v2/reserved_names.yaml validated without a warning at 8996f71, the
    last commit of Language v2; its procedure, parameter, condition and remembered cards
    (kinds v2 had) keep their names too."""
    spec = load_spec(V2)
    assert deprecated_names(spec.notices) == V3_CLASHES
    assert all("since Language v3" in d.message for d in spec.notices)


def test_migrate_renames_the_v3_clashes_and_the_game_is_the_same():
    m = migrate(str(V2))
    assert m.renames == {name: f"{name}_" for name in V3_CLASHES}
    old, migrated = load_spec(V2), load_spec(V2, text=m.new)
    assert migrated.notices == ()
    for seed in (1, 2, 3):
        assert _outcome(old, seed) == _outcome(migrated, seed)


def test_migrate_write_of_standard_input_is_a_usage_error(tmp_path, monkeypatch):
    """`-` has no file to change: --write once wrote a file named <stdin>."""
    from io import StringIO

    from rulespec.cli import main

    monkeypatch.chdir(tmp_path)
    err = StringIO()
    code = main(["migrate", "-", "--write"], StringIO(), err, StringIO("name: x\n"))
    assert code == 2 and "--write changes files, and standard input is none" in err.getvalue()
    assert list(tmp_path.iterdir()) == []
