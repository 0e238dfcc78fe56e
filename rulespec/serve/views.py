"""One seat's view of a game, as its browser draws it.

Everything here is built from the seat's observation and the log as the seat sees it
(RULINGS C-6), with the spec's titles: nothing reads the state's hidden parts, so
whatever a view holds, the seat was allowed to see. Narration is the table's own
(rulespec/table/narrate.py): the browser reads the same lines as `rulespec run`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import cached_property

from rulespec.interpreter.choices import NoReaction, Pass, Play, React, seat_name

from ..analysis import graph
from ..lang import ir
from ..table.narrate import Titles, narrate

_OWNED = re.compile(r"(\w+)\[P(\d+)\]")  # a per-player zone or counter: hand[P2]
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# events that name the rule they come from: the field naming it, its graph node kinds
_FIRED = {
    "play": ("action", ("action",)),
    "react": ("reaction", ("reaction",)),
    "trigger": ("rule", ("trigger", "end", "goal")),
    "round_end": ("rule", ("round", "end")),
}


def words(name: str) -> str:
    """An identifier as words: discard_down -> discard down."""
    return name.replace("_", " ")


@dataclass(frozen=True)
class Table:
    """What a view needs of the spec: titles, parameters, the rules graph."""

    spec: ir.Spec
    players: int

    @cached_property
    def titles(self) -> dict[str, str]:
        return {c.name: c.title for c in self.spec.cards}

    @cached_property
    def narration(self) -> Titles:
        return Titles.of(self.spec)

    @cached_property
    def params(self) -> list[dict]:
        return [
            {"name": p.name, "title": _title(p), "value": p.value_for(self.players)}
            for p in self.spec.params
        ]

    @cached_property
    def counter_titles(self) -> dict[str, str]:
        return {c.name: _title(c) for c in self.spec.counters}

    @cached_property
    def graph(self) -> dict:
        """The rules graph (`rulespec graph`): an SVG drawn by Graphviz when `dot` is
        installed, and always its nodes and edges for a readable fallback."""
        g = graph.build(self.spec)
        nodes = [
            {"id": str(n), "kind": d["kind"], "label": d["label"], "span": d["span"]}
            for n, d in g.nodes(data=True)
        ]
        edges = [{"source": str(a), "target": str(b), "kind": k} for a, b, k in g.edges(keys=True)]
        return {"svg": _svg(graph.to_dot(g)), "nodes": nodes, "edges": edges}

    def fired(self, log: list[dict]) -> str | None:
        """The rules-graph node of the last rule that fired in `log`: an action
        played, a reaction, a trigger, an end condition, a round's end."""
        for e in reversed(log):
            if e["event"] in _FIRED:
                field, kinds = _FIRED[e["event"]]
                for node in self.graph["nodes"]:
                    if node["label"] == e[field] and node["kind"] in kinds:
                        return node["id"]
        return None

    def card(self, name: str) -> dict:
        return {"name": name, "title": self.titles.get(name, words(name))}


def _title(definition) -> str:
    """A definition's title where the spec gives one, else its name in words."""
    return getattr(definition, "title", None) or words(definition.name).capitalize()


def _svg(dot: str) -> str | None:
    if shutil.which("dot") is None:
        return None
    done = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def view(state, seat: int | None, table: Table, events: int | None = None) -> dict:
    """What `seat` (None: a spectator who sees everything) is shown of `state`. With
    `events`, the narration stops after that many events (a replay's position)."""
    obs = state.observation(seat)
    log = state.log_for(seat)
    if events is not None:
        log = log[:events]
    shared, players = _areas(obs["zones"], state.game.n, seat, table)
    out = {
        "seat": obs["seat"],
        "turn": obs["turn"],
        "current": None if obs["over"] else obs["current"],
        "active": obs["active"],
        "over": obs["over"],
        "result": obs.get("result"),
        "shared": shared,
        "players": players,
        "counters": _counters(obs["counters"], table),
        "params": table.params,
        "narration": narrate(log, table.narration),
        "events": len(log),
        "fired": table.fired(log),
        "options": [],
    }
    if seat is not None and "options" in obs:
        out["decision"] = state.decision_kind()
        out["options"] = [
            {"label": o.label, "text": option_text(o, state.game.type_names, table)}
            for o in state.legal_actions()
        ]
    return out


def _areas(zones: dict, n: int, seat: int | None, table: Table):
    """Zones as areas: the shared ones, then each player's (theirs first)."""
    shared, owned = [], {p: [] for p in range(n)}
    for label, seen in zones.items():
        m = _OWNED.fullmatch(label)
        area = _zone(m.group(1) if m else label, seen, table)
        if m:
            owned[int(m.group(2)) - 1].append(area)
        else:
            shared.append(area)
    order = sorted(range(n), key=lambda p: (p != seat, p))
    players = [
        {"seat": seat_name(p), "you": p == seat, "zones": owned[p]} for p in order if owned[p]
    ]
    return shared, players


def _zone(name: str, seen, table: Table) -> dict:
    """A zone as the seat sees it: its cards (bottom to top in an ordered one), or only
    its size and the cards revealed to the seat there."""
    area = {"name": name, "title": words(name).capitalize()}
    if isinstance(seen, dict):
        revealed = [
            table.card(r["card"]) | {"depth": r.get("depth")} for r in seen.get("revealed", ())
        ]
        return area | {"count": seen["count"], "cards": None, "revealed": revealed}
    return area | {"count": len(seen), "cards": [table.card(c) for c in seen], "revealed": []}


def _counters(counters: dict, table: Table) -> list[dict]:
    rows = []
    for label, value in counters.items():
        m = _OWNED.fullmatch(label)
        name = m.group(1) if m else label
        title = table.counter_titles.get(name, words(name))
        rows.append(
            {"name": label, "title": f"{title} (P{m.group(2)})" if m else title, "value": value}
        )
    return rows


def option_text(option, type_names, table: Table) -> str:
    """An option as a person reads it: card titles, seats by name, words for
    identifiers (the option's label stays what the engine and the log know it by)."""
    if isinstance(option, Pass):
        return "Pass"
    if isinstance(option, NoReaction):
        return "Do not react"
    if isinstance(option, Play) and option.chosen is None:
        card = option.card_type
        text = words(option.action).capitalize()
        if card is not None:
            text = f"Play {table.card(type_names[card])['title']} ({words(option.action)})"
        return text + (f" at {seat_name(option.target)}" if option.target is not None else "")
    if isinstance(option, React) and option.card_type is not None:
        title = table.card(type_names[option.card_type])["title"]
        return f"Answer with {title} ({words(option.reaction)})"
    return _WORD.sub(lambda m: table.titles.get(m.group(), words(m.group())), option.label)
