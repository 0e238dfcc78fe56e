"""Simulation gives the same results however it is run: one process or several (a Dask
cluster: test_cluster.py); its report counts what it says it counts; and what it keeps
does not grow with the number of games (issue 30)."""

import contextlib
import io
import itertools
import json
import multiprocessing
import os
import queue
import re
import shutil
import subprocess
import sys
import tracemalloc
from collections import Counter

import pytest
from gamekit import GAMES, ROOT, cli, edited, game_for

from rulespec import load_spec
from rulespec.analysis import simulation
from rulespec.cli import main
from rulespec.interpreter import Game, State

TTG = str(GAMES / "take_the_gold.yaml")
JOB = simulation.job(load_spec(TTG), 4)


def test_the_cards_played_of_a_large_deck_are_wrapped_a_card_and_its_count_together():
    """A designer's Oh Hell printed one line of 2,500 characters for a 52-card deck."""
    code, out, _ = cli("simulate", GAMES / "whist.yaml", "--games", "2", "--format", "text")
    assert code == 0
    block = out[out.index("  cards played") :].splitlines()
    assert len(block) > 5 and all(len(line) <= 100 for line in block)
    pairs = " ".join(line[19:] for line in block).split(", ")
    assert len(pairs) == 52 and all(re.fullmatch(r"\w+ \d+", p) for p in pairs)


def test_results_do_not_depend_on_the_number_of_workers():
    one = simulation.simulate(JOB, 300, seed=5, workers=1)
    two = simulation.simulate(JOB, 300, seed=5, workers=2)
    assert one == two and one.games == 300
    assert one == simulation.play_games(game_for("take_the_gold", 4), range(5, 305), ["random"])


def test_a_run_is_the_sum_of_the_runs_of_its_seeds():
    """Counts are additive: the tally of seeds 0..299 is that of 0..119 and 120..299
    merged, and so are the counts of the --json reports."""
    whole = simulation.simulate(JOB, 300, seed=0, workers=2)
    parts = simulation.simulate(JOB, 120, seed=0)
    parts.merge(simulation.simulate(JOB, 180, seed=120))
    assert parts == whole and simulation.summarize(parts, 4) == simulation.summarize(whole, 4)
    reports = [
        json.loads(cli("simulate", TTG, "--json", "--games", games, "--seed", seed)[1])
        for games, seed in ((300, 0), (120, 0), (180, 120))
    ]
    assert _counts(reports[0]) == _counts(reports[1]) + _counts(reports[2])


def _counts(report) -> Counter:
    counts = Counter({"games": report["games"]})
    counts.update({f"end {r}": v["count"] for r, v in report["end_reasons"].items()})
    counts.update({f"card {c}": k for c, k in report["cards_played"].items()})
    for rule, f in report["rules_fired"].items():
        counts.update({f"times {rule}": f["times"], f"games {rule}": f["games"]})
    for b in report["branches_chosen"]:  # Take the Gold's pay or refuse
        site = f"{b['rule']}:{b['line']} {b['label']}"
        counts.update({f"taken {site}": b["times"], f"only {site}": b["only_option"]})
        counts[f"games {site}"] += b["games"]
    return counts


@pytest.mark.slow  # two runs of 400 and 4,000 games, in worker processes: seconds
def test_what_a_run_keeps_does_not_grow_with_its_games():
    """Issue 30: every game's result was kept until the end, and --games was capped at
    100,000 to bound that. The parent now holds the tally (a few kB) and a few chunks."""

    def peak(games):
        tracemalloc.start()
        try:
            simulation.simulate(JOB, games, workers=2)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(400), peak(4000)
    assert large < 1.5 * small + 100_000, (small, large)


def test_a_game_is_compiled_once_per_process_not_per_chunk(monkeypatch):
    built, compile_game = [], simulation.Game

    def counted(*args):
        built.append(args)
        return compile_game(*args)

    monkeypatch.setattr(simulation, "Game", counted)
    simulation._definition.cache_clear()
    job = simulation.job(load_spec(TTG), 3)
    tally = simulation.simulate(job, 200, seed=0)
    assert tally.games == 200 and len(built) == 1
    simulation.simulate(job, 100, seed=500)
    assert len(built) == 1
    simulation._definition.cache_clear()


def test_the_job_carries_its_spec_and_variants(tmp_path, monkeypatch):
    """A job reads its files once: a worker process finds none of them, and a file
    changed since makes another job (the key is a hash of the content)."""
    desk = tmp_path / "desk"
    (desk / "variants" / "game").mkdir(parents=True)
    shutil.copy(TTG, desk / "game.yaml")
    shutil.copy(GAMES / "variants" / "take_the_gold" / "long_5.yaml", desk / "variants" / "game")
    (desk / "variants" / "game" / "long_5.yaml").write_text(
        (desk / "variants" / "game" / "long_5.yaml")
        .read_text()
        .replace("../../take_the_gold.yaml", "../../game.yaml")
    )
    monkeypatch.chdir(desk)
    job = simulation.job(load_spec("game.yaml", variants=("long_5",)), 4)
    here = simulation.simulate(job, 60, seed=0)
    monkeypatch.chdir(tmp_path)
    shutil.rmtree(desk)
    assert simulation.simulate(job, 60, seed=0, workers=2) == here
    assert here != simulation.simulate(JOB, 60, seed=0)  # the variant applied: another game
    assert job.key != JOB.key


def test_report_counts_rules_cards_and_outcomes():
    report = simulation.summarize(simulation.simulate(JOB, 200, seed=0), 4)
    assert report["games"] == 200
    assert sum(r["count"] for r in report["end_reasons"].values()) == 200
    plays = sum(
        report["rules_fired"][a]["times"]
        for a in ("pirate", "two_pirates", "kraken", "captain_raid")
    )
    blocks = sum(
        report["rules_fired"][r]["times"]
        for r in ("officer_block", "two_officers_block", "captain_block")
    )
    assert sum(report["cards_played"].values()) == plays + blocks
    assert report["length"]["median"] <= report["length"]["p95"] <= report["length"]["max"]


def test_a_card_shown_and_kept_is_not_counted_as_played():
    """A Schnapsen designer announced a marriage by an action `card: king` with `to:
    hand(current)`, the king shown and kept: `simulate` counted each announcement as a
    king played, the kings ahead of every other face. A card (an answer's too) played
    into the hand it came from is not counted; one played elsewhere is."""
    kept = "    answers: [pirate, two_pirates]\n    to: {}\n    effect: strength -= 1\n"
    text = edited(
        (GAMES / "take_the_gold.yaml").read_text(encoding="utf-8"),
        ("    card: pirate\n    to: discard_pile\n", "    card: pirate\n    to: hand(current)\n"),
        (kept.format("discard_pile"), kept.format("hand(reactor)")),
    )
    game = Game(load_spec("take_the_gold.yaml", text), 2)
    zones = {"hand[P1]": ["pirate", "two_pirates"], "hand[P2]": ["officer", "gold_coin"]}
    state = State.from_layout(game, zones=zones | {"draw_pile": ["gold_coin"] * 4})
    state.apply_action("pirate -> P2")
    state.apply_action("officer_block")
    assert dict(state.played) == {}  # both shown and kept
    state = State.from_layout(game, zones=zones | {"draw_pile": ["gold_coin"] * 4})
    state.apply_action("two_pirates -> P2")
    assert dict(state.played) == {"two_pirates": 1}


def test_cli_simulate_json_and_plot(tmp_path):
    png = tmp_path / "sim.png"
    out = io.StringIO()
    args = ["simulate", TTG, "--games", "100", "--json", "--workers", "2"]
    if _has_matplotlib():  # an optional extra: the plot is checked where it is installed
        args += ["--plot", str(png)]
    assert main(args, stdout=out, stderr=io.StringIO()) == 0
    report = json.loads(out.getvalue())
    assert report["games"] == 100 and set(report["seat_wins"]) == {"P1", "P2", "P3", "P4"}
    assert "partial" not in report
    if _has_matplotlib():
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", ["chart", "chart.xyz"])
def test_a_plot_without_a_format_is_refused_before_any_game(tmp_path, monkeypatch, name):
    """Issue 24: `--plot chart` exited 0 with chart left empty (matplotlib wrote
    chart-like.png beside it), and `--plot c.xyz` failed only once every game was played."""
    pytest.importorskip("matplotlib")
    (tmp_path / name).write_text("old")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(simulation, "simulate", pytest.fail)  # no game may be played
    err = io.StringIO()
    assert main(["simulate", TTG, "--plot", name], stdout=io.StringIO(), stderr=err) == 2
    assert (
        err.getvalue().startswith(
            f"rulespec simulate: --plot: {name}: its suffix names the image's format, one of "
        )
        and ".png" in err.getvalue()
    )
    assert [p.name for p in tmp_path.iterdir()] == [name] and (tmp_path / name).read_text() == "old"


def test_a_plot_that_cannot_be_written_is_a_usage_error(tmp_path):
    """Issue 24: `--plot /dev/full` exited 0 having written nothing (matplotlib wrote
    /dev/full.png); a device with a suffix is written directly, and a full one fails."""
    pytest.importorskip("matplotlib")
    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    (tmp_path / "full.png").symlink_to("/dev/full")
    err = io.StringIO()
    argv = ["simulate", TTG, "--games", "3", "--plot", str(tmp_path / "full.png")]
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue() == (
        f"rulespec simulate: --plot: cannot write {tmp_path / 'full.png'}: "
        "No space left on device\n"
    )
    err = io.StringIO()
    assert main(["simulate", TTG, "--plot", "/dev/full"], stdout=io.StringIO(), stderr=err) == 2
    assert "--plot: /dev/full: its suffix names the image's format" in err.getvalue()


def _has_matplotlib():
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def test_a_huge_game_count_is_split_without_listing_its_seeds():
    """Fuzz find (issue 12): the seeds were listed up front, so --games 10**9 ran out of
    memory and --games 10**20 raised OverflowError before a game was played."""
    tracemalloc.start()
    try:
        work = simulation.chunks(10**20, 7, 8)
        first = list(itertools.islice(work, 3))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000 and [(r[0], len(r)) for r in first] == [
        (7, 1000),
        (1007, 1000),
        (2007, 1000),
    ]
    small = list(simulation.chunks(2501, 7, 2))
    assert [len(r) for r in small] == [1000, 1000, 501]  # no chunk over CHUNK games
    assert small[0][0] == 7 and small[-1][-1] == 7 + 2500
    assert all(a[-1] + 1 == b[0] for a, b in itertools.pairwise(small))  # none lost or repeated


def test_no_more_worker_processes_than_chunks_of_work():
    """Fuzz find (issue 12): --workers N started N processes whatever the games."""
    seen = []
    results = simulation.simulate(
        JOB,
        3,
        seed=1,
        workers=24,
        progress=lambda done: seen.append(len(multiprocessing.active_children())),
    )
    assert results == simulation.simulate(JOB, 3, seed=1)
    assert seen and max(seen) <= 3


def test_most_games_at_the_turn_limit_draw_a_warning_and_a_finished_game_none(tmp_path):
    """Issue 28: random agents end most Pirates Wild games at the turn limit, and the
    report then says little of the rules; simulate says so, and names agents that finish."""
    pw = str(GAMES / "pirates_wild.yaml")
    code, out, err = cli("simulate", pw, "--games", 12, "--json")
    limited = json.loads(out)["end_reasons"]["turn_limit"]["count"]
    assert code == 0 and limited > 6
    assert err == (
        f"warning: {limited} of 12 games ({100 * limited / 12:.0f}%) ended at the turn limit, "
        "not by a rule: agents random rarely finish this game; try --agents greedy\n"
    )
    assert cli("simulate", TTG, "--games", 50)[2] == ""
    # greedy agents that do not finish either are not told to try greedy agents
    short = tmp_path / "short.yaml"
    short.write_text("rulespec: 1\nextends: " + TTG + "\nturn_limit: 2\n")
    err = cli("diff", short, short, "--simulate", 4, "--agents", "greedy")[2]
    assert (
        "agents greedy rarely finish this game; check that it can end: rulespec lint SPEC "
        "--simulate 4 --players 4 --agents greedy tells a game that stood still (RL304)\n"
    ) in err
    # nor are agents blamed for a limit the user set (a designer's --max-turns 3)
    err = cli("simulate", TTG, "--games", 10, "--max-turns", 2)[2]
    assert err.endswith(
        "ended at the turn limit, not by a rule: the limit --max-turns 2 set ends them; "
        "raise it, or leave it out\n"
    )


def test_the_turn_limit_warning_names_the_lint_that_finds_a_game_standing_still(tmp_path):
    """A Splendor designer's greedy games hit the turn limit, and simulate said to check
    `rulespec lint`, which found nothing: only its games (--simulate) find the lock-up.
    The command the warning gives finds it, in a draft whose round never ends."""
    still = (GAMES / "draft.yaml").read_text()
    for old, new in (  # as tests/lint/dr_round_never_ends_so_the_game_stands_still.yaml
        ("      when: all(size(hand(p)) == 0 for p in players)\n", "      when: size(deck) == 0\n"),
        (
            "players: {min: 2, max: 5, default: 4}",
            "players: {min: 2, max: 5, default: 4}\nturn_limit: 60",
        ),
    ):
        assert still.count(old) == 1
        still = still.replace(old, new)
    spec = tmp_path / "still.yaml"
    spec.write_text(still)
    err = cli("simulate", spec, "--games", 4, "--players", 3, "--agents", "greedy")[2]
    told = re.search(r"check that it can end: rulespec (lint SPEC [^\n]*) tells", err)
    assert told, err
    argv = told[1].replace("SPEC", str(spec)).split()
    assert argv[2:] == ["--simulate", "4", "--players", "3", "--agents", "greedy"]
    assert "warning RL304: a game stood still" in cli(*argv)[1]


def test_a_worker_dies_of_the_pools_sigterm_whatever_handler_its_parent_set():
    """The CLI's process handles SIGTERM (exit 143), and a forked worker inherits the
    handler. A worker's SIGTERM could land on its watching thread, and the handler then
    never ran: the main thread waited on the pool's queue, and `simulate --workers 2`
    hung at its end (a docs transcript timed out). A worker takes SIGTERM's default."""
    code = (
        "import os, signal, sys\n"
        "signal.signal(signal.SIGTERM, lambda s, f: sys.exit(128 + s))  # as the CLI's entry\n"
        "from rulespec.analysis.simulation import _worker_start\n"
        "_worker_start(os.getppid())\n"
        "print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL,"
        " signal.getsignal(signal.SIGINT) is signal.SIG_IGN)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.split() == ["True", "True"]


def _simulate_from_a_daemon(out) -> None:
    out.put(simulation.simulate(JOB, 60, seed=3, workers=2))


def test_a_daemonic_process_simulates_in_process_with_the_same_games():
    """A pool's worker (daemonic) may start no processes: `simulate --workers 2` run
    there stopped with "daemonic processes are not allowed to have children" (found by
    fuzzing, whose cases run in such a worker). It plays the games itself instead."""
    out = multiprocessing.Queue()
    daemon = multiprocessing.Process(target=_simulate_from_a_daemon, args=(out,), daemon=True)
    daemon.start()
    got = None
    while got is None and (daemon.is_alive() or not out.empty()):  # until it puts or dies
        with contextlib.suppress(queue.Empty):
            got = out.get(timeout=1)
    daemon.join(timeout=30)
    assert got == simulation.simulate(JOB, 60, seed=3, workers=1) and got.games == 60


def test_a_game_whose_actions_play_no_card_says_so():
    """`cards played` was printed with nothing after it (a designer's Hold'em), then
    "none" where a 6 nimmt! designer's every card was laid by a pick, which read as
    wrong: it says what it counts."""
    code, out, _ = cli("simulate", ROOT / "tests/valid/pass_the_pair.yaml", "--games", 3)
    assert code == 0 and (
        "\n  cards played     none by an action or a reaction (cards chosen and moved are "
        "not counted)\n" in out
    )


def test_games_won_by_no_one_or_shared_are_reported():
    """A designer's Go Fish shared the win on a tie; its seat wins added up to 134 % and
    nothing said why. A team's seats winning together are one win, not a shared one."""
    tally = simulation.Tally(games=8)
    tally.winners.update({(0,): 3, (0, 2): 2, (): 1, (1, 3): 2})
    alone = simulation.summarize(tally, 4)
    assert (alone["no_winner"]["share"], alone["shared_wins"]["share"]) == (0.125, 0.5)
    teams = simulation.summarize(tally, 4, (("north_south", (0, 2)), ("east_west", (1, 3))))
    assert (teams["no_winner"]["share"], teams["shared_wins"]["share"]) == (0.125, 0.0)


SOMETIMES_FAILS = """\
rulespec: 1
name: Sometimes Fails
players: {min: 2, max: 2}
hand: hand
deck:
  cards:
    good: {count: 7}
    bad: {count: 1}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  hand: {per_player: true, visibility: owner}
setup:
  effect: shuffle(pile)
turn:
  - step: draw
    effect: |
      move(top(pile, 1), hand(current))
      if count(hand(current), bad) > 0 { set_current(nth(players, 9)) }
end_conditions:
  drawn:
    when: size(pile) == 6
    effect: end_game()
"""


def test_a_rule_that_fails_in_one_game_names_its_seed(tmp_path):
    """Which game of many failed, so that it can be played and watched alone: `run`
    with that seed fails at the same place, and the games before it play."""
    spec = tmp_path / "fails.yaml"
    spec.write_text(SOMETIMES_FAILS)
    code, _, err = cli("simulate", spec, "--games", 50, "--seed", 3)
    assert code == 2 and "error RS701" in err
    seed = int(re.search(r"in the game of seed (\d+) at 2 players ", err).group(1))
    assert seed > 3 and cli("simulate", spec, "--games", seed - 3, "--seed", 3)[0] == 0
    code, _, alone = cli("run", spec, "--seed", seed)
    assert code == 2 and alone.splitlines()[0] in err.splitlines()[0]


def test_the_report_tests_each_seat_and_place_in_turn_order_against_equal_shares():
    """An analyst balancing a game asked whether going first wins more: the report gave
    shares without a test, and no counts to test them with. Each seat's and each place
    in turn order's wins now come with their counts and a chi-square test against
    equal shares, said under the shares in words."""
    report = json.loads(cli("simulate", TTG, "--games", 600, "--players", 3, "--json")[1])
    for key in ("seat_wins", "turn_order_wins"):
        counts = [w["count"] for w in report[key].values()]
        assert [w["share"] for w in report[key].values()] == [round(c / 600, 4) for c in counts]
        expected = sum(counts) / 3
        test = report[f"{key}_test"]
        assert test["df"] == 2 and test["statistic"] == pytest.approx(
            sum((c - expected) ** 2 for c in counts) / expected, abs=1e-3
        )
        assert 0 <= test["p"] <= 1
    assert "team_wins_test" not in report
    out = cli("simulate", TTG, "--games", 600, "--players", 3)[1].splitlines()
    at = next(i for i, line in enumerate(out) if line.startswith("  turn order wins"))
    verdict = "unequal shares" if report["turn_order_wins_test"]["p"] < 0.05 else "no inequality"
    assert out[at + 1].strip().startswith(verdict) and "chi-square, 2 df" in out[at + 1]


def test_the_report_names_the_rules_that_never_fired(tmp_path):
    """An analyst's variant dealt no Kraken, and the report dropped the Kraken's action,
    the reaction that answers it and the end it leads to without a word: what never
    fired is what a variant's report is read for. Listed in the text and the --json."""
    (tmp_path / "base.yaml").write_text((GAMES / "take_the_gold.yaml").read_text())
    variant = tmp_path / "no_kraken.yaml"
    variant.write_text("rulespec: 1\nextends: base.yaml\ncards:\n  kraken: {count: 0}\n")
    code, out, _ = cli("simulate", variant, "--json", "--games", 50)
    report = json.loads(out)
    assert code == 0 and report["rules_never_fired"] == [
        "captain_block",
        "kraken",
        "ship_destroyed",
    ]
    assert not set(report["rules_never_fired"]) & set(report["rules_fired"])
    code, text, _ = cli("simulate", variant, "--games", 50)
    assert "    (never fired)          captain_block, kraken, ship_destroyed\n" in text
    # every rule fired: no line
    assert "never fired" not in cli("simulate", TTG, "--games", 200)[1]


def test_games_that_stopped_without_an_end_give_their_seeds(tmp_path):
    """A Fluxx designer read `effect_loop 0.5%` and ran 200 seeds one by one to find
    the game that looped: the report gives the seeds of such games, to replay."""
    spec = tmp_path / "routines.yaml"  # a deal that calls itself forever once a card is dealt
    spec.write_text(
        edited(
            (ROOT / "tests" / "valid" / "routines.yaml").read_text(),
            (
                "    effect: move(top(pile, n), hand(p))",
                "    effect: |\n      move(top(pile, n), hand(p))\n"
                "      if size(hand(p)) > 0 { deal(p, 0) }",
            ),
        )
    )
    code, out, _ = cli("simulate", spec, "--games", "8", "--seed", "3", "--json")
    loop = json.loads(out)["end_reasons"]["effect_loop"]
    assert code == 0 and loop["seeds"] == [3, 4, 5, 6, 7]  # the smallest five
    _, out, _ = cli("simulate", spec, "--games", "8", "--seed", "3", "--players", "3")
    assert "seeds 3, 4, 5, 6, 7" in out.splitlines()[1]
    # with what replays it: the seed alone replays only at the default settings (a review's)
    replay = next(line for line in out.splitlines() if line.startswith("  replay it"))
    assert replay.endswith(f"run {spec} --seed 3 --players 3 --agents random")
