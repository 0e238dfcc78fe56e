"""Rounds of a match, compiled to ops on the game's frame stack.

A round ends when one of its end conditions holds; they are checked with the end
conditions and triggers (C-4), between the two. From there to the first turn of the
next round is one effect, so no other rule is checked in between: the end condition's
effect, the round's scoring, the match-end check (the first match end that holds fires)
and, unless the game is over, the next round's start and setup.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulespec.lang import ir

from .effects import CompiledTrigger, Frame


@dataclass(frozen=True)
class CompiledRounds:
    ir: ir.Rounds
    opening: tuple  # ops: round 1 begins, after the game's setup
    ends: list  # CompiledTrigger per round end condition, its effect closing the round
    match_end: list  # CompiledTrigger per match end
    starter: object  # (game, env) -> the seat to start the next round, or None


def compile_rounds(game, stmts) -> CompiledRounds:
    r, x = game.spec.rounds, game.exprs
    with x.within("rounds.setup"):
        setup = stmts.block(r.setup.effect)
    with x.within("rounds.scoring"):
        scoring = stmts.block(r.scoring.effect) if r.scoring else ()
    with x.within("rounds.starter"):
        starter = x.seat(r.starter) if r.starter else None
    match_end = [stmts.trigger(t) for t in r.match_end]

    def first(g, env):
        g._log("round", round=1)
        g._between = "rounds.setup"
        g.enter(setup, {})

    def score(g, env):
        g._between = "rounds.scoring"
        g.enter(scoring, {})

    def check_match_end(g, env):
        g.end_sitting_out()
        for t in match_end:
            for p in g.active_players() if t.ir.each else (None,):
                bound = {t.ir.each: p} if t.ir.each else {}
                if t.when(g, bound):
                    g._between = t.ir.name
                    g.fire(t, bound, p)
                    return

    def next_round(g, env):
        g.game.flow.next_round(g, starter)
        g.reset_counters(g.game.round_resets)
        g.reset_marks(g.game.mark_round_resets)
        g.enter(setup, {})

    closing = stmts.register(
        (score, check_match_end, next_round) if scoring else (check_match_end, next_round)
    )
    return CompiledRounds(
        r,
        stmts.register((first,)),
        [_round_end(stmts, t, closing) for t in r.end_conditions],
        match_end,
        starter,
    )


def _round_end(stmts, t: ir.Trigger, closing: tuple) -> CompiledTrigger:
    """A round end condition: its effect ends the turn and the round, then runs the
    condition's own effect and, after it, the closing ops."""
    compiled, name = stmts.trigger(t), t.name

    def end_round(g, env):
        g.game.flow.end_round(g, name)
        g.push(Frame(closing, {}))
        g.enter(compiled.effect, env)

    return CompiledTrigger(t, compiled.when, stmts.register((end_round,)))
