"""Any spec as an OpenSpiel game (the `openspiel` extra: open_spiel).

    short_name = register("my_game.yaml")
    game = pyspiel.load_game(short_name, {"players": 3})

A registered spec is a sequential, explicitly stochastic game of imperfect
information with terminal rewards (`State.returns()`). Player actions are the numbers
of the spec's fixed action space (rulespec.table.encoding); chance actions number the
labelled chance outcomes (card types and seats, sorted), then one for each order a
shuffle may give: OpenSpiel needs chance outcomes listed, a shuffle has too many to
list, so it is `shuffles` equally likely orders (a game parameter, SHUFFLE_SEEDS by
default), the k-th drawn from a RNG seeded with k. The game parameter `turn_limit`
ends a game as the spec's does. Information-state strings are `State.information_key`
(the seat's observation and its log, what it has seen happen, in a compact line form),
observation strings its observation only in that form: never another seat's view.
`resample_from_infostate` deals again what the seat cannot see, for OpenSpiel's
ISMCTSBot.
"""

from __future__ import annotations

import json
import os
import pickle
import random
from pathlib import Path

import numpy as np
import pyspiel

from rulespec import load_spec
from rulespec.interpreter import CHANCE, TERMINAL, Game, seat_name
from rulespec.interpreter.observe import compact
from rulespec.interpreter.table import whole_number
from rulespec.lang import ir
from rulespec.table import encoding
from rulespec.table.encoding import ActionSpace, ObservationEncoder, action_number

SHUFFLE_SEEDS = 64  # a shuffle's orders by default (the game parameter `shuffles`)
MAX_SHUFFLES = 1 << 16  # a shuffle node lists that many outcomes (a game keeps the list)
MAX_GAME_LENGTH = (
    1_000_000  # decisions, a bound OpenSpiel asks for: the turn limit ends games first
)


# short name -> (the spec file registered under it, the spec's name: a variant's names
# its variants, so a chain of them is told from the file alone)
_REGISTERED: dict[str, tuple[str, str]] = {}


def register(spec: str | os.PathLike | ir.Spec, short_name: str | None = None) -> str:
    """Register the spec with OpenSpiel as `short_name` (default `rulespec_` and the
    spec file's stem); load it with `pyspiel.load_game(short_name, {"players": n})`.
    Registering the same file again is allowed; another file under a name taken is a
    ValueError (OpenSpiel would replace the game, and the states pickled under it)."""
    spec = spec if isinstance(spec, ir.Spec) else load_spec(spec)
    path = Path(spec.span.file)  # a bundled game's by its name: its file, as pickles name it
    short_name = short_name or f"rulespec_{path.stem}"
    source = (os.path.realpath(path), spec.name)
    if _REGISTERED.get(short_name, source) != source:  # OpenSpiel would replace it silently
        file, name = _REGISTERED[short_name]
        raise ValueError(
            f"'{short_name}' is registered already, for {name} ({file}): give {spec.name} "
            "another name, register(spec, short_name=...)"
        )
    _REGISTERED[short_name] = source
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=spec.name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if spec.payoff is not None and spec.payoff.zero_sum  # checked as each game ends
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": spec.default_players,
            "turn_limit": spec.turn_limit,
            "shuffles": SHUFFLE_SEEDS,
        },
    )
    # a class of its own, as OpenSpiel's Python games register theirs
    pyspiel.register_game(
        game_type,
        type(f"SpecGame_{short_name}", (SpecGame,), {"game_type": game_type, "spec": spec}),
    )
    return short_name


class SpecGame(pyspiel.Game):
    """A spec as an OpenSpiel game; `register` makes a subclass for each spec."""

    game_type: pyspiel.GameType
    spec: ir.Spec

    def __init__(self, params: dict | None = None):
        params = params or {}
        rules = Game(self.spec, int(params.get("players", self.spec.default_players)))
        turn_limit = _whole(params, "turn_limit", self.spec.turn_limit, 1, None)
        shuffles = _whole(params, "shuffles", SHUFFLE_SEEDS, 1, MAX_SHUFFLES)
        actions, chance_labels = (
            ActionSpace(rules),
            sorted(set(rules.type_names) | set(map(seat_name, range(rules.n)))),
        )
        payoff = self.spec.payoff  # chips or points; else a win is 1, a loss -1
        info = pyspiel.GameInfo(
            num_distinct_actions=len(actions),
            max_chance_outcomes=len(chance_labels) + shuffles,
            num_players=rules.n,
            min_utility=-1.0 if payoff is None else float(payoff.low),
            max_utility=1.0 if payoff is None else float(payoff.high),
            utility_sum=0.0 if payoff is not None and payoff.zero_sum else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(
            self.game_type, info, params
        )  # first: pybind11 sets up the instance's attributes
        self.rules, self.actions, self.chance_labels = rules, actions, chance_labels
        self.turn_limit, self.shuffles = turn_limit, shuffles
        self.encoder = ObservationEncoder(rules)
        self.chance_index = {label: i for i, label in enumerate(chance_labels)}
        self.rng = random.Random(0)  # seeded with k to draw a shuffle's k-th order
        self.idle = random.Random(0)  # the RNG of the states OpenSpiel plays: never drawn
        first = len(chance_labels)
        shuffle = dict.fromkeys(range(first, first + self.shuffles))
        # (legal numbers, number -> option, chance outcomes) at a shuffle, at the end
        self.shuffle = sorted(shuffle), shuffle, [(a, 1.0 / self.shuffles) for a in shuffle]
        self.over: tuple = ([], {}, [])
        # the same for each set of chance outcomes and weights met so far, as
        # ActionSpace.numbered keeps those of a player's options
        self.chance_numberings: dict[tuple, tuple] = {}

    def chance_numbered(self, drawn: tuple, weights: tuple | None) -> tuple:
        """(legal numbers, number -> outcome, [(number, probability)]) for the chance
        outcomes `drawn` of these weights (State.chance_weights). Worked out once for
        each set of outcomes and weights, as ActionSpace.numbered (and never to be
        written): a game draws from the same few hands again and again."""
        key = drawn, weights
        known = self.chance_numberings.get(key)
        if known is None:
            index = self.chance_index
            numbers = [index[o.label] for o in drawn]
            weights = weights or (1,) * len(drawn)
            total = sum(weights)
            order = sorted(range(len(numbers)), key=numbers.__getitem__)
            known = (
                [numbers[i] for i in order],
                dict(zip(numbers, drawn)),
                [(numbers[i], weights[i] / total) for i in order],
            )
            if len(self.chance_numberings) < encoding.MAX_NUMBERINGS:
                self.chance_numberings[key] = known
        return known

    def play(self, state, action: int, option=None) -> None:
        """Apply action number `action` to the rulespec state `state`; `option`, when
        known, is the option it numbers (None for a shuffle's)."""
        if option is not None:
            state.apply_action(option)
        elif not state.is_chance_node():
            state.apply_action(self.actions.labels[action])
        elif state.chance_is_sampled():
            self.rng.seed(action - len(self.chance_labels))
            state.sample_chance(self.rng)
        else:
            state.apply_action(self.chance_labels[action])

    def new_initial_state(self):
        return SpecState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SeatObserver(self, perfect_recall)

    def information_state_tensor_shape(self):
        raise pyspiel.SpielError(_NO_INFO_TENSOR)

    information_state_tensor_size = information_state_tensor_layout = information_state_tensor_shape

    def __reduce__(self):
        # pickled by its string, as OpenSpiel's own games are, and the spec file it was
        # registered from: a process that has not registered it does so when loading it
        spec_file = os.path.abspath(self.spec.span.file)
        return _game_from, (str(self), self.game_type.short_name, spec_file, self.spec.name)


def _whole(params: dict, name: str, default: int, low: int, high: int | None) -> int:
    """A game parameter that is a whole number from low to high (None: no bound)."""
    value = params.get(name, default)
    if type(value) is not int or value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"from {low} to {high:,}"
        raise ValueError(f"game parameter {name} must be a whole number {bound}, not {value!r}")
    return value


def _game_from(text: str, short_name: str, spec_file: str, name: str) -> SpecGame:
    """A pickled game: its spec registered under its name here, or its file registered
    now; ValueError where that is another spec (a chain of variants, which the file
    alone does not make, or another file under the name)."""
    if short_name not in _REGISTERED:
        register(spec_file, short_name)
    if _REGISTERED[short_name] != (os.path.realpath(spec_file), name):
        file, here = _REGISTERED[short_name]
        raise ValueError(
            f"the pickled game is {name} ({spec_file}), but '{short_name}' here is {here} "
            f"({file}): register that spec under that name before loading it"
        )
    return pyspiel.load_game(text)


def _held_from(game: SpecGame, played: list[tuple[int, int]], recorded: int) -> _Held:
    held = _Held.new(game, played)
    held.recorded = recorded
    return held


def _state_from(game: SpecGame, history: list[int]) -> SpecState:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


_NO_INFO_TENSOR = (
    "a rulespec game has no information-state tensor (provides_information_state_tensor "
    "is False): use information_state_string, or the observation tensor (what the seat "
    "sees now, no memory of earlier play)"
)
_PLAYER = {CHANCE: pyspiel.PlayerId.CHANCE, TERMINAL: pyspiel.PlayerId.TERMINAL}
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
_apply_in_cpp = pyspiel.State.apply_action  # C++ asks current_player, calls _apply_action, records


class _Held:
    """What an OpenSpiel state holds: its game, the rulespec state, and what was worked
    out for it. OpenSpiel clones a Python state with deepcopy; the game is shared, a
    rulespec state copies itself (sharing its compiled rules), and the rest is kept.
    The rulespec state keeps no event log until something asks what a seat saw (an
    information state, the table): a log costs a third of the engine's time, and
    playing the history again makes it when it is wanted. Likewise C++'s history lacks
    the actions a Python caller played until something asks for it (SpecState._record)."""

    def __init__(self, game: SpecGame, state):
        self.game, self.state = game, state
        self.logged = False  # whether `state` keeps its event log
        # OpenSpiel's player to act, worked out with `legal`, `options` and `outcomes`
        # once per decision (`refresh`); None until then: `_apply_action`, and taking
        # the table, which its taker may change, forget them
        self.player: int | None = None
        # shared with the game's numberings (ActionSpace.numbered) and never written:
        self.legal: list[int] = []  # the action numbers legal there, sorted
        self.options: dict = {}  # action number -> the option it is (None: a shuffle's)
        self.outcomes: list | tuple = ()  # at a chance point, (action number, probability)
        # (player, action) of every action played; C++'s history has the first
        # `recorded` of them (those played from Python reach it when it is read)
        self.played: list[tuple[int, int]] = []
        self.recorded = 0
        self.recording = False  # C++ is recording them: _apply_action plays nothing
        self.strings: dict = {}  # seat -> its information-state string at length `told`
        self.told = -1

    def __deepcopy__(self, memo):
        held = _Held(self.game, self.state.clone())
        held.player, held.legal, held.options = self.player, self.legal, self.options
        held.outcomes, held.logged = self.outcomes, self.logged
        held.played, held.recorded = list(self.played), self.recorded  # as C++ copies its own
        held.strings, held.told = dict(self.strings), self.told
        return held

    def __reduce__(self):
        # C++'s Serialize (serialize_game_and_state) pickles the Python attributes: the
        # game and what was played, played again when loaded
        return _held_from, (self.game, self.replayable(), self.recorded)

    def replayable(self) -> list[tuple[int, int]]:
        """What was played, checked to play this table again, else PicklingError: a
        world resample_from_infostate dealt would load as the table it was dealt from."""
        if _Held.new(self.game, self.played).state.key() != self.state.key():
            raise pickle.PicklingError(
                "this state's table is not what its history plays (a world re-dealt by "
                "resample_from_infostate, or a table changed through .table): it cannot "
                "be pickled or serialized; copy it with clone() or copy.deepcopy"
            )
        return self.played

    @staticmethod
    def new(game: SpecGame, played: list[tuple[int, int]] = ()) -> _Held:
        """A new game's, with the (player, action) pairs `played` played: chance comes
        as OpenSpiel's actions, never from the state's own RNG, so it needs none."""
        state = game.rules.new_initial_state(
            0, log=False, rng=game.idle, turn_limit=game.turn_limit
        )
        for _, action in played:
            game.play(state, action)
        held = _Held(game, state)
        held.played = list(played)
        return held

    def play(self, action: int) -> None:
        """Play `action`, a legal number of this decision (refresh has run)."""
        option = self.options[action]
        self.player = None  # a new decision: worked out when asked about
        if option is None:  # a shuffle's
            self.game.play(self.state, action)
        else:
            self.state.apply_action(option)

    def refresh(self) -> int:
        """Work out, once per decision, OpenSpiel's player to act and the legal numbers:
        OpenSpiel asks for them, and checks each action against them, several times a
        step. Returns the player."""
        g, state = self.game, self.state
        player = state.current_player()
        if player >= 0:
            options = tuple(state.legal_actions())
            known = g.actions.numberings.get(options)  # ActionSpace.numbered's, at once
            self.legal, self.options, _ = known or g.actions.numbered(options)
            self.outcomes = ()
            self.player = player
            return player
        if player == TERMINAL:
            numbering = g.over
        elif state.chance_is_sampled():
            numbering = g.shuffle
        else:
            drawn = state.chance_weights()
            numbering = g.chance_numberings.get(drawn) or g.chance_numbered(*drawn)
        self.legal, self.options, self.outcomes = numbering
        self.player = player = _PLAYER[player]
        return player


class SpecState(pyspiel.State):
    def __init__(self, game: SpecGame):
        super().__init__(game)
        self._held = _Held.new(game)

    @property
    def table(self):
        """The rulespec State being played, with its event log. Whoever takes it may
        change it (a redeal): what was worked out from it is worked out again."""
        held = self._held
        held.player, held.strings = None, {}
        return self._logged()

    def _logged(self):
        held = self._held
        if not held.logged:  # the same game, logged: the history played again
            table = held.game.rules.new_initial_state(0, turn_limit=held.game.turn_limit)
            for action in self.history():
                held.game.play(table, action)
            held.state, held.logged, held.player = table, True, None
        return held.state

    def _worked_out(self) -> _Held:
        held = self._held
        if held.player is None:
            held.refresh()
        return held

    # OpenSpiel's C++ asks these (current_player at every apply_action); each reads
    # what refresh worked out for the decision
    def current_player(self):
        held = self._held
        player = held.player
        return held.refresh() if player is None else player

    def _legal_actions(self, player):
        return list(self._worked_out().legal)

    # ... and a Python caller (a bot, a training loop) gets these here without the
    # round trip through C++
    def legal_actions(self, player=None):
        held = self._held
        now = held.player
        if now is None:
            now = held.refresh()
        if player is None or player == now:  # as OpenSpiel's: none for a seat not to act
            return list(held.legal)
        return []

    def is_chance_node(self):
        held = self._held
        player = held.player
        return (held.refresh() if player is None else player) == _CHANCE

    def is_terminal(self):
        held = self._held
        player = held.player
        return (held.refresh() if player is None else player) == _TERMINAL

    def chance_outcomes(self):
        return list(self._worked_out().outcomes)

    def apply_action(self, action):
        # checked before pybind11 makes an int of it (True is 1) or refuses it with the
        # whole state in its message; played here, not through C++, which would call
        # back into Python twice (current_player, _apply_action), a tenth of a decision:
        # C++'s history gets it when asked (_record). OpenSpiel's own calls go to
        # _apply_action
        held = self._held
        if held.player is None:
            held.refresh()
        if type(action) is not int or action not in held.options:
            action = self._legal_number(action)
        player = held.player
        held.play(action)
        held.played.append((player, action))  # after, as C++ records it

    def child(self, action):  # played from Python too: C++'s child plays through C++
        state = self.clone()
        state.apply_action(action)
        return state

    def _record(self) -> None:
        """Give C++'s history the actions played from Python since it last had them, as
        C++'s apply_action would have recorded each: the player current_player says
        (the one who played it, set for the while) and the action, which _apply_action
        then does not play again."""
        held = self._held
        if held.recorded < len(held.played):
            now, held.recording = held.player, True
            try:
                for player, action in held.played[held.recorded :]:
                    held.player = player
                    _apply_in_cpp(self, action)
            finally:
                held.player, held.recording, held.recorded = now, False, len(held.played)

    def _legal_number(self, action) -> int:
        """`action` as a number OpenSpiel may apply here, else ValueError: -8 was played
        as a chance outcome counted from the end, and stored in the history."""
        held = self._worked_out()
        if type(action) is int and action in held.options:
            return action
        player = held.player
        if player == _TERMINAL:
            raise ValueError("the game is over: no action applies")
        g = held.game
        chance = player == _CHANCE
        count = len(g.chance_labels) + g.shuffles if chance else len(g.actions)
        return action_number(action, count, held.legal, lambda a: self._action_to_string(player, a))

    def _apply_action(self, action):
        # OpenSpiel's own call (C++'s apply_action): it records the action after this,
        # so the actions played from Python before it go into its history first
        held = self._held
        if held.recording:
            return
        if held.recorded < len(held.played):
            self._record()
        action = self._legal_number(action)
        player = held.player
        held.play(action)
        held.played.append((player, action))
        held.recorded += 1  # C++ records it on return

    def _action_to_string(self, player, action):
        g = self._held.game
        chance = player == pyspiel.PlayerId.CHANCE
        action_number(action, len(g.chance_labels) + g.shuffles if chance else len(g.actions))
        if player != pyspiel.PlayerId.CHANCE:
            return g.actions.labels[action]
        if action < len(g.chance_labels):
            return g.chance_labels[action]
        return f"shuffle #{action - len(g.chance_labels)}"

    def returns(self):
        return self._held.state.returns()

    def _view_seat(self, player) -> int:
        """The seat a view is asked of: `player`, or the current player without one;
        SpielError otherwise, as OpenSpiel raises for its own games, but saying so here
        rather than in a C++ check that also prints to stderr."""
        n = self._held.game.rules.n
        if player is None:
            player = self.current_player()
            if player < 0:  # chance's node, or the game's end
                node = "a chance node" if player == _CHANCE else "the game is over"
                raise pyspiel.SpielError(
                    f"{node}: no seat is to act here; ask for a seat's view, 0 to {n - 1}"
                )
        if whole_number(player) and 0 <= player < n:
            return int(player)
        raise pyspiel.SpielError(f"no seat {player!r}: the seats are 0 to {n - 1}")

    # for a Python caller, a view of no seat is the same SpielError as the information
    # state's (OpenSpiel's C++ callers meet its own check first)
    def observation_string(self, player=None):
        return pyspiel.State.observation_string(self, self._view_seat(player))

    def observation_tensor(self, player=None):
        return pyspiel.State.observation_tensor(self, self._view_seat(player))

    def information_state_string(self, player=None):
        """The seat's information state (the current player's by default), as OpenSpiel's
        own call through the observer gives it: the table's `information_key(seat)`."""
        held = self._held
        player = self._view_seat(player)
        if held.told != held.state.length:  # ISMCTSBot asks two or three times a visit
            held.strings, held.told = {}, held.state.length
        told = held.strings.get(player)
        if told is None:
            told = held.strings[player] = self._logged().information_key(player)
        return told

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one (the same information-state
        string): a clone with every card hidden from the seat dealt again
        (`State.redeal`, canonical), shuffled by a RNG seeded from one draw of
        `probability_sampler` (a callable giving a number in [0, 1), as OpenSpiel's
        UniformProbabilitySampler, which ISMCTSBot passes)."""
        self._logged()  # before the worlds part: a redealt world cannot be played again
        clone = self.clone()
        seed = int(probability_sampler() * 2**53)
        clone.table.redeal(player_id, random.Random(seed), canonical=True)  # strings anew
        return clone

    def __str__(self):
        return json.dumps(self._held.state.observation(None), sort_keys=True)

    def information_state_tensor(self, player=None):
        raise pyspiel.SpielError(_NO_INFO_TENSOR)

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        # pickled as its game and history, played again when loaded (not through C++'s
        # serialization, whose loading needs the game registered already)
        held = self._held
        return _state_from, (held.game, [action for _, action in held.replayable()])


def _recorded_first(name: str):
    """C++'s own State method `name`, which reads C++'s history: completed first."""
    cpp = getattr(pyspiel.State, name)

    def recorded(self):
        self._record()
        return cpp(self)

    recorded.__name__ = name
    return recorded


for _name in (
    "history",
    "full_history",
    "history_str",
    "move_number",
    "is_initial_state",
    "is_initial_non_chance_state",
):
    setattr(SpecState, _name, _recorded_first(_name))


class SeatObserver:
    """A seat's view (OpenSpiel's PyObserver): the observation vector as the tensor;
    as a string, the observation, and with perfect recall the information state, which
    has no tensor (the game says so: an information-state tensor is refused, not
    handed out as the observation, which remembers nothing)."""

    def __init__(self, game: SpecGame, perfect_recall: bool):
        self.encoder, self.perfect_recall = game.encoder, perfect_recall
        self.tensor = None if perfect_recall else np.zeros(game.encoder.size, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor}

    # from the state as played, not `table`: a view needs no log, nor to forget what
    # the state worked out
    def set_from(self, state: SpecState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = self.encoder.encode_array(state._held.state, player)

    def string_from(self, state: SpecState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return compact(state._held.state.observation(player))
