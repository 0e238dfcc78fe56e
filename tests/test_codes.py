"""Every RS code is declared once (rulespec/lang/codes.py) and documented, and every
declared code is used: the sources and the registry cannot drift apart."""

import re
from pathlib import Path

from rulespec.analysis.lint import CODES as LINT_CODES
from rulespec.lang.codes import CODES

ROOT = Path(__file__).resolve().parent.parent
NAMED = re.compile(r"\bR[SL]\d{3}\b")


def _named_in(folder: str) -> set[str]:
    return {
        code
        for path in (ROOT / folder).rglob("*.py")
        if path.name != "codes.py"
        for code in re.findall(r"[\"'](RS\d{3})[\"']", path.read_text(encoding="utf-8"))
    }


def test_every_code_the_sources_give_is_declared_and_every_declared_one_is_given():
    given = _named_in("rulespec") | _named_in("interpreter")
    assert given - set(CODES) == set(), "declare these in rulespec/lang/codes.py"
    assert set(CODES) - given == set(), "declared but never given"


def test_every_code_has_its_row_in_the_language_reference():
    rows = {
        code
        for line in (ROOT / "docs" / "language.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| RS")
        for code in NAMED.findall(line.split("|")[1])
    }
    assert set(CODES) - rows == set()


def test_codes_are_not_declared_twice_across_the_registries():
    assert set(CODES).isdisjoint(LINT_CODES) and all(c.startswith("RL") for c in LINT_CODES)
