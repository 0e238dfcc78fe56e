"""The schemas an editor uses (docs/editor.md): `rulespec schema KIND` for spec, variant,
scenario and log files. Checked here as an editor checks them, with plain jsonschema
(Draft 2020-12, none of the front end's own stricter rules):

- every file of each kind in the repository is valid against its schema, with no false
  error: the bundled games and their variants, the tests' valid specs, the composed
  variant, every rules scenario, the docs' whole specs and scenarios, the starter spec,
  the lint fixtures' specs, and the lines of logs that games of every kind write;
- each broken spec whose defect is structural (the front end's schema layer reports
  it: a wrong type, an unknown key, a missing required key, a value not allowed) is
  rejected;
- every key has a description, for an editor's hover;
- the bundled games and variants, and the starter spec, name their schema in a
  yaml-language-server modeline.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml
from gamekit import GAMES, ROOT, YAML_LOADER, bash_completes, cli
from test_broken_specs import BROKEN, expectations

from rulespec.lang import loading, schema
from rulespec.table import bundled

TESTS = ROOT / "tests"
SCHEMAS = ROOT / "rulespec" / "lang" / "schemas"
DOC_BLOCK = re.compile(
    r"<!-- check: (?P<kind>spec|scenario) -->\n```yaml\n(?P<body>.*?)\n```", re.S
)


@functools.cache  # made once: a log's lines are checked one by one
def _validator(kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        json.loads((SCHEMAS / f"{kind}.schema.json").read_text())
    )


def _as_json(data):
    """YAML data as an editor hands it to JSON Schema: every key a string."""
    if isinstance(data, dict):
        return {str(k): _as_json(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_as_json(v) for v in data]
    return data


def _errors(kind: str, data) -> list[str]:
    return [
        f"{'.'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
        for e in _validator(kind).iter_errors(_as_json(data))
    ]


def _files(kind: str) -> list[tuple[str, str]]:
    """(name, text) of every file of that kind in the repository."""
    if kind == "spec":
        paths = [*GAMES.glob("*.yaml"), *(TESTS / "valid").glob("*.yaml")]
        paths += (TESTS / "valid-v1").glob("*.yaml")
    elif kind == "variant":
        paths = [*GAMES.glob("variants/*/*.yaml"), *(TESTS / "composed").glob("*.yaml")]
    else:
        paths = (TESTS / "scenarios").rglob("*.yaml")
    found = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in sorted(paths)]
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        found += [
            (f"{page.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 2}", m["body"])
            for m in DOC_BLOCK.finditer(text)
            if m["kind"] == kind
        ]
    if kind == "spec":
        found.append(("rulespec new my_game", bundled.starter("my_game")))
        found += _lint_fixture_specs()
    return found


def _lint_fixture_specs() -> list[tuple[str, str]]:
    """The specs of tests/lint/: each a base with its replacements (see test_lint.py)."""
    specs = []
    for fixture in sorted((TESTS / "lint").glob("*.yaml")):
        data = yaml.safe_load(fixture.read_text(encoding="utf-8"))
        text = (fixture.parent / data["base"]).read_text(encoding="utf-8")
        for r in data["replace"]:
            text = text.replace(r["old"], r["new"])
        specs.append((str(fixture.relative_to(ROOT)), text))
    return specs


@pytest.mark.parametrize("kind", ["spec", "variant", "scenario"])
def test_every_file_of_a_kind_is_valid_against_its_schema(kind):
    files = _files(kind)
    assert len(files) >= {"spec": 60, "variant": 9, "scenario": 250}[kind]
    wrong = {name: _errors(kind, yaml.load(text, Loader=YAML_LOADER)) for name, text in files}
    assert not {name: errors for name, errors in wrong.items() if errors}


def test_a_variant_is_not_a_spec_and_a_spec_is_not_a_variant():
    """Each kind has its own schema: an editor that gave a variant the spec schema would
    show false errors, and the variant schema does not take a whole spec."""
    variant = yaml.safe_load((GAMES / "variants" / "take_the_gold" / "long_5.yaml").read_text())
    spec = yaml.safe_load((GAMES / "take_the_gold.yaml").read_text())
    assert _errors("spec", variant) and _errors("variant", spec)


def _logs(tmp_path) -> list[Path]:
    """Logs of every bundled game (a match, a variant, games with rounds among them)."""
    runs = [
        ["take_the_gold", "--games", "2", "--variant", "long_5"],
        ["pirates_wild", "--players", "3"],
        ["whist", "--max-turns", "60"],
        ["blackjack"],
        ["draft", "--players", "2"],
    ]
    logs = []
    for i, argv in enumerate(runs):
        logs.append(tmp_path / f"game{i}.jsonl")
        code, _, err = cli("run", *argv, "--seed", "3", "--log", str(logs[-1]))
        assert code == 0, err
    return logs


def test_every_line_of_a_log_is_valid_against_the_log_schema(tmp_path):
    lines = [json.loads(line) for log in _logs(tmp_path) for line in log.read_text().splitlines()]
    events = {line.get("event", "header") for line in lines}
    assert {"header", "choice", "move", "end", "round", "round_end"} <= events
    assert not [(line, errors) for line in lines if (errors := _errors("log", line))]


def test_the_log_schema_rejects_a_header_or_choice_that_replay_refuses():
    header = {"spec": "g.yaml", "variants": [], "players": 2, "seed": 0, "game": 1}
    assert not _errors("log", header)
    assert _errors("log", {**header, "variants": "abc"})
    assert _errors("log", {**header, "colour": "red"})
    assert _errors("log", {"event": "choice", "player": 0})
    assert _errors("log", {"event": "round", "round": 0})


# --- structural defects ----------------------------------------------------------------

# The front end is stricter than JSON Schema in two ways (rulespec/lang/schema.py): a YAML
# 2.0 is a float, never an integer; a pattern must match the whole text, so a name may
# not end in a line break. An editor's JSON Schema check lets these through.
NOT_FOR_AN_EDITOR = {
    "48_integer_written_as_decimal": "JSON Schema counts 2.0 as an integer",
    "49_expression_written_as_decimal": "JSON Schema counts 2.0 as an integer",
    "50_name_with_trailing_newline": "an ECMA-262 or re.search $ matches before a last newline",
}


def _structural() -> list[Path]:
    """The broken specs whose every expected diagnostic comes from the schema layer."""
    found = []
    for path in BROKEN:
        codes, _ = expectations(path)
        if not all(code.startswith("RS10") for code, _, _ in codes):
            continue  # schema.check says only RS101 to RS104: not read, a second saved
        try:
            doc = loading.load(path)
        except Exception:  # YAML the loader refuses: not a structural defect
            continue
        given = {(d.code, d.span.line, d.span.col) for d in schema.check(doc)}
        if set(codes) <= given:
            found.append(path)
    return found


STRUCTURAL = _structural()


def test_every_kind_of_structural_defect_has_a_fixture():
    codes = {code for path in STRUCTURAL for code, _, _ in expectations(path)[0]}
    assert {"RS101", "RS102", "RS103", "RS104"} <= codes
    assert len(STRUCTURAL) >= 15, [p.stem for p in STRUCTURAL]


@pytest.mark.parametrize("path", STRUCTURAL, ids=lambda p: p.stem)
def test_a_structural_defect_is_rejected_by_the_schema(path):
    errors = _errors("spec", yaml.safe_load(path.read_text(encoding="utf-8")))
    if path.stem in NOT_FOR_AN_EDITOR:
        assert not errors, f"now rejected: drop it from NOT_FOR_AN_EDITOR ({errors})"
    else:
        assert errors


# --- descriptions and modelines --------------------------------------------------------


def _properties(node, where=""):
    """(place, key, subschema) of every property of a schema, but those an `if` tests."""
    if isinstance(node, dict):
        for key, sub in node.get("properties", {}).items():
            yield f"{where}/properties/{key}", key, sub
        for key, sub in node.items():
            if key != "if":
                yield from _properties(sub, f"{where}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _properties(sub, f"{where}/{i}")


@pytest.mark.parametrize("kind", schema.KINDS)
def test_every_key_of_every_schema_has_a_description(kind):
    whole = json.loads((SCHEMAS / f"{kind}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(whole)
    assert whole["title"] and whole["description"]
    places = list(_properties(whole))
    assert len(places) >= 10
    bare = [place for place, _, sub in places if not sub.get("description", "").strip()]
    assert not bare
    assert not [
        (place, sub["description"])
        for place, _, sub in places
        if not sub["description"].endswith(".")
    ], "a description is a sentence"


def test_the_schema_command_prints_each_kind_and_writes_them_all(tmp_path):
    for kind in schema.KINDS:
        code, out, _ = cli("schema", kind)
        assert code == 0 and json.loads(out) == schema.load_schema(kind)
    assert cli("schema")[1] == cli("schema", "spec")[1]
    code, out, _ = cli("schema", "--output", str(tmp_path / "new"))
    assert code == 0 and out.count("wrote ") == 4
    for kind in schema.KINDS:
        written = tmp_path / "new" / f"{kind}.schema.json"
        assert json.loads(written.read_text()) == schema.load_schema(kind)
    code, out, _ = cli("schema", "log", "-o", str(tmp_path / "one"))
    assert code == 0 and [p.name for p in (tmp_path / "one").iterdir()] == ["log.schema.json"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["schema", "lgo"], "invalid choice: 'lgo'"),
        (["schema", "--output", "FILE"], "--output: FILE is not a folder"),
        (["schema", "--output", "FILE/under"], "--output: cannot make FILE/under: "),
        (["schema", "--output", ""], "--output: an empty folder name"),
    ],
)
def test_a_folder_that_cannot_be_written_is_a_usage_error(tmp_path, argv, message):
    file = tmp_path / "FILE"
    file.write_text("kept\n")
    argv = [a.replace("FILE", str(file)) for a in argv]
    code, _, err = cli(*argv)
    assert code == 2 and err.startswith("rulespec schema: ") and "Traceback" not in err
    assert message.replace("FILE", str(file)) in err
    assert file.read_text() == "kept\n"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_the_kinds_and_a_folder_for_output(tmp_path):
    (tmp_path / "completion.bash").write_text(cli("completion", "bash")[1])
    (tmp_path / "schemas").mkdir()
    (tmp_path / "spec.yaml").write_text("")

    def complete(line):
        return bash_completes(tmp_path, line)

    assert complete("rulespec schema ") >= set(schema.KINDS)
    assert complete("rulespec schema va") == {"variant"}
    assert "schemas" in " ".join(complete("rulespec schema --output "))
    assert "spec.yaml" not in complete("rulespec schema --output ")


MODELINE = re.compile(r"# yaml-language-server: \$schema=(\S+)\n")


@pytest.mark.parametrize(
    "path", [*GAMES.glob("*.yaml"), *GAMES.glob("variants/*/*.yaml")], ids=lambda p: p.stem
)
def test_the_bundled_files_name_their_schema_on_their_first_line(path):
    m = MODELINE.match(path.read_text(encoding="utf-8"))
    assert m, "no yaml-language-server modeline on the first line"
    kind = "variant" if path.parent.parent.name == "variants" else "spec"
    assert (path.parent / m[1]).resolve() == SCHEMAS / f"{kind}.schema.json"


def test_the_starter_spec_names_the_installed_schema(tmp_path):
    code, _, err = cli("new", "my_game", "--output", str(tmp_path / "my_game.yaml"))
    assert code == 0, err
    m = MODELINE.match((tmp_path / "my_game.yaml").read_text(encoding="utf-8"))
    assert m and m[1] == (SCHEMAS / "spec.schema.json").resolve().as_uri()
