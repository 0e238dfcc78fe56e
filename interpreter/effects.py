"""IR statements -> closures run by the game's frame stack.

An effect runs as a list of frames (code, pc, env). A statement closure takes
(game, env) and may push frames (if, for, while, a chosen branch) or open a choice point
(game.ask) and return: the game loop stops there and resumes when the choice is applied.
The stack is plain data, so a game paused inside an effect can be copied.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulespec import ir

from .choices import CHANCE, Option, seat_name


class Frame:
    __slots__ = ("code", "pc", "env")

    def __init__(self, code, env):
        self.code, self.pc, self.env = code, 0, env


@dataclass(frozen=True)
class CompiledAction:
    ir: ir.Action
    card: frozenset | None
    condition: object
    to: object
    effect: tuple
    among: object = None
    shows_type: bool = False  # labels name the card type: the action plays a tag or any


@dataclass(frozen=True)
class CompiledReaction:
    ir: ir.Reaction
    card: frozenset
    condition: object
    to: object
    effect: tuple


@dataclass(frozen=True)
class CompiledStep:
    ir: ir.Step
    effect: tuple
    plays: tuple  # the compiled actions a play step offers


@dataclass(frozen=True)
class CompiledTrigger:
    ir: ir.Trigger
    when: object
    effect: tuple


def _true(g, env):
    return True


class StatementCompiler:
    def __init__(self, rules):
        self.rules = rules
        self.x = rules.exprs

    # --- definitions ------------------------------------------------------------

    def block(self, stmts) -> tuple:
        return tuple(self.stmt(s) for s in stmts)

    def action(self, a: ir.Action) -> CompiledAction:
        return CompiledAction(a, self.rules.kinds[a.card] if a.card else None,
                              self.x.expr(a.condition) if a.condition else _true,
                              self.x.expr(a.to) if a.to else None, self.block(a.effect),
                              self.x.cards(a.among) if a.among else None,
                              a.card is not None and a.card not in self.rules.type_names)

    def reaction(self, r: ir.Reaction) -> CompiledReaction:
        return CompiledReaction(r, self.rules.kinds[r.card],
                                self.x.expr(r.condition) if r.condition else _true,
                                self.x.expr(r.to), self.block(r.effect))

    def step(self, s: ir.Step, actions: dict) -> CompiledStep:
        return CompiledStep(s, self.block(s.effect), tuple(actions[a] for a in s.actions))

    def trigger(self, t: ir.Trigger) -> CompiledTrigger:
        return CompiledTrigger(t, self.x.expr(t.when), self.block(t.effect))

    # --- statements ---------------------------------------------------------------

    def stmt(self, s: ir.Stmt):
        return getattr(self, "_" + type(s).__name__)(s)

    def _Let(self, s: ir.Let):
        name = s.name
        if isinstance(s.value, ir.Call) and s.value.func == "random_player":
            return self._random_player(s.value.args[0], lambda g, env, o: env.__setitem__(name, o.value))
        value = self.x.expr(s.value)

        def let(g, env):
            env[name] = value(g, env)
        return let

    def _Assign(self, s: ir.Assign):
        value = self.x.expr(s.value)
        op = s.op
        if isinstance(s.target, ir.Local):
            name = s.target.name

            def assign_local(g, env):
                v = value(g, env)
                env[name] = v if op == "=" else env[name] + v if op == "+=" else env[name] - v
            return assign_local
        base = self.rules.counter_index[s.target.name]
        owner = self.x.expr(s.target.owner) if s.target.owner is not None else None

        def assign_counter(g, env):
            slot = base + owner(g, env) if owner else base
            v, old = value(g, env), g.counters[slot]
            g.set_counter(slot, v if op == "=" else old + v if op == "+=" else old - v)
        return assign_counter

    def _If(self, s: ir.If):
        cond, then, orelse = self.x.expr(s.cond), self.block(s.then), self.block(s.orelse)

        def if_(g, env):
            code = then if cond(g, env) else orelse
            if code:
                g.stack.append(Frame(code, env))
        return if_

    def _For(self, s: ir.For):
        items, body, var = self.x.players(s.items), self.block(s.body), s.var

        def for_(g, env):
            for p in reversed(tuple(items(g, env))):
                g.stack.append(Frame((_binder(var, p),) + body, env))
        return for_

    def _While(self, s: ir.While):
        cond, body = self.x.expr(s.cond), self.block(s.body)
        loop: tuple = ()

        def while_(g, env):
            if cond(g, env):
                g.stack.append(Frame(loop, env))
        loop = body + (while_,)
        return while_

    def _ChooseBranch(self, s: ir.ChooseBranch):
        player = self.x.expr(s.player)
        branches = [(b.label, self.x.expr(b.cond) if b.cond else _true, self.block(b.body))
                    for b in s.branches]

        def choose_branch(g, env):
            options = [Option(label, code) for label, cond, code in branches if cond(g, env)]
            if options:
                g.ask(player(g, env), "choose", options, _push_branch, env)
        return choose_branch

    def _ChooseCard(self, s: ir.ChooseCard):
        player, source, body, var = self.x.expr(s.player), self.x.cards(s.source), self.block(s.body), s.var

        def choose_card(g, env):
            by_type = {}
            for c in source(g, env):
                by_type.setdefault(g.ctype[c], c)
            if not by_type:
                return
            options = [Option(g.rules.type_names[t], c) for t, c in by_type.items()]
            g.ask(player(g, env), "card", options, resume, env)

        def resume(g, env, option):
            env[var] = [option.value]
            g.stack.append(Frame(body, env))
        return choose_card

    def _Do(self, s: ir.Do):
        return getattr(self, "_do_" + s.proc)(*s.args)

    # --- procedures ---------------------------------------------------------------

    def _do_move(self, cards: ir.Expr, dest: ir.Expr):
        to = self.x.expr(dest)
        if isinstance(cards, ir.Call) and cards.func == "random":
            zone, n = self.x.expr(cards.args[0]), self.x.expr(cards.args[1])

            def move_random(g, env):
                src, dst = zone(g, env), to(g, env)
                count = min(n(g, env), len(g.zones[src]))
                if count > 0:
                    g.stack.append(Frame((_random_card(src, dst),) * count, env))
            return move_random
        if isinstance(cards, ir.Call) and cards.func == "top":
            zone, n = self.x.expr(cards.args[0]), self.x.expr(cards.args[1])

            def move_top(g, env):
                src, dst = zone(g, env), to(g, env)
                for _ in range(n(g, env)):
                    if not g.draw_top(src, dst):
                        break
            return move_top
        source = self.x.cards(cards)

        def move(g, env):
            g.move_cards(list(source(g, env)), to(g, env))
        return move

    def _do_shuffle(self, zone):
        z = self.x.expr(zone)
        return lambda g, env: g.shuffle(z(g, env))

    def _do_react(self, player):
        who = self.x.expr(player)
        return lambda g, env: g.open_window(who(g, env), env)

    def _do_win(self, players):
        ps = self.x.players(players)
        return lambda g, env: g.finish(tuple(sorted(ps(g, env))), env["__rule__"])

    def _do_end_game(self):
        return lambda g, env: g.finish((), env["__rule__"])

    def _do_eliminate(self, player):
        p = self.x.expr(player)
        return lambda g, env: g.eliminate(p(g, env))

    def _do_end_turn(self):
        return lambda g, env: g.end_turn()

    def _do_set_current(self, player):
        if isinstance(player, ir.Call) and player.func == "random_player":
            return self._random_player(player.args[0], lambda g, env, o: g.set_current(o.value))
        p = self.x.expr(player)
        return lambda g, env: g.set_current(p(g, env))

    def _do_reverse(self):
        return lambda g, env: g.reverse()

    def _random_player(self, players, then):
        ps = self.x.players(players)

        def random_player(g, env):
            options = [Option(seat_name(p), p) for p in ps(g, env)]
            if options:
                g.ask(CHANCE, "chance", options, then, env)
        return random_player


def _binder(var, value):
    def bind(g, env):
        env[var] = value
    return bind


def _push_branch(g, env, option):
    if option.value:
        g.stack.append(Frame(option.value, env))


def _random_card(src, dst):
    """One random card from src to dst: a chance node over the card types in src,
    weighted by how many of each it holds."""
    def random_card(g, env):
        cards = g.zones[src]
        if not cards:
            return
        counts: dict[int, list] = {}
        for c in cards:
            counts.setdefault(g.ctype[c], []).append(c)
        options = [Option(g.rules.type_names[t], cs[0], len(cs)) for t, cs in counts.items()]
        g.ask(CHANCE, "chance", options, lambda g, env, o: g.move_cards([o.value], dst), env)
    return random_card
