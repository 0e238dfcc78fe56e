"""Schema check: the YAML structure against rulespec/lang/schemas/spec.schema.json.

jsonschema finds the errors; we give each a stable code and the place of the
offending key or value, with a "did you mean" for unknown keys.

A document found clean is remembered in the user's cache folder (cache.py) by a hash
of its data, and of all that checked it: the schema, this module, Python, and the
installed jsonschema and referencing. The same document again, in this or a later
run, is known clean without checking it, or even importing jsonschema, which takes
much of a command's start-up (issue 25). Problems are never remembered: a document
that has any is checked every time, and its diagnostics are jsonschema's, as ever.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from . import cache as kept
from . import stamps
from .diagnostics import Diagnostic, Span, did_you_mean

if TYPE_CHECKING:
    from .loading import Document

_SCHEMAS = Path(__file__).with_name("schemas")  # read as files, as the bundled games are
KINDS = ("spec", "variant", "scenario", "log")  # a schema each: schemas/KIND.schema.json

_JSON_TYPES = {
    "integer": "an integer",
    "string": "a string",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "number": "a number",
}


def schema_file(kind: str) -> Path:
    """The file of a schema shipped in rulespec/lang/schemas/: one of KINDS."""
    return (_SCHEMAS / f"{kind}.schema.json").resolve()


@cache
def load_schema(kind: str) -> dict:
    """A schema shipped in rulespec/lang/schemas/: one of KINDS."""
    return json.loads(schema_file(kind).read_text(encoding="utf-8"))


def schema() -> dict:
    return load_schema("spec")


def _pattern(validator, pattern, instance, schema_):
    """`pattern` matched against the whole string: Python's `$` (what jsonschema's
    re.search gives) also matches before a final newline, so "hand\\n" would pass as
    a name. The schemas' patterns are all anchored, so for other readers of the
    schema files (ECMA-262 regexes, where `$` is the end) they mean the same."""
    if validator.is_type(instance, "string") and not re.fullmatch(pattern, instance):
        from jsonschema import ValidationError

        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _is_integer(checker, instance) -> bool:
    """An int, not a float with no fraction: JSON Schema counts 2.0 as an integer,
    but YAML's 2.0 is a float and would reach the game as one."""
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def _validator_class():
    """Draft 2020-12 with the two changes above; jsonschema is imported here, when a
    document is checked, not when the front end is."""
    import jsonschema

    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        validators={"pattern": _pattern},
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
    )


def _errors(schema_: dict, data) -> list:
    """jsonschema's errors in data, in path order; none, without checking, for data
    found clean before (see the module's docstring)."""
    digest = _digest(schema_, data)
    if digest is not None and digest in _clean():
        return []
    errors = _validator_class()(schema_).iter_errors(data)
    errors = sorted(errors, key=lambda e: list(map(str, e.path)))
    if not errors and digest is not None:
        _remember(digest)
    return errors


_KEPT = 500  # clean documents remembered, the latest


def _digest(schema_: dict, data) -> str | None:
    """A hash of a document's data and the schema it is checked against. repr tells
    apart all that JSON Schema does (True from 1, 1 from 1.0, "1" from 1); data that
    YAML could not have given (anything but dicts, lists, str, int, float, bool and
    None) is not remembered."""
    if not _plain(data):
        return None
    return hashlib.sha256(f"{schema_!r}\0{data!r}".encode("utf-8", "surrogatepass")).hexdigest()


def _plain(data) -> bool:
    if isinstance(data, dict):
        return all(type(k) is str and _plain(v) for k, v in data.items())
    if isinstance(data, list):
        return all(_plain(v) for v in data)
    return data is None or type(data) in (str, int, float, bool)


@cache
def _verdicts() -> Path | None:
    """The file of clean documents' hashes, named for all that checks them; None when
    that cannot be told (no jsonschema installed, or none in files): nothing is kept."""
    libraries = stamps.packages("jsonschema", "referencing")
    if libraries is None:
        return None
    return kept.path(
        "schema-clean", sys.version, Path(__file__).read_text(encoding="utf-8"), *libraries
    )


@cache
def _clean() -> list[str]:
    """The hashes of clean documents, as read from their file once per process."""
    text = kept.read(_verdicts(), lambda f: f.read().decode("ascii"))
    return text.split() if isinstance(text, str) else []


def _remember(digest: str) -> None:
    clean = _clean()
    clean.append(digest)
    del clean[:-_KEPT]
    kept.write(_verdicts(), lambda f: f.write("\n".join(clean).encode("ascii") + b"\n"), keep=4)


def _describe(value) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a decimal point"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__


def _wrong_type(where: str, err) -> str:
    want = err.validator_value
    want = " or ".join(_JSON_TYPES.get(t, t) for t in (want if isinstance(want, list) else [want]))
    return f"{where} must be {want}, got {_describe(err.instance)}"


def _where(path) -> str:
    return ".".join(str(p) for p in path) or "the document"


def check(doc: Document) -> Iterator[Diagnostic]:
    """Yield one diagnostic per schema violation, placed in the file."""
    if not isinstance(doc.data, dict):
        yield Diagnostic(
            "RS102", f"a spec is a mapping of sections, got {_describe(doc.data)}", doc.span(())
        )
        return
    for err in _errors(schema(), doc.data):
        yield from _diagnose(doc, err)


def shape_problems(
    doc: Document, schema_: dict, *, code: str, unknown_code: str, name: str
) -> list[Diagnostic]:
    """The problems of a small document kind (a variant, a scenario) checked against
    its own schema: an unknown key at the key, with "did you mean"; anything else at
    the value, a wrong type saying what was wanted, the rest with jsonschema's message.
    `name` stands for the document's top."""
    problems = []
    for err in _errors(schema_, doc.data):
        path = tuple(err.path)
        where = _where(path) if path else name
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = err.schema.get("properties", {})
            problems += [
                Diagnostic(
                    unknown_code,
                    f"unknown key '{key}' in {where}",
                    doc.key_span(path + (key,)),
                    hint=_unknown_key_hint(key, allowed, schema_ if path else None),
                )
                for key in err.instance
                if key not in allowed
            ]
        elif err.validator == "type":
            hint = misplaced_key(schema_, path)
            problems.append(Diagnostic(code, _wrong_type(where, err), doc.span(path), hint=hint))
        elif _keys_one_of(err):
            problems += _one_of_keys(code, err, where, doc.span(path))
        else:
            problems.append(Diagnostic(code, f"{where}: {err.message}", doc.span(path)))
    return problems


def misplaced_key(schema_: dict, path: tuple) -> str:
    """Where a key at `path` belongs when it is one of the keys of the mapping a level
    up, and so was written a level too deep (a scenario's `rest` under `table.zones`,
    read there as a zone); "" when it is not."""
    if len(path) < 2:
        return ""
    above = schema_
    for key in path[:-2]:
        above = above.get("properties", {}).get(key, {})
    key, beside = path[-1], path[-2]
    if key not in above.get("properties", {}):
        return ""
    where = f"directly under {_where(path[:-2])}" if path[:-2] else "at the top level"
    return f"'{key}' goes {where}, beside '{beside}', not inside it"


# what a value with a pattern must be, by where it stands, and how to write one
_PATTERNED = {
    "rulings": ("ruling id", "a ruling id is letters, '-', a number, as in C-4"),
    "verb": ("verb", "a verb is words in lower case, as discard or lay down"),
    "name": ("name", "names are lower_snake_case: a-z, 0-9 and _"),
}


def _keys_one_of(err) -> bool:
    """Whether the error is of a mapping that needs exactly one of some keys (a oneOf
    of `required`s: a step's effect or actions, a variant's new step's before or after)."""
    return err.validator == "oneOf" and all(set(b) == {"required"} for b in err.validator_value)


def _one_of_keys(code: str, err, where: str, span: Span) -> list[Diagnostic]:
    """A _keys_one_of error said as which keys the mapping needs, with a "did you
    mean" where a key given looks like one; none for a value that is no mapping (its
    type error says it all)."""
    if not isinstance(err.instance, dict):
        return []
    keys = [k for b in err.validator_value for k in b["required"]]
    near = (did_you_mean(k, keys) for k in err.instance if k not in keys)
    wanted = " or ".join(f"'{k}'" for k in keys)
    hint = next((h for h in near if h), None)
    return [Diagnostic(code, f"{where} needs exactly one of {wanted}", span, hint=hint)]


def _closes_first(key: str, pair: str) -> bool:
    """Does the key close a bracket before it opens one: the tail of an expression?"""
    close = key.find(pair[1])
    return close != -1 and not -1 < key.find(pair[0]) < close


def _unknown_key_hint(key: str, allowed: dict, top: dict | None = None) -> str:
    """A near key ("did you mean"); else where the key belongs: inside the mapping of
    one of the allowed keys (`same` at an action goes in its `count: {…, same: …}`), or
    at the top of the document, `top` its schema (a variant's `setup` under
    `replace:`); else the keys allowed."""
    if _closes_first(key, "()") or _closes_first(key, "[]"):
        return (  # the rest of an expression after a comma (a Tichu designer's)
            "a comma inside {…} ends a value, and what follows it is read as a key: quote "
            'the expression, {value: "count(s, wild)"}, or write the mapping a line a key'
        )
    near = did_you_mean(key, allowed)
    if near:
        return near
    for name, sub in allowed.items():
        for form in (sub, *sub.get("oneOf", ()), *sub.get("anyOf", ())):
            if key in form.get("properties", {}):
                return f"'{key}' goes inside '{name}': {name}: {{…, {key}: …}}"
    if top is not None and key in top.get("properties", {}):
        return f"'{key}' goes at the top level: {key}: …"
    return f"allowed: {', '.join(allowed)}"


# a top-level `spec:` names the spec a rules scenario tests (a Coup designer ran one)
_SCENARIO = (
    "this looks like a rules scenario, which names its spec: run it with `rulespec test FILE`"
)


def _diagnose(doc: Document, err) -> Iterator[Diagnostic]:
    path = tuple(err.absolute_path)  # a oneOf's branch error has a path from the oneOf
    kw = err.validator
    if kw == "additionalProperties" and isinstance(err.instance, dict):
        allowed = err.schema.get("properties", {})
        for key in err.instance:
            if key not in allowed:
                yield Diagnostic(
                    "RS101",
                    f"unknown key '{key}' in {_where(path)}",
                    doc.key_span(path + (key,)),
                    hint=_SCENARIO
                    if (path, key) == ((), "spec")
                    else _unknown_key_hint(key, allowed),
                )
    elif kw == "required":
        missing = err.message.split("'")[1]
        yield Diagnostic(
            "RS103",
            f"missing required key '{missing}' in {_where(path)}",
            doc.key_span(path) if path else doc.span(path),
        )
    elif kw == "type":
        wanted = (
            err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        )
        formula = isinstance(err.instance, str) and "integer" in wanted and "string" not in wanted
        hint = "a number written out: this key reads no formula (player_count, a parameter)"
        yield Diagnostic(
            "RS102", _wrong_type(_where(path), err), doc.span(path), hint=hint if formula else ""
        )
    elif kw == "propertyNames":
        yield Diagnostic(
            "RS104",
            f"{err.instance!r} is not a valid name in {_where(path)}",
            doc.key_span(path + (err.instance,)),
            hint=_PATTERNED["name"][1],
        )
    elif kw == "pattern":
        key = "rulings" if "rulings" in path else "verb" if path[-1:] == ("verb",) else "name"
        what, hint = _PATTERNED[key]
        yield Diagnostic(
            "RS104",
            f"{err.instance!r} in {_where(path)} is not a valid {what}",
            doc.span(path),
            hint=hint,
        )
    elif kw in ("enum", "const"):
        allowed = err.validator_value if kw == "enum" else [err.validator_value]
        yield Diagnostic(
            "RS104",
            f"{_where(path)} is {err.instance!r}; allowed: {', '.join(map(str, allowed))}",
            doc.span(path),
            hint=did_you_mean(err.instance, map(str, allowed)),
        )
    elif kw == "uniqueItems":
        twice = next(v for i, v in enumerate(err.instance) if v in err.instance[:i])
        at = path + (err.instance.index(twice, err.instance.index(twice) + 1),)
        yield Diagnostic(
            "RS104",
            f"'{twice}' is listed twice in {_where(path)}",
            doc.span(at),
            hint="list each once",
        )
    elif _keys_one_of(err):
        yield from _one_of_keys("RS103", err, _where(path), doc.span(path))
    elif kw == "oneOf" and path[:1] == ("actions",) and path[-1:] == ("count",):
        yield from _group_count(doc, err, path)
    else:
        yield Diagnostic("RS104", f"{_where(path)}: {err.message}", doc.span(path))


def _group_count(doc: Document, err, path: tuple) -> Iterator[Diagnostic]:
    """An action's `count:` that is neither form. A mistyped key of the mapping form is
    named, with its "did you mean", as elsewhere: the general message would not say
    which key is wrong."""
    unknown = [e for e in err.context if e.validator == "additionalProperties"]
    if unknown:
        yield from _diagnose(doc, unknown[0])
        return
    yield Diagnostic(
        "RS104",
        f"{_where(path)} is {err.instance!r}; a group's size is a whole number of at "
        "least 1, or {min: N, max: M} (min required; max and same may follow)",
        doc.span(path),
        hint="count: 2, or count: {min: 2, max: 4}, or count: {min: 1, max: 4, same: rank}",
    )
