"""The statistics of simulated games: intervals, tests, a correction and power.

Written out by hand (no runtime dependency) and exact where samples are small:
Fisher's exact test for counts, Student's t (through the regularized incomplete beta
function) for means, Holm's correction over the rows of one report. `simulate` and
`diff --simulate` both take their figures from here.

Samples of whole numbers (game lengths) come as histograms, value -> how many times it
was seen, whose size does not grow with the number of games; their mean, variance and
ranks are exactly what the statistics module gives from the list of values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from statistics import NormalDist

Z95 = 1.96  # two-sided 95% normal quantile, as the reports have always used
POWER = 0.8  # the power at which detectable changes are reported


def ordinal(k: int) -> str:
    """A place in turn order, as reports name it: 1st, 2nd, 3rd, 4th, ..., 11th, 21st."""
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


# --- samples, as histograms ----------------------------------------------------------


def size(counts: Mapping[int, int]) -> int:
    return sum(counts.values())


def mean(counts: Mapping[int, int]) -> float:
    """As statistics.fmean: the exact sum, rounded once, over the number of values."""
    return float(sum(x * k for x, k in counts.items())) / size(counts)


def variance(counts: Mapping[int, int]) -> float:
    """The sample variance, as statistics.variance: exact until it is rounded once."""
    n = size(counts)
    sx = sum(x * k for x, k in counts.items())
    sxx = sum(x * x * k for x, k in counts.items())
    return float(Fraction(n * sxx - sx * sx, n * (n - 1)))


def stdev(counts: Mapping[int, int]) -> float:
    return math.sqrt(variance(counts))


def at_rank(counts: Mapping[int, int], rank: int) -> int:
    """The value at `rank` (from 0) of the values sorted."""
    for x in sorted(counts):
        rank -= counts[x]
        if rank < 0:
            return x
    raise IndexError(rank)


def median(counts: Mapping[int, int]) -> float:
    """As statistics.median: the middle value, or the mean of the two middle ones;
    a float either way, so that a report's type does not follow the count of games."""
    n = size(counts)
    if n % 2:
        return float(at_rank(counts, n // 2))
    return (at_rank(counts, n // 2 - 1) + at_rank(counts, n // 2)) / 2


def quantile(counts: Mapping[int, int], q: float) -> int:
    """The value at rank floor(q n) (counted from 0) of the n values sorted."""
    n = size(counts)
    return at_rank(counts, min(n - 1, int(q * n)))


# --- intervals -----------------------------------------------------------------------


def wilson(k: int, n: int) -> dict:
    """A share k/n with its 95% Wilson score interval (inside [0, 1] by construction)."""
    if n == 0:
        return {"share": 0.0, "low": 0.0, "high": 0.0}
    p, z = k / n, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {
        "share": round(p, 4),
        "low": round(max(0.0, centre - half), 4),
        "high": round(min(1.0, centre + half), 4),
    }


def mean_interval(xs: Mapping[int, int], lo: float, hi: float) -> dict:
    """A mean with its 95% Student t interval, clipped to [lo, hi], the values the
    quantity can take. With one value nothing is known of the spread: [lo, hi]."""
    n = size(xs)
    if n == 0:
        return {"mean": 0.0, "low": 0.0, "high": 0.0}
    m = mean(xs)
    half = t_quantile(0.975, n - 1) * stdev(xs) / math.sqrt(n) if n > 1 else math.inf
    return {
        "mean": round(m, 2),
        "low": round(max(lo, m - half), 2),
        "high": round(min(hi, m + half), 2),
    }


# --- distributions -------------------------------------------------------------------


def betainc(a: float, b: float, x: float, y: float | None = None) -> float:
    """The regularized incomplete beta function I_x(a, b); `y` is 1 - x when the caller
    knows it more precisely than 1 - x can be computed (Numerical Recipes 6.4)."""
    y = 1.0 - x if y is None else y
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(y)
    )
    if x < (a + 1) / (a + b + 2):  # the continued fraction converges fast on this side
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, y) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), by the modified Lentz method."""
    tiny, eps = 1e-300, 1e-15
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):  # about sqrt(max(a, b)) terms are needed
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= c * d
        if abs(c * d - 1.0) < eps:
            break
    return h


def gammaincc(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x): by its series below
    x = a + 1, by its continued fraction above (Numerical Recipes 6.2)."""
    if x <= 0.0:
        return 1.0
    front = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:
        term = total = 1.0 / a
        for n in range(1, 100_000):
            term *= x / (a + n)
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - front * total)
    tiny = 1e-300
    b, c = x + 1 - a, 1.0 / tiny
    d = 1.0 / b
    h = d
    for n in range(1, 100_000):  # the modified Lentz method
        an, b = -n * (n - a), b + 2
        d = an * d + b
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return front * h


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    t2 = t * t
    return betainc(df / 2, 0.5, df / (df + t2), t2 / (df + t2))


def t_quantile(q: float, df: float) -> float:
    """The t with P(T <= t) = q, for q > 1/2, by bisection on t_two_sided."""
    target, lo, hi = 2 * (1 - q), 0.0, 1.0
    while t_two_sided(hi, df) > target:
        lo, hi = hi, 2 * hi
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_two_sided(mid, df) > target else (lo, mid)
    return (lo + hi) / 2


# --- tests ---------------------------------------------------------------------------


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of Fisher's exact test on the 2x2 table of k1 of n1 against
    k2 of n2: the hypergeometric probability of every table with the same margins that
    is no more likely than the one seen (within a relative 1e-7, as R and scipy do)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    k = k1 + k2
    whole = _log_choose(n1 + n2, k)

    def log_p(x):
        return _log_choose(n1, x) + _log_choose(n2, k - x) - whole

    seen = log_p(k1) + math.log1p(1e-7)
    ps = [log_p(x) for x in range(max(0, k - n2), min(k, n1) + 1)]
    if all(lp <= seen for lp in ps):  # the likeliest table: exactly 1, not a rounded sum
        return 1.0
    return min(1.0, sum(math.exp(lp) for lp in ps if lp <= seen))


def equal_shares(counts: list[int]) -> dict | None:
    """Pearson's chi-square test of counts against equal shares (each seat, or each
    place in turn order, winning as often): the statistic, its degrees of freedom and
    p. None where it tells nothing: fewer than two counts, or fewer than 5 expected in
    each (the chi-square's rule of thumb)."""
    k, total = len(counts), sum(counts)
    if k < 2 or total < 5 * k:
        return None
    expected = total / k
    statistic = sum((c - expected) ** 2 for c in counts) / expected
    return {
        "test": "chi-square",
        "statistic": round(statistic, 3),
        "df": k - 1,
        "p": gammaincc((k - 1) / 2, statistic / 2),
    }


def welch(xs: Mapping[int, int], ys: Mapping[int, int]) -> float:
    """Two-sided p-value of Welch's t-test on two means, with Student's t at the
    Welch-Satterthwaite degrees of freedom. Fewer than two values on a side test
    nothing (p = 1); two samples without spread differ for sure unless their means agree."""
    n1, n2 = size(xs), size(ys)
    if n1 < 2 or n2 < 2:
        return 1.0
    m1, m2 = mean(xs), mean(ys)
    s1, s2 = variance(xs) / n1, variance(ys) / n2
    if s1 + s2 == 0:
        return 1.0 if m1 == m2 else 0.0
    df = (s1 + s2) ** 2 / (s1**2 / (n1 - 1) + s2**2 / (n2 - 1))
    return t_two_sided((m1 - m2) / math.sqrt(s1 + s2), df)


def holm(ps: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: the i-th smallest p is
    multiplied by (m - i), and an adjusted p is never below the one before it."""
    m, adjusted, running = len(ps), [0.0] * len(ps), 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: ps[i])):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


# --- power ---------------------------------------------------------------------------


def _z(q: float) -> float:
    return NormalDist().inv_cdf(q)


def detectable_share_change(
    p: float, n1: int, n2: int, alpha: float, power: float = POWER
) -> float | None:
    """The smallest change d of a share p, towards 1/2 (the harder direction), that a
    two-sided test at alpha finds with the given power, with n1 and n2 games: the least d
    with d >= z(1-alpha/2) sqrt(pbar qbar (1/n1 + 1/n2)) + z(power) sqrt(p q/n1 + p2 q2/n2),
    p2 = p + d and pbar their weighted mean (Fleiss's normal approximation). None when
    not even the largest possible change is found that often."""
    sign = 1 if p <= 0.5 else -1
    room = 1 - p if sign > 0 else p
    za, zb = _z(1 - alpha / 2), _z(power)

    def enough(d):
        p2 = p + sign * d
        pbar = (n1 * p + n2 * p2) / (n1 + n2)
        return d >= za * math.sqrt(pbar * (1 - pbar) * (1 / n1 + 1 / n2)) + zb * math.sqrt(
            p * (1 - p) / n1 + p2 * (1 - p2) / n2
        )

    if not enough(room):
        return None
    lo, hi = 0.0, room
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if enough(mid) else (mid, hi)
    return hi


def detectable_mean_change(
    xs: Mapping[int, int], n2: int, alpha: float, power: float = POWER
) -> float | None:
    """The smallest change of a mean that a two-sided test at alpha finds with the given
    power, if the spread stays that of xs: (z(1-alpha/2) + z(power)) s sqrt(1/n1 + 1/n2).
    None when xs has no spread to go by (fewer than 2 values)."""
    n1 = size(xs)
    if n1 < 2 or n2 == 0:
        return None
    return (_z(1 - alpha / 2) + _z(power)) * stdev(xs) * math.sqrt(1 / n1 + 1 / n2)
