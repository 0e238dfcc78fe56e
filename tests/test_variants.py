"""Variants (TTG-16, PW-14) from the command line and from Python: player ranges,
composition with --variant, and the variant errors RS601-RS603. Their rules are
tested by the scenarios in tests/scenarios/variants/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from gamekit import GAMES, cli

from rulespec.analysis import diff
from rulespec.lang import ir
from rulespec.lang.diagnostics import SpecError
from rulespec.lang.loading import load
from rulespec.lang.pipeline import load_spec
from rulespec.table.scenarios import collect

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
TTG = ROOT / "games" / "take_the_gold.yaml"
PW = ROOT / "games" / "pirates_wild.yaml"
VARIANTS = ROOT / "games" / "variants"
VARIANT_FILES = sorted(VARIANTS.glob("*/*.yaml"))
COMPOSED = TESTS / "composed" / "two_player_long_5.yaml"


def param(spec, name):
    return next(p.value for p in spec.params if p.name == name)


def action(spec, name):
    return next(a for a in spec.actions if a.name == name)


# --- every variant is tested ---------------------------------------------------------


def test_every_variant_has_at_least_two_scenarios_citing_its_ruling():
    """A variant's ruling is the one its file declares; its scenarios may sit under
    tests/scenarios/variants/ or beside its game's (tests/scenarios/whist/)."""
    scenarios = collect([TESTS / "scenarios"])
    uses: dict[Path, list] = {}
    for s in scenarios:
        data = load(s).data
        spec = (s.parent / data["spec"]).resolve()
        uses.setdefault(spec, []).append(data.get("rulings") or [])
    for variant in VARIANT_FILES + [COMPOSED]:
        (ruling,) = load(variant).data["rulings"]
        cited = [r for r in uses.get(variant.resolve(), []) if ruling in r]
        assert len(cited) >= 2, (
            f"{variant.relative_to(ROOT)}: {len(cited)} scenario(s) citing {ruling}"
        )


@pytest.mark.parametrize("path", VARIANT_FILES, ids=[p.stem for p in VARIANT_FILES])
def test_every_variant_validates_and_lints_clean(path):
    assert cli("validate", path)[0] == 0
    code, out, _ = cli("lint", path)
    assert (code, out) == (0, "1 spec(s) linted: 0 error(s), 0 warning(s), 0 note(s)\n")


# --- player ranges -------------------------------------------------------------------


def test_reverse_is_refused_for_two_players():
    code, out, err = cli("run", VARIANTS / "pirates_wild" / "reverse.yaml", "--players", "2")
    assert (code, out) == (2, "")
    assert err == "rulespec run: Pirates Wild (reverse) is for 3 to 4 players, not 2\n"
    # the same through --variant, and for simulate
    code, _, err = cli("simulate", PW, "--variant", "reverse", "--players", "2", "--games", "1")
    assert code == 2 and "is for 3 to 4 players, not 2" in err


def test_reverse_plays_with_three_players():
    code, out, err = cli("run", PW, "--variant", "reverse", "--players", "3", "--seed", "1")
    assert code == 0, err
    assert out.startswith("Pirates Wild (reverse): 3 players, seed 1, agents random\n")


def test_two_player_is_for_two_players_only():
    path = VARIANTS / "take_the_gold" / "two_player.yaml"
    for n in ("3", "4"):
        code, out, err = cli("run", path, "--players", n)
        assert (code, out) == (2, "")
        assert (
            err == f"rulespec run: Take the Gold (two_player) is for exactly 2 players, not {n}\n"
        )
    code, out, err = cli("run", path, "--seed", "4")
    assert code == 0, err
    assert out.startswith("Take the Gold (two_player): 2 players, seed 4")


# --- composition -------------------------------------------------------------------------


def test_two_player_and_long_5_compose():
    spec = load_spec(TTG, variants=["two_player", "long_5"])
    two = load_spec(VARIANTS / "take_the_gold" / "two_player.yaml")
    assert spec.name == "Take the Gold (two_player) (long_5)"
    assert (spec.min_players, spec.max_players, spec.default_players) == (2, 2, 2)
    assert param(spec, "kraken_limit") == 5
    assert diff.canon(action(spec, "kraken")) == diff.canon(action(two, "kraken"))
    # nothing else differs from the base
    assert [(c.kind, c.name, c.what) for c in diff.changes(load_spec(TTG), spec)] == [
        ("game", "players default", "changed"),
        ("game", "players max", "changed"),
        ("parameter", "kraken_limit", "changed"),
        ("action", "kraken", "changed"),
    ]


def test_composition_order_does_not_matter_for_independent_variants():
    a = load_spec(TTG, variants=["two_player", "long_5"])
    b = load_spec(TTG, variants=["long_5", "two_player"])
    assert diff.changes(a, b) == []


def test_a_later_variant_overrides_an_earlier_one():
    assert param(load_spec(TTG, variants=["long_4", "long_5"]), "kraken_limit") == 5
    assert param(load_spec(TTG, variants=["long_5", "long_4"]), "kraken_limit") == 4


def test_a_variant_of_a_variant_equals_the_composition():
    composed = load_spec(TTG, variants=["two_player", "long_5"])
    chained = load_spec(COMPOSED)
    assert diff.changes(composed, chained) == []


def test_composed_variants_run_from_the_command_line():
    code, out, err = cli(
        "run", TTG, "--variant", "two_player", "--variant", "long_5", "--seed", "3"
    )
    assert code == 0, err
    assert out.startswith("Take the Gold (two_player) (long_5): 2 players, seed 3")
    # a variant named by its file path works too
    code, out2, err = cli(
        "run",
        TTG,
        "--variant",
        VARIANTS / "take_the_gold" / "two_player.yaml",
        "--variant",
        "long_5",
        "--seed",
        "3",
    )
    assert (code, out2) == (0, out), err


def test_advanced_and_two_player_compose():
    spec = load_spec(TTG, variants=["advanced", "two_player"])
    assert [s.name for s in spec.turn] == ["coin_win", "draw", "play", "discard_down"]
    assert "coin_win" not in {t.name for t in spec.end_conditions}
    assert spec.max_players == 2


# --- errors ------------------------------------------------------------------------------


def test_unknown_variant_name_is_a_usage_error():
    code, out, err = cli("run", TTG, "--variant", "long_6")
    assert (code, out) == (2, "")
    assert err == (
        "rulespec run: no variant 'long_6' for " + str(TTG) + " (did you mean 'long_5'?)\n"
    )


def test_a_variant_of_another_game_is_rs603():
    code, _, err = cli("run", TTG, "--variant", VARIANTS / "pirates_wild" / "reverse.yaml")
    assert code == 2
    assert "error RS603: variant" in err and "not the spec being run" in err


def test_variant_errors_rs601_and_rs602(tmp_path):
    (tmp_path / "a.yaml").write_text("rulespec: 1\nextends: b.yaml\n")
    (tmp_path / "b.yaml").write_text("rulespec: 1\nextends: a.yaml\n")
    with pytest.raises(SpecError) as exc:
        load_spec(tmp_path / "a.yaml")
    assert [d.code for d in exc.value.diagnostics] == ["RS602"]

    bad = tmp_path / "bad.yaml"
    bad.write_text(
        f"rulespec: 1\nextends: {TTG}\nparameters:\n  kraken_limt: 4\n"
        "remove:\n  end_conditions: [coin_wim]\n  turn: [drw]\n"
        "add:\n  turn: [{step: extra, after: discard_dwn, effect: end_turn()}]\n"
    )
    with pytest.raises(SpecError) as exc:
        load_spec(bad)
    assert [(d.code, d.message, d.hint) for d in exc.value.diagnostics] == [
        (
            "RS601",
            "the base has no parameter 'kraken_limt' to override",
            "did you mean 'kraken_limit'?",
        ),
        ("RS601", "the base has no end condition 'coin_wim' to remove", "did you mean 'coin_win'?"),
        # a designer's misspelt step had no suggestion, though a misspelt parameter had
        ("RS601", "the base has no turn step 'drw' to remove", "did you mean 'draw'?"),
        (
            "RS601",
            "the base has no turn step 'discard_dwn' to place a step by",
            "did you mean 'discard_down'?",
        ),
    ]

    gone = tmp_path / "gone.yaml"  # a parameter removed as the rules reading it are
    gone.write_text(f"rulespec: 1\nextends: {TTG}\nremove:\n  parameters: [deal_size, dael]\n")
    with pytest.raises(SpecError) as exc:
        load_spec(gone)
    assert [(d.code, d.message) for d in exc.value.diagnostics] == [
        ("RS601", "the base has no parameter 'dael' to remove")
    ]
    gone.write_text(f"rulespec: 1\nextends: {TTG}\nremove:\n  parameters: [deal_size]\n")
    with pytest.raises(SpecError) as exc:  # the setup reads it still: said where, and why
        load_spec(gone)
    assert [(d.code, d.message, d.span.line, d.hint) for d in exc.value.diagnostics] == [
        (
            "RS201",
            "unknown name 'deal_size'",
            45,
            f"the variant removes it, at {gone}:4:16: remove or replace what names it too, "
            "or keep it",  # a Euchre designer was asked "did you mean 'march'?"
        )
    ]
    gone.write_text(  # set and removed: the setting would be lost without a word
        f"rulespec: 1\nextends: {TTG}\nparameters:\n  deal_size: 3\n"
        "remove:\n  parameters: [deal_size]\n"
    )
    with pytest.raises(SpecError) as exc:
        load_spec(gone)
    assert [(d.code, d.message) for d in exc.value.diagnostics] == [
        ("RS601", "the variant sets parameter 'deal_size' and removes it")
    ]

    # a copy of the game and two of its variants, and a variant that extends one
    spec, folder = tmp_path / "take_the_gold.yaml", tmp_path / "variants" / "take_the_gold"
    folder.mkdir(parents=True)
    spec.write_text(TTG.read_text())
    for name in ("long_5", "advanced"):
        (folder / f"{name}.yaml").write_text(
            (TTG.parent / "variants" / "take_the_gold" / f"{name}.yaml").read_text()
        )
    more = folder / "advanced_more.yaml"
    more.write_text("rulespec: 1\nextends: advanced.yaml\nparameters:\n  raid_take: 3\n")
    for variants, hint in [  # an Uno designer's was told of a clash with the base
        (
            ["long_5", str(folder / "long_5.yaml")],
            f"leave out --variant {folder / 'long_5.yaml'}: --variant long_5 applies it already",
        ),
        (  # a review: the hint named the flag to keep
            ["advanced_more", "advanced"],
            "leave out --variant advanced: --variant advanced_more applies it already; "
            "a variant applies the variants it extends",
        ),
        (
            ["advanced", "advanced_more"],
            "leave out --variant advanced: --variant advanced_more applies it too; "
            "a variant applies the variants it extends",
        ),
    ]:
        with pytest.raises(SpecError) as exc:
            load_spec(spec, variants=variants)
        said = [
            (d.code, d.message.endswith("is applied twice"), d.hint) for d in exc.value.diagnostics
        ]
        assert said == [("RS601", True, hint)], variants
    with pytest.raises(SpecError) as exc:  # the spec run is a variant of it already
        load_spec(more, variants=[str(folder / "advanced.yaml")])
    assert exc.value.diagnostics[0].hint == (
        f"the spec run applies it already: leave out --variant {folder / 'advanced.yaml'}"
    )

    missing = tmp_path / "missing.yaml"
    missing.write_text("rulespec: 1\nextends: nowhere.yaml\n")
    with pytest.raises(SpecError) as exc:
        load_spec(missing)
    assert [d.code for d in exc.value.diagnostics] == ["RS601"]


# --- once known bugs, now fixed: kept as plain tests -----------------------------------


def test_a_chained_variant_given_to_variant_means_the_same_as_the_file():
    # tests/composed/two_player_long_5.yaml extends two_player.yaml and sets kraken_limit 5
    by_option = load_spec(TTG, variants=[str(COMPOSED)])
    by_file = load_spec(COMPOSED)
    assert [(c.kind, c.name, c.what) for c in diff.changes(by_file, by_option)] == []


def test_findings_in_the_base_of_a_variant_have_normalized_paths(tmp_path):
    (tmp_path / "variants").mkdir()
    (tmp_path / "base.yaml").write_text(TTG.read_text())
    variant = tmp_path / "variants" / "long_6.yaml"
    variant.write_text("rulespec: 1\nextends: ../base.yaml\nparameters:\n  kraken_limit: 6\n")
    code, out, _ = cli("lint", variant, "--format", "sarif")
    assert code == 1
    uris = [
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.loads(out)["runs"][0]["results"]
        for loc in r["locations"]
    ]
    assert uris == [str(tmp_path / "base.yaml")]


# --- bad chains and bad bases: an error, never a hang or a traceback (issue 12) ---------


def _variant(folder: Path, name: str, body: str) -> Path:
    path = folder / "variants" / "base" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"rulespec: 1\n{body}")
    return path


@pytest.fixture
def base(tmp_path):
    path = tmp_path / "base.yaml"
    path.write_text((TESTS / "valid" / "coin_grab.yaml").read_text())
    return path


def test_a_variant_extending_itself_is_rs602_everywhere(base):
    """`validate` reported a circle; `run --variant` looped forever."""
    me = _variant(base.parent, "me", "extends: me.yaml\n")
    for argv in (
        ["validate", me],
        ["run", base, "--variant", "me"],
        ["lint", base, "--variant", "me"],
    ):
        code, out, err = cli(*argv)
        assert code in (1, 2) and "Traceback" not in out + err
        assert f"{me}:2:10: error RS602: this variant extends itself" in out + err


def test_a_circle_of_variants_is_rs602_naming_it(base):
    first = _variant(base.parent, "first", "extends: second.yaml\n")
    second = _variant(base.parent, "second", "extends: first.yaml\n")
    code, out, err = cli("run", base, "--variant", "first")
    assert code == 2 and "Traceback" not in out + err
    assert (
        f"{second}:2:10: error RS602: variants extend each other in a circle: "
        f"{first} -> {second} -> {first}"
    ) in err


def test_a_long_chain_of_variants_is_rs602(base):
    _variant(base.parent, "v0", "extends: ../../base.yaml\n")
    for i in range(1, 20):
        _variant(base.parent, f"v{i}", f"extends: v{i - 1}.yaml\n")
    assert load_spec(base.parent / "variants" / "base" / "v15.yaml")  # 16: the most
    with pytest.raises(SpecError) as exc:
        load_spec(base.parent / "variants" / "base" / "v19.yaml")
    assert [(d.code, d.message) for d in exc.value.diagnostics] == [
        ("RS602", "more than 16 variants extend one another")
    ]


@pytest.mark.parametrize("extends, got", [("3", "an integer"), ("", "nothing"), ("[a]", "a list")])
def test_extends_must_name_a_file(base, extends, got):
    """A number crashed `run --variant` with a TypeError."""
    path = _variant(base.parent, "odd", f"extends: {extends}\n")
    for argv in (["validate", path], ["run", base, "--variant", "odd"]):
        code, out, err = cli(*argv)
        assert code in (1, 2) and "Traceback" not in out + err
        assert f"error RS104: extends must be a string, got {got}" in out + err


@pytest.mark.parametrize(
    "old, new, where, message",
    [
        (
            "deck:\n  cards:\n    coin: {count: 12, tags: [treasure]}\n    thief: {count: 8}\n"
            "    guard: {count: 4}\n",
            "",
            "4:1",
            "RS103: missing required key 'deck'",
        ),
        (
            "turn:\n  - step: draw\n",
            "turn: draw\nsteps:\n  - step: draw\n",
            "32:7",
            "RS102: turn must be a list, got a string",
        ),
    ],
)
def test_a_variant_of_a_broken_base_reports_the_base(base, old, new, where, message):
    """KeyError and AttributeError when merging, before: the base is now checked first,
    and its problems are reported in its own file."""
    text = (TESTS / "valid" / "coin_grab.yaml").read_text()
    assert old in text
    base.write_text(text.replace(old, new, 1))
    bodies = {
        "cards": "cards: {coin: {count: 3}}\n",
        "steps": "remove: {turn: [draw]}\n",
        "params": "parameters: {deal_size: 3}\n",
    }
    for name, body in bodies.items():
        path = _variant(base.parent, name, "extends: ../../base.yaml\n" + body)
        for argv in (["validate", path], ["run", base, "--variant", name]):
            code, out, err = cli(*argv)
            assert code in (1, 2) and "Traceback" not in out + err, argv
            assert f"{base}:{where}: error {message}" in out + err, (argv, out + err)


@pytest.mark.parametrize(
    "body, message",
    [
        ("replace: {turn: {draw: 5}}", "replace.turn.draw must be a mapping, got an integer"),
        (
            "add: {turn: [{step: x, before: [draw]}]}",
            "add.turn.0.before must be a string, got a list",
        ),
        (  # not a dump of the step: where it goes, with the typo's fix
            "add: {turn: [{step: x, befor: draw, effect: end_turn()}]}",
            "add.turn.0 needs exactly one of 'before' or 'after' (did you mean 'before'?)",
        ),
    ],
)
def test_a_variant_of_the_wrong_shape_is_rs104(base, body, message):
    path = _variant(base.parent, "odd", f"extends: ../../base.yaml\n{body}\n")
    code, out, err = cli("validate", path)
    assert code == 1 and "Traceback" not in out + err
    assert f"error RS104: {message}" in out


def test_an_extends_no_file_can_be_named_is_rs601(tmp_path):
    """A lone surrogate (YAML's "\\ud800") cannot be encoded as a file name: it raised
    UnicodeEncodeError (found by the fuzz campaign)."""
    spec = tmp_path / "base.yaml"
    spec.write_text((ROOT / "games" / "take_the_gold.yaml").read_text())
    variant = tmp_path / "odd.yaml"
    variant.write_text('rulespec: 1\nextends: "\\ud800"\n')
    code, out, err = cli("validate", variant)
    assert code in (1, 2) and "Traceback" not in err + out
    assert (
        "error RS601: extends '\\ud800': not a name a file can have (UnicodeEncodeError)"
        in out + err
    )


def test_a_variant_may_change_a_card_count_of_a_base_with_totals(tmp_path):
    """The base's deck.totals check its own list; a variant cannot edit them, so a
    variant that changes a count is not held to them (it was RS405 in the base)."""
    (tmp_path / "base.yaml").write_text(PW.read_text())
    variant = tmp_path / "fewer_krakens.yaml"
    variant.write_text("rulespec: 1\nextends: base.yaml\ncards:\n  kraken: {count: 3}\n")
    spec = load_spec(variant)
    assert sum(k for _, k in spec.deck_for(4)) == 112
    assert dict(spec.deck_for(2))["kraken"] == 3
    # the base alone still checks its totals
    (tmp_path / "base.yaml").write_text(PW.read_text().replace('"3": 88', '"3": 89'))
    with pytest.raises(SpecError) as err:
        load_spec(tmp_path / "base.yaml")
    assert [d.code for d in err.value.diagnostics] == ["RS405"]


def test_a_variant_changes_a_cards_words_tags_and_props(tmp_path):
    """An analyst's variant took the raid from the captain, but could not change the
    card's text (RS101 'allowed: count'), so `help` still told of the raid. A card the
    base declares takes the variant's title, text and tags whole, and its props merged
    in; diff tells each change."""
    (tmp_path / "base.yaml").write_text(TTG.read_text())
    variant = tmp_path / "gentle.yaml"
    variant.write_text(
        "rulespec: 1\nextends: base.yaml\ncards:\n"
        '  pirate_captain: {title: Captain, text: "Stop the Kraken!"}\n'
        "  officer: {count: 6, tags: []}\n"
        "  gold_coin: {props: {worth: 2}}\n"
    )
    old, new = load_spec(tmp_path / "base.yaml"), load_spec(variant)
    cards = {c.name: c for c in new.cards}
    captain, was = cards["pirate_captain"], next(c for c in old.cards if c.name == "pirate_captain")
    assert (captain.title, captain.text, captain.count) == ("Captain", "Stop the Kraken!", 4)
    assert captain.text != was.text
    assert (cards["officer"].count, cards["officer"].tags) == (6, ())
    assert dict(cards["gold_coin"].props) == {"worth": 2}
    assert captain.span.file == str(variant) and captain.span.line == 4  # where it changed
    detail = {c.name: c.detail for c in diff.changes(old, new)}
    assert detail["officer"] == "count 8 -> 6; tags guard -> none"
    assert detail["pirate_captain"] == "title 'Pirate Captain' -> 'Captain'; text"
    assert detail["gold_coin"] == "props worth none -> 2"
    # a prop's bad name is the variant's to mend: placed there, not at the base's card
    variant.write_text(
        "rulespec: 1\nextends: base.yaml\ncards:\n  officer: {props: {Bad-Name: 1}}\n"
    )
    with pytest.raises(SpecError) as exc:
        load_spec(variant)
    [d] = exc.value.diagnostics
    assert (d.code, d.span.file, d.span.line) == ("RS104", str(variant), 4)


def test_a_built_card_takes_a_count_only_from_a_variant(tmp_path):
    """A built card's title, text and props are its family's template: a variant that
    gives one its own is told so at the key, not merged into a family it shares."""
    (tmp_path / "base.yaml").write_text((GAMES / "draft.yaml").read_text())
    variant = tmp_path / "v.yaml"
    variant.write_text(
        "rulespec: 1\nextends: base.yaml\ncards:\n  stone_2: {count: 4, text: Two}\n"
    )
    with pytest.raises(SpecError) as exc:
        load_spec(variant)
    [d] = exc.value.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("RS601", 4, 23)
    assert "built by a family" in d.message and "count only" in d.message


JESTER = """\
rulespec: 1
extends: base.yaml
name: With a Jester
add:
  cards:
    jester: {title: Jester, count: 2, tags: [fool], text: "Draw two cards."}
  actions:
    jest:
      card: jester
      to: discard_pile
      effect: move(top(draw_pile, 2), hand(current))
replace:
  turn:
    play:
      actions: [pirate, two_pirates, kraken, captain_raid, jest]
      optional: true
"""


def test_a_variant_adds_a_card_type_with_the_rules_that_play_it(tmp_path):
    """An expansion's new card: a designer's Love Letter 'Premium' could not add one
    (RS601 'the base has no card to change'); add: cards: takes a card as a spec's deck
    writes it, the base's totals unchecked, and its action plays it."""
    (tmp_path / "base.yaml").write_text(TTG.read_text())
    (tmp_path / "jester.yaml").write_text(JESTER)
    spec = load_spec(tmp_path / "jester.yaml")
    assert dict(spec.deck_for(4))["jester"] == 2 and sum(k for _, k in spec.deck_for(4)) == 54
    jester = next(c for c in spec.cards if c.name == "jester")
    assert (jester.title, jester.tags) == ("Jester", ("fool",))
    code, out, _ = cli("simulate", str(tmp_path / "jester.yaml"), "--games", "100")
    assert code == 0 and re.search(r"^    jest +\d+", out, re.M), out
    # a card the base has is changed under cards:, not added; a new one is not counted there
    (tmp_path / "bad.yaml").write_text(
        "rulespec: 1\nextends: base.yaml\nadd:\n  cards:\n    pirate: {count: 2}\n"
        "cards:\n  joker: {count: 1}\n"
    )
    with pytest.raises(SpecError) as exc:
        load_spec(tmp_path / "bad.yaml")
    assert [(d.code, d.message, d.hint, d.span.line) for d in exc.value.diagnostics] == [
        (
            "RS601",
            "the base has no card 'joker' to change",
            "a new card type goes under add: cards:, written as in the spec's deck",
            7,
        ),
        ("RS601", "the base already has card 'pirate'", "change its count under cards:", 5),
    ]


def test_a_variant_replaces_the_setup_or_the_rounds_whole(tmp_path):
    """A Skull designer could not write a variant of its rounds (`replace: {rounds: …}`
    was RS101, and a parameter had to be added to the base). The setup and the rounds
    are top-level keys of a variant, replaced whole; under `replace:` the hint says so."""
    base = ROOT / "tests" / "valid" / "high_card_rounds.yaml"
    (tmp_path / "base.yaml").write_text(base.read_text())
    rounds = yaml.safe_load(base.read_text())["rounds"]
    rounds["match_end"]["enough_points"]["when"] = "any(points(p) >= 1 for p in players)"
    variant = tmp_path / "one_round.yaml"
    variant.write_text(yaml.safe_dump({"rulespec": 1, "extends": "base.yaml", "rounds": rounds}))
    old, new = load_spec(tmp_path / "base.yaml"), load_spec(variant)
    assert ir.canon(new.rounds.match_end) != ir.canon(old.rounds.match_end)
    assert ir.canon(new.rounds.setup) == ir.canon(old.rounds.setup)
    code, out, _ = cli("diff", tmp_path / "base.yaml", variant)
    assert code == 0 and "match" in out and "enough_points" in out
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("rulespec: 1\nextends: base.yaml\nreplace:\n  rounds: {}\n")
    with pytest.raises(SpecError) as err:
        load_spec(wrong)
    assert "'rounds' goes at the top level: rounds: …" in err.value.render()


def test_a_variant_adds_a_parameter_for_the_rules_it_brings(tmp_path):
    """A Hearts designer's Omnibus variant could not add a parameter for its jack of
    diamonds (RS101) and wrote -10 in the rule. `add: {parameters: …}` adds one; a
    parameter the base has is set with `parameters:`, and naming it under `add:` says so."""
    (tmp_path / "base.yaml").write_text(TTG.read_text())
    bonus = tmp_path / "bonus.yaml"
    bonus.write_text(
        "rulespec: 1\nextends: base.yaml\nadd:\n  parameters:\n    bonus_draw: 1\n"
        "replace:\n  turn:\n    draw:\n      rulings: [TTG-4, TTG-15]\n"
        "      effect: move(top(draw_pile, 1 + bonus_draw), hand(current))\n"
    )
    spec = load_spec(bonus)
    assert dict((p.name, p.value) for p in spec.params)["bonus_draw"] == 1
    code, out, _ = cli("diff", tmp_path / "base.yaml", bonus)
    assert code == 0 and "added    parameter 'bonus_draw'" in out
    again = tmp_path / "again.yaml"
    again.write_text("rulespec: 1\nextends: base.yaml\nadd:\n  parameters:\n    hand_limit: 6\n")
    with pytest.raises(SpecError) as err:
        load_spec(again)
    assert [d.code for d in err.value.diagnostics] == ["RS601"]
    assert "set its value with parameters:" in err.value.render()


def test_a_variant_s_rounds_of_one_part_says_they_replace_the_base_s_whole(tmp_path):
    """6 nimmt!'s and Oh Hell's designers changed only the match end (or the scoring)
    and were told "missing required key 'setup' in rounds", twice, without why."""
    spec = tmp_path / "rounds.yaml"
    spec.write_text((TESTS / "valid" / "high_card_rounds.yaml").read_text())
    part = "rounds:\n  match_end:\n    three:\n      when: round_index >= 2\n      effect: end_game()\n"
    variant = _variant(tmp_path, "three", f"extends: ../../rounds.yaml\n{part}")
    with pytest.raises(SpecError) as exc:
        load_spec(variant)
    ((code, message, hint),) = [(d.code, d.message, d.hint) for d in exc.value.diagnostics]
    assert code == "RS103"
    assert message == (
        "a variant's rounds replaces the base's whole, and this one has no setup and no "
        "end_conditions"
    )
    assert "replace: {procedures:" in hint


def test_a_finding_a_variant_makes_at_the_base_s_line_says_whose_it_is(tmp_path):
    """A Go Fish designer linted the base and a variant together and read a finding at
    the base's line as the base's: it was the variant's. Linted alone, a spec's
    findings need no such word."""
    base = GAMES / "take_the_gold.yaml"
    sunk = tmp_path / "never_sunk.yaml"  # more successful Krakens than the deck holds
    sunk.write_text(f"rulespec: 1\nextends: {base}\nparameters:\n  kraken_limit: 9\n")
    out = cli("lint", base, sunk)[1]
    (line,) = [x for x in out.splitlines() if " RL105: " in x]
    assert line.startswith(f"{base}:") and f"(found linting {sunk})" in line
    assert " RL105: " in cli("lint", sunk)[1]
    assert "found linting" not in cli("lint", sunk)[1]


def test_a_variant_may_give_the_partnerships(tmp_path):
    """A Scopa designer's four-player variant could not declare teams (RS101), so the
    base had to, and played its two-player game as two lopsided sides."""
    valid = GAMES.parent / "tests" / "valid"
    swapped = tmp_path / "swapped.yaml"
    swapped.write_text(
        f"rulespec: 1\nextends: {valid / 'partners.yaml'}\nplayers: {{min: 4, max: 4}}\n"
        "teams:\n  first: [P1, P2]\n  second: [P3, P4]\n"
    )
    assert load_spec(swapped).teams_for(4) == ((0, 1), (2, 3))
    sides = tmp_path / "sides.yaml"  # a base without teams: its points go per team
    sides.write_text(
        f"rulespec: 1\nextends: {valid / 'two_plays.yaml'}\nplayers: {{min: 4, max: 4}}\n"
        "teams:\n  odd: [P1, P3]\n  even: [P2, P4]\n"
        "replace:\n  counters:\n    points: {per_team: true, initial: 0}\n"
    )
    code, out, _ = cli("run", sides, "--seed", "3")
    assert code == 0, out
    assert re.search(r"P1, P3 win|P2, P4 win|nobody wins", out.splitlines()[-1]), out


def test_a_variant_sets_a_parameter_in_its_long_form_and_keeps_its_title(tmp_path):
    """A Rummy designer's `win_score: {default: 300}` was RS103 ("missing required key
    'players'"), and once allowed it lost the base's title and text at the table."""
    base = TTG.read_text().replace(
        "  hand_limit: 5", '  hand_limit: {default: 5, title: Most cards held, text: "At most."}'
    )
    assert base != TTG.read_text()
    (tmp_path / "base.yaml").write_text(base)
    short = tmp_path / "short.yaml"
    short.write_text("rulespec: 1\nextends: base.yaml\nparameters:\n  hand_limit: {default: 4}\n")
    limit = next(p for p in load_spec(short).params if p.name == "hand_limit")
    assert (limit.value, limit.title, limit.text) == (4, "Most cards held", "At most.")
    short.write_text(
        "rulespec: 1\nextends: base.yaml\nparameters:\n  hand_limit: {default: 4, title: Four}\n"
    )
    limit = next(p for p in load_spec(short).params if p.name == "hand_limit")
    assert (limit.value, limit.title, limit.text) == (4, "Four", "At most.")
