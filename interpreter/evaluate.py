"""IR expressions -> Python functions, compiled once per game definition.

Each function takes (game, env): the running game and the effect's local bindings.
Runtime values: int, bool and str as themselves; a player is a seat number; a set of
players a tuple of seats; a zone the index of its slot in game.zones; a set of cards a
list of card ids; a kind the frozenset of card-type indexes it covers.
"""

from __future__ import annotations

from contextlib import contextmanager

from rulespec.lang import ir

from .codegen import CodeWriter, quote
from .runtime import HELPERS, type_counter

# Generated source nests at most this deep (a long chain of `+` nests one level a term);
# deeper parts become functions of their own: Python refuses 200 nested parentheses.
MAX_DEPTH = 50
NAMED_INNER = 2  # aggregates inside one that _by_name tries (each may compile twice)
INLINE_NODES = 40  # the nodes of a named condition's body written in where it is called
PER_SEAT = 8  # at most this many players: an aggregate over them is written once per seat

# the language's constants: what reads the table, not the bindings
_TABLE = {
    "current": "g._current",
    "players": "g.active_players()",
    "seats": "g.seats()",
    "sides": "_sides(g.seats(), _team)",
    "player_count": "g._n",
    "game_index": "g._game_index",
    "round_index": "g._round",
    "turn_number": "g._turn",
    "card_types": "g.game.deck_types",
    "no_kind": "_no_kind",  # the kind that matches no card
    "nobody": "_nobody",  # the player value that is no player (runtime.NOBODY)
}


# aggregates that give cards in the order of their items where values tie
TIED = ("sort", "argmax", "argmin")


def zone_local(e: ir.Expr) -> bool:
    """A zone held by a local: a loop's or a choice's over a family, a parameter."""
    return isinstance(e, ir.Local) and e.type == "zone"


class Compiler:
    """Compiles expressions against one game definition (its zones, counters, kinds).

    The common nodes become Python source, so a whole condition such as
    `count(hand(p), coin) >= target` is one generated function
    (`g._tcount[7 + env['p']][0] >= g._counters[1]`), not a tree of closures: conditions
    run on every trigger check and option, and each call saved counts. An aggregate is
    a comprehension whose loop variable is the bindings (see _src_Aggregate). Rarer
    nodes (goals, card filters) stay closures, called from the generated code."""

    def __init__(self, defs):
        self.defs = defs  # interpreter.rules.Rules
        # the runtime it may call (runtime.py), and the game's teams and the empty kind
        self.ns: dict = {**HELPERS, "_team": defs.team_of, "_no_kind": frozenset()}
        self.depth = 0  # how deep in the source being generated
        self.rule = ""  # the rule being compiled, which names its functions
        self.asker = ""  # what asks its decisions, for a view to name: a step as turn.NAME
        self.listings: list = []  # every function generated, in order: `rulespec compile --show`
        self.tests: dict = {}  # a named condition -> its function (see conditions)
        self.bound: dict[str, int] = {}  # locals known while compiling: written as constants
        self.hoisted: dict[int, str] = {}  # id of a node -> the source of its cached value
        # locals known to hold one card of a type: the type, or a Python name holding it
        self.card_type: dict[str, int | str] = {}
        self.named: dict[str, str] = {}  # locals held in a Python name: an aggregate's item
        self.reads: set[str] = set()  # the locals read by the code compiled so far
        self.per_type: dict = {}  # _per_type's tables, by node and the locals it reads
        self.props: dict = {}  # prop_by_type's tables, by property and default
        self.prop_kinds: dict = {}  # kind_by_type's tables, by property
        self.kind_props: dict = {}  # _kind_prop's tables (as source), by property
        # does the spec write `nobody`? Only then may a player value be nobody, and only
        # then is a player the game keeps or asks checked (seat_source), a player counter
        # read through _who and written through _at_rest
        self.nobody = mentions(
            defs.spec, lambda n: isinstance(n, ir.Local) and n.builtin and n.name == "nobody"
        )

    @contextmanager
    def binding(self, card_type: dict | None = None, **values: int):
        """Compile with these locals fixed (a candidate's target, a rule's player): each
        is written as its value, which any function generated meanwhile may read. With
        `card_type`, locals known to hold one card of a type (the card an option plays):
        what they read of it by type alone (its properties, its kind) is a constant."""
        saved = self.bound, self.card_type
        self.bound = {**self.bound, **values}
        self.card_type = {**self.card_type, **(card_type or {})}
        try:
            yield
        finally:
            self.bound, self.card_type = saved

    @contextmanager
    def within(self, rule: str, asker: str | None = None):
        """Compile for this rule: the functions generated meanwhile are named after it,
        and its decisions asked by `asker` (the rule, unless said otherwise)."""
        saved = self.rule, self.asker
        self.rule, self.asker = rule, asker or rule
        try:
            yield
        finally:
            self.rule, self.asker = saved

    def expr(self, e: ir.Expr):
        """A function (game, env) -> the value of e."""
        return self._apart(self.source, e)

    def cards(self, e: ir.Expr):
        """A function giving a list of card ids, whether e is a zone or a card set."""
        return self._apart(self.cards_source, e)

    def players(self, e: ir.Expr):
        """A function giving a tuple of seats, whether e is one player or a set."""
        return self._apart(self.players_source, e)

    def _apart(self, source, e: ir.Expr):
        """A function of its own for e: it sees none of the values the code being written
        holds in its locals (hoisted parts), only (game, env) and constants."""
        saved, self.hoisted = self.hoisted, {}
        try:
            return self.function(source(e), e.span)
        finally:
            self.hoisted = saved

    def function(self, source: str, span: ir.Span):
        w = CodeWriter("expr", span)
        w.line(f"return {source}", span)
        return self.compile(w)

    def compile(self, w: CodeWriter):
        """The function w wrote, compiled for the current rule, its listing kept."""
        function, listing = w.compile(self.ns, self.rule)
        self.listings.append(listing)
        return function

    def constant(self, value) -> str:
        """Source naming value (see codegen.quote)."""
        return quote(value, self.ns)

    def local(self, name: str) -> str:
        """Source for the binding `name` of the effect's locals."""
        self.reads.add(name)
        return f"env[{self.constant(name)}]"

    def _typed_card(self, e: ir.Expr) -> int | str | None:
        """The type of the one card e holds, when known as the code is compiled: a card
        type, or the Python name that holds it (the item of an aggregate gone through by
        type)."""
        return self.card_type.get(e.name) if isinstance(e, ir.Local) else None

    # --- source -------------------------------------------------------------------

    def source(self, e: ir.Expr) -> str:
        """Python source for e over `g` (the game) and `env` (the bindings)."""
        if id(e) in self.hoisted:
            return self.hoisted[id(e)]
        method = getattr(self, "_src_" + type(e).__name__, None)
        if method is None:  # a rarer node: a closure of its own
            return f"{self.constant(getattr(self, '_' + type(e).__name__)(e))}(g, env)"
        if self.depth >= MAX_DEPTH:  # a function of its own, within Python's nesting limits
            saved, self.depth = self.depth, 0
            try:
                return f"{self.constant(self.expr(e))}(g, env)"
            finally:
                self.depth = saved
        self.depth += 1
        try:
            return method(e)
        finally:
            self.depth -= 1

    def bindings_source(self, params, args) -> str:
        """Source for the locals of a procedure's or condition's body: a dict of each
        parameter to its argument, held as a local of its type holds it: cards as a list
        of their own (the zone they lie in may change before the body reads them),
        players as a tuple."""

        def value(want, e):
            if want == "cards":
                return f"list({self.cards_source(e)})"
            return self.players_source(e) if want == "players" else self.source(e)

        return (
            "{"
            + ", ".join(f"{self.constant(p)}: {value(t, a)}" for (p, t), a in zip(params, args))
            + "}"
        )

    def cards_source(self, e: ir.Expr) -> str:
        return f"g._zones[{self.source(e)}]" if e.type == "zone" else self.source(e)

    def in_deck_order(self, cards: ir.Expr):
        """A function giving the cards as a loop over them goes (ordered_source)."""
        return self._apart(self.ordered_source, cards)

    def ordered_source(self, cards: ir.Expr) -> str:
        """Source for a new sequence of the cards, as a loop over them or a move of them
        goes through them: each part in an order the rules give (a sort, an ordered zone
        from the bottom up, cards taken from one) as it lies, any other in deck order:
        the order cards came into a hand is no part of the game, and cards laid on a
        pile in it would show it. Cards added up with `+` go part by part (as one
        before log format 4); a zone a local holds is ordered or not only in play."""
        if isinstance(cards, ir.Binary) and cards.type == "cards" and self.defs.deck_ties:
            return f"({self.ordered_source(cards.left)} + {self.ordered_source(cards.right)})"
        source = self.cards_source(cards)
        if zone_local(cards):
            ordered = self.constant(self.defs.ordered)
            return f"(list if {ordered}[{self.source(cards)}] else sorted)({source})"
        return f"list({source})" if self.in_order(cards) else f"sorted({source})"

    def in_order(self, cards: ir.Expr) -> bool:
        """Do the cards come in an order the rules give (a `sort`, an ordered zone, cards
        taken from one)? Cards added up with `+` do where each part does (from log
        format 4): a hand's part keeps the order its cards came in otherwise."""
        spec, parts = self.defs.spec, self.defs.deck_ties

        def given(e) -> bool:
            if isinstance(e, ir.Aggregate) and e.func == "sort":
                return True
            if isinstance(e, ir.ZoneRef):
                return spec.zone(e.name).ordered
            if parts and isinstance(e, ir.Binary) and e.type == "cards":
                return given(e.left) and given(e.right)
            return any(given(c) for c in ir.iter_children(e) if isinstance(c, ir.Expr))

        return given(cards)

    def players_source(self, e: ir.Expr) -> str:
        """A set of players, one player as a set of one (never nobody: a set holds
        players)."""
        return f"({self.seat_source(e)},)" if e.type == "player" else self.source(e)

    def seat(self, e: ir.Expr):
        """A function giving the player e is, checked not to be nobody: a chooser, a
        turn's player."""
        return self._apart(self.seat_source, e)

    def seat_source(self, e: ir.Expr) -> str:
        """Source for a player the game keeps or asks (a winner, the next turn's, one told
        a card): nobody stops the game there (runtime._seat), not later elsewhere."""
        return f"_seat({self.source(e)})" if self.nobody else self.source(e)

    def _src_Const(self, e):
        return self.constant(e.value)

    def _src_Param(self, e):
        return self.constant(self.defs.params[e.name])

    def _src_Local(self, e):
        if e.name in self.bound:
            return repr(self.bound[e.name])
        if e.builtin:  # a constant of the language, not a spec's local named alike (RS212)
            return _TABLE[e.name]
        return self.named.get(e.name) or self.local(e.name)

    def _src_Counter(self, e):
        # a per_card counter's value is the card's own, held as a counter holds it
        held = "_marks" if e.name in self.defs.mark_index else "_counters"
        read = f"g.{held}[{self.counter_slot(e)}]"
        if e.type == "player" and self.nobody:  # nobody is held as -1
            return f"_who({read})"
        # a kind is held as its number (Game.kind_number)
        return f"{self.constant(self.defs.kind_values)}[{read}]" if e.type == "kind" else read

    def _src_Memory(self, e):
        return f"list(g._memory[{self.slot(self.defs.memory_index[e.name], e.owner)}])"

    def _src_ZoneRef(self, e):
        zone = self.defs.spec.zone(e.name)
        return f"({self.member(e, self.defs.zone_index[e.name], zone.count, zone.by)})"

    def _src_Zones(self, e):
        count = self.defs.spec.zone(e.name).count
        first = self.slot(self.defs.zone_index[e.name], e.owner, e.name, count)
        return f"range({first}, {first} + {count})"

    def counter_slot(self, e: ir.Counter) -> str:
        """Source for the slot of a counter (of a family, checked in range); of a
        per_card counter, its slot in Table._marks (one card, checked)."""
        if e.name in self.defs.mark_index:
            base, name = self.defs.mark_index[e.name], self.constant(e.name)
            return f"_on_card({base}, {self.cards_source(e.index)}, {name})"
        counter = self.defs.spec.counter(e.name)
        return self.member(e, self.defs.counter_index[e.name], counter.count, counter.by)

    def member(self, e, base: int, count: int | None, by: str = "") -> str:
        """Source for the slot of a zone or counter: its owner's, and in a family of
        `count` its index's, checked in range. A `by` family's index may be a kind: its
        place among the property's values (past them, for a kind none of them)."""
        if count is None:
            return self.slot(base, e.owner, e.name)
        first = self.slot(base, e.owner, e.name, count)  # the family's first of its owner
        what = "counter" if isinstance(e, ir.Counter) else "zone"
        past = ir.out_of_family(e.name, e.owner is not None, what, count)
        index = self.source(e.index)
        if e.index.type == "kind":
            kinds = self.defs.prop_values(by)
            index = f"{self.constant({v: i for i, v in enumerate(kinds)})}.get({index}, {count})"
            values = ", ".join(map(self.defs.kind_name, kinds))
            past = f"{what} family '{e.name}' has no {what} for a kind that is none of the values of '{by}' ({values})"
        return f"_in_family({first}, {count}, {index}, {self.constant(past)})"

    def slot(self, base: int, owner, name: str = "", width: int = 1) -> str:
        """Source for the slot of a zone or counter, per player when it has an owner,
        or per team (the owner's team) when `name` is a per_team one; `width` slots
        apiece for a family each owner has."""
        if owner is None:
            return str(base)
        at = f"_team[{self.source(owner)}]" if name in self.defs.per_team else self.source(owner)
        return f"{base} + {at}" if width == 1 else f"{base} + {at} * {width}"

    def _src_Kind(self, e):
        return self.constant(self.defs.kinds[e.name])

    def _src_Unary(self, e):
        return (
            f"(not {self.source(e.operand)})" if e.op == "not" else f"(-{self.source(e.operand)})"
        )

    def _src_Binary(self, e):
        op = e.op
        if op == "in":
            items = (
                self.players_source(e.right) if e.left.type == "player" else self.source(e.right)
            )
            return f"({self.source(e.left)} in {items})"
        if e.type == "cards":  # cards + cards
            return f"(list({self.cards_source(e.left)}) + list({self.cards_source(e.right)}))"
        if e.type == "cardsets":  # the sets of each, in order
            return f"_sets_added({self.source(e.left)}, {self.source(e.right)})"
        if e.type == "players":  # players + players
            a, b = self.players_source(e.left), self.players_source(e.right)
            return f"_joined(g.seats(), {a}, {b})"
        if e.left.type == "players" or e.right.type == "players":  # compare as sets
            return f"(set({self.players_source(e.left)}) {op} set({self.players_source(e.right)}))"
        a, b = self.source(e.left), self.source(e.right)
        if op in ("//", "%", "*"):
            return f"{ {'//': '_div', '%': '_mod', '*': '_mul'}[op] }({a}, {b})"
        return f"({a} {op} {b})"

    def conditions(self, conditions) -> None:
        """Compile each named condition to a function of its own, those it calls first,
        so that compiling a call never compiles another condition: a chain of them
        costs no Python recursion."""
        for cond in ir.callees_first(conditions):
            with self.within(cond.name):
                self.tests[cond.name] = self._apart(self._value_source(cond), cond.when)

    def _src_ConditionCall(self, e):
        """A call of a named condition: written in (_inline), else its function, with its
        parameters as the only bindings (conditions cannot recurse: RS210)."""
        cond = self.defs.spec.condition(e.name)
        written = self._inline(cond, e.args)
        if written is not None:
            return written
        return (
            f"{self.constant(self.tests[e.name])}(g, {self.bindings_source(cond.params, e.args)})"
        )

    def _inline(self, cond, args) -> str | None:
        """A named condition's body written in, each parameter read as its argument, so
        that what the caller knows of an argument (a constant, a card's type) is known in
        the body, and nothing is copied or called. Only for a small body that calls no
        other condition and cannot fail as a game runs (a failure is placed at the line
        of the code it failed in: the body's own), with arguments cheap to read more
        than once (names, constants, zones) whose locals no aggregate of the body
        rebinds; else None."""
        nodes = list(ir.walk(cond.when))
        if len(nodes) > INLINE_NODES or not all(isinstance(a, _PLAIN_ARGS) for a in args):
            return None
        if any(map(self._may_fail, nodes)):
            return None
        rebound = {n.var for n in nodes if isinstance(n, ir.Aggregate)}
        if any(isinstance(n, ir.ConditionCall) for n in nodes) or any(
            isinstance(n, ir.Local) and n.name in rebound for a in args for n in ir.walk(a)
        ):
            return None
        aliases, types, alias_reads = {}, {}, {}
        saved = self.bound, self.named, self.card_type, self.reads
        for (param, want), a in zip(cond.params, args):
            self.reads = set()
            if want == "cards":
                aliases[param] = f"({self.cards_source(a)})"
            elif want == "players":
                aliases[param] = f"({self.players_source(a)})"
            else:
                aliases[param] = f"({self.source(a)})"
            alias_reads[param] = self.reads
            t = self._typed_card(a)
            if t is not None:
                types[param] = t
        self.bound, self.named, self.card_type, self.reads = {}, aliases, types, saved[3]
        try:
            body = self._value_source(cond)(cond.when)
        finally:
            self.bound, self.named, self.card_type = saved[:3]
        for param, alias in aliases.items():  # the caller reads what the body read of it
            if alias in body:
                self.reads |= alias_reads[param]
        return f"({body})"

    def _value_source(self, cond):
        """How a named condition's body is written: as the set its type says where the
        body is one zone (type cards: a copy of its cards) or one player (players)."""
        if cond.type == "cards" and cond.when.type == "zone":
            return lambda e: f"list({self.cards_source(e)})"
        if cond.type == "players" and cond.when.type == "player":
            return self.players_source
        return self.source

    def _may_fail(self, e) -> bool:
        """Can this node (not those inside it) raise as a game runs: a division, a
        product past the limits, a range too long, a zone of a family out of range, a
        player that may be nobody used as a seat?"""
        if self.nobody and _seats_a_player(e):
            return True
        if isinstance(e, ir.Binary):
            return e.op in ("//", "%", "*")
        if isinstance(e, ir.Call):
            return e.func in ("range", "combinations", "summing", "index_of")
        if isinstance(e, ir.Counter):  # a family's index out of range, not one card
            counter = self.defs.spec.counter(e.name)
            return counter.count is not None or counter.per_card
        return isinstance(e, ir.ZoneRef) and self.defs.spec.zone(e.name).count is not None

    def _src_Ranking(self, e):
        return f"({', '.join(map(self.source, e.parts))},)"  # tuples compare part by part

    def _src_IfExpr(self, e):
        arm = {"cards": self.cards_source, "players": self.players_source}.get(e.type, self.source)
        return f"({arm(e.then)} if {self.source(e.cond)} else {arm(e.orelse)})"

    def _src_Aggregate(self, e):
        """`sum(BODY for env in _each_player(env, VAR, ITEMS) if WHERE)` and the like: the
        comprehension's `env` is the bindings with the variable bound, and its items are
        worked out in the enclosing scope, with the outer bindings."""
        cards = e.over_cards
        items = self.cards_source(e.items) if cards else self.players_source(e.items)
        saved = self.bound, self.named  # the variable is the aggregate's own in its body
        self.bound = {k: v for k, v in saved[0].items() if k != e.var}
        self.named = {k: v for k, v in saved[1].items() if k != e.var}
        try:
            if cards and e.func != "union":
                by_type = self._by_type(e)
                if by_type is not None:
                    return by_type
            if not cards and self._seat_by_seat(e):
                return self._per_seat(e)
            if not cards and _aggregates_in(e) <= NAMED_INNER:
                named = self._by_name(e, items)
                if named is not None:
                    return named
            if cards and e.func in TIED and self.defs.deck_ties:
                items = self.ordered_source(e.items)  # ties in a hand: in deck order
            each = "_each_card" if cards else "_each_player"
            loop = f"for env in {each}(env, {self.constant(e.var)}, {items})"
            return self._aggregate(e, loop, self.local(e.var) + ("[0]" if cards else ""), cards)
        finally:
            self.bound, self.named = saved

    def _seat_by_seat(self, e) -> bool:
        """Can an aggregate over the players be written once per seat (_per_seat)? When
        it goes through every player in play, its value does not depend on their order
        (all, any, sum, count), it holds no other aggregate, and nothing in it can fail
        as a game runs (so the order it is worked out in changes nothing)."""
        items = e.items
        if not (isinstance(items, ir.Local) and items.builtin and items.name == "players"):
            return False
        if e.func not in ("all", "any", "sum", "count") or self.defs.n > PER_SEAT:
            return False
        inner = (e.body,) if e.where is None else (e.body, e.where)
        nodes = list(ir.walk(inner))
        return not any(
            isinstance(n, (ir.Aggregate, ir.ConditionCall)) or self._may_fail(n) for n in nodes
        )

    def _per_seat(self, e) -> str:
        """An aggregate over the players, one term per seat with the variable written as
        the seat's number, a seat out of play left out: no generator, no turn order."""
        terms = []
        for p in range(self.defs.n):
            with self.binding(**{e.var: p}):
                body = self.source(e.body)
                held = f"g._active[{p}]"
                if e.where is not None:
                    held += f" and {self.source(e.where)}"
            if e.func == "all":
                terms.append(f"(not ({held}) or {body})")
            elif e.func == "any":
                terms.append(f"({held} and {body})")
            elif e.func == "sum":
                terms.append(f"(({body}) if {held} else 0)")
            else:  # count
                terms.append(f"(1 if {held} and {body} else 0)")
        joint = {"all": " and ", "any": " or "}.get(e.func, " + ")
        return f"({joint.join(terms)})"

    def _by_name(self, e, items: str) -> str | None:
        """An aggregate over players (or numbers, kinds, sets of cards) as a comprehension
        whose item is a Python name, rather than the bindings rebound for each item (a
        dict, and a generator to rebind it): None when its body or filter read the
        variable through the bindings (code compiled apart, which would not see the name).
        Then it is compiled again: so only for an aggregate with few inside it, or each
        level of a deep nest would compile those inside it twice over."""
        name = f"_v{self.depth}"
        listings, reads, named = len(self.listings), set(self.reads), self.named
        self.reads, self.named = set(), {**named, e.var: name}
        try:
            source = self._aggregate(e, f"for {name} in {items}", name, False)
            if e.var in self.reads or len(self.listings) != listings:
                return None
            return source
        finally:
            del self.listings[listings:]
            self.reads |= reads
            self.named = named

    def _by_type(self, e) -> str | None:
        """An aggregate over cards whose body and filter read only each card's type (its
        properties, its kind, a count of it): their values are tables by card type,
        made now, and a runtime helper's loop goes through the cards. None when they
        read more."""
        body, where = self._per_type(e, e.body), self._per_type(e, e.where)
        if body is None or (e.where is not None and where is None):
            return self._by_item_type(e)
        keep = where or (True,) * len(body)
        cards, func = self.cards_source(e.items), e.func
        holds = tuple(bool(k and b) for k, b in zip(keep, body))  # kept, and its body holds
        if func == "filter":
            return f"_of_types({cards}, g._ctype, {self.constant(holds)})"
        if func == "any":
            return f"_any_by_type({self.constant(holds)}, g._ctype, {cards})"
        if func == "all":  # all hold where none kept fails
            fails = tuple(bool(k and not b) for k, b in zip(keep, body))
            return f"(not _any_by_type({self.constant(fails)}, g._ctype, {cards}))"
        if func in ("sum", "count"):  # an item left out adds nothing
            adds = holds if func == "count" else (b if k else 0 for k, b in zip(keep, body))
            return f"_sum_by_type({self.constant(tuple(map(int, adds)))}, g._ctype, {cards})"
        if func in ("max", "min"):
            b, k = self.constant(body), self.constant(keep)
            return f"_best_by_type({func == 'max'}, {b}, {k}, g._ctype, {cards})"
        return None  # argmax, argmin: they give cards, not values

    def _by_item_type(self, e) -> str | None:
        """An aggregate over cards whose body and filter read each card only by its type,
        with other values: a comprehension over the cards' types, each read as a table
        lookup by type. None when they read the card itself, or need code compiled apart
        (which would not see the comprehension's name)."""
        name = f"_t{self.depth}"
        listings, reads = len(self.listings), set(self.reads)
        self.reads = set()
        try:
            with self.binding(card_type={e.var: name}):
                body = self.source(e.body)
                where = None if e.where is None else self.source(e.where)
            if e.var in self.reads or len(self.listings) != listings:
                return None
        finally:
            del self.listings[listings:]
            self.reads |= reads
        loop = f"for {name} in _types_of(g._ctype, {self.cards_source(e.items)})"
        loop += "" if where is None else f" if {where}"
        if e.func in ("any", "all", "sum"):
            return f"{e.func}({body} {loop})"
        if e.func in ("max", "min"):
            return f"{e.func}(({body} {loop}), default=0)"
        if e.func == "count":
            return f"sum(1 {loop} if {body})"
        return None  # filter, argmax, argmin: they give the cards themselves

    def _per_type(self, e, node) -> tuple | None:
        """node's value for an item of each card type, if its type alone decides it.
        An offer compiles a condition once per card type in hand (52 in a standard
        deck), so the tables are made by a function compiled once for the node, whose
        parameters are the types of the other cards it reads (`c` in `any(d.suit ==
        c.suit for d in layout)`), and kept with the values of the other locals."""
        if node is None:
            return None
        outer = sorted({n.name for n in ir.walk(node) if isinstance(n, ir.Local)} - {e.var})
        typed = [n for n in outer if isinstance(self.card_type.get(n), int)]
        rest = tuple((self.card_type.get(n), self.bound.get(n)) for n in outer if n not in typed)
        key = (id(node), e.var, tuple(typed), rest)
        if key not in self.per_type:
            self.per_type[key] = self._tables(e, node, typed)
        tables = self.per_type[key]
        try:
            return None if tables is None else tables(*(self.card_type[n] for n in typed))
        except Exception:  # it reads the game, the bindings or the card itself
            return None

    def _tables(self, e, node, typed: list[str]):
        """A function of the types of the cards `typed` names to node's value for each
        card type of e's item (None: it cannot be compiled so)."""
        listings, reads, sources = len(self.listings), set(self.reads), []
        params = [f"_o{i}" for i in range(len(typed))]
        try:
            with self.binding(card_type=dict(zip(typed, params))):
                for t in range(len(self.defs.type_names)):
                    with self.binding(card_type={e.var: t}):
                        sources.append(self.source(node))
            # one function of them all: compiling a source costs far more than its values
            source = f"lambda {', '.join(params)}: ({', '.join(sources)},)"
            return eval(source, {**self.ns, "__builtins__": {}})
        except Exception:
            return None
        finally:
            del self.listings[listings:]
            self.reads = reads

    def _aggregate(self, e, loop: str, item: str, cards: bool) -> str:
        """The comprehension of an aggregate, given its loop (`for ITEM in ...`) and the
        source of its item."""
        loop += "" if e.where is None else f" if {self.source(e.where)}"
        func, kind = e.func, "list" if cards else "tuple"
        if func == "union":
            return f"[_card {loop} for _card in {self.cards_source(e.body)}]"
        body = self.source(e.body)
        if func in ("any", "all", "sum"):
            return f"{func}({body} {loop})"
        if func in ("max", "min"):
            return f"{func}(({body} {loop}), default=0)"
        if func == "count":
            return f"sum(1 {loop} if {body})"
        if func == "filter":
            return f"{kind}({item} {loop} if {body})"
        if func == "sort":
            return f"_sorted([({item}, {body}) {loop}], {kind})"
        return f"_best({func[3:]}, [({item}, {body}) {loop}], {kind})"  # argmax, argmin

    def _src_Call(self, e):
        method = getattr(self, "_src_f_" + e.func, None)
        if method is None:
            return f"{self.constant(self._Call(e))}(g, env)"
        return method(e, *e.args)

    def _src_f_size(self, e, x):
        if x.type in ("ints", "kinds"):  # a range, a tuple or a list of them
            return f"len(tuple({self.source(x)}))"
        inner = self.players_source(x) if x.type in ("players", "player") else self.cards_source(x)
        return f"len({inner})"

    def _src_f_count(self, e, cards, kind):
        t, known = self._typed_card(cards), self._known_kind(kind)
        if isinstance(t, int):  # one card of a known type
            if known is not None:
                return "1" if t in known else "0"
            return f"int({t} in {self.source(kind)})"
        if t is not None:  # one card, its type in a Python name
            return f"int({t} in {self.source(kind)})"
        if cards.type != "zone":
            return f"_count_of({self.cards_source(cards)}, g._ctype, {self.source(kind)})"
        row = f"g._tcount[{self.source(cards)}]"  # a zone: from its per-type counts
        if known is None:
            return f"_count_types({row}, {self.source(kind)})"
        types = tuple(sorted(known))
        if len(types) <= 1:
            return f"{row}[{types[0]}]" if types else "0"
        return f"{self.constant(type_counter(types))}({row})"

    def _known_kind(self, kind: ir.Expr) -> frozenset[int] | None:
        """The card types of a kind known as the code is compiled: a named kind, or a
        kind-valued property of a card whose type is known (`card.safe` in the branch
        of an offer for one card type)."""
        if isinstance(kind, ir.Kind):
            return self.defs.kinds[kind.name]
        if isinstance(kind, ir.Call) and kind.func == "prop" and kind.type == "kind":
            cards, key = kind.args
            t = self._typed_card(cards)
            if isinstance(t, int):
                return self.kind_by_type(key.value)[t]
        return None

    def _src_f_of(self, e, cards, kind):
        return f"_of({self.cards_source(cards)}, g._ctype, {self.source(kind)})"

    def _src_f_one(self, e, cards, kind):
        return f"_one({self.cards_source(cards)}, g._ctype, {self.source(kind)})"

    def _src_f_top(self, e, zone, n):
        return f"_top(g._zones[{self.source(zone)}], {self.source(n)})"

    def _src_f_others(self, e, p):
        return f"_others(g.active_players(), {self.seat_source(p)})"

    def _src_f_partners(self, e, p):
        return f"_partners(g.active_players(), {self.seat_source(p)}, _team)"

    def _src_f_team(self, e, p):
        return f"_team_seats(g.seats(), {self.seat_source(p)}, _team)"

    def _src_f_without(self, e, cards, less):
        return f"_without({self.cards_source(cards)}, {self.cards_source(less)})"

    def _src_f_min(self, e, a, b):
        return f"min({self.source(a)}, {self.source(b)})"

    def _src_f_max(self, e, a, b):
        return f"max({self.source(a)}, {self.source(b)})"

    def _src_f_range(self, e, *bounds):
        return f"_range({', '.join(map(self.source, bounds))})"

    def _src_f_zone_of(self, e, cards):
        box = len(self.defs.slots)  # the slot past the zones': no zone of the spec
        return f"_zone_of(g._loc, {self.cards_source(cards)}, {box})"

    def _src_f_index_of(self, e, zone):
        places = self.constant(tuple(s.index for s in self.defs.slots))
        return f"_index_of({places}, {self.source(zone)})"

    def _src_f_above(self, e, cards):
        ordered = self.constant(self.defs.ordered)
        return f"_above(g._zones, g._loc, {ordered}, {self.cards_source(cards)})"

    def _src_f_first(self, e, items, n):
        inner = (
            self.cards_source(items)
            if e.type == "cards"
            else self.players_source(items)
            if e.type == "players"
            else f"tuple({self.source(items)})"  # numbers or kinds
        )
        return f"_first({inner}, {self.source(n)})"

    def _src_f_nth(self, e, items, n):
        if e.type == "player":
            return f"_nth_one({self.players_source(items)}, {self.source(n)}, 'player')"
        if e.type == "int":
            return f"_nth_one(tuple({self.source(items)}), {self.source(n)}, 'number')"
        if e.type == "kind":
            return f"_nth_kind(tuple({self.source(items)}), {self.source(n)})"
        return f"_nth({self.cards_source(items)}, {self.source(n)})"

    def _src_f_combinations(self, e, cards, *sizes):
        return f"_combinations({self.cards_source(cards)}, {', '.join(map(self.source, sizes))})"

    def _src_f_summing(self, e, cards, key, total):
        values = self.constant(self.prop_by_type(key.value, 0))
        return f"_summing({self.cards_source(cards)}, {values}, g._ctype, {self.source(total)})"

    def _src_f_unmelded(self, e, cards, meld, key):
        """The test is the named condition's own function (compiled before any condition
        that calls it), called on each group."""
        values = self.prop_by_type(key.value, 0)
        cond = self.defs.spec.condition(meld.name)
        ((param, _),) = cond.params
        test = self.constant(self.tests[meld.name])
        judged = self.constant({} if self._reads_group_only(cond) else None)
        return (
            f"_unmelded(g, {self.cards_source(cards)}, {test}, {param!r}, "
            f"{self.constant(values)}, g._ctype, {judged})"
        )

    def _reads_group_only(self, cond) -> bool:
        """Does a named condition read nothing but its parameters (no zone, counter,
        remembered card, player or turn), through the conditions it calls too? Its
        verdict is then a function of its arguments' card types."""
        for node in ir.walk(cond.when):
            if isinstance(node, ir.ConditionCall):
                if not self._reads_group_only(self.defs.spec.condition(node.name)):
                    return False
            elif isinstance(node, ir.Local):
                if node.builtin and node.name not in _STATELESS:
                    return False
            elif isinstance(node, ir.Call):
                if node.func not in _PURE:
                    return False
            elif not isinstance(node, _TIMELESS):
                return False
        return True

    def kind_by_type(self, name: str) -> tuple[frozenset[int], ...]:
        """A kind-valued card property's kind for each card type, as its card types."""
        if name not in self.prop_kinds:
            kinds = self.defs.kinds
            values = self.prop_by_type(name, "")
            self.prop_kinds[name] = tuple(kinds.get(v, frozenset()) for v in values)
        return self.prop_kinds[name]

    def prop_by_type(self, name: str, default) -> tuple:
        """A card property's value for each card type (`default` where a type lacks it)."""
        key = (name, type(default), default)  # False == 0: told apart by type
        if key not in self.props:
            self.props[key] = tuple(props.get(name, default) for props in self.defs.props)
        return self.props[key]

    def _src_f_prop(self, e, cards, key):
        default = {"int": 0, "bool": False, "kind": "", "str": ""}[e.type]
        values = self.prop_by_type(key.value, default)
        if e.type == "kind":
            values, default = self.kind_by_type(key.value), frozenset()
        if cards.type == "kind":
            return self._kind_prop(cards, key.value, values, default)
        t = self._typed_card(cards)
        if isinstance(t, int):
            return self.constant(values[t])
        if t is not None:
            return f"{self.constant(tuple(values))}[{t}]"
        table, default = self.constant(tuple(values)), self.constant(default)
        if isinstance(cards, ir.Call) and cards.func == "of":  # the first card of a kind's
            inner, kind = cards.args  # found without making the list of them all
            return (
                f"_prop_of({table}, g._ctype, {self.cards_source(inner)}, {self.source(kind)}, "
                f"{default})"
            )
        return f"_prop({table}, g._ctype, {self.cards_source(cards)}, {default})"

    def _kind_prop(self, kind: ir.Expr, name: str, values: tuple, default) -> str:
        """`k.name` of a kind: looked up by kind, among every kind a game can hold (its
        card types, its tags, no kind), in a table of the value each one's card types
        share; a kind whose types differ in it has none, and says so (RS701)."""
        if name not in self.kind_props:
            shared, refused = {}, {}
            for kind_name, types in zip(self.defs.kind_names, self.defs.kind_values):
                value = ir.shared_value((values[t] for t in types), default)
                if value is not None:
                    shared[types] = value
                    continue
                told = ", ".join(sorted({self._told(values[t]) for t in types}))
                refused.setdefault(  # a kind of two names is told by its first
                    types,
                    f"'{kind_name}.{name}': the cards of '{kind_name}' differ in '{name}' "
                    f"({told}), and a kind's property is the value all its cards share; "
                    f"read it of a card, or of a kind whose cards share it",
                )
            self.kind_props[name] = f"{self.constant(shared)}, {self.constant(refused)}"
        return f"_kind_prop({self.kind_props[name]}, {self.source(kind)})"

    def _told(self, value) -> str:
        """A property's value as a message tells it: a kind by its name."""
        if isinstance(value, frozenset):
            return self.defs.kind_name(value) or "no kind"
        return str(value).lower() if isinstance(value, bool) else str(value)

    def _src_f_values(self, e, key):
        return self.constant(self.defs.prop_values(key.value))

    def _src_f_next(self, e, p):
        return f"g.next_player({self.seat_source(p)})"

    def _src_f_prev(self, e, p):
        return f"g.prev_player({self.seat_source(p)})"

    def _src_f_seat(self, e, n):
        return f"({self.source(n)} % g._n)"

    def _src_f_seat_number(self, e, p):
        return self.seat_source(p)

    def _src_f_extra_turns_owed(self, e, p):
        return f"g._extras[{self.seat_source(p)}]"

    def _src_f_turns_to_skip(self, e, p):
        return f"g._skips[{self.seat_source(p)}]"

    def _src_f_goal_done(self, e, goal, player):
        return f"(not {self.constant(self._f_next_goal(e, goal, player))}(g, env))"

    # --- closures for the rarer nodes --------------------------------------------------------------------

    def _Call(self, e):
        return getattr(self, "_f_" + e.func)(e, *e.args)

    def _src_f_kind_of(self, e, cards):
        t = self._typed_card(cards)
        if isinstance(t, int):
            return self.constant(self.defs.card_types[t])
        if t is not None:
            return f"{self.constant(self.defs.card_types)}[{t}]"
        return f"{self.constant(self._f_kind_of(e, cards))}(g, env)"

    def _f_kind_of(self, e, cards):
        f, kinds, names = self.cards(cards), self.defs.kinds, self.defs.type_names

        def kind_of(g, env):
            cs = f(g, env)
            return kinds[names[g._ctype[cs[0]]]] if cs else frozenset()

        return kind_of

    def _goal(self, goal, player):
        """A goal's zone slot base, its (kinds, their counter, limit) in order, and the
        player's function. A goal counts cards in a zone: from its per-type counts."""
        base, order = self.defs.goals[goal.value]
        return (
            base,
            [(k, type_counter(tuple(sorted(k))), limit) for k, limit in order],
            self.expr(player),
        )

    def _f_next_goal(self, e, goal, player):
        base, order, who = self._goal(goal, player)

        def next_goal(g, env):
            row = g._tcount[base + who(g, env)]
            for kinds, counted, limit in order:
                if counted(row) < limit:
                    return kinds
            return frozenset()

        return next_goal

    def _f_goal_score(self, e, goal, player):
        base, order, who = self._goal(goal, player)

        def goal_score(g, env):
            row = g._tcount[base + who(g, env)]
            return sum(min(limit, counted(row)) for _, counted, limit in order)

        return goal_score


def _aggregates_in(e) -> int:
    """How many aggregates an aggregate's body and filter hold."""
    inner = (e.body,) if e.where is None else (e.body, e.where)
    return sum(isinstance(n, ir.Aggregate) for n in ir.walk(inner))


def _seats_a_player(e) -> bool:
    """Does this node use a player that may be nobody as a seat (a zone's owner,
    next(), a number), not only compare it? Nobody stops the game there
    (runtime._Nobody). A player counter, `nobody` or a call may be nobody; a name
    other than `nobody` is taken not to be (a parameter's argument, `current`), so that
    conditions of a player stay written in: one passed nobody fails at its call."""
    if isinstance(e, ir.Binary) and e.op in ("==", "!=", "in"):
        return e.op == "in" and _may_be_nobody(e.right)
    return any(map(_may_be_nobody, ir.iter_children(e)))


def _may_be_nobody(e) -> bool:
    return e.type == "player" and (not isinstance(e, ir.Local) or e.name == "nobody")


# arguments of a named condition written in: read once per use of their parameter
_PLAIN_ARGS = (ir.Local, ir.Const, ir.Param, ir.ZoneRef, ir.Kind)

# what a condition may hold and still judge unmelded()'s groups by their card types alone
_TIMELESS = (ir.Const, ir.Param, ir.Kind, ir.Aggregate, ir.IfExpr, ir.Unary, ir.Binary)
_STATELESS = {"player_count", "card_types", "no_kind", "nobody"}  # constants of the language
_PURE = {
    "size", "count", "one", "of", "without", "kind_of", "prop", "values", "min", "max",
    "range", "first", "nth", "combinations", "summing", "unmelded", "seat", "seat_number",
    "index_of",
}  # fmt: skip


def mentions(spec: ir.Spec, found) -> bool:
    """Does any expression of the spec hold a node for which found(node) holds?"""
    parts = (
        spec.setup,
        *(rule for _, rule in spec.rules()),
        *(p.effect for p in spec.procedures),
        *(c.when for c in spec.conditions),
        *(c.initial for c in spec.counters),
        spec.evaluation,
        spec.payoff and spec.payoff.value,
        spec.turn_order,
        spec.rounds and spec.rounds.starter,
    )
    return any(found(n) for part in parts if part for n in ir.walk(part))
