"""What a wheel's user meets beyond the code (issue 28): the README the package index
shows links nowhere inside the repository, the metadata names where the documentation
is, --help points there, and the README says which system packages the optional parts
need. (test_wheel.py checks the built wheel itself, under -m wheel.)"""

import re
import sys

from gamekit import ROOT, cli

from rulespec.formats import DOCS_URL

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
README = (ROOT / PROJECT["readme"]).read_text(encoding="utf-8")


def test_the_packaged_readme_links_only_to_absolute_urls():
    targets = re.findall(r"\]\(([^)]*)\)", README)
    assert len(targets) > 10
    assert [t for t in targets if not t.startswith("https://")] == []
    # no page of the docs named by its path in the source, which a wheel does not hold
    assert re.findall(r"docs/[\w-]+\.md", README) == []


def test_the_metadata_names_the_documentation_online():
    urls = PROJECT["urls"]
    assert urls["Documentation"] == DOCS_URL
    assert all(u.startswith("https://") for u in urls.values())
    assert DOCS_URL in README


def test_help_points_at_the_documentation_online_not_at_a_file():
    code, out, _ = cli("--help")
    assert code == 0 and f"{DOCS_URL}cli" in out
    assert "docs/" not in out.replace(DOCS_URL, "")
    for command in ("schema", "lsp"):
        out = cli(command, "--help")[1]
        assert f"{DOCS_URL}editor" in out and "docs/editor.md" not in out


def test_the_readme_names_the_system_packages_of_the_optional_parts():
    install = README[README.index("## Install") :]
    install = " ".join(install[: install.index("\n## ")].split())
    assert "`rulespec graph --render` needs Graphviz" in install
    assert "the browser tests of `rulespec serve` need Chromium" in install
