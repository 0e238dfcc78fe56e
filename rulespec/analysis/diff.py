"""`rulespec diff OLD NEW`: what a rule change changes, by meaning rather than text.

Parts are compared by name with their source positions left out, so moving a rule
or reformatting it is no change. The lint findings of both are compared too: those
NEW adds (a newly unreachable end, a new loop) and those NEW fixes. With a sample
of simulated games, outcome differences are tested for significance.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, is_dataclass

from ..lang import ir
from ..lang.diagnostics import Span
from .lint import Finding, static


@dataclass(frozen=True)
class Change:
    kind: str          # parameter, card, action, reaction, end condition, trigger, step, ...
    name: str
    what: str          # added | removed | changed
    old: Span | None
    new: Span | None
    detail: str = ""

    def as_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "what": self.what, "detail": self.detail,
                "old": str(self.old) if self.old else None, "new": str(self.new) if self.new else None}


def canon(x):
    """An IR value with every source span left out, for comparing meaning."""
    if isinstance(x, tuple):
        return tuple(canon(v) for v in x)
    if is_dataclass(x):
        return (type(x).__name__,) + tuple((name, canon(v)) for name, v in ir.iter_fields(x))
    return x


def _named(spec: ir.Spec) -> dict:
    """(kind, name) -> part, for every named part of a spec."""
    named = {}
    for kind, parts in (("parameter", spec.params), ("card", spec.cards), ("zone", spec.zones),
                        ("counter", spec.counters), ("goal", spec.goals),
                        ("remembered card", spec.memories),
                        ("procedure", spec.procedures), ("condition", spec.conditions)):
        named |= {(kind, p.name): p for p in parts}
    named |= {(ir.RULE_KINDS[kind], rule.name): rule for kind, rule in spec.rules()}
    return named


def _detail(kind, a, b) -> str:
    if kind == "parameter":
        return f"{_param_text(a)} -> {_param_text(b)}"
    if kind == "card" and a.count != b.count:
        return f"count {a.count} -> {b.count}"
    return ""


def _param_text(p: ir.ParamDef) -> str:
    """`7`, or `7 (5 with 5 players)` for a value that depends on the player count."""
    by = ", ".join(f"{v} with {n} players" for n, v in p.by_players)
    return f"{p.value} ({by})" if by else str(p.value)


def changes(old: ir.Spec, new: ir.Spec) -> list[Change]:
    out = []
    a, b = _named(old), _named(new)
    for key in a.keys() - b.keys():
        out.append(Change(*key, "removed", a[key].span, None))
    for key in b.keys() - a.keys():
        out.append(Change(*key, "added", None, b[key].span))
    for key in a.keys() & b.keys():
        if canon(a[key]) != canon(b[key]):
            out.append(Change(*key, "changed", a[key].span, b[key].span, _detail(key[0], a[key], b[key])))
    if [s.name for s in old.turn] != [s.name for s in new.turn] and \
            sorted(s.name for s in old.turn) == sorted(s.name for s in new.turn):
        out.append(Change("turn", "order", "changed", old.turn[0].span, new.turn[0].span,
                          " -> ".join(s.name for s in new.turn)))
    for field, label in (("min_players", "players min"), ("max_players", "players max"),
                         ("default_players", "players default"), ("turn_limit", "turn limit"),
                         ("hand", "hand"), ("setup", "setup"), ("removals", "deck removals"),
                         ("evaluation", "evaluation"), ("turn_order", "turn order")):
        if canon(getattr(old, field)) != canon(getattr(new, field)):
            detail = "" if field in ("evaluation", "turn_order", "setup", "removals") else \
                f"{getattr(old, field)} -> {getattr(new, field)}"
            out.append(Change("game", label, "changed", old.span, new.span, detail))
    if canon(old.rounds and old.rounds.starter) != canon(new.rounds and new.rounds.starter):
        out.append(Change("game", "round starter", "changed", old.span, new.span))
    order = ["game", "turn", "parameter", "card", "zone", "counter", "goal", "remembered card",
             "procedure", "condition", *ir.RULE_KINDS.values()]
    return sorted(out, key=lambda c: (order.index(c.kind), c.name))


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

def two_proportions(k1, n1, k2, n2) -> float:
    """Two-sided p-value of a difference of two shares (pooled z-test)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / se
    return math.erfc(abs(z) / math.sqrt(2))


def welch(xs, ys) -> float:
    """Two-sided p-value of a difference of means (Welch's t, normal approximation)."""
    n1, n2 = len(xs), len(ys)
    if n1 < 2 or n2 < 2:
        return 1.0
    m1, m2 = sum(xs) / n1, sum(ys) / n2
    v1 = sum((x - m1) ** 2 for x in xs) / (n1 - 1)
    v2 = sum((y - m2) ** 2 for y in ys) / (n2 - 1)
    se = math.sqrt(v1 / n1 + v2 / n2)
    return 1.0 if se == 0 else math.erfc(abs(m1 - m2) / se / math.sqrt(2))


ALPHA = 0.01


def compare_outcomes(old_results, new_results, players: int) -> list[dict]:
    """One row per compared quantity: its value in OLD and NEW, each with a 95%
    interval, the p-value of the difference, and whether it is significant at ALPHA."""
    from .simulation import mean_interval, wilson

    rows = []
    n1, n2 = len(old_results), len(new_results)

    def share_row(what, k1, k2):
        a, b = wilson(k1, n1), wilson(k2, n2)
        rows.append({"what": what, "old": a["share"], "new": b["share"],
                     "old_ci": [a["low"], a["high"]], "new_ci": [b["low"], b["high"]],
                     "p": two_proportions(k1, n1, k2, n2)})
    reasons = sorted({r.reason for r in old_results} | {r.reason for r in new_results})
    for reason in reasons:
        share_row(f"end reason {reason}", sum(r.reason == reason for r in old_results),
                  sum(r.reason == reason for r in new_results))
    for p in range(players):
        share_row(f"P{p + 1} wins", sum(p in r.winners for r in old_results),
                  sum(p in r.winners for r in new_results))
    xs, ys = [r.turns for r in old_results], [r.turns for r in new_results]
    a, b = mean_interval(xs), mean_interval(ys)
    rows.append({"what": "mean length (turns)", "old": a["mean"], "new": b["mean"],
                 "old_ci": [a["low"], a["high"]], "new_ci": [b["low"], b["high"]],
                 "p": welch(xs, ys)})
    for label, q in (("median length", 0.5), ("p95 length", 0.95)):
        rows.append({"what": label, "old": _quantile(xs, q), "new": _quantile(ys, q), "p": None})
    for row in rows:
        row["significant"] = row["p"] is not None and row["p"] < ALPHA
    return rows


def _quantile(xs, q):
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0
