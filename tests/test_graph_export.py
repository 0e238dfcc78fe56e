"""`rulespec graph`: a spec's text (its name, the paths in its spans) stays inside the
DOT or Mermaid string it is written into, whatever it holds (issue 12)."""

import html
import json
import os
import re
import shutil
import subprocess
import sys
from xml.etree import ElementTree

import pytest
from gamekit import GAMES, cli

from rulespec.analysis.graph import dot_string, mermaid_string

PAYLOADS = [
    'a "quoted" name',
    "back\\slash",
    'x\\" ; URL="javascript:alert(1)" ; "',
    "two\nlines",
    "c]lose | pipe",
    "<b>bold</b> & <script>",
    "javascript:alert(1)",
    "end\\",
    "\x1b]0;title\x07",
    "#quot; #35;",
]
DOT_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|->|[\w.]+|[][{};,=]|\s+', re.S)


def dot_tokens(text: str) -> list[str]:
    """DOT's tokens, as its lexer reads them: a quoted string runs to the first quote
    not escaped by a backslash."""
    tokens, at = [], 0
    while at < len(text):
        m = DOT_TOKEN.match(text, at)
        assert m, f"not DOT at {text[at : at + 40]!r}"
        if not m.group().isspace():
            tokens.append(m.group())
        at = m.end()
    return tokens


def dot_value(token: str) -> str:
    """The text a DOT quoted string shows as a label: \\\\ and \\" escapes, entities."""
    return html.unescape(re.sub(r"\\(.)", r"\1", token[1:-1]))


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_dot_string_is_one_token_that_shows_the_text(payload):
    token = dot_string(payload)
    assert dot_tokens(token) == [token]
    shown = dot_value(token)
    assert shown == "".join(f"\\x{ord(c):02x}" if c < " " else c for c in payload)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_mermaid_string_holds_no_markup_and_decodes_to_the_text(payload):
    token = mermaid_string(payload)
    inner = token[1:-1]
    assert token[0] == token[-1] == '"' and not set(inner) & set('"[]|<>{}`\n\\&\x1b')
    assert re.sub(r"#(\d+);", lambda m: chr(int(m.group(1))), inner) == payload


@pytest.fixture
def hostile(tmp_path):
    """Take the Gold named with every payload, in a folder whose name has quotes."""
    folder = tmp_path / 'a"b\\c'
    folder.mkdir()
    spec = folder / "spec.yaml"
    text = (GAMES / "take_the_gold.yaml").read_text()
    spec.write_text(
        re.sub(r"(?m)^name: .*$", lambda _: "name: " + json.dumps("".join(PAYLOADS)), text, count=1)
    )
    return spec


def test_a_hostile_name_stays_inside_the_dot_strings(hostile):
    code, out, err = cli("graph", hostile)
    assert code == 0, err
    tokens = dot_tokens(out)
    assert tokens[:3] == ["digraph", dot_string("".join(PAYLOADS)), "{"]
    attributes = {tokens[i - 1] for i, t in enumerate(tokens) if t == "="}
    assert attributes == {"rankdir", "label", "shape", "tooltip", "style"}
    tooltips = [
        tokens[i + 1] for i, t in enumerate(tokens) if t == "=" and tokens[i - 1] == "tooltip"
    ]
    assert tooltips and all(
        re.fullmatch(rf"\w+ at {re.escape(str(hostile))}:\d+:\d+", dot_value(t)) for t in tooltips
    )


def test_a_hostile_name_stays_inside_the_mermaid_strings(hostile):
    code, out, _ = cli("graph", hostile, "--format", "mermaid")
    assert code == 0
    for line in out.splitlines()[1:]:
        assert re.fullmatch(r'  n\d+\["[^"]*"\]|  n\d+ -(-|\.-)>\|"\w+"\| n\d+', line), line


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot")
def test_dot_renders_a_hostile_name_and_path_as_text(hostile, tmp_path):
    svg = tmp_path / "g.svg"
    code, _, err = cli("graph", hostile, "--output", tmp_path / "g.dot", "--render", svg)
    assert code == 0, err
    root = ElementTree.parse(svg).getroot()  # well-formed: nothing broke out into markup
    links = [a.attrib for a in root.iter("{http://www.w3.org/2000/svg}a")]
    assert links and not [a for a in links if any("href" in k for k in a)]
    tooltips = [a["{http://www.w3.org/1999/xlink}title"] for a in links]
    assert all(re.fullmatch(rf"\w+ at {re.escape(str(hostile))}:\d+:\d+", t) for t in tooltips)
    graph = json.loads(
        subprocess.run(
            ["dot", "-Tjson", tmp_path / "g.dot"], capture_output=True, text=True, check=True
        ).stdout
    )
    assert graph["name"] == dot_string("".join(PAYLOADS))[1:-1].replace('\\"', '"')


def test_the_export_is_the_same_whatever_the_hash_seed():
    """Sets are walked sorted, so two processes with other string hashes agree."""

    def export(seed: str) -> str:
        env = dict(os.environ, PYTHONHASHSEED=seed)
        argv = [sys.executable, "-m", "rulespec", "graph", str(GAMES / "pirates_wild.yaml")]
        return subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout

    assert export("1") == export("2") == export("3")


@pytest.mark.parametrize(
    "flags, said",
    [
        (["--render", "{tmp}/g.png"], "--render writes SVG: name its file .svg, not {tmp}/g.png"),
        pytest.param(
            ["--render", "{tmp}/no/g.svg"],
            "--render: cannot write {tmp}/no/g.svg",
            marks=pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot"),
        ),
        (["--output", "{tmp}/no/g.dot"], "--output: cannot write {tmp}/no/g.dot"),
    ],
)
def test_an_output_graph_cannot_write_names_its_flag_and_prints_nothing(tmp_path, flags, said):
    """A .png got SVG without a word, and a render that failed came after the dot text
    was printed; the messages did not say which flag's file it was."""
    code, out, err = cli(
        "graph", GAMES / "take_the_gold.yaml", *[f.format(tmp=tmp_path) for f in flags]
    )
    assert (code, out) == (2, "") and f"rulespec graph: {said.format(tmp=tmp_path)}" in err


def test_a_step_offered_around_says_its_mode_on_its_repeats_edge():
    """The graph drew an `around` step's self-edge as a plain `repeats`, so a bidding
    round to the last bidder looked like a play step repeated until a pass."""
    spec = GAMES.parent / "tests" / "valid" / "auction.yaml"
    dot = cli("graph", spec)[1]
    assert '"step:bidding" -> "step:bidding" [label="repeats (around: one_left)"' in dot
    assert '|"repeats (around: one_left)"|' in cli("graph", spec, "--format", "mermaid")[1]
    edges = json.loads(cli("graph", spec, "--format", "json")[1])["edges"]
    (repeats,) = [e for e in edges if e["kind"] == "repeats"]
    assert repeats["how"] == "around: one_left"
    plain = GAMES.parent / "tests" / "valid" / "melds.yaml"  # a step with `repeat: true`
    (repeats,) = [
        e
        for e in json.loads(cli("graph", plain, "--format", "json")[1])["edges"]
        if e["kind"] == "repeats"
    ]
    assert "how" not in repeats  # a plain repeat says no more


def test_what_a_step_s_pass_does_is_drawn_as_the_step_s():
    """A step's pass_effect (a pass draws a card) moves cards as an effect does."""
    dot = cli("graph", GAMES.parent / "tests" / "valid" / "pass_draws.yaml")[1]
    assert '"zone:stock" -> "step:play" [label="moves_from"' in dot
    assert '"step:play" -> "zone:hand" [label="moves_to"' in dot
