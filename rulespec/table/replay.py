"""Re-run a game log written by `rulespec run --log` and check it plays out the same.

Each game of the log is played again from its header (spec, variants, players, seed,
turn limit): chance comes from the seed (C-2) and every player's choice from the log's
`choice` events. The events the replay produces must equal the logged ones; the first
difference is reported with its line in the log. Later games of a match carry the
counters of the game before, as `run --games N` does.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from interpreter import CHANCE, Game, IllegalChoice, State
from interpreter.observe import log_for

from ..lang.compiler import load_spec

HEADER_KEYS = ("spec", "variants", "players", "seed", "game")


class LogError(ValueError):
    """A log that cannot be replayed: not a game log, or unreadable."""


@dataclass
class Outcome:
    game: int                 # as numbered in the log, from 1
    seed: int
    events: int               # events compared
    difference: str = ""      # empty when the replay matches the log
    result: dict | None = None

    @property
    def same(self) -> bool:
        return not self.difference


def read_log(path: str) -> list[tuple[dict, list[tuple[int, dict]]]]:
    """(header, [(line number, event), ...]) for each game of a log file."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    games: list = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict):
            raise LogError(f"{path}:{number}: a log line is a JSON object")
        if "event" not in record:
            missing = [k for k in HEADER_KEYS if k not in record]
            if missing:
                raise LogError(f"{path}:{number}: a game header needs {', '.join(missing)}")
            games.append((record, []))
        elif not games:
            raise LogError(f"{path}:{number}: an event before the first game header "
                           "(write logs with rulespec run --log)")
        else:
            games[-1][1].append((number, record))
    if not games:
        raise LogError(f"{path}: no game in the log")
    return games


def replay(path: str) -> list[Outcome]:
    """Replay every game of the log at path; raises LogError, FileNotFoundError and
    SpecError (the spec it names) for what cannot be replayed at all."""
    outcomes, carried, definitions = [], None, {}
    for header, logged in read_log(path):
        key = (header["spec"], tuple(header["variants"] or ()), header["players"])
        if key not in definitions:
            spec = Path(header["spec"])  # as given to run: from where it ran, or the log's folder
            if not spec.is_file() and (Path(path).parent / spec).is_file():
                spec = Path(path).parent / spec
            definitions[key] = Game(load_spec(spec, variants=list(key[1])), header["players"])
        game = definitions[key].new_initial_state(seed=header["seed"], turn_limit=header.get("max_turns"),
                                            game_index=header["game"] - 1,
                                            carried=carried if header["game"] > 1 else None)
        stuck = _play_choices(game, [(n, e) for n, e in logged if e.get("event") == "choice"])
        replayed = json.loads(json.dumps(log_for(game, None), default=list))
        found = [d for d in (stuck, _first_difference(logged, replayed)) if d]
        difference = min(found)[1] if found else ""  # the one earlier in the log
        outcomes.append(Outcome(header["game"], header["seed"], len(logged), difference, game.result))
        carried = game.carry()
    return outcomes


def _play_choices(game: State, choices: list[tuple[int, dict]]) -> tuple[float, str] | None:
    """Apply the logged choices; (line, description) of the first that cannot be."""
    for number, choice in choices:
        while game.is_chance_node():
            game.sample_chance()
        if game.is_terminal():
            return number, f"line {number}: the replayed game is over, but the log has this choice"
        if game.current_player() != choice.get("player"):
            return number, (f"line {number}: the log has a choice by player {choice.get('player')}, "
                            f"the replay asks player {game.current_player()}")
        try:
            game.apply_action(str(choice.get("option")))
        except IllegalChoice as exc:
            return number, f"line {number}: {exc}"
    while game.is_chance_node():
        game.sample_chance()
    return None


def _first_difference(logged: list[tuple[int, dict]], replayed: list[dict]) -> tuple[float, str] | None:
    """(line, description) of the first event the replay does not reproduce."""
    for i, (number, event) in enumerate(logged):
        if i >= len(replayed):
            return number, f"line {number}: the log goes on with {json.dumps(event)}; the replay stops"
        if replayed[i] != event:
            return number, f"line {number}: logged {json.dumps(event)}, replayed {json.dumps(replayed[i])}"
    if len(replayed) > len(logged):
        return float("inf"), ("after the log's last event the replay goes on with "
                              f"{json.dumps(replayed[len(logged)])}")
    return None
