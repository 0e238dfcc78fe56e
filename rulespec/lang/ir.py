"""The IR: a validated spec as frozen, declared data with source spans.

Nothing downstream re-reads YAML or re-parses expression text: the interpreter compiles
these nodes to closures once per game definition.

Every expression carries its static type (int, bool, str, player, players, zone, cards,
kind or goal; a zone is also usable wherever cards are expected, and a player wherever
players are) so that the runtime can pick an implementation without inspecting values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import get_args, get_type_hints

from .diagnostics import Diagnostic, Span

# --- expressions ----------------------------------------------------------------


# a card's `{suit}` in its title or text (its value of the property; `{Suit}`: the value
# capitalised), or a parameter's `{points_to_win}` in a rule's text (its value)
PLACEHOLDER = re.compile(r"\{([A-Za-z][a-z0-9_]*)\}")
SAID = re.compile(r"\{([^{}]*)\}")  # a value a say() text names: `{pot}`, `{score(p)}`


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
    (current, target, card, reactor, answer); or, `builtin`, one of the language's
    constants (players, seats, ...), which a spec's own local of the same name hides."""

    name: str
    builtin: bool = False


@dataclass(frozen=True)
class Param(Expr):
    name: str


@dataclass(frozen=True)
class Counter(Expr):
    name: str
    owner: Expr | None  # None for a shared counter
    index: Expr | None = None  # the index, for a counter of a family


@dataclass(frozen=True)
class Memory(Expr):
    """Cards the rules remember (`remember:`), by name; its owner for a per-player one."""

    name: str
    owner: Expr | None


@dataclass(frozen=True)
class ZoneRef(Expr):
    """A zone: `pile`, a seat's or team's `hand(p)`, a family's `row(i)`, or a family
    of a seat's own `field(p, i)`."""

    name: str
    owner: Expr | None  # the player, for a zone per player or per team
    index: Expr | None = None  # the index, for a zone of a family


@dataclass(frozen=True)
class Zones(Expr):
    """The zones of a family, in index order, as a for loop's or a choice's items:
    `row`, or a seat's (or team's) own `field(p)`."""

    name: str
    owner: Expr | None  # the player, for a family each seat or team has


@dataclass(frozen=True)
class Kind(Expr):
    """A card type or a tag, used to filter cards."""

    name: str


@dataclass(frozen=True)
class Call(Expr):
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class ConditionCall(Expr):
    """A call of a named condition of the spec (`conditions:`): bool, or int for a
    named value (`value:`)."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Aggregate(Expr):
    """`func(body for var in items if where)`: see rulespec.lang.builtins.AGGREGATES.
    The items are players or cards; a card is bound to var as a set of one card."""

    func: str
    body: Expr
    var: str
    items: Expr
    where: Expr | None  # only the items for which it holds count

    @property
    def over_cards(self) -> bool:
        """Whether the items are cards (each bound as a set of one) rather than players."""
        return self.items.type in ("cards", "zone")


@dataclass(frozen=True)
class Ranking(Expr):
    """`(a, b, ...)` as the body of argmax, argmin or sort: items compare by a, then
    those level by b, and so on."""

    parts: tuple[Expr, ...]


@dataclass(frozen=True)
class IfExpr(Expr):
    """`if cond then then else orelse`: the value of one arm."""

    cond: Expr
    then: Expr
    orelse: Expr


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

    target: Local | Counter | Memory
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
    prompt: str = ""  # `choose(p, "…")`: the question it asks, above the rule's prompt


@dataclass(frozen=True)
class ChooseCard(Stmt):
    player: Expr
    var: str
    source: Expr
    body: tuple[Stmt, ...]
    where: Expr | None = None  # `if cond`: only the items for which it holds (VAR bound)
    prompt: str = ""  # `choose(p, "…")`: the question it asks, above the rule's prompt


@dataclass(frozen=True)
class ChooseAll(ChooseCard):
    """`simultaneously(players) p chooses VAR from cards if cond by key { … }`: each
    player of the set (`player` is the Local p) picks a card of `source` (one `where`
    accepts) in secret, asked in the set's order; once all have, the body runs once per
    pick, lowest `order` first (None: in the order asked). A ChooseCard, so analyses see
    where its cards come from."""

    players: Expr | None = None
    order: Expr | None = None


@dataclass(frozen=True)
class ChooseNumber(Stmt):
    """`choose(p) VAR from low..high { … }`: a number only the chooser sees in the log."""

    player: Expr
    var: str
    low: Expr
    high: Expr
    body: tuple[Stmt, ...]
    where: Expr | None = None  # `if cond`: only the numbers for which it holds (VAR bound)
    prompt: str = ""  # `choose(p, "…")`: the question it asks, above the rule's prompt


@dataclass(frozen=True)
class Do(Stmt):
    """A call of a built-in procedure: move, shuffle, win, react, ..."""

    proc: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class ProcedureCall(Stmt):
    """A call of a named procedure of the spec (`procedures:`)."""

    proc: str
    args: tuple[Expr, ...]


# Bounds the runtime holds a value to (past them the rule fails, RS701), declared with the
# IR so that the front end counts with them what an expression may cost (costs.py).
MAX_RANGE = 64  # the numbers range(n) gives: as many as a family of zones may hold
MAX_COMBINATIONS = 1024  # the sets combinations(cards, k) gives: every subset of 10 cards
MAX_SUM_STEPS = 1 << 15  # sets summing() looks at to find those adding up (its search's bound)
MAX_MELD_CARDS = 12  # the cards unmelded() arranges: each of their subsets is tested
MAX_GROUPS = 10_000  # groups of cards one action's offer may look at (`count`; lint: RL120)
MELD_GROUP = "group"  # unmelded()'s test: its condition called on this local, each group


# --- traversal -------------------------------------------------------------------
# One way to walk the IR, as CPython's ast module has: every analysis iterates
# children with iter_children (or walks with walk, or subclasses Visitor) instead of
# knowing each node's fields.


def iter_fields(node):
    """(name, value) for each field of an IR node but its span, in declared order: what
    the node means, apart from where it was written."""
    for name in _FIELDS[type(node)]:
        yield name, getattr(node, name)


def out_of_family(name: str, owned: bool, what: str, count: int) -> str:
    """The message for an index past a family of `count` zones or counters (`what`),
    `{}` standing for the index: RS211 as a spec loads, RS701 in play."""
    form = f"{name}({'p, ' * owned}{{}})"
    first, last = form.format(0), form.format(count - 1)
    return f"{form} is out of range: the family holds {count} {what}s, {first} to {last}"


def canon(x):
    """An IR value with every source span left out, for comparing meaning."""
    if isinstance(x, tuple):
        return tuple(canon(v) for v in x)
    if is_dataclass(x):
        return (type(x).__name__,) + tuple((name, canon(v)) for name, v in iter_fields(x))
    return x


# Procedure statements that pause the game for a decision (the game loop stops there until
# it is made), beyond `choose` and the chance functions (builtins.CHANCE): name -> who
# decides. The runtime compiles them as ops that ask; every other procedure runs at once.
PAUSES = {
    "react": "the players asked, each in turn (a reaction window)",
    "shuffle": "chance (the zone's new order)",
    "refill": "chance (the refilled zone's new order)",
}

# The functions that read the turns a player is owed (turns are public: read by the
# analyses as such), and the procedures that give or drop them.
READS_OWED = ("extra_turns_owed", "turns_to_skip")
OWES = frozenset({"skip_turn", "skip_turns", "extra_turn", "extra_turns", "cancel_extra_turns"})


def shared_value(values, none):
    """A kind's property (`trump.colour`): the one value every card type of the kind
    gives (`values`, each type's, its none where the type lacks the property), or
    `none` for no kind; None where the types differ (a rank's colour), which has no one
    value to read: refused as the spec loads where the kinds read are known
    (kindprops.py), else as the game runs (RS701)."""
    found = set(values)
    if len(found) > 1:
        return None
    return found.pop() if found else none


def iter_children(node):
    """The IR nodes directly inside node (an expression, statement, branch or rule
    definition, or a tuple of them), in field order."""
    if isinstance(node, tuple):
        for item in node:
            if isinstance(item, _NODES):
                yield item
            elif isinstance(item, tuple):
                yield from iter_children(item)
        return
    for name in _CHILD_FIELDS[type(node)]:
        value = getattr(node, name)
        if isinstance(value, tuple):
            yield from iter_children(value)
        elif value is not None:
            yield value


def walk(node):
    """node (or each node of a tuple) and everything inside it, depth first, in order."""
    stack = list(reversed(node)) if isinstance(node, tuple) else [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
            continue
        yield n
        stack.extend(reversed(list(iter_children(n))))


OF_CARDS = ("cards", "zone", "zones")  # the types of the expressions that give cards


def parts(cards: Expr, of_cards: bool):
    """The nodes of an expression of cards that give cards (of_cards), or the largest
    parts within it that give something else (a zone's owner, how many to take): what
    is judged by place, and what is read as any expression is."""
    stack = [cards]
    while stack:
        n = stack.pop()
        if of_cards:
            yield n
        for child in iter_children(n):
            if getattr(child, "type", None) in OF_CARDS:
                stack.append(child)
            elif not of_cards:
                yield child


def by_place(node) -> bool:
    """Is this node of an expression of cards one that takes them by place alone (a
    zone, its top, the first n, a number), so that how many there are tells nothing of
    what they are? Not a per_card counter's read (`chips(top(pile, 1))`): it reads what
    a card carries (a review's shown value counted the top n of a hidden pile, n a
    hidden card's mark)."""
    if isinstance(node, Counter):
        return node.index is None or node.index.type not in ("cards", "card")
    return isinstance(node, (ZoneRef, Const, Param, Local, Binary)) or (
        isinstance(node, Call) and node.func in ("top", "first", "above", "size")
    )


def body(rule) -> tuple[Stmt, ...]:
    """Every statement a rule or procedure runs, its blocks as one: its effect, and a
    play step's pass_effect; none for a named condition. For an analysis that asks what
    a rule may do, not in what order."""
    return tuple(s for block in iter_blocks(rule) for s in block)


def conjuncts(e):
    """The parts of a condition joined by top-level `and`s, left to right (none for no
    condition)."""
    if isinstance(e, Binary) and e.op == "and":
        yield from conjuncts(e.left)
        yield from conjuncts(e.right)
    elif e is not None:
        yield e


def walk_statements(stmts):
    """Every statement of a block, nested ones included, in order."""
    return (n for n in walk(tuple(stmts)) if isinstance(n, Stmt))


def calls(stmts, proc: str) -> bool:
    """Does a block, nested statements included, call the built-in procedure proc?"""
    return any(isinstance(s, Do) and s.proc == proc for s in walk_statements(stmts))


def called(stmts, procedures) -> list[Procedure]:
    """The procedures (of the tuple `procedures`) a block calls, directly or through
    others, each once, in the order found."""
    by_name, found, todo = {p.name: p for p in procedures}, {}, [tuple(stmts)]
    while todo:
        for s in walk_statements(todo.pop(0)):
            if isinstance(s, ProcedureCall) and s.proc in by_name and s.proc not in found:
                found[s.proc] = by_name[s.proc]
                todo.append(by_name[s.proc].effect)
    return list(found.values())


def windows(stmts, procedures) -> list[Do]:
    """Every `react(...)` a block opens: its own, then those of the procedures it calls
    (called). A window opened in a procedure answers the rule whose effect called it."""
    blocks = (tuple(stmts), *(p.effect for p in called(stmts, procedures)))
    return [
        s for b in blocks for s in walk_statements(b) if isinstance(s, Do) and s.proc == "react"
    ]


def condition_calls(cond) -> list[str]:
    """The names of the named conditions a condition's body calls, in order."""
    return [n.name for n in walk(cond.when) if isinstance(n, ConditionCall)]


def callees_first(conditions) -> list:
    """The named conditions, each after those it calls, for conditions that call one
    another in no circle (RS210); found with a stack of its own, as chains may be long."""
    by_name = {c.name: c for c in conditions}
    order, done = [], set()
    for first in conditions:
        stack = [(first.name, False)]
        while stack:
            name, ready = stack.pop()
            if name in done:
                continue
            if ready:
                done.add(name)
                order.append(by_name[name])
                continue
            stack.append((name, True))
            stack.extend((callee, False) for callee in condition_calls(by_name[name]))
    return order


def iter_blocks(node):
    """The statement blocks directly inside a statement or rule, for an analysis whose
    verdict on a statement depends on its block: an if's two arms, a loop's or choice's
    body, each branch's body, a rule's effect."""
    for name in _BLOCKS[type(node)]:
        yield getattr(node, name)
    for child in iter_children(node):
        if isinstance(child, Branch):
            yield from iter_blocks(child)


class Visitor:
    """Calls visit_<ClassName>(node) for each node it reaches, else generic_visit, which
    visits the children; a method that wants the children visits them itself."""

    def visit(self, node):
        if isinstance(node, tuple):
            for item in node:
                self.visit(item)
            return None
        return getattr(self, "visit_" + type(node).__name__, self.generic_visit)(node)

    def generic_visit(self, node):
        for child in iter_children(node):
            self.visit(child)


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


# --- the spec -------------------------------------------------------------------


@dataclass(frozen=True)
class CardType:
    name: str
    title: str
    count: int
    tags: tuple[str, ...]
    props: tuple[tuple[str, object], ...]
    span: Span
    text: str = ""  # what the card does, in words: public, for tooltips and `help`
    # the `deck.build` family that made it (its index), None for a card written: where it
    # came from, not what it means (left out of comparisons, as a span is)
    family: int | None = field(default=None, metadata={"place": True})


@dataclass(frozen=True)
class Formula:
    """A `deck.build` family's derived property given by a formula over its `each`
    properties (`strength: "value * 10 + ..."`). The cards hold its values, worked out as
    the spec loads; it is kept for lint, which judges its comparisons by the values the
    family's cards take."""

    family: int  # the index of the family, as CardType.family
    name: str
    value: Expr


@dataclass(frozen=True)
class ZoneDef:
    name: str
    per_player: bool
    visibility: str  # hidden | owner | others | public
    ordered: bool
    start: bool  # the whole deck starts here
    refill_from: str | None
    span: Span
    count: int | None = None  # a family of this many zones, name(0) ... name(count - 1)
    refill_keep: int = 0  # cards left on top of refill_from when it refills this zone
    title: str = ""  # a readable name: the compiler fills in the default
    per_team: bool = False  # one per team, written name(p) for p's team
    text: str = ""  # what it is for, in words: public, for the table and `help`
    titles: tuple[str, ...] = ()  # a family's zones each by its own title, by index
    by: str = ""  # a family of a zone for each value of this card property (of kinds)
    count_param: str = ""  # the parameter that sizes the family per player count: count is its most
    shown: bool = True  # shown at the table (false: kept only for the rules)
    spread: bool = False  # an ordered zone the table shows whole, never its size and top

    @property
    def owned(self) -> bool:
        """Written with an owner, `name(p)`: one per seat or one per team."""
        return self.per_player or self.per_team


@dataclass(frozen=True)
class CounterDef:
    name: str
    per_player: bool
    initial: Expr
    span: Span
    match: bool = False  # kept from one game of a match to the next
    title: str = ""  # a readable name: the compiler fills in the default
    per_team: bool = False  # one per team, written name(p) for p's team
    text: str = ""  # what it is for, in words: public, for the table and `help`
    narrate: bool = True  # its changes are narrated (false: a bookkeeping counter)
    shown: bool = True  # shown at the table, and narrated (false: kept only for a rule)
    count: int | None = None  # a family of this many counters, name(0) ... name(count - 1)
    titles: tuple[str, ...] = ()  # a family's counters each by its own title, by index
    by: str = ""  # a family of a counter for each value of this card property (of kinds)
    count_param: str = ""  # the parameter that sizes the family per player count: count is its most
    reset: str = ""  # "turn" or "round": set back to its initial value as each one begins
    per_card: bool = False  # one value on each card, written name(c), set back as it moves


@dataclass(frozen=True)
class MemoryDef:
    """A remembered set of cards, empty at first; `until: turn` forgets it as each turn
    begins."""

    name: str
    per_player: bool
    until: str  # turn | game
    span: Span


@dataclass(frozen=True)
class TeamDef:
    """A fixed partnership: its seats, counted from 0. Its members share the per_team
    zones and counters, see its owner-visible zones, and win together."""

    name: str
    seats: tuple[int, ...]
    span: Span


@dataclass(frozen=True)
class GoalDef:
    """Ordered goals: kinds to collect in a per-player zone, each up to a limit; the
    next goal is the first whose limit is not yet reached."""

    name: str
    zone: str
    order: tuple[tuple[str, int], ...]
    rulings: tuple[str, ...]
    span: Span
    title: str = ""  # a readable name: the compiler fills in the default
    text: str = ""  # what the goals are for, in words: public, for the table and `help`


@dataclass(frozen=True)
class WindowDef:
    """A named reaction window: `react(players, name)` offers only these reactions
    (of those that answer what is being answered)."""

    name: str
    offers: tuple[str, ...]
    span: Span
    title: str = ""  # a readable name: the compiler fills in the default
    text: str = ""  # what it is for, in words: public, for the table and `help`
    prompt: str = ""  # the question it asks, shown in place of the answered rule's


@dataclass(frozen=True)
class ParamDef:
    name: str
    value: object  # the value for a player count without one of its own
    span: Span
    by_players: tuple[tuple[int, object], ...] = ()  # (player count, value), sorted
    title: str = ""  # a readable name: the compiler fills in the default
    text: str = ""  # what it is for, in words: public, for the table and `help`

    def value_for(self, players: int):
        return dict(self.by_players).get(players, self.value)

    def said(self) -> str:
        """Its value as a spec writes it: `7`, `7 (5 with 5 players)` for one that
        depends on the player count, a flag `true` (not Python's `True`)."""
        by = ", ".join(f"{written(v)} with {n} players" for n, v in self.by_players)
        return f"{written(self.value)} ({by})" if by else written(self.value)


def written(v) -> str:
    """A parameter's value as a spec writes it: a flag `true`, not Python's `True`."""
    return str(v).lower() if isinstance(v, bool) else str(v)


@dataclass(frozen=True)
class Step:
    name: str
    effect: tuple[Stmt, ...]
    actions: tuple[str, ...]  # a play step offers these actions
    optional: bool  # a play step may be passed
    rulings: tuple[str, ...]
    span: Span
    repeat: bool = False  # a play step offered again after each play, until a pass
    title: str = ""  # a readable name: the compiler fills in the default
    # offered to each player in turn, play or pass, until all pass in a row
    # ("all_pass") or all but the last to play ("all_but_one"), or, a pass final, until
    # one is left in ("one_left"); None: the current player's
    around: str | None = None
    text: str = ""  # what it is for, in words: public, for the table and `help`
    prompt: str = ""  # the question it asks at a decision, shown above the options
    # a play step offered again after a play only while this holds (bool); None: not
    again_if: Expr | None = None
    lead: bool = False  # an `around` step whose first offer, to the turn's player, has no pass
    # where the step would offer `pass`, it does only while this holds (bool, read with
    # `current` the player asked); None: always
    pass_if: Expr | None = None
    pass_title: str = ""  # what its pass is called at the table (Fold); "": Pass
    when: Expr | None = None  # `if:` the step runs only when this holds as it begins; None: always
    # what a pass at it does, run with `current` the player who passed (an effect step
    # offers no pass: its `effect` and this are never both run)
    pass_effect: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class Action:
    name: str
    card: str | None  # card type, tag or "any" played from the hand; None: no card
    target: str  # none | other | any | card | zone
    condition: Expr | None
    to: Expr | None  # where the played card goes when played
    effect: tuple[Stmt, ...]
    rulings: tuple[str, ...]
    span: Span
    # target: card picks one of these cards, bound as `chosen`; target: zone one of
    # these zones (a family's, type "zones"), bound as `target`
    among: Expr | None = None
    title: str = ""  # a readable name: the compiler fills in the default
    # a group of cards played as one move: (fewest, most; None: as many as the hand
    # holds), bound as `card`; None: one card (or none)
    count: tuple[int, int | None] | None = None
    text: str = ""  # what it is for, in words: public, for the table and `help`
    prompt: str = ""  # the question it asks at a decision, shown above the options
    same: str | None = None  # with count: the card property a group's cards all share
    verb: str = ""  # what a player does with its card, for people: "Discard Coins" ("": play)
    # with a player target: offered without one, for nothing, when no player may be targeted
    without_target: bool = False
    # at a step offered `around`: a play that answers without opening the round again
    # (a call, a check): it counts toward the round's end as a pass does
    settles: bool = False
    # offered only when no action of the step that is no fallback can be played ("draw
    # when you cannot play")
    fallback: bool = False


@dataclass(frozen=True)
class Reaction:
    name: str
    card: str | None  # None: an answer without a card (a claim, a challenge)
    answers: tuple[str, ...]  # action and reaction names
    forced: bool
    condition: Expr | None
    to: Expr | None  # where the answering card goes; None without a card
    effect: tuple[Stmt, ...]
    rulings: tuple[str, ...]
    span: Span
    title: str = ""  # a readable name: the compiler fills in the default
    text: str = ""  # what it is for, in words: public, for the table and `help`
    prompt: str = ""  # the question it asks at a decision, shown above the options


@dataclass(frozen=True)
class Trigger:
    name: str
    each: str | None  # variable bound to each active player, or None
    when: Expr
    effect: tuple[Stmt, ...]
    rulings: tuple[str, ...]
    span: Span
    title: str = ""  # a readable name: the compiler fills in the default
    text: str = ""  # what it is for, in words: public, for the table and `help`
    prompt: str = ""  # the question it asks at a decision, shown above the options
    at: str | None = None  # "turn_end": checked only as a turn ends; None: at once (C-4)
    narrate: bool = True  # its firing is narrated (false: a bookkeeping rule)


@dataclass(frozen=True)
class Procedure:
    """A named effect: its parameters (name, type) in call order bind its only locals."""

    name: str
    title: str
    params: tuple[tuple[str, str], ...]
    effect: tuple[Stmt, ...]
    rulings: tuple[str, ...]
    span: Span
    text: str = ""  # what it is for, in words: public, for the table and `help`
    prompt: str = ""  # the question it asks at a decision, shown above the options


@dataclass(frozen=True)
class RoundPart:
    """A round's `setup` or `scoring`: an effect run as each round begins or ends."""

    name: str  # setup | scoring
    effect: tuple[Stmt, ...]
    rulings: tuple[str, ...]
    span: Span
    title: str = ""  # a readable name: the compiler fills in the default
    text: str = ""  # what it is for, in words: public, for the table and `help`
    prompt: str = ""  # the question it asks at a decision, shown above the options


@dataclass(frozen=True)
class Condition:
    """A named condition: a bool expression over its parameters (name, type); or a
    named value, whose `when` is an int expression (`value:` in the spec), or of its
    `type`, which the table may show (`shown`)."""

    name: str
    title: str
    params: tuple[tuple[str, str], ...]
    when: Expr
    rulings: tuple[str, ...]
    span: Span
    text: str = ""  # what it tests, in words: public, for the table and `help`
    type: str = "bool"  # what a call gives: bool, or a value's type (int unless declared)
    # a named value the table shows (`shown: true`): to EVERY_SEAT, or to OWN_SEAT (a
    # value of one player that reads that player's own cards); "": not shown
    shown: str = ""


# whom the table shows a named value to (Condition.shown): every seat, or its player alone
EVERY_SEAT, OWN_SEAT = "all", "own"


@dataclass(frozen=True)
class Payoff:
    """What player `me` scores when the game ends (chips won, points), within
    [low, high]: `State.returns()`, and so every environment's rewards, instead of 1
    for a win and -1 for a loss."""

    value: Expr
    low: int
    high: int
    span: Span
    zero_sum: bool = False  # the payoffs add up to 0 (checked): OpenSpiel's zero-sum games


@dataclass(frozen=True)
class Rounds:
    """A match played as rounds: each round is set up, played until one of its end
    conditions holds, and scored; then the match ends if a match end holds, else the
    next round begins with `starter` (None: the seat after the last round's starter)."""

    setup: RoundPart
    scoring: RoundPart | None
    end_conditions: tuple[Trigger, ...]
    match_end: tuple[Trigger, ...]
    starter: Expr | None
    rulings: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Spec:
    name: str
    min_players: int
    max_players: int
    default_players: int
    turn_limit: int
    hand: str | None  # the zone cards are played from; None: no action or reaction plays one
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
    span: Span = field(default=Span("<spec>", 1, 1))
    removals: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = ()  # per player count
    goals: tuple[GoalDef, ...] = ()
    evaluation: Expr | None = None  # how well `me` is doing, for the greedy agent
    payoff: Payoff | None = None  # what each seat scores at the end; None: a win is 1, a loss -1
    turn_order: Expr | None = None  # who plays after `current`; None: next(current)
    rounds: Rounds | None = None  # None: the game is one round
    memories: tuple[MemoryDef, ...] = ()
    procedures: tuple[Procedure, ...] = ()
    conditions: tuple[Condition, ...] = ()
    notices: tuple[Diagnostic, ...] = ()  # warnings the spec loaded with (RS212)
    teams: tuple[TeamDef, ...] = ()  # fixed partnerships; none: every seat plays alone
    windows: tuple[WindowDef, ...] = ()  # named reaction windows, each offering some reactions
    setup_text: str = ""  # what the setup does, in words: public, for the table and `help`
    setup_span: Span = field(default=Span("<spec>", 1, 1))  # its `setup:` key
    formulas: tuple[Formula, ...] = ()  # the derived properties given by formula
    kind_props: frozenset[str] = frozenset()  # card properties whose values are kinds
    # where the game-wide values without a span of their own are written, by field name:
    # name, min_players, max_players, default_players, turn_limit, hand (those the spec
    # gives)
    places: tuple[tuple[str, Span], ...] = ()
    player_counts: tuple[int, ...] = ()  # every count the game is for, lowest first
    # `branches:` words for the labelled branches of `choose`, (label, text), public
    branch_texts: tuple[tuple[str, str], ...] = ()

    def teams_for(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Each team's seats in a game of this many players (seats past it left out)."""
        return tuple(tuple(s for s in t.seats if s < players) for t in self.teams)

    def deck_for(self, players: int) -> tuple[tuple[str, int], ...]:
        """(card, count) for a player count, after that count's removals (those of every
        count, under 0, when it has none of its own)."""
        by_count = dict(self.removals)
        removed = dict(by_count.get(players, by_count.get(0, ())))
        return tuple((c.name, c.count - removed.get(c.name, 0)) for c in self.cards)

    def sized_for(self, players: int) -> Spec:
        """This spec with each family sized by a parameter (`count: rows`) sized for a
        player count, its titles cut to match; itself when no family is."""
        if not any(x.count_param for x in (*self.zones, *self.counters)):
            return self
        params = {p.name: p.value_for(players) for p in self.params}

        def sized(x):
            if not x.count_param:
                return x
            n = params[x.count_param]
            return replace(x, count=n, titles=x.titles[:n])

        return replace(
            self, zones=tuple(map(sized, self.zones)), counters=tuple(map(sized, self.counters))
        )

    def zone(self, name: str) -> ZoneDef:
        return next(z for z in self.zones if z.name == name)

    def counter(self, name: str) -> CounterDef:
        return next(c for c in self.counters if c.name == name)

    def player_range(self) -> str:
        """The player counts the game is for, in words: `2 to 6 players`, `exactly 2
        players`, `2 or 4 players`."""
        counts = self.player_counts
        if len(counts) == 1:
            return f"exactly {counts[0]} player{'s' * (counts[0] != 1)}"
        if len(counts) == counts[-1] - counts[0] + 1:
            return f"{counts[0]} to {counts[-1]} players"
        return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]} players"

    def rules(self):
        """(kind, rule) for every rule that runs in play, in spec order: the steps,
        actions, reactions, end conditions and triggers, then a round's parts, end
        conditions and match ends (the setup is `spec.setup`)."""
        r = self.rounds
        for kind, section in (
            ("step", self.turn),
            ("action", self.actions),
            ("reaction", self.reactions),
            ("end", self.end_conditions),
            ("trigger", self.triggers),
            ("round", (r.setup, r.scoring) if r else ()),
            ("round_end", r.end_conditions if r else ()),
            ("match_end", r.match_end if r else ()),
        ):
            for rule in section:
                if rule is not None:
                    yield kind, rule

    def unseen_sources(self, choice: ChooseCard, through: bool = True) -> set[str]:
        """The zones a card choice (`choose(p) c from ...`) may take cards from that its
        chooser may not see: a hidden zone, a seat's `owner` zone but the chooser's own
        written so (`hand(current)` chosen by current), any `others` zone (its owner may
        be the chooser, however written); every zone not public where the cards come
        through a local, a named value or remembered cards. The runtime offers their
        cards by place (a blind pick). `through=False` leaves out those reached through
        a local or a named value: only the zones the choice names (for lint, which
        points at one)."""
        parts = list(walk(choice.source))
        if through and any(
            isinstance(n, (Memory, ConditionCall))
            or (isinstance(n, Local) and n.type in ("cards", "zone"))
            for n in parts
        ):
            return {z.name for z in self.zones if z.visibility != "public"}
        return {
            n.name for n in parts if isinstance(n, ZoneRef) and self.unseen_by(n, choice.player)
        }

    def unseen_by(self, ref: ZoneRef, chooser: Expr, sure: bool = False) -> bool:
        """May the chooser not see the zone ref names? A hidden zone, a seat's `owner`
        zone but the chooser's own written so (`hand(current)` chosen by current), and
        an `others` zone, its owner perhaps the chooser, however written; `sure`: an
        `others` zone only where it is written as the chooser's own (`hand(q)` of a
        local q is most often a hand the chooser sees)."""
        z = self.zone(ref.name)
        own = z.owned and canon(ref.owner) == canon(chooser)
        if z.visibility == "others":
            return own or not sure
        return z.visibility == "hidden" or (z.visibility == "owner" and not own)

    def spread_sources(self, choice: ChooseCard) -> set[str]:
        """The zones a card choice (`choose(p) c from ...`) may offer cards of one type
        from side by side, an option for each zone, labelled with it (`seven from
        discard[1]`): none when its cards come from one zone (`hand(current)`,
        `top(pile, 2)`); the zones it names when it puts zones together (`a + b`, a
        union or another aggregate); every zone when they come through a local, a
        named value or remembered cards."""
        parts = list(walk(choice.source))
        if any(
            isinstance(n, (Memory, ConditionCall))
            or (isinstance(n, Local) and n.type in ("cards", "zone"))
            for n in parts
        ):
            return {z.name for z in self.zones}
        refs = [n for n in parts if isinstance(n, (ZoneRef, Zones))]
        one = len(refs) == 1 and isinstance(refs[0], ZoneRef)
        return (
            set()
            if one and not any(isinstance(n, Aggregate) for n in parts)
            else {n.name for n in refs}
        )

    def checked_kind(self, name: str) -> str:
        """What kind of automatic rule (checked, not played) `name` is, in words:
        "trigger", "end condition", "round end condition" or "match end"."""
        checked = ("end", "trigger", "round_end", "match_end")
        return next(RULE_KINDS[k] for k, r in self.rules() if k in checked and r.name == name)

    def effect_blocks(self) -> tuple:
        """Every block of statements the spec runs: the setup's, the rules', the
        procedures'."""
        return (
            self.setup,
            *(block for _, rule in self.rules() for block in iter_blocks(rule)),
            *(p.effect for p in self.procedures),
        )

    def procedure(self, name: str) -> Procedure:
        return next(p for p in self.procedures if p.name == name)

    def windows_of(self, stmts) -> list[Do]:
        """The reaction windows a block opens, through the procedures it calls (windows)."""
        return windows(stmts, self.procedures)

    def condition(self, name: str) -> Condition:
        return next(c for c in self.conditions if c.name == name)

    def titled(self, text: str) -> list[str]:
        """The card types whose title is `text`, in any case: for a message to a person
        who named a card by the words it is shown with ("10" for card_10)."""
        return [c.name for c in self.cards if c.title.casefold() == text.casefold()]


# Each kind of rule that Spec.rules() yields, as a report names it, in that order.
RULE_KINDS = {
    "step": "step",
    "action": "action",
    "reaction": "reaction",
    "end": "end condition",
    "trigger": "trigger",
    "round": "round",
    "round_end": "round end condition",
    "match_end": "match end",
}


# Read off the declarations once: the node classes iter_children descends into; every
# IR class's fields but the span; those declared to hold nodes (a node, None, or a tuple
# of nodes), which are all iter_children looks at; those holding a block of statements.
_NODES = (
    Expr,
    Stmt,
    Branch,
    Step,
    Action,
    Reaction,
    Trigger,
    CounterDef,
    GoalDef,
    Procedure,
    Condition,
    RoundPart,
    Rounds,
    Payoff,
)
_FIELDS = {
    cls: tuple(f.name for f in fields(cls) if f.name != "span" and not f.metadata.get("place"))
    for base in (*_NODES, CardType, ZoneDef, ParamDef, MemoryDef, TeamDef, WindowDef)
    for cls in [base, *_subclasses(base)]
}


def _holds_nodes(hint) -> bool:
    """Can a field declared with this type hold an IR node?"""
    return (isinstance(hint, type) and issubclass(hint, _NODES)) or any(
        map(_holds_nodes, get_args(hint))
    )


_HINTS = {cls: get_type_hints(cls) for cls in _FIELDS}
_CHILD_FIELDS = {
    cls: tuple(n for n in names if _holds_nodes(_HINTS[cls][n])) for cls, names in _FIELDS.items()
}
_BLOCKS = {
    cls: tuple(n for n in names if _HINTS[cls][n] == tuple[Stmt, ...])
    for cls, names in _FIELDS.items()
}
