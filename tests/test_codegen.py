"""Generated code maps back to the spec: a failure inside it is reported at the spec's
line and column, `rulespec compile --show` prints it line by line against the spec,
and no spec string changes what it means."""

import builtins
import gc
import linecache
import re
import traceback

import pytest
import yaml
from gamekit import ROOT, cli, counter, settled

from rulespec import load_spec
from rulespec.interpreter import Game, RuleError, State
from rulespec.interpreter.agents import make_agents, play
from rulespec.interpreter.codegen import quote

COIN_GRAB = ROOT / "tests" / "valid" / "coin_grab.yaml"
TEXT = COIN_GRAB.read_text()


def place(text: str, snippet: str, nth: int = 1) -> tuple[int, int]:
    """(line, col) of the nth occurrence of snippet in text, 1-based."""
    at = -1
    for _ in range(nth):
        at = text.index(snippet, at + 1)
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def failing(text: str, monkeypatch) -> Game:
    """The game for text, whose integer division raises, as a bug in a helper would."""
    rules = Game(load_spec("tests/valid/edited.yaml", text=text), 3)

    def broken(a, b):
        raise IndexError("list index out of range")

    monkeypatch.setitem(rules.exprs.ns, "_div", broken)
    return rules


def test_a_failure_in_a_statement_names_its_line_col_and_rule(monkeypatch):
    text = TEXT.replace(
        "    shuffle(pile)\n",
        "    shuffle(pile)\n    for p in players {\n"
        "      if seat_number(p) == 1 {\n        steals = steals // 2\n      }\n    }\n",
        1,
    )
    with pytest.raises(RuleError) as info:
        settled(failing(text, monkeypatch).new_initial_state(seed=1))
    e = info.value
    assert (e.span.file, e.span.line, e.span.col) == (
        "tests/valid/edited.yaml",
        *place(text, "steals = steals // 2"),
    )
    assert (e.code, e.rule) == ("RS701", "setup")
    assert e.message == "rule 'setup' failed here (IndexError: list index out of range)"
    assert isinstance(e.__cause__, IndexError)


def test_a_failure_in_a_condition_names_the_condition(monkeypatch):
    text = TEXT + "\ntriggers:\n  halve:\n    when: steals // 2 > 3\n    effect: steals = 0\n"
    with pytest.raises(RuleError) as info:
        settled(failing(text, monkeypatch).new_initial_state(seed=1))
    assert (info.value.span.line, info.value.span.col) == place(text, "steals // 2 > 3")
    assert info.value.rule == "halve"


def test_a_failure_in_a_named_condition_is_placed_in_its_body(monkeypatch):
    """A named condition may be written into the code that calls it, but not one that
    can fail: the failure names the condition and its line, not the call."""
    text = TEXT + (
        "\nconditions:\n  many:\n    params: {n: int}\n    when: steals // n > 3\n"
        "\ntriggers:\n  halve:\n    when: many(2)\n    effect: steals = 0\n"
    )
    with pytest.raises(RuleError) as info:
        settled(failing(text, monkeypatch).new_initial_state(seed=1))
    assert (info.value.span.line, info.value.span.col) == place(text, "steals // n > 3")
    assert info.value.rule == "many"
    # the rule that asked it too, as what it passed may be what failed (a Lost Cities
    # designer's sum over range(6) of a named value reading a family of 5)
    assert info.value.message.startswith("rule 'halve' failed here, in 'many', which it calls (")


def _offered(text: str):
    """The options of the first play step of the game for text: its conditions run."""
    state = settled(Game(load_spec("tests/valid/edited.yaml", text=text), 3).new_initial_state(1))
    return state.legal_actions()


# a player counter that is still nobody when the first play is offered
NOBODY = TEXT.replace("  steals: {initial: 0}", "  steals: {initial: 0}\n  boss: {initial: nobody}")


def test_a_failure_in_an_action_s_condition_is_placed_at_its_if():
    """A Bridge designer's `if:` used a player counter that was still nobody: the RS701
    pointed at the action's name, not at the `if:` that failed."""
    text = NOBODY.replace(
        "    if: size(hand(target)) > 0\n", "    if: size(hand(target)) > size(hand(boss))\n"
    )
    with pytest.raises(RuleError) as info:
        _offered(text)
    assert (info.value.span.line, info.value.span.col) == place(text, "size(hand(target)) >")
    assert info.value.message.startswith("rule 'steal' failed here (a player here is nobody")


def test_a_named_condition_that_may_meet_nobody_is_placed_in_its_body():
    """The same, the `if:` calling a named condition: the failure is at the condition's
    line, as for any condition that can fail, not written into the `if:`."""
    text = (
        NOBODY.replace("    if: size(hand(target)) > 0\n", "    if: bossy(target)\n")
        + "\nconditions:\n  bossy:\n    params: {p: player}\n    when: size(hand(boss)) < size(hand(p))\n"
    )
    with pytest.raises(RuleError) as info:
        _offered(text)
    assert (info.value.span.line, info.value.span.col) == place(text, "size(hand(boss)) <")
    assert info.value.message.startswith("rule 'steal' failed here, in 'bossy', which it calls (")


def test_a_failure_in_a_counter_s_initial_value_is_placed_too(monkeypatch):
    text = TEXT.replace("  steals: {initial: 0}", "  steals: {initial: 4 // 2}", 1)
    with pytest.raises(RuleError) as info:
        failing(text, monkeypatch).new_initial_state(seed=1)
    assert (info.value.span.line, info.value.span.col) == place(text, "4 // 2")
    assert info.value.rule == "counters.steals"


def test_a_failure_after_a_choice_is_placed_too(monkeypatch):
    """An action's effect runs as its choice is applied: the same report."""
    text = TEXT.replace("        steals += 1\n", "        steals += 4 // 2\n", 1)
    rules = failing(text, monkeypatch)
    with pytest.raises(RuleError) as info:
        for seed in range(50):
            play(rules.new_initial_state(seed=seed, log=False), make_agents(["random"], 3, seed))
    assert (info.value.span.line, info.value.span.col) == place(text, "steals += 4 // 2")
    assert info.value.rule == "steal"


def test_a_game_stopped_by_a_failure_says_so_to_whatever_asks_it_next(monkeypatch):
    """The failure leaves half an effect run: who acts, the options, a copy and a
    choice meet it again, at its place, rather than a Python error from the inside."""
    text = TEXT.replace("        steals += 1\n", "        steals += 4 // 2\n", 1)
    rules = failing(text, monkeypatch)
    for seed in range(50):
        state = rules.new_initial_state(seed=seed, log=False)
        try:
            play(state, make_agents(["random"], 3, seed))
        except RuleError as error:
            failure = error
            break
    else:
        raise AssertionError("no game played the failing rule")
    for ask in (
        state.current_player,
        state.legal_actions,
        state.clone,
        lambda: state.apply_action("pass"),
    ):
        with pytest.raises(RuleError) as info:
            ask()
        assert info.value.message == f"the game stopped: {failure.message}"
        assert (info.value.span, info.value.rule) == (failure.span, "steal")
        assert info.value.__cause__ is failure


def broken_draw(self, src, dst, n):
    raise IndexError("boom")


def test_the_traceback_shows_the_generated_source(monkeypatch):
    monkeypatch.setattr(State, "draw", broken_draw)
    with pytest.raises(RuleError) as info:
        settled(Game(load_spec(COIN_GRAB), 3).new_initial_state())
    shown = "".join(traceback.format_exception(info.value.__cause__))
    # named after the spec and rule (#2, #3, ... when compiled again)
    assert re.search(
        r'File "<rulespec:[^"]*coin_grab.yaml:setup(#\d+)?>", line 3, in op\n'
        r"    _left = g.draw\(_src, _dst, 2\)\n",
        shown,
    )
    line, col = place(TEXT, "move(top(pile, deal_size), hand(p))")
    assert str(info.value).startswith(f"{COIN_GRAB}:{line}:{col}: error RS701")


def test_the_source_of_a_dropped_definition_is_forgotten():
    rules = Game(load_spec(COIN_GRAB), 3)
    names = [listing.filename for listing in rules.exprs.listings]
    assert all(linecache.getline(name, 1).startswith("def ") for name in names)
    del rules
    gc.collect()
    assert not any(name in linecache.cache for name in names)


def test_the_cli_prints_a_failure_as_a_diagnostic(monkeypatch):
    monkeypatch.setattr(State, "draw", broken_draw)
    code, out, err = cli("run", "tests/valid/coin_grab.yaml")
    line, col = place(TEXT, "move(top(pile, deal_size), hand(p))")
    assert code == 2  # the game up to the failure, then the failure
    assert out.splitlines() == [
        "Coin Grab: 3 players, seed 0, agents random",
        "  the pile is shuffled",
        "The game stopped here: a rule failed (below).",
    ]
    assert err == (
        f"tests/valid/coin_grab.yaml:{line}:{col}: error RS701: rule 'setup' failed here "
        f"(IndexError: boom)\n        for p in players {{ move(top(pile, deal_size), hand(p)) }}\n"
        f"{' ' * (col + 3)}^\n"
    )


# --- rulespec compile ----------------------------------------------------------------


def test_compile_shows_a_rule_line_by_line_against_the_spec():
    code, out, err = cli("compile", COIN_GRAB, "--show", "rich", "--players", "2")
    line, col = place(TEXT, "count(hand(p), coin) >= coins_to_win")
    assert (code, err) == (0, "")
    assert out.split("\n")[2:5] == [
        f"# {line}:{col}: when: count(hand(p), coin) >= coins_to_win",
        f"def expr(g, env):                               # {line}:{col}",
        f"    return (g._tcount[(2 + env['p'])][0] >= 3)  # {line}:{col}",
    ]
    assert f"\n    g.finish(tuple(sorted((env['p'],))), 'rich')  # {line + 1}:13\n" in out


def test_compile_lists_the_rules_without_one():
    code, out, _ = cli("compile", COIN_GRAB, "--show")
    assert code == 0 and out.split() == [
        "counters.steals",
        "setup",
        "steal",
        "block",
        "draw",
        "play",
        "rich",
        "dry",
        "checks",
    ]
    assert cli("compile", COIN_GRAB)[1] == out


def test_compile_names_an_unknown_rule_and_lists_the_known_ones():
    code, out, err = cli("compile", COIN_GRAB, "--show", "stael")
    assert (code, out) == (2, "")
    assert err == (
        f"rulespec compile: no rule 'stael' with generated code in {COIN_GRAB} (did you "
        "mean 'steal'?); rules: counters.steals, setup, steal, block, draw, play, rich, dry, checks\n"
    )
    assert (
        cli("compile", COIN_GRAB, "--show", "steal", "--players", "9")[2]
        == "rulespec compile: Coin Grab is for 2 to 4 players, not 9\n"
    )
    assert cli("compile", "nothing.yaml")[0] == 2


# --- quoting -------------------------------------------------------------------------

PAYLOADS = [
    "it's",
    "back\\slash\\",
    "nul\0byte",
    "x\\",
    "\\' or 1 or '",
    "class",
    "\\n",
    "' + __import__('builtins').__setattr__('INJECTED', 1) + '",
]


@pytest.mark.parametrize(
    "value", PAYLOADS + ['"""', "'''", "a\nb\r\u2028c", "\ud800", "lambda", "", 0, -7, True, None]
)
def test_quote_writes_plain_values_as_literals_that_read_back(value):
    ns: dict = {}
    source = quote(value, ns)
    assert not ns
    assert eval(source, ns) == value and type(eval(source, ns)) is type(value)


@pytest.mark.parametrize(
    "value", [frozenset({1}), (1, 2), 1.5, type("Sly", (str,), {"__repr__": lambda s: "1/0"})("x")]
)
def test_quote_binds_anything_else_to_a_name(value):
    ns: dict = {}
    source = quote(value, ns)
    assert source.isidentifier() and ns[source] is value


def test_spec_strings_and_names_never_change_the_generated_code():
    """Labels, titles, props and string literals carrying quotes, backslashes, NULs and
    code, and locals named like Python keywords or the generated code's own names:
    each literal still equals the value the spec gave, and nothing injected runs."""
    literals = [
        f'if prop(top(pile, 1), "motto{i}") == "{p}" {{ hits += 1 }}'
        for i, p in enumerate(PAYLOADS)
    ]
    names = ["class", "lambda", "env", "g", "_slot", "_p0", "_div", "_c1"]
    effect = "\n".join(
        literals
        + [f"let {n} = {k}" for k, n in enumerate(names, 1)]
        + [f"for return in players {{ hits += {' + '.join(names)} }}"]
    )
    data = {
        "rulespec": 1,
        "name": "Quoting \"q\" 'x'\n\0",
        "hand": "hand",
        "players": {"min": 2, "max": 2, "default": 2},
        "deck": {
            "cards": {
                "coin": {
                    "count": 4,
                    "title": 'it\'s "odd"\n\\ \0 import os',
                    "props": {f"motto{i}": p for i, p in enumerate(PAYLOADS)},
                }
            }
        },
        "zones": {
            "pile": {"visibility": "hidden", "ordered": True, "start": True},
            "hand": {"per_player": True, "visibility": "owner"},
        },
        "counters": {"hits": {"initial": 0}},
        "setup": {"effect": effect},
        "turn": [
            {
                "step": "pick",
                "effect": 'choose(current) { "a\'b\\\\c\0" { hits += 100 } "import os" { end_game() } }',
            }
        ],
    }
    game = settled(
        Game(load_spec("quoting.yaml", text=yaml.safe_dump(data)), 2).new_initial_state()
    )
    assert counter(game, "hits") == len(PAYLOADS) + 2 * sum(range(1, len(names) + 1))
    assert game.legal_labels() == ["a'b\\\\c\0", "import os"]
    game.apply_action("a'b\\\\c\0")
    assert counter(game, "hits") == len(PAYLOADS) + 72 + 100
    assert not hasattr(builtins, "INJECTED")
