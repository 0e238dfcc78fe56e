"""Re-run a game log written by `rulespec run --log` and check it plays out the same.

Each game of the log is played again from its header (spec, variants, players, seed,
turn limit): chance comes from the seed (C-2) and every player's choice from the log's
`choice` events. The events the replay produces must equal the logged ones, compared
as the log is read: the first difference is reported with its line in the log, and
the replay stops there, reading no further. Later games of a match carry the counters
of the game before, as `run --games N` does.
"""

from __future__ import annotations

import json
import os
import re
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rulespec.interpreter import LOG_FORMAT, Game, IllegalChoice, RuleError, State

from ..lang.schema import load_schema
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
    seen: list | None = None  # replay(narrate=...): what narrate gave for the game
    older: int = 0  # events read in an older form (_older_form), taken as the same

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
    from ..lang.variants import find_variant  # YAML: only a run that writes a log loads it

    folder = Path(os.path.realpath(path)).parent

    def relative(file) -> str:
        return os.path.relpath(os.path.realpath(file), folder)

    files = {
        "log": LOG_FORMAT,
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


def stopped(exc: RuleError) -> dict:
    """A rule that failed and stopped a game, as its log's header keeps it (its result's
    `error`) and a replay compares it: the file is left out, as the log names it."""
    return {
        "code": exc.code,
        "rule": exc.rule,
        "line": exc.span.line,
        "col": exc.span.col,
        "message": exc.message,
    }


@cache
def _validator():
    import jsonschema  # here: writing a log (run --log) needs none of it

    integers = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: type(value) is int
    )  # 1.0 and 1.5 are no seed, no player count
    kind = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=integers)
    return kind(load_schema("log"))


# A log's format, in its game headers (`log`, Game's LOG_FORMAT): 2 from 2026-12, when a
# play step offered again with only pass left came to ask for it; 3 from 2026-12-07, when
# cards leaving a zone that is no pile together came to go in deck order; 4 from
# 2026-12-07, when such cards a sort found tied did too (a log of an older format is
# replayed as it was played: Game's log_format); 5 from 2026-12-07, when a secret choice
# of a set whose size the rules do not fix came to be logged without it (_counted); 6
# from 2026-12-08, when a play that picks a card some seat is not told of came to name
# the zone it lies in (`chosen_from`, _lacks), and a `choose`'s only branch offered came
# to be logged `forced` (_unforced). A log without a format is of an older rulespec,
# whose older forms replay reads as the same (_older_step, _older_form, _passed_on).


def _not_json(line: str, number: int, exc: ValueError) -> str:
    """RS801's words for a line that is not JSON: a YAML file's first line (a spec given
    for a log) says what replay reads."""
    said = getattr(exc, "msg", str(exc))
    if isinstance(exc, json.JSONDecodeError):  # where: a log cut short, say
        said += f"{'' if said.endswith(' at') else ' at'} column {exc.colno}"
    said = f"not JSON ({said})"
    if number == 1 and re.match(r"\s*(#|rulespec:|[A-Za-z_]\w*:\s)", line):
        said += ": this looks like YAML; replay reads a log written by `rulespec run --log LOG`"
    return said


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
    if number == 1:
        line = line.removeprefix("\ufeff")  # a byte order mark an editor saved, as specs take
    depth = deepest = 0
    for ch in re.sub(r"[^][{}]", "", _STRING.sub("", line)):
        depth += 1 if ch in "[{" else -1
        deepest = max(depth, deepest)
    if deepest > MAX_DEPTH:
        fail("RS801", f"arrays and objects are nested more than {MAX_DEPTH} deep")
    try:
        record = json.loads(line)
    except ValueError as exc:  # not JSON, or a number of thousands of digits
        fail("RS801", _not_json(line, number, exc))
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
        if errors[0].validator == "type":  # JSON's words, not Python's (true, not True)
            fail("RS802", _wrong_type(where, errors[0]))
        message = errors[0].message
        fail("RS802", f"{where}: {message if len(message) <= 200 else message[:200] + '…'}")
    return record


_JSON_TYPES = {"integer": "an integer", "string": "a string", "array": "an array", "null": "null"}


def _wrong_type(where: str, err) -> str:
    """`players must be an integer, not true`: the type wanted, and the value as the
    log has it."""
    want = err.validator_value
    want = " or ".join(
        _JSON_TYPES.get(t, f"a {t}") for t in ([want] if isinstance(want, str) else want)
    )
    value = json.dumps(err.instance)
    return f"{where} must be {want}, not {value if len(value) <= 60 else value[:60] + '…'}"


def read_log(path: str) -> list[LoggedGame]:
    """The games of a log file, each header and choice checked against the log schema."""
    games: list[LoggedGame] = []
    for number, record in records(path):
        if "event" in record:
            games[-1].events.append((number, record))
        else:
            games.append(LoggedGame(number, record, []))
    return games


def records(path: str) -> Iterator[tuple[int, dict]]:
    """(line number, record) for each line of a log file as it is read, each checked
    (RS801, RS802) and each header after the game before it (RS803); a log without a
    game is an RS803 once it ends."""
    header = None
    try:
        with open(path, "rb") as fh:
            for number, raw in enumerate(iter(lambda: fh.readline(MAX_LINE + 1), b""), 1):
                if not raw.strip():
                    continue
                record = _record(path, number, raw)
                if "event" not in record:
                    _follows(path, number, record, header)
                    header = record
                elif header is None:
                    raise LogError(
                        path,
                        number,
                        "RS803",
                        "an event before the first game "
                        "header (write logs with rulespec run --log)",
                    )
                yield number, record
    except OSError as exc:
        raise LogError(path, None, "RS801", f"cannot read file: {exc.strerror or exc}") from None
    if header is None:
        raise LogError(path, None, "RS803", "no game in the log")


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


def replay(path: str, narrate=None) -> list[Outcome]:
    """Replay the games of the log at path, each as it is read, up to the first that
    differs: the rest of the log is not read (a large log that differs at line 2 took
    minutes). `narrate(state, header)`, if given, is called with each game that
    replayed the same as it ends; what it returns is the outcome's `seen`. Raises
    LogError for what cannot be replayed at all, and SpecError for the problems of the
    spec it names."""
    outcomes, definitions, playing = [], {}, None
    for number, record in records(path):
        if "event" not in record:  # a header: the game before it ends, the next begins
            if playing is not None:
                outcomes.append(playing.outcome(playing.finish(), narrate))
                if not outcomes[-1].same:
                    return outcomes
            carried = playing.game.carry() if playing is not None else None
            definition = _definition(definitions, path, number, record)
            playing = _Replaying(definition, record, carried, number)
            continue
        difference = playing.compare(number, record)
        if difference:
            outcomes.append(playing.outcome(difference))
            return outcomes
    outcomes.append(playing.outcome(playing.finish(), narrate))
    return outcomes


def _definition(definitions: dict, path: str, number: int, header: dict) -> Game:
    """The game a header names, made once for the log's games alike."""
    played_as = min(header.get("log", 1), LOG_FORMAT)  # an older engine's order of cards
    key = (header["spec"], tuple(header["variants"]), header["players"], played_as)
    if key not in definitions:
        try:
            spec = named_spec(key[0], path, key[1])
            definitions[key] = Game(spec, key[2], log_format=played_as)
        except ValueError as exc:  # no such file, or a player count the spec does not allow
            raise LogError(path, number, "RS803", str(exc)) from None
    return definitions[key]


class _Replaying:
    """A logged game played again as its log is read: each logged event is compared
    with the replay's next one as soon as it is read, a logged choice applied when the
    replay has no event left before it, and chance played from the seed (C-2)."""

    def __init__(self, definition: Game, header: dict, carried: dict | None, line: int):
        self.header, self.game = header, start(definition, header, carried)
        self.line = line  # the log's line read last for this game: its header, its events
        self.events, self.taken = 0, 0  # logged events compared; replayed events taken
        self.older = 0  # logged events in an older form (_older_form)
        # a log of format 3 on is compared as it is: the older forms are an older log's
        self.strict = header.get("log", 1) >= 3
        self.counted = header.get("log", 1) < 5  # every secret set's size was logged
        self.unplaced = header.get("log", 1) < 6  # no play named where its picked card lay
        self.unforced = header.get("log", 1) < 6  # no only branch was logged `forced`
        self.ahead: deque = deque()  # replayed events not compared yet
        self.error: RuleError | None = None  # the rule that failed, stopping the game
        self._read_on()  # what the game logged as it was made: its first turn, without chance

    def compare(self, number: int, event: dict) -> str:
        """The difference at the logged event at line `number`, or ''."""
        self.events, self.line = self.events + 1, number
        if not self.strict and self._older_step(event):
            self.older += 1
            return ""
        while not self.ahead:
            if self.error is not None:
                return (
                    f"line {number}: the log goes on with {json.dumps(event)}; the replay "
                    f"stopped on {self.error}"
                )
            try:
                stuck = self._play_on(number, event)
            except RuleError as exc:  # the events logged before it are still compared
                self.error = exc
                self._read_on()
                continue
            if stuck:
                return stuck
        replayed = self.ahead.popleft()
        if replayed == event:
            return ""
        if not self.strict and (_older_form(event, replayed) or self._passed_on(event, replayed)):
            self.older += 1
            return ""
        if (self.counted and _counted(event, replayed)) or (
            self.unforced and _unforced(event, replayed)
        ):
            self.older += 1
            return ""
        if self.unplaced and event.get("event") == "play" and _lacks(event, replayed, _PLACED):
            self.older += 1
            return ""
        return f"line {number}: logged {json.dumps(event)}, replayed {json.dumps(replayed)}"

    def _older_step(self, event: dict) -> bool:
        """Is the logged event one an older rulespec logged where this one logs none, or
        logs another (taken as the same, the replay kept in step)? Until 2026-12:
        - a shuffle of a zone of fewer than two cards, which is no shuffle;
        - `no_play` for a player at an `around` step with nothing to play who may pass,
          who is now asked, pass its one option (a choice and a pass are logged);
        and (_play_on) a play step offered again with nothing but pass left, which ended
        unasked and is now asked."""
        kind, game = event.get("event"), self.game
        if kind == "shuffle":  # the replay's own shuffle is next, or chance is to draw it
            ahead = self.ahead[0] if self.ahead else None
            return (ahead or {}).get("event") != "shuffle" and not (
                ahead is None and game.is_chance_node()
            )
        if kind != "no_play" or self.ahead or game.is_terminal():
            return False
        if game.current_player() != event.get("player") or game.legal_labels() != ["pass"]:
            return False
        if game.decision_asker() != f"turn.{event.get('step')}":  # another step's pass
            return False
        self._pass_unlogged()
        return True

    def _passed_on(self, event: dict, replayed: dict) -> bool:
        """Is the logged pass at the step after one offered again, which an older
        rulespec ended unasked? Its choice, a pass, was taken for the pass now asked
        there (`replayed`, the step offered again): the step the log passed is passed
        too, and its pass compared with the log's."""
        game = self.game
        if not (
            event.get("event") == replayed.get("event") == "pass"
            and event.get("player") == replayed.get("player")
            and event.get("step") != replayed.get("step")
            and not game.is_terminal()
            and game.decision_asker() == f"turn.{event.get('step')}"
            and "pass" in game.legal_labels()
        ):
            return False
        game.apply_action("pass")
        self._read_on()
        if self.ahead and self.ahead[0].get("event") == "choice":
            self.ahead.popleft()  # the logged choice, compared already with the other pass
        return bool(self.ahead) and self.ahead.popleft() == event

    def _pass_unlogged(self) -> None:
        """Take the pass an older rulespec did not ask for, and leave out of the
        comparison the choice and the pass this one logs for it."""
        self.game.apply_action("pass")
        self._read_on()
        while self.ahead and self.ahead[0].get("event") in ("choice", "pass"):
            self.ahead.popleft()

    def _play_on(self, number: int, event: dict) -> str:
        """Play the game on by one decision, chance's or the logged choice's: '' once
        done, else why it cannot be."""
        game = self.game
        if game.is_terminal():
            return f"line {number}: the log goes on with {json.dumps(event)}; the replay stops"
        if game.is_chance_node():
            game.sample_chance()
        elif (
            not self.strict
            and game.decision_again()
            and game.legal_labels() == ["pass"]
            and not (event["event"] == "choice" and _may_be(game, event))
        ):  # until 2026-12 a play step offered again with nothing but pass left ended
            # unasked: the log goes on where this rulespec asks for the pass
            self._pass_unlogged()
            self.older += 1
            return ""
        elif event["event"] != "choice":
            return (
                f"line {number}: logged {json.dumps(event)}; the replay waits for a choice "
                f"by player {game.current_player()}"
            )
        else:
            stuck = apply_logged(game, number, event)
            if stuck is not None:
                return stuck
        self._read_on()
        return ""

    def _read_on(self) -> None:
        new = self.game.log_for(None, self.taken)
        self.taken += len(new)
        self.ahead.extend(json.loads(json.dumps(new, default=list)))

    def finish(self) -> str:
        """The difference after the log's last event of the game, or '': a game the log
        says a rule stopped (its result's `error`) stops on that rule here too."""
        try:
            while self.error is None and self.game.is_chance_node():
                self.game.sample_chance()
        except RuleError as exc:
            self.error = exc
        self._read_on()
        if self.ahead:
            return (
                f"line {self.line}: the log's game ends here, and the replay goes on with "
                f"{json.dumps(self.ahead[0])}"
            )
        logged = (self.header.get("result") or {}).get("error")
        replayed = None if self.error is None else stopped(self.error)
        if logged == replayed:
            return ""
        if replayed is None:
            return (
                f"line {self.line}: the log's game stopped here on {json.dumps(logged)}, and "
                "the replay does not"
            )
        return (
            f"line {self.line}: the log's game ends here"
            f"{f' on {json.dumps(logged)}' if logged else ''}, and the replay stopped on "
            f"{self.error}"
        )

    def outcome(self, difference: str, narrate=None) -> Outcome:
        h = self.header
        seen = narrate(self.game, h) if narrate is not None and not difference else None
        result = self.game.result  # with the rule that stopped the game, as run --log writes it
        if self.error is not None:
            result |= {"error": stopped(self.error)}
        return Outcome(h["game"], h["seed"], self.events, difference, result, seen, self.older)


def _may_be(game: State, choice: dict) -> bool:
    """Can a logged choice be the pending decision's: its player's, one of its labels?"""
    return choice.get("player") == game.current_player() and choice.get("option") in set(
        game.legal_labels()
    )


def _older_form(logged: dict, replayed: dict) -> bool:
    """Is the logged event the replayed one as an older rulespec logged it? Until
    2026-12: a simultaneous pick of a set of cards logged its size (`count`), which told
    a seat asked later how many cards another took; it is logged without it now. A
    pass logged no `step`, which the narration now names. A play of a card chosen from
    a zone some seat cannot see (a buy from a face-down reserve) logged no `chosen`,
    which its chooser is now told (nor, until log format 6, where it lay: _PLACED)."""
    if logged.get("event") == "pass":
        return _lacks(logged, replayed, ("step",))
    if logged.get("event") == "play":
        return _lacks(logged, replayed, ("chosen", *_PLACED))
    return _counted(logged, replayed)


_PLACED = ("chosen_from",)  # what a play logs of where its picked card lay, from format 6


def _lacks(logged: dict, replayed: dict, fields: tuple[str, ...]) -> bool:
    """Is the logged event the replayed one but for some of `fields`, which a newer
    rulespec logs and the log lacks?"""
    lacked = [k for k in fields if k in replayed and k not in logged]
    return bool(lacked) and {k: v for k, v in replayed.items() if k not in lacked} == logged


def _counted(logged: dict, replayed: dict) -> bool:
    """Is the logged event the replayed choice of a set of cards, logged with its size
    (`count`), which this rulespec does not tell: a simultaneous pick's (until 2026-12),
    a secret pick whose size the rules do not fix (until log format 5)?"""
    option = replayed.get("option")
    return (
        logged.get("event") == "choice"
        and isinstance(option, str)
        and logged.get("count") == len(option.split("+"))  # a set's types joined by +
        and "count" not in replayed
        and {k: v for k, v in logged.items() if k != "count"} == replayed
    )


def _unforced(logged: dict, replayed: dict) -> bool:
    """Is the logged event the replayed choice of a `choose`'s only branch, `forced`,
    as a log before format 6 wrote it, without?"""
    return "forced" in replayed and {k: v for k, v in replayed.items() if k != "forced"} == logged


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
