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
from .simulation import LOOPS, Tally, play_games

GREEDY_GAMES = 10  # a greedy game costs about ten random ones
PROBE_GAMES = 20  # games played first: a loop or a game random agents never finish shows here
GREEDY_RERUN = 20  # greedy games that replace random ones random agents never finish


def coverage(
    spec: ir.Spec,
    games: int,
    agents: tuple[str, ...] = ("random",),
    seed: int = 0,
    played: Tally | None = None,
    *,
    stopped: bool = False,
    limits: bool = True,
    fired_before: frozenset = frozenset(),
) -> list[Finding]:
    """Seeds seed..seed+games-1, the spec's default player count and turn limit:
    `played`, their tally when they were played already (by `simulate`, in processes
    or on a cluster: the findings do not depend on it), else they are played here.
    `stopped`: these were the first games only, played no further once they showed a
    loop; then only the loops are reported. `limits`: report the games that hit the
    turn limit (RL302). `fired_before`: rules that fired in other games (they are
    reachable, whoever played)."""
    n, agents = spec.default_players, list(agents)
    who = f"{','.join(agents)} {n}-player games"
    definition = Game(spec, n)
    if played is None:
        played = play_games(definition, range(seed, seed + games), agents)
    findings = loops(spec, definition, games, agents, played, stopped)
    if stopped and findings:
        return findings  # what else they did not reach says nothing: they looped
    fired = played.fired.keys() | played.reasons.keys() | fired_before
    missed = [
        (kind, part)
        for kind, part in spec.rules()  # steps and rounds run in turn
        if kind not in ("step", "round") and part.name not in fired
    ]
    retry = spec.evaluation is not None and set(agents) != {"greedy"}
    greedy_games = min(games, GREEDY_GAMES) if retry else 0
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
        if p.name not in played.called and p.name not in fired_before:
            findings.append(
                Finding(
                    "RL301",
                    "warning",
                    f"procedure '{p.name}' was never called in {games} {who}",
                    p.span,
                    layer=3,
                )
            )
    if played.reasons["turn_limit"] and limits:
        findings.append(limit_note(spec, games, agents, played))
    return findings


def limit_note(spec: ir.Spec, games: int, agents, played: Tally) -> Finding:
    """RL302: how many of the games hit the turn limit."""
    who = f"{','.join(agents)} {spec.default_players}-player games"
    return Finding(
        "RL302",
        "info",
        f"{played.reasons['turn_limit']} of {games} {who} hit the turn limit ({spec.turn_limit})",
        spec.span,
        layer=3,
    )


def looped(played: Tally) -> bool:
    """Did some of these games stop without an end?"""
    return any(played.reasons[r] for r in LOOPS)


def loops(spec, definition: Game, games: int, agents, played: Tally, stopped: bool) -> list:
    """RL201 for each way the games stopped without an end: how many, the rule that
    looped, and the seeds that reproduce it."""
    who = f"{','.join(agents)} {definition.n}-player games"
    out = []
    for reason in LOOPS:
        seeds = played.loop_seeds.get(reason, ())
        if not played.reasons[reason]:
            continue
        listed = ", ".join(map(str, seeds))
        stop = f"; lint played no more than these {games} games" if stopped else ""
        out.append(
            Finding(
                "RL201",
                "error",
                f"{played.reasons[reason]} of {games} {who} stopped without an end "
                f"({reason} in {_culprit(definition, agents, seeds[0])}); "
                f"seed{'s' if len(seeds) > 1 else ''} {listed} reproduce{'' if len(seeds) > 1 else 's'} it{stop}",
                spec.span,
                layer=3,
                hint=f"rulespec run SPEC --seed {seeds[0]} --players {definition.n} "
                f"--agents {','.join(agents)} shows the game to its loop",
            )
        )
    return out


def mostly_limited(played: Tally) -> bool:
    """Did most of these games hit the turn limit?"""
    return played.reasons["turn_limit"] * 2 > played.games


def rerun_note(spec: ir.Spec, games: int, agents, played: Tally, greedy: int, again: Tally):
    """RL303: most random games hit the turn limit, so the play checks ran on greedy
    games instead."""
    n = spec.default_players
    too = again.reasons["turn_limit"]
    return Finding(
        "RL303",
        "info",
        f"{played.reasons['turn_limit']} of {games} {','.join(agents)} {n}-player games hit the "
        f"turn limit ({spec.turn_limit}): their agents rarely finish this game, so the play "
        f"checks ran on {greedy} greedy games instead"
        + (f", {too} of which hit it too" if too else ", which all ended by a rule"),
        spec.span,
        layer=3,
        hint="to judge the rules on the agents' own games, pass --agents; "
        "to let random games end, raise the turn limit",
    )


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
