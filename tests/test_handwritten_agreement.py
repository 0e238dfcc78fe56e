"""The interpreter and the hand-written Take the Gold (benchmarks/) play the same game:
over 20,000 seeded random games each, their end reasons and mean length agree within
sampling error. A test of both: a rule misread on either side shows up here. Half a
minute of two cores, and fewer games would blunt it: it runs with the slow tests."""

import sys
from collections import Counter

import pytest
from gamekit import ROOT

from rulespec import load_spec
from rulespec.analysis.simulation import job, simulate
from rulespec.analysis.stats import fisher_exact, welch

sys.path.insert(0, str(ROOT / "benchmarks"))
from handwritten_ttg import play_one

GAMES = 20_000
ALPHA = 0.001  # a real disagreement is far below this; chance alone rarely is


@pytest.mark.slow
def test_outcomes_agree_with_the_hand_written_implementation():
    spec = load_spec(ROOT / "games" / "take_the_gold.yaml")
    ours = simulate(job(spec, 4), GAMES, seed=0, workers=2)  # a tally of the games
    theirs = [play_one(4, seed) for seed in range(100_000, 100_000 + GAMES)]
    for reason in ("coin_win", "ship_destroyed", "turn_limit"):
        k1 = ours.reasons[reason]
        k2 = sum(r == reason for r, _, _ in theirs)
        assert fisher_exact(k1, GAMES, k2, GAMES) > ALPHA, (reason, k1, k2)
    p = welch(ours.lengths, Counter(t for _, _, t in theirs))
    assert p > ALPHA, p
    for seat in range(4):  # first player is random, so seats win alike on both sides
        k1 = ours.won({seat})
        k2 = sum(seat in w for _, w, _ in theirs)
        assert fisher_exact(k1, GAMES, k2, GAMES) > ALPHA, (seat, k1, k2)
