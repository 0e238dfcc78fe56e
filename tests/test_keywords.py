"""The keywords live in one place, builtins.GRAMMAR_KEYWORDS: the grammar has exactly
those words, the lexer reserves those marked so, and every one is a reserved name. A word
reserved after a spec could take it as a name keeps that spec working (RS212, a warning)
and `rulespec migrate` renames it."""

from __future__ import annotations

import re

import pytest
from gamekit import ROOT

from rulespec.lang import builtins
from rulespec.lang.diagnostics import SpecError
from rulespec.lang.expressions import RESERVED, _Keywords, deprecated_names, parser
from rulespec.lang.migrate import migrate
from rulespec.lang.pipeline import load_spec

TTG = ROOT / "games" / "take_the_gold.yaml"


def _grammar_words() -> set[str]:
    """The words grammar.lark writes in quotes: its keywords."""
    return {
        t.pattern.value
        for t in parser().terminals
        if t.pattern.type == "str" and re.fullmatch(r"[a-z_]+", t.pattern.value)
    }


def test_the_grammar_has_exactly_the_declared_keywords():
    assert _grammar_words() == set(builtins.GRAMMAR_KEYWORDS)


def test_the_lexer_reserves_the_keywords_marked_so():
    always = {w.upper() for w, a in builtins.GRAMMAR_KEYWORDS.items() if a}
    assert set(_Keywords.always_accept) == always


def test_every_keyword_is_a_reserved_name():
    assert set(builtins.GRAMMAR_KEYWORDS) <= RESERVED
    assert builtins.KEYWORDS <= RESERVED


def test_a_contextual_keyword_is_reserved_since_a_version():
    """A word lexed as a keyword only in context could be a spec's name before it was
    reserved: each is listed with the version that reserved it."""
    contextual = {w for w, a in builtins.GRAMMAR_KEYWORDS.items() if not a}
    assert contextual <= set(builtins.RESERVED_SINCE)


def _ttg_with(tmp_path, old: str, new: str):
    path = tmp_path / "spec.yaml"
    path.write_text(TTG.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize("word", ["by", "chooses", "simultaneously"])
def test_a_v2_parameter_named_like_a_v3_keyword_keeps_working(tmp_path, word):
    """As in a v2 spec: used where a value is read (in v2 as now, the contextual
    keywords are lexed as keywords after a complete value, as `then` is)."""
    path = _ttg_with(tmp_path, "deal_size", word)
    spec = load_spec(path)
    assert deprecated_names(spec.notices) == {word}
    notice = next(d for d in spec.notices if d.code == "RS212")
    assert notice.message.startswith(
        f"'{word}' is a built-in name since Language v3 (a later release of the language, which reads `rulespec: 1` specs still); "
    )
    assert f"or let `rulespec migrate {path}` rename it" in notice.message
    m = migrate(str(path))
    assert m.renames == {word: f"{word}_"}
    assert load_spec(path, text=m.new).notices == ()


def test_a_v2_procedure_named_like_a_v3_keyword_keeps_working(tmp_path):
    """Language v2 had procedures, so a v2 spec's procedure keeps a name v3 reserved
    (a v2-reserved name is refused there: no spec could have had both)."""
    text = TTG.read_text(encoding="utf-8") + "\nprocedures:\n  by:\n    effect: end_turn()\n"
    spec_path = tmp_path / "proc.yaml"
    spec_path.write_text(text, encoding="utf-8")
    spec = load_spec(spec_path)  # a v2 spec could have had a procedure named `by`
    assert deprecated_names(spec.notices) == {"by"}


def test_a_local_named_like_a_v3_keyword_warns(tmp_path):
    path = _ttg_with(tmp_path, "shuffle(draw_pile)", "shuffle(draw_pile)\n    let by = 1")
    spec = load_spec(path)
    assert deprecated_names(spec.notices) == {"by"}


def test_a_keyword_reserved_everywhere_is_refused_as_a_name(tmp_path):
    path = _ttg_with(tmp_path, "tiebreak", "while")
    with pytest.raises(SpecError) as exc:
        load_spec(path)
    assert any(d.code == "RS202" for d in exc.value.diagnostics)


def test_the_reference_lists_every_reserved_name():
    """A Lost Cities designer found `index_of`, `swap` and `cancel_extra_turns` missing
    from language.md's reserved names, and five of v3's from its versions paragraph:
    the lists are read against builtins.py."""
    text = (ROOT / "docs" / "language.md").read_text()
    bullet = text[text.index("- **Reserved names.**") :]
    bullet = bullet[: bullet.index("\n- **")]

    def listed(kind: str) -> set[str]:
        found = re.search(rf"{kind} \(`([^`]+)`", bullet, re.S)
        return set(found[1].split())

    assert listed("a constant") == set(builtins.CONSTANTS)
    assert listed("a function") == set(builtins.FUNCTIONS)
    assert listed("procedure") == set(builtins.PROCEDURES)
    assert listed("aggregate") == set(builtins.AGGREGATES)
    versions = text[text.index("Language v2 gave a meaning") :]
    versions = set(re.findall(r"`(\w+)`", versions[: versions.index("The\nlist is data")]))
    assert versions >= builtins.RESERVED_IN_V2 | builtins.RESERVED_IN_V3
