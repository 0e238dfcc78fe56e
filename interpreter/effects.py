"""IR statements -> ops run by the game's frame stack.

An effect runs as a list of frames (code, pc, env); code is a tuple of ops. An op takes
(game, env) and may push frames (if, for, while, a chosen branch) or open a choice point
(game.ask) and return: the game loop stops there and resumes when the choice is applied.
The stack is plain data, so a game paused inside an effect can be copied.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import reduce

from rulespec.lang import ir

from .choices import (
    CHANCE,
    Apart,
    Branch,
    Order,
    Outcome,
    PickCard,
    PickCards,
    PickPlayer,
    PickUnseen,
    PickValue,
    React,
    Together,
    card_picks,
    first_of_type,
    seat_name,
)
from .codegen import CodeWriter
from .rng import shuffle
from .runtime import _sets_added, distinct_sets
from .table import RuleLimit


class Frame:
    __slots__ = ("code", "env", "pc")

    def __init__(self, code, env):
        self.code, self.pc, self.env = code, 0, env


@dataclass(frozen=True)
class CompiledAction:
    ir: ir.Action
    card: frozenset | None
    condition: object  # None when the action has no `if`
    to: object
    effect: tuple
    among: object = None  # (g, env) -> the cards (target: card) or zones (target: zone)
    shows_type: bool = False  # labels name the card type: the action plays a tag or any
    in_view: bool = False  # its card goes to a shared public zone: every seat sees it played
    # `among` can give cards of one zone only, so where a picked card lies is the rules'
    # to tell (a `play` event's `chosen_from`), not a secret of the chooser's cards
    one_zone: bool = False
    # an action with `count` whose condition begins with parts that do not read the group
    # (`card`): (those parts, tested once for each target before any group is made; the
    # rest, tested on each group, or None); None: no such part
    precondition: tuple | None = None
    # an action with `count` and `same`: each card type's value of that property, which
    # every card of a group shares; None: any cards make a group
    same: tuple | None = None


@dataclass(frozen=True)
class CompiledReaction:
    ir: ir.Reaction
    card: frozenset  # empty for an answer without a card
    condition: object  # None when the reaction has no `if`
    to: object  # None for an answer without a card
    effect: tuple
    options: dict  # card type (None without a card) -> the option to react with it
    chained: bool  # it answers an answer: binds `actor`, and gives `reactor` back when done
    in_view: bool = False  # its card goes to a shared public zone: every seat sees it played


@dataclass(frozen=True)
class CompiledStep:
    ir: ir.Step
    effect: tuple
    plays: tuple  # the compiled actions a play step offers
    by_type: dict  # card type -> the actions of `plays` that play it, in order
    cardless: tuple  # the actions of `plays` that play no card
    around: str | None = None  # offered round the table until the players pass (ir.Step)
    again_if: object = None  # compiled ir.Step.again_if: offered again after a play while true
    again: bool = False  # a play offers the step again (repeat, or again_if while it holds)
    pass_if: object = None  # compiled ir.Step.pass_if: pass is offered only while true
    asker: str = ""  # what asks its decisions: turn.NAME (a rule may share the step's name)
    fallback: bool = False  # some action of it is offered only when no other one is
    when: object = None  # compiled ir.Step.when: the step runs only while true as it begins
    pass_effect: tuple = ()  # compiled ir.Step.pass_effect: run as the player asked passes

    def may_pass(self, g) -> bool:
        """Whether the player asked may pass, where the step offers a pass at all."""
        return self.pass_if is None or self.pass_if(g, {})


@dataclass(frozen=True)
class CompiledTrigger:
    ir: ir.Trigger
    when: object
    effect: tuple


def _true(g, env):
    return True


def _reads_card(e: ir.Expr) -> bool:
    return any(isinstance(n, ir.Local) and n.name == "card" for n in ir.walk(e))


ANSWERING = "__answering__"  # env: the (reactor, answer, actor) of the answers a chain interrupted
ANSWERED = "__answered__"  # a procedure's locals: the action or answer its windows answer


def _give_back(g, env):
    """The end of an answer to an answer: the answered reaction's names come back."""
    *outer, last = env[ANSWERING]
    env[ANSWERING] = tuple(outer)
    env["reactor"], answer, env["actor"] = last
    env["answer"] = None if answer is None else list(answer)


MAX_PASSES = 100_000  # passes of `while` loops in one turn
MAX_CALLS = 10_000  # procedure calls in one turn: a recursion's frames stay few
CALLER = "__rule__"  # in a procedure's locals: the rule that called it, no name a spec can take
MAX_NESTING = 8  # nested `if` and `for` blocks in one generated op
MAX_NUMBERS = 1000  # options of one `choose … from lo..hi`
MADE_RANGES = 64  # ranges of numbers whose options one `choose … from lo..hi` keeps made


def _bind_value(var: str, body):
    """The resume of a choice of a value: the value bound to var, then the body."""

    def resume(g, point, option):
        point.env[var] = option.value
        g.enter(body, point.env)

    return resume


class StatementCompiler:
    """Compiles effects to ops. Statements that cannot pause the game (lets, counters,
    moves, shuffles, `if` and `for` over such statements) become generated Python
    source; a run of them, plus at most one statement that can pause (a choice, a
    chance draw, a reaction window, a loop), is one op, so the game loop takes one
    step where it would take one per statement."""

    def __init__(self, rules):
        self.rules = rules
        self.x = rules.exprs
        self.played = ""  # the action being compiled: `react` opens a window on it
        self.in_sight = ()  # the local of its card, when every seat sees the card played
        self.called = False  # compiling a procedure's body: it ends the game as its caller
        self.held = _held_locals(rules.spec)  # the locals each rule's statements bind
        self.block_ids: dict[int, int] = {}  # id(code) -> a stable number, for State.key()
        self.procedures: dict[str, tuple] = {}  # name -> its body's ops, once compiled
        # chance outcomes of `random_player`, one per seat
        self.seat_outcomes = [Outcome(seat_name(p), seat=p) for p in range(rules.n)]

    # --- definitions ------------------------------------------------------------

    def _compiling(self, name: str = "", in_sight: tuple = (), called: bool = False) -> None:
        """What rule is being compiled: its name, when an action or reaction (`react` opens
        a window on it), and the local its card is bound to (`card`, `answer`) when every
        seat sees the card played, so a choice among cards that reads it (`summing(table,
        "rank", card.rank)`) may still be public; `called`: a procedure's body, which
        ends the game under its caller's name."""
        self.played, self.in_sight, self.called = name, in_sight, called

    def procedure(self, p: ir.Procedure) -> None:
        """A procedure's body, compiled once; its calls look it up as they run, so
        procedures may call each other (and themselves) in any order."""
        self._compiling(called=True)
        with self.x.within(p.name):
            self.procedures[p.name] = self.block(p.effect)

    def setup(self, stmts) -> tuple:
        self._compiling()
        with self.x.within("setup"):
            return self.block(stmts)

    def action(self, a: ir.Action) -> CompiledAction:
        in_view = self._in_view(a.to)
        # a group's pick is secret (GroupPlay), but its move shows its cards where they
        # go: to a public zone, every seat saw them, as it sees a single card played
        self._compiling(a.name, ("card",) if in_view else ())
        with self.x.within(a.name):
            return CompiledAction(
                a,
                self.rules.kinds[a.card] if a.card else None,
                self.x.expr(a.condition) if a.condition else None,
                self.x.expr(a.to) if a.to else None,
                self.block(a.effect),
                self._among(a),
                a.card is not None and a.card not in self.rules.type_names,
                in_view,
                a.target == "card" and _one_zone(a.among),
                self._precondition(a),
                None if a.same is None else self._same_values(a.same),
            )

    def _among(self, a: ir.Action):
        """What an action picks from, as a function (g, env) -> its cards (`target:
        card`) or its zones' slots (`target: zone`); None for another target."""
        if a.among is None:
            return None
        return self.x.expr(a.among) if a.target == "zone" else self.x.cards(a.among)

    def _same_values(self, name: str) -> tuple:
        """Each card type's value of a count's `same` property; a type without it has
        the value `c.name` reads for it (0, false or no text), so `same` groups the cards
        as `all(c.name == card.name for c in card)` would. `same: card`: of one type."""
        if name == "card":
            return tuple(range(len(self.rules.type_names)))
        values = self.x.prop_by_type(name, None)
        default = next(type(v)() for v in values if v is not None)
        return tuple(default if v is None else v for v in values)

    def _precondition(self, a: ir.Action) -> tuple | None:
        """A group action's condition split at its first conjunct that reads the group
        (`card`): the conjuncts before it, joined by `and`, and the rest (None when there
        is none). A target (or a player asked) the first part rules out is not offered
        any group, so none is made (a large hand has thousands). Tested for each target
        once a first group exists, it is what the condition tested first anyway, in the
        same order: the same outcome, a failure (RS701) included."""
        if a.count is None or a.condition is None:
            return None
        parts = list(ir.conjuncts(a.condition))
        split = next((i for i, c in enumerate(parts) if _reads_card(c)), len(parts))
        if split == 0:
            return None
        first, rest = parts[:split], parts[split:]
        return self._all_of(first), self._all_of(rest) if rest else None

    def _all_of(self, conditions: list):
        """The compiled `and` of conditions, left to right."""
        return self.x.expr(reduce(lambda x, y: ir.Binary(x.span, "bool", "and", x, y), conditions))

    def reaction(self, r: ir.Reaction, chained: bool) -> CompiledReaction:
        self._compiling(r.name, ("answer",) if self._in_view(r.to) else ())
        kind, names = self.rules.kinds[r.card] if r.card else frozenset(), self.rules.type_names
        options = {
            t: React(r.name if r.card == names[t] else f"{r.name} {names[t]}", r.name, t)
            for t in kind
        }
        if r.card is None:
            options[None] = React(r.name, r.name, None)
        with self.x.within(r.name):
            effect = self.block(r.effect)
            if chained:  # the answered reaction's rest reads its own reactor again
                effect = self.register(effect + (_give_back,))
            return CompiledReaction(
                r,
                kind,
                self.x.expr(r.condition) if r.condition else None,
                self.x.expr(r.to) if r.to else None,
                effect,
                options,
                chained,
                self._in_view(r.to),
            )

    def _in_view(self, to) -> bool:
        """Does a played card always go where every seat sees it (a public zone, shared or
        one of a family)? Then who sees the play needs no working out as it is made
        (State's _seen)."""
        return isinstance(to, ir.ZoneRef) and self.rules.spec.zone(to.name).visibility == "public"

    def step(self, s: ir.Step, actions: dict) -> CompiledStep:
        self._compiling()
        plays = tuple(actions[a] for a in s.actions)
        by_type: dict = {}
        for a in plays:
            for t in sorted(a.card or ()):
                by_type.setdefault(t, []).append(a)
        # a step may share its name with a rule: it asks as turn.NAME (a round's part as rounds.NAME)
        asker = f"turn.{s.name}"
        with self.x.within(s.name, asker=asker):
            effect = self.block(s.effect)
            again_if = self.x.expr(s.again_if) if s.again_if is not None else None
            pass_if = self.x.expr(s.pass_if) if s.pass_if is not None else None
            when = self.x.expr(s.when) if s.when is not None else None
            pass_effect = self.block(s.pass_effect)
        return CompiledStep(
            s,
            effect,
            plays,
            {t: tuple(a) for t, a in by_type.items()},
            tuple(a for a in plays if a.card is None),
            s.around,
            again_if,
            s.repeat or again_if is not None,
            pass_if,
            asker,
            any(a.ir.fallback for a in plays),
            when,
            pass_effect,
        )

    def trigger(self, t: ir.Trigger) -> CompiledTrigger:
        self._compiling()
        with self.x.within(t.name):
            return CompiledTrigger(t, self.x.expr(t.when), self.block(t.effect))

    # --- blocks -------------------------------------------------------------------

    def block(self, stmts) -> tuple:
        """A block as a tuple of ops (game, env) -> None, run in order by a frame."""
        ops, w = [], None
        for s in stmts:
            w = w or CodeWriter("op", s.span)
            if not self._straight(s):
                for line in self._pausing_lines(s):
                    w.line(line, s.span)
                ops.append(self.x.compile(w))
                w = None
            elif self._write(w, s):
                break  # the effect ends here: nothing after it runs
        if w is not None:
            ops.append(self.x.compile(w))
        return self.register(tuple(ops))

    def register(self, code: tuple) -> tuple:
        """Number a block of ops, so a state's key can name its frames."""
        self.block_ids.setdefault(id(code), len(self.block_ids))
        return code

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
            return not (
                s.proc in ir.PAUSES
                or (s.proc == "move" and self._chance_move(s.args[0]))
                or (s.proc == "set_current" and _random_player_call(s.args[0]))
            )
        return False  # while, choose, a procedure's call (a frame of its own)

    def _chance_move(self, cards: ir.Expr) -> bool:
        """A move that may need chance: a random pick, or a draw from a pile that
        refills (and so reshuffles) when it runs out (TTG-15)."""
        if _random_call(cards):
            return True
        if isinstance(cards, ir.Call) and cards.func == "top":
            zone = cards.args[0]
            if isinstance(zone, ir.ZoneRef):
                return self.rules.spec.zone(zone.name).refill_from is not None
            # a pile a local holds (`let z = stock`): it may be one that refills
            return any(z.refill_from is not None for z in self.rules.spec.zones)
        return False

    def _body(self, w: CodeWriter, stmts, depth: int, span: ir.Span) -> None:
        """Write an indented block: its statements up to one that ends the effect, or `pass`."""
        with w.indented():
            if not stmts:
                w.line("pass", span)
            for s in stmts:
                if self._write(w, s, depth):
                    break

    def _assign(self, w: CodeWriter, s: ir.Assign) -> None:
        """A local's or counter's `=`, `+=` or `-=`: a counter holds a kind as its number
        and nobody as -1."""
        x = self.x
        local = isinstance(s.target, ir.Local)
        mark = not local and s.target.name in self.rules.mark_index  # a per_card counter
        ref = x.local(s.target.name) if local else f"g.{'_marks' if mark else '_counters'}[_slot]"
        new = x.source(s.value)
        if s.op != "=":
            new = f"{ref} {s.op[0]} ({new})"
        elif s.target.type == "kind" and not local:
            new = f"{x.constant(self.rules.kind_number)}[{new}]"
        elif s.target.type == "player" and not local and x.nobody:
            new = f"_at_rest({new})"
        if local:
            w.line(f"{ref} = {new}", s.span)
        else:
            w.line(f"_slot = {x.counter_slot(s.target)}", s.span)
            w.line(f"g.{'set_mark' if mark else 'set_counter'}(_slot, {new})", s.span)

    def _write(self, w: CodeWriter, s: ir.Stmt, depth: int = 0) -> bool:
        """Write the source of a statement that cannot pause, each line marked with the
        spec's place; True when nothing of the effect runs after it (win, end_game,
        end_turn end with a return)."""
        x = self.x
        if isinstance(s, ir.Let):
            w.line(f"{x.local(s.name)} = {x.source(s.value)}", s.span)
        elif isinstance(s, ir.Assign) and isinstance(s.target, ir.Memory):
            slot = x.slot(self.rules.memory_index[s.target.name], s.target.owner)
            w.line(f"g.remember({slot}, {x.cards_source(s.value)})", s.span)
        elif isinstance(s, ir.Assign):
            self._assign(w, s)
        elif isinstance(s, ir.If):
            w.line(f"if {x.source(s.cond)}:", s.cond.span)
            self._body(w, s.then, depth, s.span)
            if s.orelse:
                w.line("else:", s.span)
                self._body(w, s.orelse, depth, s.span)
        elif isinstance(s, ir.For):
            var, cards = f"_p{depth}", s.items.type in CARDS  # nested loops each have their own
            if cards:  # the cards as the loop starts (its passes may move them), one a pass
                w.line(f"for {var} in {x.ordered_source(s.items)}:", s.items.span)
            else:
                w.line(f"for {var} in {x.players_source(s.items)}:", s.items.span)
            with w.indented():
                w.line(f"{x.local(s.var)} = {f'[{var}]' if cards else var}", s.span)
            self._body(w, s.body, depth + 1, s.span)
        else:
            lines = getattr(self, "_do_" + s.proc)(*s.args)
            for line in lines:
                w.line(line, s.span)
            return lines[-1] == "return"
        return False

    # --- procedures that cannot pause: source lines -------------------------------

    def _do_move(self, cards: ir.Expr, dest: ir.Expr):
        if (
            isinstance(cards, ir.Call) and cards.func == "top"
        ):  # a draw from a pile that does not refill
            zone, n = cards.args
            return [f"g.draw({self.x.source(zone)}, {self.x.source(dest)}, {self.x.source(n)})"]
        moved = self._leaving(cards)
        return [f"g.move_cards({moved}, {self.x.source(dest)})"]

    def _do_insert(self, cards: ir.Expr, dest: ir.Expr, depth: ir.Expr):
        return [
            f"g.insert_cards({self._leaving(cards)}, {self.x.source(dest)}, {self.x.source(depth)})"
        ]

    def _leaving(self, cards: ir.Expr) -> str:
        """Source for cards a move or an insert takes, in the order they go: as a loop
        goes through them (before log format 3, as they lie)."""
        if self.rules.deck_order:
            return self.x.ordered_source(cards)
        return f"list({self.x.cards_source(cards)})"

    def _do_swap(self, a: ir.Expr, b: ir.Expr):
        return [f"g.swap_cards({self.x.source(a)}, {self.x.source(b)})"]

    def _do_reveal(self, what: ir.Expr, players: ir.Expr):
        if what.type == "int":  # a secret number, told
            name = what.name if isinstance(what, ir.Local) else None
            return [
                f"g.reveal_value({self.x.constant(name)}, {self.x.source(what)}, "
                f"{self.x.players_source(players)})"
            ]
        return [f"g.reveal(list({self.x.cards_source(what)}), {self.x.players_source(players)})"]

    def _do_win(self, players):
        return [
            f"g.finish(tuple(sorted({self.x.players_source(players)})), {self._reason()})",
            "return",
        ]

    def _do_end_game(self):
        return [f"g.finish((), {self._reason()})", "return"]

    def _reason(self) -> str:
        """The end reason of a win or end_game: the rule whose effect it is in, or, in a
        procedure, the rule that called it (through any procedures between), as it
        would be written out there (two end conditions that call one final scoring)."""
        rule = self.x.constant(self.x.rule)
        return f"env[{CALLER!r}]" if self.called else rule

    def _do_eliminate(self, player):
        return [f"g.eliminate({self.x.seat_source(player)})"]

    def _do_sit_out(self, player):
        return [f"g.sit_out({self.x.seat_source(player)})"]

    def _do_end_turn(self):
        return ["g.end_turn()", "return"]

    def _do_set_current(self, player):
        return [f"g.set_current({self.x.seat_source(player)})"]

    def _do_reverse(self):
        return ["g.reverse()"]

    def _do_say(self, text, *values):
        """The words, each value a text names in braces written in as the table says it
        (a seat by its name, a kind or cards by their titles)."""
        if not values:
            return [f"g.say({self.x.source(text)})"]
        pieces = ir.SAID.split(text.value)  # text, a value's braces, text, ...
        parts = [
            self._said(values[i // 2]) if i % 2 else self.x.constant(piece)
            for i, piece in enumerate(pieces)
            if i % 2 or piece
        ]
        return [f"g.say(''.join(({', '.join(parts)},)))"]

    def _said(self, e: ir.Expr) -> str:
        x = self.x
        if e.type == "int":
            return f"str({x.source(e)})"
        if e.type == "player":  # nobody too, told so
            return f"_said_seats(({x.source(e)},))"
        if e.type == "players":
            return f"_said_seats({x.source(e)})"
        if e.type == "kind":
            return f"g.game.kind_title({x.source(e)})"
        return f"g.game.cards_title({x.cards_source(e)})"

    def _do_skip_turn(self, player):
        return [f"g.skip_turns({self.x.seat_source(player)}, 1)"]

    def _do_skip_turns(self, player, n):
        return [f"g.skip_turns({self.x.seat_source(player)}, {self.x.source(n)})"]

    def _do_extra_turn(self, player):
        return [f"g.extra_turns({self.x.seat_source(player)}, 1)"]

    def _do_extra_turns(self, player, n):
        return [f"g.extra_turns({self.x.seat_source(player)}, {self.x.source(n)})"]

    def _do_cancel_extra_turns(self, player):
        return [f"g.cancel_extra_turns({self.x.seat_source(player)})"]

    def _do_set_next(self, player):
        return [f"g.set_next({self.x.seat_source(player)})"]

    # --- statements that can pause: closures that push frames or ask ---------------

    def _pausing(self, s: ir.Stmt):
        if isinstance(s, ir.Do):
            return getattr(self, "_pause_" + s.proc)(*s.args)
        return getattr(self, "_pause_" + type(s).__name__)(s)

    def _pause_Let(self, s: ir.Let):  # let x = random_player(...)
        name = s.name
        return self._random_player(
            s.value.args[0], lambda g, point, o: point.env.__setitem__(name, o.seat)
        )

    def _pause_If(self, s: ir.If):
        cond, then, orelse = self.x.expr(s.cond), self.block(s.then), self.block(s.orelse)

        def if_(g, env):
            g.enter(then if cond(g, env) else orelse, env)

        return if_

    def _pause_For(self, s: ir.For):
        if s.items.type in VALUES or s.items.type in CARDS:
            return self._for_values(s)
        items, body, var = self.x.players(s.items), self.block(s.body), s.var
        # each pass is a frame that binds the variable first: one block per seat, made here
        passes = [self.register((_binder(var, p),) + body) for p in range(self.rules.n)]

        def for_(g, env):
            for p in reversed(tuple(items(g, env))):
                g._stack.append(Frame(passes[p], env))

        return for_

    def _for_values(self, s: ir.For):
        """A loop over numbers, card types, sets of cards or cards (each a set of one,
        the cards as the loop starts): each pass is a frame of one block that binds the
        next value, taken from the values left (kept in the env, so a paused loop copies
        with its state)."""
        cards = s.items.type in CARDS
        items, var, left = (
            self.x.in_deck_order(s.items) if cards else self.x.expr(s.items),
            s.var,
            f"__left_{s.var}",
        )  # locals never start with __

        def next_value(g, env):
            env[var], env[left] = env[left][0], env[left][1:]

        loop = self.register((next_value,) + self.block(s.body))

        def for_(g, env):
            found = items(g, env)
            env[left] = values = tuple([c] for c in found) if cards else tuple(found)
            g._stack.extend(Frame(loop, env) for _ in values)

        return for_

    def _pause_While(self, s: ir.While):
        cond, body = self.x.expr(s.cond), self.block(s.body)
        loop: tuple = ()

        def while_(g, env):
            if g.count_loop_pass(loop_id, env) and cond(g, env):
                g._stack.append(Frame(loop, env))

        loop = self.register(body + (while_,))
        loop_id = id(loop)
        return while_

    def _pause_ProcedureCall(self, s: ir.ProcedureCall):
        name, bodies, spec = s.proc, self.procedures, self.rules.spec
        params = spec.procedure(name).params
        bindings = self.x.function(self.x.bindings_source(params, s.args), s.span)
        rule = self.x.rule  # the caller, passed on: a win inside ends the game by its name
        if spec.windows_of((s,)):  # its windows answer the caller: its answers read the caller's
            return self._answered_call(name, bindings, rule)  # card, target, reactor, ...

        def perform(g, env):
            bound = bindings(g, env)
            bound[CALLER] = env.get(CALLER, rule)
            g.call(name, bodies[name], bound)

        return perform

    def _answered_call(self, name: str, bindings, rule: str):
        """A call of a procedure that opens a reaction window: its locals start as a copy
        of the caller's (what the reactions answering it read: `card`, `target`,
        `reactor`, a chain's ANSWERING), its parameters over them, and ANSWERED names the
        action or answer being resolved, passed on through procedures that call others."""
        bodies, played = self.procedures, self.played

        def perform(g, env):
            bound = dict(env)
            bound.update(bindings(g, env))
            bound[CALLER] = env.get(CALLER, rule)
            if played:
                bound[ANSWERED] = played
            g.call(name, bodies[name], bound)

        return perform

    def _pause_ChooseBranch(self, s: ir.ChooseBranch):
        asker = self.x.asker  # what asks, for a view to name
        player = self.x.seat(s.player)
        branches = [
            (Branch(b.label, i), self.x.expr(b.cond) if b.cond else _true, self.block(b.body))
            for i, b in enumerate(s.branches)
        ]
        codes = [code for _, _, code in branches]
        sites = [(asker, s.span.line, b.label) for b in s.branches]  # counted apart
        tested = any(b.cond for b in s.branches)

        def choose_branch(g, env):
            options = [option for option, cond, _ in branches if cond(g, env)]
            if options:
                g.ask(
                    player(g, env),
                    "choose",
                    options,
                    resume,
                    env,
                    asking=asker,
                    again=again,
                    prompt=s.prompt,
                    refused=refused if tested else None,
                )

        def refused(g, point):
            offered = {option.index for option in point.options}
            return [b.label for i, b in enumerate(s.branches) if i not in offered]

        def resume(g, point, option):
            site = sites[option.index]
            g._branches[site] = g._branches.get(site, 0) + 1
            if len(point.options) == 1:
                g._forced_branches[site] = g._forced_branches.get(site, 0) + 1
            g.enter(codes[option.index], point.env)

        again = _asked_again(choose_branch)
        return choose_branch

    def _pause_ChooseCard(self, s: ir.ChooseCard):
        if s.source.type == "cardsets":
            return self._choose_set(s)
        if s.source.type in VALUES or s.source.type in SEATS:
            return self._choose_value(s)
        asker, player, source, body, var, where = self._choice(s, self.x.cards(s.source))
        shown = self._shown(s)
        names = self.rules.type_names

        blind = bool(self.rules.spec.unseen_sources(s))  # else every card is seen: no test
        apart = bool(self.rules.spec.spread_sources(s))  # may it give cards of two zones?

        def choose_card(g, env):
            seat = player(g, env)
            told, unseen = g.told_apart(seat, source(g, env)) if blind else (source(g, env), {})
            if apart:  # cards of several zones: a type is an option for each zone
                options = card_picks(told, g, names, keeper(g, env))
            else:
                options = [PickCard(names[t], c) for t, c in passing(g, env, told).items()]
            options += [
                PickUnseen(g.game.slots[z].label, z)
                for z, cards in unseen.items()
                if passing(g, env, cards)
            ]
            if options:
                g.ask(
                    seat,
                    "card",
                    options,
                    resume,
                    env,
                    data=shown,
                    asking=asker,
                    again=again,
                    prompt=s.prompt,
                    refused=None if where is None else refused,
                )

        def keeper(g, env):
            """The filter, as card_picks takes it: on one card (of its type, there)."""
            return None if where is None else (lambda c: where(g, env, [c]))

        def passing(g, env, cards) -> dict:
            """Card type -> the first of the cards of it that the filter keeps (copies
            may differ in their per_card counters): cards of one zone, which a seat
            cannot see."""
            kept: dict = {}
            for c in cards:
                t = g._ctype[c]
                if t not in kept and (where is None or where(g, env, [c])):
                    kept[t] = c
            return kept

        def resume(g, point, option):
            if type(option) is PickUnseen:
                pick_unseen(g, point.env, point.player, option.slot)
            else:
                point.env[var] = [option.card]
                g.enter(body, point.env)

        pick_unseen = self._unseen_pick(var, body, source, passing, where)
        again, refused = _asked_again(choose_card), _refused_cards(source, blind, names)
        return choose_card

    def _unseen_pick(self, var: str, body, source, passing, where):
        """A card of a choice taken by its place (PickUnseen): chance picks which of the
        cards there its chooser cannot tell apart it is, weighted by their types, then
        the choice's block runs with it."""
        names = self.rules.type_names

        def pick_unseen(g, env, seat, slot):
            there = g.told_apart(seat, source(g, env))[1].get(slot, ())
            kept = passing(g, env, there)
            counts = Counter(  # the cards there the filter keeps, by type
                g._ctype[c]
                for c in there
                if g._ctype[c] in kept and (where is None or where(g, env, [c]))
            )
            types = sorted(counts, key=names.__getitem__)
            if len(types) == 1:
                env[var] = [kept[types[0]]]
                g.enter(body, env)
            elif types:
                g.ask(
                    CHANCE,
                    "chance",
                    [Outcome(names[t], card_type=t) for t in types],
                    picked,
                    env,
                    weights=tuple(counts[t] for t in types),
                    data=(seat, slot),
                    again=lambda g, point: pick_unseen(g, point.env, *point.data),
                )

        def picked(g, point, option):
            seat, slot = point.data
            there = g.told_apart(seat, source(g, point.env))[1][slot]
            point.env[var] = [passing(g, point.env, there)[option.card_type]]
            g.enter(body, point.env)

        return pick_unseen

    def _choice(self, s: ir.ChooseCard, source) -> tuple:
        """What each `choose(p) VAR from …` is made of: what asks it (for a view to
        name), the chooser, the items (`source` compiled), the block, VAR, the filter."""
        return (
            self.x.asker,
            self.x.seat(s.player),
            source,
            self.block(s.body),
            s.var,
            self._filter(s),
        )

    def _shown(self, s: ir.ChooseCard):
        """A card choice's point data: SHOWN where its cards are face up for everyone."""
        spec, held = self.rules.spec, self.held.get((self.called, self.x.rule), {})
        public = _public_cards(s.source, spec, self.in_sight, held) and (
            s.where is None or _public_cards(s.where, spec, (*self.in_sight, s.var), held)
        )
        return SHOWN if public else None

    def _choose_set(self, s: ir.ChooseCard):
        """`choose(p) VAR from combinations(cards, k)` (or any card sets): one option per
        distinct set (set_options); VAR is bound to the cards that stood for it."""
        asker, player, source, body, var, where = self._choice(s, self._sets(s.source))
        shown = self._shown(s) or (None if _sized(s.source, self.rules.spec) else UNSIZED)
        names = self.rules.type_names

        def choose_set(g, env):
            keep = None if where is None else (lambda cards: where(g, env, cards))
            options = set_options(source(g, env, ()), g._ctype, names, keep)
            if options:
                g.ask(
                    player(g, env),
                    "cards",
                    options,
                    resume,
                    env,
                    data=shown,
                    asking=asker,
                    again=again,
                    prompt=s.prompt,
                )

        def resume(g, point, option):
            point.env[var] = list(option.cards)
            g.enter(body, point.env)

        again = _asked_again(choose_set)
        return choose_set

    def _pause_ChooseAll(self, s: ir.ChooseAll):
        """Each player of the set picks a card (or a set of cards, from card sets), asked
        in turn as a secret `card` (or `cards`) choice; the picks wait in the env (the cards stay
        where they are) until the last one, then the body runs once per pick, sorted by
        the key (ties: in the order asked). The env holds seats and a list of picks,
        each a list of cards, so key() names the cards by where they lie."""
        asker = self.x.asker  # what asks, for a view to name
        sets = s.source.type == "cardsets"
        players, source, body = (
            self.x.players(s.players),
            self._sets(s.source) if sets else self.x.cards(s.source),
            self.block(s.body),
        )
        key = self.x.expr(s.order) if s.order is not None else None
        who, var, names, where = s.player.name, s.var, self.rules.type_names, self._filter(s)
        seats_own = {z.name for z in self.rules.spec.zones if z.per_player}  # not a team's
        apart = _own_cards(s.source, who, seats_own)
        left, seats, picks = (
            f"__left_{var}",
            f"__seats_{var}",
            f"__cards_{var}",
        )  # locals never start with __

        def simultaneously(g, env):
            env[left], env[seats], env[picks] = tuple(players(g, env)), (), []
            ask_next(g, env)

        def offer(g, env) -> list:
            taken = {c for pick in env[picks] for c in pick}
            keep = _pickable(where, g, env, taken)
            if sets:
                return set_options(source(g, env, taken), g._ctype, names, keep)
            return card_picks([c for c in source(g, env) if keep((c,))], g, names)

        def ask_next(g, env):
            if not env[left]:
                resolve(g, env)
                return
            env[who], env[left] = env[left][0], env[left][1:]
            ask_now(g, env)

        def ask_now(g, env):  # the seat env[who] picks, or has nothing to pick from
            options = offer(g, env)
            if not options:
                ask_next(g, env)
                return
            g.ask(
                env[who],
                "cards" if sets else "card",
                options,
                resume,
                env,
                data=(Apart if apart else Together)(env[left]),
                asking=asker,
                again=again,
                prompt=s.prompt,
            )

        def resume(g, point, option):
            env = point.env
            pick = list(option.cards) if sets else [option.card]
            env[seats], env[picks] = env[seats] + (env[who],), env[picks] + [pick]
            ask_next(g, env)

        def resolve(g, env):
            made = list(zip(env.pop(seats), env.pop(picks)))
            del env[left]
            if key is not None:
                made.sort(key=lambda pick: key(g, dict(env, **{who: pick[0], var: pick[1]})))
            env[seats], env[picks] = tuple(p for p, _ in made), [c for _, c in made]
            g._stack.extend(Frame(loop, env) for _ in made)

        def next_pick(g, env):  # each pass binds the next pick, and drops it
            env[who], env[var] = env[seats][0], list(env[picks][0])
            env[seats], env[picks] = env[seats][1:], env[picks][1:]

        loop = self.register((next_pick,) + body)
        again = _asked_again(ask_now)
        return simultaneously

    def _sets(self, e: ir.Expr):
        """A choice's card sets, as a function (g, env, taken) -> the sets to offer. Of
        `combinations(cards, k)` (and sets of those added up), one for each set alike
        cards make (distinct_sets), of the cards not taken already (by an earlier pick of
        `simultaneously`); of any other card sets, every set, a taken card's refused by
        the choice's test (_pickable)."""
        if isinstance(e, ir.Call) and e.func == "combinations":
            cards, k = self.x.cards(e.args[0]), self.x.expr(e.args[1])
            most = self.x.expr(e.args[2]) if len(e.args) == 3 else None

            def made(g, env, taken):
                left = [c for c in cards(g, env) if c not in taken]
                upto = None if most is None else most(g, env)
                return distinct_sets(left, k(g, env), g._ctype, g._loc, g._marks, upto)

            return made
        if isinstance(e, ir.Binary):  # `+`, the one operator on card sets
            a, b = self._sets(e.left), self._sets(e.right)
            return lambda g, env, taken: _sets_added(a(g, env, taken), b(g, env, taken))
        every = self.x.expr(e)
        return lambda g, env, taken: every(g, env)

    def _filter(self, s):
        """A choice's filter, `if cond`, as a function (g, env, value) -> whether the
        value may be chosen, read with the choice's variable bound to it; None without."""
        if s.where is None:
            return None
        test, var = self.x.expr(s.where), s.var

        def where(g, env, value):
            inner = dict(env)
            inner[var] = value
            return test(g, inner)

        return where

    def _pause_ChooseNumber(self, s: ir.ChooseNumber):
        asker = self.x.asker  # what asks, for a view to name
        player, low, high = self.x.seat(s.player), self.x.expr(s.low), self.x.expr(s.high)
        body, var, where = self.block(s.body), s.var, self._filter(s)

        def choose_number(g, env):
            lo, hi = low(g, env), high(g, env)
            if hi - lo >= MAX_NUMBERS:
                raise RuleLimit(
                    f"choose from {lo}..{hi} would offer {hi - lo + 1} numbers; "
                    f"at most {MAX_NUMBERS}"
                )
            options = made.get((lo, hi))
            if options is None:
                if len(made) >= MADE_RANGES:
                    made.clear()
                options = made[lo, hi] = tuple(
                    PickValue(f"{var} = {v}", v) for v in range(lo, hi + 1)
                )
            if where is None:
                options = list(options)
            else:
                options = [o for o in options if where(g, env, o.value)]
            if options:
                g.ask(
                    player(g, env),
                    "number",
                    options,
                    resume,
                    env,
                    asking=asker,
                    again=again,
                    prompt=s.prompt,
                )

        # (lo, hi) -> the options of that range: made once, as a bet is asked for often
        made: dict[tuple[int, int], tuple] = {}
        resume, again = _bind_value(var, body), _asked_again(choose_number)
        return choose_number

    def _choose_value(self, s: ir.ChooseCard):
        """`choose(p) i from range(n)`, `choose(p) k from card_types` or from `values(…)`,
        `choose(p) q from others(p)`, `choose(p) z from row`: a number, a kind named
        whether or not any card of it is at hand, a player, or a family's zone (by its
        label, `row[1]`, which a view shows by the zone's title)."""
        seats, zones = s.source.type in SEATS, s.source.type == "zones"
        source = self.x.players(s.source) if seats else self.x.expr(s.source)
        asker, player, items, body, var, where = self._choice(s, source)
        ordered = seats or zones or s.source.type == "ints"  # by number, seat or place
        kind = PickPlayer if seats else PickValue
        if seats:
            label = seat_name
        elif zones:  # a zone by its label
            label = [s.label for s in self.rules.slots].__getitem__
        else:
            label = str if ordered else self.rules.kind_name

        def choose_value(g, env):
            values = dict.fromkeys(items(g, env))
            if where is not None:
                values = [v for v in values if where(g, env, v)]
            if ordered:
                values = sorted(values)
            options = [kind(label(v), v) for v in values]
            if options:
                g.ask(
                    player(g, env),
                    "choose",
                    options,
                    resume,
                    env,
                    asking=asker,
                    ordered=ordered,
                    again=again,
                    prompt=s.prompt,
                    refused=None if where is None else refused,
                )

        def refused(g, point):
            offered = {o.value for o in point.options}
            return [label(v) for v in dict.fromkeys(items(g, point.env)) if v not in offered]

        resume, again = _bind_value(var, body), _asked_again(choose_value)
        return choose_value

    def _pause_move(self, cards: ir.Expr, dest: ir.Expr):  # move(random(zone, n), dest)
        to = self.x.expr(dest)
        zone, n = self.x.expr(cards.args[0]), self.x.expr(cards.args[1])
        names = self.rules.type_names
        outcomes = [Outcome(name, card_type=t) for t, name in enumerate(names)]
        by_label = sorted(range(len(names)), key=names.__getitem__)

        def move_random(g, env):
            src = zone(g, env)
            draw_one(g, env, src, to(g, env), min(n(g, env), len(g._zones[src])))

        def draw_one(g, env, src, dst, count):
            """A chance point over the card types in src, weighted by how many of each
            it holds; `count` cards are still to draw."""
            if count <= 0 or not g._zones[src]:
                return
            counts = g._tcount[src]
            types = [t for t in by_label if counts[t]]
            g.ask(
                CHANCE,
                "chance",
                [outcomes[t] for t in types],
                take,
                env,
                weights=tuple([counts[t] for t in types]),
                data=(src, dst, count),
                again=again,
            )

        def take(g, point, option):
            src, dst, count = point.data
            g.move_cards((first_of_type(g._zones[src], g._ctype, option.card_type),), dst)
            draw_one(g, point.env, src, dst, count - 1)

        def again(g, point):
            draw_one(g, point.env, *point.data)

        return move_random

    def _pausing_lines(self, s: ir.Stmt) -> list[str]:
        """The last lines of an op: a statement that may pause the game."""
        if isinstance(s, ir.Do) and s.proc == "move" and not _random_call(s.args[0]):
            # a draw from a pile that refills when it runs out (TTG-15): drawn inline, and
            # only a refill, with its shuffle, pauses
            zone, n = s.args[0].args
            return [
                f"_src, _dst = {self.x.source(zone)}, {self.x.source(s.args[1])}",
                f"_left = g.draw(_src, _dst, {self.x.source(n)})",
                f"if _left: {self.x.constant(_refill)}(g, env, _src, _dst, _left)",
            ]
        return [f"{self.x.constant(self._pausing(s))}(g, env)"]

    def _pause_shuffle(self, zone):
        where = self.x.expr(zone)

        def shuffle(g, env):
            slot = where(g, env)
            _ask_shuffle(g, env, slot, (slot,), resume)

        def resume(g, point, option):
            g.reorder(point.data[0], option.cards)

        return shuffle

    def _pause_refill(self, zone):
        """refill(zone): an empty zone refilled now, as a draw from it would be."""
        where = self.x.expr(zone)

        def refill(g, env):
            slot = where(g, env)
            if not g._zones[slot] and g.can_refill(slot):
                _refill(g, env, slot, None, 0)

        return refill

    def _pause_react(self, players, window=None):
        """`react(players)`, or `react(players, window)`: only the window's reactions."""
        who, action = self.x.players(players), self.played
        if self.called:  # in a procedure: against what its caller resolves (ANSWERED)
            name = None if window is None else window.value
            return lambda g, env: g.open_window(who(g, env), env[ANSWERED], env, name)
        if window is None:
            return lambda g, env: g.open_window(who(g, env), action, env)
        return lambda g, env: g.open_window(who(g, env), action, env, window.value)

    def _pause_set_current(self, player):  # set_current(random_player(...))
        return self._random_player(player.args[0], lambda g, point, o: g.set_current(o.seat))

    def _random_player(self, players, then):
        ps, outcomes = self.x.players(players), self.seat_outcomes

        def random_player(g, env):
            options = [outcomes[p] for p in ps(g, env)]
            if not options:
                raise RuleLimit("random_player() has no player to pick from")
            g.ask(CHANCE, "chance", options, then, env, again=again)

        again = _asked_again(random_player)
        return random_player


def _one_zone(among: ir.Expr | None) -> bool:
    """Can `among` give cards of one zone only, whatever the cards are? One zone named,
    and no other source of cards: a family, remembered cards, a local or parameter (its
    cards may lie anywhere), a named value, or a loop over players (`union(... for p in
    others(current))` names one zone for each). The cards of `hand(p) + vault(p)` lie
    in one zone or the other as the hidden cards fall."""
    if among is None:
        return False
    nodes = list(ir.walk(among))
    bound = {n.var for n in nodes if isinstance(n, ir.Aggregate)}
    zones = sum(isinstance(n, ir.ZoneRef) for n in nodes)
    elsewhere = (ir.Zones, ir.Memory, ir.Param, ir.ConditionCall)  # cards from anywhere
    if any(
        isinstance(n, elsewhere)
        or (isinstance(n, ir.Aggregate) and not n.over_cards)
        or (isinstance(n, ir.Local) and n.type in ir.OF_CARDS and n.name not in bound)
        for n in nodes
    ):
        return False
    return zones == 1


def _refused_cards(source, blind: bool, names):
    """A card choice's `refused` (ChoicePoint): the types of the cards of its source its
    chooser tells apart (all of them, unless some may be `blind` to it) that no option
    takes."""

    def refused(g, point):
        cards = source(g, point.env)
        told = g.told_apart(point.player, cards)[0] if blind else cards
        taken = {g._ctype[o.card] for o in point.options if type(o) is PickCard}
        return [names[t] for t in dict.fromkeys(g._ctype[c] for c in told) if t not in taken]

    return refused


def set_options(sets, ctype, names, keep=None) -> list[PickCards]:
    """A choice among card sets: one option per distinct non-empty set, its cards of
    one type alike (C-3), labelled by its types in deck order joined by '+', for the
    first cards that make it; only sets `keep(cards)` accepts (None: every set)."""
    seen, options = set(), []
    for cards in sets:
        types = tuple(sorted(ctype[c] for c in cards))
        # kept before seen: another copy of a set refused (a card already picked) may do
        if types and types not in seen and (keep is None or keep(list(cards))):
            seen.add(types)
            options.append(PickCards("+".join(names[t] for t in types), tuple(cards)))
    return options


def _pickable(where, g, env, taken: set):
    """A simultaneous pick's test of a card or set (a tuple of cards): none of it taken
    already (a card is not picked twice), and passing the filter."""
    if where is None:
        return taken.isdisjoint
    return lambda cards: taken.isdisjoint(cards) and where(g, env, list(cards))


def _sized(sets: ir.Expr, spec: ir.Spec) -> bool:
    """Do the rules fix how many cards each of these sets holds: `combinations(cards,
    k)` with a k every seat knows?"""
    return (
        isinstance(sets, ir.Call)
        and sets.func == "combinations"
        and len(sets.args) == 2
        and _known_number(sets.args[1], spec)
    )


def _known_number(e: ir.Expr, spec: ir.Spec) -> bool:
    """Does every seat know e: it reads no local of the rule (a pick, a count of a hand),
    and no card of a zone some seat may not see but through its size()?"""
    if isinstance(e, ir.Local):
        return e.builtin
    if isinstance(e, ir.ZoneRef) and spec.zone(e.name).visibility != "public":
        return False
    if isinstance(e, ir.Call) and e.func == "size" and isinstance(e.args[0], ir.ZoneRef):
        e = e.args[0]  # how many cards a zone holds: public, whose ever it is
    return all(_known_number(c, spec) for c in ir.iter_children(e) if isinstance(c, ir.Expr))


# items of a loop or choice: values, not seats or cards
VALUES = ("ints", "kinds", "cardsets", "zones")
CARDS = ("cards", "zone")  # a loop's items that are cards: a pass for each
SEATS = ("players", "player")  # items of a loop or choice that are seats


def _nesting(s) -> int:
    """How many `if` and `for` blocks s nests, itself included."""
    if not isinstance(s, (ir.If, ir.For)):
        return 0
    return 1 + max(map(_nesting, ir.iter_children(s)), default=0)


def _random_call(e: ir.Expr) -> bool:
    return isinstance(e, ir.Call) and e.func == "random"


def _random_player_call(e: ir.Expr) -> bool:
    return isinstance(e, ir.Call) and e.func == "random_player"


def _asked_again(ask):
    """A ChoicePoint's `again` for a decision `ask(g, env)` asks: the same question,
    from the table as it now lies."""
    return lambda g, point: ask(g, point.env)


def _binder(var, value):
    def bind(g, env):
        env[var] = value

    return bind


def _refill(g, env, src, dst, left):
    """src ran out with `left` cards still to draw (none for `refill(zone)`): refill it
    from its refill zone, shuffle it (a chance point), and draw on."""
    source, keep = g.game.refill[src]
    cards = g._zones[source]
    moved = cards[: max(0, len(cards) - keep)]  # all but the top `keep` (the top is last)
    g.move_cards(sorted(moved) if g.game.leave_sorted[source] else moved, src)
    _ask_shuffle(g, env, src, (src, dst, left, source), _refilled)


def _refilled(g, point, option):
    src, dst, left, source = point.data
    g.reorder(src, option.cards)
    g._log("refill", zone=g.game.slots[src].label, source=g.game.slots[source].label)
    left = left and g.draw(src, dst, left)
    if left:
        _refill(g, point.env, src, dst, left)


def _ask_shuffle(g, env, slot, data, resume):
    """A sampled chance point: the zone's new order."""
    if len(g._zones[slot]) < 2:
        resume(g, _Fixed(env, data), Order("shuffle", tuple(g._zones[slot])))
        return
    g.ask(CHANCE, "shuffle", [], resume, env, sample=_sample_order, data=data, again=None)


class _Fixed:
    """A point that needs no asking: a shuffle of fewer than two cards."""

    __slots__ = ("data", "env")

    def __init__(self, env, data):
        self.env, self.data = env, data


def _sample_order(g, point, rng) -> Order:
    order = list(g._zones[point.data[0]])
    shuffle(rng.getrandbits, order)  # as the game's RNG shuffled before shuffles were chance points
    return Order("shuffle", tuple(order))


def _public_cards(source: ir.Expr, spec: ir.Spec, bound=(), held=None, reading=()) -> bool:
    """Does a choice's source (or its filter) read public zones only (`row`,
    `union(top(row(i), 1) for i in range(4))`), so that every seat sees the cards it
    offers, whatever lies hidden? Its option is then public. Decided from the rules,
    never from where the cards lie now: which cards a mixed source offers (a hidden
    hand's and the row's, one option per card type) hangs on hidden cards, and so would
    whether the choice is shown. A named condition is read through, its `cards`
    parameters by their arguments; a loop's variable by the loop's items (`held`, see
    _held_locals); remembered cards, zone_of, above, and any other local the rule's
    statements bind (a let, an assignment, a choice's variable, a procedure's parameter:
    a count or a player it holds may hang on hidden cards) are not. A name no statement
    binds (a target player, an `each` variable, the language's constants) is public
    unless it holds cards or a zone."""
    own = {e.var for e in ir.walk(source) if isinstance(e, ir.Aggregate)} | set(bound)
    for e in ir.walk(source):
        if isinstance(e, (ir.ZoneRef, ir.Zones)) and spec.zone(e.name).visibility != "public":
            return False
        if isinstance(e, ir.Memory) or (isinstance(e, ir.Call) and e.func in ("zone_of", "above")):
            return False
        if isinstance(e, ir.ConditionCall):
            c = spec.condition(e.name)
            if not _public_cards(c.when, spec, (p for p, _ in c.params)):
                return False
        if not isinstance(e, ir.Local) or e.builtin or e.name in own or e.name in reading:
            continue
        loops = (held or {}).get(e.name)
        if loops is None:  # bound by no statement: a role, an `each` variable
            if e.type in ("cards", "zone"):
                return False
        elif not all(
            items is not None and _public_cards(items, spec, bound, held, (*reading, e.name))
            for items in loops
        ):
            return False
    return True


def _held_locals(spec: ir.Spec) -> dict[tuple, dict[str, list]]:
    """(a procedure's?, the name its code is compiled within) -> each local its
    statements bind, with the items of each loop over it and None for any other binding
    (a let, an assignment, a choice's variable, a procedure's parameter). A reaction runs
    in the answered rule's locals, so the rules an answer links, however far, share
    theirs; a round's parts are rounds.NAME."""
    scopes: dict[tuple, dict[str, list]] = {}
    _binds(spec.setup, scopes.setdefault((False, "setup"), {}))
    for p in spec.procedures:
        into = scopes.setdefault((True, p.name), {name: [None] for name, _ in p.params})
        _binds(p.effect, into)
    for kind, rule in spec.rules():
        name = f"rounds.{rule.name}" if kind == "round" else rule.name
        _binds(ir.body(rule), scopes.setdefault((False, name), {}))
    linked = {name: {name} for name in scopes}
    for r in spec.reactions:
        for answered in r.answers:
            group = linked[(False, r.name)] | linked[(False, answered)]
            for name in group:
                linked[name] = group
    return {
        name: {
            local: [items for n in group for items in scopes[n].get(local, ())]
            for local in {local for n in group for local in scopes[n]}
        }
        for name, group in linked.items()
    }


def _binds(stmts, into: dict[str, list]) -> None:
    """Adds to `into` each local a block binds: a loop's items, None for any other."""
    for s in ir.walk_statements(stmts):
        if isinstance(s, ir.For):
            into.setdefault(s.var, []).append(s.items)
        elif isinstance(s, (ir.ChooseCard, ir.ChooseNumber)):
            into.setdefault(s.var, []).append(None)
        elif isinstance(s, ir.Let):
            into.setdefault(s.name, []).append(None)
        elif isinstance(s, ir.Assign) and isinstance(s.target, ir.Local):
            into.setdefault(s.target.name, []).append(None)


SHOWN = ("shown",)  # a choice point's data: its cards face up for everyone, its option public
# a secret choice of a set of cards whose size the rules do not fix (two sizes added up,
# summing(), a size a local holds): how many cards it took is no more public than which
UNSIZED = ("unsized",)


def _own_cards(source: ir.Expr, who: str, per_player: set[str]) -> bool:
    """Does a simultaneous choice's source read the chooser's own zones only (one per
    player, not a team's: `hand(p)`, `combinations(hand(p) + tableau(p), 2)`), and
    nothing else that could hang on another seat? Then the seats' sources are apart: no
    pick takes a card another could pick, and a seat's options tell nothing of another's
    cards. Another's zone, a shared or a team's one, remembered cards, a named
    condition's call (it may read any zone) and a local the source does not bind itself
    (a `let` before it may have read another's hand) are not."""
    own = {e.var for e in ir.walk(source) if isinstance(e, ir.Aggregate)}  # the items' cards
    for e in ir.walk(source):
        if isinstance(e, ir.ZoneRef) and not (
            e.name in per_player and isinstance(e.owner, ir.Local) and e.owner.name == who
        ):
            return False
        if isinstance(e, (ir.Memory, ir.ConditionCall)):
            return False
        if isinstance(e, ir.Call) and e.func == "zone_of":
            return False
        if isinstance(e, ir.Local) and not e.builtin and e.name not in own and e.name != who:
            return False
    return any(isinstance(e, ir.ZoneRef) for e in ir.walk(source))
