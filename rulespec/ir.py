"""The IR: a validated spec as frozen, declared data with source spans.

Nothing downstream re-reads YAML or re-parses expression text: the interpreter compiles
these nodes to closures once per game definition.

Every expression carries its static type (see TYPES) so that the runtime can pick an
implementation without inspecting values.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Span

# Static types of expressions. A `zone` is also usable wherever `cards` is expected,
# and a `player` wherever `players` is.
TYPES = ("int", "bool", "str", "player", "players", "zone", "cards", "kind", "goal")


# --- expressions ----------------------------------------------------------------

@dataclass(frozen=True)
class Expr:
    span: Span
    type: str


@dataclass(frozen=True)
class Const(Expr):
    value: object


@dataclass(frozen=True)
class Local(Expr):
    """An effect-local name: a `let`, a loop or choice variable, or a bound role
    (current, target, card, reactor, answer)."""
    name: str


@dataclass(frozen=True)
class Param(Expr):
    name: str


@dataclass(frozen=True)
class Counter(Expr):
    name: str
    owner: Expr | None  # None for a shared counter


@dataclass(frozen=True)
class ZoneRef(Expr):
    name: str
    owner: Expr | None


@dataclass(frozen=True)
class Kind(Expr):
    """A card type or a tag, used to filter cards."""
    name: str


@dataclass(frozen=True)
class Call(Expr):
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Aggregate(Expr):
    """`func(body for var in items)`: see rulespec.builtins.AGGREGATES."""
    func: str
    body: Expr
    var: str
    items: Expr


@dataclass(frozen=True)
class Unary(Expr):
    op: str  # "not" | "-"
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    op: str  # + - * // % == != < <= > >= and or in
    left: Expr
    right: Expr


# --- statements -----------------------------------------------------------------

@dataclass(frozen=True)
class Stmt:
    span: Span


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True)
class Assign(Stmt):
    """`name = v`, `name += v`, `name -= v` on a local or a counter."""
    target: Local | Counter
    op: str
    value: Expr


@dataclass(frozen=True)
class If(Stmt):
    cond: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]


@dataclass(frozen=True)
class For(Stmt):
    var: str
    items: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class While(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Branch:
    span: Span
    label: str
    cond: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class ChooseBranch(Stmt):
    player: Expr
    branches: tuple[Branch, ...]


@dataclass(frozen=True)
class ChooseCard(Stmt):
    player: Expr
    var: str
    source: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Do(Stmt):
    """A call of a built-in procedure: move, shuffle, win, react, ..."""
    proc: str
    args: tuple[Expr, ...]


def walk_statements(stmts):
    """Every statement, nested ones included, in order."""
    for s in stmts:
        yield s
        if isinstance(s, If):
            yield from walk_statements(s.then)
            yield from walk_statements(s.orelse)
        elif isinstance(s, (For, While, ChooseCard)):
            yield from walk_statements(s.body)
        elif isinstance(s, ChooseBranch):
            for b in s.branches:
                yield from walk_statements(b.body)


# --- the spec -------------------------------------------------------------------

@dataclass(frozen=True)
class CardType:
    name: str
    title: str
    count: int
    tags: tuple[str, ...]
    props: tuple[tuple[str, object], ...]
    span: Span


@dataclass(frozen=True)
class ZoneDef:
    name: str
    per_player: bool
    visibility: str  # hidden | owner | public
    ordered: bool
    start: bool      # the whole deck starts here
    refill_from: str | None
    span: Span


@dataclass(frozen=True)
class CounterDef:
    name: str
    per_player: bool
    initial: Expr
    span: Span
    match: bool = False       # kept from one game of a match to the next


@dataclass(frozen=True)
class GoalDef:
    """Ordered goals: kinds to collect in a per-player zone, each up to a limit; the
    next goal is the first whose limit is not yet reached."""
    name: str
    zone: str
    order: tuple[tuple[str, int], ...]
    rulings: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class ParamDef:
    name: str
    value: object
    span: Span


@dataclass(frozen=True)
class Step:
    name: str
    effect: tuple[Stmt, ...]
    actions: tuple[str, ...]  # a play step offers these actions
    optional: bool            # a play step may be passed
    rulings: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Action:
    name: str
    card: str | None          # card type, tag or "any" played from the hand; None: no card
    target: str               # none | other | any | card
    condition: Expr | None
    to: Expr | None           # where the played card goes when played
    effect: tuple[Stmt, ...]
    rulings: tuple[str, ...]
    span: Span
    among: Expr | None = None  # target: card picks one of these, bound as `chosen`


@dataclass(frozen=True)
class Reaction:
    name: str
    card: str
    answers: tuple[str, ...]  # action names
    forced: bool
    condition: Expr | None
    to: Expr
    effect: tuple[Stmt, ...]
    rulings: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Trigger:
    name: str
    each: str | None          # variable bound to each active player, or None
    when: Expr
    effect: tuple[Stmt, ...]
    rulings: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Spec:
    name: str
    file: str
    min_players: int
    max_players: int
    default_players: int
    turn_limit: int
    hand: str
    cards: tuple[CardType, ...]
    tags: tuple[str, ...]
    params: tuple[ParamDef, ...]
    zones: tuple[ZoneDef, ...]
    counters: tuple[CounterDef, ...]
    setup: tuple[Stmt, ...]
    turn: tuple[Step, ...]
    actions: tuple[Action, ...]
    reactions: tuple[Reaction, ...]
    end_conditions: tuple[Trigger, ...]
    triggers: tuple[Trigger, ...]
    deck_note: str = ""
    span: Span = field(default=Span("<spec>", 1, 1))
    removals: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = ()  # per player count
    goals: tuple[GoalDef, ...] = ()
    evaluation: Expr | None = None  # how well `me` is doing, for the greedy agent

    def deck_for(self, players: int) -> tuple[tuple[str, int], ...]:
        """(card, count) for a player count, after that count's removals."""
        removed = dict(dict(self.removals).get(players, ()))
        return tuple((c.name, c.count - removed.get(c.name, 0)) for c in self.cards)

    def card(self, name: str) -> CardType:
        return next(c for c in self.cards if c.name == name)

    def zone(self, name: str) -> ZoneDef:
        return next(z for z in self.zones if z.name == name)
