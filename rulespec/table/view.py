"""The table as one seat sees it, and its options, in words: pure functions from an
observation (rulespec.interpreter.observe) and the spec's Titles to plain data and
text, for the terminal seat here and any other front end.

`table()` gives the view as data (zones with sizes and visible cards with their
titles, each seat's zones, counters and parameters by title, whose turn, the result),
which the terminal seat and the browser (rulespec/serve/views.py) both draw;
`table_lines()` writes it as text; `option_text()` says what an option does;
`end_lines()` sums a game up.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import groupby

from rulespec.interpreter.choices import (
    Branch,
    GroupPlay,
    NoReaction,
    Option,
    Pass,
    PickCard,
    PickCards,
    PickUnseen,
    PickValue,
    Play,
    React,
    seat_name,
)

from .narrate import (
    UNTARGETED,
    Titles,
    capital,
    counter_name,
    parse_label,
    picked,
    picked_at,
    with_rule,
)

SHOWN_WHOLE = 6  # an ordered zone of at most this many cards is listed, bottom first
WIDE = 120  # a seat's line longer than this is broken, a zone or set of counters a line


def _split(label: str) -> tuple[str, str | None]:
    """A label without its seat, and the seat of a seat's zone or counter: hand[P1] is
    ("hand", "P1"), field[P1][0] ("field[0]", "P1"), row[2] ("row[2]", None)."""
    name, owner, index = parse_label(label)
    if owner is None or not re.fullmatch(r"P\d+", owner):  # shared, or a team's
        return label, None
    return (name if index is None else f"{name}[{index}]"), owner


def _zone(label: str, seen, titles: Titles, marks: list | None = None) -> dict:
    """One zone as the seat sees it: its size, and its cards (a pile's top card last)
    when visible, each with its per_card counters (`marks`, by card as the observation
    lists them), else the cards revealed to the seat in it, with how deep each lies.
    "top_only": shown by its size and top card, as a pile (an ordered zone) of more than
    SHOWN_WHOLE cards is, unless it is `spread`; a shorter one (a trick, a fresh
    discard) is shown whole."""
    name, seat = _split(label)
    title, (declared, owner, index) = titles.zone(label, whose=not seat), parse_label(label)
    zone = {
        "label": label,
        "name": name,
        "title": title.removeprefix("the "),
        "pile": declared in titles.piles,
    } | _text(titles, "zones", declared)
    if index is not None and not seat:  # a shared (or a team's) family's: its empty
        # zones are told together, "North south's meld: empty: fours, fives"
        family = f"{declared}[{owner}]" if owner else declared
        zone["family"] = titles.zone(family).removeprefix("the ")
        zone["member"] = titles.zone(label, whose=False).removeprefix("the ")
    order = {n: i for i, n in enumerate(titles.cards)}
    if isinstance(seen, dict):  # hidden from the seat
        known = seen.get("revealed", ())  # those at a depth first, top first; the rest by name
        placed = [r for r in known if "depth" in r]
        loose = sorted(
            (r for r in known if "depth" not in r), key=lambda r: order.get(r["card"], len(order))
        )
        revealed = [  # the rest in deck order, as a hand is shown (`101, 25` read as unsorted)
            _card(r["card"], titles) | {"where": _depth(r.get("depth"))} for r in placed + loose
        ]
        return zone | {
            "size": seen["count"],
            "cards": None,
            "revealed": revealed,
            "top_only": False,
        }
    cards = [_card(c, titles, m) for c, m in zip(seen, marks or [{}] * len(seen))]
    if not zone["pile"]:  # a set: in deck order, as players sort a hand
        cards.sort(key=lambda c: (order.get(c["name"], len(order)), c["name"]))
    return zone | {
        "size": len(seen),
        "cards": cards,
        "revealed": [],
        "top_only": zone["pile"] and len(seen) > SHOWN_WHOLE and declared not in titles.spread,
    }


def _card(name: str, titles: Titles, marks: dict | None = None) -> dict:
    """A card by name and title; with its per_card counters that are shown (the
    observation gives those off their initial values: "marks", title and value of
    each), and its title saying them: "Squire (damage 2)"."""
    card = {"name": name, "title": titles.card(name)} | _text(titles, "cards", name)
    shown = [
        {"title": titles.counter(k).lower(), "value": titles.counter_value(k, v)}
        for k, v in (marks or {}).items()
        if k not in titles.unshown
    ]
    if shown:
        said = ", ".join(f"{m['title']} {m['value']}" for m in shown)
        card |= {"marks": shown, "title": f"{card['title']} ({said})"}
    return card


def _text(titles: Titles, section: str, name: str) -> dict:
    """{"text": the spec's text:} of a card, zone, counter or parameter; {} without one."""
    text = titles.text(section, name)
    return {"text": text} if text else {}


def _depth(depth: int | None) -> str | None:
    """Where a revealed card lies in its zone, when the zone is ordered."""
    return None if depth is None else "on top" if depth == 0 else f"{depth} down"


def table(
    observation: dict, titles: Titles, params: dict | None = None, between: str | None = None
) -> dict:
    """The table as data: the shared zones, counters and shown values, each seat's
    zones, counters and shown values (the viewer's marked `you`), the parameters, whose
    turn it is, and at the end the result and why the game ended, in words. A card is
    its name and its title; a zone hidden from the seat has no cards, only its size."""
    seats = {
        s: {"seat": s, "you": s == observation["seat"], "out": s not in observation["active"]}
        for s in _seats(observation)
    }
    # whose turn it is: at a step offered round the table, its player's, not the current
    # player's, who is the one asked
    current = observation.get("turn_of", observation["current"])
    for s in seats.values():
        s["zones"], s["counters"], s["values"] = [], [], []
        s["goals"] = _goals(observation["zones"], s["seat"], titles)
        s["owed"] = None if observation["over"] else _owed(observation, s["seat"])
    shared: dict = {"zones": [], "counters": [], "values": []}
    for label, seen in observation["zones"].items():
        if parse_label(label)[0] in titles.unshown:  # kept only for the rules
            continue
        marks = observation.get("marks", {}).get(label)
        seats.get(_split(label)[1], shared)["zones"].append(_zone(label, seen, titles, marks))
    # the counters, then the named values shown, each by title, a seat's at the seat
    for key, title_of, section in (
        ("counters", titles.counter, "counters"),
        ("values", titles.value, "rules"),
    ):
        for label, value in observation.get(key, {}).items():
            if key == "counters" and counter_name(label) in titles.unshown:  # for a rule
                continue
            seat = _split(label)[1]
            seats.get(seat, shared)[key].append(
                {
                    "label": label,
                    "title": title_of(label, whose=not seat),
                    "value": titles.counter_value(label, value),
                }
                | _text(titles, section, parse_label(label)[0])
            )
    return {
        "seat": observation["seat"],
        "turn": observation["turn"],
        "current": current,
        # the viewer, asked while another's turn goes on (a step offered round the table,
        # a choice made for another seat, an answer); None otherwise. Only the one asked
        # is told: another seat is not shown who holds an answer
        "asked": observation["seat"]
        if "options" in observation and observation["seat"] != current
        else None,
        # a round's part asking (its setup, its scoring, its end, the match's): between
        # turns, nobody's to play (State.decision_between)
        "between": titles.rule(between) if between else None,
        "over": observation["over"],
        "result": observation.get("result"),
        "why": _why(observation, titles),
        "zones": shared["zones"],
        "counters": shared["counters"],
        "values": shared["values"],
        "seats": list(seats.values()),
        "params": [
            {"name": n, "title": titles.params.get(n, n), "value": v} | _text(titles, "params", n)
            for n, v in (params or {}).items()
        ],
    }


def _goals(zones: dict, seat: str, titles: Titles) -> list[dict]:
    """The seat's progress toward each goal set, counted from its zone as the viewer
    sees it: each entry's cards (up to its limit) and the next to collect. A goal
    whose zone the viewer cannot see is left out, as its cards are."""
    out = []
    for name, goal in titles.goals.items():
        seen = zones.get(f"{goal.zone}[{seat}]")
        if not isinstance(seen, list):
            continue
        entries = [
            {"title": title, "have": min(limit, sum(c in kinds for c in seen)), "limit": limit}
            for title, limit, kinds in goal.entries
        ]
        next_one = next((e["title"] for e in entries if e["have"] < e["limit"]), None)
        out.append({"name": name, "title": goal.title, "entries": entries, "next": next_one})
    return out


def _owed(observation: dict, seat: str) -> str | None:
    """The turns a seat is owed, in words ("1 more turn to take, 2 turns to miss"); None
    for none. An Exploding Kittens designer's table hid who was still to play twice."""
    extra = observation.get("extra_turns_owed", {}).get(seat, 0)
    skips = observation.get("turns_to_skip", {}).get(seat, 0)
    words = [
        f"{n} {text.format('s' * (n != 1))}"
        for n, text in ((extra, "more turn{} to take"), (skips, "turn{} to miss"))
        if n
    ]
    return ", ".join(words) or None


def _why(observation: dict, titles: Titles) -> str | None:
    """Why a finished game ended, in words; None while it goes on."""
    result = observation.get("result")
    return titles.why(result["reason"]) if result and result["over"] else None


def _seats(observation: dict) -> list[str]:
    """The seats at the table, in order: those in, and those out who still own a zone."""
    owners = {seat for _, seat in map(_split, observation["zones"]) if seat}
    return sorted(owners | set(observation["active"]), key=lambda s: int(s[1:]))


def _cards_text(zone: dict) -> str:
    """A zone in a few words: its cards (a long pile: its size and top card), or its size;
    "empty" whether the seat sees its cards or not, as its size is told either way."""
    if not zone["size"]:
        return "empty"
    size = f"{zone['size']} card{'' if zone['size'] == 1 else 's'}"
    if zone["cards"] is None:
        shown = _runs(card_text(c) for c in zone["revealed"])
        return size + (f"; known to you: {shown}" if shown else "")
    if zone["top_only"]:  # its size, and the card on top
        return f"{size}, top {zone['cards'][-1]['title']}"
    # a pile of one card has no other to tell its top from
    return _runs(c["title"] for c in zone["cards"]) + " (top)" * (zone["pile"] and zone["size"] > 1)


def _runs(texts) -> str:
    """Cards in a few words, a run of one title as one: "Ace x3, King"."""
    return ", ".join(
        text if (k := len(list(group))) == 1 else f"{text} x{k}" for text, group in groupby(texts)
    )


def card_text(card: dict) -> str:
    """A card by title, and where it lies when that was revealed: "Ace (on top)"."""
    return card["title"] + (f" ({card['where']})" if card.get("where") else "")


def _counters_text(counters: list[dict]) -> str:
    """Counters (or parameters) in a few words."""
    return ", ".join(f"{c['title']} {_said(c['value'])}" for c in counters)


def _said(value) -> str:
    """A value as a player reads it, a yes-or-no parameter as yes or no: an Oh Hell
    designer's Rules line read "Lose the difference when a bid fails false" (and before
    that Python's "True"). The table is for players, who read no YAML."""
    return ("no", "yes")[value] if isinstance(value, bool) else as_yaml(value)


def as_yaml(value) -> str:
    """A value as a spec or a scenario's YAML writes it: null, true, false."""
    if value is None:
        return "null"
    return ("false", "true")[value] if isinstance(value, bool) else str(value)


def _goal_text(goal: dict) -> str:
    """A seat's progress toward a goal set: "Treasures 5/11, next Map 1/3"."""
    have = sum(e["have"] for e in goal["entries"])
    done = f"{goal['title']} {have}/{sum(e['limit'] for e in goal['entries'])}"
    entry = next((e for e in goal["entries"] if e["title"] == goal["next"]), None)
    return f"{done}, next {entry['title']} {entry['have']}/{entry['limit']}" if entry else done


def table_lines(view: dict, params: bool = False) -> list[str]:
    """The table as text: a heading, the shared zones, a line per seat (or, for a
    long one, a line per zone under the seat), the counters (and, when asked, the
    parameters)."""
    you = f" (you are {view['seat']})" if view["seat"] else ""
    # whose turn it is, and who is asked when that is another seat (a reaction, a pick,
    # a choice for another seat): a Bridge trial's declarer, asked at the dummy's turn,
    # read only "P3's turn (you are P1)"
    state = "game over" if view["over"] else f"{view['current']}'s turn"
    if view.get("asked") and not view["over"]:
        state += f", {view['asked']} chooses"
    if view.get("between") and not view["over"]:  # a round's part asks, between turns
        after = f", after turn {view['turn']}" if view["turn"] else ""
        lines = [f"== {view['between']}{after}{you}"]
    else:  # turn 0 is the game's setup: nobody's turn yet, though a choice may be asked
        lines = [f"== Turn {view['turn']}: {state}{you}" if view["turn"] else f"== Setup{you}"]
    lines += _shared_lines(view["zones"])
    for s in view["seats"]:
        zones = [f"{z['title']} {_cards_text(z)}" for z in s["zones"]]
        shown = s["counters"] + s["values"]
        rest = [_counters_text(shown)] if shown else []
        rest += map(_goal_text, s["goals"])
        rest += [s["owed"]] if s["owed"] else []
        marks = [word for word, on in (("you", s["you"]), ("out", s["out"])) if on]
        mark = f" ({', '.join(marks)})" if marks else ""  # a seat out is told so too
        # a seat that owns nothing (a solitaire without a hand) has no line: the heading
        # says who you are, and a seat out that owns nothing is not listed (_seats)
        if not zones + rest:
            continue
        line = f"  {s['seat']}{mark}: " + "; ".join(zones + rest)
        if len(line) <= WIDE:
            lines.append(line)
        else:  # a seat with many zones (a Lost Cities player's expeditions): one a line,
            # the empty ones together
            empty = [z["title"] for z in s["zones"] if not z["size"]]
            if len(empty) > 1:
                zones = [text for z, text in zip(s["zones"], zones) if z["size"]]
                zones.append(f"empty: {', '.join(empty)}")
            lines.append(f"  {s['seat']}{mark}:")
            for part in zones + rest:
                lines += _fold(f"    {part}", "      ")
    if view["counters"] or view["values"]:
        lines.append("  " + _counters_text(view["counters"] + view["values"]))
    if params and view["params"]:
        lines.append(rules_line(view))
    return lines


def _shared_lines(zones: list[dict]) -> list[str]:
    """The shared zones, a line each; a family's empty ones (a team's too) on one line
    where the first of them stands: "North south's meld: empty: fours, fives"."""
    empty: dict[str, list[str]] = {}
    for z in zones:
        if "family" in z and not z["size"]:
            empty.setdefault(z["family"], []).append(z["member"])
    lines = []
    for z in zones:
        group = empty.get(z.get("family"), ())
        if len(group) > 1 and not z["size"]:
            if z["member"] == group[0]:
                lines += _fold(f"  {capital(z['family'])}: empty: {', '.join(group)}", "      ")
            continue
        lines += _fold(f"  {capital(z['title'])}: {_cards_text(z)}", "      ")
    return lines


def _fold(line: str, indent: str) -> list[str]:
    """A line past WIDE broken after its commas, between cards, the rest indented (a
    spread pile of thirteen cards read as one line of 239 characters)."""
    if len(line) <= WIDE:
        return [line]
    parts = line.split(", ")
    out, current = [], parts[0]
    for part in parts[1:]:
        if len(current) + 2 + len(part) > WIDE:
            out.append(current + ",")
            current = indent + part
        else:
            current += ", " + part
    return [*out, current]


def rules_line(view: dict) -> str:
    """The game's parameters by title, on one line."""
    return "  Rules: " + _counters_text(view["params"])


# --- options ----------------------------------------------------------------------


def decision_heading(
    kind: str | None,
    asker: str | None,
    titles: Titles,
    window: str | None = None,
    prompt: str = "",
    offered: Sequence[Option] = (),
    log: Sequence[dict] = (),
) -> str:
    """What a decision asks, in words: the rule or step asking, by its title, and the
    choice's own `prompt` (`choose(p, "…")`), else the rule's `prompt:` when the spec
    gives one. At a reaction window, the answered rule's title and the card its play
    picks (`target: card`), as the seat's `log` tells it (a named window's title too),
    and in place of that rule's prompt the window's, else those of the reactions
    `offered` (the options): the question is whether to answer with them."""
    prompt = prompt or (titles.prompts.get(asker, "") if asker else "")
    if kind == "react":
        heading = f"You may answer {titles.rule(asker)}" if asker else "You may answer"
        if aimed := asker and picked_at(log, titles, asker):
            heading = f"{heading} at {aimed}"
        named = titles.windows.get(window)
        if named is not None:
            heading = f"{heading} ({named.title})"
        asked = dict.fromkeys(
            titles.prompts.get(o.reaction, "") for o in offered if isinstance(o, React)
        )
        prompt = (named and named.prompt) or " / ".join(filter(None, asked)) or prompt
        return f"{heading} — {prompt}" if prompt else heading + ":"
    if not asker:
        return prompt or "Your options:"
    return f"{titles.rule(asker)} — {prompt or 'your options:'}"


def asker(asking: str | None, titles: Titles, prompt: str = "") -> dict | None:
    """The rule or step asking a decision, as data: its name (a step's turn.NAME),
    title, text and prompt (the choice's own, else the rule's)."""
    if asking is None:
        return None
    return {
        "name": asking,
        "title": titles.rule(asking),
        "text": titles.text("rules", asking),
        "prompt": prompt or titles.prompts.get(asking, ""),
    }


def arranged(
    options: list[Option], titles: Titles, type_names: list[str], asking: str | None = None
) -> list[dict]:
    """The options as a person is shown them, the same on every front end, so that an
    option keeps its place from turn to turn: those of a card together, the cards in
    deck order; numbers from the lowest; a choice's branches in the spec's order; plays
    without a card in the order the spec declares their actions (Fold, Check, Call,
    Raise), then by their words; Pass (or not answering) always last. Each: the option,
    its words, its group and its words within the group (`short`)."""
    shown = []
    for o in options:
        text = option_text(o, titles, type_names, asking)
        group, short = _group(o, text, titles, type_names)
        shown.append({"option": o, "text": text, "group": group, "short": short})
    index = {n: i for i, n in enumerate(type_names)}
    rules = {n: i for i, n in enumerate(titles.rules)}
    return sorted(
        shown,
        key=lambda s: (
            _place(s["option"], index, rules),
            (s["group"] or "").casefold(),
            s["text"].casefold(),
        ),
    )


def _place(o: Option, index: dict[str, int], rules: dict[str, int]) -> tuple:
    """Where an option stands before its words are compared: (0, deck place) for a
    card's, after them a group of cards played as one move by its action's place in the
    spec, then its cards; (1, value) for a number or branch, (2, the action's place in
    the spec) for a play without a card, (2,) for the others, (3,) for Pass; a play's
    target card (`target: card`) by its deck place after that, its target zone (`target:
    zone`) by its place."""
    if isinstance(o, (Pass, NoReaction)):
        return (3,)
    if isinstance(o, GroupPlay):  # after the cards, action by action, each by its cards
        return (0, len(index) + 1 + rules.get(o.action, len(rules)), *sorted(o.group))
    picked = _target_place(o, index)
    if isinstance(o, (Play, React)) and o.card_type is not None:
        return (0, o.card_type, *picked)
    if isinstance(o, PickValue) and isinstance(o.value, frozenset):  # a kind named: by its
        return (0, min(o.value, default=len(index)))  # first card type, as a hand is
    if isinstance(o, PickUnseen):  # after the cards seen, zone by zone
        return (0, len(index), o.slot)
    if isinstance(o, PickCard) and o.place:  # a type in several zones: zone by zone
        return (0, index.get(_picked_type(o), len(index)), o.place)
    if isinstance(o, PickCard) or (isinstance(o, PickValue) and isinstance(o.value, str)):
        return (0, index.get(o.label, len(index)))
    if isinstance(o, PickCards):  # by its cards in deck order, as a hand is
        return (0, *(index.get(name, len(index)) for name in o.label.split("+")))
    if isinstance(o, PickValue) and isinstance(o.value, int):
        return (1, o.value)
    if isinstance(o, Branch):
        return (1, o.index)
    if isinstance(o, Play):
        return (2, rules.get(o.action, len(rules)), *picked)
    return (2,)


def _target_place(o: Option, index: dict[str, int]) -> tuple:
    """Where a play's target card stands (its deck place), or its target zone (its
    place in its family); () for another option."""
    if isinstance(o, Play) and o.zone is not None:
        return (o.zone,)
    aimed = picked(o.label) if isinstance(o, Play) and o.chosen is not None else None
    return (index.get(aimed[0], len(index)),) if aimed else ()


def _group(option: Option, text: str, titles: Titles, type_names: list[str]) -> tuple:
    """An option's group (the card it plays, or its rule: a group of cards played as
    one move is its rule's; None: no group) and its words within it."""
    if not isinstance(option, Play):
        return None, text
    rule = titles.rule(option.action)
    if isinstance(option, GroupPlay):  # "Trade-off: Discard Red item, Blue item"
        return rule, text.removesuffix(f" ({rule})")
    if option.card_type is None:
        return rule, text.removeprefix(rule).lstrip(": ") or rule
    card, verb = titles.card(type_names[option.card_type]), titles.verb(option.action)
    said = with_rule(card, rule, verb)
    rest = text.removeprefix(f"{verb.capitalize()} {said}")
    if said == card and rest:  # the card says the rule: its target alone, "at P2" under
        if rule.casefold().removeprefix(f"{verb} ") in card.casefold():  # "Double Shot"
            return card, rest.lstrip()  # (it read "Double shot at P2" there)
        # the verb says it: kept, or two actions read alike ("onto the first pile" for a
        # Build and a Bury under "Ace")
        return card, verb.capitalize() + rest
    return card, rule + rest


def option_text(
    option: Option, titles: Titles, type_names: list[str], asking: str | None = None
) -> str:
    """What an option does, in the spec's titles: "Play Ace (Lead) at P2", "Answer
    with Joker", "Pass" (or the `pass_title` of the step `asking`, "Fold"). type_names
    maps an option's card type to its card."""
    if isinstance(option, Play):
        return _play_text(option, titles, type_names)
    if isinstance(option, React):
        rule = titles.rule(option.reaction)
        if option.card_type is None:
            return f"Answer: {rule}"
        card = titles.card(type_names[option.card_type])
        return f"Answer with {with_rule(card, rule)}"
    if isinstance(option, Pass):
        return titles.pass_titles.get(asking, "Pass")
    if isinstance(option, NoReaction):
        return "Do not answer"
    if isinstance(option, PickUnseen):  # a card taken by its place
        return f"A card from {titles.zone(option.label)}"
    if isinstance(option, PickValue) and titles.is_member(option.label):  # a family's zone
        return capital(titles.zone(option.label))
    if isinstance(option, PickCard) and option.place:
        return f"{titles.card(_picked_type(option))} from {titles.zone(option.place)}"
    if isinstance(option, (PickCard, PickValue)):
        return titles.card(option.label)
    if isinstance(option, PickCards):
        return titles.card_set(option.label)
    return option.label


def _picked_type(option: PickCard) -> str:
    """The card type a picked card's label names before its zone."""
    return option.label.removesuffix(f" from {option.place}")


def _play_text(option: Play, titles: Titles, type_names: list[str]) -> str:
    rule, verb = titles.rule(option.action), titles.verb(option.action)
    if isinstance(option, GroupPlay):  # a group of cards as one move
        cards = ", ".join(titles.card(type_names[t]) for t in option.group)
        text = f"{verb.capitalize()} {with_rule(cards, rule, verb)}"
    elif option.card_type is None:
        text = rule
    else:
        card = titles.card(type_names[option.card_type])
        text = f"{verb.capitalize()} {with_rule(card, rule, verb)}"
    if option.target is not None:
        text += f" at {seat_name(option.target)}"
    elif option.zone is not None:  # a card played onto it, or a zone chosen without one
        zone = titles.zone(option.label.rpartition(" -> ")[2])
        text += f" onto {zone}" if option.card_type is not None else f": {zone}"
    elif option.action in titles.untargeted:
        text += UNTARGETED
    aimed = picked(option.label) if option.chosen is not None else None
    if aimed:
        text += f": {titles.card(aimed[0])} from {titles.zone(aimed[1])}"
    return text


# --- the end ----------------------------------------------------------------------


def end_lines(observation: dict, titles: Titles) -> list[str]:
    """The end of a game in words: who won and why, then the table as it was left
    (the hands the viewer may see, the others' sizes)."""
    view = table(observation, titles)
    if view["why"] is None:
        return ["The game was left unfinished: nobody wins."]
    winners, me = view["result"]["winners"], observation.get("seat")
    partners = ", ".join(w for w in winners if w != me)
    who = (
        "Nobody wins"
        if not winners
        else f"You win ({me}{f', with {partners}' if partners else ''})"  # the viewer's seat
        if me in winners
        else f"The winner is {winners[0]}"
        if len(winners) == 1
        else f"The winners are {', '.join(winners)}"
    )
    return [f"{who}: the game ended {view['why']}.", *table_lines(view)]
