"""The docs' shell transcripts are real output. Every ```text block of docs/*.md whose
first line starts with `$ ` is a transcript: its `$ ` lines run, in order, in one
bash, and what each prints (standard output and error together, in the order they
were written) must equal the lines under it, where a line `…` stands for any lines.

Each transcript runs in a workspace of its own, a temporary folder holding a copy of
games/ and links to the rest of the project, so that the files it writes (game.jsonl,
a variant saved in a walkthrough) are its own: a user's own game.jsonl, or another
transcript, cannot change its output. When its preparations (below) write under tests/,
tests/ is made of folders of its own too, holding links to the project's files. The `rulespec` on its PATH is this checkout's
(docshell.py), with a clean environment.

HTML comments, which the rendered page does not show, prepare the workspace:

- `<!-- transcript: file PATH -->` right before a code block: every later transcript
  of the page starts with that block saved as PATH (a walkthrough's "save this as").
- `<!-- transcript: setup: COMMANDS -->`: every later transcript of the page runs
  these shell commands first (a walkthrough's edit).
- `<!-- transcript: before: COMMANDS -->` right before a transcript: it alone runs them
  first (an edit that the page undoes in words).
- `<!-- lint-example: NAME -->` right before a transcript: its workspace holds the lint
  fixture tests/lint/NAME.yaml, derived from its base, under the base's file name.
- `<!-- transcript: slow, WHY -->` right before a transcript: it is marked `slow`, so it
  runs in CI's step for slow tests, not in the everyday suite (pytest -m slow).
- `<!-- transcript: not run, WHY -->` right before a transcript: it is skipped, and
  pytest prints WHY. test_enough_transcripts_run keeps the skips from growing.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import docshell
import pytest
import yaml
from gamekit import ROOT

TOKEN = re.compile(
    r"<!-- (?:transcript: (?P<kind>file|setup:|before:|slow,|not run,)|lint-example:)\s*"
    r"(?P<body>.*?)\s*-->\n|^```(?P<lang>\S*)\n(?P<code>.*?)^```$",
    re.S | re.M,
)
MARK = "\x1e"  # printed after each command, to cut the output into each command's


def transcripts():
    for path in sorted((ROOT / "docs").glob("*.md")):
        yield from _page(path)


def _page(path: Path):
    """The transcripts of one page, each with the preparations it needs."""
    doc = path.read_text(encoding="utf-8")
    files, setup, pending, end = {}, [], [], -1
    for m in TOKEN.finditer(doc):
        place = f"{path.name}:{doc[: m.start()].count(chr(10)) + 1}"
        if pending and m.start() != end:
            raise AssertionError(f"{place}: a transcript comment must be right before its block")
        end = m.end()
        if m["code"] is None:
            kind = m["kind"] or "lint-example"
            if kind == "setup:":
                setup.append(m["body"])
            else:
                pending.append((kind, m["body"]))
            continue
        if m["lang"] == "text" and m["code"].startswith("$ "):
            yield _transcript(place, m["code"], dict(files), [*setup], pending)
        for kind, body in pending:
            if kind == "file":
                files[body] = m["code"]
        pending = []


def _transcript(place, code, files, setup, directives):
    steps = []
    for line in code.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    skip = [body for kind, body in directives if kind == "not run,"]
    setup += [body for kind, body in directives if kind == "before:"]
    fixtures = [body for kind, body in directives if kind == "lint-example"]
    work = (steps, files, setup, fixtures)
    marks = [pytest.mark.skip(reason=skip[0])] if skip else []
    marks += [pytest.mark.slow for kind, _ in directives if kind == "slow,"]
    return pytest.param(work, id=place, marks=marks)


TRANSCRIPTS = list(transcripts())


def test_enough_transcripts_run():
    runnable = [t for t in TRANSCRIPTS if not any(m.name == "skip" for m in t.marks)]
    assert len(runnable) >= 95, f"only {len(runnable)} of {len(TRANSCRIPTS)} transcripts run"


@pytest.fixture(scope="session")
def shell_env(tmp_path_factory):
    """The environment of a transcript's bash: `rulespec` first on its PATH."""
    bin_dir = tmp_path_factory.mktemp("bin")
    address = str(bin_dir / "server")
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    server = subprocess.Popen(
        [sys.executable, "-u", docshell.__file__, "serve", address],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        env={**env, "PYTHONUTF8": "1"},
    )
    assert server.stdout.readline() == b"ready\n"
    script = bin_dir / "rulespec"
    script.write_text(docshell.client_script(address), encoding="utf-8")
    script.chmod(0o755)
    yield env
    server.terminate()
    server.wait()


def _workspace(tmp_path, files, setup, fixtures):
    writes_tests = any("tests/" in text for text in [*files, *setup])
    for entry in ROOT.iterdir():
        if entry.name == "games":
            shutil.copytree(entry, tmp_path / entry.name)
        elif entry.name == "tests" and writes_tests:
            _link_files(entry, tmp_path / entry.name)
        elif not entry.name.startswith(".") and (
            entry.is_dir() or entry.suffix in (".md", ".toml")
        ):
            (tmp_path / entry.name).symlink_to(entry)
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    for name in fixtures:
        _derive(ROOT / "tests" / "lint" / f"{name}.yaml", tmp_path)
    return tmp_path


def _link_files(src: Path, dst: Path) -> None:
    """dst: the folders of src, holding links to its files (a file written there stays
    there; linking every file takes longer than linking the folder, so only if needed)."""
    for folder, subfolders, names in os.walk(src):
        subfolders[:] = [s for s in subfolders if s != "__pycache__"]
        here = dst / Path(folder).relative_to(src)
        here.mkdir()
        for name in names:
            (here / name).symlink_to(Path(folder) / name)


def _derive(fixture: Path, into: Path) -> None:
    """A lint fixture's spec: its base with its replacements (see test_lint.py)."""
    data = yaml.safe_load(fixture.read_text(encoding="utf-8"))
    base = (fixture.parent / data["base"]).resolve()
    text = base.read_text(encoding="utf-8")
    for r in data["replace"]:
        text = text.replace(r["old"], r["new"])
    (into / base.name).write_text(text, encoding="utf-8")


def _bash(script: str, cwd: Path, env: dict) -> str:
    done = subprocess.run(
        ["bash", "-c", "exec 2>&1\n" + script],
        cwd=cwd,
        env={**env, "HOME": str(cwd)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.stdout


@pytest.mark.parametrize("work", TRANSCRIPTS)
def test_transcript_is_real_output(work, shell_env, tmp_path):
    steps, files, setup, fixtures = work
    cwd = _workspace(tmp_path, files, setup, fixtures)
    for commands in setup:
        out = _bash(f"set -e\n{commands}", cwd, shell_env)
        assert out == "", f"the setup printed, or failed:\n{commands}\n{out}"
    script = "".join(f"{cmd}\n_s=$?; printf '{MARK}'; (exit $_s)\n" for cmd, _ in steps)
    outputs = _bash(script, cwd, shell_env).split(MARK)
    for (cmd, expected), out in zip(steps, outputs, strict=False):
        got = [line.rstrip() for line in out.rstrip("\n").split("\n")] if out else []
        assert matches(got, [line.rstrip() for line in expected]), f"$ {cmd}\n{out}"
    assert len(outputs) == len(steps) + 1, f"the shell stopped after: {outputs}"


def matches(got: list[str], expected: list[str]) -> bool:
    """got equals expected, where an expected line `…` stands for any lines."""
    parts: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == "…":
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return got == expected
    first, *middle, last = parts
    if (
        len(got) < len(first) + len(last)
        or got[: len(first)] != first
        or got[len(got) - len(last) :] != last
    ):
        return False
    i, end = len(first), len(got) - len(last)
    for seg in middle:  # each in order, leftmost first
        while i + len(seg) <= end and got[i : i + len(seg)] != seg:
            i += 1
        if i + len(seg) > end:
            return False
        i += len(seg)
    return True
