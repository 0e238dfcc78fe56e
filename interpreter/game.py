"""A running game: state, the one loop that advances it, and the API agents drive.

    game = Game(rules, seed=7)
    while not game.over:
        if game.to_act() == CHANCE: game.sample_chance()
        else: game.apply(agent.choose(observation(game, game.to_act()), game.legal()))

The loop runs effects frame by frame; whenever the frame stack empties (an effect has
resolved completely, RULINGS C-4) it checks end conditions, then triggers, each in spec
order and, for per-player ones, for every active player from the current one round the
table. A trigger whose effect changed nothing is not fired again until the state
changes, and a chain of more than MAX_FIRINGS firings ends the game as `trigger_loop`.
"""
from __future__ import annotations

import random
from operator import itemgetter

from .choices import CHANCE, TERMINAL, ChoicePoint, Option, first_of_each_type, make_option, seat_name
from .codegen import raise_at_spec
from .effects import Frame
from .rules import Rules

MAX_FIRINGS = 1000  # trigger firings between two choice points, or in one turn


class IllegalChoice(ValueError):
    """A choice that is not among the legal options; `code` is stable."""

    def __init__(self, message: str, code: str = "action/invalid_choice"):
        super().__init__(message)
        self.code = code


class Game:
    def __init__(self, rules: Rules, seed: int = 0, *, log: bool = True, setup=None,
                 turn_limit: int | None = None, game_index: int = 0,
                 carried: dict[int, int] | None = None):
        """`game_index` and `carried` (from the previous game's `carry()`) make this game
        the next of a match: counters declared `match: true` keep their values."""
        self.rules, self.n = rules, rules.n
        self.rng = random.Random(seed)           # C-2: the one source of chance
        self.ctype = rules.ctype
        # one list per zone slot, plus a last one, the box, for cards out of play
        self.zones: list[list[int]] = [[] for _ in range(len(rules.slots) + 1)]
        self.loc = [rules.start_slot] * len(rules.ctype)
        self.zones[rules.start_slot] = list(range(len(rules.ctype)))
        self.tcount = [[0] * len(rules.type_names) for _ in self.zones]
        self.tcount[rules.start_slot] = list(rules.deck_counts)
        self.counters = [0] * len(rules.counter_names)
        self.current, self.direction, self.turn = 0, 1, 0
        self.step_index = len(rules.steps)  # no turn has begun: the first step begins one
        self.active = [True] * self.n
        self.turn_limit = turn_limit or rules.spec.turn_limit
        self.stack: list[Frame] = []
        self.pending: ChoicePoint | None = None
        self.over, self.winners, self.reason = False, (), ""
        self.version, self.firings, self.passes = 0, 0, 0
        self.choices = 0  # choices applied, chance included: the game's length in steps
        self.fired: dict[str, int] = {}   # how often each rule fired
        self.played: dict[str, int] = {}  # how often each card type was played
        self.quiet: dict = {}
        self.checked = -1         # the version at the last trigger check that found nothing
        self._order = (None, ())  # cached turn order: ((current, direction, outs), order)
        self.outs = 0             # eliminations so far: the turn order's only other input
        self.dirty = set(rules.all_keys)  # (automatic rule, player) pairs to evaluate
        self.events: list[dict] | None = [] if log else None
        self.game_index = game_index
        for i, f in enumerate(rules.counter_initial):
            self.counters[i] = f(self, {})
        for i, value in (carried or {}).items():
            self.counters[i] = value
        if setup is None:
            self.phase = "setup"
            self.stack.append(Frame(rules.setup, {"__rule__": "setup"}))
        else:  # a scenario lays out the table itself
            setup(self)
            self.recount()
            self.outs = self.active.count(False)
            self.dirty = set(rules.all_keys)
            self.version += 1
            self.phase = "setup"
        self._run()

    # --- the API ------------------------------------------------------------------

    def to_act(self) -> int:
        if self.over:
            return TERMINAL
        return self.pending.player

    def legal(self) -> list[Option]:
        return [] if self.over else list(self.pending.options)

    def legal_labels(self) -> list[str]:
        return [o.label for o in self.legal()]

    def apply(self, choice: Option | str) -> None:
        if self.over:
            raise IllegalChoice("the game is over", "game/over")
        point = self.pending
        if choice.__class__ is not Option or choice not in point.options:
            choice = self._by_label(choice)  # a label, or an option from another list
        self.pending = None
        self.choices += 1
        if point.player != CHANCE and self.events is not None:
            self._log("choice", player=point.player, kind=point.kind, option=choice.label,
                      _vis=frozenset([point.player]) if point.kind == "card" else None)
        self.firings = self.passes = 0
        self._run(point, choice)

    def _by_label(self, choice: Option | str) -> Option:
        options = self.pending.options
        label = choice.label if isinstance(choice, Option) else str(choice)
        option = next((o for o in options if o.label == label), None)
        if option is None:
            raise IllegalChoice(f"'{label}' is not a legal choice for "
                                f"{self._who(self.pending.player)}; legal: "
                                f"{', '.join(o.label for o in options)}")
        return option

    def chance_outcomes(self) -> list[tuple[Option, float]]:
        if self.to_act() != CHANCE:
            raise IllegalChoice("chance is not to act", "chance/not_to_act")
        total = sum(o.weight for o in self.pending.options)
        return [(o, o.weight / total) for o in self.pending.options]

    def sample_chance(self) -> Option:
        """Apply a chance outcome drawn from the game's own RNG (C-2)."""
        if self.over or self.pending.player != CHANCE:
            raise IllegalChoice("chance is not to act", "chance/not_to_act")
        options = self.pending.options
        if len(options) == 1:
            option = options[0]
        else:
            pick = self.rng.randrange(sum(o.weight for o in options))
            for option in options:
                pick -= option.weight
                if pick < 0:
                    break
        self.apply(option)
        return option

    def clone(self, log: bool = True) -> "Game":
        """An independent copy, for search: the rules and compiled code are shared,
        the state (including a paused effect's frames and locals) is copied; with
        log=False the copy keeps no event log (and copies none)."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.zones = [list(z) for z in self.zones]
        g.tcount = [list(row) for row in self.tcount]
        g.dirty = set(self.dirty)
        g.loc, g.counters, g.active = list(self.loc), list(self.counters), list(self.active)
        g.quiet = dict(self.quiet)
        g.events = None if self.events is None or not log else list(self.events)
        g.fired, g.played = dict(self.fired), dict(self.played)
        envs: dict[int, dict] = {}  # frames of one effect share one env: keep it so

        def env_copy(env):
            if env is None:
                return None
            if id(env) not in envs:
                envs[id(env)] = dict(env)
            return envs[id(env)]
        g.stack = []
        for f in self.stack:
            frame = Frame(f.code, env_copy(f.env))
            frame.pc = f.pc
            g.stack.append(frame)
        if self.pending is not None:
            p = self.pending
            g.pending = ChoicePoint(p.player, p.kind, p.options, p.resume, env_copy(p.env))
        return g

    def carry(self) -> dict[int, int]:
        """The counters a match carries into its next game."""
        return {i: self.counters[i] for i in self.rules.match_counters}

    def evaluate(self, player: int) -> int:
        """The spec's evaluation of how well `player` is doing (for the greedy agent)."""
        if self.rules.evaluation is None:
            raise ValueError(f"{self.rules.spec.name} declares no evaluation")
        try:
            return self.rules.evaluation(self, {"me": player})
        except Exception as exc:
            raise_at_spec(exc)

    @property
    def result(self) -> dict:
        return {"over": self.over, "winners": [seat_name(p) for p in self.winners],
                "reason": self.reason, "turns": self.turn}

    # --- state access used by expressions -----------------------------------------

    def recount(self) -> None:
        """Rebuild the per-zone counts of each card type (after a direct layout)."""
        ntypes = len(self.rules.type_names)
        self.tcount = [[0] * ntypes for _ in self.zones]
        for slot, zone in enumerate(self.zones):
            row = self.tcount[slot]
            for c in zone:
                row[self.ctype[c]] += 1

    def active_players(self) -> tuple[int, ...]:
        """Active players in turn order, starting with the current one."""
        key = (self.current, self.direction, self.outs)
        if self._order[0] == key:
            return self._order[1]
        out, p = [], self.current
        for _ in range(self.n):
            if self.active[p]:
                out.append(p)
            p = (p + self.direction) % self.n
        self._order = (key, tuple(out))
        return self._order[1]

    def next_player(self, p: int) -> int:
        for _ in range(self.n):
            p = (p + self.direction) % self.n
            if self.active[p]:
                return p
        return p

    # --- mutations used by effects ------------------------------------------------

    def move_card(self, c: int, dst: int) -> None:
        src, t = self.loc[c], self.ctype[c]
        zone = self.zones[src]
        if zone[-1] == c:
            zone.pop()       # a draw from the top: no search through the pile
        else:
            zone.remove(c)
        self.zones[dst].append(c)
        self.loc[c] = dst
        tcount, watch = self.tcount, self.rules.watch_cards
        tcount[src][t] -= 1
        tcount[dst][t] += 1
        if watch[src][t]:
            self.dirty.update(watch[src][t])
        if watch[dst][t]:
            self.dirty.update(watch[dst][t])
        self.version += 1
        if self.events is not None:
            self._log_move(src, dst, [c])

    def move_cards(self, cards: list[int], dst: int) -> None:
        """Move cards one by one; the log gets one move event per source zone."""
        if self.events is None:
            for c in cards:
                self.move_card(c, dst)
            return
        by_src: dict[int, list[int]] = {}  # where each card was as it moved
        events, self.events = self.events, None
        for c in cards:
            by_src.setdefault(self.loc[c], []).append(c)
            self.move_card(c, dst)
        self.events = events
        for src, moved in by_src.items():
            self._log_move(src, dst, moved)

    def draw(self, src: int, dst: int, n: int) -> None:
        """Move n cards, one at a time, from the top of src to dst, refilling src first
        whenever it declares refill_from and runs out (TTG-15); stops when no card can
        be had."""
        pile = self.zones[src]
        for _ in range(n):
            if not pile and src in self.rules.refill:
                source = self.rules.refill[src]
                if self.zones[source]:
                    self.move_cards(list(self.zones[source]), src)
                    self.shuffle(src)
                    self._log("refill", zone=self.rules.slots[src].label,
                              source=self.rules.slots[source].label)
            if not pile:
                return
            self.move_card(pile[-1], dst)

    def shuffle(self, slot: int) -> None:
        self.rng.shuffle(self.zones[slot])
        self.dirty.update(self.rules.watch_slots[slot])
        self.version += 1
        if self.events is not None:
            self._log("shuffle", zone=self.rules.slots[slot].label)

    def set_counter(self, slot: int, value: int) -> None:
        if self.counters[slot] != value:
            self.counters[slot] = value
            self.dirty.update(self.rules.watch_counters[slot])
            self.version += 1
            if self.events is not None:
                self._log("counter", counter=self.rules.counter_names[slot], value=value)

    def eliminate(self, p: int) -> None:
        if self.active[p]:
            self.active[p] = False
            self.outs += 1
            self.dirty.update(self.rules.all_keys)
            self.version += 1
            self._log("eliminate", player=p)

    def set_current(self, p: int) -> None:
        self.current = p
        self.dirty.update(self.rules.watch_table)
        self.version += 1
        self._log("set_current", player=p)

    def reverse(self) -> None:
        self.direction = -self.direction
        self.dirty.update(self.rules.watch_table)
        self.version += 1
        self._log("reverse", direction=self.direction)

    def enter(self, code: tuple, env: dict) -> None:
        """Start running a block of ops. One op runs at once: the loop would run it next
        anyway, and a frame would be done as it ran; longer blocks get a frame."""
        if len(code) == 1:
            code[0](self, env)
        elif code:
            self.stack.append(Frame(code, env))

    def end_turn(self) -> None:
        self.stack.clear()
        self.step_index = len(self.rules.steps)

    def finish(self, winners: tuple[int, ...], reason: str) -> None:
        if not self.over:
            self.over, self.winners, self.reason = True, tuple(winners), reason
            self.stack.clear()
            self.pending = None
            self._log("end", winners=list(winners), reason=reason)

    def ask(self, player: int, kind: str, options: list[Option], resume, env=None) -> None:
        if len(options) > 1:
            options.sort(key=_label)
        self.pending = ChoicePoint(player, kind, options, resume, env)

    def open_window(self, reactor: int, env: dict) -> None:
        """A reaction window: the reactor answers the pending action or lets it be."""
        by_type = self.rules.answers[env["__action__"]]
        if not by_type:
            return
        options, forced = [], False
        for t, c in first_of_each_type(self.zones[self.rules.hand + reactor], self.ctype, by_type).items():
            for r in by_type[t]:
                if r.condition is None or r.condition(self, dict(env, reactor=reactor, answer=[c])):
                    options.append(make_option((r.labels[t], (r, c, reactor), 1)))
                    forced = forced or r.ir.forced
        if not forced:
            options.append(_NO_REACTION)

        self.ask(reactor, "react", options, _resume_reaction, env)

    # --- the loop -----------------------------------------------------------------

    def _run(self, answered: ChoicePoint | None = None, choice: Option | None = None) -> None:
        """Resume the choice point just answered, if any, then run to the next choice
        point or the end. What generated code raises leaves as a RuleError at the spec's
        place: one try around the loop, which costs nothing until something raises."""
        try:
            if answered is not None:
                answered.resume(self, answered.env, choice)
            self._advance()
        except Exception as exc:
            raise_at_spec(exc)

    def _advance(self) -> None:
        stack = self.stack
        while self.pending is None and not self.over:
            if stack:
                frame = stack[-1]
                code, pc = frame.code, frame.pc
                if pc + 1 < len(code):
                    frame.pc = pc + 1
                else:  # its last op: the frame is done once that has run
                    stack.pop()
                    if pc >= len(code):
                        continue
                code[pc](self, frame.env)
            elif self.checked == self.version or not self.dirty or not self._check_triggers():
                self._next_step()  # nothing changed since the last check, or nothing fired

    def _check_triggers(self) -> bool:
        quiet, version, dirty = self.quiet, self.version, self.dirty
        if self.outs or self.direction != 1:  # some players are out, or play runs the other way
            order = self.rules.checks_in_order(self.active_players())
        else:
            order = self.rules.check_order[self.current]
        for key, t, env, p in order:  # C-4: rules in spec order, players from the current one
            if key not in dirty:
                continue  # nothing it reads has changed since it was found false
            if not t.when(self, env):   # conditions only read env: it is shared
                dirty.discard(key)
                continue
            if quiet.get(key) == version:
                continue
            quiet[key] = version
            _count(self.fired, t.ir.name)
            self.firings += 1
            if self.firings > MAX_FIRINGS:
                self._log("error", message=f"trigger '{t.ir.name}' keeps firing", rule=t.ir.name)
                self.finish((), "trigger_loop")
                return True
            if self.events is not None:
                self._log("trigger", rule=t.ir.name, player=p)
            self.enter(t.effect, dict(env))
            return True
        self.checked = version
        return False

    def _next_step(self) -> None:
        steps, i = self.rules.steps, self.step_index
        if i < len(steps) and self.active[self.current]:  # the common case first
            self.step_index = i + 1
            step = steps[i]
            if step.plays:  # a step has either actions to offer or an effect (RS103)
                self._offer_play(step)
            else:
                self.enter(step.effect, {"__rule__": step.ir.name})
        elif self.outs >= self.n:
            self.finish((), "no_players")  # everyone is out: nobody can take a turn
        elif self.phase == "setup":
            self.phase = "turns"
            self._begin_turn(self.current)
        else:
            self._begin_turn(self.next_player(self.current))

    def _begin_turn(self, p: int) -> None:
        if self.turn >= self.turn_limit:
            self.finish((), "turn_limit")  # C-5
            return
        self.turn += 1
        self.current, self.step_index = p, 0
        self.dirty.update(self.rules.watch_table)
        self.version += 1  # a new current player is a change: conditions may read it
        self.firings = self.passes = 0  # the loop guards count within a turn
        if self.events is not None:
            self._log("turn", player=p)

    def _offer_play(self, step) -> None:
        me, by_type = self.current, step.by_type
        options: list[Option] = []
        for t, c in first_of_each_type(self.zones[self.rules.hand + me], self.ctype, by_type).items():
            for a in by_type[t]:
                self._offer(a, t, c, me, options)
        for a in step.cardless:
            self._offer(a, None, None, me, options)
        if step.ir.optional:
            options.append(_PASS)
        if not options:
            self._log("no_play", player=me, step=step.ir.name)
            return
        self.ask(me, "play", options, _resume_play)

    def _offer(self, a, t, c, me, options) -> None:
        """The options of action a played with card c (of type t), one per target."""
        name, cond, made = a.ir.name, a.condition, self.rules.play_options
        # one scratch binding for the conditions, which only read it; an option keeps
        # plain data, and the effect gets bindings of its own when the option is taken
        env = {"__rule__": name, "__action__": name, "card": [c] if c is not None else []}
        for key, target, suffix in self._targets(a, env, me):
            env[key] = target
            if cond is None or cond(self, env):
                # the same card against the same player is the same option in every game
                option = made.get((name, c, target)) if key == "target" else None
                if option is None:
                    label = name + (f" {self.rules.type_names[t]}" if a.shows_type else "") + suffix
                    option = make_option((label, (a, c, key, target), 1))
                    if key == "target":
                        made[name, c, target] = option
                options.append(option)

    def _targets(self, a, env, me):
        """(binding, value, label suffix) for each target an action may take."""
        kind = a.ir.target
        if kind == "none":
            return _NO_TARGET
        if kind == "other":
            if not self.outs:
                return self.rules.other_targets[me]
            return [("target", p, self.rules.target_suffix[p]) for p in self.active_players() if p != me]
        if kind == "card":  # one option per card type and zone it lies in (C-3)
            seen = {}
            for c in a.among(self, env):
                seen.setdefault((self.ctype[c], self.loc[c]), c)
            slots = self.rules.slots
            return [("chosen", [c], f" {self.rules.type_names[t]} from {slots[z].label}")
                    for (t, z), c in seen.items()]
        return [("target", p, self.rules.target_suffix[p]) for p in self.active_players()]

    # --- the log ------------------------------------------------------------------

    def _who(self, p: int) -> str:
        return "chance" if p == CHANCE else seat_name(p)

    def _log(self, event: str, **fields) -> None:
        if self.events is not None:
            fields["event"], fields["turn"] = event, self.turn
            self.events.append(fields)

    def _log_move(self, src: int, dst: int, cards: list[int]) -> None:
        slots = self.rules.slots
        vis = None
        for s in (slots[src], slots[dst]):
            if s.zone.visibility == "public":
                vis = None
                break
            if s.zone.visibility == "owner":
                vis = (vis or frozenset()) | {s.owner}
        else:
            vis = vis or frozenset()
        self._log("move", src=slots[src].label, dst=slots[dst].label, n=len(cards),
                  cards=[self.rules.type_names[self.ctype[c]] for c in cards], _vis=vis)


_PASS = Option("pass", None)
_NO_TARGET = (("target", None, ""),)
_NO_REACTION = Option("no reaction", None)


def _count(counts: dict, key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


_label = itemgetter(0)  # an option's label


def _resume_play(g: Game, _env, option: Option) -> None:
    if option.value is None:
        g._log("pass", player=g.current)
        return
    a, card, key, target = option.value
    name = a.ir.name
    env = {"__rule__": name, "__action__": name, "card": [card] if card is not None else [],
           key: target}
    _count(g.fired, name)
    if card is not None:
        _count(g.played, g.rules.type_names[g.ctype[card]])
    if g.events is not None:
        g._log("play", player=g.current, action=name, target=env.get("target"),
               card=g.rules.type_names[g.ctype[card]] if card is not None else None)
    if card is not None:
        g.move_card(card, a.to(g, env))
    g.enter(a.effect, env)


def _resume_reaction(g: Game, env: dict, option: Option) -> None:
    if option.value is None:
        return
    r, c, reactor = option.value
    env["reactor"], env["answer"] = reactor, [c]
    _count(g.fired, r.ir.name)
    _count(g.played, g.rules.type_names[g.ctype[c]])
    if g.events is not None:
        g._log("react", player=reactor, reaction=r.ir.name, card=g.rules.type_names[g.ctype[c]])
    g.move_card(c, r.to(g, env))
    g.enter(r.effect, env)
