"""A person at the table: `rulespec play` seats one, and agents play the other seats.

The person sees what their seat sees (RULINGS C-6): the narration of the game as that
seat sees it, their own zones (and their team's), the cards revealed to them elsewhere, and, at each of their decisions with more than one
option, the numbered options. They answer with a number or an option's label.
"""

from __future__ import annotations

from rulespec.interpreter.choices import seat_name
from rulespec.interpreter.observe import log_for

from .narrate import narrate, visible


class InputEnded(Exception):
    """The person's input ended before the game did."""


class Person:
    needs_observation = True

    def __init__(self, game, seat: int, titles: dict[str, str], stdin, out):
        self.game, self.seat, self.titles, self.stdin, self.out = game, seat, titles, stdin, out
        self.shown = 0  # events already narrated

    def show(self) -> None:
        """Narrate what happened since the last call, as the seat sees it."""
        events = log_for(self.game, self.seat)
        for line in narrate(events[self.shown :], self.titles):
            self.say(line)
        self.shown = len(events)

    def say(self, text: str, end: str = "\n") -> None:
        """Show a line to the person, control characters made visible (a spec's
        labels and titles, an answer echoed)."""
        print(visible(text), end=end, file=self.out, flush=True)

    def _show_own_zones(self, observation) -> None:
        """The cards of the seat's own zones, and its team's."""
        for label, cards in observation["zones"].items():
            for suffix, whose in self._owned_by_me():
                if label.endswith(suffix):
                    names = ", ".join(self.titles.get(c, c) for c in cards) or "nothing"
                    self.say(f"  {whose} {label[: -len(suffix)].replace('_', ' ')}: {names}")

    def _owned_by_me(self) -> list[tuple[str, str]]:
        """(label suffix, whose) of the zones that are the seat's own, or its team's."""
        owned = [(f"[{seat_name(self.seat)}]", "your")]
        game = self.game.game
        if game.teams:
            owned.append((f"[{game.spec.teams[game.team_of[self.seat]].name}]", "your side's"))
        return owned

    def choose(self, observation, options):
        self.show()
        self._show_own_zones(observation)
        for label, seen in observation["zones"].items():
            if isinstance(seen, dict) and seen.get("revealed"):
                names = ", ".join(_revealed(r, self.titles) for r in seen["revealed"])
                self.say(f"  shown to you in {label}: {names}")
        if self.game.decision_kind() == "react":  # a window: say what is being answered
            self.say(f"{seat_name(self.seat)} may answer: {' / '.join(o.label for o in options)}")
        for i, option in enumerate(options, 1):
            self.say(f"  {i}) {option.label}")
        while True:
            self.say(f"{seat_name(self.seat)}> ", end="")
            try:
                line = self.stdin.readline(10_000)  # a line this long is no answer anyway
            except (OSError, ValueError):  # standard input closed
                raise InputEnded from None
            if not line:
                raise InputEnded
            answer = line.strip()
            if not getattr(self.stdin, "isatty", lambda: False)():
                self.say(answer)  # echo piped answers, as a terminal would
            # plain ASCII digits only: '²' is a digit to str.isdigit, and int() refuses it
            if (
                answer.isascii()
                and answer.isdigit()
                and len(answer) <= 6
                and 1 <= int(answer) <= len(options)
            ):
                return options[int(answer) - 1]
            for option in options:
                if option.label == answer:
                    return option
            shown = answer if len(answer) <= 40 else answer[:40] + "…"
            self.say(
                f"  '{shown}' is not an option: type its number (1-{len(options)}) or its label"
            )


def _revealed(card: dict, titles: dict[str, str]) -> str:
    """A card revealed to the seat, with its depth in an ordered zone."""
    title, depth = titles.get(card["card"], card["card"]), card.get("depth")
    return title if depth is None else f"{title} ({'on top' if depth == 0 else f'{depth} down'})"
