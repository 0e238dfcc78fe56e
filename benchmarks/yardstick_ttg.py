"""Take the Gold written by hand for speed: the yardstick of issue 25.

The same game as `games/take_the_gold.yaml` (TTG-1..TTG-15, C-1..C-5) under the same
contract as the interpreter, so that a seed gives the very same game on both sides:

- chance draws from `random.Random(seed)`, each seat's random agent from
  `random.Random(f"{seed}/{seat}")` (as `interpreter/agents.py` `make_agents` seeds it);
- every decision lists its options in the interpreter's order (sorted by label) and the
  random agent picks uniformly among them (C-3); a decision with one option takes no draw;
- a random steal is a chance draw over the card types in the hand, weighted by count,
  types in name order; a shuffle is `rng.shuffle` of the pile, bottom to top.

`randrange(n)` and `shuffle` are written out over `getrandbits`, exactly as CPython's
`Random._randbelow_with_getrandbits` draws: the same numbers from the same stream,
without the method calls. A seat's RNG is seeded when the seat first has a choice to
make (seeding costs more than most turns; a seat with no choice draws nothing).

One function per game, locals, lists of card types (ints, in name order, so that sorting
types sorts their labels), no classes. Cards of one type are alike (C-3): a hand is the
sequence of its card types, in the order the cards came in, which is all the rules read
(a hand discarded whole goes in deck order, and the draw pile after a reshuffle follows
the discard pile's order).
The rare paths (the tie-break of TTG-14, a reshuffle) are helpers; the turn is inline.

Why checks run where they run (C-4: after each effect, winners first, then refills):
the piles never run dry together (at most 8 + 5 * (n - 1) cards in hands and 5 set aside,
against 52), so a hand is never empty when a turn's play is offered and every refill
draws; after the draw step only the drawer can have changed; after a play only the
attacker can have gained cards and only the target lost any; a discard down to 5 changes
nothing a check reads.
"""

from __future__ import annotations

from random import Random

# card types, in name order: gold_coin, kraken, officer, pirate, pirate_captain,
# two_officers, two_pirates
GOLD, KRAKEN, OFFICER, PIRATE, CAPTAIN, TWO_OFFICERS, TWO_PIRATES = range(7)
# the draw pile before the setup's shuffle, bottom to top: the spec's deck in its order
DECK = (
    [GOLD] * 16
    + [PIRATE] * 10
    + [TWO_PIRATES] * 5
    + [OFFICER] * 8
    + [TWO_OFFICERS] * 4
    + [KRAKEN] * 5
    + [CAPTAIN] * 4
)
HAND_LIMIT, COINS_TO_WIN, KRAKEN_LIMIT, TIEBREAK_COINS = 5, 4, 3, 2
TURN_LIMIT = 2000
BITS = [n.bit_length() for n in range(64)]  # getrandbits' width for a draw below n
# the play step's options, for t targets and the attack cards a hand holds (a bit
# each: captain, kraken, pirate, two pirates): (how many, getrandbits' width, where
# "pass" lies, the cards of the options before it (captain_raid, kraken), those after
# it (pirate, two_pirates)); labels sort so: captain_raid, kraken, pass, pirate, two_pirates
PLAYS = [
    [
        (
            (bin(mask).count("1")) * t + 1,
            BITS[bin(mask).count("1") * t + 1],
            bin(mask & 3).count("1") * t,
            tuple(a for b, a in ((1, CAPTAIN), (2, KRAKEN)) if mask & b),
            tuple(a for b, a in ((4, PIRATE), (8, TWO_PIRATES)) if mask & b),
        )
        for mask in range(16)
    ]
    for t in range(6)
]
# the setup's shuffle of 52 cards: (i, bits) for each swap, as Random.shuffle goes
SHUFFLE_52 = [(i, BITS[i + 1]) for i in range(51, 0, -1)]


def shuffle(pile: list, gb) -> None:
    """Random.shuffle(pile), drawing from getrandbits `gb`."""
    for i in range(len(pile) - 1, 0, -1):
        n, k = i + 1, BITS[i + 1]
        j = gb(k)
        while j >= n:
            j = gb(k)
        pile[i], pile[j] = pile[j], pile[i]


def refill(draw: list, discard: list, gb) -> None:
    """TTG-15: the discard pile, shuffled, is the new draw pile (only the successful
    Kraken, set aside, stay out)."""
    draw.extend(discard)
    discard.clear()
    if len(draw) > 1:
        shuffle(draw, gb)


def tiebreak(hands, active, cur, discard):
    """TTG-14, the ship destroyed: the single leader wins ([leader]), or the tied players
    discard their coins and the others are out (returns None)."""
    n = len(hands)
    order = [q % n for q in range(cur, cur + n) if active[q % n]]
    coins = [hands[p].count(GOLD) for p in order]
    top = max(coins)
    leaders = [p for p, c in zip(order, coins) if c == top]
    if len(leaders) == 1:
        return leaders
    for p in order:
        if p in leaders:
            hand = hands[p]
            discard.extend([GOLD] * hand.count(GOLD))
            hand[:] = [c for c in hand if c != GOLD]
        else:
            active[p] = False
    return None


def settle(hands, active, cur, draw, discard, target, gb):
    """All the checks (C-4), as after the tie-break begins: a winner's seat, or -1."""
    n = len(hands)
    while True:
        order = [q % n for q in range(cur, cur + n) if active[q % n]]
        for p in order:
            if hands[p].count(GOLD) >= target:
                return p
        for p in order:
            if not hands[p] and (draw or discard):
                refill_hand(hands[p], draw, discard, gb)
                break
        else:
            return -1


def refill_hand(hand, draw, discard, gb) -> None:
    """TTG-6: an empty hand draws 2."""
    for _ in range(2):
        if not draw:
            refill(draw, discard, gb)
        if draw:
            hand.append(draw.pop())


def play_one(players: int, seed: int) -> tuple[str, tuple[int, ...], int]:
    """One game with random agents: (end reason, winners, turns played)."""
    return game(players, seed)[:3]


def game(players: int, seed: int, turn_limit: int = TURN_LIMIT):  # noqa: C901
    """One game with random agents: (end reason, winners, turns played, the table as it
    ends: its lists, for `zones`)."""
    gb = Random(seed).getrandbits
    seats: list = [None] * players  # each seat's getrandbits, made at its first choice
    draw = DECK[:]
    for i, k in SHUFFLE_52:  # TTG-3
        j = gb(k)
        while j > i:
            j = gb(k)
        draw[i], draw[j] = draw[j], draw[i]
    hands = [[draw.pop(), draw.pop()] for _ in range(players)]
    pop = draw.pop
    discard: list[int] = []
    table = (hands, draw, discard)
    k = BITS[players]
    cur = gb(k)
    while cur >= players:
        cur = gb(k)
    active = [True] * players
    others = [[q for q in range(players) if q != p] for p in range(players)]
    krakens, target, tied = 0, COINS_TO_WIN, False
    nt = players - 1  # targets: every other player (each holds a card when it is asked)
    plays = PLAYS[nt]
    turn = 0
    while True:
        if turn >= turn_limit:
            return "turn_limit", (), turn, table  # C-5
        turn += 1
        hand = hands[cur]
        # draw (TTG-4, TTG-15)
        if not draw:
            refill(draw, discard, gb)
        c = pop()
        hand.append(c)
        if c == GOLD and hand.count(GOLD) >= target:
            return "coin_win", (cur,), turn, table
        # play (TTG-4): options sorted by label: captain_raid, kraken, pass, pirate,
        # two_pirates, each at every other player (every hand holds a card)
        targets = others[cur]
        n, k, split, first, late = plays[
            (CAPTAIN in hand)
            | (KRAKEN in hand) << 1
            | (PIRATE in hand) << 2
            | (TWO_PIRATES in hand) << 3
        ]
        if n == 1:
            i = split  # pass, the only option: no draw
        else:
            g = seats[cur]
            if g is None:
                g = seats[cur] = Random(f"{seed}/{cur}").getrandbits
            i = g(k)
            while i >= n:
                i = g(k)
        if i == split:
            card = -1  # pass
        elif i < split:
            card, t = first[i // nt], targets[i % nt]
        else:
            i -= split + 1
            card, t = late[i // nt], targets[i % nt]
        if card >= 0:
            hand.remove(card)
            th = hands[t]
            take = 0  # random cards the attacker takes from the target
            if card == CAPTAIN:  # TTG-11: pay or refuse
                discard.append(CAPTAIN)
                take = 2
                if GOLD in th:
                    g = seats[t]
                    if g is None:
                        g = seats[t] = Random(f"{seed}/{t}").getrandbits
                    r = g(2)  # randrange(2) draws 2 bits
                    while r >= 2:
                        r = g(2)
                    if r == 0:
                        th.remove(GOLD)
                        hand.append(GOLD)
                        take = 0
            elif card == KRAKEN:  # TTG-10: react with captain_block, or no reaction
                blocked = False
                if CAPTAIN in th:
                    g = seats[t]
                    if g is None:
                        g = seats[t] = Random(f"{seed}/{t}").getrandbits
                    r = g(2)
                    while r >= 2:
                        r = g(2)
                    blocked = r == 0
                if blocked:
                    th.remove(CAPTAIN)
                    discard.append(KRAKEN)
                    discard.append(CAPTAIN)
                else:
                    # in deck order (language.md#ordered); the Kraken goes to the discard
                    # pile, then aside
                    discard.extend(sorted(th, key=DECK.index))
                    th.clear()
                    if not tied:
                        krakens += 1
                        if krakens >= KRAKEN_LIMIT:  # TTG-13, TTG-14
                            won = tiebreak(hands, active, cur, discard)
                            if won is not None:
                                return "ship_destroyed", tuple(won), turn, table
                            target, tied = TIEBREAK_COINS, True
                            others = [
                                [q for q in range(players) if q != p and active[q]]
                                for p in range(players)
                            ]
                            nt = sum(active) - 1
                            plays = PLAYS[nt]
                            p = settle(hands, active, cur, draw, discard, target, gb)
                            if p >= 0:
                                return "coin_win", (p,), turn, table
                            cur = next_active(active, cur)
                            continue
            else:  # TTG-7, TTG-8: Pirate, Two Pirates
                discard.append(card)
                take = 1 if card == PIRATE else 2
                # react: no reaction, officer_block, two_officers_block
                has1, has2 = OFFICER in th, TWO_OFFICERS in th
                if has1 or has2:
                    m = 1 + has1 + has2
                    g = seats[t]
                    if g is None:
                        g = seats[t] = Random(f"{seed}/{t}").getrandbits
                    r = g(2)
                    while r >= m:
                        r = g(2)
                    if r:
                        block = OFFICER if r == 1 and has1 else TWO_OFFICERS
                        th.remove(block)
                        discard.append(block)
                        take = take - 1 if block == OFFICER else 0
            # the steal: card by card, a chance draw over the target's card types,
            # weighted by count, in name order (a single type takes no draw)
            for _ in range(take if take < len(th) else len(th)):
                c = th[0]
                size = len(th)
                if th.count(c) != size:
                    k = BITS[size]
                    r = gb(k)
                    while r >= size:
                        r = gb(k)
                    c = sorted(th)[r]  # the first type whose running count passes r
                th.remove(c)
                hand.append(c)
            # C-4: only the attacker can have gained coins (the Kraken changes none);
            # then the target refills (TTG-6), and may then hold the coins to win
            if hand.count(GOLD) >= target:
                return "coin_win", (cur,), turn, table
            if not th:
                refill_hand(th, draw, discard, gb)
                if th.count(GOLD) >= target:
                    return "coin_win", (t,), turn, table
        # discard down to the hand limit (TTG-5): one choice per card, types by name
        while len(hand) > HAND_LIMIT:
            kinds = sorted(set(hand))
            m = len(kinds)
            if m > 1:
                g = seats[cur]
                if g is None:
                    g = seats[cur] = Random(f"{seed}/{cur}").getrandbits
                k = BITS[m]
                r = g(k)
                while r >= m:
                    r = g(k)
                c = kinds[r]
            else:
                c = kinds[0]
            hand.remove(c)
            discard.append(c)
        cur = next_active(active, cur) if tied else (cur + 1) % players


NAMES = (
    "gold_coin",
    "kraken",
    "officer",
    "pirate",
    "pirate_captain",
    "two_officers",
    "two_pirates",
)


def zones(table) -> dict[str, list[str]]:
    """The table `game` returned, as the interpreter's `observation(None)["zones"]`
    shows it: piles bottom to top, other zones sorted by name."""
    hands, draw, discard = table
    zones = {"draw_pile": [NAMES[t] for t in draw], "discard_pile": [NAMES[t] for t in discard]}
    zones["set_aside"] = ["kraken"] * (len(DECK) - len(draw) - len(discard) - sum(map(len, hands)))
    for p, hand in enumerate(hands):
        zones[f"hand[P{p + 1}]"] = sorted(NAMES[t] for t in hand)
    return zones


def next_active(active: list[bool], p: int) -> int:
    n = len(active)
    for _ in range(n):
        p = (p + 1) % n
        if active[p]:
            return p
    return p


if __name__ == "__main__":  # a whole process, the counterpart of rulespec simulate
    from yardstick_run import main

    main(play_one, "Take the Gold")
