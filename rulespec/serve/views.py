"""One seat's view of a game, as its browser draws it.

Everything here is built from the seat's observation and the log as the seat sees it
(RULINGS C-6), with the spec's titles: nothing reads the state's hidden parts, so
whatever a view holds, the seat was allowed to see. The table, the options' words and
the narration are the terminal's own (rulespec/table/view.py and narrate.py): the
browser shows the same data and lines as `rulespec play` and `rulespec run`.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from rulespec.interpreter.choices import Branch, PickCards, seat_name

from ..analysis import graph
from ..lang import ir
from ..table import view as tableview
from ..table.narrate import CHOSEN, Titles, narrate

# a player's move begins with one of these events (what answers it is part of the move)
_MOVES = ("play", "pass")

# events that name the rule they come from: the field naming it, its graph node kinds
_FIRED = {
    "play": ("action", ("action",)),
    "react": ("reaction", ("reaction",)),
    "trigger": ("rule", ("trigger", "end", "goal")),
    "round_end": ("rule", ("round", "end")),
}


@dataclass(frozen=True)
class Table:
    """What a view needs of the spec: its titles and its rules graph."""

    spec: ir.Spec
    players: int

    @cached_property
    def titles(self) -> Titles:
        return Titles.of(self.spec)

    @cached_property
    def _rules_graph(self):
        return graph.build(self.spec)

    @cached_property
    def nodes(self) -> list[dict]:
        return [
            {"id": str(n), "kind": d["kind"], "label": d["label"], "span": d["span"]}
            for n, d in self._rules_graph.nodes(data=True)
        ]

    @cached_property
    def graph(self) -> dict:
        """The rules graph (`rulespec graph`): an SVG drawn by Graphviz when `dot` is
        installed, and always its nodes and edges for a readable fallback. Built when
        first asked for: a view needs only the nodes (`fired`)."""
        g = self._rules_graph
        edges = [{"source": str(a), "target": str(b), "kind": k} for a, b, k in g.edges(keys=True)]
        return {"svg": _svg(graph.to_dot(g)), "nodes": self.nodes, "edges": edges}

    @cached_property
    def rules(self) -> list[dict]:
        """Every rule of the spec, and its goal sets, for the rules panel: its name,
        kind, title and text (public, as the spec is)."""
        titles = self.titles
        return [
            {"name": name, "kind": kind, "title": title, "text": titles.text("rules", name)}
            for name, (kind, title) in titles.rules.items()
        ] + [
            {"name": name, "kind": "goals", "title": goal.title, "text": titles.goal_text(name)}
            for name, goal in titles.goals.items()
        ]

    def fired(self, log: list[dict]) -> dict | None:
        """The rules-graph node of the last rule that fired in `log` (an action
        played, a reaction, a trigger, an end condition, a round's end), with the
        rule's title."""
        for e in reversed(log):
            if e["event"] in _FIRED:
                field, kinds = _FIRED[e["event"]]
                for node in self.nodes:
                    if node["label"] == e[field] and node["kind"] in kinds:
                        return node | {"title": self.titles.rule(node["label"])}
        return None


def _svg(dot: str) -> str | None:
    if shutil.which("dot") is None:
        return None
    done = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def last_move(log: list[dict], titles: Titles) -> dict | None:
    """The last move a player made, as the seat's log has it: who made it, the
    narration line it begins at, and the zones its cards went to. Built from the log
    the seat saw, it shows no card the seat did not see (a move into a hidden zone is
    only its zone)."""
    at = next(
        (
            k
            for k in range(len(log) - 1, -1, -1)
            if log[k]["event"] in _MOVES
            or (log[k]["event"] == "choice" and log[k]["kind"] in CHOSEN)  # a move of its own
        ),
        None,
    )
    if at is None:
        return None
    zones = sorted({e["dst"] for e in log[at:] if e["event"] == "move"})
    return {
        "player": seat_name(log[at]["player"]),
        "line": len(narrate(log[:at], titles)),
        "zones": zones,
    }


def waiting_for(state, seat: int | None) -> str | None:
    """Whom the game waits for, when it is not the viewer: a seat, or "an answer" in a
    reaction window (naming who is asked there would tell that they hold an answer)."""
    if state.is_terminal() or state.is_chance_node():
        return None
    who = state.current_player()
    if who == seat:
        return None
    return "an answer" if state.decision_kind() == "react" else seat_name(who)


def view(state, seat: int | None, table: Table, events: int | None = None) -> dict:
    """What `seat` (None: a spectator who sees everything) is shown of `state`: the
    table as `rulespec play` has it (rulespec.table.view.table), the narration, the
    rule that fired last, and at the seat's decision its options in words. With
    `events`, the narration stops after that many events (a replay's position)."""
    obs, titles, log = state.observation(seat), table.titles, state.log_for(seat)
    if events is not None:
        log = log[:events]
    out = tableview.table(obs, titles, state.game.params, state.decision_between()) | {
        "narration": narrate(log, titles),
        "events": len(log),
        "fired": table.fired(log),  # {id, title, ...} or None
        "last_move": last_move(log, titles),
        "waiting_for": waiting_for(state, seat) if events is None else None,
        "rules": table.rules,
        "options": [],
    }
    if seat is not None and "options" in obs:
        out |= decision(state, table, state.legal_actions(), log)
    return out


def decision(state, table: Table, options: list, log: Sequence[dict] = ()) -> dict:
    """What a seat is asked: the decision's kind, its heading and asker, and the
    options in words (its own, or at a simultaneous choice those it will be offered);
    `log` is the seat's, which tells what an answer answers."""
    titles, kind, asking = table.titles, state.decision_kind(), state.decision_asker()
    window, prompt = state.decision_window(), state.decision_prompt()
    return {
        "decision": kind,
        "asking": tableview.decision_heading(kind, asking, titles, window, prompt, options, log),
        "asker": tableview.asker(asking, titles, state.decision_prompt()),
        "options": [
            {
                "label": s["option"].label,
                "text": s["text"],
                "group": s["group"],
                "short": s["short"],
            }
            # a set of cards chosen together names its cards: a page may pick them one by one
            | ({"cards": [*map(titles.card, s["option"].label.split("+"))]} if _cards(s) else {})
            | _help(s["option"], titles)
            for s in tableview.arranged(options, titles, state.game.type_names, asking)
        ],
    }


def _help(option, titles: Titles) -> dict:
    """{"help": the words `branches:` gives a `choose` branch}, shown when its button is
    hovered, as `help LABEL` says them; {} for another option or one without."""
    text = titles.text("branches", option.label) if isinstance(option, Branch) else ""
    return {"help": text} if text else {}


def _cards(shown: dict) -> bool:
    """Is the option a set of cards chosen together (`combinations`)?"""
    return isinstance(shown["option"], PickCards)
