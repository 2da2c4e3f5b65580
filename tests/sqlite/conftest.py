"""The SQLite leg's fixtures: the site in one process (tests/sqlite/harness.py), a record of which side of
each `connection.vendor` branch ran, and the transactional tests' flush with the triggers in place."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection

from database import rows
from ledger.services import postings
from tests.sqlite.harness import Site, site
from tests.sqlite.triggers import flush_keeping_triggers
from tournaments.live.moves import context as move_context
from tournaments.live.storage import rows as game_rows


@pytest.fixture(autouse=True)
def _flush_keeping_triggers(request: pytest.FixtureRequest) -> Iterator[None]:
    """A transactional test's database emptied before Django's own flush (tests/sqlite/triggers.py): torn
    down first, since it asks for the transactional database itself."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction"):
        yield
        return
    request.getfixturevalue("transactional_db")
    yield
    flush_keeping_triggers(connection)


@pytest.fixture
def sqlite_site(settings: Any) -> Iterator[Site]:
    cache.clear()  # the throttles' counts
    # No pause between rounds, and a long-poll that finds nothing reads again soon (there is no listener here).
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 0
    settings.RAMINO_EVENTS_POLL_SECONDS = 0.2
    with site() as the_site:
        yield the_site


class Sides:
    """Calls counted by name: the SQLite side of a branch (`sqlite:...`) or the PostgreSQL one (`pg:...`)."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}

    def count(self, name: str) -> None:
        self.calls[name] = self.calls.get(name, 0) + 1

    def ran(self, name: str) -> int:
        return self.calls.get(name, 0)

    def pg(self) -> dict[str, int]:
        return {name: n for name, n in self.calls.items() if name.startswith("pg:")}


def _counted(sides: Sides, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        sides.count(name)
        return function(*args, **kwargs)

    return wrapper


@pytest.fixture
def vendor_sides(monkeypatch: pytest.MonkeyPatch) -> Sides:
    """Counts both sides of the branches whose sides are functions of their own (the others are checked by
    what they answer): the move's read, the ledger's posting, the game and events reads, and the writes that
    PostgreSQL sends as one statement."""
    sides = Sides()
    for module, attribute, name in (
        (move_context, "_move_context_pg_sql", "pg:move_context"),
        (postings, "_post_locked", "sqlite:ledger_post"),
        (postings, "_post_pg", "pg:ledger_post"),
        (game_rows, "load_game", "pg:load_game"),
        (game_rows, "load_events", "pg:load_events"),
        (game_rows, "load_events_with_access", "pg:load_events_with_access"),
    ):
        monkeypatch.setattr(module, attribute, _counted(sides, name, getattr(module, attribute)))
    context_sql = move_context._move_context_sql

    def counted_context_sql(**kwargs: Any) -> Any:
        sides.count(f"sqlite:move_context:{'keyed' if kwargs.get('key') else 'unkeyed'}")
        return context_sql(**kwargs)

    monkeypatch.setattr(move_context, "_move_context_sql", counted_context_sql)
    execute = rows.execute

    def counted_execute(statements: Any, **options: Any) -> None:
        if len(statements) > 1:
            sides.count("sqlite:rows_execute_one_by_one")
        execute(statements, **options)

    monkeypatch.setattr(rows, "execute", counted_execute)
    return sides
