"""Machine-readable reports for CI: SARIF, GitHub Actions annotations, JUnit XML.

Each function takes findings (anything with code, severity, message, span and hint:
a lint Finding or a front-end Diagnostic) or scenario outcomes, and returns text.
"""

from __future__ import annotations

import json
import re

SEVERITIES = ("info", "warning", "error")
# the documentation online, docs/PAGE.md of the source at DOCS_URL + PAGE: a wheel holds
# no docs/ (pyproject.toml's Project-URLs name the same place)
DOCS_URL = "https://rulespec.dev/docs/"


def sarif(findings, descriptions: dict[str, str]) -> str:
    """SARIF 2.1.0, as GitHub code scanning reads it."""
    from . import __version__

    level = {"error": "error", "warning": "warning", "info": "note"}
    codes = sorted({f.code for f in findings})
    report = {
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "rulespec",
                        "version": __version__,
                        "informationUri": DOCS_URL + "lint",
                        "rules": [
                            {"id": c, "shortDescription": {"text": descriptions.get(c, c)}}
                            for c in codes
                        ],
                    }
                },
                "results": [
                    {
                        "ruleId": f.code,
                        "level": level[f.severity],
                        "message": {"text": f.message + (f" ({f.hint})" if f.hint else "")},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": f.span.file},
                                    "region": {"startLine": f.span.line, "startColumn": f.span.col},
                                }
                            }
                        ],
                        "properties": {
                            "layer": getattr(f, "layer", 0),
                            "trace": list(getattr(f, "trace", ())),
                        },
                    }
                    for f in findings
                ],
            }
        ],
    }
    return json.dumps(report, indent=1) + "\n"


def github(findings) -> str:
    """One GitHub Actions workflow command per finding, as ruff's --output-format
    github writes them: `::error file=F,line=L,col=C,title=CODE::message`."""
    command = {"error": "error", "warning": "warning", "info": "notice"}
    return "".join(
        f"::{command[f.severity]} file={_property(f.span.file)},line={f.span.line},"
        f"col={f.span.col},title={_property(f.code)}::"
        f"{_data(f.message + (f' ({f.hint})' if f.hint else ''))}\n"
        for f in findings
    )


def _data(text: str) -> str:
    # the escapes GitHub's runner undoes (actions/toolkit, command.ts)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def junit(outcomes, suite: str = "rulespec") -> str:
    """JUnit XML: one testcase per scenario, a failure carrying its messages."""
    from xml.etree import ElementTree  # here: only `rulespec test --format junit` needs it

    failed = sum(not o.passed for o in outcomes)
    root = ElementTree.Element(
        "testsuites", name=suite, tests=str(len(outcomes)), failures=str(failed), errors="0"
    )
    cases = ElementTree.SubElement(
        root,
        "testsuite",
        name=suite,
        tests=str(len(outcomes)),
        failures=str(failed),
        errors="0",
        skipped="0",
    )
    for o in outcomes:
        file = _xml(o.file)
        case = ElementTree.SubElement(
            cases, "testcase", classname=file, name=_xml(o.name), file=file
        )
        if not o.passed:
            failure = ElementTree.SubElement(
                case, "failure", message=_xml(o.failures[0]) if o.failures else "failed"
            )
            failure.text = _xml("\n".join(o.failures))
    ElementTree.indent(root)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        + ElementTree.tostring(root, encoding="unicode")
        + "\n"
    )


# what XML 1.0 cannot hold, not even as a character reference: the C0 controls but
# tab, line feed and carriage return, lone surrogates, U+FFFE and U+FFFF
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    """text with what XML cannot hold written out, as \\x07 or \\ufffe: a scenario's
    name may hold anything, and the report must still parse."""
    return _NOT_XML.sub(
        lambda m: (
            f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"
        ),
        text,
    )
