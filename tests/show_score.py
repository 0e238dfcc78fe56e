"""A counting game's show scored in plain Python, independent of the language: the
yardstick both tests/valid/the_show.yaml (tests/test_language_v3.py) and
games/cribbage.yaml (tests/test_cribbage.py) are checked against."""

from itertools import combinations


def show(hand: list[tuple[str, int]], starter: tuple[str, int], crib: bool = False) -> int:
    """CR-9, CR-10, CR-13, CR-14 in plain Python, independent of the language."""
    cards = hand + [starter]
    value = {c: min(c[1], 10) for c in cards}
    score = 2 * sum(
        sum(value[c] for c in s) == 15 for k in range(2, 6) for s in combinations(cards, k)
    )
    score += 2 * sum(a[1] == b[1] for a, b in combinations(cards, 2))
    for k in (5, 4, 3):
        runs = [
            s
            for s in combinations(cards, k)
            if len({c[1] for c in s}) == k and max(c[1] for c in s) - min(c[1] for c in s) == k - 1
        ]
        if runs:
            score += k * len(runs)
            break
    if len({c[0] for c in hand}) == 1:
        if starter[0] == hand[0][0]:
            score += 5
        elif not crib:
            score += 4
    score += sum(c[1] == 11 and c[0] == starter[0] for c in hand)
    return score
