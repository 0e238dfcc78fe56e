"""The games and replays a server holds in memory, keyed by id.

A live game seats people and agents. Each person's seat has a secret token, and so
has the spectator's place of a game only agents play (watch mode): a spectator sees
everything, so a game with a person at it has none. Agents play as soon as it is
their turn (or one decision at a time, when watched); a person's choice goes through
the engine's own legal-option check. A replay re-plays a log's choices and keeps the
game at a few of them, rebuilding any other point when it is asked for, to be looked
at from any point and any seat the log allows: a game a person saved before its end
shows only that person's seat, whether it is replayed or resumed.
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path

from rulespec.interpreter import Game, IllegalChoice, RuleError
from rulespec.interpreter.agents import decide, make_agents, tell, watchers
from rulespec.interpreter.choices import seat_name

from ..lang.diagnostics import SpecError
from ..lang.limits import MAX_TURN_LIMIT
from ..lang.pipeline import load_spec
from ..table import together
from ..table.files import SPEC_SUFFIXES, named_spec
from ..table.replay import (
    LOG_FORMAT,
    LogError,
    apply_logged,
    play_choices,
    read_log,
    start,
    stopped,
)
from ..table.scenarios import parse_seat
from . import views

PERSON = "person"
MAX_GAMES = 1000  # held at once; the oldest finished one makes room
MAX_SEED = 2**63
MAX_FRAMES = 20_000  # decisions of a replayed game
MAX_REPLAYED = 100_000  # decisions of all replays held at once (about 2 KB each)
CHECKPOINTS = 16  # games a replay keeps, evenly spaced: any other point is rebuilt
MAX_DEFINITIONS = 64  # compiled games kept


class Refused(Exception):
    """A request the server refuses: `status` (4xx) and a message for its JSON."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class Spec:
    """A spec the server offers in its lobby."""

    id: str  # the bundled game's name, or the file's stem
    path: str
    variants: list[str]
    title: str
    players: list  # least, most, default, and every count the game is for
    agents: list[str]  # the agents it can seat: not greedy without an evaluation

    loaded: dict = field(default_factory=dict, repr=False)  # variants -> the spec

    def load(self, variants: list[str]):
        """The spec with `variants`, each named once (a list of a thousand took the
        loader 40 s), loaded once."""
        unknown = [v for v in variants if v not in self.variants]
        if unknown:
            raise Refused(400, f"{self.id} has no variant '{unknown[0]}'")
        twice = [v for k, v in enumerate(variants) if v in variants[:k]]
        if twice:
            raise Refused(400, f"the variant '{twice[0]}' is named twice")
        key = tuple(variants)
        if key not in self.loaded:
            if len(self.loaded) >= MAX_DEFINITIONS:  # orders of many variants are many
                self.loaded.clear()
            self.loaded[key] = _loaded(lambda: load_spec(self.path, variants=variants))
        return self.loaded[key]


@dataclass
class Live:
    """A game being played: its state, who sits where, the seats' tokens."""

    id: str
    spec_path: str
    variants: list[str]
    seed: int
    seats: list[str]  # PERSON or an agent's name with its options
    state: object
    table: views.Table
    agents: list
    tokens: dict[int | None, str]  # seat (None: the spectator) -> its token
    max_turns: int | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    # seat -> (the option a person picked before their turn at a simultaneous choice,
    # the game's length when the rules are to ask them: that choice's, no later one)
    early: dict = field(default_factory=dict)
    rematch: Live | None = None  # the next game at this table, once asked for
    # the rule that failed and stopped the game (RS701), for its save: the state itself
    # only meets the failure again
    stopped: RuleError | None = None

    @property
    def watched(self) -> bool:
        return PERSON not in self.seats

    @property
    def alone(self) -> bool:
        """One person at the table, among agents: nobody else watches them decide."""
        return self.seats.count(PERSON) == 1

    def seat_of(self, name: str, token: str | None) -> int | None:
        """The seat `name` (P1, ...; `spectator`) if `token` is its token; 403 else."""
        seat = seat_number(name, len(self.seats))
        if seat not in self.tokens:  # a spectator's link where people sit: none was made
            raise Refused(403, f"this game has no {name} link: ask for the game's seat links")
        if not same_token(self.tokens[seat], token):
            raise Refused(403, f"this link is not the {name} link: ask for the game's seat links")
        return seat

    def settle(self, one: bool = False) -> None:
        """Let chance and the agents play until a person is to choose or the game is
        over; with `one`, only up to the next agent's decision (a watched step)."""
        s = self.state
        while not s.is_terminal():
            # a pick made early lasts until its choice has passed (its seat passed over)
            self.early = {p: (o, at) for p, (o, at) in self.early.items() if at >= s.length}
            if s.is_chance_node():
                self._moved(s.sample_chance)
                continue
            who, options = s.current_player(), s.legal_actions()
            agent = self.agents[who]
            if len(options) == 1 and (agent is not None or self.alone):
                # as `rulespec play`: nobody is asked to take the only way, but a person
                # beside other people, whom a decision taken at once would tell that they
                # had no other (a card to block with, one to play)
                self.apply(who, options[0])
                continue
            if agent is None:
                early, at = self.early.pop(who, (None, None))
                picked = next((o for o in options if early and o.label == early.label), None)
                if picked is None or at != s.length:  # none made early, or for another choice
                    return
                self.apply(who, picked)
                continue
            self.apply(who, decide(agent, s, who, options))
            if one:
                return
        self.early.clear()  # the game is over

    def apply(self, who: int, choice) -> None:
        """Apply a seat's choice, first told to the agents that watch the table (a kept
        tree, a belief), as `rulespec play` tells them: what each seat is shown of it."""
        tell(watchers(self.agents), self.state, who, choice)
        self._moved(self.state.apply_action, choice)

    def _moved(self, move, *args) -> None:
        """A move of the game (a choice, chance's); a rule that fails in it stops the
        game, which is kept as it stood, for a save up to there (log_lines)."""
        try:
            move(*args)
        except RuleError as exc:
            self.stopped = exc
            raise

    def choose(self, seat: int, label, events=None) -> None:
        """A person's choice, by its option's label; 409 when it is not their turn, or
        when `events` (the events of the view it was made in, if given) says it answers
        an earlier decision (a second click); 422 when it is no legal option: the game
        is left as it was."""
        s = self.state
        if s.is_terminal():
            raise Refused(409, "the game is over")
        ahead = {} if s.current_player() == seat else self.choosing_early()
        early = seat in ahead
        if (s.current_player() != seat and not early) or self.agents[seat] is not None:
            raise Refused(409, f"it is not {seat_name(seat)}'s decision")
        if events is not None and type(events) is not int:
            raise Refused(400, "'events' is the number of events of the view chosen in")
        if events is not None and events != len(s.log_for(seat)):
            raise Refused(409, "this choice answers an earlier decision: the game has moved on")
        if not isinstance(label, str):
            raise Refused(400, "'option' is an option's label, a string")
        options = ahead[seat] if early else s.legal_actions()
        choice = next((o for o in options if o.label == label), None)
        if choice is None:  # the labels, as a script sends them: a button's words are no label
            shown = ", ".join(o.label for o in options[:20]) + (", …" if len(options) > 20 else "")
            raise Refused(
                422, f"'{label[:80]}' is not one of {seat_name(seat)}'s options, by label: {shown}"
            )
        if early:  # taken when the rules ask this seat, after the seats before it
            self.early[seat] = choice, s.length + s.deciding_together().index(seat)
            return
        try:
            self.apply(seat, choice)
        except IllegalChoice as exc:  # the label check above makes this a safeguard
            raise Refused(422, str(exc)) from None
        self.settle()

    def choosing_early(self) -> dict:
        """The people who may choose now at a simultaneous choice though the rules ask
        a seat before them, and have not yet: seat -> their options."""
        now = together.options_now(self.state)  # none at chance or once the game is over
        current = self.state.current_player()
        return {
            seat: options
            for seat, options in now.items()
            if seat != current and self.agents[seat] is None and seat not in self.early
        }

    def log_lines(self, folder: Path, seat: int | None) -> str:
        """The game as a log in `folder` that `rulespec replay` reads (and the lobby
        resumes): its header, and every event, hidden ones too. Saved by a person
        before the end, the header names their seat (`saved_by`): the server shows
        such a log only as that seat sees it. A game a rule stopped is the game up to
        that rule, its result's `error` the rule, as `rulespec run --log` writes it."""
        header = {
            "log": LOG_FORMAT,
            "spec": _relative(self.spec_path, folder),
            "variants": [_relative(v, folder) if os.path.isabs(v) else v for v in self.variants],
            "players": len(self.seats),
            "seed": self.seed,
            "game": 1,
            "agents": ",".join(self.seats),
            "max_turns": self.max_turns,
        }
        over = self.stopped is None and self.state.is_terminal()
        if over:
            header["result"] = self.state.result
        elif seat is not None:  # a game stopped by a rule never ended: it stays the saver's
            header["saved_by"] = seat_name(seat)
        if self.stopped is not None:
            header["result"] = self.state.result | {"error": stopped(self.stopped)}
        records = [header] + self.state.log_for(None)
        return "".join(json.dumps(r, default=list) + "\n" for r in records)


@dataclass
class Replay:
    """A logged game replayed: its choices, and the game at a few of them. Position 0
    is the start, position k the game after its k-th choice, and a last position the
    chance after the last choice, if any. `seats` are the views it may be looked at
    from (None: the spectator's)."""

    id: str
    header: dict
    table: views.Table
    token: str
    choices: list[tuple[int, dict]]  # (line, choice) of each decision, in order
    positions: int
    checkpoints: dict[int, object]  # position -> the game there
    seats: list[int | None]

    def at(self, position) -> object:
        """The game at `position`, rebuilt from the checkpoint before it (the
        checkpoints are never written)."""
        if not isinstance(position, int) or not 0 <= position < self.positions:
            raise Refused(400, f"'at' is a position from 0 to {self.positions - 1}")
        begin = max(k for k in self.checkpoints if k <= position)
        s = self.checkpoints[begin].clone()
        for number, choice in self.choices[begin:position]:
            _apply_logged(s, number, choice)
        if position > len(self.choices):  # the chance after the last choice
            _settle_chance(s)
        return s

    def seat(self, name: str) -> int | None:
        """The view `name` (P1, ...; `spectator`) if this replay may show it; 403 else."""
        seat = seat_number(name, self.table.players)
        if seat not in self.seats:
            saver = seat_name(self.seats[0])
            raise Refused(
                403,
                f"{saver} saved this game before its end: its replay shows only {saver}'s view",
            )
        return seat


def seat_number(name: str, n: int) -> int | None:
    """P1, P2, ... as a seat number; `spectator` as None; 404 for another name."""
    if name == "spectator":
        return None
    try:
        return parse_seat(name, n)
    except ValueError:
        raise Refused(404, f"no seat '{name[:20]}' in a game of {n} players") from None


class Tables:
    """Every game and replay of one server."""

    def __init__(self, specs: list[Spec]):
        self.specs = {s.id: s for s in specs}
        self.games: dict[str, Live] = {}
        self.replays: dict[str, Replay] = {}
        self.lock = threading.Lock()
        # compiled once per spec and player count: a game definition is never written
        self.definitions: dict[tuple, tuple] = {}  # (id of the spec, n) -> (Game, Table, spec)

    def _definition(self, rules, n: int) -> tuple[Game, views.Table]:
        """The game definition and view helper of `rules` at `n` players; 422 for a
        player count the rules do not allow (a log's)."""
        key = (id(rules), n)
        with self.lock:
            if key not in self.definitions:
                if len(self.definitions) >= MAX_DEFINITIONS:
                    self.definitions.clear()
                try:
                    self.definitions[key] = (Game(rules, n), views.Table(rules, n), rules)
                except ValueError as exc:
                    raise Refused(422, str(exc)) from None
            return self.definitions[key][:2]

    def lobby(self) -> list[dict]:
        return [
            {
                "id": s.id,
                "title": s.title,
                "players": s.players,
                "variants": s.variants,
                "agents": s.agents,
            }
            for s in self.specs.values()
        ]

    def new_game(self, request: dict) -> Live:
        """A game from the lobby's form: spec, variants, players, seed, seats."""
        spec = self._spec(request.get("spec"))
        variants = _strings(request.get("variants", []), "variants")
        rules = spec.load(variants)
        n = request.get("players", rules.default_players)
        if type(n) is not int:
            raise Refused(400, "'players' is a whole number")
        if n not in rules.player_counts:
            raise Refused(400, f"{rules.name} is for {rules.player_range()}, not {n}")
        seed = request.get("seed")
        if seed is None:  # a fresh deal: nobody at the table can know it in advance
            seed = secrets.randbelow(MAX_SEED)
        if type(seed) is not int or not -MAX_SEED <= seed < MAX_SEED:
            raise Refused(400, "'seed' is a whole number")
        max_turns = request.get("max_turns")
        if max_turns is not None and (
            type(max_turns) is not int or not 1 <= max_turns <= MAX_TURN_LIMIT
        ):
            raise Refused(400, f"'max_turns' is a whole number from 1 to {MAX_TURN_LIMIT}")
        seats = _seats(request.get("seats", [PERSON] + ["random"] * (n - 1)))
        if "players" in request and len(seats) != n:
            raise Refused(400, f"{len(seats)} seats named for {n} players")
        return self._seat_game(spec.path, rules, variants, seed, seats, max_turns)

    def resume(self, path: str, seats) -> Live:
        """The first game of the log at `path`, played on from its last choice. A game
        a person saved before its end resumes only with that person at their seat and
        agents at the others: any other seating would show someone what the saver's
        seat never saw (a spectator everything, a person's link that seat's cards)."""
        logged = _read(path)[0]
        h = logged.header
        seats = _seats(seats)
        if len(seats) != h["players"]:
            raise Refused(400, f"the logged game has {h['players']} seats")
        saver = _saved_by(h)
        if saver is not None and [s == PERSON for s in seats] != [
            p == saver for p in range(len(seats))
        ]:
            name = seat_name(saver)
            raise Refused(
                403,
                f"{name} saved this game before its end: it resumes with a person at "
                f"{name} and agents at every other seat",
            )
        spec_path, variants, rules = self._log_spec(h, path)
        choices = [(n, e) for n, e in logged.events if e["event"] == "choice"]
        return self._seat_game(
            spec_path, rules, variants, h["seed"], seats, h.get("max_turns"), choices
        )

    def _seat_game(self, spec_path, rules, variants, seed, seats, max_turns, choices=()) -> Live:
        """A new game, its agents seated, the logged `choices` applied, held by id."""
        n = len(seats)
        agents = _agents(seats, n, seed, rules)
        definition, table = self._definition(rules, n)
        state = definition.new_initial_state(seed=seed, turn_limit=max_turns)
        for number, choice in choices:
            _apply_logged(state, number, choice)
        tokens = {p: secrets.token_urlsafe(16) for p in range(n) if seats[p] == PERSON}
        if not tokens:
            tokens[None] = secrets.token_urlsafe(16)
        game = Live(
            secrets.token_hex(6),
            str(spec_path),
            variants,
            seed,
            seats,
            state,
            table,
            agents,
            tokens,
            max_turns,
        )
        if game.watched:  # watched from after the deal: the shuffles are no agent's step
            _settle_chance(state)
        else:
            game.settle()
        with self.lock:
            self._make_room()
            self.games[game.id] = game
        return game

    def rematch(self, game: Live) -> Live:
        """The next game at a finished game's table: the same spec, variants, seats and
        turn limit, a fresh deal; asked for again, the same next game."""
        if not game.state.is_terminal():
            raise Refused(409, "the game is not over")
        if game.rematch is None:
            seed = secrets.randbelow(MAX_SEED)
            game.rematch = self._seat_game(
                game.spec_path,
                game.table.spec,
                game.variants,
                seed,
                game.seats,
                game.max_turns,
            )
        return game.rematch

    def _spec(self, name) -> Spec:
        if name is None:
            raise Refused(400, f"'spec' names the game to play; games: {', '.join(self.specs)}")
        if not isinstance(name, str) or name not in self.specs:
            raise Refused(400, f"no game '{str(name)[:40]}' here; games: {', '.join(self.specs)}")
        return self.specs[name]

    def game(self, game_id: str) -> Live:
        if game_id not in self.games:
            raise Refused(404, "no such game (the server may have been restarted)")
        return self.games[game_id]

    def replay(self, replay_id: str) -> Replay:
        if replay_id not in self.replays:
            raise Refused(404, "no such replay (the server may have been restarted)")
        return self.replays[replay_id]

    def _make_room(self) -> None:
        """Forget the oldest finished game when the server holds too many."""
        if len(self.games) >= MAX_GAMES:
            done = [k for k, g in self.games.items() if g.state.is_terminal()]
            if not done:
                raise Refused(429, f"the server holds {MAX_GAMES} games already")
            del self.games[done[0]]

    def _hold(self, replay: Replay) -> None:
        """Hold `replay`, forgetting the oldest replays while those held would pass
        MAX_GAMES replays or MAX_REPLAYED decisions between them."""
        with self.lock:
            held = self.replays
            while held and (
                len(held) >= MAX_GAMES
                or sum(r.positions for r in held.values()) + replay.positions > MAX_REPLAYED
            ):
                del held[next(iter(held))]
            held[replay.id] = replay

    def open_log(self, path: str, game_number: int = 1) -> Replay:
        """A replay of game `game_number` of the log at `path` (a match's later game
        carries the counters of the ones before, as `rulespec run --games` does)."""
        logged = _read(path)
        if type(game_number) is not int or not 1 <= game_number <= len(logged):
            raise Refused(400, f"the log has games 1 to {len(logged)}")
        header = logged[game_number - 1].header
        rules = self._log_spec(logged[0].header, path)[2]
        n = header["players"]
        (definition, table), carried = self._definition(rules, n), None
        for one in logged[: game_number - 1]:  # the games before: only what they carry
            s = start(definition, one.header, carried)
            stuck = play_choices(s, one)
            if stuck is not None:
                raise Refused(422, f"the log does not replay: {stuck[1]}")
            carried = s.carry()
        saver = _saved_by(header)
        replay = Replay(
            secrets.token_hex(6),
            header,
            table,
            secrets.token_urlsafe(16),
            *_replayed(definition, logged[game_number - 1], carried),
            seats=[None, *range(n)] if saver is None else [saver],
        )
        self._hold(replay)
        return replay

    def _log_spec(self, header: dict, path: str) -> tuple[str, list[str], object]:
        """The spec a log names, its variants as a game played on names them (a file by
        its full path, wherever it is saved next), and the rules: the files beside the
        log, else a served spec of that file name (an uploaded log has no folder)."""
        folder = Path(path).parent
        try:
            rules = _loaded(lambda: named_spec(header["spec"], path, header["variants"]))
            variants = [
                os.path.abspath(folder / v) if v.endswith(SPEC_SUFFIXES) else v
                for v in header["variants"]
            ]
            return str(folder / header["spec"]), variants, rules
        except ValueError:
            pass
        stem = Path(header["spec"]).name
        for s in self.specs.values():
            if Path(s.path).name == stem:
                names = [Path(v).stem for v in header["variants"]]
                return s.path, names, s.load(names)
        raise Refused(422, f"the log's spec '{header['spec'][:200]}' is not here")


def same_token(expected: str | None, given: str | None) -> bool:
    """Whether `given` is the secret `expected`, compared in constant time (as bytes:
    a token may hold any character)."""
    return (
        expected is not None
        and given is not None
        and secrets.compare_digest(expected.encode(), given.encode("utf-8", "replace"))
    )


def save_name(spec_path: str) -> str:
    """A saved game's file name: the spec file's stem made safe (letters, digits, _
    and -), and a random part nobody else at the table can guess."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", Path(spec_path).stem).strip("_")[:40] or "game"
    return f"{stem}-{secrets.token_hex(8)}.jsonl"


def _relative(file: str, folder: Path) -> str:
    """`file` as a log in `folder` names it."""
    return os.path.relpath(Path(file).resolve(), folder.resolve())


def _loaded(load):
    """A spec loaded by `load()`; 422 with its problems when it no longer loads."""
    try:
        return load()
    except SpecError as exc:
        raise Refused(422, f"the spec does not load:\n{exc}") from None


def _read(path: str) -> list:
    """The games of the log file at `path`; 422 for anything else (a pipe or a device
    would never end)."""
    if os.path.exists(path) and not os.path.isfile(path):
        raise Refused(422, f"{path}: error RS801: not a file")
    try:
        return read_log(path)
    except LogError as exc:
        raise Refused(422, str(exc)) from None


def _saved_by(header: dict) -> int | None:
    """The seat that saved the logged game before its end, if one did."""
    name = header.get("saved_by")
    if name is None:
        return None
    try:
        return parse_seat(name, header["players"])
    except ValueError as exc:
        raise Refused(422, f"saved_by: {exc}") from None


def _strings(value, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Refused(400, f"'{name}' is a list of strings")
    return value


def _seats(value) -> list[str]:
    """Who sits where, as a request gives it: `person` in any case ("Person")."""
    return [PERSON if s.strip().casefold() == PERSON else s for s in _strings(value, "seats")]


def _agents(seats: list[str], n: int, seed: int, rules) -> list:
    """The agent at each seat, None for a person; 400 for an unknown agent or option."""
    if len(seats) != n:
        raise Refused(400, f"{len(seats)} seats named for {n} players")
    try:
        made = make_agents([s if s != PERSON else "first" for s in seats], n, seed)
    except ValueError as exc:
        raise Refused(400, f"{exc}; or {PERSON}, for someone at the table") from None
    agents = [None if s == PERSON else a for s, a in zip(seats, made)]
    for a in agents:
        _within_budget(a)
    needs = [a.needs_evaluation for a in agents if getattr(a, "needs_evaluation", None)]
    if needs and rules.evaluation is None:
        raise Refused(400, f"{needs[0]} needs an evaluation in the spec; {rules.name} has none")
    return agents


# A searching agent's budget at a server's table: a decision holds its game's lock and a
# server thread, so an agent asked for a longer search would stall both.
MAX_ITERATIONS, MAX_SECONDS = 10_000, 10.0


def _within_budget(agent) -> None:
    """400 for an agent whose search may run past the server's budget for a decision."""
    budget = getattr(agent, "budget", None)
    if budget is None:
        return
    iterations, seconds = budget.get("iterations"), budget.get("seconds")
    if (iterations or 0) > MAX_ITERATIONS or (seconds or 0) > MAX_SECONDS:
        raise Refused(
            400,
            f"agent '{agent.name}': at most iterations={MAX_ITERATIONS:,} and "
            f"seconds={MAX_SECONDS:g} a decision at a server's table",
        )


def _apply_logged(s, number: int, choice: dict) -> None:
    """Apply one logged choice of a game being resumed or replayed; 422 if it cannot be."""
    stuck = apply_logged(s, number, choice)
    if stuck is not None:
        raise Refused(422, f"the log does not replay: {stuck}")


def _settle_chance(s) -> None:
    while s.is_chance_node():
        s.sample_chance()


def _replayed(definition, logged, carried) -> tuple:
    """A logged game's choices, its number of positions, and the game at a few of them
    (at most CHECKPOINTS, evenly spaced, and the last), from its seed and choices."""
    choices = [(n, e) for n, e in logged.events if e["event"] == "choice"]
    if len(choices) > MAX_FRAMES:
        raise Refused(422, f"the game has more than {MAX_FRAMES} decisions")
    every = max(1, math.ceil(len(choices) / CHECKPOINTS))
    s = start(definition, logged.header, carried)
    checkpoints = {0: s.clone()}
    for k, (number, choice) in enumerate(choices, 1):
        _apply_logged(s, number, choice)
        if k % every == 0:
            checkpoints[k] = s.clone()
    length = s.length
    _settle_chance(s)
    positions = len(choices) + (2 if s.length != length else 1)
    checkpoints[positions - 1] = s
    return choices, positions, checkpoints
