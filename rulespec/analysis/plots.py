"""The charts of `simulate --plot` and `diff --plot`, drawn with matplotlib
(rulespec[plot]): how games end, how long they last against the turn limit, and how
often each seat wins against its fair share.

Each chart takes the sides it compares, (label, tally, turn limit) each: one for
`simulate`, OLD and NEW for `diff`, drawn side by side in the same axes so that a
difference shows as two bars of unequal height, not as two pictures to hold in mind.
"""

from __future__ import annotations

from dataclasses import dataclass

from .simulation import Tally
from .stats import wilson

COLOURS = ("#4477aa", "#ee6677")  # one per side: colour-blind safe (Paul Tol)


@dataclass(frozen=True)
class Side:
    label: str  # "" alone; "OLD" and "NEW" side by side
    tally: Tally
    turn_limit: int


def draw(sides: list[Side], players: int, agents: str, title: str, path: str, form: str):
    """The three charts of these sides in one image of the format `form` at `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # an SVG's words stay text, not outlines: found by a search, read by a screen reader
    with plt.rc_context({"svg.fonttype": "none"}):
        fig, (reasons, lengths, wins) = plt.subplots(1, 3, figsize=(15, 4.8))
        end_reasons(reasons, sides)
        game_lengths(lengths, sides)
        seat_wins(wins, sides, players, agents)
        fig.suptitle(title)
        fig.tight_layout()
        fig.savefig(path, dpi=100, format=form)  # named: matplotlib adds no suffix of its own
        plt.close(fig)


def _offsets(sides) -> tuple[list[float], float]:
    """Where each side's bar sits beside a category's mark, and the bars' width."""
    width = 0.8 / len(sides)
    return [(i - (len(sides) - 1) / 2) * width for i in range(len(sides))], width


def end_reasons(ax, sides: list[Side]) -> None:
    """How the games ended: a bar per end reason and side, its share and count written
    on it; the turn limit among them, named as such."""
    totals: dict = {}
    for side in sides:
        for reason, k in side.tally.reasons.items():
            totals[reason] = totals.get(reason, 0) + k
    reasons = sorted(totals, key=lambda r: (-totals[r], r))
    offsets, width = _offsets(sides)
    for side, offset, colour in zip(sides, offsets, COLOURS):
        games = side.tally.games
        shares = [100 * side.tally.reasons[r] / games for r in reasons]
        bars = ax.barh(
            [i + offset for i in range(len(reasons))],
            shares,
            height=width,
            color=colour,
            label=side.label or None,
        )
        ax.bar_label(
            bars,
            [f"{s:.0f}% ({side.tally.reasons[r]})" for s, r in zip(shares, reasons)],
            padding=2,
            fontsize=8,
        )
    ax.set_yticks(range(len(reasons)), [_reason(r) for r in reasons])
    ax.invert_yaxis()  # the commonest end on top
    ax.set_xlim(0, 118)  # room for the labels past a bar of 100%
    ax.set(title="how games end", xlabel="% of games")
    if len(sides) > 1:
        ax.legend(loc="lower right", fontsize=8)


def _reason(reason: str) -> str:
    return "turn limit (no rule ended it)" if reason == "turn_limit" else reason


def game_lengths(ax, sides: list[Side]) -> None:
    """A histogram of game lengths per side, each turn limit marked by a line that says
    how many games it cut short."""
    lo = min(min(s.tally.lengths) for s in sides)
    hi = max(max(s.tally.lengths) for s in sides)
    bins = range(lo, hi + 2) if hi - lo <= 80 else 40
    one = len(sides) == 1
    for side, colour in zip(sides, COLOURS):
        ax.hist(
            list(side.tally.lengths),
            bins=bins,
            weights=list(side.tally.lengths.values()),
            color=colour,
            histtype="bar" if one else "step",
            linewidth=1 if one else 2,
            label=side.label or None,
        )
    for side, colour in zip(sides, COLOURS):
        limited = side.tally.limited
        share = 100 * limited / side.tally.games
        text = f"{side.label} turn limit {side.turn_limit}: {limited} games ({share:.0f}%)".strip()
        if side.turn_limit <= hi + 1 or limited:
            ax.axvline(side.turn_limit, color=colour, linestyle="--", linewidth=1.5, label=text)
        else:  # a limit far past every game: drawn, it would squeeze the games into a corner
            ax.plot([], [], " ", label=text + ", past every game")
    ax.set(title="game length", xlabel="turns", ylabel="games")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.3)  # room for the legend above the bars
    ax.legend(loc="upper left", fontsize=8)


def seat_wins(ax, sides: list[Side], players: int, agents: str) -> None:
    """Each seat's win rate with its 95% interval, the agent at each seat under its
    name, and the fair share as a line: every seat winning as often as the others, of
    the games someone won (100% / players when every game has one winner; with most
    games unwon, a line at 100% / players put every seat below it); none for one player."""
    seats = [f"P{p + 1}" for p in range(players)]
    names = agents.split(",")
    if len(names) > 1:  # one agent per seat: name each
        seats = [f"{s}\n{names[p]}" for p, s in enumerate(seats)]
    offsets, width = _offsets(sides)
    for side, offset, colour in zip(sides, offsets, COLOURS):
        rates = [wilson(side.tally.won({p}), side.tally.games) for p in range(players)]
        shares = [100 * r["share"] for r in rates]
        errors = [
            [100 * (r["share"] - r["low"]) for r in rates],
            [100 * (r["high"] - r["share"]) for r in rates],
        ]
        ax.bar(
            [i + offset for i in range(players)],
            shares,
            width=width,
            yerr=errors,
            color=colour,
            capsize=4,
            label=side.label or None,
        )
    fairs = [
        100 * sum(side.tally.won({p}) for p in range(players)) / players / side.tally.games
        for side in sides
    ]
    one = len({round(f) for f in fairs}) == 1  # the sides' fair shares agree: one line
    drawn = (sides[:1] if one else sides) if players > 1 else []  # a solitaire has no share
    for side, fair, colour in zip(drawn, fairs, COLOURS):
        label = f"fair share {fair:.0f}%" if one else f"{side.label} fair share {fair:.0f}%"
        ax.axhline(
            fair, color="black" if one else colour, linestyle=":", linewidth=1.5, label=label
        )
    fair = max(fairs)
    ax.set_xticks(range(players), seats)
    agents_shown = "" if len(names) > 1 else f", agents {agents}"
    ax.set(title=f"seat win rate (95% interval{agents_shown})", ylabel="% of games")
    ax.set_ylim(0, min(115, max(ax.get_ylim()[1], fair) * 1.25))  # room for the legend
    if ax.get_legend_handles_labels()[0]:  # a solitaire of one side has nothing to label
        ax.legend(loc="upper left", fontsize=8)
