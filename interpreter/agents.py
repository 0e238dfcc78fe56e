"""Agents choose among legal options; they see only their player's observation.

Every agent has the same shape, so random, scripted, human and search agents are
interchangeable: choose(observation, options) -> Option. An agent is named with its
options as `name[:key=value...]` (`ismcts:iterations=400:c=1`); OPTIONS declares, per
agent class, the options it takes and how each is read.
"""

from __future__ import annotations

import random
from typing import ClassVar

from .belief import Belief
from .choices import CHANCE
from .rng import randbelow
from .search import Search, passed_alone, random_move

# the bounds of a search's options: past them a decision would take days or fill the
# memory (docs/limits.md)
MAX_ITERATIONS, MAX_SECONDS, MAX_C, MAX_DEPTH, MAX_PARTICLES = 1_000_000, 3600, 1000, 1000, 10_000


class _Number:
    """An option's number, read from its text, within its bounds."""

    def __init__(self, low, high, whole: bool = True, above: bool = False):
        self.low, self.high, self.whole, self.above = low, high, whole, above
        kind = "a whole number" if whole else "a number"
        bounds = f"above {low:,} and at most" if above else f"from {low:,} to"
        self.said = f"{kind} {bounds} {high:,}"

    def __call__(self, text: str):
        if not text.isascii():  # int() reads '٣' as 3: a number is written in ASCII digits
            raise ValueError
        x = int(text) if self.whole else float(text)
        if not (self.low < x if self.above else self.low <= x) or not x <= self.high:
            raise ValueError  # NaN fails both
        return x


class _Word:
    """An option that is one of a few words."""

    def __init__(self, *words: str):
        self.words, self.said = words, " or ".join(words)

    def __call__(self, text: str) -> str:
        if text not in self.words:
            raise ValueError
        return text


_YES_NO = _Word("yes", "no")
_POLICY = _Word("random", "greedy")  # a rollout policy, or a belief's model of the other seats


class Seeded:
    """An agent's own RNG, seeded from the game seed and its seat, made when first drawn
    from: seeding costs more than a short game's turns, and a seat that never has a
    choice to make never needs one."""

    def __init__(self, seed):
        self.seed, self._rng = seed, None

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng


class RandomAgent(Seeded):
    """Uniform over distinct legal options (RULINGS C-3), with its own seeded RNG."""

    name = "random"
    needs_observation = False

    def choose(self, observation, options):
        n = len(options)
        return options[randbelow(self.rng.getrandbits, n)] if n > 1 else options[0]


class FirstAgent:
    """Always the first legal option: deterministic, handy for tests."""

    name = "first"
    needs_observation = False

    def __init__(self, seed=None):
        pass

    def choose(self, observation, options):
        return options[0]


class GreedyAgent(Seeded):
    """Picks the option whose immediate result the spec's `evaluation` scores best for
    its player; ties are broken by its own seeded RNG. It knows no game: the spec says
    what progress means.

    It looks one step ahead on a copy of the game in which every card its player cannot
    see has been dealt again at random (the zones keep their sizes), so it never learns
    the draw pile's order or another player's hand; chance in the copy is its own. The
    step ends at its own next real choice (one of two options or more) or the next
    turn: what other players answer on the way (a reaction, pay or refuse) is played
    for them at random, and its own forced moves as they would be played, so an attack
    is judged by what it brings, not by the moment it is announced.
    """

    name = "greedy"
    needs_observation = False
    needs_model = True
    needs_evaluation = "the greedy agent"  # what to name when a spec has no evaluation

    def choose(self, observation, options, model):
        return best_scored(options, model, self.rng)


def best_scored(options, model, rng):
    """The option the model scores best; ties broken by `rng`."""
    best, best_score = [], None
    for option in options:
        score = model.score(option, rng)
        if best_score is None or score > best_score:
            best, best_score = [option], score
        elif score == best_score:
            best.append(option)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def greedy_move(s, rng):
    """A greedy rollout's move for whoever acts in `s` (a determinized copy)."""
    options = s.legal_actions()
    return (
        best_scored(options, Lookahead(s, s.current_player()), rng)
        if len(options) > 1
        else options[0]
    )


def uniform_likelihood(world, who, taken, options, rng) -> float:
    """A seat that takes any option the rules allow, alike (a world whose cards would
    not have allowed the option is ruled out before this)."""
    return 1.0 / len(options)


GREEDY_SURE = 0.7  # how often the greedy model's seat plays as the greedy agent would


def greedy_likelihood(world, who, taken, options, rng) -> float:
    """A seat that mostly (GREEDY_SURE) takes an option the greedy agent scores best
    among the world's `options`, else any alike."""
    look = Lookahead(world, who)
    scores = [look.score(o, rng) for o in options]
    top = max(scores)
    best = GREEDY_SURE / scores.count(top) if scores[options.index(taken)] == top else 0.0
    return best + (1 - GREEDY_SURE) / len(options)


MODELS = {"random": uniform_likelihood, "greedy": greedy_likelihood}


class ISMCTSAgent(Seeded):
    """Information-set Monte Carlo tree search (interpreter/search.py) over re-deals of
    what its seat cannot see, drawn from its belief (interpreter/belief.py) when it
    keeps `particles`; the tree below the option it took, and the decisions seen since,
    is kept for its next decision (`reuse`). Deterministic for a seed and an
    `iterations` budget; `seconds` bounds the time as well (then the number of
    iterations, and so the choice, depends on the machine)."""

    name = "ismcts"
    needs_observation = False
    needs_model = True  # the model gives it the state and its seat; it re-deals before looking
    OPTIONS: ClassVar[dict] = {
        "iterations": _Number(1, MAX_ITERATIONS),
        "seconds": _Number(0, MAX_SECONDS, whole=False, above=True),
        "c": _Number(0, MAX_C, whole=False),
        "depth": _Number(1, MAX_DEPTH),
        "rollout": _POLICY,
        "particles": _Number(0, MAX_PARTICLES),
        "model": _POLICY,
        "reuse": _YES_NO,
    }
    ITERATIONS, C, DEPTH, PARTICLES = 100, 0.3, 1, 0

    def __init__(
        self,
        seed,
        *,
        iterations=None,
        seconds=None,
        c=C,
        depth=DEPTH,
        rollout="random",
        particles=PARTICLES,
        model="random",
        reuse=True,
    ):
        super().__init__(seed)
        self.particles, self.model, self.reuse = particles, MODELS[model], reuse
        self.belief = self.node = None  # what it believes; where it is in its last tree
        self.told = False  # whether what the other seats do is told to it (play's `tell`)
        if iterations is None and seconds is None:
            iterations = self.ITERATIONS
        self.budget = {
            "iterations": iterations,
            "seconds": seconds,
            "c": c,
            "depth": depth,
            "rollout": greedy_move if rollout == "greedy" else random_move,
        }
        # without an evaluation its leaves are valued by the result alone; greedy rollouts need one
        self.needs_evaluation = (
            "the ismcts agent with greedy rollouts"
            if rollout == "greedy"
            else "the ismcts agent with the greedy model"
            if model == "greedy" and particles
            else None
        )

    def choose(self, observation, options, model):
        seat = model.seat
        if self.particles and self.belief is None:
            self.belief = Belief(seat, self.rng, self.particles, self.model)
        root = self.node if self.told else None  # untold, its last tree may be out of step
        search = Search(model.state, seat, self.rng, root=root, belief=self.belief, **self.budget)
        choice = search.best(options)
        edge = (seat, model.state.decision_kind(), choice.label)
        self.node = search.root.children.get(edge) if self.reuse else None
        return choice

    def watch(self, state, seat: int, who: int, label: str | None) -> None:
        """Seat `who` takes the option labelled `label` at `state` (None: `seat` is not
        shown which); `seat` is this agent's. Read only through a re-deal for `seat`. A
        pass left alone after a play tells nothing: it is part of that play, as the
        tree has it (search.passed_alone)."""
        if passed_alone(state):
            return
        self.told = True
        if self.particles and label is not None:
            if self.belief is None:
                self.belief = Belief(seat, self.rng, self.particles, self.model)
            self.belief.observe(state, who, label)
        if who == seat:
            return
        if label is None:  # a secret choice: the tree's edges cannot follow it
            self.node = None
            return
        if self.node is not None:  # an edge the tree lacks (a forced choice, say): no tree
            self.node = self.node.children.get((who, state.decision_kind(), label))


class Lookahead:
    """One seat's one-step forward model of a game, through the state's public API."""

    WIN, LOSS = 10**9, -(10**9)

    def __init__(self, state, seat):
        self.state, self.seat = state, seat  # the evaluation is asked for when scoring

    def score(self, option, rng) -> int:
        if self.state.game.evaluation is None:
            raise ValueError(
                f"the greedy agent needs the spec to declare an evaluation "
                f"(see docs/language.md); {self.state.game.spec.name} has none"
            )
        chance = random.Random(rng.random())  # the copy's chance is its own
        s = self.state.clone(log=False, rng=chance)
        s.redeal(self.seat, chance)
        s.apply_action(option)
        while not s.is_terminal() and passed_alone(s):
            s.apply_action(s.legal_actions()[0])
        turn = s.turn
        while not s.is_terminal() and s.turn == turn:
            if s.is_chance_node():
                s.sample_chance(chance)
                continue
            options = s.legal_actions()
            if passed_alone(s):
                s.apply_action(options[0])
            elif s.current_player() != self.seat:
                s.apply_action(options[rng.randrange(len(options))])
            elif len(options) == 1:  # its own forced move, as play applies it: no choice
                s.apply_action(options[0])
            else:
                break
        if s.is_terminal():  # a game nobody won: a draw among rivals, a loss for a seat alone
            alone = not s.game.rivals[self.seat]  # a solitaire, or one team of every seat
            return self.WIN if self.seat in s.winners else self.LOSS if s.winners or alone else 0
        return s.evaluate(self.seat)


AGENTS = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent, "ismcts": ISMCTSAgent}
BLIND = (RandomAgent, FirstAgent)  # agents that choose from the options alone, and always one


def blind(agents) -> bool:
    """Do these agents all choose from the options alone? Their games need no seat's
    view (State's views=False) and play themselves out (State.play_out)."""
    return all(type(a) in BLIND for a in agents)


def parse_agent(text: str) -> tuple[type, dict]:
    """`name[:key=value...]` -> (agent class, options read); ValueError naming the
    agent and the option when it is wrong."""
    name, *parts = text.strip().split(":")
    if name not in AGENTS:
        raise ValueError(f"unknown agent '{name}'; known: {', '.join(AGENTS)}")
    cls, options = AGENTS[name], {}
    known = getattr(cls, "OPTIONS", {})
    for part in parts:
        key, eq, raw = part.partition("=")
        if key not in known:
            takes = f"takes {', '.join(known)}" if known else "takes no options"
            raise ValueError(f"agent '{name}': unknown option '{key}' ({name} {takes})")
        if key in options:
            raise ValueError(f"agent '{name}': option '{key}' is given twice")
        if not eq:
            raise ValueError(f"agent '{name}': option '{key}' needs one value, as {key}=VALUE")
        read = known[key]
        try:
            options[key] = read(raw)
        except ValueError:
            raise ValueError(
                f"agent '{name}': option '{key}' must be {read.said}, not '{raw}'"
            ) from None
    return cls, options


def make_agents(names: list[str], n_players: int, seed) -> list:
    """One agent per seat; a single name is used for every seat. Each agent's RNG is
    derived from the game seed and its seat, so seats do not share a stream."""
    return agent_maker(names, n_players)(seed)


def agent_maker(names: list[str], n_players: int):
    """make_agents for these names, as a function of the game seed: the names are read
    once, not once a game (a simulation's games are short)."""
    if len(names) == 1:
        names = names * n_players
    if len(names) != n_players:
        raise ValueError(f"{len(names)} agents named for {n_players} players")
    made = list(enumerate(parse_agent(name) for name in names))
    return lambda seed: [cls(f"{seed}/{seat}", **options) for seat, (cls, options) in made]


def play(state, agents, on_step=None):
    """Drive a game to its end; chance uses the game's own RNG (C-2). The hot loop of
    every simulation: with agents that choose from the options alone (random, first)
    and nothing to call between steps, the state plays itself out (State.play_out);
    else this loop reads the pending point directly, where agents outside the runtime
    use current_player() and legal_actions()."""
    if on_step is None and blind(agents):
        if all(type(a) is RandomAgent for a in agents):
            state.play_out(_random_choices(agents))
        else:
            state.play_out(lambda seat, options: agents[seat].choose(None, options))
        return state
    watched = watchers(agents)
    while not state._over:
        point = state._pending
        who = point.player
        if who == CHANCE:
            state.sample_chance()
        else:
            options = point.options
            choice = options[0] if len(options) == 1 else decide(agents[who], state, who, options)
            tell(watched, state, who, choice)
            state.apply_action(choice)
        if on_step is not None:
            on_step(state)
    return state


def _random_choices(agents):
    """RandomAgent.choose for every seat in one call a decision (the hot path of a
    simulation): the same draw from each seat's own RNG, made when the seat first draws.
    play_out asks only when there are at least two options."""
    bits = [None] * len(agents)

    def choose(seat, options):
        draw = bits[seat]
        if draw is None:
            draw = bits[seat] = agents[seat].rng.getrandbits
        return options[randbelow(draw, len(options))]

    return choose


def watchers(agents) -> dict:
    """Seat -> the agents that watch the game (a kept tree, a belief): `tell` them."""
    return {seat: a for seat, a in enumerate(agents) if hasattr(a, "watch")}


def tell(watching: dict, state, who: int, choice) -> None:
    """Every watching agent (seat -> agent) is told that seat `who` takes `choice` at
    `state`, as its seat sees it: a secret choice's option is not shown to the others."""
    if not watching:
        return
    seen = state.choice_seen(choice)
    for seat, agent in watching.items():
        agent.watch(state, seat, who, choice.label if seen is None or seat in seen else None)


def decide(agent, state, who: int, options: list):
    """`agent`'s choice for seat `who` among `options` at `state`: it is given the
    seat's observation if it reads one, and a Lookahead if it searches."""
    obs = state.observation(who) if agent.needs_observation else None
    if getattr(agent, "needs_model", False):
        return agent.choose(obs, options, Lookahead(state, who))
    return agent.choose(obs, options)
