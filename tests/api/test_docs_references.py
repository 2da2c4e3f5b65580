"""The documents the code and the docs point to exist in the repository: every `*.md` named in the OpenAPI
schema's descriptions, in the docs, in a docstring or comment of the code and the tests is a file of the repo
(not the design notes it was built from), and every section cited as `docs/<file>.md "Section"` is a heading or
a bold paragraph lead (`**Commitment**: ...`) of that file."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
MARKDOWN = re.compile(r"(?<![\w/.])((?:[\w-]+/)*[\w-]+\.md)\b")
# A document named anywhere, also through `../` (resolved from the naming file's folder).
NAMED = re.compile(r"(?<![\w/.-])((?:\.\.?/)*(?:[\w.-]+/)*[\w-]+\.md)\b")
# A section cited by its heading: docs/rules.md "Deal", also with the path in backticks or a comma after it;
# the name may run on to the next line (a comment's `#` included).
SECTION = re.compile(r"`?\b(docs/[\w-]+\.md)`?,?\s+\"([^\"\n]+(?:\n[ \t]*#?[ \t]*[^\"\n]+)?)\"")
# A section sign and a number after a document's bare name in capitals: a numbered section of a document the
# repository does not hold (its own docs are cited by path and section name).
NUMBERED = re.compile(r"\b[A-Z]{2,}(?:\.md)? \u00a7\s?\d")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$|\*\*([^*\n]+)\*\*", re.M)
SUFFIXES = {".py", ".md", ".html", ".js", ".css", ".txt", ".toml", ".cfg", ".ini", ".yml", ".yaml", ".sh"}
NAMES = {"Makefile", "Dockerfile"}
SKIPPED = {
    ".git",
    ".venv",
    "var",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
}


def _missing(text: str) -> set[str]:
    return {name for name in MARKDOWN.findall(text) if not (ROOT / name).exists()}


def _files() -> Iterator[Path]:
    """The repository's own text files: its code, tests, docs, templates and deployment."""
    folders = [ROOT]
    while folders:
        for path in sorted(folders.pop().iterdir()):
            if path.is_dir():
                if path.name not in SKIPPED and not path.name.endswith(".egg-info"):
                    folders.append(path)
            elif path.suffix in SUFFIXES or path.name in NAMES:
                yield path


def _dangling(path: Path, text: str) -> set[str]:
    """The documents `text` (of `path`) names that are no file of the repository: a path is read from the
    repository's root or the naming file's folder, a bare name also as one of docs/."""
    found = set()
    for name in NAMED.findall(text):
        if name.startswith("."):
            target = (path.parent / name).resolve()
            if not (target.is_relative_to(ROOT) and target.exists()):
                found.add(name)
        elif not any(
            (folder / name).exists()
            for folder in (ROOT, path.parent, *([ROOT / "docs"] if "/" not in name else []))
        ):
            found.add(name)
    return found


def _headings(document: Path) -> set[str]:
    """The document's headings and bold paragraph leads, without their code marks, in lower case."""
    return {
        " ".join((heading or lead).replace("`", "").split()).lower()
        for heading, lead in HEADING.findall(document.read_text())
    }


def _unknown_sections(text: str) -> set[tuple[str, str]]:
    """The `(document, section)` citations of `text` whose section is no heading of the document: the
    heading itself, or the heading up to its parenthesis or colon (`"Settlement"` for "Settlement (PCR)",
    `"Soak"` for "Soak: chaos while playing")."""
    unknown = set()
    for document, cited in SECTION.findall(text):
        section = " ".join(re.sub(r"\n[ \t]*#?", " ", cited).replace("`", "").split())
        path = ROOT / document
        headings = _headings(path) if path.exists() else set()
        wanted = section.lower()
        if not any(h == wanted or h.startswith((f"{wanted} (", f"{wanted}:")) for h in headings):
            unknown.add((document, section))
    return unknown


@pytest.mark.django_db
def test_the_schema_names_only_documents_of_the_repo() -> None:
    schema = Client().get("/api/schema/").content.decode()
    assert "docs/api.md" in schema
    assert _missing(schema) == set()
    assert _unknown_sections(schema) == set()


def test_docs_api_md_names_only_documents_of_the_repo() -> None:
    assert _missing((ROOT / "docs" / "api.md").read_text()) == set()


def test_the_code_the_tests_and_the_docs_name_only_documents_of_the_repo() -> None:
    found = {
        (str(path.relative_to(ROOT)), name)
        for path in _files()
        for name in _dangling(path, path.read_text(errors="replace"))
    }
    assert found == set(), "documents named that the repository does not hold:\n" + "\n".join(
        f"{where}: {name}" for where, name in sorted(found)
    )


def test_every_cited_section_is_a_heading_of_its_document() -> None:
    found = {
        (str(path.relative_to(ROOT)), document, section)
        for path in _files()
        for document, section in _unknown_sections(path.read_text(errors="replace"))
    }
    assert found == set(), "sections cited that their document does not have:\n" + "\n".join(
        f'{where}: {document} "{section}"' for where, document, section in sorted(found)
    )


def test_no_section_is_cited_by_number_of_a_document_outside_the_repo() -> None:
    found = {
        (str(path.relative_to(ROOT)), match)
        for path in _files()
        for match in NUMBERED.findall(path.read_text(errors="replace"))
    }
    assert found == set(), (
        "sections cited by number, of documents the repository does not hold:\n"
        + "\n".join(f"{where}: {match}" for where, match in sorted(found))
    )


def test_a_missing_document_or_section_is_found() -> None:
    here = ROOT / "docs" / "api.md"
    # Built here, so that this file names no missing document or section itself.
    nowhere, outside, rules = "no-such-notes" + ".md", "../shared/" + "notes" + ".md", "docs/rules.md"
    assert _dangling(here, f"see {nowhere}, {outside} and docs/rules.md") == {nowhere, outside}
    assert _dangling(here, "see tables.md, rules.md and docs/rules.md") == set()
    cited = (
        f'{rules} "Deal", `{rules}`, "Settlement", {rules} "Commitment" and {rules} "No such\n    # section"'
    )
    assert _unknown_sections(cited) == {(rules, "No such section")}
    assert NUMBERED.findall("as NOTES \u00a75 says") == ["NOTES \u00a75"]
