"""Rules scenarios: tests as data.

A scenario file names a spec, lays out the table (which cards are where, whose turn,
counters), lists the choices made and the outcomes of chance, and states what must
hold afterwards (zones, counters, events, the winner and the end reason, who is to act
and with which options). `rulespec test` and pytest both run them through `run`.

    name: a guard stops a thief
    rulings: [X-7]
    spec: ../../games/GAME.yaml
    players: 3
    table:
      current: P1
      zones: {"hand[P1]": [thief], "hand[P2]": [guard, coin], draw: [thief]}
    steps:
      - P1: thief -> P2
      - P2: guard_block
    expect:
      zones: {hand[P2]: [coin]}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from interpreter import CHANCE, Game, IllegalChoice, Rules, seat_name
from interpreter.observe import log_for

from ..lang.compiler import load_spec
from ..lang.diagnostics import Diagnostic, SpecError
from ..lang.loading import load
from ..lang.schema import load_schema, shape_problems



@dataclass
class Outcome:
    name: str
    file: str
    passed: bool
    failures: list[str] = field(default_factory=list)


def _seat(label, n):
    if isinstance(label, str) and label.startswith("P") and label[1:].isdigit():
        p = int(label[1:]) - 1
        if 0 <= p < n:
            return p
    raise ValueError(f"'{label}' is not a seat of a {n}-player game (P1..P{n})")


def load_scenario(path: str | Path) -> tuple[dict, object]:
    """A scenario file, checked against schema/scenario.schema.json (RS501)."""
    doc = load(path)
    problems = []
    if not isinstance(doc.data, dict):
        problems.append(Diagnostic("RS501", "a scenario is a mapping", doc.span(())))
    else:
        problems = shape_problems(doc, load_schema("scenario"), code="RS501", unknown_code="RS501",
                                  name="the scenario")
    if problems:
        raise SpecError(problems, {doc.file: doc.lines})
    return doc.data, doc


def _layout(table: dict, rules: Rules, n: int):
    """A setup callback that lays the table out instead of the spec's setup."""
    labels = {slot.label: i for i, slot in enumerate(rules.slots)}
    counters = {name: i for i, name in enumerate(rules.counter_names)}
    zones = table.get("zones") or {}
    for label in zones:
        if label not in labels:
            raise ValueError(f"unknown zone '{label}'; zones: {', '.join(labels)}")
    for name in table.get("counters") or {}:
        if name not in counters:
            raise ValueError(f"unknown counter '{name}'; counters: {', '.join(counters)}")
    current = _seat(table.get("current", "P1"), n)
    out = [_seat(p, n) for p in table.get("out") or ()]

    def setup(game: Game):
        box = len(rules.slots)
        free = {t: [] for t in range(len(rules.type_names))}
        for c in range(len(game.ctype)):
            free[game.ctype[c]].append(c)
        game.zones = [[] for _ in game.zones]
        game.zones[box] = list(range(len(game.ctype)))
        game.loc = [box] * len(game.ctype)
        for label, names in zones.items():
            slot = labels[label]
            if rules.slots[slot].zone.ordered:
                names = list(reversed(names))  # scenarios list ordered zones top first
            for name in names:
                if name not in rules.type_names:
                    raise ValueError(f"unknown card '{name}' in {label}")
                if not free[rules.type_names.index(name)]:
                    raise ValueError(f"more '{name}' cards placed than the deck holds")
                c = free[rules.type_names.index(name)].pop(0)
                game.zones[box].remove(c)
                game.zones[slot].append(c)
                game.loc[c] = slot
        for name, value in (table.get("counters") or {}).items():
            game.counters[counters[name]] = value
        for p in out:
            game.active[p] = False
        game.current = current
    return setup


def _contents(game, slot):
    rules = game.rules
    names = [rules.type_names[game.ctype[c]] for c in game.zones[slot]]
    return list(reversed(names)) if rules.slots[slot].zone.ordered else sorted(names)


def _matches(expected: dict, event: dict) -> bool:
    return all(event.get(k) == v for k, v in expected.items())


def run(path: str | Path) -> Outcome:
    """Run one scenario file. Problems with the file itself raise SpecError or ValueError."""
    data, doc = load_scenario(path)
    name = data.get("name", Path(path).stem)
    spec = load_spec((Path(path).parent / data["spec"]).resolve())
    n = data.get("players", spec.default_players)
    rules = Rules(spec, n)
    game = Game(rules, seed=data.get("seed", 0),
                setup=_layout(data["table"], rules, n) if "table" in data else None)
    failures = []
    for i, step in enumerate(data.get("steps") or ()):
        (who, choice), = step.items()  # the schema allows exactly one
        if game.over:
            failures.append(f"step {i + 1} ({who}: {choice}): the game is already over "
                            f"({game.reason})")
            break
        actor = game.to_act()
        expected = CHANCE if who == "chance" else _seat(who, n)
        if actor != expected:
            failures.append(f"step {i + 1}: expected {who} to act, but "
                            f"{'chance' if actor == CHANCE else seat_name(actor)} is to act "
                            f"(options: {', '.join(game.legal_labels())})")
            break
        try:
            game.apply(str(choice))
        except IllegalChoice as exc:
            failures.append(f"step {i + 1}: {exc}")
            break
    if not failures:
        failures = _check(game, data.get("expect") or {}, n)
    return Outcome(name, str(path), not failures, failures)


def _check(game: Game, expect: dict, n: int) -> list[str]:
    rules, failures = game.rules, []
    labels = {slot.label: i for i, slot in enumerate(rules.slots)}
    for label, want in (expect.get("zones") or {}).items():
        if label not in labels:
            failures.append(f"unknown zone '{label}' in expect")
            continue
        got = _contents(game, labels[label])
        want = want if rules.slots[labels[label]].zone.ordered else sorted(want)
        if got != want:
            failures.append(f"zone {label}: expected {want}, got {got}")
    counters = dict(zip(rules.counter_names, game.counters))
    for name, want in (expect.get("counters") or {}).items():
        if counters.get(name) != want:
            failures.append(f"counter {name}: expected {want}, got {counters.get(name)}")
    events = log_for(game, None)
    for want in expect.get("events") or ():
        want = {k: (_seat(v, n) if k == "player" and isinstance(v, str) else v) for k, v in want.items()}
        if not any(_matches(want, e) for e in events):
            failures.append(f"no event matching {want}")
    for want in expect.get("no_events") or ():
        want = {k: (_seat(v, n) if k == "player" and isinstance(v, str) else v) for k, v in want.items()}
        if any(_matches(want, e) for e in events):
            failures.append(f"an event matches {want}, expected none")
    if "winners" in expect and game.result["winners"] != list(expect["winners"]):
        failures.append(f"winners: expected {expect['winners']}, got {game.result['winners']}")
    if "reason" in expect and game.reason != expect["reason"]:
        failures.append(f"end reason: expected {expect['reason']!r}, got {game.reason!r}")
    if "over" in expect and game.over != expect["over"]:
        failures.append(f"over: expected {expect['over']}, got {game.over}")
    if "current" in expect and seat_name(game.current) != expect["current"]:
        failures.append(f"current: expected {expect['current']}, got {seat_name(game.current)}")
    if "active" in expect:
        got = [seat_name(p) for p in range(n) if game.active[p]]
        if got != list(expect["active"]):
            failures.append(f"active: expected {expect['active']}, got {got}")
    if "to_act" in expect:
        who = game.to_act()
        got = "chance" if who == CHANCE else "none" if game.over else seat_name(who)
        if got != expect["to_act"]:
            failures.append(f"to act: expected {expect['to_act']}, got {got}")
    if "options" in expect and game.legal_labels() != list(expect["options"]):
        failures.append(f"options: expected {expect['options']}, got {game.legal_labels()}")
    return failures


def collect(paths) -> list[Path]:
    """Scenario files under the given files and directories, sorted."""
    out = []
    for p in map(Path, paths):
        out.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    return out
