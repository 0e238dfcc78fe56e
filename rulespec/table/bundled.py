"""The games that ship with rulespec, found by name, and the starter spec of `rulespec new`.

In a source tree they are the repository's games/ folder; an installed wheel carries the
same files as rulespec/games (pyproject.toml maps one onto the other).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..lang.diagnostics import SpecError
from ..lang.pipeline import load_spec
from ..lang.schema import schema_file
from ..lang.source import bundled, games_folder

STARTER = Path(__file__).resolve().parent / "starter.yaml"
folder = games_folder


def names() -> list[str]:
    games = folder()
    return sorted(p.stem for p in games.glob("*.yaml")) if games else []


def spec_argument(text: str) -> str:
    """An argparse type for a spec: a file as given, or the name of a bundled game
    (`my_game` for games/my_game.yaml, its variants found beside it)."""
    found = bundled(text)
    if found is not None:
        return found
    raise argparse.ArgumentTypeError(
        f"no file '{text}' and no bundled game of that name (bundled: "
        f"{', '.join(names()) or 'none'}; 'rulespec games' lists them)"
    )


def listing() -> list[dict]:
    """Each bundled game: its name, title, player counts, variants and file."""
    from ..lang.variants import variant_names

    games = folder()
    rows = []
    for name in names():
        path = games / f"{name}.yaml"
        try:
            spec = load_spec(path)
        except SpecError:  # a broken bundled game is listed, not hidden
            rows.append(
                {
                    "name": name,
                    "title": f"(does not validate: rulespec validate {name})",
                    "players": None,
                    "variants": [],
                    "path": str(path),
                }
            )
            continue
        variants = variant_names(path)
        rows.append(
            {
                "name": name,
                "title": spec.name,
                "players": [spec.min_players, spec.max_players, spec.default_players],
                "player_counts": list(spec.player_counts),
                "variants": variants,
                "path": str(path),
            }
        )
    return rows


def starter(name: str) -> str:
    """The text of a small commented spec named `name` that validates and plays. Its
    first line names the spec schema for an editor (docs/editor.md): the installed
    package's file, as a file:// URI, since the spec may be written anywhere."""
    title = name.replace("_", " ").title()
    text = STARTER.read_text(encoding="utf-8").replace("{title}", title)
    return text.replace("{schema}", schema_file("spec").as_uri())
