from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _answers_conform(answers_conform: object) -> None:
    """Every answer of the end-to-end runs is checked against the published schema."""
