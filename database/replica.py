"""The lobby's reads on a read replica (docs/operations.md "Read replicas").

The lobby's reads of a tournament (its row, a standings page, the tables, one table, the events) are the
traffic a 250,000-entrant tournament multiplies; each is a bounded query that tolerates a replica's lag (the
lobby follows the event log by version and asks again). The views that serve them run inside `lobby_reads()`
(the `lobby_view` decorator); while it is active, `ReplicaRouter` sends the reads of every model to the alias
named by the setting `RAMINO_LOBBY_READS_DB` (unset: "replica" when configured; "default": nothing changes). Writes, and reads inside a
transaction of the default database (read your own writes), stay on "default". A real replica is the
`replica` alias, configured by `DATABASE_REPLICA_URL` (config/settings/base.py); the test settings define it as
a mirror of the default database (a second connection to the same database: tests/test_replica_router.py).
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

REPLICA = "replica"
_LOBBY = contextvars.ContextVar("ramino_lobby_reads", default=False)

F = TypeVar("F", bound=Callable[..., Any])


def lobby_alias() -> str:
    """The alias the lobby's reads go to: the setting `RAMINO_LOBBY_READS_DB` when it names a configured
    database; unset, "replica" when that alias is configured (DATABASE_REPLICA_URL), else "default"."""
    alias = str(getattr(settings, "RAMINO_LOBBY_READS_DB", "") or REPLICA)
    return alias if alias in settings.DATABASES else DEFAULT_DB_ALIAS


@contextmanager
def lobby_reads() -> Iterator[None]:
    """Within: reads may go to the lobby's alias (`ReplicaRouter`)."""
    token = _LOBBY.set(True)
    try:
        yield
    finally:
        _LOBBY.reset(token)


def lobby_view(method: F) -> F:
    """A view method whose reads may go to the lobby's alias."""

    @functools.wraps(method)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with lobby_reads():
            return method(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


class ReplicaRouter:
    """Django's database router (settings.DATABASE_ROUTERS): reads inside `lobby_reads()` to the lobby's alias,
    unless a transaction is open on the default database; everything else to "default"."""

    def db_for_read(self, model: type[Any], **hints: Any) -> str | None:
        if not _LOBBY.get():
            return None
        alias = lobby_alias()
        if alias == DEFAULT_DB_ALIAS or connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return None
        return alias

    def db_for_write(self, model: type[Any], **hints: Any) -> str | None:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        return True  # the replica holds the same rows

    def allow_migrate(
        self, db: str, app_label: str, model_name: str | None = None, **hints: Any
    ) -> bool | None:
        return db == DEFAULT_DB_ALIAS
