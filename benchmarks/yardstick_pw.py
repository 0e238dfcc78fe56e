"""Pirates Wild written by hand for speed: the yardstick of issue 25.

The same game as `games/pirates_wild.yaml` (PW-1..PW-13, C-1..C-5), the spec being the
reference, under the same contract as the interpreter, so that a seed gives the very same
game on both sides (benchmarks/yardstick_ttg.py says how: the same RNG streams, the
options of each decision in the interpreter's order, sorted by label, `randrange` and
`shuffle` written out over `getrandbits`, a seat's RNG seeded at its first choice).

One function per game, locals, plain lists and ints, no classes. Card types are ints in
name order, so that sorting types sorts their labels. Cards of one type are alike
(C-3), and no rule reads the order of a hand or a ship (cards leave them one at a time),
so a hand is a list of types and a ship a count per type, with the Trouble on it
(at most one, PW-5) kept apart; the draw and discard piles are lists of types, bottom
to top, whose order the rules do read (the top discard, a new voyage's shuffle).

The options of the play step, in label order: discard_card (each type in the hand),
kraken_raid (each treasure type, from the discard pile then from each other ship),
play_crew, play_daylight, play_remedy (compass, fair_winds), play_safe (captain,
flagship, harbor), play_trouble (each type, at each other player), play_vessel
(galleon, sloop), take_treasure.

Checks (C-4) run where they can find something: a play can complete only its player's
treasures, and the draw pile runs out only at a draw, or stays out with the discard
pile empty until a card is discarded (PW-12).
"""

from __future__ import annotations

from random import Random

(
    CAPTAIN,
    COINS,
    COMPASS,
    CREW,
    DAYLIGHT,
    FAIR_WINDS,
    FLAGSHIP,
    GALLEON,
    HARBOR,
    JEWELS,
    KRAKEN,
    LOST_AT_SEA,
    MAP,
    MUTINY,
    NIGHTFALL,
    SHIPWRECK,
    SKELETON_KEY,
    SLOOP,
    STORM,
    TREASURE_CHEST,
) = range(20)
TYPES = 20
# the spec's deck, in its order (the draw pile before the setup's shuffle, bottom to
# top), and the rulebook's removals for 3 players, twice over for 2 (PW-2)
DECK = (
    (COINS, 18),
    (MAP, 14),
    (JEWELS, 10),
    (SKELETON_KEY, 6),
    (TREASURE_CHEST, 6),
    (DAYLIGHT, 10),
    (CREW, 6),
    (SLOOP, 6),
    (GALLEON, 6),
    (FAIR_WINDS, 4),
    (COMPASS, 4),
    (NIGHTFALL, 4),
    (STORM, 3),
    (LOST_AT_SEA, 3),
    (SHIPWRECK, 3),
    (MUTINY, 3),
    (HARBOR, 1),
    (CAPTAIN, 1),
    (FLAGSHIP, 1),
    (KRAKEN, 5),
)
REMOVED = {
    COINS: 5,
    MAP: 4,
    JEWELS: 3,
    SKELETON_KEY: 2,
    TREASURE_CHEST: 2,
    DAYLIGHT: 2,
    FAIR_WINDS: 1,
    COMPASS: 1,
    SLOOP: 2,
    GALLEON: 2,
    CREW: 2,
}
DEAL_SIZE, TURN_LIMIT = 6, 2000


def deck_for(players: int) -> list[int]:
    times = 4 - players
    return [t for t, k in DECK for _ in range(k - times * REMOVED.get(t, 0))]


DECKS = {n: deck_for(n) for n in (2, 3, 4)}
# the treasures in the order they are taken, with their limits (PW-7)
GOALS = ((COINS, 4), (MAP, 3), (JEWELS, 2), (SKELETON_KEY, 1), (TREASURE_CHEST, 1))
TREASURES = (COINS, JEWELS, MAP, SKELETON_KEY, TREASURE_CHEST)  # in name order
# what a treasure's ship is: Sloop (or Flagship) for the shore, Galleon (or Flagship)
# for the open sea
SHORE = {COINS, MAP}
# Trouble -> its Safe (PW-9; Nightfall has none)
SAFE = {LOST_AT_SEA: CAPTAIN, MUTINY: CAPTAIN, NIGHTFALL: -1, SHIPWRECK: FLAGSHIP, STORM: HARBOR}
TROUBLES = (LOST_AT_SEA, MUTINY, NIGHTFALL, SHIPWRECK, STORM)  # in name order
BITS = [n.bit_length() for n in range(128)]  # getrandbits' width for a draw below n
# the play step's actions, in label order
DISCARD, KRAKEN_RAID, PLAY_CREW, PLAY_DAYLIGHT, PLAY_REMEDY = range(5)
PLAY_SAFE, PLAY_TROUBLE, PLAY_VESSEL, TAKE_TREASURE = range(5, 9)


def next_goal(ship: list[int]) -> int:
    """The treasure to take next (PW-7), or -1 once every limit is filled (PW-13)."""
    for t, limit in GOALS:
        if ship[t] < limit:
            return t
    return -1


def shuffle(pile: list, gb) -> None:
    """Random.shuffle(pile), drawing from getrandbits `gb`."""
    for i in range(len(pile) - 1, 0, -1):
        n, k = i + 1, BITS[i + 1]
        j = gb(k)
        while j >= n:
            j = gb(k)
        pile[i], pile[j] = pile[j], pile[i]


def play_one(players: int, seed: int) -> tuple[str, tuple[int, ...], int]:
    """One game with random agents: (end reason, winners, turns played)."""
    return game(players, seed)[:3]


def game(players: int, seed: int, turn_limit: int = TURN_LIMIT):  # noqa: C901
    """One game with random agents: (end reason, winners, turns played, the table as it
    ends: its lists, for `zones`)."""
    gb = Random(seed).getrandbits
    seats: list = [None] * players  # each seat's getrandbits, made at its first choice
    # setup (PW-3): a random dealer, the shuffle, 6 cards each, one to the discard pile
    k = BITS[players]
    dealer = gb(k)
    while dealer >= players:
        dealer = gb(k)
    draw = DECKS[players][:]
    shuffle(draw, gb)
    hands = [[draw.pop() for _ in range(DEAL_SIZE)] for _ in range(players)]
    discard = [draw.pop()]
    ships = [[0] * TYPES for _ in range(players)]
    table = (hands, ships, draw, discard)
    trouble = [-1] * players  # the Trouble on each ship, or -1
    goal = [COINS] * players  # the treasure each player takes next
    others = [[q for q in range(players) if q != p] for p in range(players)]
    cur = (dealer + 1) % players
    turn = 0
    while True:
        if turn >= turn_limit:
            return "turn_limit", (), turn, table  # C-5
        turn += 1
        hand, ship = hands[cur], ships[cur]
        # draw (PW-4): "draw", "take discard"
        can_draw = bool(draw)
        can_take = bool(discard) and discard[-1] != KRAKEN
        if can_draw and can_take:
            g = seats[cur]
            if g is None:
                g = seats[cur] = Random(f"{seed}/{cur}").getrandbits
            r = g(2)
            while r >= 2:
                r = g(2)
            hand.append(draw.pop() if r == 0 else discard.pop())
        elif can_draw:
            hand.append(draw.pop())
        elif can_take:
            hand.append(discard.pop())
        if not draw and discard:  # PW-12: a new voyage
            draw.extend(discard)
            discard.clear()
            if len(draw) > 1:
                shuffle(draw, gb)
        if not hand:
            cur = (cur + 1) % players
            continue  # nothing to play
        # play (PW-4): the options, in label order (discard_card's: the types held)
        held = set(hand)
        rest = []
        t_cur = trouble[cur]
        rivals = others[cur]
        if KRAKEN in held:  # PW-11
            top = discard[-1] if discard else -1
            for x in TREASURES:
                if top == x:
                    rest.append((KRAKEN_RAID, x, -1))
                for q in rivals:
                    if ships[q][x]:
                        rest.append((KRAKEN_RAID, x, q))
        if CREW in held and (
            (ship[CREW] == 0 and ship[CAPTAIN] == 0) or t_cur == MUTINY
        ):  # PW-5, PW-6
            rest.append((PLAY_CREW, CREW, -1))
        if DAYLIGHT in held and (ship[DAYLIGHT] == 0 or t_cur == NIGHTFALL):
            rest.append((PLAY_DAYLIGHT, DAYLIGHT, -1))
        if t_cur == LOST_AT_SEA and COMPASS in held:
            rest.append((PLAY_REMEDY, COMPASS, -1))
        if t_cur == STORM and FAIR_WINDS in held:
            rest.append((PLAY_REMEDY, FAIR_WINDS, -1))
        for s in (CAPTAIN, FLAGSHIP, HARBOR):  # PW-9: any time
            if s in held:
                rest.append((PLAY_SAFE, s, -1))
        for x in TROUBLES:  # PW-8
            if x in held:
                safe = SAFE[x]
                for q in rivals:
                    if trouble[q] < 0 and (safe < 0 or ships[q][safe] == 0):
                        rest.append((PLAY_TROUBLE, x, q))
        if ship[FLAGSHIP] == 0:  # PW-6
            for v in (GALLEON, SLOOP):
                if v in held and (ship[v] == 0 or t_cur == SHIPWRECK):
                    rest.append((PLAY_VESSEL, v, -1))
        x = goal[cur]
        if (
            x in held
            and t_cur < 0
            and ship[DAYLIGHT]
            and (ship[CREW] or ship[CAPTAIN])
            and (ship[FLAGSHIP] or ship[SLOOP if x in SHORE else GALLEON])
        ):  # PW-7
            rest.append((TAKE_TREASURE, x, -1))
        d = len(held)
        n = d + len(rest)
        if n == 1:
            i = 0
        else:
            g = seats[cur]
            if g is None:
                g = seats[cur] = Random(f"{seed}/{cur}").getrandbits
            k = BITS[n]
            i = g(k)
            while i >= n:
                i = g(k)
        if i < d:  # discard_card
            c = sorted(held)[i]
            hand.remove(c)
            discard.append(c)
        else:
            a, c, q = rest[i - d]
            hand.remove(KRAKEN if a == KRAKEN_RAID else c)
            if a == PLAY_TROUBLE:  # PW-8, PW-10
                safe = SAFE[c]
                if safe >= 0 and safe in hands[q]:  # Arrr!, forced: the Safe goes up
                    hands[q].remove(safe)
                    ships[q][safe] += 1
                    if trouble[cur] < 0 and ship[safe] == 0:  # it lands on the attacker
                        ship[c] += 1
                        trouble[cur] = c
                    else:
                        discard.append(c)  # nobody: it stays on the discard pile
                else:
                    ships[q][c] += 1
                    trouble[q] = c
            elif a == PLAY_SAFE:  # PW-9
                ship[c] += 1
                if t_cur >= 0 and SAFE[t_cur] == c:
                    ship[t_cur] -= 1
                    trouble[cur] = -1
                    discard.append(t_cur)
            elif a == KRAKEN_RAID:  # PW-11: the Kraken is discarded, the treasure taken
                if q < 0:
                    discard[-1] = KRAKEN
                else:
                    victim = ships[q]
                    victim[c] -= 1
                    goal[q] = next_goal(victim)
                    discard.append(KRAKEN)
                ship[c] += 1
                x = goal[cur] = next_goal(ship)
                if x < 0:
                    return "completion", (cur,), turn, table  # PW-13
            elif a == TAKE_TREASURE:
                ship[c] += 1
                x = goal[cur] = next_goal(ship)
                if x < 0:
                    return "completion", (cur,), turn, table  # PW-13
            elif a == PLAY_REMEDY:  # the Trouble to the discard pile, the remedy on top
                ship[t_cur] -= 1
                trouble[cur] = -1
                discard.append(t_cur)
                discard.append(c)
            else:  # a requirement card: Daylight, Crew or a vessel (PW-5, PW-6)
                ship[c] += 1
                if t_cur >= 0 and (
                    (c == DAYLIGHT and t_cur == NIGHTFALL)
                    or (c == CREW and t_cur == MUTINY)
                    or (a == PLAY_VESSEL and t_cur == SHIPWRECK)
                ):
                    ship[t_cur] -= 1
                    trouble[cur] = -1
                    discard.append(t_cur)
                if a == PLAY_VESSEL:  # one vessel: the other one goes
                    old = SLOOP if c == GALLEON else GALLEON
                    if ship[old]:
                        ship[old] -= 1
                        discard.append(old)
                    if ship[c] > 1:  # the same type, played to clear a Shipwreck
                        ship[c] -= 1
                        discard.append(c)
                elif ship[c] > 1:  # one Daylight, one Crew
                    ship[c] -= 1
                    discard.append(c)
        if not draw and discard:  # PW-12
            draw.extend(discard)
            discard.clear()
            if len(draw) > 1:
                shuffle(draw, gb)
        cur = (cur + 1) % players


NAMES = (
    "captain",
    "coins",
    "compass",
    "crew",
    "daylight",
    "fair_winds",
    "flagship",
    "galleon",
    "harbor",
    "jewels",
    "kraken",
    "lost_at_sea",
    "map",
    "mutiny",
    "nightfall",
    "shipwreck",
    "skeleton_key",
    "sloop",
    "storm",
    "treasure_chest",
)


def zones(table) -> dict[str, list[str]]:
    """The table `game` returned, as the interpreter's `observation(None)["zones"]`
    shows it: piles bottom to top, other zones sorted by name."""
    hands, ships, draw, discard = table
    zones = {"draw_pile": [NAMES[t] for t in draw], "discard_pile": [NAMES[t] for t in discard]}
    for p, hand in enumerate(hands):
        zones[f"hand[P{p + 1}]"] = sorted(NAMES[t] for t in hand)
    for p, ship in enumerate(ships):
        zones[f"ship[P{p + 1}]"] = [NAMES[t] for t in range(TYPES) for _ in range(ship[t])]
    return zones


if __name__ == "__main__":  # a whole process, the counterpart of rulespec simulate
    from yardstick_run import main

    main(play_one, "Pirates Wild")
