"""`rulespec diff OLD NEW`: what a rule change changes, by meaning rather than text.

Parts are compared by name with their source positions left out, so moving a rule
or reformatting it is no change. The lint findings of both are compared too: those
NEW adds (a newly unreachable end, a new loop) and those NEW fixes. With a sample
of simulated games, outcome differences are tested for significance.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..lang import ir
from ..lang.diagnostics import Span
from ..lang.ir import canon
from . import stats
from .lint import Finding, static


@dataclass(frozen=True)
class Change:
    kind: str  # parameter, card, action, reaction, end condition, trigger, step, ...
    name: str
    what: str  # added | removed | changed
    old: Span | None
    new: Span | None
    detail: str = ""

    def as_dict(self) -> dict:
        return {
            "kind": self.kind,
            "name": self.name,
            "what": self.what,
            "detail": self.detail,
            "old": str(self.old) if self.old else None,
            "new": str(self.new) if self.new else None,
        }


def _named(spec: ir.Spec) -> dict:
    """(kind, name) -> part, for every named part of a spec."""
    named = {}
    for kind, parts in (
        ("parameter", spec.params),
        ("card", spec.cards),
        ("zone", spec.zones),
        ("counter", spec.counters),
        ("goal", spec.goals),
        ("remembered card", spec.memories),
        ("procedure", spec.procedures),
        ("window", spec.windows),
    ):
        named |= {(kind, p.name): p for p in parts}
    # a named value (`value:`) is no condition to a designer
    named |= {("condition" if c.type == "bool" else "value", c.name): c for c in spec.conditions}
    named |= {(ir.RULE_KINDS[kind], rule.name): rule for kind, rule in spec.rules()}
    return named


def _detail(kind, a, b) -> str:
    """What changed, where a line can say it: a parameter's value, a card's count, a
    title (a change of title alone is otherwise a bare "changed")."""
    if kind == "parameter":
        parts = [f"{a.said()} -> {b.said()}"] if a.said() != b.said() else []
    else:
        parts = [f"count {a.count} -> {b.count}"] if kind == "card" and a.count != b.count else []
    if kind == "card" and a.props != b.props:  # each property that changed, with its values
        old, new = dict(a.props), dict(b.props)
        parts.append(
            "props "
            + ", ".join(
                f"{k} {old.get(k, 'none')} -> {new.get(k, 'none')}"
                for k in sorted(old.keys() | new.keys())
                if old.get(k) != new.get(k)
            )
        )
    if kind == "card" and a.tags != b.tags:  # a tag is a kind the rules name
        parts.append(f"tags {', '.join(a.tags) or 'none'} -> {', '.join(b.tags) or 'none'}")
    if kind == "action" and a.count != b.count:  # a group's size: how many cards a move plays
        parts.append(f"count {_group_text(a.count)} -> {_group_text(b.count)}")
    if kind in ("zone", "counter") and _size(a) != _size(b):  # a family's size, or none
        parts.append(f"count {_size(a)} -> {_size(b)}")
    if kind == "action" and a.same != b.same:  # what a group's cards share
        parts.append(f"same {a.same or 'none'} -> {b.same or 'none'}")
    if kind == "step" and canon(a.pass_if) != canon(b.pass_if):  # who may pass (by meaning)
        parts.append(
            "pass_if "
            + ("added" if a.pass_if is None else "removed" if b.pass_if is None else "changed")
        )
    if kind == "step" and a.around != b.around:  # who is offered it, and until when
        parts.append(f"around {a.around or 'no'} -> {b.around or 'no'}")
    if getattr(a, "title", None) != getattr(b, "title", None):
        parts.append(f"title {a.title!r} -> {b.title!r}")
    said = {"count", "count_param", "props", "tags", "same", "pass_if", "around", "title"}
    if kind == "parameter":
        said |= {"value", "by_players"}
    keys = _KEYS | (
        {"when": "value"} if kind == "value" else {"when": "if"} if kind == "step" else {}
    )
    others = [
        keys.get(name, name)
        for (name, x), (_, y) in zip(ir.iter_fields(a), ir.iter_fields(b))
        if name not in said and canon(x) != canon(y)
    ]
    if others:  # the keys whose meaning changed, as the spec writes them
        parts.append(", ".join(others))
    return "; ".join(parts)


_KEYS = {"condition": "if"}  # the IR's field names that the spec's keys spell otherwise


def _size(x) -> str:
    """A family's size as the spec writes it: a number, or the parameter sizing it with
    the most zones it gives (a variant's new value of the parameter resizes the family:
    a Bohnanza designer's third field showed as a change without a word)."""
    if x.count_param:
        return f"{x.count_param} ({x.count})"
    return str(x.count or "none")


def _group_text(count) -> str:
    """An action's group size: `1` for one card (or none), `2`, `2..4`, `3..`."""
    if count is None:
        return "1"
    low, high = count
    return str(low) if low == high else f"{low}..{'' if high is None else high}"


def changes(old: ir.Spec, new: ir.Spec) -> list[Change]:
    out = []
    a, b = _named(old), _named(new)
    for key in a.keys() - b.keys():
        out.append(Change(*key, "removed", a[key].span, None))
    for key in b.keys() - a.keys():
        out.append(Change(*key, "added", None, b[key].span))
    for key in a.keys() & b.keys():
        if canon(a[key]) != canon(b[key]):
            out.append(
                Change(*key, "changed", a[key].span, b[key].span, _detail(key[0], a[key], b[key]))
            )
    if [s.name for s in old.turn] != [s.name for s in new.turn] and sorted(
        s.name for s in old.turn
    ) == sorted(s.name for s in new.turn):
        out.append(
            Change(
                "turn",
                "order",
                "changed",
                old.turn[0].span,
                new.turn[0].span,
                " -> ".join(s.name for s in new.turn),
            )
        )
    if old.name != new.name and _at(new, "name").file == new.span.file:
        # a name NEW writes (a variant's own, "No Thanks! for two"), not the one a
        # variant without a name of its own is given, its base's and its stem
        detail = f"{old.name!r} -> {new.name!r}"  # quoted, as a title is
        out.append(Change("game", "name", "changed", _at(old, "name"), _at(new, "name"), detail))
    for field, label in (
        ("min_players", "players min"),
        ("max_players", "players max"),
        ("default_players", "players default"),
        ("player_counts", "player counts"),
        ("turn_limit", "turn limit"),
        ("hand", "hand"),
        ("setup", "setup"),
        ("removals", "deck removals"),
        ("evaluation", "evaluation"),
        ("payoff", "payoff"),
        ("turn_order", "turn order"),
        ("teams", "teams"),
    ):
        bounds = (old.min_players, old.max_players) != (new.min_players, new.max_players)
        if field == "player_counts" and bounds:
            continue  # said by min and max: counts skipped between them are their own change
        if canon(getattr(old, field)) != canon(getattr(new, field)):
            detail = (
                ""
                if field in ("evaluation", "payoff", "turn_order", "setup", "removals", "teams")
                else f"{_written(getattr(old, field))} -> {_written(getattr(new, field))}"
            )
            out.append(Change("game", label, "changed", _at(old, field), _at(new, field), detail))
    if canon(old.rounds and old.rounds.starter) != canon(new.rounds and new.rounds.starter):
        out.append(
            Change("game", "round starter", "changed", _at(old, "rounds"), _at(new, "rounds"))
        )
    order = [
        "game",
        "turn",
        "parameter",
        "card",
        "zone",
        "counter",
        "goal",
        "remembered card",
        "procedure",
        "condition",
        "value",
        "window",
        *ir.RULE_KINDS.values(),
    ]
    return sorted(out, key=lambda c: (order.index(c.kind), c.name))


def _written(value) -> str:
    """A game-wide value as a spec writes it: the player counts as a list, [2, 4]."""
    return str(list(value)) if isinstance(value, tuple) else str(value)


def _at(spec: ir.Spec, field: str) -> ir.Span:
    """Where a game-wide field is written: its key (the player counts, the turn limit,
    the hand), its first statement or entry, or its expression, else the spec's start
    (a field the spec leaves out)."""
    placed = dict(spec.places).get(field)
    if placed is not None:
        return placed
    value = getattr(spec, field)
    if isinstance(value, tuple) and value and hasattr(value[0], "span"):
        return value[0].span
    return getattr(value, "span", spec.span)


def _key(f: Finding):
    """A finding's identity across two versions: its code and the rules it concerns
    (its message may quote numbers the change moved)."""
    return (f.code, f.rules) if f.rules else (f.code, f.message)


def findings_delta(old: ir.Spec, new: ir.Spec) -> tuple[list[Finding], list[Finding]]:
    """(findings new in NEW, findings NEW fixed), layer 1."""
    a, b = static(old), static(new)
    ka, kb = {_key(f) for f in a}, {_key(f) for f in b}
    return [f for f in b if _key(f) not in ka], [f for f in a if _key(f) not in kb]


# --- outcomes ----------------------------------------------------------------------

ALPHA = 0.01  # family-wise: over all the tested rows of one report, after Holm's correction


def compare_outcomes(
    old,
    new,
    players: int,
    turn_limits: tuple[int, int],
    payoffs=(None, None),
    teams=(),
    round_ends=(),
):
    """(rows, statistics) of two simulations' tallies. One row per compared quantity:
    its value in OLD and NEW, each with a 95% interval inside the values it can take,
    the test used, its two-sided p-value, the Holm-adjusted p-value over the report's
    tested rows, whether that is below ALPHA, and the smallest change the sample
    detects with 80% power. `payoffs` are the sides' declared `payoff`s: where both
    declare one, each seat's mean payoff is a row too. `teams`, (name, seats) pairs both
    sides share, give a row for each team's wins in place of a row for each seat's (a
    side's seats win together: their rows would say one fact two or three times).
    `round_ends`, the round end conditions of either side, give a row each of the share
    of rounds each ended, where both sides play matches of rounds (how a deal ends: a
    variant's shorter trip is made more often). `statistics` names the tests and the correction and gives the sample's power."""
    rows = []
    n1, n2 = old.games, new.games
    reasons = sorted(old.reasons.keys() | new.reasons.keys())
    paid = range(players) if None not in payoffs else ()
    # by place in turn order (the first player's edge), where a game has one first
    # player (no rounds): from_first counts nothing else
    ordered = range(players) if old.from_first or new.from_first else ()
    winners = teams or tuple((f"P{p + 1}", {p}) for p in range(players))
    matches = bool(old.round_lengths and new.round_lengths)  # matches of rounds on both sides
    round_ends = round_ends if matches else ()
    deals = [sum(t.round_lengths.values()) for t in (old, new)]
    tested = len(reasons) + len(round_ends) + len(winners) + len(ordered) + 1 + matches + len(paid)
    tested_alpha = ALPHA / tested  # Holm's bar, one change

    def row(what, key, a, b, test, p, detectable):
        """Each side's value (a's and b's `key`) with its interval, and the test."""
        rows.append(
            {
                "what": what,
                "old": a[key],
                "new": b[key],
                "old_ci": [a["low"], a["high"]],
                "new_ci": [b["low"], b["high"]],
                "test": test,
                "p": p,
                "detectable": detectable,
            }
        )

    def mean_row(what, xs, ys, bounds):
        a, b = (stats.mean_interval(v, lo, hi) for v, (lo, hi) in zip((xs, ys), bounds))
        change = _rounded(stats.detectable_mean_change(xs, n2, tested_alpha), 2)
        row(what, "mean", a, b, "welch_t", stats.welch(xs, ys), change)

    def share_row(what, k1, k2, n1=n1, n2=n2):
        a, b = stats.wilson(k1, n1), stats.wilson(k2, n2)
        change = _rounded(stats.detectable_share_change(k1 / n1, n1, n2, tested_alpha), 4)
        row(what, "share", a, b, "fisher", stats.fisher_exact(k1, n1, k2, n2), change)

    for reason in reasons:
        share_row(f"end reason {reason}", old.reasons[reason], new.reasons[reason])
    for rule in round_ends:  # of the rounds played: each ends by one rule
        share_row(f"round end {rule}", old.fired[rule], new.fired[rule], *deals)
    for name, seats in winners:
        share_row(f"{name} wins", old.won(set(seats)), new.won(set(seats)))
    for k in ordered:
        share_row(f"{stats.ordinal(k + 1)} to play wins", old.from_first[k], new.from_first[k])
    xs, ys = old.lengths, new.lengths
    mean_row(
        "mean length (turns)", xs, ys, [(min(1, *v), t) for v, t in zip((xs, ys), turn_limits)]
    )
    mean_change = rows[-1]["detectable"]
    if matches:  # a variant playing to fewer points ends its match in fewer deals
        mean_row("mean rounds per match", old.rounds, new.rounds, [(1, float("inf"))] * 2)
    for p in paid:  # chips or points: each seat's, where both sides declare them
        mean_row(
            f"mean payoff P{p + 1}",
            old.payoff_counts(p),
            new.payoff_counts(p),
            [(declared.low, declared.high) for declared in payoffs],
        )
    for row, adjusted in zip(rows, stats.holm([row["p"] for row in rows])):
        row["p_holm"] = adjusted
        row["significant"] = adjusted < ALPHA
    # the median as `simulate` gives it (the mean of the two middle values of an even count)
    for label, at in (
        ("median length", stats.median),
        ("p95 length", lambda counts: stats.quantile(counts, 0.95)),
    ):
        rows.append(
            {
                "what": label,
                "old": at(xs),
                "new": at(ys),
                "p": None,
                "p_holm": None,
                "significant": False,
            }
        )
    return rows, {
        "alpha": ALPHA,
        "correction": "holm",
        "tested": len(rows) - 2,
        "tests": {
            "shares": "Fisher's exact test",
            "mean length": "Welch's t-test",
            **({"mean rounds per match": "Welch's t-test"} if matches else {}),
            **({"mean payoffs": "Welch's t-test"} if paid else {}),
        },
        "power": stats.POWER,
        "games": [n1, n2],
        "detectable_at_half": _rounded(stats.detectable_share_change(0.5, n1, n2, tested_alpha), 4),
        "detectable_mean": mean_change,
    }


def _rounded(x, digits):
    return None if x is None else round(x, digits)
