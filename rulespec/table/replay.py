"""Re-run a game log written by `rulespec run --log` and check it plays out the same.

Each game of the log is played again from its header (spec, variants, players, seed,
turn limit): chance comes from the seed (C-2) and every player's choice from the log's
`choice` events. The events the replay produces must equal the logged ones; the first
difference is reported with its line in the log. Later games of a match carry the
counters of the game before, as `run --games N` does.
"""

from __future__ import annotations

import json
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rulespec.interpreter import Game, IllegalChoice, State
from rulespec.interpreter.observe import log_for

from ..lang.schema import load_schema
from ..lang.variants import find_variant
from .files import named_spec, replacing

MAX_LINE = 100_000  # bytes; a header or an event is a few hundred
MAX_DEPTH = 20  # nesting of JSON arrays and objects; events nest three deep
MATCH_KEYS = ("spec", "variants", "players")  # the same for every game of a match
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


class LogError(ValueError):
    """A log that cannot be replayed, with the place and code of its first problem:
    RS801 a line that is not a JSON object (or too long or deep to read), RS802 a
    header or choice that does not fit schemas/log.schema.json, RS803 games that do
    not fit together or a spec that cannot be used."""

    def __init__(self, file: str, line: int | None, code: str, message: str):
        super().__init__(f"{file}{f':{line}' if line else ''}: error {code}: {message}")


@dataclass
class LoggedGame:
    line: int  # of its header
    header: dict
    events: list[tuple[int, dict]]  # (line number, event)


@dataclass
class Outcome:
    game: int  # as numbered in the log, from 1
    seed: int
    events: int  # events compared
    difference: str = ""  # empty when the replay matches the log
    result: dict | None = None

    @property
    def same(self) -> bool:
        return not self.difference


@contextmanager
def log_writer(path: str, spec: str, variants: list[str], players: int, inputs=(), **fields):
    """A log that replay() reads, written game by game as a match is played (nothing
    of a game is kept once it is written): the block gets add(game_number, seed,
    events, result), which writes the game's header (the spec and variant files
    relative to the log's folder, the players, seed, game number, `fields`, the
    result), then its events. The log appears whole when the block ends, or not at
    all, never over one of `inputs` (OutputError)."""
    folder = Path(os.path.realpath(path)).parent

    def relative(file) -> str:
        return os.path.relpath(os.path.realpath(file), folder)

    files = {
        "spec": relative(spec),
        "variants": [relative(find_variant(spec, v)) for v in variants],
    }
    with replacing(path, inputs) as temporary, open(temporary, "w", encoding="utf-8") as fh:

        def add(number: int, seed: int, events: list[dict], result: dict) -> None:
            header = (
                files
                | {"players": players, "seed": seed, "game": number}
                | fields
                | {"result": result}
            )
            for record in [header] + events:
                fh.write(json.dumps(record, default=list) + "\n")

        yield add


@cache
def _validator():
    import jsonschema  # here: writing a log (run --log) needs none of it

    integers = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: type(value) is int
    )  # 1.0 and 1.5 are no seed, no player count
    kind = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=integers)
    return kind(load_schema("log"))


def _record(path: str, number: int, raw: bytes) -> dict:
    """One line of a log as a checked JSON object; its length and nesting are bounded
    before it is parsed."""

    def fail(code, message):
        raise LogError(path, number, code, message)

    if len(raw) > MAX_LINE:
        fail("RS801", f"the line is longer than {MAX_LINE:,} bytes")
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        fail("RS801", f"not UTF-8 ({exc.reason})")
    depth = deepest = 0
    for ch in re.sub(r"[^][{}]", "", _STRING.sub("", line)):
        depth += 1 if ch in "[{" else -1
        deepest = max(depth, deepest)
    if deepest > MAX_DEPTH:
        fail("RS801", f"arrays and objects are nested more than {MAX_DEPTH} deep")
    try:
        record = json.loads(line)
    except ValueError as exc:  # not JSON, or a number of thousands of digits
        fail("RS801", f"not JSON ({getattr(exc, 'msg', exc)})")
    if not isinstance(record, dict):
        fail("RS801", "a log line is a JSON object")
    errors = sorted(_validator().iter_errors(record), key=lambda e: list(map(str, e.path)))
    missing = [e.message.split("'")[1] for e in errors if e.validator == "required"]
    what = (
        "a game header"
        if "event" not in record
        else f"a {record['event']} event"
        if record["event"] in ("round", "round_end")
        else "a choice event"
    )
    if missing:
        fail("RS802", f"{what} needs {', '.join(missing)}")
    if errors:
        where = ".".join(map(str, errors[0].path)) or what
        message = errors[0].message
        fail("RS802", f"{where}: {message if len(message) <= 200 else message[:200] + '…'}")
    return record


def read_log(path: str) -> list[LoggedGame]:
    """The games of a log file, each header and choice checked against the log schema."""
    games: list[LoggedGame] = []
    try:
        with open(path, "rb") as fh:
            for number, raw in enumerate(iter(lambda: fh.readline(MAX_LINE + 1), b""), 1):
                if not raw.strip():
                    continue
                record = _record(path, number, raw)
                if "event" in record:
                    if not games:
                        raise LogError(
                            path,
                            number,
                            "RS803",
                            "an event before the first game "
                            "header (write logs with rulespec run --log)",
                        )
                    games[-1].events.append((number, record))
                    continue
                _follows(path, number, record, games[-1].header if games else None)
                games.append(LoggedGame(number, record, []))
    except OSError as exc:
        raise LogError(path, None, "RS801", f"cannot read file: {exc.strerror or exc}") from None
    if not games:
        raise LogError(path, None, "RS803", "no game in the log")
    return games


def _follows(path: str, number: int, header: dict, before: dict | None) -> None:
    """A header's game number follows the game before: 1 starts a match, k > 1 goes on
    with game k - 1 of the same spec, variants and players."""
    if header["game"] == 1:
        return
    if before is None or header["game"] != before["game"] + 1:
        raise LogError(
            path,
            number,
            "RS803",
            f"game {header['game']} does not follow "
            f"{'the game before' if before else 'a game 1'}; the games of a match "
            "are numbered 1, 2, 3, ...",
        )
    for key in MATCH_KEYS:
        if header[key] != before[key]:
            raise LogError(
                path,
                number,
                "RS803",
                f"game {header['game']} has another {key} than the game before it in its match",
            )


def replay(path: str) -> list[Outcome]:
    """Replay every game of the log at path; raises LogError for what cannot be
    replayed at all, and SpecError for the problems of the spec it names."""
    outcomes, carried, definitions = [], None, {}
    for logged in read_log(path):
        header = logged.header
        key = (header["spec"], tuple(header["variants"]), header["players"])
        if key not in definitions:
            try:
                definitions[key] = Game(named_spec(key[0], path, key[1]), key[2])
            except ValueError as exc:  # no such file, or a player count the spec does not allow
                raise LogError(path, logged.line, "RS803", str(exc)) from None
        game = start(definitions[key], header, carried)
        stuck = play_choices(game, logged)
        replayed = json.loads(json.dumps(log_for(game, None), default=list))
        found = [d for d in (stuck, _first_difference(logged.events, replayed)) if d]
        difference = min(found)[1] if found else ""  # the one earlier in the log
        outcomes.append(
            Outcome(header["game"], header["seed"], len(logged.events), difference, game.result)
        )
        carried = game.carry()
    return outcomes


def start(definition: Game, header: dict, carried) -> State:
    """A logged game's first state: its seed, its turn limit, its place in its match and
    what the games before it carried."""
    return definition.new_initial_state(
        seed=header["seed"],
        turn_limit=header.get("max_turns"),
        game_index=header["game"] - 1,
        carried=carried if header["game"] > 1 else None,
    )


def play_choices(game: State, logged) -> tuple[float, str] | None:
    """Apply a logged game's choices; (line, description) of the first that cannot be."""
    for number, choice in logged.events:
        if choice["event"] != "choice":
            continue
        stuck = apply_logged(game, number, choice)
        if stuck is not None:
            return number, stuck
    while game.is_chance_node():
        game.sample_chance()
    return None


def apply_logged(game: State, number: int, choice: dict) -> str | None:
    """Apply the choice logged at line `number`, after the chance before it (from the
    game's seed): None, or why the game cannot take it, naming the line."""
    while game.is_chance_node():
        game.sample_chance()
    if game.is_terminal():
        return f"line {number}: the replayed game is over, but the log has this choice"
    if game.current_player() != choice["player"]:
        return (
            f"line {number}: the log has a choice by player {choice['player']}, "
            f"the replay asks player {game.current_player()}"
        )
    try:
        game.apply_action(choice["option"])
    except IllegalChoice as exc:
        return f"line {number}: {exc}"
    return None


def _first_difference(
    logged: list[tuple[int, dict]], replayed: list[dict]
) -> tuple[float, str] | None:
    """(line, description) of the first event the replay does not reproduce."""
    for i, (number, event) in enumerate(logged):
        if i >= len(replayed):
            return (
                number,
                f"line {number}: the log goes on with {json.dumps(event)}; the replay stops",
            )
        if replayed[i] != event:
            return (
                number,
                f"line {number}: logged {json.dumps(event)}, replayed {json.dumps(replayed[i])}",
            )
    if len(replayed) > len(logged):
        return float("inf"), (
            "after the log's last event the replay goes on with "
            f"{json.dumps(replayed[len(logged)])}"
        )
    return None
