"""The documents the API's docs point to exist in the repository: every `*.md` named in the OpenAPI schema's
descriptions and in docs/api.md is a file of the repo (not the design notes it was built from)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
MARKDOWN = re.compile(r"(?<![\w/.])((?:[\w-]+/)*[\w-]+\.md)\b")


def _missing(text: str) -> set[str]:
    return {name for name in MARKDOWN.findall(text) if not (ROOT / name).exists()}


@pytest.mark.django_db
def test_the_schema_names_only_documents_of_the_repo() -> None:
    schema = Client().get("/api/schema/").content.decode()
    assert "docs/api.md" in schema
    assert _missing(schema) == set()


def test_docs_api_md_names_only_documents_of_the_repo() -> None:
    assert _missing((ROOT / "docs" / "api.md").read_text()) == set()
