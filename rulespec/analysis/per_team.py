"""Layer-1 check of partnerships: RL136, a side's zone or counter changed once for each
of its players. Its check yields bare findings, as lint's own do; lint.static runs it.

A per_team zone or counter is one a team, written with any of its seats (`score(q)`).
A loop over seats that changes it with the loop's player (`for q in seats { score(q)
+= 2 }`) changes each side once for each of its players who get there: a Euchre
trial's defenders scored twice. `for q in sides` goes over the teams once each.

A heuristic that reports the plain case only: a loop whose items can hold two seats of
one team (seats, players, others(…), team(…), partners(…) where a team has three seats,
or a filter, sort, argmax or argmin of one) whose body raises or lowers such a counter
of the loop's player (`+=`, `-=`, `= itself ±`), or moves cards into such a zone of
theirs, by what is the same for each player of a side: what reads the player only
through the side's own zones and counters or `team(q)`. The tests on the way there
(ifs, whiles) must not tell the players of a side apart either: one that reads the
player otherwise (`q == x`, `size(hand(q)) > 0`, `q in sides`) quiets it, as do a
choice the player makes and a loop over what tells them apart (their hand); `q != x`
and `q not in partners(x)` keep x's side from getting there twice, `q in team(x)` every
side but x's, and a side left whole is reported.
"""

from __future__ import annotations

from ..lang import ir
from . import graph as graphs
from .lint import Analysis, Finding, _body

_ITEMS_OF = ("filter", "sort", "argmax", "argmin")  # aggregates giving some of their items
_RAISES = ("+=", "-=")
_INTO = {"move": 1, "insert": 1}  # the procedures that put cards into a zone: its argument
_CHOICES = (ir.ChooseCard, ir.ChooseNumber, ir.ChooseBranch)


def check_sides_changed_per_player(an: Analysis):
    """RL136: a per_team counter or zone changed with the player of a loop over seats,
    the same change for more than one player of a side."""
    spec = an.spec
    whole = [t for t in spec.teams if len(t.seats) > 1]
    per_team = {x.name for x in (*spec.zones, *spec.counters) if x.per_team}
    if not whole or not per_team:
        return
    loop = _Loops(per_team, len(whole), max(len(t.seats) for t in whole))
    for nid, part in (*graphs.rules_of(spec), *graphs.definitions(spec)):
        for s in ir.walk_statements(_body(spec, part)):
            if not (isinstance(s, ir.For) and loop.many_a_side(s.items)):
                continue
            for change, name in loop.changes(s.body, s.var, frozenset(), _Guard()):
                what = "counter" if isinstance(change, ir.Assign) else "zone"
                yield Finding(
                    "RL136",
                    "warning",
                    f"{nid.kind} '{nid.name}': per-team {what} '{name}' is changed with "
                    f"'{s.var}', the player of a loop over {_written(s.items)}, the same way "
                    f"for more than one player of a side: the side's '{name}' changes once for "
                    "each of them",
                    change.span,
                    rules=(nid.name,),
                    hint=f"loop over sides (one seat of each team), or test '{s.var}' so that "
                    f"only one player of a side makes the change ({s.var} == x)",
                )


def _written(items: ir.Expr) -> str:
    if isinstance(items, ir.Local):
        return items.name
    if isinstance(items, ir.Call):
        return f"{items.func}(…)"
    return f"{items.func}(… for … in {_written(items.items)})"


class _Guard:
    """What the tests on the way to a statement leave of the players of a side: the
    players `q != x` (or `q not in partners(x)`) keeps out, one side split each, and
    whether a `q in team(x)` keeps every side but one out."""

    def __init__(self, kept_out=frozenset(), one_side=False):
        self.kept_out, self.one_side = kept_out, one_side

    def __and__(self, other: _Guard) -> _Guard:
        return _Guard(self.kept_out | other.kept_out, self.one_side or other.one_side)

    def whole(self, sides: int) -> bool:
        """Is some side left that more than one player of it reaches?"""
        return len(self.kept_out) < (1 if self.one_side else sides)


class _Loops:
    """Reads a loop's body for RL136: per_team, the names of the per-team zones and
    counters; sides, the teams of two seats or more; most, the seats of the largest."""

    def __init__(self, per_team: set[str], sides: int, most: int):
        self.per_team, self.sides, self.most = per_team, sides, most

    def many_a_side(self, items: ir.Expr) -> bool:
        """Can these items (players) hold two seats of one team?"""
        if isinstance(items, ir.Local):
            return items.builtin and items.name in ("seats", "players")
        if isinstance(items, ir.Call):
            return items.func in ("others", "team") or (items.func == "partners" and self.most > 2)
        return (
            isinstance(items, ir.Aggregate)
            and items.func in _ITEMS_OF
            and self.many_a_side(items.items)
        )

    def changes(self, block, var: str, told: frozenset, guard: _Guard):
        """(statement, name) for each change of a per-team counter or zone of var's in
        block that more than one player of a side makes alike. told: the locals bound
        in the loop from what tells them apart."""
        for s in block:
            if isinstance(s, ir.Assign) and isinstance(s.target, ir.Local):
                if s.target.name == var:
                    return  # var is another player from here on
                if self.tells(s.value, var, told):
                    told |= {s.target.name}
            elif isinstance(s, ir.Let) and self.tells(s.value, var, told):
                told |= {s.name}
            if guard.whole(self.sides) and self._alike(s, var, told):
                yield s, (s.target.name if isinstance(s, ir.Assign) else s.args[_INTO[s.proc]].name)
            yield from self._inner(s, var, told, guard)

    def _inner(self, s, var: str, told: frozenset, guard: _Guard):
        """The changes in the blocks of s, under what s tests on the way into each: a
        test that tells the players apart (None) leaves its block alone, as does a loop
        over what does, or a choice one of them makes."""
        if isinstance(s, ir.If):
            arms = [(s.then, self.passing(s.cond, var, told))]
            arms.append((s.orelse, self.failing(s.cond, var, told)))
        elif isinstance(s, ir.While):
            arms = [(s.body, self.passing(s.cond, var, told))]
        elif isinstance(s, ir.For) and s.var != var and not self.tells(s.items, var, told):
            told, arms = told - {s.var}, [(s.body, _Guard())]
        elif isinstance(s, _CHOICES) and not self.tells(s.player, var, told):
            told |= {getattr(s, "var", None)} - {None}  # picked anew for each player
            arms = [(block, _Guard()) for block in ir.iter_blocks(s)]
        else:
            arms = []
        for block, passed in arms:
            if passed is not None:
                yield from self.changes(block, var, told, guard & passed)

    def _alike(self, s, var: str, told: frozenset) -> bool:
        """Does s change a per-team counter or zone of var's, the same for each player?"""
        if isinstance(s, ir.Assign) and isinstance(s.target, ir.Counter):
            target, value = s.target, s.value
            again = (
                s.op == "="
                and isinstance(value, ir.Binary)
                and value.op in ("+", "-")
                and ir.canon(value.left) == ir.canon(target)
            )
            if not (s.op in _RAISES or again):
                return False  # set: the same value set twice is set once
        elif isinstance(s, ir.Do) and s.proc in _INTO:
            target, value = s.args[_INTO[s.proc]], s.args[0]
            if not isinstance(target, ir.ZoneRef):
                return False
        else:
            return False
        return (
            target.name in self.per_team
            and _is(target.owner, var)
            and not self.tells(target.index, var, told)
            and not self.tells(value, var, told)
        )

    def tells(self, e, var: str, told: frozenset) -> bool:
        """Can e differ between two players of one side, var being either? It reads var
        otherwise than through the side's zones and counters or `team(var)`, or reads a
        local bound from what does."""
        if e is None:
            return False
        if isinstance(e, ir.Local):
            return not e.builtin and (e.name == var or e.name in told)
        if self._sides_own(e, var, told):
            return self.tells(getattr(e, "index", None), var, told)
        if isinstance(e, ir.Call) and e.func == "team" and _is(e.args[0], var):
            return False
        if isinstance(e, ir.Aggregate) and e.var in (var, *told):  # the name is its item
            inner = None if e.var == var else var
            return self.tells(e.items, var, told) or any(
                self.tells(n, inner, told - {e.var}) for n in (e.body, e.where)
            )
        return any(self.tells(n, var, told) for n in ir.iter_children(e))

    def _sides_own(self, e, var: str, told: frozenset) -> bool:
        """Is e a per-team counter or zone of var's side (or of a player the same for
        each player of it)?"""
        return (
            isinstance(e, (ir.Counter, ir.ZoneRef, ir.Zones))
            and e.name in self.per_team
            and (_is(e.owner, var) or not self.tells(e.owner, var, told))
        )

    def passing(self, cond: ir.Expr, var: str, told: frozenset) -> _Guard | None:
        """What a test leaves of the players of a side when it holds; None when it tells
        them apart otherwise."""
        guard = _Guard()
        for test in ir.conjuncts(cond):
            if not self.tells(test, var, told):
                continue
            kept = self._kept_out(test, var, told)
            if kept is None:
                return None
            guard &= kept
        return guard

    def failing(self, cond: ir.Expr, var: str, told: frozenset) -> _Guard | None:
        """What a test leaves of the players of a side when it fails (an else)."""
        if isinstance(cond, ir.Unary) and cond.op == "not":
            return self.passing(cond.operand, var, told)
        if not self.tells(cond, var, told):
            return _Guard()
        return self._kept_out(_negated(cond), var, told)

    def _kept_out(self, test: ir.Expr, var: str, told: frozenset) -> _Guard | None:
        """A test that reads var: `var != x` and `var not in partners(x)` keep players of
        x's side out (x's canon), `var in team(x)` all but x's side; None otherwise."""
        if isinstance(test, ir.Unary) and isinstance(test.operand, ir.Binary):
            test = _negated(test.operand) if test.operand.op == "==" else test
        if isinstance(test, ir.Binary) and test.op == "!=":
            for one, other in ((test.left, test.right), (test.right, test.left)):
                if _is(one, var) and not self.tells(other, var, told):
                    return _Guard(frozenset({ir.canon(other)}))
            return None
        member = test.operand if isinstance(test, ir.Unary) and test.op == "not" else test
        if not (
            isinstance(member, ir.Binary)
            and member.op == "in"
            and _is(member.left, var)
            and isinstance(member.right, ir.Call)
            and not self.tells(member.right.args[0], var, told)
        ):
            return None
        func, x = member.right.func, frozenset({ir.canon(member.right.args[0])})
        if member is test:  # var in team(x): x's side alone; in partners(x): x kept out too
            return {"team": _Guard(one_side=True), "partners": _Guard(x, True)}.get(func)
        return {"team": _Guard(), "partners": _Guard(x)}.get(func)  # not in: as they were


def _is(e, var: str) -> bool:
    return isinstance(e, ir.Local) and not e.builtin and e.name == var


def _negated(cond: ir.Expr) -> ir.Expr:
    """`not cond`, as a test: `a == b` fails where `a != b` holds."""
    if isinstance(cond, ir.Binary) and cond.op == "==":
        return ir.Binary(cond.span, "bool", "!=", cond.left, cond.right)
    return ir.Unary(cond.span, "bool", "not", cond)


CHECKS = (check_sides_changed_per_player,)
