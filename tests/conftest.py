"""Fixtures shared by the test modules, and a cache folder of the run's own."""

import os
import shutil
import tempfile

import pytest

_CACHE = "RULESPEC_CACHE_DIR"  # rulespec/lang/cache.py's ENV


def pytest_configure(config):
    """Each test process (and what it starts) keeps its parser tables, schema verdicts
    and compiled specs in a folder of its own, made before any test is collected: the
    tests neither read what an earlier run or the user's commands left in the user's
    cache folder, nor leave anything there."""
    config._rulespec_cache = tempfile.mkdtemp(prefix="rulespec-cache-")
    os.environ[_CACHE] = config._rulespec_cache


def pytest_unconfigure(config):
    shutil.rmtree(config._rulespec_cache, ignore_errors=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real `rulespec serve` of the bundled games on 127.0.0.1, for one test module:
    (its base URL, its tables). The modules that use it skip without the serve extra."""
    from servekit import running

    with running(tmp_path_factory.mktemp("saves")) as (base, tables):
        yield base, tables
