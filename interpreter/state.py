"""A game in play (OpenSpiel's State): the table, the one loop that advances it, and
the API that agents, search and analysis drive.

    state = Game(spec, 4).new_initial_state(seed=7)
    while not state.is_terminal():
        if state.is_chance_node(): state.sample_chance()
        else: state.apply_action(agent.choose(state.observation(state.current_player()),
                                              state.legal_actions()))

The loop runs effects frame by frame; whenever the frame stack empties (an effect has
resolved completely, RULINGS C-4) it checks end conditions, then triggers, each in spec
order and, for per-player ones, for every active player from the current one round the
table. A trigger whose effect changed nothing is not fired again until the state
changes, and a chain of more than MAX_FIRINGS firings ends the game as `trigger_loop`.

Every field is private: code outside interpreter/ reads a state through the methods
below (tests/test_layers.py checks it).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterator
from itertools import chain, combinations
from types import MappingProxyType
from typing import NoReturn

from rulespec.lang import ir

from . import knowledge
from .choices import (
    CHANCE,
    NO_REACTION,
    PASS,
    SECRET_KINDS,
    TERMINAL,
    Apart,
    Branch,
    ChoicePoint,
    GroupPlay,
    IllegalChoice,
    Option,
    Order,
    Play,
    React,
    Rejection,
    Together,
    first_of_each_type,
    first_of_type,
    group_of_types,
    groups,
    seat_name,
)
from .codegen import RUNTIME_CODE, RuleError, raise_at_spec
from .effects import ANSWERING, MAX_CALLS, MAX_PASSES, SHOWN, UNSIZED, Frame
from .observe import information_key, kept_for, log_for, observation, tallies, tallies_into
from .rng import randbelow
from .table import RuleLimit, Table, whole_number

MAX_FIRINGS = 1000  # trigger firings in one turn (the setup counts as one)
MAX_TURN_DECISIONS = 10_000  # decisions, chance's included, in one turn
LOOP_PROBE = 512  # `while` passes between two checks that a pass changed something
_READ_ONLY: dict = {}  # the bindings of code that reads none (conditions never write theirs)


class _Stopped:
    """The pending decision once a rule failed: the table is as the failure left it,
    half an effect run, so whatever asks what comes next (who acts, the options, a
    copy) meets that failure again, as a RuleError at the rule's place."""

    __slots__ = ("error",)

    def __init__(self, error: RuleError):
        self.error = error

    def __getattr__(self, name: str):
        if name.startswith("__"):  # what copy and pickle look for
            raise AttributeError(name)
        e = self.error
        raise RuleError(e.code, f"the game stopped: {e.message}", e.span, e.rule) from e


class State(Table):
    def __new__(cls, game=None, *args, **kwargs):
        # a game whose cards carry counters of their own plays as a MarkedState, whose
        # moves set them back: every other game's moves pay nothing for them
        if cls is State and game is not None and game.mark_names:
            cls = MarkedState
        return super().__new__(cls)

    def __init__(
        self,
        game,
        seed: int = 0,
        *,
        log: bool = True,
        views: bool = True,
        turn_limit: int | None = None,
        game_index: int = 0,
        carried: dict[int, int] | None = None,
        rng: random.Random | None = None,
        _setup: bool = True,
    ):
        """`log=False` keeps no event log and `views=False` no seat's view (what each
        seat knows of the zones it cannot see): a game played out by agents that read
        neither, as a simulation's, pays for neither (a game whose choices may offer
        cards by place, Game.picks_unseen, keeps the views they read). `game_index` and `carried` (from
        the previous game's `carry()`) make this game the next of a match: counters
        declared `match: true` keep their values. With `rng`, chance draws from `rng`
        instead of a `random.Random(seed)` made for the state (its seed costs as much
        as a few decisions): for a caller that names every chance outcome itself and
        never draws from the state's, as OpenSpiel's explicit chance does."""
        seed = _checked_seed(game, seed, turn_limit, carried)
        super().__init__(game, log, views or game.picks_unseen)  # its choices read views
        self._rng = random.Random(seed) if rng is None else rng  # C-2: the one source of chance
        self._seed, self._draws = seed, 0  # the RNG's state, as key() tells it
        self._step_index = len(game.steps)  # no turn has begun: the first step begins one
        self._turn_limit = turn_limit or game.spec.turn_limit
        self._stack: list[Frame] = []
        self._pending: ChoicePoint | None = None
        self._over, self._winners, self._reason = False, (), ""
        self._firings, self._passes, self._turn_decisions, self._calls = (
            0,
            0,
            0,
            0,
        )  # the loop guards, per turn
        self._choices = 0  # choices applied, chance included: the game's length in steps
        self._probe: tuple | None = None  # a loop's pass, to compare with its next
        self._fired: dict[str, int] = {}  # how often each rule fired
        self._played: dict[str, int] = {}  # how often each card type was played
        self._called: dict[str, int] = {}  # how often each procedure was called
        # how often each branch of a `choose` was taken, (asker, line, label) -> times,
        # and how often it was the only one offered (a dealer stuck with naming trumps)
        self._branches: dict[tuple[str, int, str], int] = {}
        self._forced_branches: dict[tuple[str, int, str], int] = {}
        self._quiet = [-1] * len(game.keys)  # key -> the version at which it last fired
        self._checked = -1  # the version at the last trigger check that found nothing
        # at a turn's end: (the next of game.closing to look at, the current player and the
        # direction as the turn's end began), or None
        self._closing: tuple | None = None
        self._game_index = game_index
        self._phase = "setup"
        self._again = False  # a repeat step is offered again after a play: pass is an option
        # a step offered round the table: (the turn's player, the player asked, passes in
        # a row, whether anyone has played), or None
        self._ring: tuple | None = None
        self._round, self._starter = 0, 0  # the round (from 0), and who took its first turn
        self._round_starts = (0,)  # the turn count as each round began
        # the round's part, or the rule ending it, that runs between turns (a view's
        # heading: State.decision_between); None within a turn and in the game's setup
        self._between: str | None = None
        try:
            for i, f in enumerate(game.counter_initial):
                self._counters[i] = f(self, {})
        except Exception as exc:
            raise_at_spec(exc)
        for i, value in (carried or {}).items():
            self._counters[i] = value
        if _setup:
            if game.rounds:  # round 1 begins once the game's setup is done
                self._stack.append(Frame(game.rounds.opening, {}))
            self._stack.append(Frame(game.setup, {}))
            self._run()

    @classmethod
    def from_layout(
        cls,
        game,
        seed: int = 0,
        *,
        zones: dict | None = None,
        counters: dict | None = None,
        out=(),
        current: int = 0,
        sitting_out=(),
        round_index: int = 0,
        marks: dict | None = None,
        **options,
    ) -> State:
        """A game laid out instead of set up: cards by type name in zones by label
        (ordered zones listed top first; cards not placed go out of play), counters by
        name, the seats that are out (for good, or `sitting_out` the round), whose turn
        begins, and (in a game of `rounds`) which round it is, from 0, `current` its
        starter. `marks`: zone label -> [{"card": type name, counter: value, ...}], the
        per_card counters of the next card of that type there. Rules scenarios start here.
        Raises ValueError for a zone, counter or card the game does not have, more
        cards of a type than its deck holds, or a round past the first without rounds."""
        round_index = cls.laid_round(game, round_index)
        state = cls(game, seed, _setup=False, **options)
        state._lay_out(zones or {}, counters or {}, out, current, sitting_out)
        state._lay_marks(marks or {})
        state._round, state._starter = round_index, state._current
        state._run()
        return state

    @staticmethod
    def laid_round(game, round_index) -> int:
        """The round a laid out table is in, checked: a whole number from 0, past 0 only
        in a game of rounds. Raises ValueError otherwise."""
        if round_index and game.spec.rounds is None:
            raise ValueError("round_index names a round, but the game is not played in rounds")
        if not (whole_number(round_index) and round_index >= 0):
            raise ValueError(f"round_index counts rounds from 0, not {round_index!r}")
        return operator.index(round_index)

    # --- who acts, and what they may do --------------------------------------------

    def current_player(self) -> int:
        """The seat to act, CHANCE, or TERMINAL."""
        if self._over:
            return TERMINAL
        return self._pending.player

    def is_terminal(self) -> bool:
        return self._over

    def is_chance_node(self) -> bool:
        return not self._over and self._pending.player == CHANCE

    def decision_kind(self) -> str | None:
        """What the pending decision is: play, react, choose, card, cards, number, chance or shuffle."""
        return None if self._over else self._pending.kind

    def decision_asker(self) -> str | None:
        """The name of what asks the pending decision: the step that offers a play, the
        action a reaction would answer, the rule (or procedure, or `setup`) whose effect
        chooses; None for chance, or when the game is over."""
        return None if self._over else self._pending.asking

    def decision_again(self) -> bool:
        """Is the pending decision a play step offered again after a play (`repeat`, or
        `again_if` while it holds), where `pass` ends the step?"""
        return not self._over and self._pending.again is _offered_again

    def decision_between(self) -> str | None:
        """What runs between turns as the pending decision is asked, by name: a round's
        setup or scoring (`rounds.setup`, `rounds.scoring`), or the round end condition
        or match end whose effect asks, whatever procedure asks for it; None within a
        turn, in the game's setup, and when the game is over."""
        return None if self._over else self._between

    def decision_prompt(self) -> str:
        """The pending choice's own question (`choose(p, "which card?") …`); "" where
        it has none (its asker's `prompt:` then says what it asks), or none is pending."""
        return "" if self._over or self._pending is None else self._pending.prompt

    def decision_refused(self) -> list[str]:
        """What the pending choice is made from that its filter (`if …`) refuses, by
        name: card types, branch labels, values' labels. Only what its chooser can tell
        apart is named (a card in a zone it cannot see never is), so that a person told
        why a card is no option learns nothing of where an unseen card lies. [] at a
        choice without a filter, and at any other decision."""
        point = self._pending
        if self._over or point is None or point.refused is None:
            return []
        return point.refused(self, point)

    def decision_window(self) -> str | None:
        """The named window a pending answer is asked in (`react(players, window)`);
        None at any other decision, or at a window without a name."""
        if self._over or self._pending.kind != "react":
            return None
        return self._pending.data[3]

    def deciding_together(self) -> tuple[int, ...]:
        """The seats that make the pending decision at once: at a simultaneous choice
        (`simultaneously(players) p chooses …`), the seat asked now and those still to
        be asked after it, in order (a seat with nothing left to pick when its turn to
        be asked comes is passed over); at any other decision, the seat to act alone;
        () when chance acts or the game is over."""
        if self._over or self._pending.player == CHANCE:
            return ()
        point = self._pending
        return (point.player, *point.data) if isinstance(point.data, Together) else (point.player,)

    def deciding_apart(self) -> bool:
        """Whether the seats deciding together each pick from cards of its own (the
        chooser's zones only: `hand(p)`, `combinations(hand(p), 3)`), so that the
        options of a seat asked later do not depend on what a seat asked before picks,
        nor on its cards: they may be worked out, and shown, before that seat's turn.
        From a shared zone, a card one seat picks is gone for the next."""
        return not self._over and type(self._pending.data) is Apart

    def legal_actions(self) -> list[Option]:
        """The options of the one to act, sorted by label; [] when the game is over or
        at a sampled chance point (a shuffle)."""
        return [] if self._over else list(self._pending.options)

    def legal_labels(self) -> list[str]:
        return [o.label for o in self.legal_actions()]

    def apply_action(self, choice: Option | str) -> None:
        """Apply an option (or its label) of the one to act, and run the game on to the
        next decision. Raises IllegalChoice, with a Rejection code, otherwise."""
        if self._over:
            raise IllegalChoice("the game is over", Rejection.GAME_OVER)
        point = self._pending
        if point.sample is not None:
            if not isinstance(choice, Order) or sorted(choice.cards) != sorted(
                self._zones[point.data[0]]
            ):
                raise IllegalChoice(
                    f"a {point.kind} takes an Order of its zone's cards (sample_chance draws one)",
                    Rejection.CHANCE_SAMPLED,
                )
        elif choice not in point.options:
            choice = self._by_label(choice)  # a label, or an option from another list
        self._apply(point, choice)

    def _apply(self, point: ChoicePoint, choice: Option) -> None:
        try:  # what generated code raises leaves as a RuleError at the spec's place
            self._take(point, choice)
            self._advance()
        except Exception as exc:
            self._stop(exc)

    def _stop(self, exc: Exception) -> NoReturn:
        """Raise exc as raise_at_spec does; a rule's failure also stops the game where
        it stands, half an effect run, so that what asks it what comes next meets that
        failure again (_Stopped)."""
        try:
            raise_at_spec(exc)
        except RuleError as error:
            self._pending = _Stopped(error)
            raise

    def _take(self, point: ChoicePoint, choice: Option) -> None:
        """The choice made at point: counted, logged, and resumed (run on by _advance)."""
        self._pending = None
        self._choices += 1
        if point.player != CHANCE and self._events is not None:
            # a set of cards: how many, where the rules fix it, though the set is secret
            # (not a set of sizes the pick decides: UNSIZED; nor a simultaneous pick's:
            # the cards stay where they are until all have picked, and a seat asked later
            # must not learn how many another took); an answer: in which of an action's
            # named windows, public as the window is
            counted = point.kind == "cards" and point.data is not UNSIZED
            said = (
                {"count": len(choice.cards)}
                if counted and not isinstance(point.data, Together)
                else {}
            )
            if point.kind == "react" and point.data[3] is not None:
                said["window"] = point.data[3]
            if type(choice) is Branch and len(point.options) == 1:
                # the only branch offered (its conditions may read the chooser's hidden
                # cards): told to the chooser alone (observe.visible_event)
                said["forced"] = True
            self._log(
                "choice",
                player=point.player,
                kind=point.kind,
                option=choice.label,
                **said,
                _vis=_seen(self, point, choice),
            )
        self._turn_decisions += 1
        if (
            self._turn_decisions > MAX_TURN_DECISIONS
        ):  # a loop that asks and asks: no choice resets it
            self._log("error", message=f"a turn went on for {MAX_TURN_DECISIONS} decisions")
            self.finish((), "effect_loop")
            return
        point.resume(self, point, choice)

    def choice_seen(self, choice: Option) -> frozenset[int] | None:
        """The seats shown which option the player to act takes here (None: every
        seat), as the log shows it: every seat, for a card or cards chosen from public
        zones only (the rules' SHOWN); only the player, at another secret kind of
        decision or a group played; those who see the hand or the zone the card goes
        to, for a card played or answered with into a zone not everyone sees; and of
        them, those who see where a `target: card` action's chosen card lies, and the
        player."""
        return _seen(self, self._pending, choice)

    def _by_label(self, choice: Option | str) -> Option:
        options = self._pending.options
        if not isinstance(choice, (Option, str)):  # 3, None, b"pass": no label
            raise IllegalChoice(
                f"{choice!r} is no option: give one of legal_actions(), or its label, a "
                f"string; legal: {', '.join(o.label for o in options)}"
            )
        label = choice.label if isinstance(choice, Option) else choice
        option = next((o for o in options if o.label == label), None)
        if option is None:
            who = "chance" if self._pending.player == CHANCE else seat_name(self._pending.player)
            titled = [n for n in self.game.spec.titled(label) if n != label]
            said = f" ('{label}' is the title of {', '.join(titled)})" if titled else ""
            if label in self.game.kinds and not titled:  # a card named: none offered
                said = f" (no option plays or picks a card '{label}')"
            raise IllegalChoice(
                f"'{label}' is not a legal choice for {who}{said}; legal: "
                f"{', '.join(o.label for o in options)}"
            )
        return option

    def chance_outcomes(self) -> list[tuple[Option, float]]:
        """[(outcome, probability)] at a chance point that can be enumerated."""
        options, weights = self.chance_weights()
        weights = weights or (1,) * len(options)
        total = sum(weights)
        return [(o, w / total) for o, w in zip(options, weights)]

    def chance_weights(self) -> tuple[tuple[Option, ...], tuple[int, ...] | None]:
        """chance_outcomes() in whole numbers, as the rules weigh them: (the outcomes,
        their weights, or None when all are equally likely); an outcome's probability
        is its weight over their sum. Both are tuples, so a caller can keep what it
        works out from a set of outcomes and its weights (rulespec.spiel does)."""
        self._chance_to_act()
        point = self._pending
        if point.sample is not None:
            raise IllegalChoice(
                f"a {point.kind} is sampled, not enumerated: use sample_chance",
                Rejection.CHANCE_SAMPLED,
            )
        return tuple(point.options), point.weights

    @property
    def seed(self) -> int:
        """The seed the game was made with: its chance draws from it (C-2)."""
        return self._seed

    def chance_is_sampled(self) -> bool:
        """True at a chance point whose outcomes are too many to list (a shuffle)."""
        return self.is_chance_node() and self._pending.sample is not None

    def sample_chance(self, rng: random.Random | None = None) -> Option:
        """Draw a chance outcome and apply it; from the game's own RNG by default (C-2),
        so a seed gives one game, or from `rng` (a search's own chance)."""
        self._chance_to_act()
        if rng is None:
            rng, self._draws = self._rng, self._draws + 1
        elif not hasattr(rng, "getrandbits"):
            raise TypeError(f"sample_chance draws from a random.Random, not {rng!r}")
        point = self._pending
        option = self._chance(point, rng)
        self._apply(point, option)
        return option

    def _chance_to_act(self) -> None:
        """IllegalChoice unless chance is to act: game/over once the game has ended
        (as apply_action says), else chance/not_to_act."""
        if self._over:
            raise IllegalChoice("the game is over", Rejection.GAME_OVER)
        if self._pending.player != CHANCE:
            raise IllegalChoice("chance is not to act", Rejection.CHANCE_NOT_TO_ACT)

    def _chance(self, point: ChoicePoint, rng: random.Random) -> Option:
        """A chance point's outcome, drawn from rng."""
        if point.sample is not None:
            return point.sample(self, point, rng)
        options = point.options
        if len(options) == 1:
            return options[0]
        weights = point.weights
        if weights is None:
            return options[randbelow(rng.getrandbits, len(options))]
        pick, i = randbelow(rng.getrandbits, sum(weights)), 0
        while pick >= weights[i]:  # the first outcome whose running total passes the pick
            pick -= weights[i]
            i += 1
        return options[i]

    def play_out(self, choose) -> None:
        """Play the game to its end in one loop: chance from the game's own RNG (C-2),
        every other decision with more than one option by `choose(seat, options)`, which
        must return one of them. The same game as applying each decision in turn
        (apply_action, sample_chance), without the way back to a caller in between: the
        hot path of a simulation with agents that need no view of the game."""
        try:
            self._advance(choose)
        except Exception as exc:
            self._stop(exc)

    # --- copies, keys and views ---------------------------------------------------

    def clone(self, log: bool = True, rng: random.Random | None = None) -> State:
        """An independent copy, for search: the game definition and compiled code are
        shared, the state (a paused effect's frames and locals included) is copied;
        with log=False the copy keeps no event log (and copies none). With `rng`, the
        copy's chance draws from `rng` instead of a copy of this state's RNG: a search,
        whose chance is its own, saves copying it."""
        s = object.__new__(type(self))
        s.__dict__.update(self.__dict__)
        if rng is None:  # made without seeding (from the OS, twice as dear as the copy)
            s._rng = random.Random.__new__(random.Random)
            s._rng.setstate(self._rng.getstate())
        else:
            s._rng = rng
        s._zones = [list(z) for z in self._zones]
        s._tcount = [list(row) for row in self._tcount]
        s._loc, s._counters, s._active = list(self._loc), list(self._counters), list(self._active)
        s._marks = list(self._marks)
        s._quiet = list(self._quiet)
        s._known = {slot: {q: k.copy() for q, k in d.items()} for slot, d in self._known.items()}
        s._events = None if self._events is None or not log else list(self._events)
        # the log's lines made so far for information_key go with the log
        s._key_lines = {} if s._events is None else dict(self._key_lines)
        s._fired, s._played, s._called = dict(self._fired), dict(self._played), dict(self._called)
        s._branches, s._forced_branches = dict(self._branches), dict(self._forced_branches)
        envs: dict[int, dict] = {}  # frames of one effect share one env: keep it so

        def env_copy(env):
            if env is None:
                return None
            if id(env) not in envs:
                envs[id(env)] = dict(env)
            return envs[id(env)]

        s._stack = []
        for f in self._stack:
            frame = Frame(f.code, env_copy(f.env))
            frame.pc = f.pc
            s._stack.append(frame)
        if self._pending is not None:
            p = self._pending
            s._pending = ChoicePoint(
                p.player,
                p.kind,
                p.options,
                p.resume,
                env_copy(p.env),
                p.weights,
                p.sample,
                p.data,
                p.asking,
                p.again,
                p.prompt,
                p.refused,
            )
        return s

    def key(self, horizon: int | None = None) -> tuple:
        """A canonical, hashable key of everything that decides the game's future:
        two states with equal keys play on alike for any choices and chance outcomes,
        and sample_chance() draws alike for them (the RNG's seed and draws are in it).
        Cards of one type in one zone are alike (C-3), so zones are keyed by types
        (in order where the zone is ordered; with their per_card counters, which may
        tell copies apart), a bound card by its type and zone; what
        each seat knows of the zones it cannot see is in it too.
        The turn count matters only through the turn limit: with `horizon`, turns left
        beyond it are not told apart (a search of that depth cannot reach the limit)."""
        game, types = self.game, self._ctype.__getitem__
        if self._marks:  # a card by its type and its per_card counters: copies alike
            n, marks = len(self._ctype), self._marks
            types = lambda c: (self._ctype[c], *marks[c::n])  # noqa: E731
        zones = tuple(
            tuple(map(types, z)) if ordered else tuple(sorted(map(types, z)))
            for ordered, z in zip(game.ordered, self._zones)
        )
        left = self._turn_limit - self._turn
        if horizon is not None:
            left = min(left, horizon)
        pending = None
        if self._pending is not None:
            p = self._pending
            pending = (
                p.player,
                p.kind,
                tuple(o.label for o in p.options),
                p.weights,
                self._value_key(p.data),
                self._env_key(p.env),
            )
        frames = tuple(
            (game.block_ids[id(f.code)], f.pc, self._env_key(f.env)) for f in self._stack
        )
        fired_now = frozenset(k for k, v in enumerate(self._quiet) if v == self._version)
        return (
            zones,
            tuple(self._counters),
            self._current,
            tuple(self._active),
            self._direction,
            self._step_index,
            self._phase,
            left,
            self._over,
            self._winners,
            self._reason,
            pending,
            frames,
            fired_now,
            self._seed,
            self._draws,
            self._round,
            self._starter,
            self._sitting,
            self._skips,
            self._extras,
            self._leader,
            self._again,
            self._ring,
            self._closing,
            tuple(self._value_key(list(m)) for m in self._memory),
            knowledge.key(self._known),
        )

    def _env_key(self, env: dict | None):
        if env is None:
            return None
        return tuple(sorted((k, self._value_key(v)) for k, v in env.items()))

    def _value_key(self, v):
        if isinstance(v, list):  # cards: by type and where they lie
            if v and type(v[0]) is list:  # sets of cards (combinations): each so
                return tuple(map(self._value_key, v))
            return tuple((self._ctype[c], self._loc[c]) for c in v)
        if isinstance(v, frozenset):
            return tuple(sorted(v))
        if type(v) is tuple and v and type(v[0]) is list:  # a loop's sets of cards left
            return tuple(map(self._value_key, v))
        return v

    def observation(self, seat: int | None) -> dict:
        """The table as `seat` sees it (RULINGS C-6); None: an omniscient spectator."""
        return observation(self, self._seeing(seat, spectator=True))

    def information_key(self, seat: int) -> str:
        """A hashable key of what `seat` has seen: its observation now, then its log
        (log_for(seat)) an event a line, a `turn N` line where a turn begins, in a
        compact text form (OpenSpiel's information-state string is this). It names no
        card hidden from the seat and holds everything the seat was shown, so two
        states with equal keys for a seat are indistinguishable to that seat, and once
        the seat has seen something different the keys differ. It needs the event log:
        ValueError for a state made or copied with log=False. The log's lines are kept
        with the state and its clones, so asking again after a step costs the new events."""
        seat = self._seeing(seat)
        if self._events is None:
            raise ValueError(
                "this state keeps no event log (it was made or copied with log=False): "
                "an information key holds what the seat saw happen, its log"
            )
        return information_key(self, seat, self._key_lines)

    def measures(self) -> tuple[dict[str, int], dict[str, int]]:
        """Every zone's size and every counter's value, by label: public numbers (C-6),
        cheaper than a spectator's observation for analysis that steers by them."""
        labels = [slot.label for slot in self.game.slots]
        return (
            dict(zip(labels, map(len, self._zones))),
            dict(zip(self.game.counter_names, self._counters)),
        )

    def tallies(self, seat: int) -> tuple:
        """The numbers of `seat`'s observation, without names (observe.tallies): what a
        learning environment's observation vector encodes, built faster than the dict."""
        return tallies(self, self._seat(seat))

    def tallies_into(self, seat: int, out: bytearray, at: int) -> tuple | None:
        """`tallies(seat)` for a vector of bytes: `seen` written into `out` from `at`
        (which must hold zeros there), the rest returned, (current seat, active flags,
        direction, turn, counters, over); None, writing nothing, in a game
        whose counts do not all fit a byte (256 cards or more: Game.byte_counts)."""
        return tallies_into(self, self._seat(seat), out, at)

    def _seat(self, seat, spectator: bool = False):
        """seat, if the game has it (or None, for a spectator where one is asked for);
        ValueError naming the seats otherwise."""
        if seat is None and spectator:
            return seat
        if whole_number(seat) and 0 <= seat < self._n:
            return operator.index(seat)  # numpy's integers too: environments hand them out
        also = ", or None" if spectator else ""
        raise ValueError(f"no seat {seat!r}: the seats are 0 to {self._n - 1}{also}")

    def _seeing(self, seat, spectator: bool = False):
        """_seat(seat), for what needs the seat's view: refused in a game that keeps none."""
        seat = self._seat(seat, spectator)
        if seat is not None and not self._keeps_views:
            raise ValueError("this game keeps no seat's view: it was made with views=False")
        return seat

    def log_for(self, seat: int | None, start: int = 0) -> list[dict]:
        """The event log as `seat` sees it; None: everything. `start` skips the events
        before it, for a caller that follows a game as it goes."""
        return log_for(self, self._seat(seat, spectator=True), start)

    def redeal(
        self, seat: int, rng: random.Random, *, canonical: bool = False, like: dict | None = None
    ) -> None:
        """Deal again, at random, every card `seat` cannot see (each hidden zone keeps
        its size): a state `seat`'s observation cannot tell from this one, for search
        agents that must not peek. Every automatic rule is checked again at the next
        check, so a trigger the new cards make true fires. A card a paused effect holds
        (a pick of a simultaneous choice, a chosen card) or the rules remember becomes
        the card now lying where it lay, so the rules go on with a card `seat` could not
        tell from it. Another seat's (or chance's) pending decision is asked again from
        the new deal (ChoicePoint.again).
        With `canonical`, the hidden cards are put in order of type before the shuffle,
        so the deal depends only on the seat's view and `rng`, not on where the hidden
        cards truly lie (the default keeps the older deal, which seeded games rely on).
        With `like` (another state's `hidden_deal(seat)`, a belief about the hidden cards),
        each hidden zone is given, as far as the unseen cards allow, the types `like` has
        there; the rest are dealt at random."""
        seat = self._seeing(seat)
        if not hasattr(rng, "shuffle"):
            raise TypeError(f"redeal deals with a random.Random, not {rng!r}")
        now = self._redeal_hidden(
            seat, rng, canonical, like
        )  # bumps the version: the next check runs them all
        if self._events is not None:  # the log tells what seat saw, and no more
            self._events = [kept_for(e, seat) for e in self._events]
            # the seat's own lines stand (its log is as it was); another's are made anew
            self._key_lines = {q: k for q, k in self._key_lines.items() if q == seat}
        envs = {id(f.env): f.env for f in self._stack if f.env is not None}
        if self._pending is not None and self._pending.env is not None:
            envs[id(self._pending.env)] = self._pending.env
        for env in envs.values():  # each once: frames of one effect share an env
            for k, v in env.items():
                if isinstance(v, list) and not (v and type(v[0]) is list):
                    env[k] = [now.get(c, c) for c in v]
                elif isinstance(v, (list, tuple)) and v and type(v[0]) is list:
                    env[k] = type(v)([now.get(c, c) for c in cards] for cards in v)  # sets
        point = self._pending
        if point is not None and point.player != seat and point.again is not None:
            # another seat's (or chance's) decision offers what the cards it holds allow:
            # asked again from the new deal, so it neither shows nor needs the old one
            self._pending = None
            point.again(self, point)
            if self._pending is None:  # nothing to offer now: the game goes on
                self._run()

    def world_for(self, seat: int, rng: random.Random, log: bool = False) -> State:
        """A copy of the game as `seat` may imagine it, for a search that must not
        peek: every card it cannot see dealt again from its view and `rng` alone
        (redeal, canonical), chance drawn from `rng`, and with `log` its event log,
        which keeps what the seat saw and no more. One call for what an AI engineer
        had put together from clone and redeal, where the default deal and a kept log
        are easy to get wrong."""
        world = self.clone(log=log, rng=rng)
        world.redeal(seat, rng, canonical=True)
        return world

    def hidden_deal(self, seat: int) -> dict[int, tuple[int, ...]]:
        """The card types in each zone `seat` cannot see, by zone number: a re-deal's
        `like`, so that a belief about the hidden cards outlives the state it was drawn in."""
        return self._hidden_types(self._seat(seat))

    def check_invariants(self) -> None:
        """AssertionError unless the table holds its invariants (cards conserved and
        located, type counts right) and, once the checks have run on this state and
        found nothing, no end condition or trigger holds that has not fired since the
        state last changed (the dirty index missed no change)."""
        self._table_invariants()
        if self._over or self._checked != self._version:
            return  # at a choice point inside an effect the checks are still to come
        for key, (t, env, p, _) in enumerate(self.game.checks):
            if (p is None or self._active[p]) and self._quiet[key] != self._version:
                assert not t.when(self, env), f"'{t.ir.name}' holds for {p} but was not fired"

    # --- what happened ------------------------------------------------------------

    @property
    def result(self) -> dict:
        result = {
            "over": self._over,
            "winners": [seat_name(p) for p in self._winners],
            "reason": self._reason,
            "turns": self._turn,
        }
        if self.game.rounds:
            result["rounds"] = self._round + 1
        if self.game.payoff is not None and self._over:
            result["payoffs"] = dict(zip(map(seat_name, range(self._n)), self.payoffs()))
        return result

    @property
    def round_lengths(self) -> list[int]:
        """Turns played in each round begun so far (one round for a game without rounds)."""
        return [b - a for a, b in zip(self._round_starts, self._round_starts[1:] + (self._turn,))]

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners

    @property
    def reason(self) -> str:
        """Why the game ended: an end condition's or win's rule, turn_limit, ..."""
        return self._reason

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def starter(self) -> int:
        """Who took the first turn: of the game, or of the round under way."""
        return self._starter

    @property
    def length(self) -> int:
        """Decisions applied so far, chance included."""
        return self._choices

    @property
    def fired(self):
        """Rule name -> how often it fired (a read-only view)."""
        return MappingProxyType(self._fired)

    @property
    def branches(self):
        """(rule, line, label) -> how often that branch of the `choose` written at that
        line of the rule (what asks it: a step as turn.NAME, a procedure by its name) was
        taken (a read-only view)."""
        return MappingProxyType(self._branches)

    @property
    def forced_branches(self):
        """As `branches`, the times the branch was the only one offered (a read-only view)."""
        return MappingProxyType(self._forced_branches)

    @property
    def called(self):
        """Procedure name -> how often it was called (a read-only view)."""
        return MappingProxyType(self._called)

    @property
    def played(self):
        """Card type -> how often one was played or reacted with, into another zone
        than the hand it was played from (a read-only view)."""
        return MappingProxyType(self._played)

    def returns(self) -> list[float]:
        """Per seat, once the game is over: its `payoff` where the spec declares one;
        else 1 for a winner, -1 for a loser when someone won, and 0 without a winner.
        Before the end, 0 for every seat."""
        if self.game.payoff is not None:
            return [float(v) for v in self.payoffs()] if self._over else [0.0] * self._n
        if not self._winners:
            return [0.0] * self._n
        return [1.0 if p in self._winners else -1.0 for p in range(self._n)]

    def payoffs(self) -> list[int]:
        """Each seat's payoff, the spec's `payoff` read now; a RuleError at its place
        for one past the declared min or max."""
        declared = self.game.spec.payoff
        if declared is None:
            raise ValueError(f"{self.game.spec.name} declares no payoff")
        try:
            values = [self.game.payoff(self, {"me": p}) for p in range(self._n)]
        except Exception as exc:
            raise_at_spec(exc)
        wrong = next(
            (p for p, v in enumerate(values) if not declared.low <= v <= declared.high), None
        )
        if wrong is not None:
            message = (
                f"payoff {values[wrong]} of {seat_name(wrong)} is outside its declared min "
                f"and max, {declared.low} to {declared.high}"
            )
        elif declared.zero_sum and sum(values) != 0:
            message = f"the payoffs {values} add up to {sum(values)}, not 0 (zero_sum)"
        else:
            return values
        raise RuleError(RUNTIME_CODE, message, declared.span, "payoff")

    def carry(self) -> dict[int, int]:
        """The counters a match carries into its next game."""
        return {i: self._counters[i] for i in self.game.match_counters}

    def evaluate(self, player: int) -> int:
        """The spec's evaluation of how well `player` is doing (for the greedy agent)."""
        player = self._seat(player)
        if self.game.evaluation is None:
            raise ValueError(f"{self.game.spec.name} declares no evaluation")
        try:
            return self.game.evaluation(self, {"me": player})
        except Exception as exc:
            raise_at_spec(exc)

    # --- used by effects ----------------------------------------------------------

    def draw(self, src: int, dst: int, n: int) -> int:
        """Move up to n cards, one at a time, from the top of src to dst; stops when src
        runs out. Returns how many are still to draw when src ran out and declares
        refill_from with cards to refill from (the caller refills, a chance point, and
        draws on), else 0."""
        if n <= 0:
            return 0
        pile = self._zones[src]
        drawn = pile[: -n - 1 : -1] if n <= len(pile) else pile[::-1]  # the top n, top first
        if self._events is None and src != dst:
            self.move_cards(drawn, dst, top=True)
        else:  # logged card by card, as drawn (onto its own pile: the top card, n times),
            # a pile emptied known as a whole as move_cards knows it (views alike, logged or not)
            emptied = self._emptied(drawn, dst, True) if self._known and len(drawn) > 1 else ()
            for c in drawn:
                self.move_cards((pile[-1] if src == dst else c,), dst, top=True)
            self.know_emptied(emptied, dst)
        if len(drawn) == n:
            return 0
        return n - len(drawn) if self.can_refill(src) else 0

    def can_refill(self, src: int) -> bool:
        """Does src declare refill_from, and its refill zone hold more cards than it keeps?"""
        source, keep = self.game.refill.get(src, (None, 0))
        return source is not None and len(self._zones[source]) > keep

    def enter(self, code: tuple, env: dict) -> None:
        """Start running a block of ops. One op runs at once: the loop would run it next
        anyway, and a frame would be done as it ran; longer blocks get a frame."""
        if len(code) == 1:
            code[0](self, env)
        elif code:
            self._stack.append(Frame(code, env))

    def push(self, frame: Frame) -> None:
        """Run a frame after whatever is entered next: a block's continuation."""
        self._stack.append(frame)

    def fire(self, t, env: dict, p: int | None) -> None:
        """Run an automatic rule's effect (its condition holds), counted and logged."""
        _count(self._fired, t.ir.name)
        if self._events is not None:
            self._log("trigger", rule=t.ir.name, player=p)
        self.enter(t.effect, env)

    def end_turn(self) -> None:
        """`end_turn()`: see TurnFlow.end_now."""
        self.game.flow.end_now(self)

    def finish(self, winners: tuple[int, ...], reason: str) -> None:
        if not self._over:
            winners = self.game.with_partners(winners)  # a team wins together
            # a payoff past its bounds fails the rule that ended the game, before it ends
            payoffs = {} if self.game.payoff is None else {"payoffs": self.payoffs()}
            self._over, self._winners, self._reason = True, winners, reason
            self._stack.clear()
            self._pending = None
            self._log("end", winners=list(winners), reason=reason, **payoffs)

    def ask(
        self,
        player: int,
        kind: str,
        options: list[Option],
        resume,
        env=None,
        *,
        weights=None,
        sample=None,
        data=None,
        asking=None,
        ordered=False,
        again,
        prompt="",
        refused=None,
    ) -> None:
        """Pause for a decision. Options are sorted by label here, except weighted chance
        outcomes, which their maker lists sorted (with their weights), and a choice of
        numbers, made in increasing order (`ordered`, or a number choice: by label,
        `n = 10` came before `n = 2`). `again(state, point)` asks it again from a
        re-deal (redeal): every decision of a seat has one, so that what another seat
        is offered after a re-deal is what its new cards allow (a belief weighs it);
        None only for chance's shuffle, which a re-deal does not ask again.
        `refused(state, point)` names what a filtered choice's filter refuses
        (decision_refused)."""
        if weights is None and kind != "number" and not ordered and len(options) > 1:
            options.sort(key=_label)
        self._pending = ChoicePoint(
            player,
            kind,
            options,
            resume,
            env,
            weights,
            sample,
            data,
            asking,
            again,
            prompt,
            refused,
        )

    def count_loop_pass(self, loop: int = 0, env: dict | None = None) -> bool:
        """A `while` loop's pass (`loop` names the loop, `env` its locals); False (and
        the game ends as effect_loop) past MAX_PASSES, or at once when a pass changed
        nothing: every LOOP_PROBE passes, one pass is compared with the loop's next, and
        a pass that moved no card, changed no counter, local or memory and met no choice
        (chance's included) leaves the loop where it was, so it would run forever. A
        loop that makes no progress stops after about LOOP_PROBE passes, not MAX_PASSES."""
        self._passes += 1
        if self._passes > MAX_PASSES:
            self._log("error", message="a loop ran too long without a choice")
            self.finish((), "effect_loop")
            return False
        probe = self._passes % LOOP_PROBE
        if probe <= 1 and self._passes > 1 and env is not None:
            mark = (loop, self._version, self._choices, self._env_key(env))
            if probe == 0:
                self._probe = mark
            elif mark == self._probe:
                self._log(
                    "error", message="a loop ran too long without a choice: a pass changed nothing"
                )
                self.finish((), "effect_loop")
                return False
        return True

    def call(self, name: str, code: tuple, env: dict) -> None:
        """Run a procedure's body in a frame of its own (never at once, as enter may: a
        procedure that calls itself would recurse in Python), its parameters its only
        locals. Past MAX_CALLS calls in one turn (a recursion that does not stop) the
        game ends as effect_loop."""
        self._calls += 1
        _count(self._called, name)
        if self._calls > MAX_CALLS:
            self._log(
                "error",
                message=f"procedure '{name}' was called more than {MAX_CALLS:,} times in one turn",
                rule=name,
            )
            self.finish((), "effect_loop")
        elif code:
            self._stack.append(Frame(code, env))

    def open_window(self, players: tuple, action: str, env: dict, window=None) -> None:
        """A reaction window against an action or an answer: the players, in turn order
        from the one answered (its actor), each answer it or let it be, until one
        answers or all pass. A named window offers only its own reactions. A player out
        (eliminated, or sitting out) is not asked, as they take no turn: one put out
        earlier in the same action (`react(target)` after the target lost a challenge)."""
        answers = self.game.answers if window is None else self.game.window_answers[window]
        players = [p for p in players if self._active[p]]
        if not answers[action] or not players:
            return
        actor = env["reactor"] if action in self.game.reactions_by_name else self._current
        if len(players) > 1:
            n, d = len(self._active), self._direction
            players = sorted(players, key=lambda p: (p - actor) * d % n)
        self._ask_answer(tuple(players), action, actor, env, window)

    def _ask_answer(self, players: tuple, action: str, actor: int, env: dict, window=None) -> None:
        """Ask the first of the players to answer; the others are asked if they pass."""
        answers = self.game.answers if window is None else self.game.window_answers[window]
        by_type, reactor = answers[action], players[0]
        options, forced = [], False
        hand = () if self.game.hand is None else self._zones[self.game.hand + reactor]
        for t, c in first_of_each_type(hand, self._ctype, by_type).items():
            for r in by_type[t]:
                if r.condition is None or r.condition(
                    self, dict(env, reactor=reactor, answer=[c], actor=actor)
                ):
                    options.append(r.options[t])
                    forced = forced or r.ir.forced
        for r in by_type.get(None, ()):  # answers without a card
            if r.condition is None or r.condition(self, dict(env, reactor=reactor, actor=actor)):
                options.append(r.options[None])
                forced = forced or r.ir.forced
        if not forced:
            options.append(NO_REACTION)
        self.ask(
            reactor,
            "react",
            options,
            _resume_reaction,
            env,
            data=(players[1:], action, actor, window),
            asking=action,
            again=_answer_again,
        )

    # --- the loop -----------------------------------------------------------------

    def _run(self) -> None:
        """Run to the next decision or the end. What generated code raises leaves as a
        RuleError at the spec's place: one try around the loop, which costs nothing
        until something raises (_apply has its own)."""
        try:
            self._advance()
        except Exception as exc:
            self._stop(exc)

    def _advance(self, choose=None) -> None:  # noqa: C901 (the hot loop: one frame, no calls to split it)
        """Run ops until a decision is pending or the game is over. Once an effect has
        resolved (the stack is empty), the automatic rules are checked if anything
        changed; when none fires, the turn's next step runs, or the turn ends. With
        `choose` (play_out), a decision is made where it is met: chance from the game's
        RNG, one option taken, any other by choose."""
        stack, steps, flow, check = self._stack, self.game.steps, self.game.flow, self.game.check
        n_steps = len(steps)
        while not self._over:
            point = self._pending
            if point is not None:
                if choose is None:
                    return
                self._take(point, self._decided(point, choose))
                continue
            if stack:
                frame = stack[-1]
                code, pc = frame.code, frame.pc
                last = len(code) - 1
                if pc < last:
                    frame.pc = pc + 1
                else:  # its last op: the frame is done once that has run
                    stack.pop()
                    if pc > last:
                        continue
                code[pc](self, frame.env)
                continue
            if self._checked != self._version and self._dirty:
                holds = check(self, _READ_ONLY)  # only the dirty keys are evaluated
                if holds:
                    self._fire_first(holds)
                    continue
                self._checked = self._version
            if self._step_index < n_steps and (self._active[self._current] or self._ring):
                step = steps[self._step_index]
                self._step_index += 1
                if step.when is not None and self._skipped(step):
                    continue
                if step.around:  # offered round the table: TurnFlow asks the next player
                    flow.ring(self, step)
                elif step.plays:  # a step has either actions to offer or an effect (RS103)
                    self._offer_play(step)
                else:
                    self.enter(step.effect, {})
            else:
                flow.end_turn(self)

    def _skipped(self, step) -> bool:
        """A step whose `if:` does not hold as it begins: one of another phase, and the
        turn goes on. Read as it begins only, not as a repeat or a ring offers it again."""
        return not self._again and self._ring is None and not step.when(self, _READ_ONLY)

    def _decided(self, point: ChoicePoint, choose) -> Option:
        """The option play_out takes at a point: chance from the game's own RNG (C-2),
        the one option, or choose's pick of several."""
        if point.player == CHANCE:
            self._draws += 1
            return self._chance(point, self._rng)
        options = point.options
        return options[0] if len(options) == 1 else choose(point.player, options)

    def _fire_first(self, holds: int) -> None:
        """Fire the first automatic rule that holds (a bit of `holds` for each key
        game.check found true: those found false are clean until what they read
        changes), in C-4's order: rules in spec order, a per-player one for each player
        from the current one round the table."""
        if holds & (holds - 1):  # several: the first in C-4's order
            key = min(
                (k for k in range(holds.bit_length()) if holds >> k & 1), key=self._check_rank
            )
        else:
            key = holds.bit_length() - 1
        t, env, p, _ = self.game.checks[key]
        self._quiet[key] = self._version
        self._firings += 1
        if self._firings > MAX_FIRINGS:
            _count(self._fired, t.ir.name)
            kind = self.game.spec.checked_kind(t.ir.name)
            message = f"{kind} '{t.ir.name}' keeps firing"
            if kind == "round end condition":  # each new round ends as it is dealt
                message += f" ({self._round} rounds ended without a turn)"
            self._log("error", message=message, rule=t.ir.name)
            self.finish((), "trigger_loop")
            return
        self.fire(t, dict(env), p)

    def _check_rank(self, key: int) -> tuple:
        """Where a key comes in C-4's order: its rule's place in the spec, then its
        player's distance from the current one in the direction of play."""
        _, _, p, i = self.game.checks[key]
        return i, 0 if p is None else (p - self._current) * self._direction % self._n

    def offer_around(self, step, leads: bool = False) -> bool:
        """Ask the current player, at a step offered round the table, to play or pass
        (to play only when they `leads`). One with nothing to play who may pass is asked
        too, pass its one option: a pass is logged alike whatever the hand holds, so the
        others cannot tell a player who would not play from one who could not (as a
        reaction window asks a player who holds no answer). False, with a `no_play`
        event, when they may neither play nor pass."""
        me = self._current
        options, pass_at = self._step_options(step)
        if not leads and step.may_pass(self):
            options.insert(pass_at, PASS)
        if not options:
            self._log("no_play", player=me, step=step.ir.name)
            return False
        self._pending = ChoicePoint(
            me,
            "play",
            options,
            _resume_around,
            asking=step.asker,
            again=_led_again if leads else _around_again,
        )
        return True

    def _step_options(self, step) -> tuple[list, int]:
        """The play step's options (game.offers) and where `pass` falls among them; its
        fallback actions' only when the others offer none."""
        i = self._step_index - 1
        options, pass_at = self.game.offers[i](self, _READ_ONLY)
        if not options and step.fallback:
            return self.game.fallbacks[i](self, _READ_ONLY)
        return options, pass_at

    def _offer_play(self, step) -> None:
        """Ask the current player to play at a play step: each action with each card
        type of the hand it plays, at each target, where its condition holds; `pass`
        too at an optional step, or at a repeat step played again. A step offered again
        after a play (repeat, or again_if while its condition holds) asks again even when
        pass is all that is left, as a first offer does: ending it unasked would tell
        every seat that the hand holds nothing playable. The options come in label
        order, as game.offers lists them."""
        me, again, self._again = self._current, self._again, False
        if again and step.again_if is not None and not step.again_if(self, {}):
            return  # played, and not to be offered again
        options, pass_at = self._step_options(step)
        if again:
            if (step.ir.repeat or step.ir.optional) and step.may_pass(self):
                options.insert(pass_at, PASS)
        elif step.ir.optional and step.may_pass(self):
            options.insert(pass_at, PASS)
        if not options:
            if not again:
                self._log("no_play", player=me, step=step.ir.name)
            return
        self._pending = ChoicePoint(
            me,
            "play",
            options,
            _resume_repeat if step.again else _resume_play,
            asking=step.asker,
            again=_offered_again if again else _offered,
        )

    def _offer_cards(self, a, t, c, options) -> None:
        """The options of an action that targets a card, played with card c (of type t):
        one per card type and zone it lies in (C-3), in label order, the card it picks
        the first of them there its condition holds for (copies may differ in their
        per_card counters)."""
        env, cond, made = _play_env(c, None), a.condition, self.game.play_options
        seen: set = set()
        offered = []
        for chosen in a.among(self, env):
            key = (self._ctype[chosen], self._loc[chosen])
            if key in seen:
                continue
            env["chosen"] = [chosen]
            if cond is None or cond(self, env):
                seen.add(key)
                ct, z = key
                label = (
                    f"{made[a.ir.name, t, None].label} {self.game.type_names[ct]} from "
                    f"{self.game.slots[z].label}"
                )
                offered.append(Play(label, a.ir.name, t, None, chosen))
        options += sorted(offered, key=_label)

    def _offer_zones(self, a, t, c, options) -> None:
        """The options of an action that targets a zone, played with card c (of type t;
        None: no card): one per zone `among` gives where its condition holds, with the
        zone bound as `target`, in label order."""
        env, cond = _play_env(c, None), a.condition
        prefix, slots = self.game.play_options[a.ir.name, t, None].label, self.game.slots
        offered = []
        for zone in a.among(self, env):
            env["target"] = zone
            if cond is None or cond(self, env):
                label = f"{prefix} -> {slots[zone].label}"
                offered.append(Play(label, a.ir.name, t, zone=zone))
        options += sorted(offered, key=_label)

    def _offer_groups(self, a, options) -> None:
        """The options of an action that plays a group of cards of its kind from the
        hand (`count`): one per distinct group (a multiset of card types, C-3) of a size
        its count allows, at each target, where its condition holds, in label order.
        `card` is the group as it would be played: the first cards of its types."""
        game, me, ctype = self.game, self._current, self._ctype
        hand = self._zones[game.hand + me]
        eligible = [c for c in hand if ctype[c] in a.card]
        if a.ir.target == "none":
            targets = [None]
        else:
            others = a.ir.target == "other"
            targets = [p for p in range(self._n) if self._active[p] and not (others and p == me)]
        candidates = chain.from_iterable(
            _groups_of(pool, hand, ctype, a.ir.count) for pool in _pools(eligible, ctype, a.same)
        )
        first = next(candidates, None)
        if first is None:
            return
        cond = a.condition
        if a.precondition is not None:  # who the condition's first part rules out: no groups
            first_part, cond = a.precondition  # each group is tested on the rest alone
            targets = [p for p in targets if first_part(self, {"target": p})]
            if not targets:
                return
        candidates = chain((first,), candidates)
        names, offered = game.type_names, []
        for tried, (group, cards) in enumerate(candidates, 1):
            if tried > ir.MAX_GROUPS:
                raise RuleLimit(
                    f"action '{a.ir.name}' would offer more than {ir.MAX_GROUPS:,} groups of "
                    f"the {len(eligible)} cards it may play (docs/limits.md); give its count a "
                    f"lower max{'' if a.same else ' or a same property (same: rank)'}, its "
                    "card fewer types, or let the effect choose the cards one at a time (lint: "
                    "RL120)"
                )
            label = None  # worked out for a group offered: most are not
            for p in targets:
                if cond is None or cond(self, {"card": cards, "target": p}):
                    if label is None:
                        label = f"{a.ir.name} {'+'.join(names[t] for t in group)}"
                    suffix = game.target_suffix[p] if p is not None else ""
                    offered.append(GroupPlay(label + suffix, a.ir.name, None, p, group=group))
        options += sorted(offered, key=_label)


class MarkedState(State):
    """A State whose cards carry per_card counters: a card that changes zones has
    them set back to their initial values (Table._unmark)."""

    def move_cards(self, cards, dst: int, top: bool = False) -> None:
        loc = self._loc
        leaving = [c for c in cards if loc[c] != dst]
        super().move_cards(cards, dst, top)
        if leaving:
            self._unmark(leaving)


def _pools(cards: list, ctype, same: tuple | None) -> list[list]:
    """The cards a group may be made of: all of them, or with `same` (each card type's
    value of the property) the cards of each value apart."""
    if same is None:
        return [cards]
    by_value: dict = {}
    for c in cards:
        by_value.setdefault(same[ctype[c]], []).append(c)
    return list(by_value.values())


def _groups_of(pool: list, hand: list, ctype, count: tuple) -> Iterator[tuple]:
    """The distinct groups of the pool's cards (of the hand) a count allows: (its card
    types sorted, the cards that stand for it), the smallest first."""
    low, high = count
    high = len(pool) if high is None else min(high, len(pool))
    held: dict[int, int] = {}
    for c in pool:
        held[ctype[c]] = held.get(ctype[c], 0) + 1
    if len(held) == len(pool):  # a card of each type: a group is a set of them
        for n in range(max(low, 1), high + 1):
            for cards in combinations(pool, n):
                yield tuple(sorted([ctype[c] for c in cards])), list(cards)
    else:
        for group in groups(sorted(held.items()), low, high):
            yield group, group_of_types(hand, ctype, group)


def _checked_seed(game, seed, turn_limit, carried) -> int:
    """The seed as a Python int (numpy's too, as a Gym seed may be one); ValueError,
    naming the argument, for a new state's option of the wrong kind: each would fail
    deep inside a game, or make it one that cannot be played again."""
    if not whole_number(seed):
        raise ValueError(f"seed must be a whole number, not {seed!r}: a seed gives one game")
    if turn_limit is not None and not (whole_number(turn_limit) and turn_limit >= 1):
        raise ValueError(f"turn_limit must be a whole number of at least 1, not {turn_limit!r}")
    for slot, value in (carried or {}).items():
        if slot not in game.match_counters or not whole_number(value):
            raise ValueError(
                f"carried holds a carry() of the last game: match counter -> value, not "
                f"{slot!r}: {value!r}"
            )
    return operator.index(seed)


def _play_env(card, target) -> dict:
    """What an action's condition reads as it is offered: the card played (none for an
    action without one) and the target seat."""
    return {"card": [] if card is None else [card], "target": target}


def _count(counts: dict, key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


def _seen(s: State, point, choice) -> frozenset[int] | None:
    """See State.choice_seen."""
    if point.data is SHOWN:  # a choice among cards face up for everyone (the rules say so)
        return None
    if point.kind in SECRET_KINDS or type(choice) is GroupPlay:
        return frozenset([point.player])
    if type(choice) is Play:
        seen = None
        a = s.game.actions[choice.action]
        if choice.card_type is not None and not a.in_view:
            seen = _shown_to(s, s.game.hand + s._current, a.to(s, _played(s, choice)[1]))
        if choice.chosen is not None:  # the label names the card chosen where it lies
            who = s._seers(s._loc[choice.chosen])
            if who is not None:
                who = who | {point.player}
                seen = who if seen is None else seen & who
        return seen
    if type(choice) is React and choice.card_type is not None:
        r = s.game.reactions_by_name[choice.reaction]
        if r.in_view:
            return None
        src = s.game.hand + point.player
        c = first_of_type(s._zones[src], s._ctype, choice.card_type)
        env = dict(point.env, reactor=point.player, answer=[c])
        if r.chained:  # as _resume_reaction binds them
            env["actor"] = point.data[2]
        return _shown_to(s, src, r.to(s, env))
    return None


def _shown_to(s: State, src: int, dst: int) -> frozenset[int] | None:
    """The seats that see a card go from src to dst, those who see either zone (None:
    everyone): a card played face down is named to them only."""
    seen = s.game.saw[src][dst]
    return None if len(seen) == s._n else seen


def _label(o):
    return o.label


# ChoicePoint.again of the decisions the state asks: the same offer, made again
def _offered(s: State, point) -> None:
    s._offer_play(s.game.steps[s._step_index - 1])


def _offered_again(s: State, point) -> None:  # after a play: pass is an option
    s._again = True
    _offered(s, point)


def _around_again(s: State, point, leads: bool = False) -> None:
    """The offer of a step round the table, as TurnFlow makes it (the loop steps past
    a step before offering it; the offer steps back)."""
    s._step_index += 1
    s.game.flow.offer(s, s.game.steps[s._step_index - 1], leads)


def _led_again(s: State, point) -> None:  # the first offer of a step that leads: no pass
    _around_again(s, point, leads=True)


def _answer_again(s: State, point) -> None:
    rest, action, actor, window = point.data
    s._ask_answer((point.player, *rest), action, actor, point.env, window)


def _resume_play(s: State, point, option) -> None:
    if option is PASS:
        _passed(s, point, s.game.steps[s._step_index - 1])
        return
    a = s.game.actions[option.action]
    if a.ir.count is not None:
        _play_group(s, a, option)
        return
    card, env = _played(s, option)
    _count(s._fired, a.ir.name)
    dst = a.to(s, env) if card is not None else None
    if card is not None and dst != s._loc[card]:  # a card shown and kept is not played
        _count(s._played, s.game.type_names[option.card_type])
    if s._events is not None:
        named, seen = _chosen_named(s, point, option, card)
        s._log(
            "play",
            player=s._current,
            action=a.ir.name,
            target=option.target,
            card=s.game.type_names[option.card_type] if card is not None else None,
            **named,
            **({"zone": s.game.slots[option.zone].label} if option.zone is not None else {}),
            _vis=seen if card is None else _shown_to(s, s.game.hand + s._current, dst),
        )
    if card is not None:
        s.move_cards((card,), dst)
    if option.target is None and a.ir.without_target:
        return  # no player to target: played for nothing
    s.enter(a.effect, env)


def _passed(s: State, point, step) -> None:
    """A pass at a play step: logged, then its pass_effect runs, with `current` the
    player who passed, before the step goes on (at a repeat step: ends)."""
    if s._events is not None:  # the step asking (turn.NAME): one round the table too
        s._log("pass", player=s._current, step=point.asking.removeprefix("turn."))
    if step.pass_effect:  # most passes do nothing: no bindings made for them
        s.enter(step.pass_effect, {})


def _chosen_named(s: State, point, option: Play, card) -> tuple[dict, frozenset[int] | None]:
    """What a play's event says of the card it picks (`target: card`), and for a play
    without a card the seats it is said to. The place the card lies in (`chosen_from`),
    to every seat, where the choice's label, which names the card, is not shown to every
    seat (a card picked from a hand, or one played face down) and the action's `among`
    gives cards of one zone only (CompiledAction.one_zone: among a hand and a vault,
    which of them holds the card is as secret as the card): the others are told where
    the play went, never which card. A card-free play names the picked card too, as the
    play's own words ("P1 buys Province"), to every seat where it lies in a zone every
    seat sees (a buy from the supply), else to those who see that zone and its chooser
    (a buy from the chooser's own face-down reserve)."""
    if option.chosen is None:
        return {}, None
    where = s._loc[option.chosen]
    told = s.game.actions[option.action].one_zone and _seen(s, point, option) is not None
    named = {"chosen_from": s.game.slots[where].label} if told else {}
    if card is not None:
        return named, None
    who = s._seers(where)
    named = {"chosen": s.game.type_names[s._ctype[option.chosen]], **named}
    return named, None if who is None else who | {s._current}


def _played(s: State, option: Play) -> tuple[int | None, dict]:
    """The card a play takes (the first of its type in the hand, as offered; None for
    an action without one) and the bindings its effect and `to` read."""
    card = None
    if option.card_type is not None:
        card = first_of_type(s._zones[s.game.hand + s._current], s._ctype, option.card_type)
    env = {"card": [card] if card is not None else []}
    if option.chosen is not None:
        env["chosen"] = [option.chosen]
    else:
        env["target"] = option.target if option.zone is None else option.zone
    return card, env


def _play_group(s: State, a, option) -> None:
    """A group of cards played as one move: the cards go to `to` together, then the
    effect runs with the group bound as `card`. The play says how many cards; their
    move names them to the seats that see the hand or where they go: in deck order
    from a hand that is no pile, whose order (the deal's, the draws') is no part of
    the game."""
    slot, names = s.game.hand + s._current, s.game.type_names
    cards = group_of_types(s._zones[slot], s._ctype, option.group)
    if s.game.leave_sorted[slot]:
        cards.sort()
    env = {"card": cards, "target": option.target}
    _count(s._fired, a.ir.name)
    dst = a.to(s, env)
    if dst != slot:  # a group shown and kept is not played
        for t in option.group:
            _count(s._played, names[t])
    if s._events is not None:
        s._log(
            "play",
            player=s._current,
            action=a.ir.name,
            target=option.target,
            card=None,
            n=len(cards),
        )
    s.move_cards(cards, dst)
    s.enter(a.effect, env)


def _resume_repeat(s: State, point, option) -> None:
    """A play at a repeat or again_if step: the step is offered again once the play
    resolves (an again_if step only while its condition then holds)."""
    if option is not PASS:
        s._step_index -= 1
        s._again = True
    _resume_play(s, point, option)


def _resume_around(s: State, point, option) -> None:
    """A play or a pass at a step offered round the table: counted by TurnFlow (a play
    of an action that `settles` as a pass is, without taking its player out)."""
    if option is PASS:  # the offer stepped the ring's index back: the step is at it
        s.game.flow.answered(s, False)
        _passed(s, point, s.game.steps[s._step_index])
        return
    settles = s.game.actions[option.action].ir.settles
    s.game.flow.answered(s, not settles, settles)
    _resume_play(s, point, option)


def _resume_reaction(s: State, point, option) -> None:
    rest, action, actor, window = point.data
    if option is NO_REACTION:
        if rest:
            s._ask_answer(rest, action, actor, point.env, window)
        return
    r = s.game.reactions_by_name[option.reaction]
    reactor, env = point.player, point.env
    if r.chained:  # kept, hashable for State.key(), until the answer is done (_give_back)
        answer = env.get("answer")
        env[ANSWERING] = env.get(ANSWERING, ()) + (
            (env.get("reactor"), None if answer is None else tuple(answer), env.get("actor")),
        )
        env["actor"] = actor
    env["reactor"] = reactor
    _count(s._fired, r.ir.name)
    if option.card_type is None:  # an answer without a card: a claim, a challenge
        if s._events is not None:
            s._log("react", player=reactor, reaction=r.ir.name, card=None)
        s.enter(r.effect, env)
        return
    c = first_of_type(s._zones[s.game.hand + reactor], s._ctype, option.card_type)
    env["answer"] = [c]
    dst = r.to(s, env)
    if dst != s._loc[c]:  # a card shown and kept is not played
        _count(s._played, s.game.type_names[option.card_type])
    if s._events is not None:
        s._log(
            "react",
            player=reactor,
            reaction=r.ir.name,
            card=s.game.type_names[option.card_type],
            _vis=_shown_to(s, s.game.hand + reactor, dst),
        )
    s.move_cards((c,), dst)
    s.enter(r.effect, env)
