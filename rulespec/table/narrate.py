"""Events -> readable lines, as one seat (or an omniscient spectator) sees the game.

The narration speaks the spec's titles (cards, rules, counters, zones), never its
identifiers: `Titles.of(spec)` reads them once from the IR, and narrate() is a pure
function of the events and the titles, for any front end (the terminal, a browser).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from rulespec.interpreter.choices import seat_name, seat_said

from ..lang import ir
from ..lang.diagnostics import visible

# pile; hand[P1] (a seat's), tricks[odd] (a team's); row[2] (a family's); field[P1][0]
_LABEL = re.compile(r"(\w+)(?:\[([A-Za-z_]\w*)\])?(?:\[(\d+)\])?")


UNTARGETED = ", with no one to target"  # a card played for nothing (without_target)

# the card a play picks (`target: card`), as its label ends: "kraken_raid coins from ship[P2]"
_PICKED = re.compile(r" (\w+) from (\S+)$")


def picked(label: str) -> tuple[str, str] | None:
    """The card type and the zone a play's label names for the card it picks
    (`target: card`), or None for a play that picks none."""
    m = _PICKED.search(label)
    return (m[1], m[2]) if m else None


def parse_label(label: str) -> tuple[str, str | None, int | None]:
    """A zone's or counter's label as (its name, the seat or team that owns it, its
    index in its family): `field[P1][0]` is ("field", "P1", 0)."""
    m = _LABEL.fullmatch(label)
    if m is None:
        return label, None, None
    name, owner, index = m.groups()
    return name, owner, None if index is None else int(index)


# why a game ended when no rule ended it (State.finish), as a clause
_ENGINE_REASONS = {
    "turn_limit": "as the turn limit was reached",
    # a loop without a choice, a procedure without end, a turn of endless decisions:
    # the engine's line before it says which
    "effect_loop": "as the rules went on without end",
    "trigger_loop": "as a rule kept firing",
    "no_players": "as every player is out",
}


@dataclass(frozen=True)
class _Words:
    """A part of the spec that is no rule but has words for people: the setup."""

    title: str
    text: str
    prompt: str = ""


class Goal(NamedTuple):
    """A goal set as the table shows it: its title, the per-player zone it counts in
    (its name and title), and its entries in order, each (title, limit, the card types
    it counts)."""

    title: str
    zone: str
    zone_title: str
    entries: tuple[tuple[str, int, frozenset[str]], ...]


def _tagged(spec: ir.Spec) -> dict[str, tuple]:
    """Each tag (a card property's text value too) -> the card types that have it."""
    out: dict[str, list] = {}
    for c in spec.cards:
        for tag in c.tags:
            out.setdefault(tag, []).append(c.name)
    return {tag: tuple(cards) for tag, cards in out.items()}


def _props_text(props, kinds: frozenset[str], cards: Mapping[str, str]) -> str:
    """A card's properties as a spec writes them, a card type named by its title where
    a `kind` property (one of `kinds`) names one: "rank 7, trump true", "fix Roll"."""
    return ", ".join(
        f"{k} {str(v).lower() if isinstance(v, bool) else cards.get(v, v) if k in kinds else v}"
        for k, v in sorted(props)
    )


@dataclass(frozen=True)
class Titles:
    """The readable names of a spec's parts, by identifier: cards, rules (with their
    kind: "action", "end condition", ...), counters, zones and parameters. A name
    without a title reads as itself."""

    cards: Mapping[str, str] = field(default_factory=dict)
    rules: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # name -> (kind, title)
    counters: Mapping[str, str] = field(default_factory=dict)
    zones: Mapping[str, str] = field(default_factory=dict)
    params: Mapping[str, str] = field(default_factory=dict)
    piles: frozenset[str] = frozenset()  # ordered zones: their top card is what shows
    spread: frozenset[str] = frozenset()  # ordered zones shown whole, however long
    seats: frozenset[str] = frozenset()  # counters and shown values that hold a player (a seat)
    values: Mapping[str, str] = field(default_factory=dict)  # the named values the table shows
    quiet: frozenset[str] = frozenset()  # counters whose changes are not narrated
    quiet_rules: frozenset[str] = frozenset()  # checked rules whose firing is not narrated
    unshown: frozenset[str] = frozenset()  # counters and zones the table does not show
    # the spec's `text:` by section (cards, rules, zones, counters, params; branches: a
    # `choose` branch's by its label) and name, and each rule's `prompt:`; public, like
    # the titles
    texts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    prompts: Mapping[str, str] = field(default_factory=dict)
    verbs: Mapping[str, str] = field(default_factory=dict)  # action -> its `verb:`, if given
    members: Mapping[str, tuple] = field(default_factory=dict)  # a family -> its zones' titles
    counted: Mapping[str, tuple] = field(default_factory=dict)  # a family -> its counters' titles
    carded: frozenset[str] = frozenset()  # actions that play a card
    carded_answers: frozenset[str] = frozenset()  # reactions that answer with one
    untargeted: frozenset[str] = frozenset()  # actions played without a target at times
    # the steps a player may pass, named by a pass when there are several (a turn's
    # actions, then its buys: "P1 passes at Buy")
    passed: frozenset[str] = frozenset()
    plays: frozenset[str] = frozenset()  # the turn's play steps (those with actions)
    pass_titles: Mapping[str, str] = field(default_factory=dict)  # turn.STEP -> its pass_title
    pass_effects: frozenset[str] = frozenset()  # turn.STEP of a step whose pass does more
    windows: Mapping[str, ir.WindowDef] = field(default_factory=dict)  # named reaction windows
    # a reaction -> the actions and reactions it answers
    answers: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # the actions and reactions whose effect opens a reaction window -> whether it may
    # open more than one (two `react` calls, or one in a loop)
    reacting: Mapping[str, bool] = field(default_factory=dict)
    goals: Mapping[str, Goal] = field(default_factory=dict)
    props: Mapping[str, str] = field(default_factory=dict)  # a card -> "rank 7, suit hearts"
    tags: Mapping[str, tuple] = field(default_factory=dict)  # a tag -> the cards that have it
    rounds: bool = False  # a match of rounds: sit_out lasts the round, else the game

    @classmethod
    def of(cls, spec: ir.Spec) -> Titles:
        named = [("setup", "setup", _Words("Setup", spec.setup_text))] if spec.setup_text else []
        named += [(p.name, "procedure", p) for p in spec.procedures]
        # a named value (`value:`) is no condition to a person at the table
        named += [
            (c.name, "condition" if c.type == "bool" else "value", c) for c in spec.conditions
        ]
        for kind, rule in spec.rules():
            # a step may be named as a rule is (step play, action play): a key of its own
            prefix = {"round": "rounds.", "step": "turn."}.get(kind, "")
            named.append((prefix + rule.name, ir.RULE_KINDS[kind], rule))
        sections = {
            "cards": spec.cards,
            "zones": spec.zones,
            "counters": spec.counters,
            "params": spec.params,
            "goals": spec.goals,
            "windows": spec.windows,
        }
        # a parameter a text names, {kraken_limit}, as the game sets it (a variant's too)
        values = {p.name: p.said() for p in spec.params}

        def filled(text: str) -> str:
            return ir.PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), text)

        texts = {k: {x.name: filled(x.text) for x in xs if x.text} for k, xs in sections.items()}
        texts["rules"] = {key: filled(rule.text) for key, _, rule in named if rule.text}
        texts["branches"] = {label: filled(text) for label, text in spec.branch_texts}
        cards, kinds = {c.name: c.title for c in spec.cards}, spec.kind_props
        return cls(
            cards=cards,
            props={c.name: _props_text(c.props, kinds, cards) for c in spec.cards},
            tags=_tagged(spec),
            rules={key: (kind, rule.title) for key, kind, rule in named},
            counters={c.name: c.title for c in spec.counters},
            zones={z.name: z.title for z in spec.zones},
            members={z.name: z.titles for z in spec.zones if z.titles},
            counted={c.name: c.titles for c in spec.counters if c.titles},
            params={p.name: p.title for p in spec.params},
            piles=frozenset(z.name for z in spec.zones if z.ordered),
            spread=frozenset(z.name for z in spec.zones if z.spread),
            seats=frozenset(c.name for c in spec.counters if c.initial.type == "player")
            | {c.name for c in spec.conditions if c.shown and c.type == "player"},
            values={c.name: c.title for c in spec.conditions if c.shown},
            quiet=frozenset(c.name for c in spec.counters if not (c.narrate and c.shown)),
            unshown=frozenset(x.name for x in (*spec.counters, *spec.zones) if not x.shown),
            quiet_rules=frozenset(
                r.name for _, r in spec.rules() if not getattr(r, "narrate", True)
            ),
            texts=texts,
            prompts={key: rule.prompt for key, _, rule in named if getattr(rule, "prompt", "")},
            verbs={a.name: a.verb for a in spec.actions if a.verb},
            carded=frozenset(a.name for a in spec.actions if a.card is not None),
            carded_answers=frozenset(r.name for r in spec.reactions if r.card is not None),
            untargeted=frozenset(a.name for a in spec.actions if a.without_target),
            passed=frozenset(
                s.name
                for s in spec.turn
                if s.actions and (s.optional or s.repeat or s.around or s.again_if is not None)
            ),
            plays=frozenset(s.name for s in spec.turn if s.actions),
            pass_titles={f"turn.{s.name}": s.pass_title for s in spec.turn if s.pass_title},
            pass_effects=frozenset(f"turn.{s.name}" for s in spec.turn if s.pass_effect),
            windows={w.name: w for w in spec.windows},
            answers={r.name: frozenset(r.answers) for r in spec.reactions},
            reacting={
                r.name: opens > 1
                for r in (*spec.actions, *spec.reactions)
                if (opens := _windows(r.effect, spec))
            },
            goals={g.name: _goal(g, spec) for g in spec.goals},
            rounds=spec.rounds is not None,
        )

    def text(self, section: str, name: str) -> str:
        """The spec's `text:` of a card, rule, zone, counter or parameter, or the words
        `branches:` gives a branch's label ("" if none)."""
        return self.texts.get(section, {}).get(name, "")

    def card(self, name: str) -> str:
        return self.cards.get(name, name)

    def goal_text(self, name: str) -> str:
        """A goal set in words, for the rules panel and `help`: its `text:`, then what
        it counts."""
        goal = self.goals[name]
        order = ", ".join(f"{title} {limit}" for title, limit, _ in goal.entries)
        words = f"Collect in order, in your {goal.zone_title}: {order}."
        return " ".join(filter(None, (self.text("goals", name), words)))

    def verb(self, action: str) -> str:
        """What a player does with the action's card: its `verb:`, else "play"."""
        return self.verbs.get(action, "play")

    def rule(self, name: str) -> str:
        """A rule's title; "Setup" for the game's setup, which asks as a rule does."""
        return self.rules.get(name, ("", "Setup" if name == "setup" else name))[1]

    def is_zone(self, label: str) -> bool:
        """Whether a label is a zone's (`pile`, `hand[P2]`, `row[1]`): a choice of a card
        its chooser cannot see names the zone it lies in."""
        return parse_label(label)[0] in self.zones

    def is_member(self, label: str) -> bool:
        """Whether a label is a family's zone's (`row[1]`, `field[P1][0]`): a choice
        among a family's zones names the zone taken."""
        name, _, index = parse_label(label)
        return index is not None and name in self.zones

    def zone(self, label: str, whose: bool = True) -> str:
        """A zone's label as a rulebook says it: "P1's hand", "row 2", "the discard pile",
        "odd's chest" (a team's), "P1's field 0" (`whose=False`: without the owner, as
        shown among the owner's own zones: "hand", "field 0")."""
        name, owner, index = parse_label(label)
        title = _member(self.members, name, self.zones.get(name, name.replace("_", " ")), index)
        titled = name in self.members
        if owner is not None:
            return f"{owner.replace('_', ' ')}'s {title}" if whose else title
        if (index is not None and not titled) or not whose or title[-1:].isdigit():
            return title  # "row 2", as a number names it
        return title if title.casefold().startswith("the ") else f"the {title}"  # "the pond"

    def counter(self, label: str, whose: bool = True) -> str:
        """A counter's label by title: "Score", "Score for P1" for a seat's, "Bid 2" and
        "Bid 2 for P1" for a family's (`whose=False`: without the owner)."""
        name, owner, index = parse_label(label)
        title = _member(self.counted, name, self.counters.get(name, name), index)
        return f"{title} for {owner.replace('_', ' ')}" if owner and whose else title

    def value(self, label: str, whose: bool = True) -> str:
        """A shown value's label by title, as a counter's: "Score", "Score for P1"."""
        name, owner, _ = parse_label(label)
        title = self.values.get(name, name)
        return f"{title} for {owner}" if owner and whose else title

    def card_set(self, label: str) -> str:
        """A set of cards chosen as one option, its types joined by '+', by their titles."""
        return ", ".join(map(self.card, label.split("+")))

    def counter_value(self, label: str, value):
        """A counter's (or a shown value's) value as the table says it: a seat by its
        name (P2) for one that holds a player, "nobody" for -1; a kind (held by its name) by its card
        type's title, a tag as written, "none" for no kind; else the number."""
        if counter_name(label) in self.seats:
            return seat_said(value)
        if isinstance(value, str) or value is None:
            return "none" if value is None else self.cards.get(value, value)
        return value

    def why(self, reason: str) -> str:
        """Why a game ended, as a clause: the rule that ended it, or the engine's reason."""
        if reason in _ENGINE_REASONS:
            return _ENGINE_REASONS[reason]
        if reason == "setup":
            return "by the setup"
        kind, title = self.rules.get(reason, ("rule", reason))
        return f'by the {kind} "{title}"'


# --- one event, one line ----------------------------------------------------------


def _member(titled: Mapping[str, tuple], name: str, title: str, index: int | None) -> str:
    """A zone's or counter's title, a family's member by its own (`titles:`), else by
    its family's title and index."""
    if index is None:
        return title
    return titled[name][index] if name in titled else f"{title} {index}"


def _who(e: dict) -> str | None:
    return seat_name(e["player"]) if isinstance(e.get("player"), int) else None


def _cards(e: dict, t: Titles) -> str:
    """The cards of an event as the viewer may see them: each by title, or, past
    LISTED cards (a deck dealt out), each title once with its count, in the order they
    came; a count of cards the viewer may not see."""
    if e.get("cards") is None:
        return _some_cards(e["n"])
    titles = list(map(t.card, e["cards"]))
    if len(titles) <= LISTED:
        return ", ".join(titles)
    counts = Counter(titles)
    return ", ".join(
        title if counts[title] == 1 else f"{title} x{counts[title]}" for title in counts
    )


LISTED = 12  # cards an event names one by one


def _some_cards(n: int) -> str:
    return f"{n} card" + ("s" if n != 1 else "")


def _turns(n: int, one: str, kind: str = "") -> str:
    return one if n == 1 else f"{n} {kind}turns"


def with_rule(card: str, rule: str, verb: str = "play") -> str:
    """A card and the rule it is played for, the rule left out when the card's title
    or the verb says it already: "The Joker" for "Joker", "Ace" for "Play ace",
    "Seven" for "Play", "Coins" for "Discard" with the verb discard, "Seven" for "Lay"
    with the verb lay down; a rule whose
    title holds brackets in square ones: "Jack [Skip (the next player)]"."""
    said = rule.casefold().removeprefix(f"{verb} ")
    if said in card.casefold() or _says(verb, said):
        return card  # a verb that holds the title says it: "Lay" for "lay down"
    return f"{card} [{rule}]" if "(" in rule else f"{card} ({rule})"  # no nested brackets


def _says(verb: str, title: str) -> bool:
    """Whether a verb's words hold a title's, in any case: "lay down" holds Lay, "say
    no thanks" No Thanks (bracketed after it, the title read twice)."""
    words, said = verb.casefold().split(), title.casefold().split()
    return any(words[i : i + len(said)] == said for i in range(len(words) - len(said) + 1))


def third_person(verb: str) -> str:
    """A verb as the narration says it of a player: its first word in the third
    person ("discard" -> "discards", "bury" -> "buries", "catch up" -> "catches up")."""
    first, _, rest = verb.partition(" ")
    if first == "have":
        first = "has"
    elif first.endswith(("s", "sh", "ch", "x", "z", "o")):
        first += "es"
    elif first.endswith("y") and first[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        first = first[:-1] + "ies"
    else:
        first += "s"
    return f"{first} {rest}".rstrip()


def _passed(e: dict, t: Titles) -> str:
    """A pass: "P2 passes", "P2 passes at Buy" (the step, where a turn has several to
    pass: a Cuttle trial read the step's title in brackets, "P2 passes (Play)", as the
    pass's name); one the step names (pass_title) by that
    name, "P2 passes (Fold)", but not by a name that says no more than "passes" (a
    Bridge designer's `pass_title: Pass` read "P3 passes (Pass)"). Never "chooses": a
    pass that was the only option (a hand with nothing to play, taken without asking) is
    logged as a chosen one is, so that the other seats cannot tell them apart (a
    President designer read "P3 chooses Knock" of an empty hand). A named pass that does
    something (pass_effect) is said by its name, "P1: Draw", as a play is by what it does
    (an Exploding Kittens trial read "P1 passes (Draw)" of a turn's draw)."""
    step = f"turn.{e.get('step')}"
    named = t.pass_titles.get(step)
    if named is None:
        return f"  {_who(e)} passes{_passed_at(e, t)}"
    if named.casefold() in ("pass", "passes"):
        return f"  {_who(e)} passes"
    if step in t.pass_effects:
        return f"  {_who(e)}: {named}"
    return f"  {_who(e)} passes ({named})"


def _passed_at(e: dict, t: Titles) -> str:
    """The step a pass was made at, where a turn has several steps to pass (" at
    Buy"); "" where it has one."""
    step = e.get("step")  # an older log has none
    return f" at {t.rule(f'turn.{step}')}" if step and len(t.passed) > 1 else ""


def _no_play(e: dict, t: Titles) -> str:
    """A play step with no legal option: "P1 has no legal play"; where the turn has
    several play steps, the step by its title, "P1 has nothing to play at Lay off" (a
    Gin Rummy designer's turns read "P1 discards Six of hearts / P1 has no legal play"
    of the steps that apply only after a knock)."""
    step = e.get("step")  # an older log has none
    if step and len(t.plays) > 1:
        return f"  {_who(e)} has nothing to play at {t.rule(f'turn.{step}')}"
    return f"  {_who(e)} has no legal play"


def _play(e: dict, t: Titles) -> str:
    """A play: "P1 plays Ace at P3", "P1 plays Two onto the first pile", "P1 plays Two
    at Jack in P2's field" (a card picked, `target: card`: "at a card in P2's hand" to a
    seat that did not see it); an action without a card is chosen, not played
    ("P1 chooses Stand", "P1 chooses Take: Fig" of a card from a public zone), unless it
    has a verb ("P1 draws", "P1 knocks (Go out)", "P1 buys Province"), which a title
    that begins with the verb goes on from ("Knock early": "P1 knocks early"), and which
    says a title it holds ("attack with" for Attack: "P1 attacks with Squire"); a
    target player follows the verb alone with no "at" ("P1 steals from P3")."""
    action, verb = t.rule(e["action"]), t.verb(e["action"])
    carded = bool(e.get("card")) or e["action"] in t.carded  # or one the viewer may not see
    aimed = _picked_card(e, t)
    chosen = t.card(e["chosen"]) if e.get("chosen") else ""
    if aimed and not (chosen or carded):  # taken from where the viewer cannot see
        chosen = f"{aimed[0]} from {aimed[1]}"
    onto = t.zone(e["zone"]) if e.get("zone") else ""  # a target zone (`target: zone`)
    if onto and not carded:  # taken, not played onto:
        chosen, onto = onto, ""  # said as a card chosen is ("P1 takes back the left stash")
    if "n" in e:  # a group of cards as one move: named to those who see them
        what, verb = with_rule(_cards(e, t), action, verb), third_person(verb)
    elif carded:
        card = t.card(e["card"]) if e.get("card") else "a card"
        what, verb = with_rule(card, action, verb), third_person(verb)
    elif e["action"] in t.verbs:  # an action without a card, and its verb: "P1 draws"
        words, said = action.split(), verb.split()
        # a title that begins with the verb goes on from it ("P1 knocks early"), a verb
        # that holds the title says it ("P1 attacks with Squire" for Attack, "P1 says no
        # thanks" for No Thanks)
        if [w.casefold() for w in words[: len(said)]] == said[: len(words)]:
            what = ": ".join(filter(None, (" ".join(words[len(said) :]), chosen)))
        elif _says(verb, action):
            what = chosen
        else:
            what = f"{chosen} ({action})".strip()
        verb = third_person(verb)
    else:
        what, verb = f"{action}: {chosen}" if chosen else action, "chooses"
    if e.get("target") is not None:
        # a verb alone says how the target is met: "P2 steals from P3", not "from at P3"
        alone = not what and e["action"] in t.verbs
        target = f"{'' if alone else ' at'} {seat_name(e['target'])}"
    elif onto:
        target = f" onto {onto}"
    elif aimed and carded:
        target = f" at {aimed[0]} in {aimed[1]}"
    else:
        target = UNTARGETED if e["action"] in t.untargeted else ""
    return f"  {_who(e)} {verb} {what}".rstrip() + target


def _picked_card(e: dict, t: Titles) -> tuple[str, str] | None:
    """The card a play picks (`target: card`) and the zone it lies in, as the seat saw
    them: by title where its choice's label was shown to the seat, else "a card" in
    the zone the play's event names (`chosen_from`); None for a play that picks none."""
    label = picked(e.get(OPTION) or "")
    if label is not None:
        return t.card(label[0]), t.zone(label[1])
    return ("a card", t.zone(e["chosen_from"])) if e.get("chosen_from") else None


def picked_at(events: Sequence[dict], titles: Titles, action: str) -> str:
    """The card the turn's last play of `action` picks (`target: card`), in words, as
    the seat saw it ("Jack of hearts in P1's Permanents", "a card in P2's hand"): what a
    window that answers the play asks about. "" where it picks none."""
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e["event"] in _BOUNDS:
            break
        if e["event"] == "play" and e["action"] == action:
            aimed = _picked_card(_with_option(e, events[i - 1] if i else None), titles)
            return f"{aimed[0]} in {aimed[1]}" if aimed else ""
    return ""


OPTION = "option"  # what narrate() adds to a play's event: its choice's label, if shown


def _with_option(e: dict, before: dict | None) -> dict:
    """A play's event with the label of the choice logged just before it (the choice
    is logged, then the play), where the seat was shown it: the label names the card a
    play picks (`target: card`), which the play's event does not."""
    if (
        e["event"] == "play"
        and before is not None
        and before["event"] == "choice"
        and before["kind"] == "play"
        and before["option"] is not None
    ):
        return e | {OPTION: before["option"]}
    return e


def _react(e: dict, t: Titles) -> str:
    """An answer: "P3 answers with Nope", "P2 answers: Challenge"; one to another answer
    names it (_Chain): "P2 answers P3's Nope with Nope"."""
    reaction, answered = t.rule(e["reaction"]), e.get(ANSWERING, "")
    if e["card"] is None and e["reaction"] not in t.carded_answers:  # a claim, a challenge
        return f"  {_who(e)} answers{f' {answered}' if answered else ''}: {reaction}"
    card = t.card(e["card"]) if e["card"] is not None else "a card"  # one the viewer may not see
    return (
        f"  {_who(e)} answers{f' {answered}' if answered else ''} with {with_rule(card, reaction)}"
    )


def _choice(e: dict, t: Titles) -> str | None:
    if e["kind"] == "react" and e["option"] == "no reaction":
        window = t.windows.get(e.get("window"))  # a named window: which of the action's
        declined = f" to {e[ANSWERING]}" if ANSWERING in e else ""  # not what was just said
        return f"  {_who(e)} does not react{declined}" + (f" ({window.title})" if window else "")
    if e["kind"] not in CHOSEN:
        return None  # a play or an answer: its own event says it
    if e["option"] is None and e.get("count") is not None:  # a set of cards, unseen
        return f"  {_who(e)} chooses {_some_cards(e['count'])}"
    if e["option"] is None:
        return f"  {_who(e)} chooses {_SECRETLY.get(e['kind'], 'secretly')}"
    if e.get("forced"):  # the only branch offered: told its chooser alone, never "chooses"
        return f"  {_who(e)} has only one option: {t.card(e['option'])}"
    if e["kind"] == "cards":
        return f"  {_who(e)} chooses {t.card_set(e['option'])}"
    if e["kind"] == "number":  # its label, `depth = 12`: the rule's local says what it is
        name, _, value = e["option"].rpartition(" = ")
        # a bare number told its chooser nothing ("P2 chooses 12" of a secret depth); a
        # local of one letter (`d`) is no word to say
        said = f" ({name.replace('_', ' ')})" if len(name) > 1 else ""
        return f"  {_who(e)} chooses {value}{said}"
    if e["kind"] == "card" and t.is_zone(e["option"]):  # a card taken by its place, unseen
        return f"  {_who(e)} chooses a card from {t.zone(e['option'])}"
    if e["kind"] == "choose" and t.is_member(e["option"]):  # one of a family's zones
        return f"  {_who(e)} chooses {t.zone(e['option'])}"
    name, _, place = e["option"].rpartition(" from ")
    if e["kind"] == "card" and t.is_zone(place):  # a card of a type offered zone by zone
        return f"  {_who(e)} chooses {t.card(name)} from {t.zone(place)}"
    return f"  {_who(e)} chooses {t.card(e['option'])}"


_SECRETLY = {
    "card": "a card",
    "cards": "cards",
    "number": "a number",
}  # what a seat not shown the choice is told
CHOSEN = ("choose", "card", "cards", "number")  # choices that are no play nor answer


def _shown(e: dict, t: Titles) -> str:
    """What a reveal shows: cards from a zone, or a secret number."""
    if "zone" in e and e.get("cards") and e.get("depths"):  # a pile's: top first, as the table
        ordered = sorted(zip(e["depths"], e["cards"]))
        first = " (top first)" if len(ordered) > 1 else ""  # a card alone is no order
        what = f"{', '.join(t.card(c) for _, c in ordered)}{first} in {t.zone(e['zone'])}"
    elif "zone" in e:
        what = f"{_cards(e, t)} in {t.zone(e['zone'])}"
    elif e["value"] is None:
        what = "a secret"
    else:
        what = f"{e['name']} = {e['value']}" if e["name"] else str(e["value"])
    return f"  {what} shown to {', '.join(map(seat_name, e['players'])) or 'nobody'}"


def _mark(e: dict, t: Titles) -> str | None:
    """A card's counter set, said as the table says it beside the card ("Squire (damage
    2)"), which reads for any title: "Squire: damage 2", "Three of clubs: laid off by
    P2" (a Gin Rummy designer's read "Laid off by of Three of clubs is now P2"); "a card
    is marked (damage)" to a seat that does not see the card."""
    if e["counter"] in t.quiet:
        return None
    title = t.counter(e["counter"]).lower()
    if e["card"] is None:
        return f"  a card is marked ({title})"
    return f"  {t.card(e['card'])}: {title} {t.counter_value(e['counter'], e['value'])}"


def _trigger(e: dict, t: Titles) -> str | None:
    """An automatic rule that fired: a trigger fires, an end condition holds (not
    narrated for a rule with `narrate: false`)."""
    if e["rule"] in t.quiet_rules:
        return None
    kind, title = t.rules.get(e["rule"], ("rule", e["rule"]))
    verb = "holds" if kind.endswith(("condition", "match end")) else "fires"
    who = _who(e)
    return f'  The {kind} "{title}" {verb}' + (f" for {who}" if who else "")


def _end(e: dict, t: Titles) -> str:
    winners = ", ".join(seat_name(p) for p in e["winners"]) or "nobody"
    verb = "win" if len(e["winners"]) > 1 else "wins"
    turns = f"{e['turn']} turn{'' if e['turn'] == 1 else 's'}"
    why = t.why(e["reason"])
    payoffs = ", ".join(  # a spec's payoff: chips or points each seat ends with
        f"{seat_name(p)} {v:+d}" for p, v in enumerate(e.get("payoffs", ()))
    )
    return f"Game over after {turns}: {winners} {verb}, {why}" + (
        f"; payoffs {payoffs}" if payoffs else ""
    )


_SAY: dict[str, Callable[[dict, Titles], str | None]] = {
    "turn": lambda e, t: f"Turn {e['turn']}: {_who(e)}",
    "move": lambda e, t: (
        f"  {_cards(e, t)}: {t.zone(e['src'])} -> {t.zone(e['dst'])}"
        if e["src"] != e["dst"]
        else f"  {_cards(e, t)}: moved within {t.zone(e['dst'])}"  # put on top, or inserted
        if parse_label(e["dst"])[0] in t.piles
        else f"  {_cards(e, t)}: stays in {t.zone(e['dst'])}"  # a card shown and kept
    ),
    "play": _play,
    "react": _react,
    "choice": _choice,
    "reveal": _shown,
    "pass": _passed,
    "trigger": _trigger,
    "shuffle": lambda e, t: f"  {t.zone(e['zone'])} is shuffled",
    "swap": lambda e, t: f"  {t.zone(e['zones'][0])} and {t.zone(e['zones'][1])} trade cards",
    "refill": lambda e, t: f"  {t.zone(e['zone'])} is refilled from {t.zone(e['source'])}",
    "counter": lambda e, t: (
        None
        if counter_name(e["counter"]) in t.quiet
        else f"  {t.counter(e['counter'])} is now {t.counter_value(e['counter'], e['value'])}"
    ),
    "mark": _mark,
    "set_current": lambda e, t: f"{_who(e)} is to play",  # in a turn: see narrate()
    "eliminate": lambda e, t: f"  {_who(e)} is out",
    "sit_out": lambda e, t: (
        f"  {_who(e)} is out for the {'round' if t.rounds else 'rest of the game'}"
    ),
    "back": lambda e, t: (
        f"  {', '.join(map(seat_name, e['players']))} "
        + ("is" if len(e["players"]) == 1 else "are")
        + " back in"
    ),
    "round": lambda e, t: f"Round {e['round']} begins",
    "round_end": lambda e, t: f'Round {e["round"]} ends: "{t.rule(e["rule"])}"',
    "reverse": lambda e, t: "  play changes direction",
    "say": lambda e, t: f"  {e['text']}",
    "skip_turn": lambda e, t: f"  {_who(e)} will miss {_turns(e['turns'], 'a turn')}",
    "extra_turn": lambda e, t: f"  {_who(e)} gets {_turns(e['turns'], 'an extra turn', 'extra ')}",
    "extra_turns_dropped": lambda e, t: (
        f"  {_who(e)} loses {_turns(e['turns'], 'an extra turn', 'extra ')} still to come"
    ),
    "set_next": lambda e, t: f"  {_who(e)} plays next",
    "skipped": lambda e, t: f"Turn {e['turn']}: {_who(e)} misses the turn",
    "no_play": _no_play,
    "error": lambda e, t: f"  engine: {e['message']}",
    "end": _end,
}


def _merged(events: list[dict]) -> list[dict]:
    """The events with runs of moves between the same two zones made one (a deal, a
    draw of 2), the cards seen or unseen alike."""
    merged: list[dict] = []
    for e in events:
        last = merged[-1] if merged else None
        if (
            last is not None
            and e["event"] == last["event"] == "move"
            and (last["src"], last["dst"]) == (e["src"], e["dst"])
            and (last["cards"] is None) == (e["cards"] is None)
        ):
            merged[-1] = last | {
                "n": last["n"] + e["n"],
                "cards": None if e["cards"] is None else last["cards"] + e["cards"],
            }
        else:
            merged.append(e)
    return merged


def _goal(goal: ir.GoalDef, spec: ir.Spec) -> Goal:
    """A goal set's words: each entry's kind by its card's title (a tag as written)."""
    titles = {c.name: c.title for c in spec.cards}
    entries = tuple(
        (
            titles.get(kind, kind),
            limit,
            frozenset(c.name for c in spec.cards if kind == c.name or kind in c.tags),
        )
        for kind, limit in goal.order
    )
    zone = next(z.title for z in spec.zones if z.name == goal.zone)
    return Goal(goal.title, goal.zone, zone, entries)


def capital(text: str) -> str:
    """text with its first letter a capital, the rest as written ("Building pile A", not
    str.capitalize's "Building pile a": a Spite and Malice designer's piles)."""
    return text[:1].upper() + text[1:]


def counter_name(label: str) -> str:
    """The counter a label names: `score` of `score[P2]` or `score[north_south]`."""
    return label.split("[", 1)[0]


def _windows(effect: tuple[ir.Stmt, ...], spec: ir.Spec, calling: frozenset = frozenset()) -> int:
    """How many reaction windows an effect may open: 0, 1, or 2 for more than one (two
    `react` calls, or one in a loop), a procedure's counted at each call (one that
    calls itself, `calling`, may open any number)."""
    reacts = 0
    for s in ir.walk_statements(effect):
        if isinstance(s, ir.Do) and s.proc == "react":
            reacts += 1
        elif isinstance(s, ir.ProcedureCall) and spec.windows_of((s,)):
            inner = spec.procedure(s.proc).effect
            reacts += 2 if s.proc in calling else _windows(inner, spec, calling | {s.proc})
        elif isinstance(s, (ir.For, ir.While, ir.ChooseAll)) and spec.windows_of(s.body):
            return 2
    return min(reacts, 2)


ANSWERING = "answering"  # what _Chain adds to an answer's or a pass's event: "P3's Nope"


@dataclass
class _Answerable:
    """A play or an answer of the turn, which a window may answer while its effect
    runs; `spent` once it was answered in the only window its effect opens."""

    rule: str
    player: int
    spent: bool = False


class _Chain:
    """What the answers and passes of a turn's reaction windows answer, as far as a
    seat's log tells: the log does not say (its events would need a field of their own,
    a change of the log's format), but a window is opened only by the effect of the
    turn's last play or of an answer made since, while it runs, and only one may be
    answered. An Exploding Kittens trial read "P3 answers with Nope / P2 answers with
    Nope" and could not tell whether P2's Nope answered the Attack or P3's Nope.

    A play or answer may be answered if its effect opens a window and it was not already
    answered in the only window it opens (an answer closes its window). When that leaves
    one that the answer answers (one with answers at all, for a pass), it is the one:
    an answer to another answer names it, "P2 answers P3's Nope with Nope", and a pass
    names it where it is not the play or answer just told, "P2 does not react to P1's
    Steal". Where several are left (an effect that opens several windows), nothing is
    named rather than a guess."""

    def __init__(self, titles: Titles):
        self.titles, self.open = titles, []

    def read(self, e: dict) -> dict:
        """e, with what it answers (ANSWERING) where it is an answer or a pass that says
        it; the turn's chain followed on."""
        kind = e["event"]
        if kind in _BOUNDS:
            self.open = []
        elif kind == "play":
            self.open = [_Answerable(e["action"], e["player"])]
        elif kind == "react":
            answered = self._answered(
                lambda rule: rule in self.titles.answers.get(e["reaction"], ())
            )
            if answered is not None and not self.titles.reacting[answered.rule]:
                answered.spent = True
            self.open.append(_Answerable(e["reaction"], e["player"]))
            if answered is not None and answered.rule in self.titles.answers:  # not the play
                return e | {ANSWERING: self._named(answered)}
        elif kind == "choice" and e["kind"] == "react" and e["option"] == "no reaction":
            window = self.titles.windows.get(e.get("window"))
            offered = window.offers if window else tuple(self.titles.answers)
            answered = self._answered(
                lambda rule: any(rule in self.titles.answers.get(r, ()) for r in offered)
            )
            if answered is not None and answered is not self.open[-1]:
                return e | {ANSWERING: self._named(answered)}
        return e

    def _answered(self, answers: Callable[[str], bool]) -> _Answerable | None:
        """The one play or answer a window may be open on that `answers` holds for."""
        able = [
            a
            for a in self.open
            if not a.spent and a.rule in self.titles.reacting and answers(a.rule)
        ]
        return able[0] if len(able) == 1 else None

    def _named(self, answered: _Answerable) -> str:
        return f"{seat_name(answered.player)}'s {self.titles.rule(answered.rule)}"


def narrate(events: list[dict], titles: Titles, start: int = 0) -> list[str]:
    """One line per happening of events[start:], in the spec's titles, control
    characters made visible; consecutive moves between the same zones are merged. A
    current player set outside a turn (a setup's, the game's or a round's) is not told:
    the turn that begins says who plays, and a round may end before any turn (a Skat
    deal thrown in said "P3 is to play" of a player who never did). Nor is a player
    set to play next when the events given show the round or the game ending before
    the next turn begins (a new round's starter plays first: a Schnapsen designer's
    last trick); events cut before that (`play`, asking for a decision in between)
    cannot show it, and it is told. The events before `start` tell whether a turn is
    under way."""
    under_way = next(
        (e["event"] == "turn" for e in reversed(events[:start]) if e["event"] in _BOUNDS), False
    )
    chain = _Chain(titles)
    begun = next((i for i in range(start - 1, -1, -1) if events[i]["event"] in _BOUNDS), 0)
    for e in events[begun:start]:  # the turn's answers so far
        chain.read(e)
    lines = []
    merged = _merged(events[start:])
    before = events[start - 1] if start else None
    for i, e in enumerate(merged):
        e, before = chain.read(_with_option(e, before)), e
        if e["event"] in _BOUNDS:
            under_way = e["event"] == "turn"
        elif (e["event"] == "set_current" and not under_way) or (
            e["event"] == "set_next" and _next_turn_lost(merged, i)
        ):
            continue  # the turn that begins says it, or that turn never comes
        if e["event"] in _SAY:
            lines.append(_SAY[e["event"]](e, titles))
    return [visible(line) for line in lines if line is not None]


# the events that begin a turn, or end what a set_current would be told in
_BOUNDS = frozenset({"turn", "round", "round_end", "end"})


def _next_turn_lost(events: list[dict], i: int) -> bool:
    """Does a round or the game end (or a new round begin) after events[i] before
    another turn begins? A new round drops a set_next (TurnFlow.next_round)."""
    return next((e["event"] != "turn" for e in events[i + 1 :] if e["event"] in _BOUNDS), False)
