"""One seat's token against every endpoint of a real `rulespec serve` on 127.0.0.1:
nothing another seat holds ever reaches it, whether it plays, saves, replays or
resumes (issue 24). A secret is a card type that lies only where the seat cannot see
(another hand, the draw pile) and that the seat's own observation and log never
showed it; no answer may name one, by name or by title."""

import json
import random
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from servekit import call, seat_api

from rulespec.serve import views


def secrets_of(state, seat: int) -> set[str]:
    """The card types lying only where `seat` cannot see, never shown to it."""
    everything, mine = state.observation(None)["zones"], state.observation(seat)
    seen = json.dumps([mine, state.log_for(seat)])
    hidden = {
        c for label, z in mine["zones"].items() if isinstance(z, dict) for c in everything[label]
    }
    return {t for t in hidden if json.dumps(t) not in seen}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def leaks(answer, secret: set[str], titles) -> list[str]:
    """The secrets an answer names: a string that is a secret's name, or text holding
    a secret's title (once the titles of the cards it may name are taken out)."""
    secret_titles = {titles.card(t) for t in secret}
    others = sorted(set(titles.cards.values()) - secret_titles, key=len, reverse=True)
    # the spec's own words (its texts, prompts, rules' titles and goals, as the rules
    # panel lists them) are public, whatever cards they name
    public = [t for words in titles.texts.values() for t in words.values()]
    public += [title for _, title in titles.rules.values()]
    public += [titles.goal_text(name) for name in titles.goals]  # as the rules panel says them
    public += [title for goal in titles.goals.values() for title, _, _ in goal.entries]
    public = sorted({*public, *titles.prompts.values()}, key=len, reverse=True)
    found = []
    for text in _strings(answer):
        if text in secret:
            found.append(text)
        for other in public + others:  # "Pirate" inside a seen "Pirate Captain" is no leak
            text = text.replace(other, "")
        found += [t for t in secret_titles if re.search(rf"\b{re.escape(t)}\b", text)]
    return found


class Seat:
    """P1's view of the server: every request made with P1's token, every answer
    checked against what P1 may know of `live` (the game P1 sits at)."""

    def __init__(self, base, tables, answer):
        self.base, self.tables = base, tables
        self.url, self.token = seat_api(base, answer["links"]["P1"])
        self.live = tables.game(answer["id"])
        self.answers = 0

    def call(self, url, body=None, **params):
        query = "&".join(f"{k}={v}" for k, v in ({"token": self.token} | params).items())
        status, answer = call(f"{url}?{query}", body)
        self.check(answer)
        return status, answer

    def check(self, answer):
        state = self.live.state
        secret = secrets_of(state, 0)
        assert not leaks(answer, secret, self.live.table.titles), answer
        if len(str(self.live.seed)) > 5:  # the seed deals every card (0 is in any answer)
            assert not re.search(rf"\b{self.live.seed}\b", json.dumps(answer))
        self.answers += 1

    def sweep(self):
        """Every endpoint, with P1's token."""
        game = self.url.rsplit("/", 1)[0]
        assert self.call(self.url)[0] == 200
        assert self.call(f"{game}/P2")[0] == 403
        assert self.call(f"{game}/spectator")[0] == 403
        assert self.call(f"{self.url}/step", {})[0] == 409
        assert self.call(f"{self.url}/choose", {"option": "fly away"})[0] in (409, 422)
        status, graph = call(f"{self.url}/graph?token={self.token}")
        assert status == 200
        assert graph == views.Table(self.live.table.spec, 2).graph  # the spec's alone
        status, saved = self.call(f"{self.url}/save", {})
        assert status == 200
        self.replays(saved["saved"])
        self.resumes(saved["saved"])

    def replays(self, path):
        status, opened = self.call(f"{self.base}/api/replays", {"path": path})
        assert status == 200
        url, token = seat_api(self.base, opened["link"])
        first = call(f"{url}?token={token}")[1]
        self.check(first)
        assert first["views"] == ["P1"]
        last = first["frames"] - 1
        for at in sorted({0, last // 2, last}):
            for view_as in ("spectator", "P1", "P2"):
                status, answer = call(f"{url}?token={token}&at={at}&as={view_as}")
                self.check(answer)
                assert status == (200 if view_as == "P1" else 403), answer
        self.check(call(f"{url}/graph?token={token}")[1] | {"nodes": [], "edges": [], "svg": ""})

    def resumes(self, path):
        for seats in (["random", "random"], ["random", "person"], ["person", "person"]):
            status, answer = self.call(f"{self.base}/api/games", {"resume": path, "seats": seats})
            assert status == 403, answer  # a spectator's link, or P2's
        status, answer = self.call(
            f"{self.base}/api/games", {"resume": path, "seats": ["person", "random"]}
        )
        assert status == 200 and list(answer["links"]) == ["P1"]
        resumed = Seat(self.base, self.tables, answer)
        assert resumed.call(resumed.url)[0] == 200
        self.answers += resumed.answers


def test_one_seat_sees_nothing_of_the_others_whatever_it_asks(server):
    base, tables = server
    status, answer = call(
        f"{base}/api/games", {"spec": "pirates_wild", "players": 2, "seats": ["person", "random"]}
    )
    assert status == 200
    seat, rng = Seat(base, tables, answer), random.Random(4)
    assert secrets_of(seat.live.state, 0)  # there is something to keep hidden
    for turn in range(12):
        if turn % 4 == 0:
            seat.sweep()
        status, view = seat.call(seat.url)
        if view["over"]:
            break
        status, view = seat.call(
            f"{seat.url}/choose", {"option": rng.choice(view["options"])["label"]}
        )
        assert status == 200, view
    assert seat.answers > 60


def test_a_game_saved_after_its_end_shows_everything(server):
    base, tables = server
    status, answer = call(
        f"{base}/api/games",
        {"spec": "take_the_gold", "players": 2, "seats": ["person", "first"], "max_turns": 2},
    )
    url, token = seat_api(base, answer["links"]["P1"])
    view = call(f"{url}?token={token}")[1]
    while not view["over"]:
        view = call(f"{url}/choose?token={token}", {"option": view["options"][0]["label"]})[1]
    saved = call(f"{url}/save?token={token}", {})[1]["saved"]
    opened = call(f"{base}/api/replays", {"path": saved})[1]
    rurl, rtoken = seat_api(base, opened["link"])
    first = call(f"{rurl}?token={rtoken}")[1]
    assert first["views"] == ["spectator", "P1", "P2"]
    assert first["header"]["seed"] == tables.game(answer["id"]).seed
    status, watched = call(f"{base}/api/games", {"resume": saved, "seats": ["random", "random"]})
    assert status == 200 and list(watched["links"]) == ["spectator"]
