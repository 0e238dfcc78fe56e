"""`rulespec lint --explore`, layer 2: bounded explicit-state search.

Breadth-first over every choice and chance outcome of small games (each player count
the spec allows, with that count's deck, the state bound shared fairly between the
counts), to a depth bound, with states hashed by their canonical key
(State.key) so each is expanded once. A shuffle's outcomes (every order of a pile) are
too many to list, so the search starts from a few seeded games and samples each
shuffle from the seed, as a played game would (its notes say so); every other chance
outcome and every choice is enumerated. A trace (the steps that reach a state) lists
the enumerated steps: a scenario with the same seed and player count replays it. The
search is bounded by states and depth only, never by time, so a spec gives the same findings and state counts on any machine.

It finds games that stop without an end (trigger or effect loops) with the shortest
choice sequence reaching them, and, where breadth first was cut short, with a dive
steered toward the states the triggers and loops wait for (steer.py); it confirms or
leaves open layer-1 "maybe" findings. What it does not find is reported as "not found within bounds", never as
proof, unless the search was exhaustive (every count, no bound met, no shuffle
sampled): then it has played every game there is, and it withdraws the trigger-cycle
warnings (RL107) it found no loop for.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from rulespec.interpreter import CHANCE, Game

from ..lang import ir
from . import steer
from .lint import Finding


@dataclass
class Bounds:
    players: int | None = None  # one player count; None: every count the spec allows
    depth: int = 8  # choices (chance's included, shuffles not) from the start
    seeds: tuple[int, ...] = (0, 1, 2)  # the games searched: shuffles are sampled from their seeds
    max_states: int = 40_000
    timeout: float | None = None  # seconds; stops the search with no verdict (Timeout)
    memory: int | None = None  # bytes the search may add to the process; else OutOfMemory


class Timeout(Exception):
    """The search ran past Bounds.timeout: its result would depend on machine speed."""

    def __init__(self, states: int, seconds: float):
        super().__init__(
            f"exploration stopped by its timeout after {seconds:g} s at {states} states: "
            "no result is given, since it would depend on the machine's speed"
        )
        self.states = states


class OutOfMemory(Exception):
    """The search grew past Bounds.memory: a state takes from a few kB to a hundred
    (a large deck), so states alone cannot bound it; no result, as for a Timeout."""

    def __init__(self, states: int, memory: int):
        super().__init__(
            f"exploration stopped at {states} states, which took more than "
            f"{memory / 2**30:g} GB of memory: no result is given"
        )
        self.states = states


def resident() -> int:
    """This process's resident memory in bytes (its peak, where /proc is missing)."""
    with contextlib.suppress(OSError), open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    try:
        import resource
    except ImportError:  # Windows: the memory goes unchecked
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes there, kB elsewhere


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    states: int = 0
    fired: set[str] = field(default_factory=set)
    complete: bool = True  # False when the state bound cut the search short
    sampled: int = 0  # shuffles met, sampled rather than enumerated
    cut: int = 0  # states left unexpanded at the depth bound
    depth: int = 0  # that bound
    seeds: tuple[int, ...] = ()
    loop_rules: set = field(default_factory=set)  # triggers seen firing forever
    loop_counts: set = field(default_factory=set)  # the player counts a loop was met at
    counts: tuple[int, ...] = ()  # the player counts explored
    states_at: dict = field(default_factory=dict)  # player count -> the states it saw
    every_count: bool = False  # are they all the counts the spec allows?
    one_game: bool = True  # False: a game of a match may differ from the first
    steered: dict = field(default_factory=dict)  # (loop reason, count) -> the rule steered to

    @property
    def exhaustive(self) -> bool:
        """Did the search reach every state of every game at every player count: no
        state or depth bound met, no shuffle sampled (so the seeds chose nothing), and
        no later game of a match that could differ from the first it played?"""
        return (
            self.every_count
            and self.one_game
            and self.complete
            and not self.cut
            and not self.sampled
        )


def _children(state):
    """(step label, option, child state) for each way on from a state; a shuffle is
    sampled from the state's own seeded RNG, its one way on (no step of the trace, no
    option)."""
    if state.chance_is_sampled():
        child = state.clone()
        child.sample_chance()
        yield None, None, child
        return
    who = state.current_player()
    for option in state.legal_actions():
        yield (
            f"{'chance' if who == CHANCE else f'P{who + 1}'}: {option.label}",
            option,
            _made(state, option),
        )


def _made(state, option):
    child = state.clone()
    child.apply_action(option)
    return child


# a state that asks more options than this waits in the queue as its parent and the
# option that makes it, and is made again when its turn comes: each state keeps its
# options, and a frontier of wide choices (3 cards of 13 to pass: 286 sets, 75 kB a
# state) ran out of memory at the default bounds. Made again, it costs one move more
# against the many its own children cost.
WIDE = 32


_STARTS = {
    "trigger": ("trigger", "rule"),
    "play": ("action", "action"),
    "react": ("reaction", "reaction"),
}


def looping_rule(state) -> tuple[str, ir.Span]:
    """The rule a game stopped in (from its log), in words, and its place: the trigger
    that kept firing or the procedure called without end, else the last rule that
    started running this turn, else a step of the turn (placed at the spec's top: which
    step, the log does not say)."""
    spec = state.game.spec
    culprit, span = "a step of the turn", spec.span
    for e in state.log_for(None):
        if e["event"] == "turn":
            culprit, span = "a step of the turn", spec.span
        elif e["event"] in _STARTS:
            what, key = _STARTS[e["event"]]
            culprit, span = f"{what} '{e[key]}'", _rule_span(spec, e[key])
        elif e["event"] == "error" and e.get("rule"):  # a rule kept firing, or a call
            rule = e["rule"]
            called = next((p for p in spec.procedures if p.name == rule), None)
            if state.reason == "effect_loop" and called is not None:  # one that calls
                # itself without end (a Fluxx designer's); a trigger may share its name
                return f"procedure '{rule}'", called.span
            return f"{spec.checked_kind(rule)} '{rule}'", _rule_span(spec, rule)
    return culprit, span


def _rule_span(spec: ir.Spec, name: str) -> ir.Span:
    """Where the rule (not a step: one may share an action's name) is written."""
    return next(
        (r.span for kind, r in spec.rules() if kind != "step" and r.name == name), spec.span
    )


PROGRESS_EVERY = 500  # states between two calls of explore's progress, and memory checks
DEFAULT_BOUNDS = Bounds()  # explore reads its bounds and never changes them
STEERED = 1_000  # states of the steered dives (steer.py), shared by the player counts


def counts_of(spec: ir.Spec, bounds: Bounds) -> list[int]:
    """The player counts explored: the one asked for, else every count the spec allows."""
    if bounds.players is not None:
        return [max(spec.min_players, min(bounds.players, spec.max_players))]
    return list(spec.player_counts)


def explore(
    spec: ir.Spec, bounds: Bounds = DEFAULT_BOUNDS, progress: Callable[[int], None] | None = None
) -> Report:
    """Breadth first from each seed's start, at each player count in turn, each count
    given an even share of the states the counts before it left; progress(states seen)
    is called now and then."""
    counts = counts_of(spec, bounds)
    report = Report(seeds=bounds.seeds, counts=tuple(counts), depth=bounds.depth)
    report.every_count = len(counts) == len(spec.player_counts)
    report.one_game = not _match_dependent(spec)
    loops: dict[str, list] = {}  # loop reason -> [(players, state, path)], shortest first
    watch = _watch(bounds, progress)
    for i, n in enumerate(counts):
        share = (bounds.max_states - report.states) // (len(counts) - i)
        game = Game(spec, n)
        on = lambda seen: watch(report.states + seen)  # noqa: E731
        if _search(game, bounds, share, report, loops, on) and n not in report.loop_counts:
            _steer(game, bounds, STEERED // len(counts), report, loops, on)
    for reason, found in loops.items():
        report.findings.append(_loop_finding(spec, reason, found, report.steered))
    return report


def _match_dependent(spec: ir.Spec) -> bool:
    """Can a later game of a match play differently from the first, which is the one
    explored: a counter kept between games, or a rule that reads game_index?"""
    if any(c.match for c in spec.counters):
        return True
    parts = (spec.setup, *(rule for _, rule in spec.rules()))
    return any(isinstance(n, ir.Local) and n.name == "game_index" for n in ir.walk(parts))


def _search(game, bounds: Bounds, share: int, report: Report, loops: dict, watch) -> bool:
    """One player count's breadth-first search, of at most `share` states, into `report`;
    the first (shortest) loop of each reason it meets is added to `loops`. True when a
    bound cut it short: states it did not reach."""
    queue: deque = deque()  # (state, the steps that reach it)
    seen = set()
    for seed in bounds.seeds:
        first = game.new_initial_state(seed=seed, log=False)  # a loop's log is made again
        if first.key(bounds.depth) not in seen:
            seen.add(first.key(bounds.depth))
            queue.append((first, ()))
    met, cut, short = set(), report.cut, False
    while queue:
        if len(seen) > share:
            report.complete, short = False, True
            break
        watch(len(seen))
        state, path = queue.popleft()
        if type(state) is tuple:
            state = _made(*state)
        report.fired |= state.fired.keys()
        if state.is_terminal():
            if state.reason in ("trigger_loop", "effect_loop") and state.reason not in met:
                met.add(state.reason)  # breadth first meets the shortest first
                _add_loop(report, loops, _logged(state, path), path)
            continue
        if len(path) >= bounds.depth:
            report.cut += 1
            continue
        report.sampled += state.chance_is_sampled()
        for step, option, child in _children(state):
            key = child.key(bounds.depth)
            if key not in seen:
                seen.add(key)
                wide = option is not None and len(child.legal_actions()) > WIDE
                queue.append(((state, option) if wide else child, path + (step,) if step else path))
    report.states += len(seen)
    report.states_at[game.n] = len(seen)
    return short or report.cut > cut


def _steer(game, bounds: Bounds, states: int, report: Report, loops: dict, watch) -> None:
    """Where breadth first was cut short and met no loop at this count: a dive toward
    each trigger's and loop's condition (steer.py), of `states` in all, whose loops
    join the others (after the shortest of breadth first, at their count)."""
    aims = steer.targets(game.spec, game.n)
    for rule, distance in aims:
        firsts = [game.new_initial_state(seed=seed, log=False) for seed in bounds.seeds]
        for state, path in steer.dive(firsts, distance, states // len(aims), _children, watch):
            if state.reason not in {r for r, found in loops.items() if game.n in _counts(found)}:
                _add_loop(report, loops, _logged(state, path), path)
                report.steered[state.reason, game.n] = rule


def _logged(state, path: tuple):
    """The game of a state met by exploration, which keeps no event log (logging every
    copy would cost a third of its time), played again with its log: a new game of its
    seed, the steps of its path, and the shuffles sampled between them, which draw from
    the game's own RNG as they did."""
    again = state.game.new_initial_state(seed=state.seed)
    for step in path:
        while again.chance_is_sampled():
            again.sample_chance()
        again.apply_action(step.split(": ", 1)[1])
    while again.chance_is_sampled():
        again.sample_chance()
    assert again.key() == state.key(), "a game explored plays again alike"
    return again


def _add_loop(report: Report, loops: dict, state, path: tuple) -> None:
    """A game that stopped without an end, with the path that reaches it, among the
    loops found at its player count."""
    report.loop_rules |= {e.get("rule") for e in state.log_for(None) if e["event"] == "error"}
    loops.setdefault(state.reason, []).append((state.game.n, state, path))
    report.loop_counts.add(state.game.n)


def _counts(found: list) -> set[int]:
    return {n for n, _, _ in found}


def _loop_finding(spec: ir.Spec, reason: str, found: list, steered: dict) -> Finding:
    """RL201 for one loop reason, with the trace of the smallest player count where
    breadth first met it (the shortest there), else of a steered dive's, and the counts
    where it was met."""
    n, state, path = min(found, key=lambda f: ((reason, f[0]) in steered, f[0]))
    where = f"with {players_text([c for c, _, _ in found])}"
    if (reason, n) in steered:
        where += f", by a dive steered toward the condition of '{steered[reason, n]}'"
    culprit, span = looping_rule(state)
    return Finding(
        "RL201",
        "error",
        f"the game stops without an end ({reason} in {culprit}) after "
        f"{len(path)} choice{'s' if len(path) != 1 else ''} of a {n}-player game "
        f"(met {where})",
        span,
        layer=2,
        trace=path,
        hint=f"replay the trace with a {n}-player scenario to see the loop",
    )


def players_text(counts) -> str:
    """`2 players`, `2 and 3 players`, `2 to 4 players` (a run of three or more)."""
    counts = sorted(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]} players"
    if len(counts) == 1:
        return f"{counts[0]} player{'s' if counts[0] != 1 else ''}"
    return f"{', '.join(map(str, counts[:-1]))} and {counts[-1]} players"


def _watch(bounds: Bounds, progress) -> Callable[[int], None]:
    """What the search calls with the states it has seen, before it expands the next:
    it raises Timeout or OutOfMemory past their bounds, and now and then reports."""
    started, memory, checked = time.monotonic(), resident(), 0

    def watch(states: int) -> None:
        nonlocal checked
        if bounds.timeout is not None and time.monotonic() - started > bounds.timeout:
            raise Timeout(states, bounds.timeout)
        if states >= checked + PROGRESS_EVERY:
            checked = states
            if bounds.memory is not None and resident() - memory > bounds.memory:
                raise OutOfMemory(states, bounds.memory)
            if progress is not None:
                progress(states)

    return watch


def _reach(report: Report) -> str:
    """What the search covered, for its notes."""
    seeds = ", ".join(map(str, report.seeds))
    sampled = f"; shuffles sampled from seeds {seeds}" if report.sampled else ""
    deeper = f"; {report.cut} left at depth {report.depth}" if report.cut else ""
    return f"{report.states} states at {players_text(report.counts)}{sampled}{deeper}"


def confirm(spec: ir.Spec, layer1: list[Finding], report: Report) -> list[Finding]:
    """Layer-2 verdicts on layer-1 'maybe' findings (trigger cycles): RL202 for a cycle
    seen looping; else a note, which withdraws the RL107 (see `withdrawn`) when the
    search was exhaustive."""
    out = list(report.findings)
    if not report.complete or report.cut:  # the state bound, or the depth bound
        out.append(
            Finding(
                "RL203",
                "info",
                f"exploration stopped at its bounds ({_reach(report)}): "
                "what it did not reach is unknown",
                spec.span,
                layer=2,
            )
        )
    for f in layer1:
        if f.code != "RL107":
            continue
        if set(f.rules) & report.loop_rules:
            loop = next(x for x in report.findings if x.code == "RL201")
            out.append(
                Finding(
                    "RL202",
                    "error",
                    f"confirmed with {players_text(report.loop_counts)}: {f.message}",
                    f.span,
                    layer=2,
                    trace=loop.trace,
                )
            )
        elif report.exhaustive:
            out.append(
                Finding(
                    "RL203",
                    "info",
                    f"withdrawn: exploration reached every state of the game ({_reach(report)}) "
                    f"and none loops: {f.message}",
                    f.span,
                    layer=2,
                )
            )
        else:
            out.append(
                Finding(
                    "RL203",
                    "info",
                    f"not found within bounds ({_reach(report)}): {f.message}",
                    f.span,
                    layer=2,
                )
            )
    return out


def withdrawn(layer1: list[Finding], report: Report) -> list[Finding]:
    """The RL107 warnings an exhaustive search disproves: it played every choice and
    chance outcome (no shuffle sampled) of every game at every player count to its end,
    and none looped, so no trigger cycle can fire forever in any game of the spec."""
    if not report.exhaustive:
        return []
    return [f for f in layer1 if f.code == "RL107" and not set(f.rules) & report.loop_rules]
