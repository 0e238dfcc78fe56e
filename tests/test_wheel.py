"""The built wheel, installed into a fresh virtual environment in an empty folder,
works as a user meets it (issue 18): the bundled games by name, `rulespec new`, the
version, and the runtime under rulespec.interpreter (never a top-level `interpreter`).

It builds the wheel and installs its dependencies from the package index, which takes
a minute or two, so it is marked `wheel`: the README's test command leaves it out and
`.ci/run` runs it on its own."""

import json
import subprocess
import sys

import pytest
from gamekit import ROOT

pytestmark = pytest.mark.wheel


def _run(*argv, cwd, check=True):
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    if check and done.returncode != 0:
        pytest.fail(
            f"{' '.join(map(str, argv))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
        )
    return done


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    here = tmp_path_factory.mktemp("wheel")
    _run(
        sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", here / "dist", ROOT, cwd=here
    )
    wheels = list((here / "dist").glob("rulespec-*.whl"))
    assert len(wheels) == 1
    _run(sys.executable, "-m", "venv", here / "venv", cwd=here)
    _run(here / "venv" / "bin" / "python", "-m", "pip", "install", "-q", wheels[0], cwd=here)
    (here / "empty").mkdir()
    return here / "venv" / "bin", here / "empty"


def test_the_installed_command_lists_and_plays_the_bundled_games(venv):
    bin_, empty = venv
    listed = _run(bin_ / "rulespec", "games", cwd=empty).stdout
    assert "take_the_gold" in listed and "pirates_wild" in listed
    played = _run(
        bin_ / "rulespec", "run", "take_the_gold", "--variant", "two_player", "--seed", 1, cwd=empty
    )
    assert "Game over after" in played.stdout


def test_a_new_game_lints_clean_and_the_version_answers(venv):
    bin_, empty = venv
    _run(bin_ / "rulespec", "new", "mygame", cwd=empty)
    linted = _run(bin_ / "rulespec", "lint", "mygame.yaml", cwd=empty)
    assert linted.stdout.splitlines()[-1] == "1 spec(s) linted: 0 error(s), 0 warning(s), 0 note(s)"
    assert _run(bin_ / "python", "-m", "rulespec", "--version", cwd=empty).stdout.startswith(
        "rulespec "
    )


def test_the_runtime_is_rulespec_interpreter_and_nothing_else(venv):
    bin_, empty = venv
    _run(bin_ / "python", "-c", "import rulespec.interpreter", cwd=empty)
    top = _run(bin_ / "python", "-c", "import interpreter", cwd=empty, check=False)
    assert top.returncode == 1 and "No module named 'interpreter'" in top.stderr


def test_the_metadata_shows_an_index_page_without_repository_links(venv):
    bin_, empty = venv
    read = (
        "import importlib.metadata as m, json; d = m.metadata('rulespec'); "
        "print(json.dumps([d.get_all('Project-URL'), d.get_payload() or d['Description']]))"
    )
    urls, description = json.loads(_run(bin_ / "python", "-c", read, cwd=empty).stdout)
    assert "Documentation, https://rulespec.dev/docs/" in urls
    assert "](docs/" not in description and "https://rulespec.dev/docs/cli" in description
