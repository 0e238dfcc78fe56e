"""Every RS code, declared once: what it means, in a few words.

The diagnostics of loading, the schema, the compiler, scenarios, variants, rules that
fail as a game runs and replay logs all take their code from here (tests/test_codes.py
checks that every code the sources name is declared, and has its row in
docs/language.md's table); the language server shows the title on hover. The lint
codes (RL) are declared in rulespec/analysis/lint.py.
"""

from __future__ import annotations

CODES: dict[str, str] = {
    "RS001": "a file that cannot be read",
    "RS002": "a file the loader refuses: too large, or expanding too far",
    "RS003": "YAML syntax error",
    "RS004": "a bad mapping key or an unsupported YAML tag",
    "RS005": "a key twice in one mapping",
    "RS101": "unknown key",
    "RS102": "wrong type",
    "RS103": "missing required key",
    "RS104": "bad value",
    "RS201": "unknown name",
    "RS202": "duplicate or reserved name",
    "RS203": "wrong number of arguments",
    "RS204": "type mismatch",
    "RS205": "a statement used as a value, or a value as a statement",
    "RS206": "a chance function outside its place",
    "RS207": "bad assignment target",
    "RS208": "react() outside an action's or a reaction's effect, or a procedure",
    "RS209": "end_turn() between two rounds",
    "RS210": "named conditions that call one another in a circle, or too deep",
    "RS211": "an index out of a family of zones",
    "RS212": "a name a later language version reserved (a warning; rulespec migrate)",
    "RS213": "a value two card properties give, whose tag names cards of both (a warning)",
    "RS214": "a {placeholder} in a text that names nothing: a written card's property its props lack, or a parameter in a rule's text (a warning)",
    "RS215": "two card types of one title (a warning)",
    "RS216": "two zones of one title (a warning)",
    "RS217": "a to: on an action that plays no card (a warning)",
    "RS301": "expression syntax error",
    "RS302": "an expression nested too deep",
    "RS303": "blocks nested too deep",
    "RS304": "a number of more than 18 digits",
    "RS401": "player counts out of bounds",
    "RS402": "wrong kind of zone",
    "RS403": "not exactly one start zone",
    "RS404": "deck.remove takes more copies than the deck holds",
    "RS405": "deck.totals does not match the deck",
    "RS406": "a card property that mixes numbers, true/false and text",
    "RS407": "the deck is too large",
    "RS408": "more than 64 players",
    "RS409": "turn_limit over 1,000,000",
    "RS410": "for loops over players nested too deep",
    "RS411": "a derived property that cannot be worked out when the spec loads",
    "RS412": "teams that do not split the seats",
    "RS413": "an expression that may take too many steps to evaluate",
    "RS414": "a payoff whose min is above its max",
    "RS415": "a value shown at the table, or told by say(), that reads what some seat may not see",
    "RS501": "a scenario file problem",
    "RS601": "a variant names what its base does not have",
    "RS602": "variants that extend each other in a circle, or too many",
    "RS603": "a variant of another spec",
    "RS701": "a rule failed while a game ran",
    "RS801": "a replay log that cannot be read",
    "RS802": "a replay log line that does not fit the log schema",
    "RS803": "a replay log whose games do not fit together",
}
