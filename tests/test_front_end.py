"""Front-end limits that no small fixture file shows well."""

import os
import subprocess
import sys
import time
import tracemalloc

import pytest
from gamekit import ROOT, cli

from rulespec import SpecError, load_spec
from rulespec.lang import limits
from rulespec.lang.loading import load

BASE = (ROOT / "tests" / "valid" / "coin_grab.yaml").read_text()


def _with_trigger(condition):
    return BASE + f"\ntriggers:\n  deep:\n    when: {condition}\n    effect: end_game()\n"


def test_deeply_nested_expression_is_refused_not_crashed():
    with pytest.raises(SpecError) as exc:
        load_spec("deep.yaml", _with_trigger("not " * 3000 + "true"))
    assert [d.code for d in exc.value.diagnostics] == ["RS302"]


def test_nesting_up_to_the_limit_is_fine():
    spec = load_spec("deep.yaml", _with_trigger("not " * (limits.MAX_EXPR_DEPTH - 1) + "true"))
    assert spec.triggers[0].name == "deep"


def test_every_problem_of_a_file_is_reported_together():
    text = BASE.replace("rulespec: 1", "rulespec: 1\nbogus: 1\nalso_bogus: 2", 1)
    with pytest.raises(SpecError) as exc:
        load_spec("two.yaml", text)
    assert sorted(d.code for d in exc.value.diagnostics) == ["RS101", "RS101"]
    assert "did you mean" in exc.value.render() or "allowed:" in exc.value.render()


def test_turn_limit_defaults_to_2000():  # C-5
    assert load_spec(ROOT / "games" / "take_the_gold.yaml").turn_limit == 2000
    assert (
        load_spec(
            "x.yaml", BASE.replace("rulespec: 1", "rulespec: 1\nturn_limit: 30", 1)
        ).turn_limit
        == 30
    )


@pytest.mark.parametrize(
    "old, new, code",
    [
        # a local may not hide another: the check and the run would disagree on its type
        (
            "      let strength = 1\n",
            "      let strength = 1\n      if true { let strength = 2 }\n",
            "RS202",
        ),
        ("let strength = 1", "let move = 1", "RS202"),  # procedures are reserved
        ("    each: p\n", "    each: current\n", "RS202"),  # so are the constants
        ("for p in players", "for hand in players", "RS202"),
        (
            "shuffle(pile)\n",
            "shuffle(pile)\n    react(current)\n",
            "RS208",
        ),  # react outside an action
        ("effect: strength = 0", "effect: strength = 0\n    if: size(hand(chosen)) > 0", "RS201"),
    ],
)
def test_binding_mistakes_are_caught_at_load(old, new, code):
    assert old in BASE
    with pytest.raises(SpecError) as exc:
        load_spec("x.yaml", BASE.replace(old, new, 1))
    assert code in [d.code for d in exc.value.diagnostics], exc.value.render()


def test_diagnostics_come_in_file_order():
    text = BASE.replace("effect: strength = 0", "effect: strenth = 0").replace(
        "move(top(pile, 1), hand(current))", "move(top(pil, 1), hand(current))"
    )
    with pytest.raises(SpecError) as exc:
        load_spec("x.yaml", text)
    lines = [d.span.line for d in exc.value.diagnostics]
    assert lines == sorted(lines) and len(lines) == 2


# --- files: never block on a special file, never read more than the cap (issue 12) ----


def test_special_files_are_refused_without_reading(tmp_path):
    """A named pipe blocked forever and /dev/zero read until MemoryError; a variant
    extending one did the same. In a child process, so that a hang fails the test."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    variant = tmp_path / "variant.yaml"
    variant.write_text("rulespec: 1\nextends: pipe.yaml\n")
    paths = [variant, fifo, "/dev/zero", "/dev/urandom", tmp_path]
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from rulespec.cli import main; sys.exit(main(sys.argv[1:]))",
            "validate",
            *map(str, paths),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    for path, kind in [
        (fifo, "a named pipe"),
        ("/dev/zero", "a character device"),
        ("/dev/urandom", "a character device"),
        (tmp_path, "a directory"),
    ]:
        assert (
            f"{path}:1:1: error RS001: cannot read file: it is {kind}; a spec is a regular file"
        ) in done.stdout
    # told first through extends, the variant's, and not again for the pipe itself
    assert done.stdout.count(f"{fifo}:1:1: error RS001") == 1


def test_no_more_than_the_cap_is_read(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(50 * limits.MAX_BYTES)  # sparse: 50 MB that take no disk
    tracemalloc.start()
    with pytest.raises(SpecError) as exc:
        load(big)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [d.code for d in exc.value.diagnostics] == ["RS002"]
    assert peak < 3 * limits.MAX_BYTES


# --- alias bombs: refused while composing, before any data is built -----------------------


def test_aliases_of_a_long_text_are_refused_fast_and_small(tmp_path):
    """100 KB of aliases to a 50,000-character text took 18 s and 2 GB to refuse."""
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(
        "rulespec: 1\nname: &s "
        + "x" * 50_000
        + "\ndescription: ["
        + ", ".join(["*s"] * 16_000)
        + "]\n"
    )
    assert 100_000 < bomb.stat().st_size < limits.MAX_BYTES
    start = time.process_time()  # of this process: other work on the machine does not count
    with pytest.raises(SpecError) as exc:
        load(bomb)
    assert time.process_time() - start < 1
    assert [d.code for d in exc.value.diagnostics] == ["RS002"]
    assert "aliases expanded" in exc.value.render()
    tracemalloc.start()  # apart: tracing slows the loader down several times
    with pytest.raises(SpecError):
        load(bomb)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50_000_000


def test_aliases_within_the_limit_still_load():
    text = BASE.replace("name: Coin Grab", "name: &n Coin Grab\ndescription: *n", 1)
    assert load_spec("x.yaml", text).name == "Coin Grab"


# --- numbers and names -------------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new, code, needle",
    [
        # YAML's 2.0 is a float: JSON Schema's integer took it, and the game crashed
        ("coin: {count: 12", "coin: {count: 12.0", "RS102", "got a number with a decimal point"),
        ("max: 4,", "max: 4.0,", "RS102", "got a number with a decimal point"),
        ("deal_size: 2", "deal_size: 2.0", "RS102", "got a number with a decimal point"),
        (
            "steals: {initial: 0}",
            "steals: {initial: 0.0}",
            "RS102",
            "got a number with a decimal point",
        ),
        (
            "count(hand(p), coin) >= coins_to_win",
            "2.0",
            "RS102",
            "got a number with a decimal point",
        ),
        # Python's `$` matches before a final newline: the patterns are matched whole
        ("    coin: {count: 12", '    "coin\\n": {count: 12', "RS104", "'coin\\n'"),
        ("hand: hand\n", 'hand: "hand\\n"\n', "RS104", "'hand\\n'"),
        ("    each: p\n", '    each: "p\\n"\n', "RS104", "'p\\n'"),
        ("actions: [steal]", 'actions: ["steal\\n"]', "RS104", "'steal\\n'"),
        ("deck:\n", 'rulings: ["C-1\\n"]\ndeck:\n', "RS104", "'C-1\\n'"),
    ],
)
def test_numbers_and_names_that_only_look_right(old, new, code, needle):
    assert old in BASE
    with pytest.raises(SpecError) as exc:
        load_spec("x.yaml", BASE.replace(old, new, 1))
    assert [d.code for d in exc.value.diagnostics] == [code], exc.value.render()
    assert needle in exc.value.render()


# --- nesting: what validates at the limits also runs, lints, graphs and diffs ------------

E, B = limits.MAX_EXPR_DEPTH, limits.MAX_BLOCK_DEPTH


def _conditions(extra: int) -> dict[str, str]:
    """Conditions of exactly E levels (E + 1 with extra=1), one per way to nest."""
    n = E + extra
    return {
        "nots": "not " * (n - 1) + "true",
        "chain": " + ".join(["steals"] * (n - 1)) + " > 0",
        "ands": " and ".join(["true"] * n),
        "calls": "max(0, " * (n - 2) + "steals" + ")" * (n - 2) + " >= 0",
        "negs": "- " * (n - 2) + "1 < 5",
        "parens": "(" * (n - 2) + "steals" + " + 1)" * (n - 2) + " > 0",
        # over one player each: nested aggregates over players are bounded by their cost (RS413)
        "aggregates": "".join("sum(" for _ in range(n - 4))
        + "size(hand(p0))"
        + "".join(f" for p{i} in current)" for i in range(n - 4))
        + " >= 0",
    }


def _blocks(extra: int) -> dict[str, str]:
    """Effects of exactly B nested blocks (B + 1 with extra=1), one per way to nest."""
    n = B + extra
    return {
        "ifs": "if true { " * n + "steals += 1" + " }" * n,
        "whiles": "while false { " * n + "steals += 1" + " }" * n,
        "else_ifs": "if false { steals += 1 }" + " else if false { steals += 1 }" * (n - 1),
        "chooses": "".join(f'choose(current) {{ "a{i}" {{ ' for i in range(n))
        + "steals += 1"
        + " } }" * n,
        # over one player each: nested loops over players are bounded by their passes (RS410)
        "fors": "".join(f"for q{i} in current {{ " for i in range(n)) + "end_turn()" + " }" * n,
        "mixed": "".join(
            [
                f"for m{i} in players {{ ",
                "if true { ",
                "while false { ",
                f'choose(current) {{ "x{i}" {{ ',
            ][i % 4]
            for i in range(n)
        )
        + "steals += "
        + " + ".join(["1"] * (E - 2))
        + "".join([" }", " }", " }", " } }"][i % 4] for i in reversed(range(n))),
    }


def _at_the_limits() -> str:
    blocks = _blocks(0)
    fors = blocks.pop("fors")  # one path of them runs: end_turn() leaves at the first
    text = BASE.replace(
        "    effect: move(top(pile, 1), hand(current))\n",
        "    effect: |\n      move(top(pile, 1), hand(current))\n      " + fors + "\n",
    )
    text = text.replace(
        "    for p in players { move(top(pile, deal_size), hand(p)) }\n",
        "    for p in players { move(top(pile, deal_size), hand(p)) }\n"
        + "".join(f"    {b}\n" for b in blocks.values()),
    )
    return (
        text
        + "\ntriggers:\n"
        + "".join(
            f"  t_{k}:\n    when: '{c}'\n    effect: steals += 1\n"
            for k, c in _conditions(0).items()
        )
    )


def test_what_validates_at_the_nesting_limits_also_runs(tmp_path):
    """not x500, if x260 and + x1,000 validated, then crashed run, lint, graph and diff
    with RecursionError; now the limits are checked, and at the limits all work."""
    spec = tmp_path / "deep.yaml"
    spec.write_text(_at_the_limits())
    assert cli("validate", spec)[0] == 0
    for argv in (
        ["run", spec, "--seed", "1", "--players", "3"],
        ["lint", spec],
        ["graph", spec],
        ["diff", ROOT / "tests" / "valid" / "coin_grab.yaml", spec],
    ):
        code, out, err = cli(*argv)
        assert code in (0, 1) and "Traceback" not in out + err, (argv, err)


@pytest.mark.parametrize("kind", list(_conditions(1)))
def test_one_level_past_the_expression_limit_is_rs302(kind):
    with pytest.raises(SpecError) as exc:
        load_spec("deep.yaml", _with_trigger(f"'{_conditions(1)[kind]}'"))
    assert [d.code for d in exc.value.diagnostics] == ["RS302"], exc.value.render()


@pytest.mark.parametrize("kind", list(_blocks(1)))
def test_one_block_past_the_block_limit_is_rs303(kind):
    text = BASE.replace(
        "    for p in players { move(top(pile, deal_size), hand(p)) }\n",
        f"    {_blocks(1)[kind]}\n",
    )
    with pytest.raises(SpecError) as exc:
        load_spec("deep.yaml", text)
    assert [d.code for d in exc.value.diagnostics] == ["RS303"], exc.value.render()


def test_a_long_flat_chain_is_refused_not_crashed():
    with pytest.raises(SpecError) as exc:
        load_spec("deep.yaml", _with_trigger(" + ".join(["1"] * 1000) + " > 0"))
    assert [d.code for d in exc.value.diagnostics] == ["RS302"]


# --- the game's own limits -----------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new, code",
    [
        ("hand: hand\n", f"hand: hand\nturn_limit: {limits.MAX_TURN_LIMIT}\n", None),
        ("hand: hand\n", f"hand: hand\nturn_limit: {limits.MAX_TURN_LIMIT + 1}\n", "RS409"),
        ("hand: hand\n", "hand: hand\nturn_limit: unbounded\n", "RS102"),
        ("max: 4, default: 3", f"max: {limits.MAX_PLAYERS}, default: {limits.MAX_PLAYERS}", None),
        ("max: 4, default: 3", f"max: {limits.MAX_PLAYERS + 1}, default: 3", "RS408"),
        ("coin: {count: 12", f"coin: {{count: {limits.MAX_CARDS - 12}", None),
        ("coin: {count: 12", f"coin: {{count: {limits.MAX_CARDS - 11}", "RS407"),
        ("coin: {count: 12", f"coin: {{count: {'9' * limits.MAX_DIGITS}", "RS407"),
        ("coin: {count: 12", f"coin: {{count: {'9' * (limits.MAX_DIGITS + 1)}", "RS304"),
    ],
)
def test_game_limits(old, new, code):
    assert old in BASE
    text = BASE.replace(old, new, 1)
    if code is None:
        load_spec("x.yaml", text)
        return
    with pytest.raises(SpecError) as exc:
        load_spec("x.yaml", text)
    assert [d.code for d in exc.value.diagnostics] == [code], exc.value.render()


def test_a_game_at_the_size_limits_runs():
    text = BASE.replace(
        "max: 4, default: 3", f"max: {limits.MAX_PLAYERS}, default: {limits.MAX_PLAYERS}"
    )
    text = text.replace("coin: {count: 12", f"coin: {{count: {limits.MAX_CARDS - 12}")
    from rulespec.interpreter import Game

    game = Game(load_spec("x.yaml", text), limits.MAX_PLAYERS).new_initial_state(
        seed=1, turn_limit=5
    )
    while not game.is_terminal():
        if game.is_chance_node():
            game.sample_chance()
            continue
        game.apply_action(game.legal_actions()[0])


def test_docs_list_every_limit():
    """docs/limits.md gives each limit of rulespec/lang/limits.py with its value."""
    doc = (ROOT / "docs" / "limits.md").read_text()
    for name in dir(limits):
        if name.startswith("MAX_"):
            assert f"`{name}`" in doc, name
            assert f"{getattr(limits, name):,}" in doc, name


def test_a_file_that_is_not_utf8_is_placed_at_its_first_bad_byte(tmp_path):
    """RS001 once named 1:1 whatever the line: the place is the first byte that is not
    UTF-8 (columns counted in characters, as everywhere)."""
    spec = tmp_path / "bad.yaml"
    spec.write_bytes("rulespec: 1\nname: é\ntitle: x\xff\n".encode().replace(b"\xc3\xbf", b"\xff"))
    code, out, _ = cli("validate", str(spec))
    assert code == 1
    assert f"{spec}:3:9: error RS001: file is not UTF-8 (invalid start byte, byte 0xff)" in out


def test_lint_of_a_file_that_is_not_utf8_is_a_tool_error(tmp_path):
    """As lint.md says of RS001: exit 2, the diagnostic on standard error."""
    spec = tmp_path / "bad.yaml"
    spec.write_bytes(b"rulespec: 1\nname: \xff\n")
    code, out, err = cli("lint", str(spec))
    assert (code, out) == (2, "") and f"{spec}:2:7: error RS001: file is not UTF-8" in err


def test_a_diagnostic_stays_on_one_line_whatever_its_file_is_named(tmp_path):
    """A newline in a spec's file name split its diagnostic over two lines."""
    spec = tmp_path / "a\nb.yaml"
    spec.write_text("rulespec: 1\nname: [x\n", encoding="utf-8")
    code, out, _ = cli("validate", str(spec))
    assert code == 1 and f"{tmp_path}/a\\x0ab.yaml:2:7: error RS003" in out


@pytest.mark.parametrize(
    "text, place, message",
    [
        # old Mac line breaks: YAML counts \r as a line break, as the hints must
        ("a: 1\rb: |\r  x\r y\r", (4, 2), "indented less than the first line of its block"),
        ("a: 1\x85b: |\x85  x\x85 y\x85", (4, 2), "indented less than the first line of its block"),
        # a comment above a key out of line is no value ended by a comment
        (
            "rulespec: 1\nzones:\n  hand: {a: 1}\n  # the discard pile\n discard: {b: 2}\n",
            (5, 2),
            "indented to a column no key or item above it starts at",
        ),
        # a flow list going on over lines after a ',' is no bracket left open
        ("a: {b: 1,\n  c: 2 d: 3}\n", (2, 9), "expected ',' or '}', but got ':'"),
        ("a: {b: 1,   # a '}' after a ','\n  c: 2 d: 3}\n", (2, 9), "but got ':'"),
        # a comment's own { } closes nothing of the line's (a review): the ',' is missing
        ("a: {b: 1  # see {zones}\n  c: 2}\n", (1, 4), "this '{' is not closed on its line"),
    ],
)
def test_the_yaml_hints_read_lines_as_yaml_does_and_claim_only_their_mistakes(text, place, message):
    """A review found the hints for mistakes in rules' values crashing on \\r line
    breaks, and saying "a comment ended the value above" of a key out of line."""
    with pytest.raises(SpecError) as exc:
        load("s.yaml", text)
    [d] = exc.value.diagnostics
    assert (d.code, (d.span.line, d.span.col)) == ("RS003", place) and message in d.message


def test_a_tab_that_indents_is_told_to_be_spaces():
    """An Uno designer's tab was told only that it cannot start any token."""
    with pytest.raises(SpecError) as exc:
        load("s.yaml", "rulespec: 1\nname: X\n\tplayers: 2\n")
    [d] = exc.value.diagnostics
    assert (d.code, d.hint) == ("RS003", "YAML indents with spaces: replace the tab with spaces")


def test_a_to_on_an_action_that_plays_no_card_is_warned_of():
    """A reviewer of the lint's `to:` reads: a `to:` on an action without `card:` was
    taken without a word, and never worked out (the chosen card stays where it lies):
    a designer who meant it to say where the card goes lost the move."""
    market = (ROOT / "tests/valid/market.yaml").read_text(encoding="utf-8")
    text = market.replace(
        "    among: market\n    if: size(deck) > 0\n",
        "    among: market\n    to: hand(current)\n    if: size(deck) > 0\n",
        1,
    )
    assert text != market
    notices = load_spec("market.yaml", text).notices
    assert [(d.code, d.severity, d.span.line) for d in notices] == [("RS217", "warning", 36)]
    assert load_spec("market.yaml", market).notices == ()


@pytest.mark.parametrize("command", ["validate", "run", "simulate", "graph", "lint"])
def test_a_warning_silenced_on_its_line_is_silent_in_every_command(tmp_path, command):
    """A Bridge designer's `# rulespec: ignore[RS213]` silenced the warning in lint, but
    validate, run, simulate, play and graph printed it every time."""
    market = (ROOT / "tests/valid/market.yaml").read_text(encoding="utf-8")
    to = "    among: market\n    to: hand(current)   # rulespec: ignore[{}]\n    if: size(deck) > 0\n"
    for code, told in (("RS217", False), ("RS215", True)):  # another code's: not silenced
        spec = tmp_path / f"market_{code}.yaml"
        spec.write_text(
            market.replace("    among: market\n    if: size(deck) > 0\n", to.format(code))
        )
        extra = {"run": ["--seed", "1"], "simulate": ["--games", "2"]}.get(command, [])
        status, out, err = cli(command, spec, *extra)
        assert status == 0 and ("warning RS217" in out + err) == told, out + err
