"""Who takes the next turn: turn passing as one object per game definition.

The table holds the data (whose turn it is, the direction, who is out, each seat's
skips and extra turns, the `set_next` leader, the turn count); this decides, from it,
who plays when a turn ends, as boardgame.io's turn orders do with `first` and `next`:
`first` for the game's (or a round's) first turn, `next` for every other. What they
pick is set out in docs/language.md, "Whose turn is next". The plain case (no turn
order, skip, extra turn or `set_next`: the next active player) takes a short path.
"""

from __future__ import annotations

from .table import add_at

ONCE = ("each_once", "others_once")  # `around` steps that ask each player once


class TurnFlow:
    def __init__(self, game):
        self.n, self.order = game.n, game.turn_order  # the spec's turn order, compiled, or None
        self.steps = len(game.steps)
        self.closing = game.closing

    def _fire_closing(self, s) -> bool:
        """Fire the next rule checked as a turn ends (`at: turn_end`) that holds, in C-4's
        order, after the one fired last at this turn's end: each fires at most once a
        turn. The order round the table is the one as the turn's end began (s._closing:
        the next entry, the current player and the direction then), whatever an effect
        does to them. False when none is left: the next turn's end starts afresh."""
        start, first, way = s._closing or (0, s._current, s._direction)
        for k in range(start, len(self.closing)):
            t, each, place = self.closing[k]
            p, env = None, {}
            if each is not None:
                p = (first + place * way) % self.n
                if not s._active[p]:
                    continue
                env = {each: p}
            if t.when(s, env):
                s._closing = (k + 1, first, way)
                s.fire(t, env, p)
                return True
        s._closing = None
        return False

    def end_turn(self, s) -> None:
        """The turn (or the setup) is over: the next turn begins, or the game ends. First
        the rules checked as a turn ends: while one fires, its effect runs, and the loop
        comes back here."""
        if s._ring is not None:  # cut short (end_turn()): the turn was its player's
            self._close_ring(s)
        if self.closing and s._phase == "turns" and self._fire_closing(s):
            return
        if s._outs >= self.n:
            s.finish((), "no_players")  # everyone is out: nobody can take a turn
        elif s._steered:
            self._steered(s)
        elif s._phase == "setup":  # its first turn: current's, unless the setup put them out
            p = s._current
            s._phase = "turns"
            s._starter = p if s._active[p] else s.next_player(p)
            self.begin(s, s._starter)
        else:  # the next active player: the seat after, unless that one is out
            q = (s._current + s._direction) % self.n
            self.begin(s, q if s._active[q] else s.next_player(q))

    def _steered(self, s) -> None:
        """The next turn when a turn order, a skip, an extra turn or set_next has a say.
        A player who is out is passed over as if they had taken the turn; one with a
        turn to skip misses it, which counts as a turn. Either way the search goes on
        from them."""
        p, first = s._current, s._phase == "setup"
        opening, s._phase, outs = first, "turns", 0
        while True:
            q = self.first(s, p) if first else self.next(s, p)
            if not s._active[q]:
                outs += 1
                if outs <= self.n:
                    p, first = q, False
                    continue
                q = s.next_player(q)  # an order that picks only players who are out
            if not s._skips[q]:
                break
            if s._turn >= s._turn_limit:
                s.finish((), "turn_limit")
                return
            s._skips = add_at(s._skips, q, -1)
            s._turn += 1
            s._log("skipped", player=q)
            p, first = q, False
        s._steered = (
            self.order is not None or s._leader is not None or any(s._skips) or any(s._extras)
        )
        if opening:  # the round's (or game's) first turn: who started it, for `starter`
            s._starter = q
        self.begin(s, q)

    def first(self, s, p: int) -> int:
        """The first turn after a setup: set_next's player if the setup called it, else
        `current` (p)."""
        if s._leader is not None:
            q, s._leader = s._leader, None
            return q
        return p

    def next(self, s, p: int) -> int:
        """The turn after p's: p's extra turn, else set_next's player, else the order's pick."""
        if s._extras[p] and s._active[p]:
            s._extras = add_at(s._extras, p, -1)
            return p
        if s._leader is not None:
            q, s._leader = s._leader, None
            return q
        if self.order is None:
            return s.next_player(p)
        s._current = p  # what `current` reads in the order; the next turn sets it anyway
        return self.order(s, {})

    def begin(self, s, p: int) -> None:
        if s._turn >= s._turn_limit:
            s.finish((), "turn_limit")  # C-5
            return
        game = s.game
        s._turn += 1
        s._current, s._step_index, s._again, s._between = p, 0, False, None
        if game.turn_memories:
            s.forget_turn_memories()
        s._dirty |= game.watch_table
        s._version += 1  # a new current player is a change: conditions may read it
        s._firings = s._passes = s._turn_decisions = s._calls = 0  # the loop guards, per turn
        if s._events is not None:
            s._log("turn", player=p)
        if game.turn_resets:  # told after the turn begins, as its first changes
            s.reset_counters(game.turn_resets)
        if game.mark_turn_resets:
            s.reset_marks(game.mark_turn_resets)

    # --- a step offered round the table (`around`) ---------------------------------

    def ring(self, s, step) -> None:
        """The next offer of a step offered round the table: to the turn's player as the
        step begins, then to each active player after the one last asked, in the
        direction of play, until all have passed in a row (`all_pass`), or, once someone
        has played, all but the last to play (`all_but_one`; all, once the last to play
        is out); at `one_left` a pass is
        final (the player is asked no more), and the step ends once every player still
        in but the last to play has settled since that play (one left, with no action
        that `settles`), or, nobody having played, once every player still in has
        settled (none left). A play of an action that `settles` (a call) counts as a
        pass does, without taking its player out. The player asked is `current` while
        asked and while their play resolves; the turn's player is `current` again when
        the step is over. A player with nothing to play who may pass is asked, pass its
        one option (State.offer_around); one who may not passes at once. At a step that
        `lead`s, the first offer has no pass: the turn's player leads. At `each_once` and
        `others_once` each active player is asked once, in turn (the turn's player first,
        or not at all), a play opening nothing again. The ring is (the turn's player, the
        player last asked, passes in a row and the last to play, None until one has (not
        kept at `one_left`, which reads neither), and at `one_left` (the players out,
        those who settled since the last play, the last to play: None until one has), at the
        `_once` steps the players asked, else None)."""
        first = s._ring is None
        once = step.around in ONCE
        if first:
            owner = s._current
            bidding = (frozenset(), frozenset(), None) if step.around == "one_left" else None
            s._ring = (owner, owner, 0, None, frozenset() if once else bidding)
            asking = owner if s._active[owner] else s.next_player(owner)
        elif once:
            owner, last = s._ring[:2]
            asking = s.next_player(last)
        else:
            owner, last, passes, played, bidding = s._ring
            if bidding is not None:
                out, settled, leader = bidding
                still = {p for p in range(self.n) if s._active[p] and p not in out}
                # nobody left to answer the last to play: it left the table, say
                if still - {leader} <= settled or (leader is not None and len(still) <= 1):
                    self._close_ring(s)
                    return
                asking = s.next_player(last)
                while asking in out:
                    asking = s.next_player(asking)
            else:
                if passes and not s._active[last]:  # who passed went out with it (its
                    # pass_effect's sit_out): a pass of a player still in no more
                    passes -= 1
                    s._ring = (owner, last, passes, played, bidding)
                left = self.n - s._outs
                # at all_but_one the last to play need not pass, unless they are out
                # (gone out with that play): then every player still in must
                if passes >= left or (
                    step.around == "all_but_one"
                    and played is not None
                    and s._active[played]
                    and passes >= left - 1
                ):
                    self._close_ring(s)
                    return
                asking = s.next_player(last)
        if once:  # the next not yet asked (a reverse() may have turned play back; the
            # turn's player counts as asked at others_once)
            asked = s._ring[4] | ({owner} if step.around == "others_once" else set())
            for _ in range(self.n):
                if asking not in asked:
                    break
                asking = s.next_player(asking)
            else:  # everyone still in has been asked
                self._close_ring(s)
                return
            s._ring = (*s._ring[:4], s._ring[4] | {asking})
        self._ask(s, asking)
        self.offer(s, step, leads=first and step.ir.lead)

    def offer(self, s, step, leads: bool) -> None:
        """Offer the step to the player asked (one who may neither play nor pass passes
        at once); the step is offered again, its index stepped back, until the players
        pass."""
        if not s.offer_around(step, leads):
            self.answered(s, False)
        s._step_index -= 1

    def _ask(self, s, p: int) -> None:
        """p is asked: `current` while they are."""
        owner, _, passes, played, bidding = s._ring
        s._ring = (owner, p, passes, played, bidding)
        if s._current != p:
            self._make_current(s, p)

    def answered(self, s, played: bool, settled: bool = False) -> None:
        """The player asked played (the passes in a row start again), settled (a play
        counted as a pass), or passed (and is out, at `one_left`)."""
        owner, last, passes, latest, bidding = s._ring
        if isinstance(bidding, frozenset):  # a `_once` step: who was asked is all it counts
            return
        if bidding is not None:  # its own counts: the passes in a row mean nothing here
            out, done, leader = bidding
            if played:
                bidding = (out, frozenset(), last)
            else:
                bidding = (out, done | {last}, leader) if settled else (out | {last}, done, leader)
            s._ring = (owner, last, passes, latest, bidding)
        elif played:
            s._ring = (owner, last, 0, last, None)
        else:
            s._ring = (owner, last, passes + 1, latest, None)

    def _close_ring(self, s) -> None:
        owner = s._ring[0]
        s._ring = None
        if s._current != owner:
            self._make_current(s, owner)

    @staticmethod
    def _make_current(s, p: int) -> None:
        s._current = p
        s._dirty |= s.game.watch_table
        s._version += 1  # conditions may read `current`

    def end_now(self, s) -> None:
        """`end_turn()`: nothing more of this turn runs."""
        s._stack.clear()
        s._step_index = self.steps

    def end_round(self, s, rule: str) -> None:
        """A round end condition holds: the turn ends with the round (see rounds.py).
        What the round's play left pending ends with it: skips and extra turns are
        dropped, and play goes forward again (a Reverse or a Draw Two played last does
        not carry into the next deal), before the condition's effect and the scoring,
        which may give the next round a skip, an extra turn or a reverse()."""
        s._step_index, s._between = self.steps, rule
        if s._ring is not None:  # the round is scored with the turn's player current
            self._close_ring(s)
        s._log("round_end", round=s._round + 1, rule=rule)
        s._skips = s._extras = (0,) * s._n
        if s._direction != 1:
            s.reverse()  # logged, so that each seat is told play turned back

    def next_round(self, s, starter) -> None:
        """The next round begins, for the seat `starter` (a compiled expression) gives,
        or without one for the seat after the last round's starter; the next seat in
        when that one is out. A set_next of the last round is dropped: the round's first
        turn is its starter's (or the player its setup names)."""
        s._round += 1
        s._round_starts += (s._turn,)
        s._ring = None
        p = starter(s, {}) if starter is not None else s.next_player(s._starter)
        s._current = p if s._active[p] else s.next_player(p)
        s._leader, s._closing = None, None  # a round ended as a turn ended: the next starts afresh
        s._steered = self.order is not None or any(s._skips) or any(s._extras)
        s._phase, s._step_index = "setup", self.steps  # the round's setup, then its first turn
        s._between = "rounds.setup"
        s._dirty = s.game.all_keys  # round_index and current: anything may read them
        s._version += 1
        s._log("round", round=s._round + 1)
