"""Take the screenshots of docs/serve.md: a served game at each seed game's table, as
P1 sees it, in headless Chromium (Playwright with the system's chromium).

    PYTHONPATH=. python docs/serve_screenshots.py

P1 takes its first option at each decision until the game reaches the turn below
with a decision of the kind below to show; the other seats are random agents. Where a
shot asks for it, the pointer rests on P1's first card, so that its text shows.
"""

import shutil
import sys
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402
from servekit import call, running, seat_api  # noqa: E402

# game, players, seed, the turn to reach, the decision to show there, a card hovered
SHOTS = [
    ("take_the_gold", 3, 2, 9, "react", False),
    ("pirates_wild", 2, 3, 4, "play", True),
]


def _reach(base: str, spec: str, players: int, seed: int, turn: int, kind: str) -> str:
    """A new game played by P1 up to the decision to show: P1's seat link."""
    seats = ["person"] + ["random"] * (players - 1)
    answer = call(
        f"{base}/api/games", {"spec": spec, "players": players, "seed": seed, "seats": seats}
    )[1]
    link = answer["links"]["P1"]
    url, token = seat_api(base, link)
    view = call(f"{url}?token={token}")[1]
    while not (view["turn"] >= turn and view.get("decision") == kind and len(view["options"]) > 1):
        if view["over"]:
            raise SystemExit(f"{spec} seed {seed} ended before turn {turn}: pick another")
        view = call(f"{url}/choose?token={token}", {"option": view["options"][0]["label"]})[1]
    return link


def _small(png: Path) -> None:
    """The screenshot in 64 colours, a third of its size, when Pillow is there (a page
    of flat colours loses nothing to see)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(png) as image:
        small = image.convert("RGB").quantize(colors=64)
    small.save(png, optimize=True)


def main() -> None:
    with (
        tempfile.TemporaryDirectory() as saves,
        running(saves) as (base, _),
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        for spec, players, seed, turn, kind, hover in SHOTS:
            page.goto(base + _reach(base, spec, players, seed, turn, kind))
            page.wait_for_selector("#options button")
            page.wait_for_selector("#graph svg, #graph li")
            if hover:
                page.hover(".player.you .card")
                page.wait_for_selector("#tooltip:not([hidden])")
            shot = DOCS / f"serve-{spec}.png"
            page.screenshot(path=str(shot))
            _small(shot)
            print(f"docs/serve-{spec}.png")
        browser.close()


if __name__ == "__main__":
    main()
