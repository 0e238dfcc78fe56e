"""Start-up (issue 25): what `rulespec validate` loads, and the files kept in the user's
cache folder to spare it work (rulespec/lang/cache.py): the expression parser's tables,
and the hashes of documents the schema found clean. A cache may only save time: with
it, without it, damaged or unwritable, every result is the same."""

import os
import subprocess
import sys
from pathlib import Path

import lark
import pytest
from gamekit import GAMES, ROOT

from rulespec import SpecError, load_spec
from rulespec.lang import cache, expressions, pipeline, schema, source, stamps, variants
from rulespec.lang.loading import load

TTG = GAMES / "take_the_gold.yaml"
BROKEN = sorted((ROOT / "tests" / "broken").glob("*.yaml"))
VALID = sorted(GAMES.glob("*.yaml")) + sorted((ROOT / "tests" / "valid").glob("*.yaml"))


def _forget() -> None:
    """Drop what this process read from the cache folder, as a new process starts; but
    the expression parser, which takes a fifth of a second to build: the tests of its
    own file drop it themselves."""
    schema._verdicts.cache_clear()
    schema._clean.cache_clear()


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """An empty cache folder of this test's own."""
    monkeypatch.setenv(cache.ENV, str(tmp_path / "cache"))
    _forget()
    yield tmp_path / "cache"
    _forget()


def _python(code: str, cache_folder) -> subprocess.CompletedProcess:
    env = os.environ | {cache.ENV: str(cache_folder)}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT
    )


def _validate(spec, cache_folder) -> subprocess.CompletedProcess:
    return _python(
        f"from rulespec.cli import entry; import sys; sys.argv[1:] = ['validate', {str(spec)!r}]; entry()",
        cache_folder,
    )


# --- what validate loads --------------------------------------------------------------

NOT_FOR_VALIDATE = (
    "rulespec.interpreter",
    "rulespec.analysis",
    "rulespec.table.narrate",
    "rulespec.table.scenarios",
    "networkx",
    "multiprocessing",
    "matplotlib",
    "importlib.metadata",
)


def _modules_of_validate(cache_folder, command="validate") -> set[str]:
    done = _python(
        "import sys\nfrom io import StringIO\nfrom rulespec.cli import main\n"
        f"assert main([{command!r}, {str(TTG)!r}], stdout=StringIO()) == 0\n"
        "print(' '.join(sys.modules))",
        cache_folder,
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_validate_loads_neither_the_runtime_nor_the_analyses(tmp_path):
    """The first run checks the schema with jsonschema; the next knows the spec clean."""
    first, again = _modules_of_validate(tmp_path), _modules_of_validate(tmp_path)
    for modules in (first, again):
        assert not sorted(m for m in modules if m.startswith(NOT_FOR_VALIDATE))
    assert "jsonschema" in first and "jsonschema" not in again
    assert {p.name.split("-")[0] for p in tmp_path.iterdir()} == {"grammar", "schema", "spec"}


@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_spec_compiled_before_loads_no_parser(tmp_path, command):
    """The second run reads the first one's IR back (and the files it was read from, for
    `run`'s check of its output files): no YAML, grammar or schema library."""
    first = _modules_of_validate(tmp_path, command)
    again = _modules_of_validate(tmp_path, command)
    parsers = ("yaml", "lark", "jsonschema", "rulespec.lang.compiler")
    assert {"yaml", "lark", "jsonschema"} <= first
    assert not sorted(m for m in again if m.startswith(parsers))


# --- the parser's tables --------------------------------------------------------------


def _outcome(path):
    """What the front end makes of a spec: its IR (notices included), or its diagnostics;
    compiled each time (a spec given as text is never read back from the cache)."""
    try:
        return load_spec(path, source.text(path))
    except SpecError as exc:
        return exc.diagnostics


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
def test_the_kept_parser_reads_every_spec_as_a_built_one(cache_dir, monkeypatch):
    expressions.parser.cache_clear()
    built = expressions.parser()
    assert [p.name.split("-")[0] for p in cache_dir.iterdir()] == ["grammar"]
    before = [_outcome(p) for p in VALID + BROKEN]
    expressions.parser.cache_clear()
    expressions._tree.cache_clear()  # the trees the built parser made

    def refuse(*args, **kwargs):
        raise AssertionError("the parser was built again, not loaded")

    monkeypatch.setattr(lark.Lark, "__init__", refuse)
    assert expressions.parser() is not built
    assert [_outcome(p) for p in VALID + BROKEN] == before


def test_a_damaged_parser_file_is_made_again(cache_dir):
    expressions.parser.cache_clear()
    tree = expressions.parser().parse("a + 1", start="expr")
    (kept,) = cache_dir.glob("grammar-*")
    whole = kept.read_bytes()
    kept.write_bytes(whole[: len(whole) // 2])
    expressions.parser.cache_clear()
    assert expressions.parser().parse("a + 1", start="expr") == tree
    with kept.open("rb") as f:
        assert isinstance(lark.Lark.load(f), lark.Lark)


def test_the_parser_file_is_named_for_all_it_was_made_from(cache_dir):
    """A different grammar, Lark or Python reads (and writes) another file."""
    same = cache.path("grammar", "text", "1.0")
    assert same == cache.path("grammar", "text", "1.0") and same.parent == cache_dir
    assert same != cache.path("grammar", "text", "1.1") != cache.path("grammar", "text2", "1.0")


@pytest.mark.slow  # several seconds: the everyday suite keeps to 3 minutes
def test_an_unwritable_cache_folder_costs_only_time(tmp_path):
    """A cache folder that cannot be made (under a file): the same output, exit code
    and standard error, nothing said about the cache."""
    (tmp_path / "a file").write_text("")
    blocked, usable = tmp_path / "a file" / "cache", tmp_path / "cache"
    for spec in (TTG, BROKEN[0], BROKEN[-1]):
        runs = [_validate(spec, folder) for folder in (blocked, usable, usable)]
        assert len({(r.returncode, r.stdout, r.stderr) for r in runs}) == 1, runs
    assert not (tmp_path / "a file").is_dir()


# --- clean schema verdicts ------------------------------------------------------------


def test_a_clean_document_is_remembered_and_problems_never(cache_dir, monkeypatch):
    checked = []
    real = schema._validator_class
    monkeypatch.setattr(schema, "_validator_class", lambda: checked.append(1) or real())
    clean, broken = load(TTG), load(BROKEN[0])
    assert list(schema.check(clean)) == [] and len(checked) == 1
    schema._clean.cache_clear()  # read back from the file, as the next process does
    assert list(schema.check(clean)) == [] and len(checked) == 1
    first = list(schema.check(broken))
    assert first and list(schema.check(broken)) == first and len(checked) == 3


def test_a_document_that_differs_only_in_a_type_is_checked_again(cache_dir):
    """1 and 1.0, 1 and true, 1 and "1" are not the same document to the schema."""
    text = TTG.read_text(encoding="utf-8")
    assert list(schema.check(load(TTG))) == []
    for wrong in ("2.0", "true", '"2"'):
        changed = load(TTG, text.replace("{min: 2,", f"{{min: {wrong},", 1))
        (problem,) = schema.check(changed)
        assert (problem.code, problem.span.line) == ("RS102", 6), problem


@pytest.mark.parametrize(
    "a, b",
    [
        ({"k": 1}, {"k": True}),
        ({"k": 1}, {"k": 1.0}),
        ({"k": 1}, {"k": "1"}),
        ({"k": None}, {"k": "null"}),
        ({"k": [1, 2]}, {"k": [[1], 2]}),
        ({"k": {}}, {"k": []}),
    ],
)
def test_the_hash_tells_apart_what_json_schema_tells_apart(a, b):
    assert schema._digest({}, a) != schema._digest({}, b)
    assert schema._digest({}, a) == schema._digest({}, dict(a))
    assert schema._digest({"type": "object"}, a) != schema._digest({}, a)


def test_data_yaml_cannot_give_is_never_remembered():
    assert schema._digest({}, {"k": (1, 2)}) is None
    assert schema._digest({}, {1: "a"}) is None


# --- the spec loaded once -------------------------------------------------------------


def test_a_spec_is_parsed_once_per_process_while_its_text_is_the_same():
    text = TTG.read_text(encoding="utf-8")
    assert load(TTG) is load(TTG) is load(TTG, text)
    assert load(TTG, text + "\n# changed\n") is not load(TTG)


# --- specs compiled before (pipeline.py) -----------------------------------------------


def _kept(cache_dir) -> list:
    return sorted(cache_dir.glob("spec-*")) if cache_dir.exists() else []


def _no_compiling(monkeypatch):
    def refuse(*args):
        raise AssertionError("compiled again, not read back")

    monkeypatch.setattr(pipeline, "_compiled", refuse)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_a_spec_read_back_is_the_spec_compiled(path, cache_dir, monkeypatch):
    compiled = load_spec(path)
    assert len(_kept(cache_dir)) == 1
    _no_compiling(monkeypatch)
    again = load_spec(path)
    assert again == compiled and again.notices == compiled.notices


def test_a_changed_spec_or_what_it_extends_is_compiled_again(cache_dir, tmp_path):
    base, variant = tmp_path / "take_the_gold.yaml", tmp_path / "v" / "two.yaml"
    base.write_text(TTG.read_text(encoding="utf-8"), encoding="utf-8")
    variant.parent.mkdir()
    shipped = GAMES / "variants" / "take_the_gold" / "two_player.yaml"
    variant.write_text(
        shipped.read_text(encoding="utf-8").replace(
            "../../take_the_gold.yaml", "../take_the_gold.yaml"
        ),
        encoding="utf-8",
    )
    assert (load_spec(base).name, load_spec(variant).name) == (
        "Take the Gold",
        "Take the Gold (two)",
    )
    base.write_text(base.read_text(encoding="utf-8").replace("name: Take the Gold", "name: Gold"))
    assert (load_spec(base).name, load_spec(variant).name) == ("Gold", "Gold (two)")
    assert len(_kept(cache_dir)) == 3  # the variant, its text the same, is kept once
    base.unlink()
    with pytest.raises(SpecError):  # what it extends is gone: said, not read back
        load_spec(variant)


def test_a_spec_with_errors_given_as_text_or_with_variants_is_never_kept(cache_dir):
    for spec in BROKEN[:5]:
        with pytest.raises(SpecError):
            load_spec(spec)
    load_spec(TTG, source.text(TTG))
    load_spec(TTG, variants=["two_player"])
    assert _kept(cache_dir) == []


def test_a_kept_spec_lists_the_files_it_was_read_from_as_its_yaml_does(cache_dir, monkeypatch):
    shipped = sorted((GAMES / "variants").glob("*/*.yaml"))
    assert shipped
    read_from = {p: sorted(pipeline.spec_files(p)) for p in [TTG, *shipped]}  # from the YAML
    assert len(read_from[shipped[0]]) == 2
    for path in read_from:
        load_spec(path)

    def refuse(*args):
        raise AssertionError("read from the YAML, not the kept spec")

    monkeypatch.setattr(variants, "load_composed", refuse)
    assert {p: sorted(pipeline.spec_files(p)) for p in read_from} == read_from


def test_a_damaged_kept_spec_is_compiled_again(cache_dir):
    compiled = load_spec(TTG)
    (kept,) = _kept(cache_dir)
    whole = kept.read_bytes()
    for damaged in (whole[: len(whole) // 2], b"not a pickle", b""):
        kept.write_bytes(damaged)
        assert load_spec(TTG) == compiled
        assert kept.read_bytes() == whole


def _variant_of(folder, base_name: str) -> Path:
    """A folder holding the shipped two-player variant and, as what it extends, Take the
    Gold renamed base_name."""
    folder.mkdir(parents=True, exist_ok=True)
    text = TTG.read_text(encoding="utf-8")
    (folder / "base.yaml").write_text(text.replace("name: Take the Gold", f"name: {base_name}"))
    shipped = (GAMES / "variants" / "take_the_gold" / "two_player.yaml").read_text(encoding="utf-8")
    (folder / "v.yaml").write_text(shipped.replace("../../take_the_gold.yaml", "base.yaml"))
    return folder / "v.yaml"


def test_the_same_text_extending_another_file_is_compiled_again(cache_dir, tmp_path, monkeypatch):
    """Two folders, each with v.yaml extending its base.yaml: the same text under the same
    name is one entry, read back only where what it extends is the same."""
    for folder in ("A", "B", "A"):
        _variant_of(tmp_path / folder, folder)
        monkeypatch.chdir(tmp_path / folder)
        assert load_spec("v.yaml").name == f"{folder} (v)"
        assert load_spec("v.yaml").cards[0].span.file == "base.yaml"


def test_a_link_that_makes_a_circle_is_found(cache_dir, tmp_path, monkeypatch):
    """v extends sub/v, a copy of v that extends sub/sub/v; once sub/v is a link to v, v
    extends itself (RS602) though every text is as it was."""
    monkeypatch.chdir(tmp_path)
    text = "rulespec: 1\nextends: sub/v.yaml\nname: V\n"
    (tmp_path / "sub" / "sub").mkdir(parents=True)
    (tmp_path / "v.yaml").write_text(text)
    (tmp_path / "sub" / "v.yaml").write_text(text)
    (tmp_path / "sub" / "sub" / "v.yaml").write_text(TTG.read_text(encoding="utf-8"))
    assert load_spec("v.yaml").name == "V" and len(_kept(cache_dir)) == 1
    (tmp_path / "sub" / "v.yaml").unlink()
    (tmp_path / "sub" / "v.yaml").symlink_to("../v.yaml")
    with pytest.raises(SpecError) as caught:
        load_spec("v.yaml")
    assert [d.code for d in caught.value.diagnostics] == ["RS602"]


def test_warnings_are_kept_with_the_spec_and_said_again(cache_dir, monkeypatch):
    old = ROOT / "tests" / "valid-v1" / "range_counter.yaml"
    compiled = load_spec(old)
    assert compiled.notices and [d.code for d in compiled.notices] == ["RS212"] * len(
        compiled.notices
    )
    _no_compiling(monkeypatch)
    assert load_spec(old).notices == compiled.notices


def test_what_changed_while_it_compiled_is_not_kept(cache_dir, tmp_path, monkeypatch):
    variant = _variant_of(tmp_path, "Gold")
    real = pipeline._compiled

    def edited_meanwhile(path, text, variants):
        made = real(path, text, variants)
        base = tmp_path / "base.yaml"
        base.write_text(base.read_text() + "\n")  # a trailing line break: the same lines
        return made

    monkeypatch.setattr(pipeline, "_compiled", edited_meanwhile)
    load_spec(variant)
    assert _kept(cache_dir) == []


def test_a_front_end_changed_since_it_was_imported_keeps_nothing(cache_dir, monkeypatch):
    """The code that compiles here is what was imported; the files may have changed since
    (a pull, an editor's save), and would name the entry for code that did not make it."""
    monkeypatch.setattr(pipeline, "SOURCE", "the front end as imported, since changed")
    pipeline._front_end.cache_clear()
    try:
        assert load_spec(TTG).name == "Take the Gold"
        assert _kept(cache_dir) == []
    finally:
        pipeline._front_end.cache_clear()


def test_the_front_end_is_told_by_its_contents(tmp_path):
    """A file edited to the same size, its time of change put back, is another front end."""
    (tmp_path / "sub").mkdir()
    code = tmp_path / "sub" / "compiler.py"
    code.write_text("LIMIT = 2000\n")
    before = stamps.digest(tmp_path)
    when = code.stat()
    code.write_text("LIMIT = 2999\n")
    os.utime(code, ns=(when.st_atime_ns, when.st_mtime_ns))
    assert stamps.digest(tmp_path) != before
    (tmp_path / "sub" / "__pycache__").mkdir()  # bytecode is not the source
    (tmp_path / "sub" / "__pycache__" / "compiler.pyc").write_bytes(b"x")
    assert stamps.digest(tmp_path) == stamps.digest(tmp_path)


def test_the_least_recently_used_specs_go(cache_dir, monkeypatch):
    monkeypatch.setattr(pipeline, "_KEPT", 2)
    first, second, third = VALID[:3]
    load_spec(first)
    (kept_first,) = _kept(cache_dir)
    load_spec(second)
    (kept_second,) = set(_kept(cache_dir)) - {kept_first}
    os.utime(kept_first, ns=(2, 2))  # both long ago, the second first
    os.utime(kept_second, ns=(1, 1))
    load_spec(second)  # read back: used now
    load_spec(third)
    assert len(_kept(cache_dir)) == 2 and kept_first not in _kept(cache_dir)


def test_files_left_half_written_long_ago_go(cache_dir):
    load_spec(VALID[0])
    left = cache_dir / "spec-0123.abcd.tmp"
    left.write_bytes(b"half")
    now = cache_dir / "spec-4567.efgh.tmp"
    now.write_bytes(b"being written")
    os.utime(left, ns=(1, 1))
    load_spec(VALID[1])
    assert not left.exists() and now.exists()


# --- where the cache is ---------------------------------------------------------------


def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(cache.ENV, str(tmp_path / "mine"))
    assert cache.folder() == tmp_path / "mine"
    monkeypatch.delenv(cache.ENV)
    if sys.platform in ("win32", "darwin"):
        return
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.folder() == tmp_path / "xdg" / "rulespec"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # not absolute: ignored, as XDG says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.folder() == tmp_path / "home" / ".cache" / "rulespec"
