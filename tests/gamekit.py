"""Shared helpers for tests: compiled rules are cached per (game, player count)."""
from functools import lru_cache
from io import StringIO
from pathlib import Path

from interpreter import Rules
from rulespec import load_spec
from rulespec.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


@lru_cache(maxsize=None)
def rules_for(game: str, players: int) -> Rules:
    return Rules(load_spec(GAMES / f"{game}.yaml"), players)


def check_cards_conserved(game):
    """Every card is in exactly one zone, and where the game thinks it is."""
    seen = sorted(c for zone in game.zones for c in zone)
    assert seen == list(range(len(game.ctype))), "cards are not conserved"
    for slot, zone in enumerate(game.zones):
        for c in zone:
            assert game.loc[c] == slot


def check_no_rule_missed(game):
    """When the checks (C-4) have run on the current state and found nothing to fire,
    no end condition or trigger holds unless it fired since the state last changed.
    The game evaluates only the conditions its index marks as dirty, so this checks
    that the index misses no change a condition reads. (At a choice point inside an
    effect the checks are still to come.)"""
    if game.over or game.checked != game.version:
        return
    rules = game.rules
    for (i, p), key in rules.keys.items():
        t, env = rules.automatic[i], rules.check_envs[i, p]
        if (p is None or game.active[p]) and game.quiet.get(key) != game.version:
            assert not t.when(game, env), f"'{t.ir.name}' holds for {p} but was not fired"


def cli(*argv) -> tuple[int, str, str]:
    """Run the CLI as a function: (exit code, standard output, standard error)."""
    out, err = StringIO(), StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()
