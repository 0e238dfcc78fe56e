"""`rulespec serve` against a real server on 127.0.0.1: seat tokens, refusals as JSON,
hidden information at the wire, many games at once, save, resume and replay, Ctrl-C."""

import json
import random
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from gamekit import GAMES, ROOT, cli, foreground
from servekit import call, seat_api

from rulespec import load_spec
from rulespec.serve import views
from rulespec.serve.tables import Refused, seat_number
from rulespec.table.narrate import Titles, narrate


def new_game(base, **request):
    status, answer = call(f"{base}/api/games", request)
    assert status == 200, answer
    return answer


def test_a_seat_link_is_needed_for_its_seat(server):
    base, _ = server
    links = new_game(base, spec="take_the_gold", players=3, seats=["person", "person", "random"])[
        "links"
    ]
    p1, t1 = seat_api(base, links["P1"])
    p2, t2 = seat_api(base, links["P2"])
    assert call(f"{p1}?token={t1}")[0] == 200
    assert call(p1) == (
        403,
        {"error": "this link is not the P1 link: ask for the game's seat links"},
    )
    assert call(f"{p2}?token={t1}")[0] == 403  # P1's token does not open P2's seat
    assert call(f"{p1}/choose?token={t2}", {"option": "pass"})[0] == 403
    # a game with a person at it has no spectator: a spectator sees every card
    assert call(f"{p1.rsplit('/', 1)[0]}/spectator?token={t1}") == (
        403,
        {"error": "this game has no spectator link: ask for the game's seat links"},
    )


@pytest.mark.parametrize(
    "path, body, raw, status, error",
    [
        ("/api/games", None, b"{", 400, "the request is not JSON"),
        ("/api/games", [1], None, 400, "the request is a JSON object"),
        ("/api/games", {"spec": "nope"}, None, 400, "no game 'nope' here"),
        ("/api/games", {"spec": "take_the_gold", "players": 9}, None, 400, "is for 2 to 6"),
        # a user's trial: `{}` told of "no game 'None'", "3" that the game is for 2 to 6,
        # a two-player variant at 4 that it is "for 2 to 2 players"
        ("/api/games", {}, None, 400, "'spec' names the game to play; games: "),
        (
            "/api/games",
            {"spec": "take_the_gold", "players": "3"},
            None,
            400,
            "'players' is a whole",
        ),
        (
            "/api/games",
            {"spec": "take_the_gold", "variants": ["two_player"], "players": 4},
            None,
            400,
            "is for exactly 2 players, not 4",
        ),
        (
            "/api/games",
            {"spec": "take_the_gold", "players": 2, "seats": ["dragon", "random"]},
            None,
            400,
            "; or person, for someone at the table",
        ),
        ("/api/games", {"spec": "take_the_gold", "seed": "x"}, None, 400, "'seed' is a whole"),
        (
            "/api/games",
            {"spec": "take_the_gold", "players": 2, "seats": ["dragon", "random"]},
            None,
            400,
            "unknown agent 'dragon'",
        ),
        (
            "/api/games",
            {"spec": "take_the_gold", "players": 2, "seats": ["ismcts:c=-1", "random"]},
            None,
            400,
            "option 'c' must be",
        ),
        (  # a search that would hold a server thread for hours
            "/api/games",
            {
                "spec": "take_the_gold",
                "players": 2,
                "seats": ["ismcts:iterations=100000", "random"],
            },
            None,
            400,
            "at most iterations=10,000 and seconds=10 a decision at a server's table",
        ),
        (  # the seats decided the count, and `players` was ignored
            "/api/games",
            {"spec": "take_the_gold", "players": 5, "seats": ["person", "random"]},
            None,
            400,
            "2 seats named for 5 players",
        ),
        ("/api/games/nope/P1", None, None, 404, "no such game"),
        ("/api/replays", {"path": "/no/such.jsonl"}, None, 422, "error RS801"),
        ("/api/replays", {"log": '{"a": 1}\n'}, None, 422, "RS802"),
        # a file that is neither a log nor YAML (a browser trial's /etc/passwd) is not
        # said to look like YAML
        ("/api/replays", {"log": "root:x:0:0:root:/root:/bin/bash\n"}, None, 422, "not JSON"),
        ("/nowhere", None, None, 404, "Not Found"),
    ],
)
def test_malformed_requests_get_a_4xx_json_error(server, path, body, raw, status, error):
    base, _ = server
    got, answer = call(base + path, body, raw)
    assert got == status
    assert error in answer["error"]


def test_an_illegal_or_untimely_choice_leaves_the_game_as_it_was(server):
    base, tables = server
    answer = new_game(base, spec="pirates_wild", players=2, seed=3, seats=["person", "person"])
    game = tables.game(answer["id"])
    p1, t1 = seat_api(base, answer["links"]["P1"])
    p2, t2 = seat_api(base, answer["links"]["P2"])
    mover, token = (p1, t1) if game.state.current_player() == 0 else (p2, t2)
    waiter, wtoken = (p2, t2) if mover == p1 else (p1, t1)
    before = json.dumps(game.state.log_for(None))
    legal = call(f"{mover}?token={token}")[1]["options"][0]["label"]
    # a script that sends a button's words (a browser trial's "Pass") is told the labels
    status, refused = call(f"{mover}/choose?token={token}", {"option": "fly away"})
    assert status == 422 and refused["error"].startswith("'fly away' is not one of ")
    assert f", by label: {legal}" in refused["error"]
    assert call(f"{mover}/choose?token={token}", {"option": 3})[0] == 400
    assert call(f"{mover}/choose?token={token}", raw=b"\xff")[0] == 400
    assert call(f"{waiter}/choose?token={wtoken}", {"option": legal})[0] == 409
    assert json.dumps(game.state.log_for(None)) == before
    assert call(f"{mover}/choose?token={token}", {"option": legal})[0] == 200
    assert json.dumps(game.state.log_for(None)) != before


def _hidden_from(state, seat):
    """Labels of the zones whose cards `seat` does not see right now."""
    return {k for k, v in state.observation(seat)["zones"].items() if isinstance(v, dict)}


def _same_for_the_seat(message, state, table):
    """The message is what P1 would be sent of any deal of the cards P1 cannot see."""
    shown = {
        k: v for k, v in message.items() if k not in ("title", "players", "watched", "rematch")
    }
    for k in range(3):
        other = state.clone()
        other.redeal(0, random.Random(k))
        assert views.view(other, 0, table) == shown


AGENT_SEATS = [
    ("take_the_gold", ["person", "random", "first", "greedy", "ismcts:iterations=8"]),
    ("pirates_wild", ["person", "random", "first", "greedy"]),
    ("pirates_wild", ["person", "ismcts:iterations=8"]),
]


@pytest.mark.parametrize("spec, seats", AGENT_SEATS)
def test_the_wire_carries_no_card_hidden_from_the_seat(server, spec, seats):
    """Every message sent to P1 over a whole game, checked at the moment it is sent:
    the zones P1 cannot see carry no card, the narration is P1's log, and a new deal
    of every card hidden from P1 would have sent the very same message."""
    base, tables = server
    answer = new_game(base, spec=spec, players=len(seats), seed=5, seats=seats, max_turns=60)
    game = tables.game(answer["id"])
    url, token = seat_api(base, answer["links"]["P1"])
    rng, hidden_moves, messages = random.Random(1), False, 0
    message = call(f"{url}?token={token}")[1]
    while True:
        messages += 1
        state = game.state
        hidden = _hidden_from(state, 0)
        areas = [(z["label"], z) for z in message["zones"]] + [
            (z["label"], z) for p in message["seats"] for z in p["zones"]
        ]
        assert {label for label, _ in areas} >= hidden
        for label, area in areas:
            assert (area["cards"] is None) == (label in hidden), label
        assert message["narration"] == narrate(state.log_for(0), game.table.titles)
        hidden_moves |= message["narration"] != narrate(state.log_for(None), game.table.titles)
        _same_for_the_seat(message, state, game.table)
        if message["over"]:
            break
        option = rng.choice(message["options"])["label"]
        status, message = call(f"{url}/choose?token={token}", {"option": option})
        assert status == 200, message
    assert hidden_moves and messages >= 2
    graph = call(f"{url}/graph?token={token}")[1]
    assert {n["kind"] for n in graph["nodes"]} >= {"action", "zone", "card"}


@pytest.mark.parametrize("agent", ["ismcts:iterations=30:particles=8", "ismcts:iterations=30"])
def test_an_agent_at_a_table_is_told_what_it_sees_as_rulespec_play_tells_it(server, agent):
    """A searching agent keeps a belief and its tree from what it is told of each
    decision: a person at the server (always the first option) and the agent play the
    very game the same seats play in process through `play`, which tells the agent."""
    from rulespec.interpreter import Game
    from rulespec.interpreter.agents import make_agents, play

    base, tables = server
    seats = ["person", agent]
    answer = new_game(base, spec="take_the_gold", players=2, seed=11, seats=seats)
    url, token = seat_api(base, answer["links"]["P1"])
    served = tables.game(answer["id"]).state
    message = call(f"{url}?token={token}")[1]
    while not message["over"]:  # the person takes the first option, as `first` does
        first = served.legal_labels()[0]
        status, message = call(f"{url}/choose?token={token}", {"option": first})
        assert status == 200, message
    alone = Game(load_spec(GAMES / "take_the_gold.yaml"), 2).new_initial_state(seed=11)
    play(alone, make_agents(["first", agent], 2, 11))
    assert served.log_for(None) == alone.log_for(None)


def test_fifty_games_at_once(server):
    base, tables = server

    def one(seed):
        seats = ["random", "random"]
        answer = new_game(
            base, spec="take_the_gold", players=2, seed=seed, seats=seats, max_turns=8
        )
        url, token = seat_api(base, answer["links"]["spectator"])
        view = None
        for _ in range(500):
            status, view = call(f"{url}/step?token={token}", {})
            assert status == 200, view
            if view["over"]:
                break
        return answer["id"], view

    with ThreadPoolExecutor(10) as pool:
        done = list(pool.map(one, range(50)))
    assert len({gid for gid, _ in done}) == 50
    for gid, view in done:
        assert view["over"]
        assert view["result"] == tables.game(gid).state.result


def test_a_saved_game_replays_and_resumes(server, tmp_path):
    base, tables = server
    answer = new_game(base, spec="pirates_wild", players=2, seed=2, seats=["person", "greedy"])
    url, token = seat_api(base, answer["links"]["P1"])
    for _ in range(4):
        view = call(f"{url}?token={token}")[1]
        call(f"{url}/choose?token={token}", {"option": view["options"][-1]["label"]})
    status, saved = call(f"{url}/save?token={token}", {})
    assert status == 200
    # the saved log replays the same with `rulespec replay` ...
    code, out, _ = cli("replay", saved["saved"])
    assert code == 0 and "the same as the log" in out
    # ... and resumes where it stopped, P1 at their seat (saved before the end: see
    # test_serve_secrets.py for the seatings refused)
    before = tables.game(answer["id"]).state
    # by the name "saved as" gave, found in the saves folder (it was looked for in the
    # folder the server started in), and a person in any case
    status, resumed = call(
        f"{base}/api/games", {"resume": Path(saved["saved"]).name, "seats": ["Person", "random"]}
    )
    assert status == 200, resumed
    assert list(resumed["links"]) == ["P1"]
    again = tables.game(resumed["id"]).state
    assert again.log_for(None)[: len(before.log_for(None))] == before.log_for(None)
    # ... and opens as a replay, from the path or uploaded, as P1 saw it
    text = Path(saved["saved"]).read_text(encoding="utf-8")
    for request in ({"path": saved["saved"]}, {"log": text}):
        status, replay = call(f"{base}/api/replays", request)
        assert status == 200, replay
        rurl, rtoken = seat_api(base, replay["link"])
        last = call(f"{rurl}?token={rtoken}&at=0")[1]
        end = call(f"{rurl}?token={rtoken}&at={last['frames'] - 1}")[1]
        assert end["narration"] == narrate(
            before.log_for(0), tables.game(answer["id"]).table.titles
        )
        assert call(f"{rurl}?token=x")[0] == 403
        assert call(f"{rurl}?token={rtoken}&at={last['frames']}")[0] == 400
        # -1 is a whole number: the message says what is wanted (a browser trial's)
        assert call(f"{rurl}?token={rtoken}&at=-1") == (
            400,
            {"error": "'at' is a whole number, 0 or more, not '-1'"},
        )
    # ... and, with a choice the game cannot take, is refused where `rulespec replay` says
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if json.loads(line).get("event") == "choice")
    lines[at] = json.dumps(json.loads(lines[at]) | {"option": "fly away"}) + "\n"
    bad = Path(saved["saved"]).with_name("bad.jsonl")
    bad.write_text("".join(lines), encoding="utf-8")
    for path, request in (
        ("/api/games", {"resume": str(bad), "seats": ["person", "random"]}),
        ("/api/replays", {"path": str(bad)}),
    ):
        status, refused = call(base + path, request)
        assert status == 422
        assert refused["error"].startswith(f"the log does not replay: line {at + 1}: ")


def test_a_resumed_game_with_variant_files_saves_a_log_that_replays(server, tmp_path):
    """`rulespec run --log` names its variants by file, relative to the log's folder;
    played on and saved elsewhere, the game names them relative to the save."""
    base, _ = server
    shutil.copytree(GAMES, tmp_path / "games")
    log = tmp_path / "logs" / "game.jsonl"
    log.parent.mkdir()
    spec = tmp_path / "games" / "take_the_gold.yaml"
    run = ("run", spec, "--variant", "two_player", "--max-turns", "4", "--log", log)
    assert cli(*run)[0] == 0
    status, resumed = call(f"{base}/api/games", {"resume": str(log), "seats": ["person", "random"]})
    assert status == 200, resumed
    url, token = seat_api(base, resumed["links"]["P1"])
    saved = call(f"{url}/save?token={token}", {})[1]["saved"]
    assert Path(saved).parent != log.parent
    code, out, _ = cli("replay", saved)
    assert code == 0 and "the same as the log" in out


def test_a_replay_shows_each_seat_its_own_view(server, tmp_path):
    base, _ = server
    log = tmp_path / "game.jsonl"
    run = ("run", GAMES / "pirates_wild.yaml", "--players", "2", "--max-turns", "30", "--log", log)
    assert cli(*run)[0] == 0
    replay = call(f"{base}/api/replays", {"path": str(log)})[1]
    url, token = seat_api(base, replay["link"])
    logged = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    spectator = call(f"{url}?token={token}&at=5")[1]
    p1 = call(f"{url}?token={token}&at=5&as=P1")[1]
    titles = Titles.of(load_spec(GAMES / "pirates_wild.yaml"))
    assert spectator["narration"] == narrate(logged[: spectator["events"]], titles)
    assert p1["narration"] != spectator["narration"]  # the deal to P2, as P1 sees it
    hands = {p["seat"]: p["zones"] for p in p1["seats"]}
    assert all(z["cards"] is None for z in hands["P2"] if z["name"] == "hand")
    assert all(z["cards"] is not None for z in hands["P1"])
    assert call(f"{url}?token={token}&as=P9")[0] == 404
    # a decision's options are shown with the one taken marked: the log's choice there
    choices = [e for e in logged if e["event"] == "choice"]
    marked = 0
    for at in range(replay_frames(url, token)):
        view = call(f"{url}?token={token}&at={at}&as=P1")[1]  # P1's decisions
        if view["options"]:
            assert view["chosen"] == choices[at]["option"]
            assert view["chosen"] in {o["label"] for o in view["options"]}
            marked += 1
        else:
            assert "chosen" not in view
    assert marked > 5


def replay_frames(url, token) -> int:
    return call(f"{url}?token={token}&at=0")[1]["frames"]


def _entry(*argv):
    code = "import sys; from rulespec.cli import entry; sys.argv[0] = 'rulespec'; entry()"
    return subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        cwd=ROOT,
        preexec_fn=foreground,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_ctrl_c_stops_the_server_with_one_line():
    proc = _entry("serve", "take_the_gold", "--port", "0")
    line = proc.stdout.readline()
    assert line.startswith("serving 1 game(s) at http://127.0.0.1:")
    url = line.split()[4]
    assert call(url + "api/lobby")[1]["games"][0]["title"] == "Take the Gold"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130
    assert err == "rulespec serve: interrupted\n"


def test_a_taken_port_is_a_usage_error():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        code, _, err = cli("serve", "take_the_gold", "--port", taken.getsockname()[1])
    assert code == 2
    assert err.startswith("rulespec serve: cannot listen on 127.0.0.1:")


def test_a_broken_spec_stops_the_server_before_it_starts():
    broken = ROOT / "tests" / "broken" / "04_bad_enum_visibility.yaml"
    code, _, err = cli("serve", broken, "--port", "0")
    assert code == 2
    assert f"{broken.relative_to(ROOT)}" in err or str(broken) in err
    assert " error RS" in err


def test_without_the_extra_the_cli_says_what_to_install(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda m, *a: None if m == "starlette" else real(m, *a)
    )
    assert cli("serve") == (
        2,
        "",
        "rulespec serve: needs the web server packages: pip install 'rulespec[serve]'\n",
    )


def test_a_finished_game_starts_the_next_at_the_same_table(server, monkeypatch):
    """Issue 28: a rematch at the end. The next game keeps the spec, the seats and the
    turn limit, with a fresh deal; each person is shown their own link to it. Its seed
    is drawn at random; here it is fixed, since with this turn limit of 2 one deal
    in fifty (60 of seeds 0 to 2,999) leaves both players nothing to play, so forced
    passes end it at once."""
    import rulespec.serve.tables

    monkeypatch.setattr(rulespec.serve.tables.secrets, "randbelow", lambda n: 7)
    base, tables = server
    seats = ["person", "person"]
    answer = new_game(base, spec="take_the_gold", players=2, seed=3, seats=seats, max_turns=2)
    (p1, t1), (p2, t2) = (seat_api(base, answer["links"][s]) for s in ("P1", "P2"))
    assert call(f"{p1}/rematch?token={t1}", {}) == (409, {"error": "the game is not over"})
    for _ in range(50):
        seen = [call(f"{url}?token={token}")[1] for url, token in ((p1, t1), (p2, t2))]
        if seen[0]["over"]:
            break
        mover, token = (p1, t1) if seen[0]["options"] else (p2, t2)
        options = (seen[0] if mover == p1 else seen[1])["options"]
        call(f"{mover}/choose?token={token}", {"option": options[-1]["label"]})
    assert seen[0]["over"] and seen[0]["rematch"] is None
    status, again = call(f"{p2}/rematch?token={t2}", {})
    assert status == 200 and again["link"].startswith(f"/table?game={again['id']}&seat=P2&")
    assert call(f"{p1}/rematch?token={t1}", {})[1]["id"] == again["id"]  # one next game
    old, new = tables.game(answer["id"]), tables.game(again["id"])
    assert (new.seats, new.max_turns, new.spec_path) == (old.seats, old.max_turns, old.spec_path)
    assert new.seed == 7 != old.seed and not new.state.is_terminal()
    shown = call(f"{p1}?token={t1}")[1]["rematch"]
    assert shown.startswith(f"/table?game={again['id']}&seat=P1&") and t2 not in shown


def test_a_choice_made_in_an_older_view_is_refused(server):
    """A double click sent the same choice twice, and the second was taken as the next
    decision's: a choice that names the events of its view is refused once they moved."""
    base, tables = server
    answer = new_game(base, spec="take_the_gold", players=2, seed=30, seats=["person", "random"])
    p1, t1 = seat_api(base, answer["links"]["P1"])
    view = call(f"{p1}?token={t1}")[1]
    label, events = view["options"][0]["label"], view["events"]
    assert call(f"{p1}/choose?token={t1}", {"option": label, "events": "x"})[0] == 400
    assert call(f"{p1}/choose?token={t1}", {"option": label, "events": events})[0] == 200
    game = tables.game(answer["id"])
    if not game.state.is_terminal() and game.state.current_player() == 0:
        before = len(game.state.log_for(None))
        code, said = call(f"{p1}/choose?token={t1}", {"option": label, "events": events})
        assert code == 409 and "answers an earlier decision" in said["error"]
        assert len(game.state.log_for(None)) == before


def test_beside_another_person_a_person_takes_even_a_forced_decision(server):
    """The table took a person's one-option decision at once (a reaction with nothing
    to answer with): the other person saw no wait, and so knew they held no answer."""
    base, tables = server
    answer = new_game(base, spec="take_the_gold", players=2, seed=3, seats=["person", "person"])
    game = tables.game(answer["id"])
    forced = 0
    for _ in range(200):
        s = game.state
        if s.is_terminal():
            break
        who = s.current_player()
        options = s.legal_labels()
        forced += len(options) == 1
        link = answer["links"][f"P{who + 1}"]
        seat, token = seat_api(base, link)
        assert call(f"{seat}/choose?token={token}", {"option": options[0]})[0] == 200
    assert forced > 0  # decisions with one option were asked, not taken for the person


@pytest.mark.parametrize("name", ["P01", "P0", "p1", "P1 ", "P3"])
def test_a_seat_is_named_as_the_game_names_it(name):
    """P01 was taken for P1 (its token was still needed)."""
    with pytest.raises(Refused) as refused:
        seat_number(name, 2)
    assert refused.value.status == 404
    assert seat_number("P2", 2) == 1 and seat_number("spectator", 2) is None


def test_a_bug_answers_a_json_500_and_one_line_and_the_server_goes_on(server, monkeypatch, capsys):
    """A user's trial met a 500 in plain text (the lobby then said the answer "is not
    valid JSON") and a traceback in the server's output without --debug."""
    base, tables = server

    def broken():
        raise TypeError("CounterDef.__init__() takes 10 positional arguments")

    monkeypatch.setattr(tables, "lobby", broken)
    status, answer = call(f"{base}/api/lobby")
    assert status == 500
    # the exception's words may name what the seat may not see: only the server says them
    assert answer == {"error": "internal error (TypeError); this is a bug in rulespec"}
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1
    assert err.startswith(
        "rulespec serve: internal error (TypeError: CounterDef.__init__() takes 10 positional "
        "arguments), answering GET /api/lobby; this is a bug in rulespec"
    )
    monkeypatch.undo()
    assert call(f"{base}/api/lobby")[0] == 200  # the server goes on


def test_people_at_a_simultaneous_choice_may_all_choose_at_once(tmp_path):
    """A Hearts designer's table asked the pass seat by seat: P2 waited for P1. Each
    person asked at a simultaneous choice now sees their options at once and may choose
    before their turn; the pick is taken when the rules ask them, and nobody else's view
    shows it meanwhile."""
    from servekit import running

    with running(tmp_path, [str(GAMES / "draft.yaml")]) as (base, tables):
        answer = new_game(base, spec="draft", players=3, seed=1, seats=["person"] * 3)
        game = tables.game(answer["id"])
        (p1, t1), (p2, t2), (p3, t3) = (
            seat_api(base, answer["links"][s]) for s in ("P1", "P2", "P3")
        )
        assert game.state.current_player() == 0 and game.state.deciding_together() == (0, 1, 2)
        first = call(f"{p1}?token={t1}")[1]
        seen = call(f"{p2}?token={t2}")[1]
        assert seen["options"] and seen["waiting_for"] is None and "picked" not in seen
        label = seen["options"][-1]["label"]
        assert call(f"{p2}/choose?token={t2}", {"option": label})[0] == 200
        assert game.state.current_player() == 0  # taken when P2's turn comes, not before
        after = call(f"{p2}?token={t2}")[1]
        assert after["options"] == [] and after["picked"] == seen["options"][-1]["text"]
        assert call(f"{p2}/choose?token={t2}", {"option": label})[0] == 409  # once
        assert call(f"{p1}?token={t1}")[1] == first  # P1 is shown nothing of it
        assert call(f"{p1}/choose?token={t1}", {"option": first["options"][0]["label"]})[0] == 200
        assert game.state.current_player() == 2  # P2's pick was taken; P3 chose nothing yet
        p3_options = call(f"{p3}?token={t3}")[1]["options"]
        assert call(f"{p3}/choose?token={t3}", {"option": p3_options[0]["label"]})[0] == 200
        picks = [e for e in game.state.log_for(None) if e["event"] == "choice"][:3]
        assert [(e["player"], e["option"]) for e in picks][1] == (1, label)


def test_picks_from_a_shared_zone_are_not_offered_before_the_seat_s_turn(tmp_path):
    """What P2 may pick from the pool hangs on what P1 picks and holds: P2 is asked when
    its turn comes, and an early choice is refused."""
    from servekit import running

    pool = ROOT / "tests" / "valid" / "pool_pick.yaml"
    with running(tmp_path, [str(pool)]) as (base, tables):
        answer = new_game(base, spec="pool_pick", players=2, seed=1, seats=["person"] * 2)
        game = tables.game(answer["id"])
        assert game.state.deciding_together() == (0, 1)
        p2, t2 = seat_api(base, answer["links"]["P2"])
        seen = call(f"{p2}?token={t2}")[1]
        assert seen["options"] == [] and seen["waiting_for"] == "P1"
        assert call(f"{p2}/choose?token={t2}", {"option": "red"})[0] == 409


def test_the_lobby_offers_a_game_only_the_agents_it_can_seat(tmp_path):
    """A player's trial seated greedy at a spec without an evaluation: the lobby
    offered it, and the game was refused only at Start."""
    from servekit import running

    plain = tmp_path / "all_at_once.yaml"
    plain.write_text((ROOT / "tests" / "valid" / "all_at_once.yaml").read_text())
    with running(tmp_path, [str(GAMES / "take_the_gold.yaml"), str(plain)]) as (base, _):
        lobby = call(f"{base}/api/lobby")[1]
    offered = {g["id"]: g["agents"] for g in lobby["games"]}
    assert "greedy" in offered["take_the_gold"] and "greedy" not in offered["all_at_once"]
    assert offered["all_at_once"][0] == "person" and "random" in offered["all_at_once"]
    assert "greedy" in lobby["agents"]  # every agent, as before


def test_a_page_a_browser_asks_for_that_is_not_there_leads_back_to_the_lobby(server):
    """A person who mistyped a link saw the bare JSON `{"error":"Not Found"}`: a browser
    (asking for HTML) gets a page with the way back to the lobby; a script still gets
    JSON, and the API's own paths always do."""
    base, _ = server
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 itself
    request = urllib.request.Request(f"{base}/nowhere", headers={"Accept": "text/html"})
    with pytest.raises(urllib.error.HTTPError) as exc:
        opener.open(request, timeout=30)
    page = exc.value.read().decode()
    assert exc.value.code == 404 and '<a href="/">The lobby</a>' in page and "/nowhere" in page
    api = urllib.request.Request(f"{base}/api/nowhere", headers={"Accept": "text/html"})
    with pytest.raises(urllib.error.HTTPError) as exc:
        opener.open(api, timeout=30)
    assert json.loads(exc.value.read()) == {"error": "Not Found"}
    assert call(f"{base}/nowhere") == (404, {"error": "Not Found"})
    # a table link cut short names no game: said so, not blamed on a restart
    table = urllib.request.Request(f"{base}/table", headers={"Accept": "text/html"})
    with pytest.raises(urllib.error.HTTPError) as exc:
        opener.open(table, timeout=30)
    page = exc.value.read().decode()
    assert exc.value.code == 400 and "names no game" in page and "The lobby" in page
