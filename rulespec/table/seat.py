"""A person at the table: `rulespec play` seats one, and agents play the other seats.

The person sees what their seat sees (RULINGS C-6): the narration of the game as that
seat sees it, and at each of their decisions with more than one option the table (the
shared zones, each seat's visible cards or hand size, the counters) and the numbered
options, in the spec's titles. They answer with a number, an option's words (some of
them, standing together, that no other option shows) or its label, or a command: help
(or ?), table, quit.
"""

from __future__ import annotations

import re
from collections import Counter

from rulespec.interpreter.choices import GroupPlay, PickCards, PickValue, Play, seat_name
from rulespec.interpreter.observe import log_for

from .narrate import Titles, capital, narrate, visible
from .refusals import why_not
from .view import arranged, decision_heading, end_lines, rules_line, table, table_lines

HELP = """\
  Type the number of an option (or its words: a few that only it shows will do) and
  press Enter; where the options are numbers themselves ("a number: 0-3"), type the
  number you choose.
  Commands:
    help, ?     this help
    help NAME   what a card, rule, window, zone, counter, value, parameter or goal is for,
                a step's pass or a choice (NAME: its name, title or label, as the table
                shows it)
    table       the table again, with the game's parameters, and your options
    list        every option, numbered (many sets of cards, or groups to play, are shown
                as the cards to choose from: answer with their names, separated by commas)
    quit        leave the game (it is abandoned: nobody wins)
  A command (in any case) wins over an option of the same words: type its number."""


# a choice of more sets of cards than this (or an action's more groups of cards played
# as one move) names the cards, not the sets
LISTED_SETS = 20

COULD = 8  # options an ambiguous answer is told of, each with its words


class InputEnded(Exception):
    """The person's input ended before the game did."""


class Quit(Exception):
    """The person left the game."""


class Person:
    needs_observation = True

    def __init__(self, game, seat: int, titles: Titles, stdin, out):
        self.game, self.seat, self.titles, self.stdin, self.out = game, seat, titles, stdin, out
        self.shown = 0  # events already narrated

    def show(self) -> None:
        """Narrate what happened since the last call, as the seat sees it."""
        events = log_for(self.game, self.seat)
        for line in narrate(events, self.titles, start=self.shown):
            self.say(line)
        self.shown = len(events)

    def say(self, text: str, end: str = "\n") -> None:
        """Show a line to the person, control characters made visible (a spec's
        labels and titles, an answer echoed)."""
        print(visible(text), end=end, file=self.out, flush=True)

    def start(self) -> None:
        """The game's parameters, and how to answer."""
        view = self._view(self.game.observation(self.seat))
        if view["params"]:
            self.say(rules_line(view))
        self.say("Type the number of your choice, or help.")

    def finish(self) -> None:
        """The rest of the narration, then who won, why, and the table as it was left."""
        self.show()
        for line in end_lines(self.game.observation(self.seat), self.titles):
            self.say(line)

    def choose(self, observation, options):
        self.show()
        asking = self.game.decision_asker()
        shown = arranged(options, self.titles, self.game.game.type_names, asking)
        self._present(observation, shown)
        while True:
            answer = self._read()
            if not self._command(answer, observation, shown):
                option = self._answered(answer, shown)
                if option is not None:
                    return option

    def _command(self, answer: str, observation, shown: list[dict]) -> bool:
        """Carry out a command (help, help NAME, quit, table, list); False for an answer."""
        command = answer.casefold()
        if command in ("help", "?"):
            for line in HELP.splitlines():
                self.say(line)
        elif command.startswith("help "):
            self.say("  " + help_text(answer[5:].strip(), self.titles))
        elif command == "quit":
            raise Quit
        elif command == "table":
            self._present(observation, shown, params=True)
        elif command == "list":
            self._list(shown)
        else:
            return False
        return True

    def _answered(self, answer: str, shown: list[dict]):
        """The option an answer names, or None, having said why it names none."""
        options, texts = [s["option"] for s in shown], [s["text"] for s in shown]
        numbers = _numbers(options)  # a bid: answered with its number, typed
        sets = _card_sets(options)  # a choice of cards together: answered with their names
        plays = _plays(options, self.game.game.type_names)  # cards played: so answered too
        if sets is not None and "," in answer:
            offered = dict.fromkeys(card for key in sets for card in key)
            named = _names(answer, offered, self.titles)
            if (option := sets.get(tuple(sorted(named)))) is not None:
                return option
            self.say(f"  {_not_a_set(named, sets, offered, self.titles)}")
        elif numbers is not None:
            digits = answer.removeprefix("-")
            # a number past int()'s 4,300 digits is none offered, not a crash
            if (
                digits.isascii()
                and digits.isdigit()
                and len(digits) <= 18
                and int(answer) in numbers
            ):
                return numbers[int(answer)]
            if (option := next((o for o in options if o.label == answer), None)) is not None:
                return option  # its label: "stake = 10"
            self.say(f"  '{answer[:40]}' is not one of {_listed(numbers)}: type one, or help")
        elif (also := _also_a_title(answer, options, texts)) is not None:
            self.say(
                f"  '{answer}' is option {answer} ({texts[int(answer) - 1]}), and a word of "
                f"{texts[also]}: type #{answer} for option {answer}, or {texts[also]} in full"
            )
        elif (option := _picked(answer, options, texts)) is not None:
            return option
        elif (named := _cards_named(answer, plays, self.titles)) is not None:
            return self._by_cards(answer, named, plays, shown)
        else:
            said = _cut(answer, 40)
            could = [i for i, s in enumerate(shown, 1) if _says(answer, s)] or _titled(
                answer, texts
            )
            if len(could) == 1:
                return options[could[0] - 1]
            if could:
                self.say(f"  {_could(said, could, texts)}")
            else:
                why = self._why_not(answer)
                self.say(
                    f"  '{said}' is not an option: {why}type its number (1-{len(options)}), or help"
                )
        return None

    def _by_cards(self, answer: str, named: list[str], plays: dict, shown: list[dict]):
        """The one option that plays the cards named, in any order, or None, having said
        why there is none: the options that do (at several targets), or what is wrong
        with the cards."""
        matching = plays.get(tuple(sorted(named)), [])
        if len(matching) == 1:
            return matching[0]
        if matching:
            could = [i for i, s in enumerate(shown, 1) if s["option"] in matching]
            self.say(f"  {_could(_cut(answer, 40), could, [s['text'] for s in shown])}")
        else:
            offered = dict.fromkeys(card for key in plays for card in key)
            self.say(f"  {_not_a_set(named, plays, offered, self.titles)}")
        return None

    def _why_not(self, answer: str) -> str:
        """Why the card an answer names (by its title or name), or the branch or value
        (by its label), is no option, then a semicolon, where the rules say so plainly;
        "" otherwise."""
        wanted = answer.casefold()
        cards = self.titles.cards
        card = next((n for n, t in cards.items() if wanted in (n.casefold(), t.casefold())), None)
        named = (card, self.titles.card(card)) if card else (answer, answer)
        why = why_not(self.game, *named)
        return f"{why}; " if why else ""

    def _view(self, observation) -> dict:
        return table(observation, self.titles, self.game.game.params, self.game.decision_between())

    def _present(self, observation, shown: list[dict], params: bool = False) -> None:
        """The table as the seat sees it, then the numbered options: a card's several
        options under its title."""
        for line in table_lines(self._view(observation), params):
            self.say(line)
        game = self.game
        self.say(
            decision_heading(
                game.decision_kind(),
                game.decision_asker(),
                self.titles,
                game.decision_window(),
                game.decision_prompt(),
                [s["option"] for s in shown],
                log_for(game, self.seat),
            )
        )
        self._list(shown, compact=True)

    def _list(self, shown: list[dict], compact: bool = False) -> None:
        """The options numbered, a card's several options under its title; a choice of
        numbers by the numbers themselves, as they are answered (entry 1 would read as
        the number 1). Compact, a choice of many sets of cards, or an action's many
        groups of cards played as one move, by the cards to choose from (a Cheat trial's
        play of one to four cards listed 4,047 groups)."""
        options = [s["option"] for s in shown]
        numbers = _numbers(options)
        if numbers is not None:
            self.say(f"  a number: {_listed(numbers)}")
            return
        sets = _card_sets(options)
        if compact and sets is not None and len(shown) > LISTED_SETS:
            cards = dict.fromkeys(c for o in options for c in o.label.split("+"))
            self._cards_to_choose("", sets, cards, len(shown))
            return
        groups: dict[str, list] = {}  # each action's groups of cards played as one move
        for o in options:
            if isinstance(o, GroupPlay):
                groups.setdefault(o.action, []).append(o.group)
        many = {a for a, played in groups.items() if len(played) > LISTED_SETS and compact}
        told = set()
        sizes = Counter(s["group"] for s in shown)
        for i, s in enumerate(shown, 1):
            o = s["option"]
            if isinstance(o, GroupPlay) and o.action in many:
                if o.action not in told:  # where its first group stands, by its title
                    told.add(o.action)
                    names = self.game.game.type_names
                    cards = [names[t] for t in sorted({t for g in groups[o.action] for t in g})]
                    self._cards_to_choose(f"{s['group']}: ", groups[o.action], cards, len(shown))
                continue
            if sizes[s["group"]] < 2 or s["group"] is None:
                self.say(f"  {i}) {s['text']}")
                continue
            if i == 1 or shown[i - 2]["group"] != s["group"]:
                self.say(f"  {s['group']}:")
            self.say(f"    {i}) {s['short']}")

    def _cards_to_choose(self, heading: str, sets, cards, options: int) -> None:
        """In place of many sets of cards (or an action's groups of cards played), how
        many cards each takes and the cards (names) they are taken from, and how to
        answer."""
        self.say(f"  {heading}{_sizes(sets)}, from: {', '.join(map(self.titles.card, cards))}")
        self.say(f"  (type their names separated by commas; list shows all {options})")

    def _read(self) -> str:
        """The person's next answer, echoed when it is piped, as a terminal would."""
        self.say(f"{seat_name(self.seat)}> ", end="")
        try:
            line = self.stdin.readline(10_000)  # a line this long is no answer anyway
        except (OSError, ValueError):  # standard input closed
            raise InputEnded from None
        at_terminal = getattr(self.stdin, "isatty", lambda: False)()
        if not line:  # Ctrl-D at a terminal is the person leaving; a script ran out
            if at_terminal:
                self.say("quit")
                raise Quit
            raise InputEnded
        answer = line.strip()
        if not at_terminal:
            self.say(answer)
        return answer


def help_text(name: str, titles: Titles) -> str:
    """What a card, rule, window, zone, counter, value, parameter, goal set, a step's
    pass or a `choose` branch (by its label, given words in `branches:`) is for, found
    by its name or its title in any case: its title and its `text:`
    (a goal set's, and its order; a pass, the step it passes at); everything of that
    name, each with its kind, where there are several (one without a text of its own
    too: a Love Letter designer's `help guard` left out the action that plays the Guard)."""
    found = _named(name.casefold(), titles) or _begun(name, titles)
    # a zone's title is in lower case for the narration's sentences: here it heads one
    found = {
        k: (capital(title), said or "no text in the rules") for k, (title, said) in found.items()
    }
    if len(found) > 1:  # each of its kind (a Lost Cities action titled as its piles' name)
        return "; ".join(  # a text's own full stop would stand before the semicolon
            f"{title} ({word}): {said.rstrip('.')}" for (word, _), (title, said) in found.items()
        )
    if found:
        return "{}: {}".format(*next(iter(found.values())))
    return (
        f"'{name[:40]}' is no card, tag, rule, window, zone, counter, value, parameter or goal of "
        "this game"
    )


def _named(wanted: str, titles: Titles) -> dict[tuple[str, str], tuple[str, str]]:
    """Everything whose name or title is `wanted` (casefolded): (its kind, what it is)
    -> (its title, its text)."""
    found = {}
    # a step (turn.NAME) or a round's part (rounds.NAME) after a rule of its name
    rules = sorted(titles.rules.items(), key=lambda r: "." in r[0])
    for section, things in (
        ("cards", (("card", n, title) for n, title in titles.cards.items())),
        ("rules", ((kind, n, title) for n, (kind, title) in rules)),
        ("zones", (("zone", n, title) for n, title in titles.zones.items())),
        ("counters", (("counter", n, title) for n, title in titles.counters.items())),
        ("params", (("parameter", n, title) for n, title in titles.params.items())),
        # a reaction window: a decision is headed by its title ("Block window")
        ("windows", (("window", n, w.title) for n, w in titles.windows.items())),
        # a `choose` branch, by its label, where `branches:` gives it words
        ("branches", (("choice", label, label) for label in titles.texts.get("branches", ()))),
    ):
        for word, n, title in things:
            if wanted in (n.casefold(), n.rpartition(".")[2].casefold(), title.casefold()):
                said = titles.text(section, n)
                if section == "cards" and titles.props.get(n):  # its values, as the rules read them
                    said = f"{said.rstrip('.')}; {titles.props[n]}" if said else titles.props[n]
                found[word, n] = (title, said)
    for section, word, families in (
        ("zones", "zone", titles.members),
        ("counters", "counter", titles.counted),
    ):  # a family's zone or counter by its own title, unless the family itself was found
        for n, members in families.items():
            for title in (t for t in members if t.casefold() == wanted):
                if (word, n) not in found:
                    found[word, f"{n}:{title}"] = (title, titles.text(section, n))
    return found | _goals_and_tags(wanted, titles, {n for _, n in found}) | _passes(wanted, titles)


def _passes(wanted: str, titles: Titles) -> dict:
    """A step's pass by its `pass_title`, as the options list it (a President designer's
    `help knock` was told Knock was nothing of the game)."""
    return {
        ("pass", step): (title, _pass_said(step, titles))
        for step, title in titles.pass_titles.items()
        if wanted == title.casefold()
    }


def _pass_said(step: str, titles: Titles) -> str:
    """What a pass is: passing at its step, and the step's text, where the rules say
    what its pass does (a Crazy Eights designer's `help draw` never said that the pass
    draws a card); a pass that does more (a pass_effect) but has no text says so."""
    said = f"passing at the step {titles.rules[step][1]}, taking none of its actions"
    if text := titles.text("rules", step):
        return f"{said}; the step: {text}"
    return (
        f"{said}; what else it does: no text in the rules" if step in titles.pass_effects else said
    )


def _goals_and_tags(wanted: str, titles: Titles, named: set[str]) -> dict:
    """The goal sets named `wanted`, and a tag of that name (a word the rules test cards
    by: a Canasta designer's `help wild`) unless it is a card's own name already."""
    found = {}
    for n, goal in titles.goals.items():
        if wanted in (n.casefold(), goal.title.casefold()):
            found["goal", n] = (goal.title, titles.goal_text(n))
    for tag, cards in titles.tags.items():
        if wanted == tag.casefold() and tag not in named:
            found["tag", tag] = (tag.replace("_", " "), f"the cards {_listed_cards(cards, titles)}")
    return found


def _listed_cards(cards, titles: Titles) -> str:
    """Card types by title, at most eight of them, then how many more."""
    shown = ", ".join(titles.card(c) for c in cards[:8])
    return shown + (f" and {len(cards) - 8} more" if len(cards) > 8 else "")


def _begun(name: str, titles: Titles) -> dict[tuple[str, str], tuple[str, str]]:
    """The one card whose title begins with the name's words, where nothing is named
    so: a card titled by its number and more ("67 (1)"), asked for as "67", as the
    number is typed to play it."""
    wanted = _words(name)
    begun = [n for n, title in titles.cards.items() if _words(title)[: len(wanted)] == wanted]
    return _named(begun[0].casefold(), titles) if wanted and len(begun) == 1 else {}


def _says(answer: str, shown: dict) -> bool:
    """Whether the answer's words stand together in the option's as the person sees
    them: its line, its card's heading and its line under it, or its label
    ('joker at p4' for "Play The Joker at P4", 'guard' for "Answer with Guard (Block)").
    An answer of numbers alone is an option's number, never its words."""
    wanted = _words(answer)
    return (
        not all(w.isdigit() for w in wanted)  # numbers alone ('2', '2.') name no words
        and any(
            _within(wanted, _words(text))
            for text in (
                shown["text"],
                f"{shown['group'] or ''} {shown['short']}",
                shown["option"].label,
            )
        )
    )


def _card_sets(options) -> dict[tuple, PickCards] | None:
    """A choice of sets of cards (`choose s from combinations(hand(p), 3)`) by its
    cards' names, sorted; None for any other choice."""
    if not options or not all(isinstance(o, PickCards) for o in options):
        return None
    return {tuple(sorted(o.label.split("+"))): o for o in options}


def _plays(options, type_names: list[str]) -> dict[tuple, list[Play]] | None:
    """A play step's plays of cards by the names of the cards each plays, sorted, where
    some play a group of cards as one move (`count:`); None for any other decision."""
    if not any(isinstance(o, GroupPlay) for o in options):
        return None
    plays: dict[tuple, list[Play]] = {}
    for o in options:
        if isinstance(o, GroupPlay):
            cards = o.group
        elif isinstance(o, Play) and o.card_type is not None:  # one card, by another action
            cards = (o.card_type,)
        else:
            continue
        plays.setdefault(tuple(sorted(type_names[t] for t in cards)), []).append(o)
    return plays


def _cards_named(answer: str, plays: dict | None, titles: Titles) -> list[str] | None:
    """The cards an answer at a play step of groups names (see _names), where it is
    answered by cards: names separated by commas, one of them a card played; or one
    card that some option plays alone. None for an answer read by its words: one card
    that only groups hold (`red 4`) is a few words of the options that hold it."""
    if not plays:
        return None
    offered = dict.fromkeys(card for key in plays for card in key)
    named = _names(answer, offered, titles)
    if "," in answer:
        return named if any(card in offered for card in named) else None
    return named if tuple(named) in plays else None


def _names(answer: str, offered, titles: Titles) -> list[str]:
    """The cards an answer names, separated by commas, each by its title or its name
    in any case: the names of the cards `offered`, or the words typed for one that is
    none of them."""
    known = {titles.card(n).casefold(): n for n in offered} | {n.casefold(): n for n in offered}
    typed = (part.strip() for part in answer.split(","))
    return [known.get(part.casefold(), part) for part in typed if part]


def _not_a_set(named: list[str], sets: dict, offered, titles: Titles) -> str:
    """Why the cards named are no set offered: a card none of those offered, a card
    named more often than a set holds it, how many were named, or else that the rules
    do not offer them together."""
    odd = next((n for n in named if n not in offered), None)
    if odd is not None:
        return f"'{_cut(odd, 40)}' is none of the cards to choose from: type their names"
    times = Counter(named)
    for card, n in times.items():
        held = max(key.count(card) for key in sets)  # a deck of several copies: a pair
        if n > held:
            return f"{titles.card(card)} is named {_times(n)}: {_sizes(sets)}"
    if len(named) not in {len(key) for key in sets}:
        return f"you named {len(named)} card{'s' if len(named) > 1 else ''}: {_sizes(sets)}"
    together = ", ".join(map(titles.card, named))
    return f"{together} are not a set you may choose together: list shows those you may"


def _could(said: str, could: list[int], texts: list[str]) -> str:
    """The options an answer could be (places from 1), each with its words, as a long
    list may not be on the screen: the first few, then how many more."""
    listed = "; ".join(f"{i}) {texts[i - 1]}" for i in could[:COULD])
    more = f"; and {len(could) - COULD} more" if len(could) > COULD else ""
    return f"'{said}' could be {listed}{more}: type its number"


def _times(n: int) -> str:
    return "twice" if n == 2 else f"{n} times"


def _cut(text: str, most: int) -> str:
    """Text of more than `most` characters cut at a word, marked '…' (a single word
    that long cut where it must)."""
    if len(text) <= most:
        return text
    cut = text[:most]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,") + "…"


def _sizes(sets) -> str:
    """How many cards a choice of sets (a play of groups) takes: `choose 3 cards`,
    `choose 1 to 3 cards`."""
    sizes = sorted({len(key) for key in sets})
    many = f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
    return f"choose {many} card{'s' if sizes[-1] > 1 else ''}"


def _numbers(options) -> dict[int, PickValue] | None:
    """A choice of numbers (a bid: `choose b from range(8)`; a secret one, labelled
    `depth = 0`) by value, or None. Its options are answered with the number itself,
    and listed as numbers ("0-7"), never numbered by place: "3" bids 3 (and "1" puts a
    card one down, not at the first option's depth 0)."""
    if all(  # not a PickPlayer, nor a family's zone (by its label, row[1])
        type(o) is PickValue
        and type(o.value) is int
        and o.label.rpartition(" = ")[2] == str(o.value)
        for o in options
    ):
        return {o.value: o for o in options}
    return None


def _listed(numbers) -> str:
    """The numbers offered, runs of three or more written as ranges: 0-2, 4-7."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(
        f"{a}-{b}" if b - a >= 2 else ", ".join(map(str, range(a, b + 1))) for a, b in runs
    )


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def _within(run: list[str], words: list[str]) -> bool:
    return any(words[i : i + len(run)] == run for i in range(len(words) - len(run) + 1))


def _also_a_title(answer: str, options: list, texts: list[str]) -> int | None:
    """Where a number typed is an option's place and also begins another option's words
    (a card titled by its number, 6 nimmt!'s "9 (1)"), that other option's place (from
    0); None where the number is plain (a number inside the words, "Maki Roll (1)", is
    no title of it)."""
    if not (answer.isascii() and answer.isdigit() and len(answer) <= 6):
        return None
    if not 1 <= int(answer) <= len(options):
        return None
    return next(
        (
            i
            for i, text in enumerate(texts)
            if i != int(answer) - 1 and _words(text)[:1] == [answer]
        ),
        None,
    )


def _titled(answer: str, texts: list[str]) -> list[int]:
    """The places (from 1) of the options whose words begin with a number typed past
    the last option's place: a card titled by its number (6 nimmt!'s "47 (1)")."""
    if not (answer.isascii() and answer.isdigit() and len(answer) <= 6):
        return []
    return [i for i, text in enumerate(texts, 1) if _words(text)[:1] == [answer]]


def _picked(answer: str, options: list, texts: list[str]):
    """The option an answer names: by its number (plain ASCII digits only: '²' is a
    digit to str.isdigit, and int() refuses it; #9 is always the ninth), its label, or
    its words in any case."""
    answer = answer.removeprefix("#") if answer[1:].isdigit() else answer
    if answer.isascii() and answer.isdigit() and len(answer) <= 6:
        return options[int(answer) - 1] if 1 <= int(answer) <= len(options) else None
    for option, text in zip(options, texts):
        if answer == option.label or answer.casefold() == text.casefold():
            return option
    return None
