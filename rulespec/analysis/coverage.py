"""`rulespec lint --simulate N`, layer 3: what N seeded games never used.

Rules, reactions, triggers and end conditions that never fired, procedures never
called, and games that hit the turn limit. The N games are played by the agents asked
for (random by default, which rarely finish a long game); a rule they never fired is
tried again in a few games of greedy agents (which play to win, so their games end)
when the spec has an evaluation for them to play by, and reported only if it does not
fire there either.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulespec.interpreter import Game
from rulespec.interpreter.agents import make_agents, play

from ..lang import ir
from .explore import looping_rule
from .lint import Finding
from .simulation import LOOPS, Tally, play_games

GREEDY_GAMES = 10  # a greedy game costs about ten random ones
PROBE_GAMES = 20  # games played first: a loop or a game random agents never finish shows here
GREEDY_RERUN = 20  # greedy games that replace random ones random agents never finish
STILL_TURNS = 20  # turns before the limit in which nothing happened: the game stood still
# what changes the table or asks someone: an event of any other kind changes nothing
HAPPENINGS = frozenset({"move", "counter", "choice", "shuffle", "reveal", "play", "react"})


@dataclass
class Run:
    """Games of one player count: seeds seed..seed+games-1, and their tally."""

    players: int
    games: int
    tally: Tally
    seed: int = 0


def coverage(
    spec: ir.Spec,
    games: int,
    agents: tuple[str, ...] = ("random",),
    seed: int = 0,
    played: Tally | None = None,
    **options,
) -> list[Finding]:
    """Seeds seed..seed+games-1 at the spec's default player count and turn limit:
    `played`, their tally when they were played already, else they are played here."""
    n = spec.default_players
    if played is None:
        played = play_games(Game(spec, n), range(seed, seed + games), list(agents))
    return coverage_of(spec, [Run(n, games, played, seed)], agents, **options)


def coverage_of(
    spec: ir.Spec,
    runs: list[Run],
    agents: tuple[str, ...] = ("random",),
    *,
    stopped: bool = False,
    limits: bool = True,
    fired_before: frozenset = frozenset(),
) -> list[Finding]:
    """The findings of these games, of one player count or several (played already, by
    `simulate`, in processes or on a cluster: the findings do not depend on it).
    `stopped`: these were the first games only, played no further once they showed a
    loop. When some games looped, only the loops (and the turn limit) are reported. `limits`: report the games that hit the
    turn limit (RL302). `fired_before`: rules that fired in other games (they are
    reachable, whoever played)."""
    agents = list(agents)
    games, who = sum(r.games for r in runs), _who(agents, runs)
    findings = loops(spec, runs, agents, stopped)
    if findings:  # what else the games did not reach says little: they looped
        return findings + (limit_findings(spec, runs, agents) if limited(runs) and limits else [])
    fired = set(fired_before)
    for r in runs:
        fired |= r.tally.fired.keys() | r.tally.reasons.keys() | r.tally.called
    missed = [
        (kind, part)
        for kind, part in spec.rules()  # steps and rounds run in turn
        if kind not in ("step", "round") and part.name not in fired
    ]
    retry = spec.evaluation is not None and set(agents) != {"greedy"}
    greedy, greedy_games = set(), 0
    wanted = {p.name for _, p in missed}
    for r in runs if retry else ():
        tries = min(r.games, -(-GREEDY_GAMES // len(runs)))
        greedy_games += tries
        greedy |= _greedy_fired(Game(spec, r.players), r.players, tries, r.seed, wanted - greedy)
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
                    rules=(part.name,),
                )
            )
    for p in spec.procedures:
        if p.name not in fired:
            findings.append(
                Finding(
                    "RL301",
                    "warning",
                    f"procedure '{p.name}' was never called in {games} {who}",
                    p.span,
                    layer=3,
                    rules=(p.name,),
                )
            )
    if limited(runs) and limits:
        findings += limit_findings(spec, runs, agents)
    return findings


def _who(agents, runs: list[Run]) -> str:
    """`random 4-player games`, or `random games of 2 to 6 players`."""
    counts = sorted({r.players for r in runs})
    if len(counts) == 1:
        return f"{','.join(agents)} {counts[0]}-player games"
    return f"{','.join(agents)} games of {counts[0]} to {counts[-1]} players"


def limited(runs: list[Run]) -> int:
    """How many of the games hit the turn limit."""
    return sum(r.tally.limited for r in runs)


def limit_findings(spec: ir.Spec, runs: list[Run], agents) -> list[Finding]:
    """RL302, and RL304 if the first game that hit the turn limit stood still."""
    return [limit_note(spec, runs, agents), *stood_still(spec, runs, agents)]


def stood_still(spec: ir.Spec, runs: list[Run], agents) -> list[Finding]:
    """RL304: the first game that hit the turn limit (at the smallest player count),
    played again with its log, had stood still for its last STILL_TURNS turns or more:
    no card moved, no counter changed, nobody decided. Such a game never ends by a
    rule, whatever the turn limit: an end condition that never holds, a step that
    never offers anything."""
    hit = [r for r in runs if r.tally.first_seeds.get("turn_limit") is not None]
    if not hit:
        return []
    run = min(hit, key=lambda r: r.players)
    n, seed = run.players, run.tally.first_seeds["turn_limit"]
    game = play(Game(spec, n).new_initial_state(seed=seed), make_agents(list(agents), n, seed))
    events = game.log_for(None)
    last = next((e for e in reversed(events) if e["event"] in HAPPENINGS), None)
    since = 0 if last is None else last["turn"]
    if game.turn - since < max(STILL_TURNS, 2 * n):
        return []
    after = {e["event"] for e in events if e["turn"] > since and e["event"] != "end"}
    kinds = " and ".join([*sorted(after - {"turn"}), "turn"])
    return [
        Finding(
            "RL304",
            "warning",
            f"a game stood still: from turn {since + 1} to the turn limit ({spec.turn_limit}) "
            f"no card moved, no counter changed and nobody decided (its log then holds "
            f"only {kinds} events); "
            f"seed {seed}, {n} players, agents {','.join(agents)}",
            spec.span,
            layer=3,
            hint=f"an end condition that can never hold, or a step with nothing to offer? "
            f"rulespec run SPEC --seed {seed} --players {n} --agents {','.join(agents)} "
            f"--max-turns {since + 3} shows the game as it stops",
        )
    ]


def limit_note(spec: ir.Spec, runs: list[Run], agents) -> Finding:
    """RL302: how many of the games hit the turn limit."""
    games = sum(r.games for r in runs)
    return Finding(
        "RL302",
        "info",
        f"{limited(runs)} of {games} {_who(agents, runs)} hit the turn limit ({spec.turn_limit})",
        spec.span,
        layer=3,
    )


def looped(runs: list[Run]) -> bool:
    """Did some of these games stop without an end?"""
    return any(r.tally.reasons[reason] for r in runs for reason in LOOPS)


def loops(spec, runs: list[Run], agents, stopped: bool) -> list:
    """RL201 for each way the games stopped without an end: how many, at which player
    counts, the rule that looped, and the seeds that reproduce it (at the smallest
    count that looped)."""
    out, games = [], sum(r.games for r in runs)
    for reason in LOOPS:
        hit = [r for r in runs if r.tally.reasons[reason]]
        if not hit:
            continue
        run, n = hit[0], hit[0].players
        seeds = run.tally.loop_seeds[reason]
        many = len(seeds) > 1
        counts = ", with " + " or ".join(str(r.players) for r in hit) + " players"
        if len(runs) == 1:
            counts = ""
        elif len(hit) == len(runs):
            counts = ", at every player count"
        at = "" if len(runs) == 1 else f" with {n} player{'s' if n > 1 else ''}"
        stop = "; lint played no more games of this spec" if stopped else ""
        culprit, span = _culprit(Game(spec, n), agents, seeds[0])
        out.append(
            Finding(
                "RL201",
                "error",
                f"{sum(r.tally.reasons[reason] for r in hit)} of {games} {_who(agents, runs)} "
                f"stopped without an end ({reason} in {culprit}){counts}; "
                f"seed{'s' if many else ''} {', '.join(map(str, seeds))}{at} "
                f"reproduce{'' if many else 's'} it{stop}",
                span,
                layer=3,
                hint=f"rulespec run SPEC --seed {seeds[0]} --players {n} "
                f"--agents {','.join(agents)} shows the game to its loop",
            )
        )
    return out


def mostly_limited(runs: list[Run]) -> bool:
    """Did most of these games hit the turn limit?"""
    whole = Tally()
    for r in runs:
        whole.merge(r.tally)
    return whole.mostly_limited()


def rerun_note(spec: ir.Spec, runs: list[Run], agents, again: list[Run]):
    """RL303: most random games hit the turn limit, so the play checks ran on greedy
    games instead."""
    too, greedy = limited(again), sum(r.games for r in again)
    games = sum(r.games for r in runs)
    return Finding(
        "RL303",
        "info",
        f"{limited(runs)} of {games} {_who(agents, runs)} hit the "
        f"turn limit ({spec.turn_limit}): their agents rarely finish this game, so the play "
        f"checks ran on {greedy} greedy games instead"
        + (f", {too} of which hit it too" if too else ", which all ended by a rule"),
        spec.span,
        layer=3,
        hint="to judge the rules on the agents' own games, pass --agents; "
        "to let random games end, raise the turn limit",
    )


def _culprit(definition: Game, agents: list[str], seed: int) -> tuple[str, ir.Span]:
    """The rule a looping game stopped in, and its place: the game played again, with
    its log."""
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
