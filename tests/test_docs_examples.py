"""The docs' examples run: every block marked `<!-- check: KIND [error|warning CODE] -->` in
docs/*.md is checked against the code, so the reference cannot drift from it.

KIND says what the block is:
  spec                 a whole spec (valid, or giving CODE)
  ttg | pw             YAML merged into the Take the Gold | Pirates Wild spec
  effect | action | expr            statements / an action's effect / an expression,
  pw-effect | pw-action | pw-expr   placed in Take the Gold or Pirates Wild
  python               run from the project root; its output must equal the "Output:"
                       text block that follows, if there is one; `python needs MODULE`
                       skips unless MODULE (an optional extra's) is installed
  scenario             a scenario file, run against tests/scenarios/take_the_gold/
  variant              a variant file, as if in games/variants/GAME/: it loads cleanly
  excerpt PATH         YAML cut from the spec at PATH (from the project root), which
                       validates: every key it gives is there, holding what it shows

A trailing `slow: WHY` (`<!-- check: python slow: WHY -->`) marks the example `slow`: it
runs in CI's step for slow tests (pytest -m slow), not in the everyday suite.
"""

import copy
import functools
import re
import subprocess
import sys

import pytest
import yaml
from gamekit import GAMES, ROOT, YAML_DUMPER, YAML_LOADER

from rulespec import SpecError, load_spec
from rulespec.table import scenarios

MARK = re.compile(
    r"<!-- check: (?P<mark>[^>]*?)(?: slow: (?P<slow>[^>]*?))? -->\n```(\w+)\n(?P<body>.*?)\n```",
    re.S,
)
OUTPUT = re.compile(r"\s*\n(Output:\s*\n\s*\n)```text\n(.*?)\n```", re.S)
BASES = {"ttg": GAMES / "take_the_gold.yaml", "pw": GAMES / "pirates_wild.yaml"}


def examples():
    for path in sorted((ROOT / "docs").glob("*.md")):
        doc = path.read_text(encoding="utf-8")
        for m in MARK.finditer(doc):
            line = doc[: m.start()].count("\n") + 1
            output = OUTPUT.match(doc[m.end() :])
            yield pytest.param(
                m["mark"].split(),
                m["body"],
                output and output.group(2),
                id=f"{path.name}:{line}",
                marks=[pytest.mark.slow] if m["slow"] else [],
            )


@functools.cache
def _base(base: str):
    return yaml.load(BASES[base].read_text(), Loader=YAML_LOADER)


def merged(base: str, snippet) -> str:
    """The base spec's YAML with the snippet merged in."""
    data = copy.deepcopy(_base(base))
    for key, value in (yaml.safe_load(snippet) if isinstance(snippet, str) else snippet).items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            for k2, v2 in value.items():
                if key == "deck" and k2 in ("cards", "remove") and isinstance(v2, dict):
                    data[key].setdefault(k2, {}).update(v2)
                else:
                    data[key][k2] = v2
        else:
            data[key] = value
    return yaml.dump(data, Dumper=YAML_DUMPER, sort_keys=False, width=1000)


def _within(part, whole) -> bool:
    """Is every key of part in whole, holding the same (a mapping's keys in turn)?"""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(
            k in whole and _within(v, whole[k]) for k, v in part.items()
        )
    if isinstance(part, str) and isinstance(whole, str):  # a block's last line break aside
        return part.rstrip("\n") == whole.rstrip("\n")
    return part == whole


def placed(kind: str, text: str) -> str:
    base = "pw" if kind.startswith("pw-") else "ttg"
    kind = kind.removeprefix("pw-")
    card = "kraken" if base == "pw" else "pirate"
    quiet = {"each": "p", "when": False}
    snippet = {
        "effect": {"triggers": {"doc_check": {**quiet, "effect": text}}},
        "expr": {"triggers": {"doc_check": {**quiet, "effect": f"let doc_value = ({text})"}}},
        "action": {
            "actions": {
                "doc_check": {"card": card, "to": "discard_pile", "target": "other", "effect": text}
            }
        },
    }[kind]
    return merged(base, snippet)


@pytest.mark.parametrize("mark, body, output", list(examples()))
def test_doc_example(mark, body, output, tmp_path):
    kind = mark[0]
    want = mark[2] if len(mark) > 2 and mark[1] in ("error", "warning") else None
    if kind == "python":
        if mark[1:2] == ["needs"]:
            pytest.importorskip(mark[2])
        done = subprocess.run(
            [sys.executable, "-c", body], cwd=ROOT, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr
        if output is not None:
            assert done.stdout.strip() == output.strip()
        return
    if kind == "scenario":
        data = yaml.safe_load(body)
        data["spec"] = str(
            (ROOT / "tests" / "scenarios" / "take_the_gold" / data["spec"]).resolve()
        )
        path = tmp_path / "scenario.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        outcome = scenarios.run(path)
        assert outcome.passed, outcome.failures
        return
    if kind == "variant":
        data = yaml.safe_load(body)
        data["extends"] = str((GAMES / "variants" / "game" / data["extends"]).resolve())
        path = tmp_path / "variant.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        assert not load_spec(path).notices
        return
    if kind == "excerpt":
        whole = ROOT / mark[1]
        load_spec(whole)  # the spec stands
        assert _within(yaml.safe_load(body), yaml.safe_load(whole.read_text())), mark[1]
        return
    text = body if kind == "spec" else merged(kind, body) if kind in BASES else placed(kind, body)
    try:
        spec = load_spec(tmp_path / "snippet.yaml", text=text)
        codes = [d.code for d in spec.notices]  # warnings: the spec stands
        if mark[1:2] == ["warning"]:
            assert codes == [want], codes
            return
        messages = "\n".join(d.render() for d in spec.notices)
    except SpecError as exc:
        codes = [d.code for d in exc.diagnostics]
        messages = exc.render()
    if want is None:
        assert codes == [], messages
    else:
        assert want in codes, codes
