"""Any spec as an OpenSpiel game (the `openspiel` extra: open_spiel).

    short_name = register("my_game.yaml")
    game = pyspiel.load_game(short_name, {"players": 3})

A registered spec is a sequential, explicitly stochastic game of imperfect
information with terminal rewards (`State.returns()`). Player actions are the numbers
of the spec's fixed action space (rulespec.table.encoding); chance actions number the
labelled chance outcomes (card types and seats, sorted), then SHUFFLE_SEEDS more for a
shuffle: OpenSpiel needs chance outcomes listed, a shuffle has too many to list, so
it is SHUFFLE_SEEDS equally likely orders, each drawn from a RNG seeded with the
outcome. Information-state strings hold the seat's observation and its log (what it
has seen happen), observation strings its observation only: never another seat's view.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import numpy as np
import pyspiel

from rulespec import load_spec
from rulespec.interpreter import CHANCE, TERMINAL, Game, seat_name
from rulespec.lang import ir
from rulespec.table.encoding import ActionSpace, ObservationEncoder, action_number

SHUFFLE_SEEDS = 64
MAX_GAME_LENGTH = (
    1_000_000  # decisions, a bound OpenSpiel asks for: the turn limit ends games first
)


def register(spec: str | os.PathLike | ir.Spec, short_name: str | None = None) -> str:
    """Register the spec with OpenSpiel as `short_name` (default `rulespec_` and the
    spec file's stem); load it with `pyspiel.load_game(short_name, {"players": n})`."""
    path = Path(spec.span.file if isinstance(spec, ir.Spec) else spec)
    spec = spec if isinstance(spec, ir.Spec) else load_spec(spec)
    short_name = short_name or f"rulespec_{path.stem}"
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=spec.name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.default_players},
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
        actions, chance_labels = (
            ActionSpace(rules),
            sorted(set(rules.type_names) | set(map(seat_name, range(rules.n)))),
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=len(actions),
            max_chance_outcomes=len(chance_labels) + SHUFFLE_SEEDS,
            num_players=rules.n,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(
            self.game_type, info, params
        )  # first: pybind11 sets up the instance's attributes
        self.rules, self.actions, self.chance_labels = rules, actions, chance_labels
        self.encoder = ObservationEncoder(rules)
        self.chance_index = {label: i for i, label in enumerate(chance_labels)}

    def new_initial_state(self):
        return SpecState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SeatObserver(self, perfect_recall)


class _Held:
    """What an OpenSpiel state holds: its game, and the rulespec state. OpenSpiel
    clones a Python state with deepcopy; the game is shared, and a rulespec state
    copies itself (sharing its compiled rules)."""

    def __init__(self, game: SpecGame, state):
        self.game, self.state = game, state

    def __deepcopy__(self, memo):
        return _Held(self.game, self.state.clone())


class SpecState(pyspiel.State):
    def __init__(self, game: SpecGame):
        super().__init__(game)
        self._held = _Held(game, game.rules.new_initial_state(0))

    @property
    def table(self):
        """The rulespec State being played."""
        return self._held.state

    def current_player(self):
        p = self.table.current_player()
        return {CHANCE: pyspiel.PlayerId.CHANCE, TERMINAL: pyspiel.PlayerId.TERMINAL}.get(p, p)

    def _legal_actions(self, player):
        return sorted(
            self._held.game.actions.action_of(label) for label in self.table.legal_labels()
        )

    def chance_outcomes(self):
        g = self._held.game
        if self.table.chance_is_sampled():
            return [(len(g.chance_labels) + k, 1.0 / SHUFFLE_SEEDS) for k in range(SHUFFLE_SEEDS)]
        return sorted((g.chance_index[o.label], p) for o, p in self.table.chance_outcomes())

    def apply_action(self, action):
        # checked before pybind11 makes an int of it (True is 1) or refuses it with the
        # whole state in its message; OpenSpiel's own calls go to _apply_action
        super().apply_action(self._legal_number(action))

    def _legal_number(self, action) -> int:
        """`action` as a number OpenSpiel may apply here, else ValueError: -8 was played
        as a chance outcome counted from the end, and stored in the history."""
        player = self.current_player()
        if player == pyspiel.PlayerId.TERMINAL:
            raise ValueError("the game is over: no action applies")
        g = self._held.game
        chance = player == pyspiel.PlayerId.CHANCE
        count = len(g.chance_labels) + SHUFFLE_SEEDS if chance else len(g.actions)
        legal = [a for a, _ in self.chance_outcomes()] if chance else self._legal_actions(player)
        return action_number(action, count, legal, lambda a: self._action_to_string(player, a))

    def _apply_action(self, action):
        self._legal_number(action)
        g, state = self._held.game, self.table
        if state.is_chance_node() and state.chance_is_sampled():
            state.sample_chance(random.Random(action - len(g.chance_labels)))
        elif state.is_chance_node():
            state.apply_action(g.chance_labels[action])
        else:
            state.apply_action(g.actions.labels[action])

    def _action_to_string(self, player, action):
        g = self._held.game
        chance = player == pyspiel.PlayerId.CHANCE
        action_number(action, len(g.chance_labels) + SHUFFLE_SEEDS if chance else len(g.actions))
        if player != pyspiel.PlayerId.CHANCE:
            return g.actions.labels[action]
        if action < len(g.chance_labels):
            return g.chance_labels[action]
        return f"shuffle #{action - len(g.chance_labels)}"

    def is_terminal(self):
        return self.table.is_terminal()

    def returns(self):
        return self.table.returns()

    def __str__(self):
        return json.dumps(self.table.observation(None), sort_keys=True)


class SeatObserver:
    """A seat's view (OpenSpiel's PyObserver): the observation vector as the tensor;
    as a string, the observation, and with perfect recall the seat's log too."""

    def __init__(self, game: SpecGame, perfect_recall: bool):
        self.encoder, self.perfect_recall = game.encoder, perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpecState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(state.table.observation(player))

    def string_from(self, state: SpecState, player: int) -> str:
        view = {"observation": state.table.observation(player)}
        if self.perfect_recall:
            view["log"] = state.table.log_for(player)
        return json.dumps(view, sort_keys=True)
