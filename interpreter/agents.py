"""Agents choose among legal options; they see only their player's observation.

Every agent has the same shape, so random, scripted, human and search agents are
interchangeable: choose(observation, options) -> Option.
"""
from __future__ import annotations

import random

from .choices import CHANCE


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


class GreedyAgent:
    """Picks the option whose immediate result the spec's `evaluation` scores best for
    its player; ties are broken by its own seeded RNG. It knows no game: the spec says
    what progress means.

    It looks one step ahead on a copy of the game in which every card its player cannot
    see has been dealt again at random (the zones keep their sizes), so it never learns
    the draw pile's order or another player's hand; chance in the copy is its own. The
    step ends at its own next choice or the next turn: what other players answer on
    the way (a reaction, pay or refuse) is played for them at random, so an attack is
    judged by what it brings, not by the moment it is announced.
    """

    name = "greedy"
    needs_observation = False
    needs_model = True

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, observation, options, model):
        best, best_score = [], None
        for option in options:
            score = model.score(option, self.rng)
            if best_score is None or score > best_score:
                best, best_score = [option], score
            elif score == best_score:
                best.append(option)
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]


class Lookahead:
    """One seat's one-step forward model of a game, through the state's public API."""

    WIN, LOSS = 10**9, -10**9

    def __init__(self, state, seat):
        if state.game.evaluation is None:
            raise ValueError(f"the greedy agent needs the spec to declare an evaluation "
                             f"(see docs/language.md); {state.game.spec.name} has none")
        self.state, self.seat = state, seat

    def score(self, option, rng) -> int:
        s = self.state.clone(log=False)
        chance = random.Random(rng.random())  # the copy's chance is its own
        s.redeal(self.seat, chance)
        s.apply_action(option)
        turn = s.turn
        while not s.is_terminal() and s.turn == turn and s.current_player() != self.seat:
            if s.is_chance_node():
                s.sample_chance(chance)
            else:
                options = s.legal_actions()
                s.apply_action(options[rng.randrange(len(options))])
        if s.is_terminal():
            return self.WIN if self.seat in s.winners else self.LOSS if s.winners else 0
        return s.evaluate(self.seat)


AGENTS = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent}


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


def play(state, agents, on_step=None):
    """Drive a game to its end; chance uses the game's own RNG (C-2). The hot loop of
    every simulation: it reads the pending point directly, where agents outside the
    runtime use current_player() and legal_actions()."""
    while not state._over:
        point = state._pending
        who = point.player
        if who == CHANCE:
            state.sample_chance()
        else:
            options = point.options
            agent = agents[who]
            if len(options) == 1:
                choice = options[0]
            else:
                obs = state.observation(who) if agent.needs_observation else None
                if getattr(agent, "needs_model", False):
                    choice = agent.choose(obs, options, Lookahead(state, who))
                else:
                    choice = agent.choose(obs, options)
            state.apply_action(choice)
        if on_step is not None:
            on_step(state)
    return state
