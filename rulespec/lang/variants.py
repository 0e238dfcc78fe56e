"""Variants: a spec file that `extends` another and changes it by name.

A variant may override parameters and cards (count, words, tags, props), replace,
remove or add whole named rules (actions, reactions, end conditions, triggers, turn steps, zones, counters), add
parameters, and set any top-level key (players, name, evaluation, setup, rounds, ...). Merging happens on the
positioned YAML data, before the schema check, so the merged spec gets the same schema,
names and diagnostics as a full spec, and every problem points into the file that holds
it, base or variant. Naming something that does not exist is an error (RS601).

Variants compose: each one applies to the result of the ones before.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

from . import decks
from .diagnostics import Diagnostic, SpecError, did_you_mean
from .limits import MAX_CHAIN
from .loading import Document, load
from .schema import check, load_schema, shape_problems


def is_variant(doc: Document) -> bool:
    return isinstance(doc.data, dict) and "extends" in doc.data


def resolve(doc: Document) -> Document:
    """A full spec document: doc itself, or its base with doc applied."""
    variants, base = _chain(doc)
    if variants:
        _check_base(base)
    for variant in variants:
        base = apply(base, variant)
    return base


def _extended(doc: Document) -> Path:
    """The file a variant extends, as a clean path (no '..' in places shown to users)."""
    return Path(os.path.normpath(Path(doc.file).parent / doc.data["extends"]))


def _chain(doc: Document) -> tuple[list[Document], Document]:
    """The variants from the one nearest the base to doc, and the full spec at the
    root. Each variant's shape is checked before its `extends` is followed; a circle,
    a chain over MAX_CHAIN or a missing file is an error at the `extends` that leads
    there."""
    variants: list[Document] = []
    met: dict[Path, str] = {}  # each variant's file, resolved -> as shown
    while is_variant(doc):
        _check_shape(doc)
        variants.insert(0, doc)
        met[Path(doc.file).resolve()] = doc.file
        base_path = _extended(doc)
        problem = None
        try:
            resolved = base_path.resolve()
        except (
            OSError,
            ValueError,
        ) as exc:  # no file can have that name: too long, a lone surrogate
            problem = (
                "RS601",
                f"extends '{doc.data['extends']}': not a name a file can have "
                f"({type(exc).__name__})",
            )
        else:
            if resolved in met:
                circle = list(met.values())[list(met).index(resolved) :] + [str(base_path)]
                problem = (
                    "RS602",
                    "this variant extends itself"
                    if len(circle) == 2
                    else f"variants extend each other in a circle: {' -> '.join(circle)}",
                )
            elif len(variants) > MAX_CHAIN:
                problem = ("RS602", f"more than {MAX_CHAIN} variants extend one another")
            elif not base_path.exists():
                problem = ("RS601", f"extends '{doc.data['extends']}': no such file ({base_path})")
        if problem:
            sources = {f: lines for v in variants for f, lines in v.all_sources().items()}
            raise SpecError([Diagnostic(*problem, doc.span(("extends",)))], sources)
        doc = load(base_path)
    return variants, doc


def _check_shape(doc: Document) -> None:
    problems = shape_problems(
        doc, load_schema("variant"), code="RS104", unknown_code="RS101", name="a variant"
    )
    if problems:
        raise SpecError(problems, doc.all_sources())


def _check_base(doc: Document) -> None:
    """A variant changes a full spec: a base that is not one is reported in its own
    file, before merging relies on its shape."""
    problems = list(check(doc))
    if problems:
        raise SpecError(problems, doc.all_sources())


class _Merge:
    """Builds the merged document: data plus every position table, re-keyed."""

    def __init__(self, base: Document, variant: Document):
        self.variant = variant
        self.out = Document(variant.file, variant.text, copy.deepcopy(base.data))
        self.out.sources = {**base.all_sources(), **variant.all_sources()}
        for table in ("spans", "key_spans", "scalar_maps"):
            getattr(self.out, table).update(getattr(base, table))
        self.problems: list[Diagnostic] = []

    def graft(self, src: Document, src_path: tuple, dst_path: tuple) -> None:
        """Positions of src's subtree at src_path now describe dst_path."""
        n = len(src_path)
        for table in ("spans", "key_spans", "scalar_maps"):
            dst = getattr(self.out, table)
            for key in [k for k in dst if k[: len(dst_path)] == dst_path]:
                del dst[key]
            for key, value in getattr(src, table).items():
                if key[:n] == src_path:
                    dst[dst_path + key[n:]] = value

    def error(self, code, message, path, hint="", key=True):
        span = self.variant.key_span(path) if key else self.variant.span(path)
        self.problems.append(Diagnostic(code, message, span, hint=hint))


def apply(base: Document, variant: Document) -> Document:
    """The base with the variant's changes, each placed in the file it came from; raises
    SpecError with every change that does not fit the base."""
    m = _Merge(base, variant)
    data, v = m.out.data, variant.data
    m.out.spans[()] = variant.span(())
    for key, value in v.items():
        if key in ("extends", "parameters", "cards", "replace", "remove", "add"):
            continue
        if key == "rounds" and isinstance(value, dict) and _partial_rounds(m, value):
            continue
        data[key] = copy.deepcopy(value)
        m.graft(variant, (key,), (key,))
    if "name" not in v:
        data["name"] = f"{data.get('name', '')} ({Path(variant.file).stem})"
    _override_parameters(m, data, v.get("parameters") or {})
    _change_cards(m, data, v.get("cards") or {}, (v.get("add") or {}).get("cards") or {})
    for section, names in (v.get("remove") or {}).items():
        for i, name in enumerate(names):
            _remove(m, data, section, name, ("remove", section, i))
    for section, entries in (v.get("replace") or {}).items():
        for name, entry in entries.items():
            _replace(m, data, section, name, entry)
    for section, entries in (v.get("add") or {}).items():
        _add(m, data, section, entries)
    if m.problems:
        raise SpecError(m.problems, m.out.sources)
    return m.out


def _partial_rounds(m: _Merge, rounds: dict) -> bool:
    """Is a variant's `rounds` a part of them only (its match end, say)? It replaces the
    base's whole, so that is refused with what to do instead (two designers, 6 nimmt!'s
    and Oh Hell's, were told only of a key missing)."""
    missing = [k for k in ("setup", "end_conditions") if k not in rounds]
    if missing:
        m.error(
            "RS103",
            f"a variant's rounds replaces the base's whole, and this one has no "
            f"{' and no '.join(missing)}",
            ("rounds",),
            "write the base's rounds out with the part changed; or let the base's part call "
            "a procedure (or a named condition) that the variant replaces: "
            "replace: {procedures: {NAME: ...}}",
        )
    return bool(missing)


def _override_parameters(m: _Merge, data, overrides: dict) -> None:
    for name, value in overrides.items():
        params = data.setdefault("parameters", {})
        if name not in params:
            m.error(
                "RS601",
                f"the base has no parameter '{name}' to override",
                ("parameters", name),
                did_you_mean(name, params) or "add it to the base, or check the name",
            )
            continue
        params[name] = _keep_title(params[name], value)
        m.graft(m.variant, ("parameters", name), ("parameters", name))


def _change_cards(m: _Merge, data, changes: dict, added: dict) -> None:
    """A card the base declares takes the variant's count, title, text and tags, and
    its props as merged in (a prop not named keeps the base's value); a built card,
    whose words and props are its family's, takes a count only."""
    cards = data["deck"].get("cards") or {}
    built = decks.families_of(m.out) if changes.keys() - cards.keys() else {}
    for name, change in changes.items():
        if name in cards:
            at = ("deck", "cards", name)
            card = cards[name]
            for key, value in change.items():
                if key == "props":
                    for prop, v in value.items():
                        card.setdefault("props", {})[prop] = v
                        m.graft(m.variant, ("cards", name, key, prop), at + (key, prop))
                    # what is checked of the whole mapping (its names) is the variant's
                    m.out.spans[at + (key,)] = m.variant.span(("cards", name, key))
                    m.out.key_spans[at + (key,)] = m.variant.key_span(("cards", name, key))
                else:
                    card[key] = value
                    m.graft(m.variant, ("cards", name, key), at + (key,))
        elif name in built:  # a built card type is counted in its family's `counts`
            family = data["deck"]["build"][built[name]]
            at = ("deck", "build", built[name], "counts", name)
            words = sorted(change.keys() - {"count"})
            if words:
                m.error(
                    "RS601",
                    f"card '{name}' is built by a family (deck.build), whose {', '.join(words)} "
                    "it shares: a variant can change its count only",
                    ("cards", name, words[0]),
                    "change the family's title, text or props in the base, or add a card "
                    "type of its own under add: cards:",
                )
                continue
            family.setdefault("counts", {})[name] = change["count"]
            m.graft(m.variant, ("cards", name, "count"), at)
        else:
            m.error(
                "RS601",
                f"the base has no card '{name}' to change",
                ("cards", name),
                "the variant adds it: give its count under add: cards:"
                if name in added
                else did_you_mean(name, [*cards, *built])
                or "a new card type goes under add: cards:, written as in the spec's deck",
            )
            continue
        # the card as the variant has it is where the variant changes it, as a parameter is
        m.out.key_spans[at] = m.variant.key_span(("cards", name))
        if "count" in change:  # the base's check of its own counts, which a variant cannot edit
            data["deck"].pop("totals", None)


def _step_names(data) -> list[str]:
    return [s.get("step") for s in data.get("turn", [])]


def _step_index(data, name):
    return next((i for i, s in enumerate(data.get("turn", [])) if s.get("step") == name), None)


def _renumber_turn(m: _Merge, new_order: list) -> None:
    """Re-key the positions of turn steps after steps moved: new_order lists, for each
    new index, (document, path) the step came from."""
    saved = {}
    for table in ("spans", "key_spans", "scalar_maps"):
        saved[table] = {k: v for k, v in getattr(m.out, table).items() if k[:1] == ("turn",)}
    for i, (src, src_path) in enumerate(new_order):
        if src is None:  # a base step: its positions were saved above
            n = len(src_path)
            for table in ("spans", "key_spans", "scalar_maps"):
                dst = getattr(m.out, table)
                for key, value in saved[table].items():
                    if key[:n] == src_path:
                        dst[("turn", i) + key[n:]] = value
        else:
            m.graft(src, src_path, ("turn", i))


def _remove(m, data, section, name, path):
    if section == "turn":
        i = _step_index(data, name)
        if i is None:
            m.error(
                "RS601",
                f"the base has no turn step '{name}' to remove",
                path,
                did_you_mean(name, _step_names(data)),
                key=False,
            )
            return
        order = [(None, ("turn", j)) for j in range(len(data["turn"])) if j != i]
        data["turn"].pop(i)
        _renumber_turn(m, order)
        return
    entries = data.get(section) or {}
    if name not in entries:
        m.error(
            "RS601",
            f"the base has no {section[:-1].replace('_', ' ')} '{name}' to remove",
            path,
            did_you_mean(name, entries),
            key=False,
        )
        return
    if section == "parameters" and name in (m.variant.data.get("parameters") or {}):
        m.error(
            "RS601",
            f"the variant sets parameter '{name}' and removes it",
            ("parameters", name),
            "keep one of the two",
        )
        return
    del entries[name]
    m.out.removed[name] = m.variant.span(path)


def _replace(m, data, section, name, entry):
    path = ("replace", section, name)
    if section == "turn":
        i = _step_index(data, name)
        if i is None:
            m.error(
                "RS601",
                f"the base has no turn step '{name}' to replace",
                path,
                did_you_mean(name, _step_names(data)),
            )
            return
        data["turn"][i] = dict(entry, step=name)
        m.graft(m.variant, path, ("turn", i))
        return
    entries = data.get(section) or {}
    if name not in entries:
        m.error(
            "RS601",
            f"the base has no {section[:-1].replace('_', ' ')} '{name}' to replace",
            path,
            did_you_mean(name, entries) or "use add: for a new one",
        )
        return
    entries[name] = copy.deepcopy(entry)
    m.graft(m.variant, path, (section, name))


def _add(m, data, section, entries):
    if section == "turn":
        for k, entry in enumerate(entries):
            path = ("add", "turn", k)
            anchor = entry.get("before") or entry.get("after")
            i = _step_index(data, anchor)
            if i is None:
                m.error(
                    "RS601",
                    f"the base has no turn step '{anchor}' to place a step by",
                    path + ("before" if "before" in entry else "after",),
                    did_you_mean(anchor, _step_names(data)),
                    key=False,
                )
                continue
            if _step_index(data, entry["step"]) is not None:
                m.error(
                    "RS601",
                    f"the base already has a turn step '{entry['step']}'",
                    path + ("step",),
                    "use replace: to change it",
                    key=False,
                )
                continue
            at = i if "before" in entry else i + 1
            order = [(None, ("turn", j)) for j in range(len(data["turn"]))]
            order.insert(at, (m.variant, path))
            data["turn"].insert(
                at, {key: v for key, v in entry.items() if key not in ("before", "after")}
            )
            _renumber_turn(m, order)
        return
    if section == "cards":
        _add_cards(m, data, entries)
        return
    target = data.setdefault(section, {})
    for name, entry in entries.items():
        if name in target:
            m.error(
                "RS601",
                f"the base already has {section[:-1].replace('_', ' ')} '{name}'",
                ("add", section, name),
                "set its value with parameters:"
                if section == "parameters"
                else "use replace: to change it",
            )
            continue
        target[name] = copy.deepcopy(entry)
        m.graft(m.variant, ("add", section, name), (section, name))


def _add_cards(m: _Merge, data, entries: dict) -> None:
    """New card types, each written as in a spec's deck.cards (an expansion's cards);
    the base's deck.totals, its check of its own counts, is then not checked."""
    cards = data["deck"].setdefault("cards", {})
    built = decks.families_of(m.out)
    for name, entry in entries.items():
        if name in cards or name in built:
            m.error(
                "RS601",
                f"the base already has card '{name}'",
                ("add", "cards", name),
                "change its count under cards:",
            )
            continue
        cards[name] = copy.deepcopy(entry)
        m.graft(m.variant, ("add", "cards", name), ("deck", "cards", name))
        data["deck"].pop("totals", None)


def variant_names(spec_path) -> list[str]:
    """The variants found beside a spec, in variants/<spec stem>/, by name."""
    spec = Path(spec_path)
    return sorted(p.stem for p in (spec.parent / "variants" / spec.stem).glob("*.yaml"))


def find_variant(spec_path: str, name: str) -> Path:
    """A variant named on the command line: a file path, or NAME next to the spec in
    variants/<spec stem>/NAME.yaml."""
    direct = Path(name)
    if direct.suffix in (".yaml", ".yml") and direct.exists():
        return direct
    spec = Path(spec_path)
    candidate = spec.parent / "variants" / spec.stem / f"{name}.yaml"
    if candidate.exists():
        return candidate
    folder = candidate.parent
    known = variant_names(spec)
    hint = did_you_mean(name, known) or (
        f"known: {', '.join(known)}" if known else f"no variants in {folder}"
    )
    raise FileNotFoundError(f"no variant '{name}' for {spec_path} ({hint})")


def load_composed(spec_path: str, variant_names: list[str]) -> Document:
    """The spec with each named variant applied in turn."""
    variants, base = _chain(load(spec_path))
    _check_base(base)
    root = Path(base.file).resolve()
    # each variant applied -> what applies it (a --variant, or the spec run: None), and
    # whether by its own name (else as one a variant extends)
    by = {Path(v.file).resolve(): (None, False) for v in variants}
    for name in variant_names:
        vdoc = load(find_variant(spec_path, name))
        if not is_variant(vdoc):
            raise SpecError(
                [Diagnostic("RS601", "a variant file needs 'extends: BASE'", vdoc.span(()))],
                vdoc.all_sources(),
            )
        chain, vbase = _chain(vdoc)  # a variant of a variant brings the whole chain
        if Path(vbase.file).resolve() != root:
            raise SpecError(
                [
                    Diagnostic(
                        "RS603",
                        f"variant '{name}' extends {vdoc.data['extends']}, not the spec being run",
                        vdoc.span(("extends",)),
                    )
                ],
                vdoc.all_sources(),
            )
        twice = next((v for v in chain if Path(v.file).resolve() in by), None)
        if twice is not None:  # its additions would clash with themselves (RS601)
            raise SpecError(
                [
                    Diagnostic(
                        "RS601",
                        f"variant {twice.file} is applied twice",
                        twice.span(()),
                        hint=_twice_hint(name, *by[Path(twice.file).resolve()], twice is vdoc),
                    )
                ],
                twice.all_sources(),
            )
        by |= {Path(v.file).resolve(): (name, v is vdoc) for v in chain}
        variants += chain
    for variant in variants:
        base = apply(base, variant)
    return base


def _twice_hint(name: str, first: str | None, named: bool, itself: bool) -> str:
    """How not to apply a variant twice: --variant NAME applies it again, by its name
    (itself) or as one it extends; `first` applied it before (None: the spec run), by
    its name (named) or as one it extends."""
    extends = "; a variant applies the variants it extends"
    if first is None:
        return f"the spec run applies it already: leave out --variant {name}" + (
            "" if itself else extends
        )
    if itself:
        return f"leave out --variant {name}: --variant {first} applies it already" + (
            "" if named else extends
        )
    return f"leave out --variant {first}: --variant {name} applies it too{extends}"


def _keep_title(base, value):
    """A parameter's new value, with the base's title and text kept: a variant changes
    the value, not what the parameter is called or what it is for."""
    words = {k: base[k] for k in ("title", "text") if isinstance(base, dict) and k in base}
    if not words:
        return value
    # the variant's own title or text, if it gives one, is the one it means
    return {**words, **value} if isinstance(value, dict) else {"default": value, **words}
