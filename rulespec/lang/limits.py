"""The limits of the language, in one place: docs/limits.md gives each its code and
the reason for its value. Each is checked when a spec is loaded, so that whatever
validates can also be run, linted, graphed and diffed, and no input can make the
front end hang or run out of memory.
"""

# reading a file (RS001, RS002)
MAX_BYTES = 1_000_000  # bytes in a spec or variant file
MAX_YAML_DEPTH = 100  # lists and mappings nested in one another
MAX_EXPANDED = 2_000_000  # nodes plus characters of text, once aliases are expanded

# variants (RS602)
MAX_CHAIN = 16  # variants extending variants, base excluded

# expressions and effects (RS302, RS303, RS304)
MAX_EXPR_DEPTH = 64  # operators and calls nested in one expression
MAX_BLOCK_DEPTH = 32  # `{ }` blocks (and `else if`) nested in one effect
MAX_DIGITS = 18  # digits of a number, in YAML or in an expression

# named conditions (RS210)
MAX_CONDITION_DEPTH = 32  # named conditions calling one another, the first included

# the game (RS407, RS408, RS409, RS410)
MAX_CARDS = 10_000  # copies of one card type, and cards in the whole deck
MAX_PLAYERS = 64  # players.min, players.max and players.default
MAX_TURN_LIMIT = 1_000_000  # turn_limit
MAX_FOR_PASSES = 1_000_000  # passes of nested `for` loops over players, at players.max
MAX_GROUP = 64  # an action's `count: {max}`: the most cards one move may play (RS104)

# an expression (RS413)
MAX_EVALUATION = 2_000_000  # steps of one evaluation, at players.max and the largest deck


def too_many_digits(digits: str) -> str:
    """The message for a number longer than MAX_DIGITS."""
    return f"a number of {len(digits)} digits; numbers have at most {MAX_DIGITS}"
