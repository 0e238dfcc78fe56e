"""Rules scenarios: tests as data.

A scenario file names a spec, lays out the table (which cards are where, whose turn,
counters), lists the choices made and the outcomes of chance, and states what must
hold afterwards (zones, counters, events, the winner and the end reason, who is to act
and with which options, and what one seat's observation and log show: `seen_by`).
`rulespec test` and pytest both run them through `run`.

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

from rulespec.interpreter import CHANCE, Game, IllegalChoice, State, seat_name

from ..lang.diagnostics import Diagnostic, SpecError
from ..lang.loading import load
from ..lang.schema import load_schema, shape_problems
from .files import named_spec


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


def _new_state(game: Game, data: dict, n: int) -> State:
    """The scenario's game: laid out as its `table` says, or from the spec's setup."""
    seed = data.get("seed", 0)
    if "table" not in data:
        return game.new_initial_state(seed=seed)
    table = data["table"]
    return State.from_layout(game, seed, zones=table.get("zones") or {},
                             counters=table.get("counters") or {},
                             out=[_seat(p, n) for p in table.get("out") or ()],
                             current=_seat(table.get("current", "P1"), n))


def _contents(state: State, label: str, ordered: bool) -> list[str]:
    """A zone's cards by type name: top first when it is ordered, else sorted."""
    names = state.observation(None)["zones"][label]
    return list(reversed(names)) if ordered else sorted(names)


def _settle(state: State) -> None:
    """Sample shuffles from the scenario's seed: a scenario names the outcomes of
    chance it can (a card, a seat), never a whole order of a pile."""
    while state.chance_is_sampled():
        state.sample_chance()


def _matches(expected: dict, event: dict) -> bool:
    return all(event.get(k) == v for k, v in expected.items())


def run(path: str | Path) -> Outcome:
    """Run one scenario file. Problems with the file itself raise SpecError or ValueError."""
    data, doc = load_scenario(path)
    name = data.get("name", Path(path).stem)
    try:
        spec = named_spec(data["spec"], path)
    except ValueError as exc:
        raise SpecError([Diagnostic("RS501", f"spec: {exc}", doc.span(("spec",)))],
                        doc.all_sources()) from None
    n = data.get("players", spec.default_players)
    state = _new_state(Game(spec, n), data, n)
    failures = []
    for i, step in enumerate(data.get("steps") or ()):
        (who, choice), = step.items()  # the schema allows exactly one
        _settle(state)
        if state.is_terminal():
            failures.append(f"step {i + 1} ({who}: {choice}): the game is already over "
                            f"({state.reason})")
            break
        actor = state.current_player()
        expected = CHANCE if who == "chance" else _seat(who, n)
        if actor != expected:
            failures.append(f"step {i + 1}: expected {who} to act, but "
                            f"{'chance' if actor == CHANCE else seat_name(actor)} is to act "
                            f"(options: {', '.join(state.legal_labels())})")
            break
        try:
            state.apply_action(str(choice))
        except IllegalChoice as exc:
            failures.append(f"step {i + 1}: {exc}")
            break
    _settle(state)
    if not failures:
        failures = _check(state, data.get("expect") or {}, n)
    return Outcome(name, str(path), not failures, failures)


def _check(state: State, expect: dict, n: int) -> list[str]:
    failures = []
    seen = state.observation(None)
    ordered = {slot.label: slot.zone.ordered for slot in state.game.slots}
    for label, want in (expect.get("zones") or {}).items():
        if label not in ordered:
            failures.append(f"unknown zone '{label}' in expect")
            continue
        got = _contents(state, label, ordered[label])
        want = want if ordered[label] else sorted(want)
        if got != want:
            failures.append(f"zone {label}: expected {want}, got {got}")
    counters = seen["counters"]
    for name, want in (expect.get("counters") or {}).items():
        if counters.get(name) != want:
            failures.append(f"counter {name}: expected {want}, got {counters.get(name)}")
    failures += _event_failures(state.log_for(None), expect, n)
    for seat, view in (expect.get("seen_by") or {}).items():
        failures += _view_failures(state, _seat(seat, n), view, n)
    if "winners" in expect and state.result["winners"] != list(expect["winners"]):
        failures.append(f"winners: expected {expect['winners']}, got {state.result['winners']}")
    if "reason" in expect and state.reason != expect["reason"]:
        failures.append(f"end reason: expected {expect['reason']!r}, got {state.reason!r}")
    if "over" in expect and state.is_terminal() != expect["over"]:
        failures.append(f"over: expected {expect['over']}, got {state.is_terminal()}")
    if "current" in expect and seen["current"] != expect["current"]:
        failures.append(f"current: expected {expect['current']}, got {seen['current']}")
    if "active" in expect and seen["active"] != list(expect["active"]):
        failures.append(f"active: expected {expect['active']}, got {seen['active']}")
    if "to_act" in expect:
        who = state.current_player()
        got = "chance" if who == CHANCE else "none" if state.is_terminal() else seat_name(who)
        if got != expect["to_act"]:
            failures.append(f"to act: expected {expect['to_act']}, got {got}")
    if "options" in expect and state.legal_labels() != list(expect["options"]):
        failures.append(f"options: expected {expect['options']}, got {state.legal_labels()}")
    return failures


def _event_failures(events: list[dict], expect: dict, n: int, who: str = "") -> list[str]:
    failures = []
    for want in expect.get("events") or ():
        want = {k: (_seat(v, n) if k == "player" and isinstance(v, str) else v) for k, v in want.items()}
        if not any(_matches(want, e) for e in events):
            failures.append(f"{who}no event matching {want}")
    for want in expect.get("no_events") or ():
        want = {k: (_seat(v, n) if k == "player" and isinstance(v, str) else v) for k, v in want.items()}
        if any(_matches(want, e) for e in events):
            failures.append(f"{who}an event matches {want}, expected none")
    return failures


def _view_failures(state: State, seat: int, view: dict, n: int) -> list[str]:
    """What one seat's observation and log must show (`expect.seen_by`): zones as the
    observation gives them, events of the seat's log."""
    who, zones = f"as {seat_name(seat)} sees it: ", state.observation(seat)["zones"]
    failures = [f"{who}zone {label}: expected {want}, got {zones.get(label)}"
                for label, want in (view.get("zones") or {}).items() if zones.get(label) != want]
    return failures + _event_failures(state.log_for(seat), view, n, who)


def collect(paths) -> list[Path]:
    """Scenario files under the given files and directories, sorted."""
    out = []
    for p in map(Path, paths):
        out.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    return out
