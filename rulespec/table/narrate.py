"""Events -> readable lines, as one seat (or an omniscient spectator) sees the game."""

from __future__ import annotations

import re

from rulespec.interpreter.choices import seat_name

# C0 and C1 controls, the marks that reorder text (bidirectional overrides), and lone
# surrogates (no terminal can print one)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def visible(text: str, keep: str = "") -> str:
    """text with its control characters (but those in keep) written out as \\x1b or
    \\u202e, so that a title or name in a spec cannot move the cursor, recolour the
    terminal, set its title or start a line of its own; a lone surrogate too, which
    could not even be written."""

    def shown(m):
        ch = m.group()
        return ch if ch in keep else f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"

    return _CONTROL.sub(shown, text)


def _zone(label: str) -> str:
    """A zone's label as a rulebook says it: "P1's hand", "row 2", "the discard pile",
    "odd's chest" (a team's)."""
    team = re.fullmatch(r"(\w+)\[([a-z_]\w*)\]", label)
    if team:
        return f"{team.group(2).replace('_', ' ')}'s {team.group(1).replace('_', ' ')}"
    m = re.fullmatch(r"(\w+)\[(P?)(\d+)\]", label)
    name = (m.group(1) if m else label).replace("_", " ")
    if m and m.group(2):
        return f"{m.group(2)}{m.group(3)}'s {name}"
    return f"{name} {m.group(3)}" if m else f"the {name}"


def _cards(event: dict, titles: dict[str, str]) -> str:
    if event.get("cards") is None:
        return f"{event['n']} card" + ("s" if event["n"] != 1 else "")
    return ", ".join(titles.get(c, c) for c in event["cards"])


def _turns(n: int, one: str, kind: str = "") -> str:
    return one if n == 1 else f"{n} {kind}turns"


def _shown(e: dict, titles: dict[str, str]) -> str:
    """What a reveal shows: cards from a zone, or a secret number."""
    if "zone" in e:
        return f"{_cards(e, titles)} in {_zone(e['zone'])}"
    if e["value"] is None:
        return "a secret"
    return f"{e['name']} = {e['value']}" if e["name"] else str(e["value"])


def narrate(events: list[dict], titles: dict[str, str]) -> list[str]:
    """One line per happening, control characters made visible; consecutive moves
    between the same zones are merged."""
    lines: list[str] = []
    merged: list[dict] = []
    for e in events:  # merge runs of one-card moves (a deal, a draw of 2)
        if (
            merged
            and e["event"] == "move"
            and merged[-1]["event"] == "move"
            and merged[-1]["src"] == e["src"]
            and merged[-1]["dst"] == e["dst"]
            and (merged[-1]["cards"] is None) == (e["cards"] is None)
        ):
            last = dict(merged[-1])
            last["n"] += e["n"]
            if last["cards"] is not None:
                last["cards"] = last["cards"] + e["cards"]
            merged[-1] = last
        else:
            merged.append(e)
    for e in merged:
        kind = e["event"]
        who = seat_name(e["player"]) if isinstance(e.get("player"), int) else None
        if kind == "turn":
            lines.append(f"Turn {e['turn']}: {who}")
        elif kind == "move":
            lines.append(f"  {_cards(e, titles)}: {_zone(e['src'])} -> {_zone(e['dst'])}")
        elif kind == "play":
            card = f" {titles.get(e['card'], e['card'])}" if e.get("card") else ""
            target = f" at {seat_name(e['target'])}" if e.get("target") is not None else ""
            lines.append(f"  {who} plays{card} ({e['action']}){target}")
        elif (
            kind == "react" and e["card"] is None
        ):  # an answer without a card: a claim, a challenge
            lines.append(f"  {who} answers ({e['reaction']})")
        elif kind == "react":
            lines.append(
                f"  {who} answers with {titles.get(e['card'], e['card'])} ({e['reaction']})"
            )
        elif kind == "choice" and e["kind"] in ("choose", "card", "number"):
            secret = "a card" if e["kind"] == "card" else "secretly"
            lines.append(f"  {who} chooses {e['option'] if e['option'] is not None else secret}")
        elif kind == "reveal":
            lines.append(
                f"  {_shown(e, titles)} shown to {', '.join(map(seat_name, e['players'])) or 'nobody'}"
            )
        elif kind == "choice" and e["kind"] == "react" and e["option"] == "no reaction":
            lines.append(f"  {who} does not react")
        elif kind == "pass":
            lines.append(f"  {who} passes")
        elif kind == "trigger":
            lines.append(f"  [{e['rule']}]" + (f" for {who}" if who else ""))
        elif kind == "shuffle":
            lines.append(f"  {_zone(e['zone'])} is shuffled")
        elif kind == "refill":
            lines.append(f"  {_zone(e['source'])} becomes {_zone(e['zone'])}")
        elif kind == "counter":
            lines.append(f"  {e['counter']} = {e['value']}")
        elif kind == "set_current":
            lines.append(f"{who} is to play" if e["turn"] else f"{who} goes first")
        elif kind == "eliminate":
            lines.append(f"  {who} is out")
        elif kind == "sit_out":
            lines.append(f"  {who} is out for the round")
        elif kind == "back":
            lines.append(f"  {', '.join(map(seat_name, e['players']))} are back in")
        elif kind == "round":
            lines.append(f"Round {e['round']} begins")
        elif kind == "round_end":
            lines.append(f"Round {e['round']} ends ({e['rule']})")
        elif kind == "reverse":
            lines.append("  play changes direction")
        elif kind == "skip_turn":
            lines.append(f"  {who} will miss {_turns(e['turns'], 'a turn')}")
        elif kind == "extra_turn":
            lines.append(f"  {who} gets {_turns(e['turns'], 'an extra turn', 'extra ')}")
        elif kind == "set_next":
            lines.append(f"  {who} plays next")
        elif kind == "skipped":
            lines.append(f"Turn {e['turn']}: {who} misses the turn")
        elif kind == "no_play":
            lines.append(f"  {who} has no legal play")
        elif kind == "error":
            lines.append(f"  engine: {e['message']}")
        elif kind == "end":
            winners = ", ".join(seat_name(p) for p in e["winners"]) or "nobody"
            verb = "win" if len(e["winners"]) > 1 else "wins"
            lines.append(
                f"Game over after {e['turn']} turn{'' if e['turn'] == 1 else 's'}: {winners} {verb} ({e['reason']})"
            )
    return [visible(line) for line in lines]
