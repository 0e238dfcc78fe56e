"""The docs' shell transcripts are real output: every ```text block of docs/*.md made of
`$ rulespec ...` commands (optionally `| head -N`, `| tail -N`, `> /dev/null`,
`; echo $?`) and `$ echo $?` is run from the project root, and what each prints must
equal the lines under it; a line `…` stands for any lines. A block that needs a file
the docs create on the way (a variant written in a walkthrough, a log) or another
program is skipped, and so is one marked `<!-- transcript: not run, WHY -->` (a spec
edited in a walkthrough); test_enough_transcripts_run keeps the skips from growing
unnoticed."""

import glob
import re
import shlex

import pytest
from gamekit import ROOT, cli

BLOCK = re.compile(r"(<!-- transcript: not run[^>]*-->\n)?```text\n(\$ .*?)\n```", re.S)
TAIL = re.compile(r"\s*(\|\s*(head|tail)\s+-(\d+))?\s*(>\s*/dev/null)?\s*(;\s*echo \$\?)?\s*$")


def parse(command: str):
    """(argv, head/tail, n, quiet, echo) for a rulespec command, or None."""
    if not command.startswith("rulespec ") and command != "rulespec":
        return None
    tail = TAIL.search(command)
    words = shlex.split(command[: tail.start()], comments=True)[1:]
    argv = []
    for w in words:
        if any(ch in w for ch in "*?["):
            matches = sorted(glob.glob(str(ROOT / w)))
            argv += [str(m)[len(str(ROOT)) + 1 :] for m in matches]
        else:
            argv.append(w)
    files = [
        w
        for w in argv
        if not w.startswith("-")
        and w.endswith((".yaml", ".yml", ".json", ".svg", ".dot", ".png", ".jsonl", ".sarif"))
    ]
    if any(not (ROOT / f).exists() for f in files) or any("|" in w or ">" in w for w in argv):
        return None
    return argv, tail.group(2), int(tail.group(3) or 0), bool(tail.group(4)), bool(tail.group(5))


def transcripts():
    for path in sorted((ROOT / "docs").glob("*.md")):
        doc = path.read_text(encoding="utf-8")
        for m in BLOCK.finditer(doc):
            steps, ok = [], not m.group(1)
            for line in m.group(2).split("\n"):
                if line.startswith("$ "):
                    cmd = line[2:].strip()
                    parsed = "echo" if cmd == "echo $?" else parse(cmd)
                    ok = ok and parsed is not None
                    steps.append([parsed, []])
                elif steps:
                    steps[-1][1].append(line)
            line_no = doc[: m.start()].count("\n") + 1
            yield pytest.param(
                steps,
                id=f"{path.name}:{line_no}",
                marks=()
                if ok
                else pytest.mark.skip("marked, or needs files or programs the docs create"),
            )


TRANSCRIPTS = list(transcripts())


def test_enough_transcripts_run():
    runnable = [t for t in TRANSCRIPTS if not t.marks]
    assert len(runnable) >= 25, f"only {len(runnable)} of {len(TRANSCRIPTS)} transcripts run"


def _workspace(tmp_path):
    """A folder that looks like the project (its folders and top files, linked) but
    where the files a transcript writes (game.jsonl, ttg.dot) are its own: a user's own
    game.jsonl, or another transcript run at the same time, cannot change its output."""
    for entry in ROOT.iterdir():
        if not entry.name.startswith(".") and (entry.is_dir() or entry.suffix in (".md", ".toml")):
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


@pytest.mark.parametrize("steps", TRANSCRIPTS)
def test_transcript_is_real_output(steps, monkeypatch, tmp_path):
    monkeypatch.chdir(_workspace(tmp_path))
    last = 0
    for parsed, expected in steps:
        if parsed == "echo":
            got = [str(last)]
        else:
            argv, cut, n, quiet, echo = parsed
            last, out, err = cli(*argv)
            got = [] if quiet else (out + err).rstrip("\n").split("\n")
            got = got[:n] if cut == "head" else got[-n:] if cut == "tail" else got
            if echo:
                got.append(str(last))
        assert matches([line.rstrip() for line in got], [line.rstrip() for line in expected]), (
            "\n".join(got)
        )


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
