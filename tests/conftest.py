"""Fixtures shared by the test modules."""

import pytest


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real `rulespec serve` of the bundled games on 127.0.0.1, for one test module:
    (its base URL, its tables). The modules that use it skip without the serve extra."""
    from servekit import running

    with running(tmp_path_factory.mktemp("saves")) as (base, tables):
        yield base, tables
