"""Rules scenarios: tests as data.

A scenario file names a spec, lays out the table (which cards are where, whose turn,
counters), lists the choices made and the outcomes of chance, and states what must
hold afterwards (zones, counters, events, the winner and the end reason, who is to act
and with which options, and what one seat's observation and log show: `seen_by`).
The same checks may sit between steps (`- expect: {...}`); a list the rules leave
unordered is written `{any_order: [...]}`; `expect_error` states a refusal the scenario
ends with; `auto: forced` takes single-option choice points without steps; a step
`game: N` begins the match's next game once the one before is over. Seats are
`P1`, `P2`... everywhere. `rulespec test` and pytest both run them through `run`.

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

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from rulespec.interpreter import CHANCE, Game, IllegalChoice, RuleError, State, seat_name
from rulespec.interpreter.choices import NOBODY_AT_REST, seat_said
from rulespec.interpreter.table import one_of_many

from ..lang.diagnostics import Diagnostic, SpecError, did_you_mean
from ..lang.loading import load
from ..lang.schema import load_schema, misplaced_key, shape_problems
from .encoding import ActionSpace
from .files import named_spec
from .narrate import parse_label
from .refusals import why_not
from .view import as_yaml


@dataclass
class Outcome:
    name: str
    file: str
    passed: bool
    failures: list[str] = field(default_factory=list)


SEAT = re.compile(r"P[1-9][0-9]*")  # as seats are named: P1, not P01
ANY_ORDER = "any_order"


def parse_seat(label, n) -> int:
    """A seat written P1, P2, ... as its number from 0; ValueError for anything else."""
    if isinstance(label, str) and SEAT.fullmatch(label):
        p = int(label[1:]) - 1
        if 0 <= p < n:
            return p
    raise ValueError(f"'{label}' is not a seat of a {n}-player game (P1..P{n})")


def _numbered(event: dict, n: int) -> dict:
    """An event as the log holds it: seats written `P2` become numbers from 0, but for
    its `option`, a label, `P2` where a player was chosen."""
    return {k: v if k == "option" else _seats(v, n) for k, v in event.items()}


def _seats(value, n):
    """An event field as the log holds it: seats written `P2` become numbers from 0.
    Card and zone names are lower case, so only a seat reads `P<number>`."""
    if isinstance(value, str) and SEAT.fullmatch(value):
        return parse_seat(value, n)
    if isinstance(value, list):
        return [_seats(v, n) for v in value]
    if isinstance(value, dict) and set(value) == {ANY_ORDER}:
        return {ANY_ORDER: _seats(value[ANY_ORDER], n)}
    return value


def _same(want, got) -> bool:
    """Equal, where `{any_order: [...]}` compares a list as a multiset."""
    if isinstance(want, dict) and set(want) == {ANY_ORDER}:
        return isinstance(got, list) and sorted(map(str, got)) == sorted(map(str, want[ANY_ORDER]))
    return want == got


def _check_shape(doc) -> None:
    """A scenario file checked against schema/scenario.schema.json (RS501)."""
    problems = []
    if not isinstance(doc.data, dict):
        problems.append(Diagnostic("RS501", "a scenario is a mapping", doc.span(())))
    elif "rulespec" in doc.data and "spec" not in doc.data:
        message = (
            "this is a spec (it declares 'rulespec:'), not a scenario: a scenario names "
            "the spec it tests with 'spec: FILE' (rulespec test FOLDER passes over specs)"
        )
        problems.append(Diagnostic("RS501", message, doc.key_span(("rulespec",))))
    else:
        problems = shape_problems(
            doc, load_schema("scenario"), code="RS501", unknown_code="RS501", name="the scenario"
        )
        # a list among the table's or an expect's counters is told by its name, with the
        # game at hand (_misnamed, _check): a Cribbage designer's remembered cards there
        # read "must be an integer or a string or null or a mapping, got a list"
        listed = {doc.span(path) for path in _listed_counters(doc.data)}
        problems = [d for d in problems if d.span not in listed]
    if problems:  # in file order, as a spec's are
        raise SpecError(
            sorted(problems, key=lambda d: (d.span.line, d.span.col)), {doc.file: doc.lines}
        )


def _listed_counters(data: dict) -> list[tuple]:
    """The paths of the counters written as lists: under table.counters, expect.counters
    and each check point's expect.counters."""
    steps = data.get("steps")
    parts = [(("table",), data.get("table")), (("expect",), data.get("expect"))] + [
        (("steps", i, "expect"), step.get("expect"))
        for i, step in enumerate(steps if isinstance(steps, list) else ())
        if isinstance(step, dict)
    ]
    found = []
    for place, part in parts:
        counters = part.get("counters") if isinstance(part, dict) else None
        if isinstance(counters, dict):
            found += [
                (*place, "counters", *path)
                for _, value, path in _counters(counters)
                if isinstance(value, list)
            ]
    return found


def _new_state(game: Game, doc, n: int) -> State:
    """The scenario's game: laid out as its `table` says, or from the spec's setup. A
    table the game cannot lay out is a SpecError (RS501) at each part that does not fit,
    all told at once (a table's mistakes came one a run)."""
    data = doc.data
    seed, limit = data.get("seed", 0), data.get("turn_limit")
    if "table" not in data:
        return game.new_initial_state(seed=seed, turn_limit=limit)
    table = data["table"]
    problems = list(_misnamed(game, table))  # every name that does not fit, at once
    failed = object()  # what a part that did not fit gives

    def laid(at: tuple, make):
        """What make() gives, or `failed`, its problem kept (once for a path)."""
        if any(p.path == at for p in problems):
            return failed
        try:
            return make()
        except ValueError as exc:
            bad = exc if isinstance(exc, _Misnamed) else _Misnamed(at, str(exc), at == ("table",))
            problems.append(bad)
            return failed

    current = laid(("table", "current"), lambda: parse_seat(table.get("current", "P1"), n))
    seats = {
        key: laid(("table", key), lambda key=key: [parse_seat(p, n) for p in table.get(key) or ()])
        for key in ("out", "sitting_out")
    }
    counters = {}
    for k, v, path in _counters(table.get("counters")):
        value = laid(("table", "counters", *path), lambda k=k, v=v: _counter_value(game, k, v, n))
        if value is not failed:
            counters[_label(game, k)] = value
    round_index = laid(
        ("table", "round_index"), lambda: State.laid_round(game, table.get("round_index", 0))
    )
    marks = {}
    for k, entries in (table.get("marks") or {}).items():
        held = laid(("table", "marks", k), lambda entries=entries: _marks_held(game, entries, n))
        if held is not failed:
            marks[_label(game, k)] = held
    if not problems:  # what only the laying out finds: a card placed too often
        state = laid(
            ("table",),
            lambda: State.from_layout(
                game,
                seed,
                zones=_with_rest(game, table),
                counters=counters,
                marks=marks,
                current=current,
                round_index=round_index,
                turn_limit=limit,
                **seats,
            ),
        )
        if state is not failed:
            return state
    diagnostics = [
        Diagnostic("RS501", str(p), (doc.key_span if p.key else doc.span)(p.path)) for p in problems
    ]
    raise SpecError(sorted(diagnostics, key=lambda d: (d.span.line, d.span.col)), doc.all_sources())


def _with_rest(game: Game, table: dict) -> dict:
    """The table's zones, with every card they place nowhere put in its `rest` zone, in
    deck order, after the cards listed there (below them, in an ordered zone)."""
    zones = {_label(game, k): v for k, v in (table.get("zones") or {}).items()}
    rest = _label(game, table.get("rest"))
    if rest is None:
        return zones
    placed = Counter(c for cards in zones.values() for c in cards or ())
    left = [
        name
        for name, held in zip(game.type_names, game.deck_counts)
        for _ in range(held - placed[name])
    ]
    return {**zones, rest: [*(zones.get(rest) or ()), *left]}


class _Misnamed(ValueError):
    """A name in a scenario's table the game does not have, and its path there."""

    def __init__(self, path: tuple, message: str, key: bool = False):
        super().__init__(message)
        self.path, self.key = path, key  # key: the name is the key at path, not its value


def _misnamed(game: Game, table: dict):
    """_Misnamed for each zone, card or kind the table names and the game does not have,
    with the closest name it has, and each card placed once too often."""
    kind_counters = {game.counter_names[i] for i in game.kind_counters}
    zones = table.get("zones") or {}
    places = [s.label for s in game.slots]
    slots = places + [a for a, label in game.value_labels.items() if label in places]  # by value
    names = [("zone", label, slots, ("zones", label)) for label in zones]
    rest = table.get("rest")
    if rest is not None and rest not in slots:  # the name is the value: placed at it
        yield _Misnamed(
            ("table", "rest"), f"unknown zone: '{rest}' ({_meant(game, 'zone', rest, slots)})"
        )
    for label, cards in zones.items():
        names += [
            (f"card in {label}", c, game.type_names, ("zones", label, i))
            for i, c in enumerate(cards or ())
            if isinstance(c, str)
        ]
    counters = _counters(table.get("counters"))
    known = [
        *game.counter_names,
        *(a for a, label in game.value_labels.items() if label not in places),
    ]
    names += [("counter", k, known, ("counters", *path)) for k, _, path in counters]
    for label, value, path in counters:
        if label in kind_counters and isinstance(value, str) and value != "no_kind":
            names.append((f"kind for counter {label}", value, game.held_kinds, ("counters", *path)))
    placed: Counter = Counter()  # a card placed once too often is told where, not at table:
    for label, cards in zones.items():
        for i, c in enumerate(cards or ()):
            if c in game.type_names:
                placed[c] += 1
                held = game.deck_counts[game.type_names.index(c)]
                if placed[c] > held:
                    yield _Misnamed(
                        ("table", "zones", label, i),
                        f"more '{c}' cards placed than the deck holds ({held} for "
                        f"{game.n} player{'' if game.n == 1 else 's'})",
                    )
    for what, name, known, path in names:
        if name == "any" and what.startswith("kind"):
            yield _Misnamed(
                ("table", *path), f"'any' is every card, not a kind a counter holds ({what})"
            )
        elif name not in known:
            # a key of the table written among its zones ('rest') is told where it goes
            meant = misplaced_key(load_schema("scenario"), ("table", *path))
            yield _Misnamed(
                ("table", *path),
                f"unknown {what}: '{name}' ({meant or _meant(game, what, name, known)})",
                what in ("zone", "counter"),
            )


def _meant(game: Game, what: str, name, known) -> str:
    """What a misnamed zone, card or counter may have meant: a card by its title (a
    6 nimmt! designer wrote "10" for card_10), a family's zones by their range, the
    closest name, or every name."""
    remembered = str(name).split("[", 1)[0]
    if what == "counter" and remembered in {m.name for m in game.spec.memories}:
        return f"'{remembered}' is remembered cards, not a counter a scenario lays out or checks"
    if what.startswith("card"):
        titled = game.spec.titled(str(name))
        if titled:
            return f"'{name}' is the title of {', '.join(titled)}: a scenario names cards"
    # a team's, written as a seat's (a family's with its index)
    seat = re.fullmatch(r"(\w+)\[P(\d+)\](\[\d+\])?", str(name))
    if seat and seat.group(1) in game.per_team and 0 < int(seat.group(2)) <= game.n:
        team = game.spec.teams[game.team_of[int(seat.group(2)) - 1]].name
        whose = f"{seat.group(1)}[{team}]{seat.group(3) or ''}"
        return f"'{seat.group(1)}' is one per team: P{seat.group(2)}'s is {whose}"
    if what in ("zone", "counter") and (many := one_of_many(what, name, known)):
        return many
    hint = did_you_mean(name, known)
    if not hint:
        return f"known: {', '.join(known)}"
    family = re.fullmatch(r"(\w+)(?:\[\w+\])?\[\d+\]", hint.suggestion)  # row[2], field[P1][0]
    members = family and [  # by place: a family by a card property's values are told below
        k for k in known if k.startswith(family.group(1) + "[") and re.search(r"\[\d+\]$", k)
    ]
    if members and len(members) > 1:
        by = _by_family(game, family.group(1), members[0])
        if by:  # by a card property: each place stands for a value
            return f"did you mean one of {members[0]} to {members[-1]}? ({by})"
        return f"did you mean one of {members[0]} to {members[-1]}?"
    return f"did you mean '{hint.suggestion}'?"


_ZONE_LABEL = re.compile(r"\w+(?:\[[^\]\s]+\])+")  # a zone's label within an option's


def _option(game: Game, written) -> str:
    """An option as a scenario writes it, with a family by a card property's zone named
    by value (`back foundation[hearts]`) as the option names it, by place
    (`back foundation[1]`): a Klondike designer's steps and `offered` were refused."""
    aliases = game.value_labels
    text = str(written)
    return _ZONE_LABEL.sub(lambda m: aliases.get(m[0], m[0]), text) if aliases else text


def _by_value(game: Game, labels: list[str]) -> list[str]:
    """Labels with a family by a card property's zones named by value, as a scenario
    that wrote them so reads them (a Lost Cities designer's expected `expedition[P1][blue]`
    was listed beside the legal `expedition[P1][1]`)."""
    values = {place: value for value, place in game.value_labels.items()}
    return [_ZONE_LABEL.sub(lambda m: values.get(m[0], m[0]), label) for label in labels]


def _offered(label: str, legal: list[str]) -> str:
    """The legal option a scenario's label names: itself, the one legal label with
    the same cards in each group (`a+b+c`) in another order (a Rummy designer's set,
    written in the order of its suits, was refused for not being in the deck's), or,
    for a bare number, the one labelled with it (`b = 250` for `250`: a Pinochle
    designer's bid, which python.md said may be written as the number); anything else,
    as written, for the refusal to list the legal ones."""
    if label in legal:
        return label
    if re.fullmatch(r"-?\d+", label):  # a number chosen secretly, labelled `bid = 7`
        named = [x for x in legal if x.endswith(f" = {label}")]
        return named[0] if len(named) == 1 else label
    same = [x for x in legal if _in_any_order(x) == _in_any_order(label)]
    return same[0] if len(same) == 1 else label


_A_NUMBER = re.compile(r"(?:\w+ = )?-?\d+")  # a number chosen: `bid = 7`, `3`


def _never_offered(state: State, written) -> list[str]:
    """Of the labels a scenario wrote for a player's decision, those no decision of the
    game ever offers, each said with what it may have meant: a typo in `not_offered`
    (an unknown action, card or seat, a target where the option has none) passed
    without a word. A number is not judged (its bounds may be worked out in play), nor
    anything where the game's options are too many to list."""
    if state.current_player() == CHANCE or not written:
        return []
    try:
        space = ActionSpace(state.game)
    except ValueError:  # more groups of cards than are worth listing
        return []
    ordered = {_in_any_order(x) for x in space.labels}
    words = {w for x in ordered for group in x for w in group}
    found = []
    for label in (_option(state.game, x) for x in written):
        if label in space.index or _A_NUMBER.fullmatch(label) or _in_any_order(label) in ordered:
            continue
        unknown = [w for group in _in_any_order(label) for w in group if w not in words]
        if unknown:  # a word no option has: an action, card, zone or seat misnamed
            hint = did_you_mean(unknown[0], words)
            said = f": no option has '{unknown[0]}'" + (f" ({hint})" if hint else "")
        else:  # known words in a shape no option has: among those of its first word,
            # this decision's first (a Cuttle trial's play at a card was told of the
            # card's type played at its own type, an option no table could offer)
            head = label.split(" ", 1)[0]
            hint = did_you_mean(label, _headed(state.legal_labels(), head)) or did_you_mean(
                label, _headed(space.labels, head)
            )
            said = f" ({hint})" if hint else ""
        found.append(f"'{label}' is no option of this game{said}")
    return found


def _headed(labels, head: str) -> list[str]:
    """The labels whose first word (an action's name) is `head`."""
    return [x for x in labels if x.split(" ", 1)[0] == head]


def _in_any_order(label: str) -> tuple:
    """An option's words, each group of cards as its cards sorted."""
    return tuple(tuple(sorted(word.split("+"))) for word in label.split(" "))


def _label(game: Game, label):
    """A zone's or counter's label as the table has it: by place, where a scenario
    wrote a family by a card property by value."""
    return game.value_labels.get(label, label) if isinstance(label, str) else label


def _by_family(game: Game, name: str, first: str) -> str:
    """For a family by a card property, which value each place stands for (`first`,
    its first label, shows how a value is written); else ""."""
    x = next((x for x in (*game.spec.zones, *game.spec.counters) if x.name == name), None)
    if x is None or not x.by:
        return ""
    values = game.value_names(x.by)
    places = ", ".join(f"[{i}] {v}" for i, v in enumerate(values))
    written = first.rsplit("[", 1)[0] + f"[{values[0]}]"
    return f"by {x.by}: {places}; a value names its place too: {written} is {first}"


def _counters(
    written: dict | None, label: str = "", path: tuple = ()
) -> list[tuple[str, object, tuple]]:
    """A scenario's counters as (label, value, path): a per-player counter's seats (a
    per-team one's teams, a family's indexes) may be written under its name (`chips: {P1:
    90, P2: 90}` for `chips[P1]` and `chips[P2]`; `tricks: {north_south: 2}`; `bid: {P1:
    {0: 2}}` for `bid[P1][0]`)."""
    found = []
    for key, value in (written or {}).items():
        inner = f"{label}[{key}]" if label else str(key)
        if isinstance(value, dict):
            found += _counters(value, inner, (*path, key))
        else:
            found.append((inner, value, (*path, key)))
    return found


def _counter_value(game: Game, label: str, value, n: int):
    """A counter's value as a scenario writes it: a number; a seat (P2) for a counter
    that holds a player; a kind's name for one that holds a kind (null, or the language's
    no_kind: no kind), which the table reads as it is."""
    holds = {c.name: c.initial.type for c in game.spec.counters}.get(label.split("[", 1)[0])
    return _held(f"counter {label}", holds, value, n)


def _held(what: str, holds: str | None, value, n: int):
    """A value of this type (holds: int, player or kind) as a scenario writes it, as the
    observation gives it."""
    if holds == "player" and value == "nobody":
        return NOBODY_AT_REST
    if holds == "player" and isinstance(value, str):
        return parse_seat(value, n)
    if holds == "player" and not (type(value) is int and 0 <= value < n):
        raise ValueError(f"{what} holds a seat: write P1 to P{n}, or nobody, not {value!r}")
    if holds == "kind" and value == "no_kind":
        return None
    if holds == "kind" and not (value is None or isinstance(value, str)):
        raise ValueError(f"{what} holds a kind: write a card type's or tag's name, not {value!r}")
    if holds == "int" and not (isinstance(value, int) and not isinstance(value, bool)):
        raise ValueError(f"{what} holds a number, not {value!r}")
    return value


def _marks_held(game: Game, entries: list, n: int) -> list[dict]:
    """Cards' per_card counters as a scenario writes them ([{card: x, by: P2}]), each
    value as the observation gives it (_held)."""
    holds = dict(zip(game.mark_names, game.mark_types))
    return [
        {k: _held(f"counter {k}", holds[k], v, n) if k in holds else v for k, v in e.items()}
        for e in entries or ()
    ]


def _contents(state: State, label: str, ordered: bool) -> list[str]:
    """A zone's cards by type name: top first when it is ordered, else sorted."""
    names = state.observation(None)["zones"][label]
    return list(reversed(names)) if ordered else sorted(names)


def _settle(state: State) -> None:
    """Sample shuffles from the scenario's seed: a scenario names the outcomes of
    chance it can (a card, a seat), never a whole order of a pile."""
    while state.chance_is_sampled():
        state.sample_chance()


def _forced(state: State, step: tuple[str, str] | None = None) -> None:
    """`auto: forced`: take every choice point with a single option (a forced answer,
    "no reaction" when nothing can answer), but not the one `step` names itself."""
    while not state.is_terminal():
        _settle(state)
        labels = state.legal_labels()
        if len(labels) != 1 or (
            step is not None and labels == [step[1]] and _actor(state) == step[0]
        ):
            return
        state.apply_action(labels[0])


def _actor(state: State) -> str:
    who = state.current_player()
    return "chance" if who == CHANCE else "none" if state.is_terminal() else seat_name(who)


def _matches(expected: dict, event: dict) -> bool:
    """Every field given is the event's; an option's label (text) may be written as the
    number it names, as a step's may (`option: 1`)."""
    return all(
        _same(str(v) if k == "option" and type(v) is int else v, event.get(k))
        for k, v in expected.items()
    )


def run(path: str | Path) -> Outcome:
    """Run one scenario file. A file that cannot be read or parsed raises SpecError;
    any later problem is a failing Outcome under the scenario's name."""
    doc = load(path)
    data = doc.data if isinstance(doc.data, dict) else {}
    name = data.get("name") if isinstance(data.get("name"), str) else Path(path).stem
    try:
        _check_shape(doc)
        return Outcome(name, str(path), *_play(path, doc))
    except SpecError as exc:
        return Outcome(name, str(path), False, [exc.render()])
    except (ValueError, RuleError) as exc:  # RuleError: a rule failed as the game was set up
        return Outcome(name, str(path), False, [f"{path}: {exc}"])


def _play(path, doc) -> tuple[bool, list[str]]:
    """Set up the scenario's game, make its steps and check its check points."""
    data, refusal = doc.data, doc.data.get("expect_error")
    try:
        spec = named_spec(data["spec"], path)
    except SpecError as exc:
        if refusal is None:
            raise
        first = exc.diagnostics[0]
        return _verdict(_refusal_failures(refusal, (first.code, first.message)))
    except ValueError as exc:
        raise SpecError(
            [Diagnostic("RS501", f"spec: {exc}", doc.span(("spec",)))], doc.all_sources()
        ) from None
    n = data.get("players", spec.default_players)
    try:
        game = Game(spec, n)
    except ValueError as exc:
        if refusal is None:
            raise
        return _verdict(_refusal_failures(refusal, ("RS401", str(exc))))
    state, failures, stopped, refused = _steps(_new_state(game, doc, n), doc, n)
    if stopped:
        return _verdict(failures)
    if refusal is not None:
        failures += _refusal_failures(refusal, refused)
    at = f"{doc.key_span(('expect',))}: expect" if "expect" in data else str(path)
    return _verdict(failures + _checked(state, data, data.get("expect") or {}, n, at))


def _verdict(failures: list[str]) -> tuple[bool, list[str]]:
    return not failures, failures


def _steps(state: State, doc, n: int):
    """Make the steps, checking each `expect` step on the way. Returns the game the
    steps end in (a `game: N` step starts the match's next), the failures (each at its
    step's place in the file), whether a step failed (so nothing more is checked), and
    the refusal of the last step as (code, message) when the scenario expects one."""
    data = doc.data
    failures, steps, number = [], data.get("steps") or (), 1
    last = max((i for i, step in enumerate(steps) if "expect" not in step), default=-1)
    for i, step in enumerate(steps):
        at = f"{doc.span(('steps', i))}: step {i + 1}"
        if "expect" in step:
            failures += _checked(state, data, step["expect"], n, at)
            continue
        ((who, choice),) = step.items()  # the schema allows exactly one
        if who == "game":
            problem = _not_next_game(state, data, number, choice)
            if problem:
                return state, failures + [f"{at} (game: {choice}): {problem}"], True, None
            state, number = _next_game(state, data, number), choice
            continue
        refusable = i == last and "expect_error" in data
        try:
            choice = _option(state.game, choice)
            problem = _wrong_actor(state, data, who, choice, n, refusable)
        except ValueError as exc:  # not a seat of the game
            problem = f" ({who}: {choice}): {exc}"
        if problem:
            return state, failures + [f"{at}{problem}"], True, None
        try:
            state.apply_action(_offered(choice, state.legal_labels()))
        except IllegalChoice as exc:
            if refusable:
                return state, failures, False, (exc.code.value, str(exc))
            return state, failures + [f"{at}: {exc}{_why_not(state, choice)}"], True, None
        except RuleError as exc:  # a rule failed (RS701): this scenario fails, not the run
            if refusable:  # the game cannot go on: nothing after it is checked
                got = _refusal_failures(data["expect_error"], (exc.code, exc.message))
                return state, failures + got, True, None
            return state, failures + [f"{at}: {exc}"], True, None
    return state, failures, False, None


def _why_not(state: State, choice: str) -> str:
    """Why a step's card (`play ace_of_hearts`, or the card alone) is no option, after
    a semicolon, where the rules say so plainly; "" otherwise."""
    words = str(choice).split()
    action, card = (words[0], words[1]) if len(words) > 1 else (None, words[0] if words else "")
    why = why_not(state, card, card, action)
    return f"; {why}" if why else ""


def _not_next_game(state: State, data: dict, number: int, wanted: int) -> str:
    """Why the match cannot go on to game `wanted` now ('' when it can): games come
    in order, each once the one before is over."""
    if wanted != number + 1:
        return f"the scenario is in game {number}: the next is game {number + 1}"
    _run_on(state, data)
    if not state.is_terminal():
        return (
            f"game {number} is not over: {_actor(state)} is to act "
            f"(options: {', '.join(state.legal_labels())})"
        )
    return ""


def _next_game(state: State, data: dict, number: int) -> State:
    """The match's next game, as `rulespec run --games` starts it: seeded one more,
    from the spec's setup, with the counters the game before carries."""
    return state.game.new_initial_state(
        seed=data.get("seed", 0) + number,
        turn_limit=data.get("turn_limit"),
        game_index=number,
        carried=state.carry(),
    )


def _wrong_actor(state: State, data: dict, who: str, choice: str, n: int, refusable: bool) -> str:
    """Why `who` cannot make this step now ('' when it can). A step after the end is
    left to the state to refuse (`game/over`) when it is the refusal expected."""
    if data.get("auto") == "forced":
        _forced(state, (who, choice))
    _settle(state)
    if state.is_terminal():
        if refusable:
            return ""
        engine = [e["message"] for e in state.log_for(None) if e["event"] == "error"]
        why = f"{state.reason}: {engine[-1]}" if engine else state.reason
        return f" ({who}: {choice}): the game is already over ({why})"
    if who != "chance":
        parse_seat(who, n)
    actor = _actor(state)
    if actor != who:
        return (
            f": expected {who} to act, but {actor} is to act "
            f"(options: {', '.join(state.legal_labels())})"
        )
    return ""


def _refusal_failures(want: dict, got: tuple[str, str] | None) -> list[str]:
    if got is None:
        return [f"expected a refusal ({_shown(want)}), but nothing was refused"]
    code, message = got
    return [
        f"refusal {key}: expected {want[key]!r}, got {value!r}"
        for key, value in (("code", code), ("message", message))
        if key in want and want[key] != value
    ]


def _shown(refusal: dict) -> str:
    return ", ".join(f"{k} {v!r}" for k, v in refusal.items())


def _checkpoint(state: State, data: dict, expect: dict, n: int) -> list[str]:
    """What must hold now: forced choice points are taken first under `auto: forced`."""
    _run_on(state, data)
    return _check(state, expect, n)


def _checked(state: State, data: dict, expect: dict, n: int, at: str) -> list[str]:
    """A check point's failures, each at its place in the file (`at`): a seat the
    game does not have (`seen_by: {P7: ...}`) is one of them."""
    try:
        failures = _checkpoint(state, data, expect, n)
    except ValueError as exc:
        failures = [str(exc)]
    return [f"{at}: {f}" for f in failures]


def _run_on(state: State, data: dict) -> None:
    """The game run on to its next real decision: forced choice points taken under
    `auto: forced`, shuffles sampled."""
    if data.get("auto") == "forced":
        _forced(state)
    _settle(state)


def _check(state: State, expect: dict, n: int) -> list[str]:
    seen = state.observation(None)
    failures = _zone_failures(state, expect)
    counters = seen["counters"]
    for written, want, _ in _counters(expect.get("counters")):
        name = _label(state.game, written)
        if name not in counters:  # not "expected null, got null": a label mistyped
            meant = _meant(state.game, "counter", name, list(counters))
            failures.append(f"counter {name}: no such counter ({meant})")
            continue
        got = counters[name]
        if got != _counter_value(state.game, name, want, n):
            shown = seat_said(got) if isinstance(want, str) and isinstance(got, int) else got
            failures.append(f"counter {name}: expected {as_yaml(want)}, got {as_yaml(shown)}")
    failures += _value_failures(state, seen, expect, n)
    failures += _mark_failures(state, seen, expect, n)
    failures += _event_failures(state.log_for(None), expect, n, state.game.counter_names)
    for seat, view in (expect.get("seen_by") or {}).items():
        failures += _view_failures(state, parse_seat(seat, n), view, n)
    return failures + _end_failures(state, expect) + _turn_failures(state, expect, seen)


def _value_failures(state: State, seen: dict, expect: dict, n: int) -> list[str]:
    """`expect.values`: each listed named value the table shows (`shown: true`), as a
    spectator's table shows it, written as a counter is (`score: {P1: 3}`)."""
    failures, values = [], seen.get("values", {})
    for label, want, _ in _counters(expect.get("values")):
        name = parse_label(label)[0]
        if label not in values:
            failures.append(f"value {label}: {_unshown(state.game, name, label, values)}")
            continue
        holds = state.game.spec.condition(name).type
        got = values[label]
        if got != _held(f"value {label}", holds, want, n):
            said = seat_said(got) if holds == "player" else got
            failures.append(f"value {label}: expected {as_yaml(want)}, got {as_yaml(said)}")
    return failures


def _unshown(game: Game, name: str, label: str, values: dict) -> str:
    """Why a scenario's value is none the table shows: not shown, or a label mistyped."""
    value = next((c for c in game.spec.conditions if c.name == name and c.type != "bool"), None)
    if value is not None and not value.shown:
        return f"'{name}' is not shown at the table (give it shown: true)"
    known = _meant(game, "value", label, list(values)) if values else "the table shows none"
    return f"no such value the table shows ({known})"


def _mark_failures(state: State, seen: dict, expect: dict, n: int) -> list[str]:
    """`expect.marks`: each listed zone's cards whose per_card counters are off their
    initial values, with those values (a seat written P2), in any order."""
    game, failures = state.game, []
    for written, want in (expect.get("marks") or {}).items():
        label = _label(game, written)
        if label not in seen["zones"]:
            meant = _meant(game, "zone", label, list(seen["zones"]))
            failures.append(f"marks of zone {label}: no such zone ({meant})")
            continue
        got = [  # the observation gives a card's counters off their initial values
            {"card": name} | marks
            for name, marks in zip(seen["zones"][label], seen.get("marks", {}).get(label, ()))
            if marks
        ]
        if sorted(_marks_held(game, want, n), key=repr) != sorted(got, key=repr):
            players = {k for k, t in zip(game.mark_names, game.mark_types) if t == "player"}
            said = [{k: seat_said(v) if k in players else v for k, v in e.items()} for e in got]
            failures.append(f"marks of zone {label}: expected {want}, got {sorted(said, key=repr)}")
    return failures


def _ordered(state: State) -> dict[str, bool]:
    """Zone label -> whether the zone is ordered (a pile)."""
    return {slot.label: slot.zone.ordered for slot in state.game.slots}


def _as_listed(want, ordered: bool):
    """An expected zone as it is compared: a set's cards in any order, a pile's as written."""
    return sorted(want) if isinstance(want, list) and not ordered else want


def _zone_failures(state: State, expect: dict) -> list[str]:
    failures = []
    ordered = _ordered(state)
    for written, want in (expect.get("zones") or {}).items():
        label = _label(state.game, written)
        if label not in ordered:
            meant = _meant(state.game, "zone", label, list(ordered))
            failures.append(f"zone {label}: no such zone ({meant})")
            continue
        got = _contents(state, label, ordered[label])
        want = _as_listed(want, ordered[label])
        if not _same(want, got):
            failures.append(f"zone {label}: expected {want}, got {got}")
    return failures


def _end_failures(state: State, expect: dict) -> list[str]:
    failures = []
    if "winners" in expect and state.result["winners"] != list(expect["winners"]):
        failures.append(f"winners: expected {expect['winners']}, got {state.result['winners']}")
    if "payoffs" in expect:
        got = state.result.get("payoffs")
        if got is None or any(got.get(seat) != v for seat, v in expect["payoffs"].items()):
            failures.append(f"payoffs: expected {expect['payoffs']}, got {got}")
    if "reason" in expect and state.reason != expect["reason"]:
        failures.append(f"end reason: expected {expect['reason']!r}, got {state.reason!r}")
    if "over" in expect and state.is_terminal() != expect["over"]:
        failures.append(f"over: expected {expect['over']}, got {state.is_terminal()}")
    return failures


def _turn_failures(state: State, expect: dict, seen: dict) -> list[str]:
    """Who is to act and what they may do; a game that ended says so, as the cause."""
    failures = []
    if "current" in expect and seen["current"] != expect["current"]:
        failures.append(f"current: expected {expect['current']}, got {seen['current']}")
    if "active" in expect and seen["active"] != list(expect["active"]):
        failures.append(f"active: expected {expect['active']}, got {seen['active']}")
    if "to_act" in expect and _actor(state) != expect["to_act"]:
        failures.append(f"to act: expected {expect['to_act']}, got {_actor(state)}")
    legal = state.legal_labels()

    def named(o) -> str:
        return _offered(_option(state.game, o), legal)

    if "options" in expect and legal != [named(o) for o in expect["options"]]:
        written = list(map(str, expect["options"]))
        got = _by_value(state.game, legal) if written != list(map(named, written)) else legal
        failures.append(f"options: expected {written}, got {got}")
    for key in ("offered", "not_offered"):  # a label no decision gives proves nothing
        failures += [f"{key}: {never}" for never in _never_offered(state, expect.get(key, ()))]
    missing = [str(o) for o in expect.get("offered", ()) if named(o) not in legal]
    if missing:
        failures.append(f"offered: expected {missing}, not among the options {legal}")
    there = [str(o) for o in expect.get("not_offered", ()) if named(o) in legal]
    if there:
        failures.append(f"not_offered: expected {there} not offered, but among the options {legal}")
    if failures and state.is_terminal():
        failures = [f"{f} (the game is over: {state.reason})" for f in failures]
    elif "current" in expect and seen["current"] != expect["current"] and "to_act" not in expect:
        # the turn has not passed: say on what decision it waits
        one = len(state.legal_actions()) == 1 and state.current_player() != CHANCE
        failures.append(
            f"the game waits on {_actor(state)}"
            + (" to take its one option (auto: forced takes such choices)" if one else "")
        )
    return failures


def _event_failures(
    events: list[dict], expect: dict, n: int, counters: list[str], who: str = ""
) -> list[str]:
    """Events are matched with their seats as numbers and reported as written (`P2`);
    `counters`: the game's counters' labels."""

    def found(want):
        want = _numbered(want, n)
        return any(_matches(want, e) for e in events)

    return [
        f"{who}no event matching {want}{_nearest(want, events, n, counters)}"
        for want in expect.get("events") or ()
        if not found(want)
    ] + [
        f"{who}an event matches {want}, expected none"
        for want in expect.get("no_events") or ()
        if found(want)
    ]


SEAT_FIELDS = ("player", "target", "winners", "players")  # an event's fields that hold seats
NEAREST = 3  # the events a failed `events` entry shows, those closest to it


def _nearest(want: dict, events: list[dict], n: int, counters: list[str]) -> str:
    """What the log holds closest to an event expected and not found, as a scenario
    writes it: the events of its kind that match most of its fields (their fields the
    entry names), so that a writer sees which cards moved, or that none did. A seat's
    counter written with a player (`counter: score, player: P2`) is looked for by its
    label, which is told (a Cribbage designer was told only that 'counter' events have
    no player)."""
    kind = want.get("event")
    label = f"{want.get('counter')}[{want.get('player')}]"
    if kind == "counter" and label in counters:
        want = {k: v for k, v in want.items() if k != "player"} | {"counter": label}
        nearest = _nearest(want, events, n, counters)
        return f"{nearest} ('counter' events have no player: a seat's counter is its label, counter: {label})"
    alike = [e for e in events if e.get("event") == kind]
    if not alike:
        return f"; the log has no '{kind}' event" if kind else ""
    numbered = _numbered(want, n)

    def score(e):
        return sum(_same(v, e.get(k)) for k, v in numbered.items())

    best = max(map(score, alike))
    shown = [{k: _written(k, e.get(k)) for k in want} for e in alike if score(e) == best][:NEAREST]
    fields = dict.fromkeys(k for e in alike for k in e)  # `turn` too: every event has one
    unknown = [k for k in want if k not in fields]  # a field no such event has: say which do
    said = f" ('{kind}' events have no {', '.join(unknown)}: their fields are {', '.join(fields)})"
    return "; nearest: " + ", ".join(map(str, shown)) + (said if unknown else "")


def _written(field: str, value):
    """An event's field as a scenario writes it: its seats as P1, P2, ..."""
    if field not in SEAT_FIELDS or not isinstance(value, (int, list)):
        return value
    return [seat_name(v) for v in value] if isinstance(value, list) else seat_name(value)


def _view_failures(state: State, seat: int, view: dict, n: int) -> list[str]:
    """What one seat's observation and log must show (`expect.seen_by`): zones as the
    observation gives them, events of the seat's log."""
    who, zones = f"as {seat_name(seat)} sees it: ", state.observation(seat)["zones"]
    ordered, failures = _ordered(state), []
    for written, want in (view.get("zones") or {}).items():
        label = _label(state.game, written)
        got, pile = zones.get(label), ordered.get(label, True)
        if pile and isinstance(got, list):
            got = got[::-1]  # an observation lists a pile bottom first; a scenario, top first
        want = _as_listed(want, pile)  # as expect.zones takes it
        if not _same(want, got):
            failures.append(f"{who}zone {label}: expected {want}, got {got}")
    return failures + _event_failures(state.log_for(seat), view, n, state.game.counter_names, who)


# a spec's or variant's top-level key (a file may begin with a byte order mark), and a
# scenario's
DECLARES_SPEC = re.compile(r"^\ufeff?rulespec\s*:", re.M)
NAMES_SPEC = re.compile(r"^\ufeff?spec\s*:", re.M)


def collect(paths) -> list[Path]:
    """Scenario files under the given files and directories, sorted: in a directory,
    the YAML files but specs and variants (those declaring `rulespec:`), which a
    designer keeps beside the scenarios that test them."""
    out = []
    for p in map(Path, paths):
        out.extend(sorted(f for f in p.rglob("*.yaml") if not _is_spec(f)) if p.is_dir() else [p])
    return out


def _is_spec(path: Path) -> bool:
    """Does the file declare `rulespec:` and name no spec, as a spec or variant does?"""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:  # unreadable: the run says why
        return False
    return DECLARES_SPEC.search(text) is not None and NAMES_SPEC.search(text) is None
