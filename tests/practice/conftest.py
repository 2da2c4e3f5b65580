"""Fixtures for practice tables and the demo: the throttles' counters start empty, rounds follow each other at
once."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _no_throttle_state(settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 0
