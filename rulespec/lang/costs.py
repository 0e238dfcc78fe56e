"""The cost of evaluating an expression, bounded when a spec loads (RS413).

A `while` is bounded as the game runs, but nothing stops one evaluation of a condition
or value once it has begun: 30 aggregates over players nested in an end condition
validated, then ran for 2^30 passes. So each expression's cost is worked out from the
IR alone, in steps, at the most players and the largest deck:

- an operator, a name, a constant or a call is a step, and a call that gives cards is as
  many steps as the deck has cards (it may build a set of every one);
- an aggregate works out its items once, then takes a step and its body (and filter)
  for each item: one for a player, `players.max` for players, the deck for cards, the
  deck's card types for kinds (for `values("prop")`, the values the cards give it), n
  for `range(n)` with n written out (b - a for `range(a, b)`; else MAX_RANGE), n for
  `first(h, n)` or `top(z, n)` with n written out,
  for sets of cards as many as `combinations` can make of cards whose number is known
  (`first(h, 7)`: 21 sets of 5), else MAX_COMBINATIONS, and k for the cards of one set of
  `combinations(cards, k)` (or `combinations(cards, j, k)`) with k written out, or n - 1
  with k the variable of an aggregate over `range(n)` or `range(a, n)` (else the deck);
- a call of a named condition costs its arguments and its body, where a `cards`
  parameter is as many cards as its argument can hold: one set of
  `combinations(cards, k)`, `top`, `first` or `nth`'s cards, one card (`chosen`, an
  aggregate's card), cards put together of those, else the deck; a body alone is costed
  with each `cards` parameter as many cards as the most any call passes it (the deck
  where one passes more, or none calls it);
- `unmelded(cards, "meld", ...)` tests every group of at most MAX_MELD_CARDS cards:
  for each size k, as many groups as there are sets of k cards, each costing the meld
  condition's body with k cards.

So the cost of nested aggregates is the product of their items' sizes, and a chain of
conditions each calling the next twice doubles at each link. An expression over
MAX_EVALUATION steps is refused at its outermost aggregate or call over the bound.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from math import comb

from . import ir
from .diagnostics import Diagnostic
from .expressions import as_written
from .limits import MAX_CARDS, MAX_EVALUATION


def check(spec: ir.Spec, conditions: list[ir.Condition] | None) -> Iterator[Diagnostic]:
    """RS413 for each expression of the spec over MAX_EVALUATION steps. `conditions`
    are the named conditions callees first, or None when their calls go round in a
    circle (RS210): calls then cost their arguments alone."""
    counts = spec.player_counts  # none when min > max (RS401)
    deck = min(  # a larger deck is refused already (RS407)
        MAX_CARDS, max((sum(k for _, k in spec.deck_for(n)) for n in counts), default=0)
    )
    values: dict[str, set] = {}
    for c in spec.cards:
        for name, value in c.props:
            values.setdefault(name, set()).add(value)
    costs = _Costs(spec.max_players, deck, len(spec.cards), {k: len(v) for k, v in values.items()})
    costs.families.update((z.name, z.count) for z in spec.zones if z.count is not None)
    for c in conditions or ():
        costs.conditions[c.name] = c
        costs.called[c.name] = costs.of(c.when)
        if [t for _, t in c.params] == ["cards"]:  # a test unmelded() may call on groups
            n = ir.MAX_MELD_CARDS
            costs.melds[c.name] = sum(
                comb(n, k) * costs.body(c.name, (k,)) for k in range(1, n + 1)
            )
    parts = (
        spec.setup,
        spec.turn,
        spec.actions,
        spec.reactions,
        spec.end_conditions,
        spec.triggers,
        spec.rounds,
        spec.counters,
        spec.goals,
        spec.evaluation,
        spec.payoff and spec.payoff.value,
        spec.turn_order,
        spec.procedures,
        spec.conditions,
    )
    roots = list(_expressions(parts))
    costs.passed.clear()  # what the bodies costed above pass, at any size, tells nothing
    bodies = {id(c.when) for c in conditions or ()}
    for root in roots:  # every call outside the conditions' bodies
        if id(root) not in bodies:
            costs.of(root)
    judged = {}  # a condition's body -> the costs it is judged by alone, at its calls' sizes
    for c in reversed(conditions or ()):  # callers first: each call of it is known by then
        judged[id(c.when)] = costs.alone(c.name)
    for root in roots:
        by = judged.get(id(root), costs)
        if by.of(root) > MAX_EVALUATION:
            blamed = by.blame(root)
            if blamed is not None:
                yield _too_costly(blamed, by.of(blamed), spec.max_players, deck, costs)


def _expressions(node) -> Iterator[ir.Expr]:
    """The outermost expressions in node: conditions, values, statements' arguments."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ir.Expr):
            yield n
        elif n is not None:
            stack.extend(reversed(list(ir.iter_children(n))))


class _Costs:
    def __init__(self, players: int, deck: int, types: int = 0, values: dict | None = None):
        # cards and zones: the deck
        self.sizes = {
            "player": 1,
            "players": players,
            "kinds": types,
            "ints": ir.MAX_RANGE,
            "cardsets": ir.MAX_COMBINATIONS,
        }
        self.deck = deck
        self.values = values or {}  # a card property -> how many values its cards give it
        self.one_set: dict[str, int] = {}  # an aggregate's variable bound to a set of k cards
        self.below: dict[str, int] = {}  # an aggregate's variable bound to a number below n
        self.called: dict[str, int] = {}  # a named condition -> its body's cost
        self.conditions: dict[str, ir.Condition] = {}  # by name, once costed
        self.sized: dict[tuple, int] = {}  # (condition, its cards parameters' sizes) -> cost
        self.melds: dict[str, int] = {}  # a condition -> its cost on every group of unmelded()
        self.known: dict[int, int] = {}  # id of a node -> its cost
        self.families: dict[str, int] = {}  # a family of zones -> how many zones it has
        # a condition -> the sizes of its parameters (as body() takes them) at each call
        self.passed: dict[str, set[tuple]] = {}

    def of(self, node: ir.Expr) -> int:
        if id(node) not in self.known:
            self.known[id(node)] = self._work_out(node)
        return self.known[id(node)]

    def _work_out(self, node: ir.Expr) -> int:
        if isinstance(node, ir.Aggregate):
            items, saved = self.of(node.items), (dict(self.one_set), dict(self.below))
            if node.items.type == "cardsets":
                self.one_set[node.var] = self._set_size(node.items)
            elif node.over_cards:  # a card, a set of one
                self.one_set[node.var] = 1
            elif node.items.type == "ints":
                self.below[node.var] = self._past(node.items)
            try:
                each = 1 + self.of(node.body) + (self.of(node.where) if node.where else 0)
            finally:
                self.one_set, self.below = saved
            return items + self._size(node.items) * each
        if isinstance(node, ir.Call) and node.func == "unmelded":
            cards, test, _ = node.args
            groups = min(ir.MAX_MELD_CARDS, self.deck)  # the most cards one group holds
            self.passed.setdefault(test.name, set()).add((groups,))
            return self.of(cards) + (1 << ir.MAX_MELD_CARDS) + self.melds.get(test.name, 0)
        inside = sum(self.of(c) for c in ir.iter_children(node))
        if isinstance(node, ir.ConditionCall):
            sizes = tuple(self._cards_held(a) for a in node.args)
            self.passed.setdefault(node.name, set()).add(sizes)
            return 1 + inside + self.body(node.name, sizes)
        if isinstance(node, ir.Call) and node.func == "summing":  # its search, bounded
            return inside + ir.MAX_SUM_STEPS
        if isinstance(node, ir.Call) and node.func == "combinations":
            return inside + self._sets(node)
        if isinstance(node, ir.Call) and node.type in ("cards", "cardsets"):
            return inside + self.sizes.get(node.type, self.deck)
        return inside + 1

    def _sets(self, call: ir.Call) -> int:
        """How many sets combinations(cards, k) (or of k to m cards) gives at most: of a
        set whose size is known (first(h, 7): 21 sets of 5), as many as it can make; else
        the bound. A size not written out is the one making the most sets; a range's
        bound not written out leaves the range open at that end."""
        held, k = self._cards_held(call.args[0]), _written(call.args[1])
        if held is None:
            return ir.MAX_COMBINATIONS
        if len(call.args) == 2:
            most = comb(held, held // 2) if k is None else comb(held, k) if k >= 0 else 0
        else:
            m = _written(call.args[2])
            low, high = 0 if k is None else max(k, 0), held if m is None else min(m, held)
            most = sum(comb(held, size) for size in range(low, high + 1))
        return min(most, ir.MAX_COMBINATIONS)

    def body(self, name: str, sizes: tuple) -> int:
        """A named condition's body, each `cards` parameter as many cards as `sizes` says
        (None: the deck); 0 for a condition not costed (its calls go round, RS210)."""
        if name not in self.conditions:
            return 0
        if all(s is None for s in sizes):
            return self.called[name]
        if (name, sizes) not in self.sized:
            self.sized[name, sizes] = self._at(name, sizes).of(self.conditions[name].when)
        return self.sized[name, sizes]

    def alone(self, name: str) -> _Costs:
        """The costs a named condition's body is judged by on its own: each `cards`
        parameter as many cards as the most any call passes it (the deck where one may
        pass more, or none calls it). Its body is worked out here, so that the calls in
        it are known before its callees are judged."""
        calls = self.passed.get(name) or {(None,) * len(self.conditions[name].params)}
        widest = tuple(None if None in held else max(held) for held in zip(*calls))
        inner = self._at(name, widest)
        inner.of(self.conditions[name].when)
        return inner

    def _at(self, name: str, sizes: tuple) -> _Costs:
        """A copy costing the named condition's body with its parameters so sized."""
        inner = copy.copy(self)  # what is known of the conditions, shared; its own nodes
        params = self.conditions[name].params
        inner.one_set = {p: s for (p, _), s in zip(params, sizes) if s is not None}
        inner.below, inner.known = {}, {}
        return inner

    def _cards_held(self, arg: ir.Expr) -> int | None:
        """How many cards an argument can hold at most, when fewer than the deck is known:
        one set of combinations(), top(zone, n), first(cards, n) or nth(cards, i), one
        card (chosen, an aggregate's card), a parameter as its calls size it, and cards
        put together (a + b) or left out (without(a, b)) of those."""
        if arg.type != "cards":
            return None
        if isinstance(arg, ir.Local) and arg.name in self.one_set:
            return self.one_set[arg.name]
        if isinstance(arg, ir.Local) and arg.name == "chosen":  # target: card picks one
            return 1
        if isinstance(arg, ir.Call) and arg.func in ("top", "first"):
            n = _written(arg.args[1])
            return None if n is None else max(0, min(n, self.deck))
        if isinstance(arg, ir.Call) and arg.func == "nth":
            return 1
        if isinstance(arg, ir.Binary):  # cards put together: as many as both hold
            left, right = self._cards_held(arg.left), self._cards_held(arg.right)
            return None if left is None or right is None else min(left + right, self.deck)
        if isinstance(arg, ir.Call) and arg.func == "without":  # no more than it takes from
            return self._cards_held(arg.args[0])
        return None

    def _size(self, items: ir.Expr) -> int:
        """How many items an aggregate goes through, at most."""
        if isinstance(items, ir.Zones):  # a family's zones (of one owner)
            return self.families[items.name]
        if isinstance(items, ir.Call) and items.func == "range":
            bounds = [_written(a) for a in items.args]
            if None in bounds:
                return ir.MAX_RANGE
            n = bounds[0] if len(bounds) == 1 else bounds[1] - bounds[0]
            return max(0, min(n, ir.MAX_RANGE))
        if isinstance(items, ir.Call) and items.func == "combinations":
            return self._sets(items)
        if isinstance(items, ir.Binary) and items.type == "cardsets":  # sets added up
            return self._size(items.left) + self._size(items.right)
        if isinstance(items, ir.Call) and items.func == "values":  # a property's values
            name = items.args[0].value if isinstance(items.args[0], ir.Const) else None
            return self.values.get(name, self.sizes.get(items.type, self.deck))
        held = self._cards_held(items)  # first(h, 3), top(z, 2), one set of combinations
        return self.sizes.get(items.type, self.deck) if held is None else held

    def _past(self, items: ir.Expr) -> int:
        """A number above every one of these numbers: b for `range(a, b)` with b written
        out, else as many as there are (`range(n)` gives 0 to n - 1)."""
        if isinstance(items, ir.Call) and items.func == "range" and len(items.args) == 2:
            b = _written(items.args[1])
            return ir.MAX_RANGE if b is None else b
        return self._size(items)

    def _set_size(self, items: ir.Expr) -> int:
        """How many cards one of the sets of cards holds, at most: of combinations(), its
        (largest) size."""
        if isinstance(items, ir.Call) and items.func == "combinations":
            k, size = items.args[-1], _written(items.args[-1])
            if size is None and isinstance(k, ir.Local) and k.name in self.below:
                size = self.below[k.name] - 1  # k of range(n): at most n - 1
            return self.deck if size is None else max(0, min(size, self.deck))
        return self.deck

    def blame(self, node: ir.Expr) -> ir.Expr | None:
        """Where an expression over the bound is reported: its outermost aggregate or
        call over it, or itself when its parts are each within it; None when the cost
        is a condition's, reported at its own body (judged alone at these sizes or more)."""
        if isinstance(node, ir.ConditionCall):
            inside = sum(self.of(c) for c in ir.iter_children(node))
            if self.of(node) - 1 - inside > MAX_EVALUATION:  # its body, at its arguments
                return None
        melds = (n for n in ir.walk(node) if isinstance(n, ir.Call) and n.func == "unmelded")
        over = next((n for n in melds if self.of(n) > MAX_EVALUATION), None)
        if over is not None:  # its meld condition, judged on every group, is the cost
            return over
        if isinstance(node, (ir.Aggregate, ir.ConditionCall)):
            return node
        over = [c for c in ir.iter_children(node) if self.of(c) > MAX_EVALUATION]
        return self.blame(over[0]) if over else node


def _too_costly(node: ir.Expr, cost: int, players: int, deck: int, costs: _Costs) -> Diagnostic:
    melds = isinstance(node, ir.Call) and node.func == "unmelded"
    hint = (
        "test a group in one pass over its cards (all, count, max, min), not a pass inside a pass"
    )
    condition = costs.conditions.get(node.args[1].name) if melds else None
    if zones := _unbounded_zones(condition.when) if condition else []:
        hint = (  # a zone the test reads besides the group counts as the whole deck
            f"'{condition.name}' reads {', '.join(map(repr, zones))} besides the group, "
            f"counted as it may hold the whole deck ({deck} cards) for every group: where "
            f"it holds fewer, say so with first({zones[0]}, N); else {hint}"
        )
    what = (
        f"calling '{node.name}' here"
        if isinstance(node, ir.ConditionCall)
        else f"unmelded() judges every group of up to {ir.MAX_MELD_CARDS} cards with "
        f"'{node.args[1].name}': it"
        if melds
        else "this aggregate"
        if isinstance(node, ir.Aggregate)
        else "this expression"
    )
    ranges = [] if melds else _unwritten_ranges(node, costs.conditions)
    if ranges:
        first, more = ranges[0], len(ranges) - 1
        hint = (  # 64 numbers each, where a range written out would count its own: one
            # part of the cost, perhaps not the most of it (a review's)
            "nest fewer aggregates or condition calls, or work out a part first with let; "
            f"range({', '.join(map(_shown, first.args))}) at {_place(first.span, node.span)}"
            f"{f' (and {more} more)' if more else ''} is counted as {ir.MAX_RANGE} numbers, "
            "its bounds not being numbers written out: where that is the cost, write "
            "numbers and skip the rest with a test, for b in range(1, 8) if b >= a"
        )
    elif not melds:
        hint = (  # sorted: first() of cards in the order they came is lint's RL124
            "nest fewer aggregates or condition calls, work out a part first with let, or "
            "bound the cards gone through, sorted so that which are kept is no accident "
            "(combinations(first(sort(c.rank for c in h), 7), 5): 21 sets, not 1,024)"
        )
    shown = f"{cost:,}" if cost < 10**12 else f"about 10^{len(str(cost)) - 1}"
    return Diagnostic(
        "RS413",
        f"{what} may take {shown} steps to evaluate at {players} players and {deck} cards; "
        f"at most {MAX_EVALUATION:,}",
        node.span,
        hint=hint,
    )


def _unwritten_ranges(e: ir.Expr, conditions: dict[str, ir.Condition]) -> list[ir.Call]:
    """The ranges an aggregate goes over, in an expression and the bodies of the named
    conditions it calls, whose bounds are not all numbers written out: each is counted
    as MAX_RANGE numbers, however few it gives."""
    out, todo, seen = [], [e], set()
    while todo:
        for n in ir.walk(todo.pop(0)):
            if isinstance(n, ir.ConditionCall) and n.name in conditions and n.name not in seen:
                seen.add(n.name)
                todo.append(conditions[n.name].when)
            items = n.items if isinstance(n, ir.Aggregate) else None
            if (
                isinstance(items, ir.Call)
                and items.func == "range"
                and None in map(_written, items.args)
            ):
                out.append(items)
    return out


def _shown(e: ir.Expr) -> str:
    """A range's bound as written, for a message: a number, a name, a sum of those, or
    a call without its arguments."""
    if isinstance(e, ir.Const):
        return str(e.value)
    if isinstance(e, (ir.Local, ir.Param)):
        return e.name
    if isinstance(e, ir.Counter):  # a counter, written with its owner or index if any
        return e.name + ("(…)" if e.owner is not None or e.index is not None else "")
    if isinstance(e, ir.Binary):
        return f"{_shown(e.left)} {e.op} {_shown(e.right)}"
    return f"{e.func}(…)" if isinstance(e, ir.Call) else "…"


def _place(span, here) -> str:
    """line:col, with the file where it is not the one the diagnostic is in."""
    return f"{span.line}:{span.col}" if span.file == here.file else str(span)


def _unbounded_zones(e: ir.Expr) -> list[str]:
    """The zones an expression reads whole, not through top(zone, n) or first(zone, n),
    as written: `melds(p)` for one of a seat's zones, `row(i)` of a family."""
    nodes = list(ir.walk(e))
    bounded = {
        id(n.args[0]) for n in nodes if isinstance(n, ir.Call) and n.func in ("top", "first")
    }
    zones = (n for n in nodes if isinstance(n, ir.ZoneRef) and id(n) not in bounded)
    return sorted({as_written(z.name, z.owner is not None, z.index is not None) for z in zones})


def _written(e: ir.Expr) -> int | None:
    """The value of a number written out in the spec, else None."""
    return e.value if isinstance(e, ir.Const) and e.type == "int" else None


def group_count(held: list, low: int, high: int) -> int:
    """How many groups of low to high cards the (type, copies) pairs `held` make (the
    runtime's choices.groups: never the empty one), worked out without making them."""
    ways = [1]  # ways[s]: the multisets of s cards of the types so far
    for _, copies in held:
        ways = [
            sum(ways[s - k] for k in range(min(copies, s) + 1) if s - k < len(ways))
            for s in range(len(ways) + copies)
        ]
    return sum(ways[max(low, 1) : high + 1])
