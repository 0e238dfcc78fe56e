"""Any spec as a PettingZoo AEC environment (the `rl` extra: pettingzoo, gymnasium, numpy).

    env = RulespecEnv("my_game.yaml", players=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else pick(obs["action_mask"])
        env.step(action)

Agents are the seats (`P1`, `P2`, ...). An action is a number of the spec's fixed
action space (`env.action_labels`, see rulespec.table.encoding; any other value, or
one not legal now, is a ValueError), an observation is
{"observation": the seat's vector, "action_mask": 1 for each legal action}, and the
structured observation (`State.observation(seat)`) is `info["observation"]`. Both are
worked out for the seat asked, when asked, once per step: a step builds no seat's
view (the game is played without an event log, which no view needs). Chance
is resolved inside the environment from the seed given to `reset`. Rewards come
from the result (`State.returns()`), given when the game ends: all agents are then
terminated, or truncated when the game reached its turn limit.
"""

from __future__ import annotations

import os
import random
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from rulespec import load_spec
from rulespec.interpreter import CHANCE, TERMINAL, Game, RuleError, seat_name
from rulespec.lang import ir
from rulespec.table import together
from rulespec.table.encoding import ActionSpace, ObservationEncoder, action_number


class SeatSpaces:
    """What the AEC and the parallel environment share: the game, its action space and
    observation vector, the agents (seats) and their spaces, and a seat's vector."""

    def _set_up(self, spec, players, turn_limit, render_mode) -> None:
        spec = spec if isinstance(spec, ir.Spec) else load_spec(spec)
        self.game = Game(spec, players or spec.default_players)
        self.turn_limit, self.render_mode = turn_limit, render_mode
        self.actions, self.encoder = ActionSpace(self.game), ObservationEncoder(self.game)
        if not len(self.actions):  # gymnasium has no empty Discrete space
            raise ValueError(
                f"{spec.name} gives its players no decision to make (no action, reaction "
                "or choice): a PettingZoo environment needs at least one"
            )
        self.action_labels = self.actions.labels
        self.possible_agents = [seat_name(p) for p in range(self.game.n)]
        self.seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.metadata = {**self.metadata, "name": f"rulespec:{spec.name}"}
        low, high = self.encoder.bounds(self.game, turn_limit or spec.turn_limit)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(
                    np.array(low, np.float32), np.array(high, np.float32), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (len(self.actions),), np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.actions)) for a in self.possible_agents}
        self.state = None
        self._no_mask = np.zeros(len(self.actions), np.int8)  # a seat's not to act
        self._encoders, self._view_of = self.encoder.encoders, self._view  # bound once

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _new_state(self, seed: int | None):
        seed = random.randrange(2**32) if seed is None else seed  # None: a fresh game
        return self.game.new_initial_state(seed, log=False, turn_limit=self.turn_limit)

    def _vector(self, seat: int, mask) -> dict:
        """The seat's observation in this state: its vector, and a copy of `mask`
        (shared, ActionSpace.numbered) for the caller to keep."""
        return {"observation": self._encoders[seat](self.state), "action_mask": mask.copy()}

    def _view(self, seat: int) -> dict:
        """The seat's observation in this state, worked out once."""
        if self._views is None:
            self._views = {}
        seen = self._views.get(seat)
        if seen is None:
            seen = self._views[seat] = self.state.observation(seat)
        return seen

    def _numbered(self, options) -> tuple:
        """(action number -> option, the mask of those numbers), for options offered
        now: ActionSpace.numbered, shared, not to be written."""
        _, numbered, mask = self.actions.numbered(tuple(options))
        return numbered, mask

    def _refused(self, action, legal, agent: str | None = None) -> int:
        """`action` as a legal number, or the ValueError that says why it is not (of
        `agent`'s action, where several seats act in one step)."""
        try:
            return action_number(
                action, len(self.actions), sorted(legal), self.action_labels.__getitem__
            )
        except ValueError as exc:
            if agent is None:
                raise
            raise ValueError(f"{agent}: {exc}") from None

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            obs = self.state.observation(None)
            return "\n".join(f"{k}: {v}" for k, v in obs.items())
        return None

    def close(self) -> None:
        pass


class RulespecEnv(SeatSpaces, AECEnv):
    metadata: ClassVar[dict] = {
        "name": "rulespec",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        spec: str | os.PathLike | ir.Spec,
        players: int | None = None,
        *,
        turn_limit: int | None = None,
        render_mode: str | None = None,
    ):
        super().__init__()
        self._set_up(spec, players, turn_limit, render_mode)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.state = self._new_state(seed)
        self.agents = list(self.possible_agents)
        self._zeros = {a: 0.0 for a in self.agents}  # the rewards of a step before the end
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._info_of = {}  # agent -> its info, handed out again until read (_info)
        self._settle()

    def step(self, action) -> None:
        agent = self._selected()
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._options
        if legal is None:
            legal = self._legal()
        if type(action) is not int or action not in legal:  # numpy's, or refused saying why
            action = self._refused(action, legal)
        self._cumulative_rewards[agent] = 0.0
        try:
            self.state.apply_action(legal[action])
        except RuleError:  # the game stopped at a rule's failure: what is asked next meets it
            self._options = self._views = self._infos = None
            raise
        self._settle()
        if self.rewards is not self._zeros:  # the end: before it, nothing to add
            self._accumulate_rewards()

    def _settle(self) -> None:
        """Play chance until a seat is to act or the game ends; then say who acts,
        and, at the end, hand out the result. Views are worked out when asked for."""
        state = self.state
        player = state.current_player()
        while player == CHANCE:
            state.sample_chance()  # from the state's own RNG, seeded by reset
            player = state.current_player()
        self._options = None
        self._views = None  # seat -> its observation in this state, made when one is read
        self._infos = None  # made when read: most steps read one, or none
        if player == TERMINAL:
            self._acting = None
            self.rewards = dict(zip(self.possible_agents, state.returns()))
            # a game stopped by the turn limit was cut short, not played out
            ended = self.truncations if state.reason == "turn_limit" else self.terminations
            ended.update((a, True) for a in self.agents)
            self.agent_selection = self.agents[0]
        else:
            self.rewards = self._zeros
            self._acting = player
            self.agent_selection = self.possible_agents[player]

    @property
    def infos(self) -> dict:
        """Each agent's info in this state (PettingZoo's `infos`)."""
        if self._infos is None:
            self._infos = {a: self._info(a) for a in self.agents}
        return self._infos

    @infos.setter
    def infos(self, infos: dict) -> None:  # a wrapper may set them, as AECEnv allows
        self._infos = infos

    def _info(self, agent) -> _Info:
        """The agent's info in this state: the one of an earlier step while nobody has
        read it (its observation is worked out when read, from the game as it is then),
        else a new one, so a step makes an info only for a seat whose last was read."""
        info = self._info_of.get(agent)
        if info is None or info._view is None:
            info = self._info_of[agent] = _info(self._view_of, self.seat[agent])
        return info

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIter:
        """AECEnv.agent_iter: the agent to act, until no agent is left (or max_iter
        agents), each pass a generator rather than PettingZoo's iterator class."""
        return _AgentIter(self, max_iter)

    def last(self, observe: bool = True):
        """AECEnv.last, making only the acting agent's info (`infos` makes every one)."""
        agent = self._selected()
        info = self._info(agent) if self._infos is None else self._infos[agent]
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            info,
        )

    def _legal(self) -> dict:
        """Action number -> option, for the seat to act in this state."""
        if self._options is None:
            options, actions = tuple(self.state.legal_actions()), self.actions
            known = actions.numberings.get(options)  # ActionSpace.numbered's, at once
            _, self._options, self._mask = known or actions.numbered(options)
        return self._options

    def _selected(self) -> str:
        """The agent to act, or a ValueError that says what to do first."""
        if self.state is None:
            raise ValueError("reset() starts a game: call it before step() or last()")
        if not self.agents:
            raise ValueError("the game is over and every agent has left: reset() starts another")
        return self.agent_selection

    def observe(self, agent):
        if self.state is None:
            raise ValueError("reset() starts a game: call it before observe()")
        seat = self.seat.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}; agents: {', '.join(self.possible_agents)}")
        if seat == self._acting:  # None at the end
            if self._options is None:
                self._legal()
            mask = self._mask
        else:
            mask = self._no_mask
        return self._vector(seat, mask)

    def legal_labels(self) -> list[str]:
        """The labels of the acting seat's legal actions."""
        return self.state.legal_labels()


class RulespecParallelEnv(SeatSpaces, ParallelEnv):
    """Any spec as a PettingZoo ParallelEnv: every seat that decides now acts in one
    `step`. At a simultaneous choice (`simultaneously(players) p chooses …`) that is
    every seat asked, each shown the table as it was before anyone picked and a mask of
    its own options; at any other decision, the one seat to act (the others' masks are
    all 0, and their actions are ignored). Observations, rewards and chance are as in
    RulespecEnv; once the game ends every agent is terminated (or truncated) and leaves
    `agents`."""

    metadata: ClassVar[dict] = {"name": "rulespec", "render_modes": ["ansi"]}

    def __init__(
        self,
        spec: str | os.PathLike | ir.Spec,
        players: int | None = None,
        *,
        turn_limit: int | None = None,
        render_mode: str | None = None,
    ):
        self._set_up(spec, players, turn_limit, render_mode)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.state = self._new_state(seed)
        self.agents = list(self.possible_agents)
        return self._settle(), self._new_infos()

    def step(self, actions: dict):
        """Apply the action of each seat deciding now, in the order the rules ask them.
        A seat deciding now without an action, or with one its mask does not allow, is
        a ValueError, and nothing is played; the others' actions are not read. (Where
        the seats pick from one shared zone, a card a pick before took is refused when
        its seat's turn comes, with the picks before it played.)"""
        if not self.agents:
            raise ValueError("no game is on: reset() starts one")
        chosen = {}
        for seat, (legal, _) in self._masks.items():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} decides now: step needs its action")
            action = actions[agent]
            ok = type(action) is int and action in legal
            chosen[seat] = action if ok else self._refused(action, legal, agent)
        state, group = self.state, tuple(self._masks)
        while together.asks_next(state, group):
            seat = state.current_player()
            legal = self._numbered(state.legal_actions())[0]
            action = chosen[seat]
            if action not in legal:  # a card a pick before it took
                action = self._refused(action, legal, self.possible_agents[seat])
            state.apply_action(legal[action])
            group = group[group.index(seat) + 1 :]
        observations, agents = self._settle(), self.agents
        ended = state.is_terminal()
        scores = state.returns() if ended else [0.0] * self.game.n
        rewards = {a: scores[self.seat[a]] for a in agents}
        cut = ended and state.reason == "turn_limit"  # stopped by the limit, not played out
        terminations = {a: ended and not cut for a in agents}
        truncations = {a: cut for a in agents}
        infos = self._new_infos()
        if ended:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _settle(self) -> dict:
        """Play chance until seats are to decide or the game ends; each live agent's
        observation, with a mask for those deciding now."""
        state = self.state
        while state.is_chance_node():
            state.sample_chance()  # from the state's own RNG, seeded by reset
        self._views = {}  # seat -> its observation in this state
        self._masks = masks = self._deciding_now()
        none = (None, self._no_mask)
        return {
            a: self._vector(self.seat[a], masks.get(self.seat[a], none)[1]) for a in self.agents
        }

    def _new_infos(self) -> dict:
        """Each agent's info in this state: its observation, worked out when read."""
        return {a: _info(self._view_of, self.seat[a]) for a in self.agents}

    def _deciding_now(self) -> dict:
        """Each seat deciding now, in the order asked -> (its options by number, their
        mask), as _numbered gives them (rulespec.table.together.options_now)."""
        return {seat: self._numbered(o) for seat, o in together.options_now(self.state).items()}


class _AgentIter:
    """What agent_iter returns: iterable again and again, as PettingZoo's AECIterable."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env, max_iter: int):
        self.env, self.max_iter = env, max_iter

    def __iter__(self):
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class _Info(dict):
    """An agent's info, {"observation": its structured observation}, the observation
    worked out when first read: most steps read only the acting seat's, many none. Every
    way of reading a dict fills it first (_READS), copies included: dict(info) and
    info.copy() would otherwise copy the placeholder; and so does writing it (_WRITES).
    Made by `_info`; one not yet filled is handed out again at the next step."""

    __slots__ = ("_view", "_who")

    def _fill(self) -> None:
        if self._view is not None:
            view, self._view = self._view, None
            super().__setitem__("observation", view(self._who))


def _filling(name: str):
    read = getattr(dict, name)

    def filled(self, *args, **kwargs):
        self._fill()
        return read(self, *args, **kwargs)

    filled.__name__ = name
    return filled


# dict's reads that do not go through __getitem__ (a dict subclass that overrides
# __iter__ is copied by dict() through keys() and [], which fill it too)
_READS = (
    "__getitem__",
    "get",
    "items",
    "values",
    "keys",
    "__iter__",
    "copy",
    "__eq__",
    "__ne__",
    "__repr__",
    "pop",
    "popitem",
    "setdefault",
    "__or__",
    "__ror__",
)
# and its writes: a written info is a read one, never handed out again at a later step
_WRITES = ("__setitem__", "__delitem__", "update", "clear", "__ior__")
for _name in _READS + _WRITES:
    setattr(_Info, _name, _filling(_name))


def _info(view, seat: int) -> _Info:
    """Seat's info, its observation to be worked out by `view(seat)` when first read."""
    info = _Info(observation=None)  # dict's own __init__: a step makes one or more
    info._view, info._who = view, seat
    return info
