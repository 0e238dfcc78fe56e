"""`simulate --dask` on real Dask clusters on 127.0.0.1 (issue 30): a scheduler and
worker processes started as `dask scheduler` and `dask worker` are on a node of their
own, in a folder of their own. A job carries its spec, so workers read no file; and a
scheduler that cannot be reached, a worker without rulespec and a task that fails on a
worker are three different errors."""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import threading
from io import StringIO

import pytest
from gamekit import GAMES, cli

from rulespec import load_spec
from rulespec.analysis import simulation
from rulespec.cli import main

distributed = pytest.importorskip("distributed")

TTG = str(GAMES / "take_the_gold.yaml")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(argv, where, env=None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, *argv],
        cwd=where,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the workers' processes go with it
    )


def _stop(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


@contextlib.contextmanager
def _cluster(where, python_flags=(), env=None, workers=2):
    """A scheduler and `workers` single-threaded worker processes, run from `where`."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    port = address.rsplit(":", 1)[1]
    scheduler = _start(
        ["-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", port]
        + ["--no-dashboard"],
        where,
    )
    worker = _start(
        [*python_flags, "-m", "distributed.cli.dask_worker", address, "--host", "127.0.0.1"]
        + ["--nworkers", str(workers), "--nthreads", "1", "--no-dashboard"],
        where,
        env,
    )
    try:
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(workers, timeout=60)
        yield address, scheduler
    finally:
        _stop(worker)
        _stop(scheduler)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with _cluster(tmp_path_factory.mktemp("node")) as (address, _scheduler):
        yield address


def test_a_cluster_plays_the_games_one_process_plays(cluster):
    job = simulation.job(load_spec(TTG), 4)
    assert simulation.simulate(job, 300, seed=3, dask_address=cluster) == simulation.simulate(
        job, 300, seed=3
    )


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
def test_workers_need_no_file_of_the_spec(cluster, tmp_path, monkeypatch):
    """The spec, its variant and the file the variant extends are deleted as soon as the
    first chunks are submitted; the workers run in a folder without them all along."""
    desk = tmp_path / "desk"
    shutil.copytree(GAMES / "variants" / "take_the_gold", desk / "variants" / "ttg")
    shutil.copy(TTG, desk / "ttg.yaml")
    variant = desk / "variants" / "ttg" / "long_5.yaml"
    variant.write_text(variant.read_text().replace("take_the_gold.yaml", "ttg.yaml"))
    monkeypatch.chdir(desk)
    job = simulation.job(load_spec("ttg.yaml", variants=("long_5",)), 4)
    here = simulation.simulate(job, 400, seed=0)
    monkeypatch.chdir(tmp_path)
    gone = []

    def delete(done):
        if not gone:
            shutil.rmtree(desk)
            gone.append(done)

    assert simulation.simulate(job, 400, seed=0, progress=delete, dask_address=cluster) == here
    assert gone and not desk.exists()


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
def test_a_spec_on_standard_input_plays_on_the_cluster(cluster):
    with open(TTG, encoding="utf-8") as f:
        text = f.read()
    out, err = StringIO(), StringIO()
    argv = ["simulate", "-", "--games", "200", "--json", "--dask", cluster]
    assert main(argv, stdout=out, stderr=err, stdin=StringIO(text)) == 0, err.getvalue()
    assert out.getvalue() == cli("simulate", TTG, "--games", "200", "--json")[1]


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
def test_diff_and_lint_play_on_the_cluster_too(cluster):
    local = cli("diff", TTG, TTG, "--simulate", "50", "--json")
    assert cli("diff", TTG, TTG, "--simulate", "50", "--json", "--dask", cluster) == local
    local = cli("lint", TTG, "--simulate", "50", "--json")
    assert cli("lint", TTG, "--simulate", "50", "--json", "--dask", cluster) == local


# --- the three errors ------------------------------------------------------------------


def test_a_scheduler_that_cannot_be_reached_is_a_usage_error(monkeypatch):
    monkeypatch.setattr(simulation, "CONNECT_TIMEOUT", 1)
    address = f"tcp://127.0.0.1:{_free_port()}"  # nothing listens there
    code, out, err = cli("simulate", TTG, "--games", 5, "--dask", address, "--workers", 2)
    assert (code, out) == (2, "")
    assert err == (  # the cluster's workers play: a user's --workers is said to be ignored
        "rulespec simulate: --workers 2: the Dask cluster's workers play the games; ignored\n"
        f"rulespec simulate: cannot reach the Dask scheduler {address}: Timed out trying to "
        f"connect to {address} after 1 s; start one with `dask scheduler` and give the "
        "address it prints, tcp://HOST:PORT\n"
    )


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
def test_a_worker_without_rulespec_is_a_usage_error(tmp_path):
    """Such a worker failed only as it read a task, and the run waited for ever."""
    site = os.pathsep.join({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})
    env = dict(os.environ, PYTHONPATH=site)  # -S: no .pth file, so no editable install
    bare = subprocess.run([sys.executable, "-S", "-c", "import rulespec"], env=env, cwd=tmp_path)
    if bare.returncode == 0:
        pytest.skip("rulespec is installed where -S still finds it")
    with _cluster(tmp_path, ["-S"], env, workers=1) as (address, _scheduler):
        code, out, err = cli("simulate", TTG, "--games", 5, "--dask", address)
    assert (code, out) == (2, "")
    assert err.startswith("rulespec simulate: Dask worker tcp://127.0.0.1:")
    assert err.endswith(
        " cannot import rulespec (ModuleNotFoundError: No module named 'rulespec'): install "
        "it in the Python that runs `dask worker` on every node: pip install 'rulespec[dask]'\n"
    )


def test_a_task_that_fails_on_a_worker_is_a_bug(monkeypatch):
    def broken(*args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(simulation, "play_games", broken)  # the workers are threads here
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as local:
        code, out, err = cli("simulate", TTG, "--games", 5, "--dask", local.scheduler_address)
    assert (code, out) == (3, "")
    assert err == (
        "rulespec simulate: internal error (TaskFailed: seeds 0..0 failed on a Dask worker "
        "(ZeroDivisionError: division by zero); the worker's log has its traceback); this is "
        "a bug in rulespec: please report it with the command and its files (--debug shows "
        "the traceback)\n"
    )


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
def test_a_scheduler_lost_on_the_way_is_a_usage_error(tmp_path):
    with _cluster(tmp_path, workers=1) as (address, scheduler):
        threading.Timer(3, _stop, (scheduler,)).start()
        code, out, err = cli("simulate", TTG, "--games", 10**6, "--dask", address)
    assert (code, out) == (2, "")
    assert err.startswith(f"rulespec simulate: lost the Dask scheduler {address} while seeds ")
    assert err.endswith(" were played; run again once it is back\n")
