"""The Tigris rules documents and the code that cites them stay in step.

Every ``§n`` the Tigris packages and their tests cite must be a heading of
docs/rules/tigris.md or docs/rules/tigris-cards.md (a bare ``§n`` refers to
the last document the file named), no citation may point outside the
repository (the old digest), and every test the documents name must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOCS = {name: ROOT / "docs" / "rules" / name for name in ("tigris.md", "tigris-cards.md")}
CODE = [
    *sorted((ROOT / "shared" / "games").glob("tigris*/**/*.py")),
    *sorted((ROOT / "shared" / "games").glob("tigris*/**/*.md")),
    *sorted((ROOT / "tests" / "games").glob("tigris*/**/*.py")),
]
TESTS = sorted((ROOT / "tests" / "games").glob("tigris*/**/test_*.py"))

_DOC = re.compile(r"docs/rules/(tigris(?:-cards)?\.md)|(tigris(?:-cards)?\.md)\b")
_SECTION = re.compile(r"§(\d+(?:\.\d+)?)")
_HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", re.M)
#: The digest the code used to cite lives outside the repository (spelled in two
#: parts so that this file does not match itself).
_OUTSIDE = re.compile("shared/" + r"rules/|\bdigest [0-9P§]|\[[DQR]\]|\bQ\d+\b")
#: In a document, a ``§`` belongs to the document named right before it, else to itself.
_DOC_SECTION = re.compile(r"(?:(tigris(?:-cards)?\.md) )?§(\d+(?:\.\d+)?)")


def _sections(doc: Path) -> set[str]:
    return set(_HEADING.findall(doc.read_text()))


def _citations(path: Path) -> list[tuple[str, str, int]]:
    """(document, section, line) for every ``§`` in ``path``."""
    text = path.read_text()
    current = (
        "tigris-cards.md" if "tigris_cards" in path.parts or "tigris-cards" in path.name else "tigris.md"
    )
    found = []
    events = sorted(
        [(m.start(), "doc", m.group(1) or m.group(2)) for m in _DOC.finditer(text)]
        + [(m.start(), "sec", m.group(1)) for m in _SECTION.finditer(text)]
    )
    for at, kind, value in events:
        if kind == "doc":
            current = value
        else:
            found.append((current, value, text.count("\n", 0, at) + 1))
    return found


def test_the_rules_documents_exist() -> None:
    for doc in DOCS.values():
        assert doc.is_file(), f"{doc} is missing"


@pytest.mark.parametrize("path", CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_citation_resolves_inside_the_repository(path: Path) -> None:
    headings = {name: _sections(doc) for name, doc in DOCS.items()}
    for doc, section, line in _citations(path):
        assert section in headings[doc], (
            f"{path.name}:{line} cites {doc} §{section}, which has no such heading"
        )
    for number, text in enumerate(path.read_text().splitlines(), 1):
        assert not _OUTSIDE.search(text), f"{path.name}:{number} cites a document outside the repository"


@pytest.mark.parametrize("name", sorted(DOCS))
def test_every_test_a_document_names_exists(name: str) -> None:
    defined = {m for path in TESTS for m in re.findall(r"^def (test_\w+)", path.read_text(), re.M)}
    named = set(re.findall(r"`(test_\w+)(?![\w.])", DOCS[name].read_text()))
    assert named, "the document names no tests"
    assert named <= defined, f"{name} names tests that do not exist: {sorted(named - defined)}"


@pytest.mark.parametrize("name", sorted(DOCS))
def test_the_documents_cross_references_resolve(name: str) -> None:
    for target, section in _DOC_SECTION.findall(DOCS[name].read_text()):
        target = target or name
        assert section in _sections(DOCS[target]), f"{name} refers to {target} §{section}"
