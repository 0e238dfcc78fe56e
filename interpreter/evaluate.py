"""IR expressions -> Python closures, compiled once per game definition.

Each closure takes (game, env): the running game and the effect's local bindings.
Runtime values: int, bool and str as themselves; a player is a seat number; a set of
players a tuple of seats; a zone the index of its slot in game.zones; a set of cards a
list of card ids; a kind the frozenset of card-type indexes it covers.
"""
from __future__ import annotations

import operator

from rulespec import ir

def _div(a, b):
    return a // b if b else 0  # x // 0 is 0: a rule never crashes the game


def _mod(a, b):
    return a % b if b else 0


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": _div, "%": _mod, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
          "<=": operator.le, ">": operator.gt, ">=": operator.ge}


# The common operators as closures of their own: one Python call per node, not two.
_DIRECT = {
    "+": lambda a, b: lambda g, env: a(g, env) + b(g, env),
    "-": lambda a, b: lambda g, env: a(g, env) - b(g, env),
    "*": lambda a, b: lambda g, env: a(g, env) * b(g, env),
    "==": lambda a, b: lambda g, env: a(g, env) == b(g, env),
    "!=": lambda a, b: lambda g, env: a(g, env) != b(g, env),
    "<": lambda a, b: lambda g, env: a(g, env) < b(g, env),
    "<=": lambda a, b: lambda g, env: a(g, env) <= b(g, env),
    ">": lambda a, b: lambda g, env: a(g, env) > b(g, env),
    ">=": lambda a, b: lambda g, env: a(g, env) >= b(g, env),
}
_WITH_CONSTANT = {
    "+": lambda a, v: lambda g, env: a(g, env) + v,
    "-": lambda a, v: lambda g, env: a(g, env) - v,
    "==": lambda a, v: lambda g, env: a(g, env) == v,
    "!=": lambda a, v: lambda g, env: a(g, env) != v,
    "<": lambda a, v: lambda g, env: a(g, env) < v,
    "<=": lambda a, v: lambda g, env: a(g, env) <= v,
    ">": lambda a, v: lambda g, env: a(g, env) > v,
    ">=": lambda a, v: lambda g, env: a(g, env) >= v,
}


class Compiler:
    """Compiles expressions against one game definition (its zones, counters, kinds)."""

    def __init__(self, defs):
        self.defs = defs  # interpreter.rules.Rules

    def expr(self, e: ir.Expr):
        method = getattr(self, "_" + type(e).__name__)
        return method(e)

    def cards(self, e: ir.Expr):
        """A closure giving a list of card ids, whether e is a zone or a card set."""
        if e.type == "zone":
            return self._zone_read(e, counts=False)
        return self.expr(e)

    def _zone_read(self, e: ir.ZoneRef, counts: bool):
        """A closure giving one zone slot's cards (g.zones) or, with counts, its
        per-type counts (g.tcount). The common shapes (a shared zone, a zone of a
        local player, of the current player) are fused into one call: conditions run
        on every trigger check, so each call saved counts."""
        idx = self.defs.zone_index[e.name]
        owner = e.owner
        table = "tcount" if counts else "zones"
        if owner is None:
            if table == "tcount":
                return lambda g, env: g.tcount[idx]
            return lambda g, env: g.zones[idx]
        if isinstance(owner, ir.Local) and owner.name == "current":
            if table == "tcount":
                return lambda g, env: g.tcount[idx + g.current]
            return lambda g, env: g.zones[idx + g.current]
        if isinstance(owner, ir.Local) and owner.name not in ("players", "player_count", "game_index"):
            name = owner.name
            if table == "tcount":
                return lambda g, env: g.tcount[idx + env[name]]
            return lambda g, env: g.zones[idx + env[name]]
        f = self.expr(owner)
        if table == "tcount":
            return lambda g, env: g.tcount[idx + f(g, env)]
        return lambda g, env: g.zones[idx + f(g, env)]

    def players(self, e: ir.Expr):
        f = self.expr(e)
        if e.type == "player":
            return lambda g, env: (f(g, env),)
        return f

    # --- leaves -----------------------------------------------------------------------

    def _Const(self, e):
        v = e.value
        return lambda g, env: v

    def _Param(self, e):
        v = self.defs.params[e.name]
        return lambda g, env: v

    def _Local(self, e):
        name = e.name
        if name == "current":
            return lambda g, env: g.current
        if name == "players":
            return lambda g, env: g.active_players()
        if name == "player_count":
            return lambda g, env: g.n
        if name == "game_index":
            return lambda g, env: g.game_index
        return lambda g, env: env[name]

    def _Counter(self, e):
        idx = self.defs.counter_index[e.name]
        if e.owner is None:
            return lambda g, env: g.counters[idx]
        owner = self.expr(e.owner)
        return lambda g, env: g.counters[idx + owner(g, env)]

    def _ZoneRef(self, e):
        idx = self.defs.zone_index[e.name]
        if e.owner is None:
            return lambda g, env: idx
        owner = self.expr(e.owner)
        return lambda g, env: idx + owner(g, env)

    def _Kind(self, e):
        v = self.defs.kinds[e.name]
        return lambda g, env: v

    # --- operators ----------------------------------------------------------------

    def _Unary(self, e):
        x = self.expr(e.operand)
        if e.op == "not":
            return lambda g, env: not x(g, env)
        return lambda g, env: -x(g, env)

    def _Binary(self, e):
        a = self.expr(e.left)
        if e.op == "and":
            b = self.expr(e.right)
            return lambda g, env: a(g, env) and b(g, env)
        if e.op == "or":
            b = self.expr(e.right)
            return lambda g, env: a(g, env) or b(g, env)
        if e.op == "in":
            b = self.players(e.right)
            return lambda g, env: a(g, env) in b(g, env)
        if e.type == "cards":  # cards + cards
            a, b = self.cards(e.left), self.cards(e.right)
            return lambda g, env: list(a(g, env)) + list(b(g, env))
        if e.left.type == "players" or e.right.type == "players":  # compare as sets
            a, b = self.players(e.left), self.players(e.right)
            fn = _ARITH[e.op]
            return lambda g, env: fn(set(a(g, env)), set(b(g, env)))
        if isinstance(e.right, (ir.Const, ir.Param)):  # compare with a constant: no call
            v = self.expr(e.right)(None, None)
            if e.op in _WITH_CONSTANT:
                return _WITH_CONSTANT[e.op](a, v)
        b = self.expr(e.right)
        if e.op in _DIRECT:
            return _DIRECT[e.op](a, b)
        fn = _ARITH[e.op]
        return lambda g, env: fn(a(g, env), b(g, env))

    # --- calls --------------------------------------------------------------------

    def _Call(self, e):
        return getattr(self, "_f_" + e.func)(e, *e.args)

    def _f_size(self, e, x):
        if x.type in ("players", "player"):
            f = self.players(x)
        else:
            f = self.cards(x)
        return lambda g, env: len(f(g, env))

    def _f_count(self, e, cards, kind):
        if cards.type == "zone" and isinstance(kind, ir.Kind):  # from the indexed counts
            row, types = self._zone_read(cards, counts=True), tuple(sorted(self.defs.kinds[kind.name]))
            if len(types) == 1:
                t = types[0]
                return lambda g, env: row(g, env)[t]
            return lambda g, env: sum(row(g, env)[t] for t in types)
        f, k = self.cards(cards), self.expr(kind)
        def count(g, env):
            kinds, ctype = k(g, env), g.ctype
            return sum(1 for c in f(g, env) if ctype[c] in kinds)
        return count

    def _f_of(self, e, cards, kind):
        f, k = self.cards(cards), self.expr(kind)
        def of(g, env):
            kinds, ctype = k(g, env), g.ctype
            return [c for c in f(g, env) if ctype[c] in kinds]
        return of

    def _f_one(self, e, cards, kind):
        f, k = self.cards(cards), self.expr(kind)
        def one(g, env):
            kinds, ctype = k(g, env), g.ctype
            for c in f(g, env):
                if ctype[c] in kinds:
                    return [c]
            return []
        return one

    def _f_top(self, e, zone, n):
        z, k = self.expr(zone), self.expr(n)
        def top(g, env):
            cards, n = g.zones[z(g, env)], k(g, env)
            return cards[len(cards) - n:][::-1] if n > 0 else []
        return top

    def _f_others(self, e, p):
        f = self.expr(p)

        def others(g, env):
            me = f(g, env)
            return tuple(q for q in g.active_players() if q != me)
        return others

    def _f_next(self, e, p):
        f = self.expr(p)
        return lambda g, env: g.next_player(f(g, env))

    def _f_without(self, e, cards, less):
        f, w = self.cards(cards), self.cards(less)
        def without(g, env):
            drop = set(w(g, env))
            return [c for c in f(g, env) if c not in drop]
        return without

    def _f_prop(self, e, cards, key):
        f, name, props = self.cards(cards), key.value, self.defs.props
        default = {"int": 0, "bool": False, "kind": "", "str": ""}[e.type]
        kinds = self.defs.kinds
        def prop(g, env):
            cs = f(g, env)
            value = props[g.ctype[cs[0]]].get(name, default) if cs else default
            return kinds.get(value, frozenset()) if e.type == "kind" else value
        return prop

    def _f_kind_of(self, e, cards):
        f, kinds, names = self.cards(cards), self.defs.kinds, self.defs.type_names
        def kind_of(g, env):
            cs = f(g, env)
            return kinds[names[g.ctype[cs[0]]]] if cs else frozenset()
        return kind_of

    def _f_seat(self, e, n):
        f = self.expr(n)
        return lambda g, env: f(g, env) % g.n

    def _f_seat_number(self, e, p):
        return self.expr(p)

    def _goal(self, goal, player):
        base, order = self.defs.goals[goal.value]
        return base, order, self.expr(player)

    def _f_next_goal(self, e, goal, player):
        base, order, who = self._goal(goal, player)
        def next_goal(g, env):
            zone, ctype = g.zones[base + who(g, env)], g.ctype
            for kinds, limit in order:
                if sum(1 for c in zone if ctype[c] in kinds) < limit:
                    return kinds
            return frozenset()
        return next_goal

    def _f_goal_done(self, e, goal, player):
        f = self._f_next_goal(e, goal, player)
        return lambda g, env: not f(g, env)

    def _f_goal_score(self, e, goal, player):
        base, order, who = self._goal(goal, player)
        def goal_score(g, env):
            zone, ctype = g.zones[base + who(g, env)], g.ctype
            return sum(min(limit, sum(1 for c in zone if ctype[c] in kinds)) for kinds, limit in order)
        return goal_score

    def _f_min(self, e, a, b):
        fa, fb = self.expr(a), self.expr(b)
        return lambda g, env: min(fa(g, env), fb(g, env))

    def _f_max(self, e, a, b):
        fa, fb = self.expr(a), self.expr(b)
        return lambda g, env: max(fa(g, env), fb(g, env))

    # --- aggregates ---------------------------------------------------------------

    def _Aggregate(self, e):
        func = e.func
        body = self.cards(e.body) if func == "union" else self.expr(e.body)
        items, var = self.players(e.items), e.var

        def values(g, env):
            inner = dict(env)
            for p in items(g, env):
                inner[var] = p
                yield p, body(g, inner)

        if func == "any":
            return lambda g, env: any(v for _, v in values(g, env))
        if func == "all":
            return lambda g, env: all(v for _, v in values(g, env))
        if func == "sum":
            return lambda g, env: sum(v for _, v in values(g, env))
        if func == "filter":
            return lambda g, env: tuple(p for p, v in values(g, env) if v)
        if func == "union":
            return lambda g, env: [c for _, cs in values(g, env) for c in cs]
        pick = max if func == "argmax" else min

        def best(g, env):
            pairs = list(values(g, env))
            if not pairs:
                return ()
            top = pick(v for _, v in pairs)
            return tuple(p for p, v in pairs if v == top)
        return best
