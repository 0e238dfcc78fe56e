"""IR statements -> ops run by the game's frame stack.

An effect runs as a list of frames (code, pc, env); code is a tuple of ops. An op takes
(game, env) and may push frames (if, for, while, a chosen branch) or open a choice point
(game.ask) and return: the game loop stops there and resumes when the choice is applied.
The stack is plain data, so a game paused inside an effect can be copied.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulespec.lang import ir

from .choices import CHANCE, Option, first_of_each_type, make_option, seat_name
from .codegen import CodeWriter


class Frame:
    __slots__ = ("code", "pc", "env")

    def __init__(self, code, env):
        self.code, self.pc, self.env = code, 0, env


@dataclass(frozen=True)
class CompiledAction:
    ir: ir.Action
    card: frozenset | None
    condition: object  # None when the action has no `if`
    to: object
    effect: tuple
    among: object = None
    shows_type: bool = False  # labels name the card type: the action plays a tag or any


@dataclass(frozen=True)
class CompiledReaction:
    ir: ir.Reaction
    card: frozenset
    condition: object  # None when the reaction has no `if`
    to: object
    effect: tuple
    labels: dict  # card type -> the label of the option to react with it


@dataclass(frozen=True)
class CompiledStep:
    ir: ir.Step
    effect: tuple
    plays: tuple  # the compiled actions a play step offers
    by_type: dict  # card type -> the actions of `plays` that play it, in order
    cardless: tuple  # the actions of `plays` that play no card


@dataclass(frozen=True)
class CompiledTrigger:
    ir: ir.Trigger
    when: object
    effect: tuple


def _true(g, env):
    return True


MAX_PASSES = 100_000  # passes of `while` loops between two choice points, or in one turn
MAX_NESTING = 8       # nested `if` and `for` blocks in one generated op


class StatementCompiler:
    """Compiles effects to ops. Statements that cannot pause the game (lets, counters,
    moves, shuffles, `if` and `for` over such statements) become generated Python
    source; a run of them, plus at most one statement that can pause (a choice, a
    chance draw, a reaction window, a loop), is one op, so the game loop takes one
    step where it would take one per statement."""

    def __init__(self, rules):
        self.rules = rules
        self.x = rules.exprs

    # --- definitions ------------------------------------------------------------

    def action(self, a: ir.Action) -> CompiledAction:
        with self.x.within(a.name):
            return CompiledAction(a, self.rules.kinds[a.card] if a.card else None,
                                  self.x.expr(a.condition) if a.condition else None,
                                  self.x.expr(a.to) if a.to else None, self.block(a.effect),
                                  self.x.cards(a.among) if a.among else None,
                                  a.card is not None and a.card not in self.rules.type_names)

    def reaction(self, r: ir.Reaction) -> CompiledReaction:
        kind, names = self.rules.kinds[r.card], self.rules.type_names
        with self.x.within(r.name):
            return CompiledReaction(r, kind, self.x.expr(r.condition) if r.condition else None,
                                    self.x.expr(r.to), self.block(r.effect),
                                    {t: r.name if r.card == names[t] else f"{r.name} {names[t]}" for t in kind})

    def step(self, s: ir.Step, actions: dict) -> CompiledStep:
        plays = tuple(actions[a] for a in s.actions)
        by_type: dict = {}
        for a in plays:
            for t in sorted(a.card or ()):
                by_type.setdefault(t, []).append(a)
        with self.x.within(s.name):
            effect = self.block(s.effect)
        return CompiledStep(s, effect, plays, {t: tuple(a) for t, a in by_type.items()},
                            tuple(a for a in plays if a.card is None))

    def trigger(self, t: ir.Trigger) -> CompiledTrigger:
        with self.x.within(t.name):
            return CompiledTrigger(t, self.x.expr(t.when), self.block(t.effect))

    # --- blocks -------------------------------------------------------------------

    def block(self, stmts) -> tuple:
        """A block as a tuple of ops (game, env) -> None, run in order by a frame."""
        ops, w = [], None
        for s in stmts:
            w = w or CodeWriter("op", s.span)
            if not self._straight(s):
                w.line(f"{self.x.constant(self._pausing(s))}(g, env)", s.span)
                ops.append(self.x.compile(w))
                w = None
            elif self._write(w, s):
                break  # the effect ends here: nothing after it runs
        if w is not None:
            ops.append(self.x.compile(w))
        return tuple(ops)

    def _straight(self, s: ir.Stmt) -> bool:
        """True when s can never pause the game: it runs to its end at once."""
        if isinstance(s, ir.Let):
            return not _random_player_call(s.value)
        if isinstance(s, ir.Assign):
            return True
        if isinstance(s, (ir.If, ir.For)) and _nesting(s) > MAX_NESTING:
            return False  # frames of its own: Python allows 20 nested loops in a function
        if isinstance(s, ir.If):
            return all(map(self._straight, s.then + s.orelse))
        if isinstance(s, ir.For):
            return all(map(self._straight, s.body))
        if isinstance(s, ir.Do):
            return not (s.proc == "react" or s.proc == "move" and _random_call(s.args[0])
                        or s.proc == "set_current" and _random_player_call(s.args[0]))
        return False  # while, choose

    def _body(self, w: CodeWriter, stmts, depth: int, span: ir.Span) -> None:
        """Write an indented block: its statements up to one that ends the effect, or `pass`."""
        with w.indented():
            if not stmts:
                w.line("pass", span)
            for s in stmts:
                if self._write(w, s, depth):
                    break

    def _write(self, w: CodeWriter, s: ir.Stmt, depth: int = 0) -> bool:
        """Write the source of a statement that cannot pause, each line marked with the
        spec's place; True when nothing of the effect runs after it (win, end_game,
        end_turn end with a return)."""
        x = self.x
        if isinstance(s, ir.Let):
            w.line(f"{x.local(s.name)} = {x.source(s.value)}", s.span)
        elif isinstance(s, ir.Assign):
            local = isinstance(s.target, ir.Local)
            ref = x.local(s.target.name) if local else "g.counters[_slot]"
            new = x.source(s.value)
            if s.op != "=":
                new = f"{ref} {s.op[0]} ({new})"
            if local:
                w.line(f"{ref} = {new}", s.span)
            else:
                w.line(f"_slot = {x.slot(self.rules.counter_index[s.target.name], s.target.owner)}", s.span)
                w.line(f"g.set_counter(_slot, {new})", s.span)
        elif isinstance(s, ir.If):
            w.line(f"if {x.source(s.cond)}:", s.cond.span)
            self._body(w, s.then, depth, s.span)
            if s.orelse:
                w.line("else:", s.span)
                self._body(w, s.orelse, depth, s.span)
        elif isinstance(s, ir.For):
            var = f"_p{depth}"  # nested loops each have their own
            w.line(f"for {var} in {x.players_source(s.items)}:", s.items.span)
            with w.indented():
                w.line(f"{x.local(s.var)} = {var}", s.span)
            self._body(w, s.body, depth + 1, s.span)
        else:
            lines = getattr(self, "_do_" + s.proc)(*s.args)
            for line in lines:
                w.line(line, s.span)
            return lines[-1] == "return"
        return False

    # --- procedures that cannot pause: source lines -------------------------------

    def _do_move(self, cards: ir.Expr, dest: ir.Expr):
        if isinstance(cards, ir.Call) and cards.func == "top":  # a draw, refilling the pile
            zone, n = cards.args
            return [f"g.draw({self.x.source(zone)}, {self.x.source(dest)}, {self.x.source(n)})"]
        return [f"g.move_cards(list({self.x.cards_source(cards)}), {self.x.source(dest)})"]

    def _do_shuffle(self, zone):
        return [f"g.shuffle({self.x.source(zone)})"]

    def _do_win(self, players):
        return [f"g.finish(tuple(sorted({self.x.players_source(players)})), env['__rule__'])",
                "return"]

    def _do_end_game(self):
        return ["g.finish((), env['__rule__'])", "return"]

    def _do_eliminate(self, player):
        return [f"g.eliminate({self.x.source(player)})"]

    def _do_end_turn(self):
        return ["g.end_turn()", "return"]

    def _do_set_current(self, player):
        return [f"g.set_current({self.x.source(player)})"]

    def _do_reverse(self):
        return ["g.reverse()"]

    # --- statements that can pause: closures that push frames or ask ---------------

    def _pausing(self, s: ir.Stmt):
        if isinstance(s, ir.Do):
            return getattr(self, "_pause_" + s.proc)(*s.args)
        return getattr(self, "_pause_" + type(s).__name__)(s)

    def _pause_Let(self, s: ir.Let):  # let x = random_player(...)
        name = s.name
        return self._random_player(s.value.args[0], lambda g, env, o: env.__setitem__(name, o.value))

    def _pause_If(self, s: ir.If):
        cond, then, orelse = self.x.expr(s.cond), self.block(s.then), self.block(s.orelse)

        def if_(g, env):
            g.enter(then if cond(g, env) else orelse, env)
        return if_

    def _pause_For(self, s: ir.For):
        items, body, var = self.x.players(s.items), self.block(s.body), s.var

        def for_(g, env):
            for p in reversed(tuple(items(g, env))):
                g.stack.append(Frame((_binder(var, p),) + body, env))
        return for_

    def _pause_While(self, s: ir.While):
        cond, body = self.x.expr(s.cond), self.block(s.body)
        loop: tuple = ()

        def while_(g, env):
            g.passes += 1
            if g.passes > MAX_PASSES:
                g._log("error", message="a loop ran too long without a choice")
                g.finish((), "effect_loop")
            elif cond(g, env):
                g.stack.append(Frame(loop, env))
        loop = body + (while_,)
        return while_

    def _pause_ChooseBranch(self, s: ir.ChooseBranch):
        player = self.x.expr(s.player)
        branches = [(b.label, self.x.expr(b.cond) if b.cond else _true, self.block(b.body))
                    for b in s.branches]

        def choose_branch(g, env):
            options = [Option(label, code) for label, cond, code in branches if cond(g, env)]
            if options:
                g.ask(player(g, env), "choose", options, _enter_branch, env)
        return choose_branch

    def _pause_ChooseCard(self, s: ir.ChooseCard):
        player, source, body, var = self.x.expr(s.player), self.x.cards(s.source), self.block(s.body), s.var

        def choose_card(g, env):
            by_type = first_of_each_type(source(g, env), g.ctype)
            if not by_type:
                return
            options = [Option(g.rules.type_names[t], c) for t, c in by_type.items()]
            g.ask(player(g, env), "card", options, resume, env)

        def resume(g, env, option):
            env[var] = [option.value]
            g.enter(body, env)
        return choose_card

    def _pause_move(self, cards: ir.Expr, dest: ir.Expr):  # move(random(zone, n), dest)
        to = self.x.expr(dest)
        zone, n = self.x.expr(cards.args[0]), self.x.expr(cards.args[1])

        def move_random(g, env):
            src, dst = zone(g, env), to(g, env)
            count = min(n(g, env), len(g.zones[src]))
            if count > 0:
                g.enter((_random_card(src, dst),) * count, env)
        return move_random

    def _pause_react(self, player):
        who = self.x.expr(player)
        return lambda g, env: g.open_window(who(g, env), env)

    def _pause_set_current(self, player):  # set_current(random_player(...))
        return self._random_player(player.args[0], lambda g, env, o: g.set_current(o.value))

    def _random_player(self, players, then):
        ps = self.x.players(players)

        def random_player(g, env):
            options = [Option(seat_name(p), p) for p in ps(g, env)]
            if options:
                g.ask(CHANCE, "chance", options, then, env)
        return random_player


def _nesting(s: ir.Stmt) -> int:
    """How many `if` and `for` blocks s nests, itself included."""
    if isinstance(s, ir.If):
        return 1 + max(map(_nesting, s.then + s.orelse), default=0)
    if isinstance(s, ir.For):
        return 1 + max(map(_nesting, s.body), default=0)
    return 0


def _random_call(e: ir.Expr) -> bool:
    return isinstance(e, ir.Call) and e.func == "random"


def _random_player_call(e: ir.Expr) -> bool:
    return isinstance(e, ir.Call) and e.func == "random_player"


def _binder(var, value):
    def bind(g, env):
        env[var] = value
    return bind


def _enter_branch(g, env, option):
    g.enter(option.value, env)


def _random_card(src, dst):
    """One random card from src to dst: a chance node over the card types in src,
    weighted by how many of each it holds (the first card of each type stands for it)."""
    def random_card(g, env):
        if not g.zones[src]:
            return
        first = first_of_each_type(g.zones[src], g.ctype)
        counts, names = g.tcount[src], g.rules.type_names
        g.ask(CHANCE, "chance", [make_option((names[t], c, counts[t])) for t, c in first.items()],
              take, env)

    def take(g, env, option):
        g.move_card(option.value, dst)
    return random_card


