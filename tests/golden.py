"""Reference games: seeded games of every bundled game and variant, each kept as a digest
of everything it did (the omniscient log, every seat's view of it, the result, the
rules fired and the cards played). tests/golden.json holds the digests the engine gave
when they were made; tests/test_golden.py plays the games again and compares, so a
change to the engine that changes any game is seen (issue 25: the same seed gives the
same game).

    python tests/golden.py        # writes tests/golden.json anew, from this engine
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))

from rulespec import load_spec  # noqa: E402
from rulespec.interpreter import Game  # noqa: E402
from rulespec.interpreter.agents import make_agents, play  # noqa: E402

FILE = Path(__file__).with_name("golden.json")
SEEDS = 6  # random games per game, variant and player count
GREEDY = 2  # greedy games (clones, re-deals, evaluations) per game at its default count


def cases():
    """(spec path from the root, variant path or None, players, agents, seeds)."""
    for path in sorted((ROOT / "games").glob("*.yaml")):
        spec = load_spec(path)
        rel = str(path.relative_to(ROOT))
        for players in spec.player_counts:
            yield rel, None, players, "random", range(SEEDS)
        yield rel, None, spec.default_players, "greedy", range(GREEDY)
        for variant in sorted((ROOT / "games" / "variants" / path.stem).glob("*.yaml")):
            vspec = load_spec(path, variants=[variant])
            yield rel, str(variant.relative_to(ROOT)), vspec.default_players, "random", range(3)


def digest(
    spec: str, variant: str | None, players: int, agents: str, seed: int, views: bool = True
) -> str:
    """Everything one seeded game did, as a digest; `views=False` plays it keeping no
    seat's view (State), as a simulation does: the game must be the same."""
    spec_ir = load_spec(ROOT / spec, variants=[ROOT / variant] if variant else ())
    game = Game(spec_ir, players)
    state = play(
        game.new_initial_state(seed=seed, views=views), make_agents([agents], players, seed)
    )
    record = {
        "log": state.log_for(None),
        "views": [state.log_for(p) for p in range(players)],
        "result": state.result,
        "fired": dict(sorted(state.fired.items())),
        "played": dict(sorted(state.played.items())),
    }
    text = json.dumps(record, sort_keys=True, default=sorted)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def key(spec, variant, players, agents, seed) -> str:
    return f"{spec} {variant or '-'} {players} {agents} {seed}"


def main() -> None:
    out = {}
    for spec, variant, players, agents, seeds in cases():
        for seed in seeds:
            out[key(spec, variant, players, agents, seed)] = digest(
                spec, variant, players, agents, seed
            )
    write(FILE, out)


def write(path: Path, games: dict) -> None:
    """Digests of games into path, with the commit they were made at."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    path.write_text(json.dumps({"made_at": commit, "games": games}, indent=1) + "\n")
    print(f"{len(games)} games written to {path}")


if __name__ == "__main__":
    main()
