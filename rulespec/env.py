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
structured observation (`State.observation(seat)`) is `info["observation"]`. Chance
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
from pettingzoo import AECEnv

from rulespec import load_spec
from rulespec.interpreter import Game, seat_name
from rulespec.lang import ir
from rulespec.table.encoding import ActionSpace, ObservationEncoder, action_number


class RulespecEnv(AECEnv):
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
        spec = spec if isinstance(spec, ir.Spec) else load_spec(spec)
        self.game = Game(spec, players or spec.default_players)
        self.turn_limit, self.render_mode = turn_limit, render_mode
        self.actions, self.encoder = ActionSpace(self.game), ObservationEncoder(self.game)
        self.action_labels = self.actions.labels
        self.possible_agents = [seat_name(p) for p in range(self.game.n)]
        self.seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.metadata = {**self.metadata, "name": f"rulespec:{spec.name}"}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (len(self.actions),), np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.actions)) for a in self.possible_agents}
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        seed = (
            random.randrange(2**32) if seed is None else seed
        )  # None: a fresh game, as gymnasium's
        self.state = self.game.new_initial_state(seed, turn_limit=self.turn_limit)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = [self.actions.action_of(label) for label in self.state.legal_labels()]
        number = action_number(action, len(self.actions), legal, self.action_labels.__getitem__)
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(self.action_labels[number])
        self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        """Play chance until a seat is to act or the game ends; then say who acts,
        and, at the end, hand out the result."""
        state = self.state
        while state.is_chance_node():
            state.sample_chance()  # from the state's own RNG, seeded by reset
        for agent in self.agents:
            self.infos[agent] = {"observation": state.observation(self.seat[agent])}
        if state.is_terminal():
            self.rewards = dict(zip(self.possible_agents, state.returns()))
            # a game stopped by the turn limit was cut short, not played out
            ended = self.truncations if state.reason == "turn_limit" else self.terminations
            ended.update((a, True) for a in self.agents)
            self.agent_selection = self.agents[0]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.possible_agents[state.current_player()]

    def observe(self, agent):
        seat, state = self.seat[agent], self.state
        to_act = not state.is_terminal() and state.current_player() == seat
        mask = self.actions.mask(state.legal_labels()) if to_act else [0] * len(self.actions)
        # _settle left each seat's observation in infos after the last step
        seen = self.infos[agent]["observation"] if agent in self.infos else state.observation(seat)
        return {
            "observation": np.asarray(self.encoder.encode(seen), np.float32),
            "action_mask": np.asarray(mask, np.int8),
        }

    def legal_labels(self) -> list[str]:
        """The labels of the acting seat's legal actions."""
        return self.state.legal_labels()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            obs = self.state.observation(None)
            return "\n".join(f"{k}: {v}" for k, v in obs.items())
        return None

    def close(self) -> None:
        pass
