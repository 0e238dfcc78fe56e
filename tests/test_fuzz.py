"""The fuzz guard (issue 12): mutated specs, variants, scenarios, replay logs and argument
lists run through main() in process, scripts of random calls of the library's API
(issue 24), and sessions of requests to a real `rulespec serve` on 127.0.0.1 (issue 24:
tests/fuzzing_serve.py). Each case must end with exit code 0, 1 or 2, let no exception
escape (an API call may be refused only with IllegalChoice or ValueError and a message),
finish within CASE_SECONDS of CPU time, grow the address space by less than CASE_BYTES
and write nothing outside its scratch folder. Derandomized, so CI runs the same cases each
time; benchmarks/fuzz.py runs the same generators for as long as asked."""

import faulthandler
import importlib.util

import fuzzing
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

CASE_SECONDS = 10.0
CASE_BYTES = 300 * 2**20
# Sized so the everyday part runs in about 10 s on two cores; the slow step runs MORE
# cases of the three costliest kinds, from other seeds.
EXAMPLES = {
    "spec": 30,
    "variant": 20,
    "scenario": 20,
    "log": 30,
    "argv": 30,
    "api": 40,
    "serve": 6,
}
MORE = {"spec": 120, "log": 270, "argv": 270}
SEEDS, MORE_SEEDS = st.integers(0, 2**32), st.integers(2**32 + 1, 2**33)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def repo_before():
    return fuzzing.repo_snapshot()


def check(kind: str, seed: int, scratch, repo_before) -> None:
    case = fuzzing.make_case(kind, seed)
    where = fuzzing.fresh_dir(scratch, "case")
    # A case stuck in C code never sees SIGALRM: then the process ends with its stack.
    faulthandler.dump_traceback_later(
        12 * CASE_SECONDS, exit=True
    )  # past the guard's own wall bound
    try:
        outcome = fuzzing.run_guarded(case, where, CASE_SECONDS, CASE_BYTES)
    finally:
        faulthandler.cancel_dump_traceback_later()
    problems = []
    if outcome.failure:
        problems.append(f"{outcome.failure}: {outcome.error or ''}")
    if fuzzing.repo_snapshot() != repo_before:
        problems.append("wrote into the checkout")
    assert not problems, (
        "\n".join(problems) + "\n" + case.describe() + f"\nstderr: {outcome.stderr[-2000:]}"
    )


def _fuzz_test(kind: str, examples: int, seeds=SEEDS, name: str = ""):
    @settings(
        derandomize=True,
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(seed=seeds)
    def test(seed, scratch, repo_before):
        check(kind, seed, scratch, repo_before)

    test.__name__ = name or f"test_fuzz_{kind}"
    return test


test_fuzz_spec = _fuzz_test("spec", EXAMPLES["spec"])
test_fuzz_variant = _fuzz_test("variant", EXAMPLES["variant"])
test_fuzz_scenario = _fuzz_test("scenario", EXAMPLES["scenario"])
test_fuzz_log = _fuzz_test("log", EXAMPLES["log"])
test_fuzz_argv = _fuzz_test("argv", EXAMPLES["argv"])
test_fuzz_api = _fuzz_test("api", EXAMPLES["api"])
# a server's sessions take seconds: in the slow step, so the everyday suite keeps to 3 minutes
test_fuzz_serve = pytest.mark.slow(
    pytest.mark.skipif(
        importlib.util.find_spec("starlette") is None, reason="needs the serve extra"
    )(_fuzz_test("serve", EXAMPLES["serve"]))
)
test_fuzz_more_specs = pytest.mark.slow(
    _fuzz_test("spec", MORE["spec"], MORE_SEEDS, "test_fuzz_more_specs")
)
test_fuzz_more_logs = pytest.mark.slow(
    _fuzz_test("log", MORE["log"], MORE_SEEDS, "test_fuzz_more_logs")
)
test_fuzz_more_argv = pytest.mark.slow(
    _fuzz_test("argv", MORE["argv"], MORE_SEEDS, "test_fuzz_more_argv")
)


@pytest.fixture(scope="module")
def any_case():
    """Made before a test replaces main: an argv case's log is made by running main once
    per process, so a guard test that ran first under xdist waited a minute, then failed."""
    return fuzzing.make_case("argv", 0)


def test_guard_catches_an_escaping_exception(scratch, any_case, monkeypatch):
    """The guard itself: an exception out of main is reported, not swallowed."""

    def broken(argv, stdout=None, stderr=None, stdin=None):
        raise KeyError("boom")

    monkeypatch.setattr(fuzzing, "main", broken)
    outcome = fuzzing.run_guarded(any_case, fuzzing.fresh_dir(scratch, "g"), 5)
    assert outcome.failure == "traceback" and "KeyError: 'boom'" in outcome.error


def test_guard_stops_a_hang(scratch, any_case, monkeypatch):
    def stuck(argv, stdout=None, stderr=None, stdin=None):
        while True:
            pass

    monkeypatch.setattr(fuzzing, "main", stuck)
    outcome = fuzzing.run_guarded(any_case, fuzzing.fresh_dir(scratch, "h"), 0.3)
    assert (
        outcome.failure == "hang" and outcome.seconds < 10
    )  # 0.3 s of CPU, however busy the machine


def test_guard_stops_a_case_blocked_without_using_the_cpu(scratch, any_case, monkeypatch):
    """A read that blocks (a named pipe) uses no CPU: the wall-time bound stops it."""
    import time

    def blocked(argv, stdout=None, stderr=None, stdin=None):
        time.sleep(60)

    monkeypatch.setattr(fuzzing, "main", blocked)
    outcome = fuzzing.run_guarded(any_case, fuzzing.fresh_dir(scratch, "b"), 0.2)
    assert outcome.failure == "hang" and outcome.seconds < 5


def test_guard_stops_a_memory_blow_up(scratch, any_case, monkeypatch):
    def greedy(argv, stdout=None, stderr=None, stdin=None):
        return len(bytearray(2**30))

    monkeypatch.setattr(fuzzing, "main", greedy)
    outcome = fuzzing.run_guarded(any_case, fuzzing.fresh_dir(scratch, "m"), 5, 2**28)
    assert outcome.failure == "memory"
    assert len(bytearray(2**29)) == 2**29  # the cap is lifted afterwards
