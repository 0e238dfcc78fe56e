"""The statistics of `simulate` and `diff --simulate` against reference values.

The references were computed once with scipy 1.17.1 (`scipy.stats.fisher_exact`,
`ttest_ind(..., equal_var=False)`, `t.sf`, `t.ppf`, `beta.cdf`, `chi2.sf`, `chisquare`) and are kept here so
the suite needs no scipy; test_against_scipy repeats the comparison on random inputs
when scipy is installed.
"""

import math
import random
import statistics
from collections import Counter

import pytest

from rulespec.analysis import stats

# two samples of 10 game lengths: the normal approximation said p = 0.026, Student's t
# at the Welch-Satterthwaite df (15.36) says 0.041
SHORT = Counter([8, 11, 12, 13, 18, 18, 22, 22, 22, 22])
LONG = Counter([11, 15, 20, 21, 21, 23, 27, 27, 34, 39])


@pytest.mark.parametrize(
    "k1, n1, k2, n2, p",
    [
        (0, 100, 4, 100, 0.12124072137336428),  # the pooled z-test said 0.043
        (3, 10, 9, 12, 0.0835573095635015),
        (733, 1000, 962, 1000, 3.002463417592745e-50),
        (1, 1, 0, 1, 1.0),  # n = 1
        (0, 50, 0, 50, 1.0),  # all zero
        (50, 50, 50, 50, 1.0),  # all one
        (30, 100, 30, 100, 1.0),  # identical: exactly 1, not a rounded sum
        (0, 0, 3, 10, 1.0),  # an empty side tests nothing
    ],
)
def test_fisher_exact(k1, n1, k2, n2, p):
    assert stats.fisher_exact(k1, n1, k2, n2) == pytest.approx(p, rel=1e-9)
    assert stats.fisher_exact(k2, n2, k1, n1) == pytest.approx(p, rel=1e-9)  # symmetric


def test_welch_uses_student_t():
    assert stats.welch(SHORT, LONG) == pytest.approx(0.04110352645353057, rel=1e-9)
    assert stats.welch(
        Counter([12, 15, 9, 14, 11, 13, 10, 16, 12, 14]),
        Counter([15, 13, 17, 14, 18, 12, 16, 15, 19, 14]),
    ) == pytest.approx(0.013958928238141325, rel=1e-9)


@pytest.mark.parametrize(
    "xs, ys, p",
    [
        ([14, 14, 14], [14, 14, 14], 1.0),  # identical, without spread
        (SHORT, SHORT, 1.0),  # identical, with spread
        ([0, 0, 0], [0, 0, 0], 1.0),  # all zero
        ([10, 10], [12, 12], 0.0),  # no spread, different means: certain
        ([14], LONG, 1.0),  # n = 1 tests nothing
        ([], [], 1.0),
    ],
)
def test_welch_edges(xs, ys, p):
    assert stats.welch(Counter(xs), Counter(ys)) == p


@pytest.mark.parametrize(
    "t, df, p",
    [
        (2.5, 4, 0.06676654481198814),
        (1.0, 1, 0.5000000000000001),
        (3.3, 17.8, 0.004028224204206455),
        (0.0, 7, 1.0),
    ],
)
def test_t_two_sided(t, df, p):
    assert stats.t_two_sided(t, df) == pytest.approx(p, rel=1e-9)


@pytest.mark.parametrize(
    "df, q", [(1, 12.706204736174694), (9, 2.262157162798205), (1000, 1.9623390808264083)]
)
def test_t_quantile(df, q):
    assert stats.t_quantile(0.975, df) == pytest.approx(q, rel=1e-9)


def test_betainc():
    assert stats.betainc(2.5, 4, 0.3) == pytest.approx(0.3521975859067672, rel=1e-12)
    assert (stats.betainc(2, 3, 0.0), stats.betainc(2, 3, 1.0)) == (0.0, 1.0)


@pytest.mark.parametrize(
    "ps, adjusted",
    [
        ([0.01, 0.04, 0.03, 0.005], [0.03, 0.06, 0.06, 0.02]),  # R: p.adjust(ps, "holm")
        ([0.5, 0.2, 0.9], [1.0, 0.6, 1.0]),  # capped at 1, then monotone
        ([0.0, 0.0, 1.0], [0.0, 0.0, 1.0]),
        ([0.3], [0.3]),
        ([], []),
    ],
)
def test_holm(ps, adjusted):
    assert stats.holm(ps) == pytest.approx(adjusted, rel=1e-12)


def test_intervals_stay_inside_what_is_possible():
    assert stats.wilson(0, 10)["low"] == 0.0 and stats.wilson(10, 10)["high"] == 1.0
    assert stats.wilson(0, 0) == {"share": 0.0, "low": 0.0, "high": 0.0}
    # ten games at the turn limit but one: the t interval would run past 30
    near = stats.mean_interval(Counter({29: 1, 30: 9}), 1, 30)
    assert near == {"mean": 29.9, "low": 29.67, "high": 30}
    # 16.8 +- t(0.975, 9) s / sqrt(10) = 2.262 * 5.371 / 3.162, wider than 1.96's 13.47..20.13
    wide = stats.mean_interval(SHORT, 1, 100)
    assert (wide["low"], wide["high"]) == (12.96, 20.64)
    assert stats.mean_interval(Counter([7]), 1, 30) == {
        "mean": 7,
        "low": 1,
        "high": 30,
    }  # n = 1: no spread known


def test_detectable_changes():
    # n = 1000 a side, alpha 0.01/7: (3.19 + 0.84) * sqrt(0.25 * 2 / 1000) is about 9 points
    assert stats.detectable_share_change(0.5, 1000, 1000, 0.01 / 7) == pytest.approx(
        0.0899, abs=5e-4
    )
    # a rare outcome's change is smaller, and goes up (it cannot go below 0)
    rare = stats.detectable_share_change(0.0, 1000, 1000, 0.01 / 7)
    assert 0 < rare < 0.03
    assert stats.detectable_share_change(1.0, 1000, 1000, 0.01 / 7) == pytest.approx(rare)
    # four times the games halve the change, roughly
    assert stats.detectable_share_change(0.5, 4000, 4000, 0.01) == pytest.approx(
        stats.detectable_share_change(0.5, 1000, 1000, 0.01) / 2, rel=0.02
    )
    assert stats.detectable_share_change(0.5, 2, 2, 0.01) is None  # two games: not even all of it
    assert stats.detectable_mean_change(Counter([3, 5]), 10, 0.05) == pytest.approx(
        (1.959964 + 0.841621) * math.sqrt(2) * math.sqrt(1 / 2 + 1 / 10), rel=1e-6
    )
    assert stats.detectable_mean_change(Counter([3]), 10, 0.05) is None


@pytest.mark.parametrize(
    "df, x, p",
    [  # scipy.stats.chi2.sf
        (1, 3.841458820694124, 0.04999999999999989),
        (2, 0.686, 0.7096382115602085),
        (3, 7.504, 0.057455763891813456),
        (5, 30.0, 1.4748581038443073e-05),
        (9, 2.0, 0.9914676066288135),
        (1, 0.0001, 0.9920212873707368),
    ],
)
def test_chi_square_tail(df, x, p):
    assert stats.gammaincc(df / 2, x / 2) == pytest.approx(p, rel=1e-9)


def test_equal_shares():
    """An analyst balancing a game had no test of a first player's edge: wins by place
    in turn order against equal shares (scipy.stats.chisquare's figures)."""
    assert stats.equal_shares([339, 321, 340]) == {
        "test": "chi-square",
        "statistic": 0.686,
        "df": 2,
        "p": pytest.approx(0.7096382115602085, rel=1e-9),
    }
    unequal = stats.equal_shares([1128, 1000, 988, 880])
    assert unequal["p"] == pytest.approx(8.688159336371253e-07, rel=1e-6)
    assert unequal["statistic"] == pytest.approx(30.955, abs=1e-3)
    assert stats.equal_shares([3, 4]) is None  # fewer than 5 expected a place
    assert stats.equal_shares([50]) is None  # one seat: nothing to compare


def test_against_scipy():
    sp = pytest.importorskip("scipy.stats")
    rng = random.Random(7)
    for _ in range(40):
        n1, n2 = rng.randint(1, 300), rng.randint(1, 300)
        k1, k2 = rng.randint(0, n1), rng.randint(0, n2)
        want = sp.fisher_exact([[k1, n1 - k1], [k2, n2 - k2]]).pvalue
        assert stats.fisher_exact(k1, n1, k2, n2) == pytest.approx(want, rel=1e-8, abs=1e-300)
        xs = [rng.randint(1, 60) for _ in range(rng.randint(2, 40))]
        ys = [rng.randint(1, 90) for _ in range(rng.randint(2, 40))]
        want = sp.ttest_ind(xs, ys, equal_var=False).pvalue
        assert stats.welch(Counter(xs), Counter(ys)) == pytest.approx(want, rel=1e-8)
        df = rng.uniform(1, 500)
        assert stats.t_quantile(0.975, df) == pytest.approx(sp.t.ppf(0.975, df), rel=1e-9)
        k, x = rng.randint(1, 12), rng.uniform(0, 60)
        assert stats.gammaincc(k / 2, x / 2) == pytest.approx(
            sp.chi2.sf(x, k), rel=1e-8, abs=1e-300
        )


def test_a_histogram_gives_what_the_list_of_its_values_gives():
    """Game lengths are kept as counts (issue 30): their mean, variance, median and
    ranks are the statistics module's of the list, to the last bit."""
    rng = random.Random(30)
    for n in (1, 2, 3, 10, 501, 20_000):
        xs = [rng.choice((rng.randint(1, 60), rng.randint(1, 2000))) for _ in range(n)]
        counts = Counter(xs)
        assert stats.mean(counts) == statistics.fmean(xs)
        assert stats.median(counts) == statistics.median(xs)
        assert [stats.quantile(counts, q) for q in (0.0, 0.5, 0.95, 1.0)] == [
            sorted(xs)[min(n - 1, int(q * n))] for q in (0.0, 0.5, 0.95, 1.0)
        ]
        if n > 1:
            assert stats.variance(counts) == statistics.variance(xs)
            assert stats.stdev(counts) == pytest.approx(statistics.stdev(xs), rel=1e-15)
