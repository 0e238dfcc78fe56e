"""Simulation gives the same results however it is run: one process, several, or a
Dask cluster; and its report counts what it says it counts."""

import io
import itertools
import json
import multiprocessing
import os
import tracemalloc

import pytest
from gamekit import GAMES

from rulespec.analysis import simulation
from rulespec.cli import main

TTG = str(GAMES / "take_the_gold.yaml")
JOB = simulation.Job(TTG, 4, ("random",), None)


def test_results_do_not_depend_on_the_number_of_workers():
    one = simulation.simulate(JOB, 300, seed=5, workers=1)
    two = simulation.simulate(JOB, 300, seed=5, workers=2)
    assert one == two and len(one) == 300
    assert one == [simulation.play_one(JOB, s) for s in range(5, 305)]


def test_dask_gives_the_local_results():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        on_cluster = simulation.simulate(JOB, 200, seed=3, dask_address=cluster.scheduler_address)
    assert on_cluster == simulation.simulate(JOB, 200, seed=3)


def test_report_counts_rules_cards_and_outcomes():
    results = simulation.simulate(JOB, 200, seed=0)
    report = simulation.summarize(results, 4)
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


def test_cli_simulate_json_and_plot(tmp_path):
    png = tmp_path / "sim.png"
    out = io.StringIO()
    args = ["simulate", TTG, "--games", "100", "--json", "--workers", "2"]
    if _has_matplotlib():  # an optional extra: the plot is checked where it is installed
        args += ["--plot", str(png)]
    assert main(args, stdout=out, stderr=io.StringIO()) == 0
    report = json.loads(out.getvalue())
    assert report["games"] == 100 and set(report["seat_wins"]) == {"P1", "P2", "P3", "P4"}
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
        work = simulation.chunks(JOB, 10**20, 7, 8)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000 and len(work) == 8
    assert list(work[0][1][:3]) == [7, 8, 9] and work[-1][1][-1] == 7 + 10**20 - 1
    assert all(
        a[1][-1] + 1 == b[1][0] for a, b in itertools.pairwise(work)
    )  # no seed lost or repeated


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
