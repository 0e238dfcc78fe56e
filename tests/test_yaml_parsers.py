"""Every text is read as PyYAML's own parser reads it (rulespec/lang/loading.py): composed
from libyaml's events or from PyYAML's parser's, it gives the same nodes (tag, value,
style, where each starts, and where each string ends), or the same error, word for
word. Checked on the repository's specs, variants and broken specs, and on seeded
slips in the broken specs (_mutated)."""

import random

import pytest
import yaml
from gamekit import GAMES, ROOT
from test_broken_specs import BROKEN

from rulespec.lang import loading

pytestmark = pytest.mark.skipif(
    loading._FastComposer is None, reason="PyYAML is built without libyaml"
)

SPECS = sorted(GAMES.rglob("*.yaml")) + sorted((ROOT / "tests" / "valid").glob("*.yaml"))
PUNCTUATION = " :-[]{}#&*!|>'\",?%@`\n\t"


def _shape(node):
    """What the front end reads of a node: no end of a list or mapping, which it never
    reads (libyaml places it otherwise when the text does not end with a line break)."""
    where = (node.tag, node.start_mark.line, node.start_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return (*where, node.value, node.style or None, node.end_mark.line, node.end_mark.column)
    if isinstance(node, yaml.SequenceNode):
        return (*where, [_shape(item) for item in node.value])
    return (*where, [(_shape(k), _shape(v)) for k, v in node.value])


def _read(text: str, fast: bool):
    try:
        node = loading._nodes(text, fast)
    except yaml.YAMLError as exc:
        return ("error", type(exc).__name__, str(exc))
    return None if node is None else _shape(node)


def _mutated(text: str, rng: random.Random) -> str:
    """text with one random slip: a character deleted or doubled, punctuation or a tab
    inserted, a line indented otherwise, a stretch cut out, the last line break dropped."""
    at, how = rng.randrange(len(text) + 1), rng.randrange(6)
    if how == 0:
        return text[:at] + text[at + 1 :]
    if how == 1:
        return text[:at] + text[at : at + 1] * 2 + text[at + 1 :]
    if how == 2:
        return text[:at] + rng.choice(PUNCTUATION) + text[at:]
    if how == 3:
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        lines[i] = " " * rng.randrange(6) + lines[i].lstrip()
        return "\n".join(lines)
    if how == 4:
        to = rng.randrange(len(text) + 1)
        return text[: min(at, to)] + text[max(at, to) :]
    return text.rstrip("\n")


@pytest.mark.parametrize("path", SPECS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_spec_reads_the_same_from_libyaml_events(path):
    """Straight from libyaml's events (no falling back), as from PyYAML's parser."""
    text = path.read_text(encoding="utf-8")
    assert _shape(yaml.compose(text, Loader=loading._FastComposer)) == _read(text, fast=False)


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_a_broken_spec_reads_the_same_from_either_parser(path):
    text = path.read_text(encoding="utf-8")
    assert _read(text, fast=True) == _read(text, fast=False)


# a seed in the everyday suite, 30 more in the slow step: 33,000 slips of the kind, over
# the specs too, were read alike before this test was written
@pytest.mark.parametrize(
    "seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in range(1, 31))]
)
def test_a_mutated_text_reads_the_same_from_either_parser(seed):
    rng = random.Random(seed)
    for path in BROKEN:
        if path.stem == "41_deep_nesting":
            continue  # a second to read each time; read whole above
        text = path.read_text(encoding="utf-8")
        for _ in range(2):
            text = _mutated(text, rng)
            assert _read(text, fast=True) == _read(text, fast=False), (path.name, text)
