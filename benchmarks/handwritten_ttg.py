"""Take the Gold written by hand in plain Python: the yardstick for the interpreter.

Same rulings (TTG-1..TTG-15, C-1..C-5) and the same random policy (C-3: uniform over
distinct legal options; a decision with one option takes no draw from the agent's
RNG) as `rulespec run games/take_the_gold.yaml --agents random`, so the two must agree
on outcome statistics within sampling error. It shares no code with the engine. Card
names live here because this is game code, outside rulespec/ and interpreter/.
"""

from __future__ import annotations

import random

COIN, PIRATE, TWO_PIRATES, OFFICER, TWO_OFFICERS, KRAKEN, CAPTAIN = range(7)
DECK = (
    [COIN] * 16
    + [PIRATE] * 10
    + [TWO_PIRATES] * 5
    + [OFFICER] * 8
    + [TWO_OFFICERS] * 4
    + [KRAKEN] * 5
    + [CAPTAIN] * 4
)
ATTACKS = (PIRATE, TWO_PIRATES, KRAKEN, CAPTAIN)
HAND_LIMIT, REFILL, COINS_TO_WIN, KRAKEN_LIMIT, TIEBREAK_COINS = 5, 2, 4, 3, 2
TURN_LIMIT = 2000


class Ended(Exception):
    pass


class TakeTheGold:
    def __init__(self, players: int, seed: int):
        self.n = players
        self.rng = random.Random(seed)  # chance (C-2)
        self.agents = [random.Random(f"{seed}/{p}") for p in range(players)]
        self.draw = list(DECK)
        self.discard: list[int] = []
        self.set_aside: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.active = [True] * players
        self.krakens, self.win_target, self.tiebreak = 0, COINS_TO_WIN, False
        self.turn, self.steps = 0, 0
        self.winners: tuple[int, ...] = ()
        self.reason = ""

    # --- decisions ------------------------------------------------------------------

    def pick(self, player: int, options: list):
        """Uniform over distinct options; one option takes no draw (C-3)."""
        self.steps += 1
        if len(options) == 1:
            return options[0]
        return options[self.agents[player].randrange(len(options))]

    def chance_card(self, hand: list[int]) -> int:
        self.steps += 1
        return hand.pop(self.rng.randrange(len(hand)))

    # --- rules --------------------------------------------------------------------

    def order_from(self, p: int) -> list[int]:
        return [q % self.n for q in range(p, p + self.n) if self.active[q % self.n]]

    def draw_one(self, p: int) -> None:
        if not self.draw and self.discard:  # TTG-15
            self.draw, self.discard = self.discard, []
            self.rng.shuffle(self.draw)
        if self.draw:
            self.hands[p].append(self.draw.pop())

    def win(self, players, reason):
        self.winners, self.reason = tuple(sorted(players)), reason
        raise Ended

    def checks(self, current: int) -> bool:
        """State-based checks (C-4) until none fires; True when the turn must end."""
        end_turn = False
        while True:
            for p in self.order_from(current):  # TTG-12, TTG-14
                if self.hands[p].count(COIN) >= self.win_target:
                    self.win([p], "coin_win")
            if self.krakens >= KRAKEN_LIMIT and not self.tiebreak:  # TTG-13, TTG-14
                coins = {p: self.hands[p].count(COIN) for p in self.order_from(current)}
                top = max(coins.values())
                leaders = [p for p, c in coins.items() if c == top]
                if len(leaders) == 1:
                    self.win(leaders, "ship_destroyed")
                for p in self.order_from(current):
                    if p in leaders:
                        self.discard += [c for c in self.hands[p] if c == COIN]
                        self.hands[p] = [c for c in self.hands[p] if c != COIN]
                    else:
                        self.active[p] = False
                self.win_target, self.tiebreak, end_turn = TIEBREAK_COINS, True, True
                continue
            for p in self.order_from(current):  # TTG-6
                if not self.hands[p] and (self.draw or self.discard):
                    for _ in range(REFILL):
                        self.draw_one(p)
                    break
            else:
                return end_turn

    def react(self, target: int, answers: tuple[int, ...]) -> int | None:
        options = sorted({c for c in self.hands[target] if c in answers}) + [None]
        choice = self.pick(target, options)
        if choice is not None:
            self.hands[target].remove(choice)
            self.discard.append(choice)
        return choice

    def take_random(self, frm: int, to: int, n: int) -> None:
        for _ in range(min(n, len(self.hands[frm]))):
            self.hands[to].append(self.chance_card(self.hands[frm]))

    def play_turn(self, p: int) -> None:
        self.draw_one(p)  # TTG-4
        if self.checks(p):
            return
        hand = self.hands[p]
        targets = [q for q in self.order_from(p) if q != p and self.hands[q]]
        options = [(card, t) for card in sorted(set(hand) & set(ATTACKS)) for t in targets]
        choice = self.pick(p, options + [None])
        if choice is not None:
            card, t = choice
            hand.remove(card)
            self.discard.append(card)
            if card == PIRATE:  # TTG-7
                block = self.react(t, (OFFICER, TWO_OFFICERS))
                self.take_random(t, p, 0 if block is not None else 1)
            elif card == TWO_PIRATES:  # TTG-8
                block = self.react(t, (OFFICER, TWO_OFFICERS))
                self.take_random(t, p, {None: 2, OFFICER: 1, TWO_OFFICERS: 0}[block])
            elif card == KRAKEN:  # TTG-10
                if self.react(t, (CAPTAIN,)) is None:
                    self.discard += self.hands[t]
                    self.hands[t] = []
                    self.discard.remove(KRAKEN)
                    self.set_aside.append(KRAKEN)
                    if not self.tiebreak:
                        self.krakens += 1
            else:  # TTG-11
                pay = self.pick(t, ["pay", "refuse"] if COIN in self.hands[t] else ["refuse"])
                if pay == "pay":
                    self.hands[t].remove(COIN)
                    hand.append(COIN)
                else:
                    self.take_random(t, p, 2)
        if self.checks(p):
            return
        while len(hand) > HAND_LIMIT:  # TTG-5
            card = self.pick(p, sorted(set(hand)))
            hand.remove(card)
            self.discard.append(card)
        self.checks(p)

    def play(self) -> TakeTheGold:
        self.rng.shuffle(self.draw)  # TTG-3
        for p in range(self.n):
            for _ in range(2):
                self.hands[p].append(self.draw.pop())
        current = self.rng.randrange(self.n)
        self.steps += 1
        try:
            self.checks(current)
            while True:
                if self.turn >= TURN_LIMIT:
                    self.reason = "turn_limit"  # C-5
                    return self
                self.turn += 1
                self.play_turn(current)
                current = next(
                    q % self.n
                    for q in range(current + 1, current + self.n + 1)
                    if self.active[q % self.n]
                )
        except Ended:
            return self


def play_one(players: int, seed: int) -> tuple[str, tuple[int, ...], int]:
    g = TakeTheGold(players, seed).play()
    return g.reason, g.winners, g.turn
