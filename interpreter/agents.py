"""Agents choose among legal options; they see only their player's observation.

Every agent has the same shape, so random, scripted, human and search agents are
interchangeable: choose(observation, options) -> Option.
"""
from __future__ import annotations

import random

from .choices import CHANCE
from .observe import observation


class RandomAgent:
    """Uniform over distinct legal options (RULINGS C-3), with its own seeded RNG."""

    name = "random"
    needs_observation = False

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, observation, options):
        return options[self.rng.randrange(len(options))] if len(options) > 1 else options[0]


class FirstAgent:
    """Always the first legal option: deterministic, handy for tests."""

    name = "first"
    needs_observation = False

    def __init__(self, seed=None):
        pass

    def choose(self, observation, options):
        return options[0]


AGENTS = {"random": RandomAgent, "first": FirstAgent}


def make_agents(names: list[str], n_players: int, seed) -> list:
    """One agent per seat; a single name is used for every seat. Each agent's RNG is
    derived from the game seed and its seat, so seats do not share a stream."""
    if len(names) == 1:
        names = names * n_players
    if len(names) != n_players:
        raise ValueError(f"{len(names)} agents named for {n_players} players")
    unknown = [n for n in names if n not in AGENTS]
    if unknown:
        raise ValueError(f"unknown agent '{unknown[0]}'; known: {', '.join(AGENTS)}")
    return [AGENTS[name](f"{seed}/{seat}") for seat, name in enumerate(names)]


def play(game, agents, on_step=None):
    """Drive a game to its end; chance uses the game's own RNG (C-2)."""
    while not game.over:
        who = game.to_act()
        if who == CHANCE:
            game.sample_chance()
        else:
            options = game.legal()
            agent = agents[who]
            if len(options) == 1:
                choice = options[0]
            else:
                obs = observation(game, who) if agent.needs_observation else None
                choice = agent.choose(obs, options)
            game.apply(choice)
        if on_step is not None:
            on_step(game)
    return game
