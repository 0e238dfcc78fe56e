"""Every link of the docs (docs/*.md and the README) to a section of a page names a
heading that page has, as GitHub makes a heading's anchor: lower case, the characters
other than letters, digits, '-', '_' and spaces dropped, spaces as '-'. Three such
links had gone stale when their headings changed."""

import re

import pytest
from gamekit import ROOT

PAGES = sorted((ROOT / "docs").glob("*.md"))
HEADING = re.compile(r"^#+ (.*)$", re.M)
LINK = re.compile(r"\]\((?:(?:docs/)?([\w-]+\.md))?#([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)  # code: a '#' there is no heading


def anchor(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


ANCHORS = {
    page.name: {anchor(h) for h in HEADING.findall(FENCE.sub("", page.read_text("utf-8")))}
    for page in PAGES
}


def test_anchor_is_made_as_github_makes_it():
    assert anchor("`choose(player) VAR from combinations(cards, k) { … }`") == (
        "chooseplayer-var-from-combinationscards-k---"
    )


@pytest.mark.parametrize("page", [*PAGES, ROOT / "README.md"], ids=lambda p: p.name)
def test_every_link_to_a_section_names_one_of_its_page(page):
    text = FENCE.sub("", page.read_text("utf-8"))
    own = page.name if page.parent.name == "docs" else None
    broken = [
        f"{target or own}#{name}"
        for target, name in LINK.findall(text)
        if (target or own) in ANCHORS and name not in ANCHORS[target or own]
    ]
    assert broken == []


FILE_LINK = re.compile(r"\]\(((?:\.\./|\./)?[\w./-]+\.(?:md|yaml|py|png|json|toml))(?:#[^)\s]*)?\)")


@pytest.mark.parametrize("page", [*PAGES, ROOT / "README.md"], ids=lambda p: p.name)
def test_every_link_to_a_file_names_one_that_exists(page):
    text = FENCE.sub("", page.read_text("utf-8"))
    missing = [f for f in FILE_LINK.findall(text) if not (page.parent / f).exists()]
    assert missing == []


SOURCE_LINK = re.compile(r"docs/([\w-]+\.md)#([\w-]+)")


@pytest.mark.parametrize("package", ["rulespec", "interpreter"])
def test_every_section_a_message_names_is_one_of_its_page(package):
    """A hint that sends a reader to a section names it as a link does: RS201's named
    'What each part of a spec binds', a paragraph with no heading, which a Love Letter
    designer found only with grep."""
    broken = [
        f"{path.name}: docs/{page}#{name}"
        for path in (ROOT / package).rglob("*.py")
        for page, name in SOURCE_LINK.findall(path.read_text("utf-8"))
        if name not in ANCHORS.get(page, ())
    ]
    assert broken == []
