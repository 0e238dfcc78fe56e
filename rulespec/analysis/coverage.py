"""`rulespec lint --simulate N`, layer 3: what N seeded games never used.

Rules, reactions, triggers and end conditions that never fired, procedures never
called, and games that hit the turn limit. The N games are played by the agents asked
for (random by default, which rarely finish a long game); a rule they never fired is
tried again in a few games of greedy agents (which play to win, so their games end)
when the spec has an evaluation for them to play by, and reported only if it does not
fire there either.
"""

from __future__ import annotations

from rulespec.interpreter import Game
from rulespec.interpreter.agents import make_agents, play

from ..lang import ir
from .explore import looping_rule
from .lint import Finding
from .simulation import Tally, play_games

GREEDY_GAMES = 10  # a greedy game costs about ten random ones


def coverage(
    spec: ir.Spec,
    games: int,
    agents: tuple[str, ...] = ("random",),
    seed: int = 0,
    played: Tally | None = None,
) -> list[Finding]:
    """Seeds seed..seed+games-1, the spec's default player count and turn limit:
    `played`, their tally when they were played already (by `simulate`, in processes
    or on a cluster: the findings do not depend on it), else they are played here."""
    n, agents = spec.default_players, list(agents)
    who = f"{','.join(agents)} {n}-player games"
    definition = Game(spec, n)
    if played is None:
        played = play_games(definition, range(seed, seed + games), agents)
    fired = played.fired.keys() | played.reasons.keys()
    limited = played.reasons["turn_limit"]
    findings = [
        Finding(
            "RL201",
            "error",
            f"{played.reasons[reason]} of {games} {who} stopped without an end "
            f"({reason} in {_culprit(definition, agents, first)}); first seed {first}",
            spec.span,
            layer=3,
        )
        for reason, first in sorted(played.first_seeds.items())
        if reason in ("trigger_loop", "effect_loop")
    ]
    missed = [
        (kind, part)
        for kind, part in spec.rules()  # steps and rounds run in turn
        if kind not in ("step", "round") and part.name not in fired
    ]
    greedy_games = min(games, GREEDY_GAMES) if spec.evaluation is not None else 0
    greedy = _greedy_fired(definition, n, greedy_games, seed, {p.name for _, p in missed})
    nor = f", nor in {greedy_games} greedy ones" if greedy_games else ""
    for kind, part in missed:
        if part.name not in greedy:
            findings.append(
                Finding(
                    "RL301",
                    "warning",
                    f"{ir.RULE_KINDS[kind]} '{part.name}' never fired in {games} {who}{nor}",
                    part.span,
                    layer=3,
                )
            )
    for p in spec.procedures:
        if p.name not in played.called:
            findings.append(
                Finding(
                    "RL301",
                    "warning",
                    f"procedure '{p.name}' was never called in {games} {who}",
                    p.span,
                    layer=3,
                )
            )
    if limited:
        findings.append(
            Finding(
                "RL302",
                "info",
                f"{limited} of {games} {who} hit the turn limit ({spec.turn_limit})",
                spec.span,
                layer=3,
            )
        )
    return findings


def _culprit(definition: Game, agents: list[str], seed: int) -> str:
    """The rule a looping game stopped in: the game played again, with its log."""
    return looping_rule(
        play(definition.new_initial_state(seed=seed), make_agents(agents, definition.n, seed))
    )


def _greedy_fired(definition: Game, n: int, games: int, seed: int, wanted: set[str]) -> set[str]:
    """Which of the wanted rules fire in greedy games (seeds seed..seed+games-1),
    stopping as soon as all have."""
    fired: set[str] = set()
    for s in range(seed, seed + games if wanted else seed):
        game = play(definition.new_initial_state(seed=s, log=False), make_agents(["greedy"], n, s))
        fired |= game.fired.keys()
        if wanted <= fired:
            break
    return fired & wanted
