"""A play step's options, as generated code: one function per play step.

A play step offers each of its actions with each card type of the current player's hand
it plays, at each target, where the action's condition holds (C-3: cards of one type
are one option), plus `pass` at an optional step. Options come sorted by label, and
every label but a card target's is known in advance, so the function tests the
candidates in label order, unrolled: a card type's count in the hand, the target's
seat, the condition's own source inline. The options need no sorting and no card of
the hand is looked at unless a condition reads the card played.

    if tc[4]:                                   # steal: a thief in hand
        env = {'card': [...], 'target': None}
        if me != 0 and active[0]:
            env['target'] = 0
            if len(g._zones[(3 + 0)]) > 0: options.append(_c12)   # steal -> P1
"""

from __future__ import annotations

from contextlib import nullcontext
from itertools import groupby
from operator import itemgetter

from rulespec.lang import ir

from .choices import first_of_type
from .codegen import CodeWriter


def compile_offer(game, step, order: tuple):
    """The function (g, env) -> (options, where `pass` falls) of a play step; `order`
    lists its candidates in label order (Game._offer_order)."""
    x = game.exprs
    hand = game.hand
    w = CodeWriter("offer", step.ir.span)
    w.line("me = g._current", step.ir.span)
    if hand is not None:  # else no action plays a card (RS103)
        w.line(f"tc = g._tcount[{hand} + me]", step.ir.span)
    w.line("active = g._active", step.ir.span)
    w.line("options = []", step.ir.span)
    w.line("pass_at = 0", step.ir.span)
    first, span = x.constant(first_of_type), step.ir.span
    _hoist(w, x, [a for _, a, _, _ in order if a is not None], span)
    runs = groupby(order, key=lambda e: "plain" if _plain(e) else (e[1], e[2]))
    for kind, group in runs:
        group = list(group)
        if kind == "plain":  # each option there when its card type is in hand: in C
            types = tuple(t for _, _, t, _ in group)
            if len(types) == 1:
                w.line(f"if tc[{types[0]}]: options.append({x.constant(group[0][0])})", span)
            else:  # the counts of their types, read by one itemgetter call
                options = x.constant(tuple(option for option, *_ in group))
                w.line(
                    f"options += compress({options}, {x.constant(itemgetter(*types))}(tc))", span
                )
            continue
        a, t = kind
        if a is None:
            w.line("pass_at = len(options)", span)
            continue
        if a.ir.count is not None:  # a group of cards: its options, made as offered
            w.line(f"g._offer_groups({x.constant(a)}, options)", a.ir.span, a.ir.name)
            continue
        if t is not None:
            w.line(f"if tc[{t}]:", a.ir.span)
        with w.indented() if t is not None else nullcontext():
            _group(w, x, a, t, group, f"[{first}(g._zones[{hand} + me], g._ctype, {t})]")
    w.line("return options, pass_at", step.ir.span)
    x.hoisted = {}
    with x.within(step.ir.name):
        return x.compile(w)


def _hoist(w: CodeWriter, x, actions, span) -> None:
    """The parts of the actions' conditions that read neither the card played nor the
    target (the led suit in the hand, say), each worked out at most once an offer, the
    first time a candidate needs it: x.hoisted names each part's cached value, which
    the conditions' source reads instead."""
    x.hoisted = {}
    for a in dict.fromkeys(actions):
        if a.ir.condition is None:
            continue
        for node in _invariant_parts(a.ir.condition):
            name = f"_h{len(x.hoisted)}"
            with x.within(a.ir.name):
                value = x.source(node)
            x.hoisted[id(node)] = f"({name} if {name} is not _UNSET else ({name} := {value}))"
            w.line(f"{name} = _UNSET", node.span, a.ir.name)


def _invariant_parts(e):
    """The largest calls and aggregates of a condition that read neither `card` nor
    `target`, outside any aggregate (whose body reads bindings of its own)."""
    if isinstance(e, (ir.Call, ir.Aggregate, ir.ConditionCall)) and not _reads(
        e, ("card", "target")
    ):
        yield e
    elif not isinstance(e, ir.Aggregate):
        for child in ir.iter_children(e):
            yield from _invariant_parts(child)


def _reads(e, names) -> bool:
    return any(isinstance(n, ir.Local) and n.name in names for n in ir.walk(e))


def _plain(entry) -> bool:
    """An option there whenever its card type is in hand: no condition, no target."""
    option, a, t, p = entry
    return option is not None and t is not None and p is None and a.ir.condition is None


def _group(w: CodeWriter, x, a, t, group, card: str) -> None:
    """The options of action a played with a card of type t (None: no card): one a
    target, each where the target's seat is in and the condition holds, written with
    the target and the card's type as constants (the card itself, `card`, is looked
    for in the hand only if the condition still reads it)."""
    span = a.ir.span
    if group[0][0] is None:  # a card or zone target: its options name it, made as offered
        played = f"{card}[0]" if t is not None else "None"  # an action without a card
        offer = "_offer_zones" if a.ir.target == "zone" else "_offer_cards"
        w.line(f"g.{offer}({x.constant(a)}, {t}, {played}, options)", span, a.ir.name)
        return
    lines, reads = [], False
    typed = {"card": t} if t is not None else {}

    def test(e, **target) -> str:
        """A condition's source, the card's type (and the target, if any) constants."""
        nonlocal reads
        x.reads = set()
        with x.within(a.ir.name), x.binding(card_type=typed, **target):
            source = f"({x.source(e)})"
        reads = reads or "card" in x.reads
        return source

    if a.ir.without_target:  # none of the targets below: the card is played for nothing
        lines.append("before = len(options)")
    for option, _, _, p in group:
        tests = []
        if p is not None:
            tests.append(f"me != {p} and active[{p}]" if a.ir.target == "other" else f"active[{p}]")
        if a.ir.condition is not None:
            tests.append(test(a.ir.condition, target=p))
        append = f"options.append({x.constant(option)})"
        lines.append(f"if {' and '.join(tests)}: {append}" if tests else append)
    if a.ir.without_target:  # the parts of `if` that do not read the target still hold
        tests = ["len(options) == before"]
        tests += [test(e) for e in ir.conjuncts(a.ir.condition) if not _reads(e, ("target",))]
        untargeted = x.constant(x.defs.play_options[a.ir.name, t, None])
        lines.append(f"if {' and '.join(tests)}: options.append({untargeted})")
    if reads:
        w.line(f"env = {{'card': {card if t is not None else '[]'}}}", span, a.ir.name)
    # a failure while the condition is tested is placed at the `if:`, not the action
    tested = a.ir.condition.span if a.ir.condition is not None else span
    for line in lines:
        w.line(line, tested, a.ir.name)


def compile_check(game):
    """The function (g, env) -> the keys (as bits) of the first automatic rule, in spec
    order (C-4), that holds for a player (or at all) among the dirty keys, and did not
    fire since the state last changed (State._fire_first fires the first of them
    from the current player round the table). A dirty key found false is made clean; a
    player's key is not looked at while the player is out; the rules after the first
    that holds are not looked at. Each key's condition is written in, its player a
    constant."""
    x = game.exprs
    span = game.automatic[0].ir.span if game.automatic else game.spec.span
    w = CodeWriter("check", span)
    w.line("d = g._dirty", span)
    w.line("active, quiet, v = g._active, g._quiet, g._version", span)
    w.line("holds = 0", span)
    for i, t in enumerate(game.automatic):
        for p in range(game.n) if t.ir.each else (None,):
            key = game.keys[i, p]
            bit = 1 << key
            w.line(f"if d & {bit}{f' and active[{p}]' if p is not None else ''}:", t.ir.span)
            with w.indented():
                with x.within(t.ir.name), x.binding(**({t.ir.each: p} if t.ir.each else {})):
                    w.line(f"if {x.source(t.ir.when)}:", t.ir.when.span, t.ir.name)
                with w.indented():
                    w.line(f"if quiet[{key}] != v: holds |= {bit}", t.ir.span)
                w.line("else:", t.ir.span)
                with w.indented():
                    w.line(f"d ^= {bit}", t.ir.span)
        w.line("if holds:", t.ir.span)
        with w.indented():
            w.line("g._dirty = d", t.ir.span)
            w.line("return holds", t.ir.span)
    w.line("g._dirty = d", span)
    w.line("return 0", span)
    with x.within("checks"):
        return x.compile(w)
