"""Django's PostgreSQL backend with three changes for the request path (docs/performance.md).

- `prepared_cursor()`: Django's own cursors bind parameters on the client (psycopg's `ClientCursor`):
  every value is quoted into the statement's text, which PostgreSQL then parses and plans afresh. For the
  few statements run on every move (tournaments/services/rows.py) this cursor sends the values apart from
  the text and psycopg prepares each statement once per connection, so neither the quoting nor the
  planning is paid per request. The ORM keeps Django's cursors.
- JSON columns are written with orjson (config/db/json.py).
- Health checks (`CONN_HEALTH_CHECKS`) only after a pause: Django's check is a `SELECT 1` round trip
  at the start of every request that reuses a connection. A connection that served a request less than
  `HEALTH_CHECK_AFTER_IDLE_SECONDS` ago is not checked again: it is the idle connection that a database
  restart, a failover or an idle timeout leaves dead. A connection that dies in use fails its request (503,
  config/api/exceptions.py) and is closed at the request's end, as it would be without any checks.
"""

from __future__ import annotations

import time
from typing import Any

from django.db.backends.postgresql import base, operations
from psycopg.types.json import Jsonb

from config.db import json

# Statements are prepared on their first run on a connection unless OPTIONS says otherwise. This touches
# only cursors made by `prepared_cursor` (client-side binding never prepares). DATABASE_PREPARED_STATEMENTS=false
# (config/settings) sets "prepare_threshold": None for a pooler that cannot keep prepared statements.
DEFAULT_PREPARE_THRESHOLD = 0
HEALTH_CHECK_AFTER_IDLE_SECONDS = 1.0
# Django's psycopg 3 cursor with server-side binding (defined only when psycopg 3 is installed).
_SERVER_BINDING_CURSOR: Any = getattr(base, "ServerBindingCursor", None)

if _SERVER_BINDING_CURSOR is not None:

    class KeptCursor(_SERVER_BINDING_CURSOR):  # type: ignore[misc]
        """The connection's cursor for prepared statements, kept from one statement to the next: making a
        psycopg cursor (its adapters map among the rest) was a visible share of a move's CPU. `close()`
        hands it back instead of closing it; it closes with its connection."""

        in_use = False

        def close(self) -> None:
            self.in_use = False


class DatabaseOperations(operations.DatabaseOperations):
    def adapt_json_value(self, value: Any, encoder: Any) -> Any:
        if encoder is None:
            return Jsonb(value, dumps=json.dumps)
        return super().adapt_json_value(value, encoder)

    def last_executed_query(self, cursor: Any, sql: str, params: Any) -> Any:
        if isinstance(cursor, _SERVER_BINDING_CURSOR):
            return sql  # the values travel apart from the text, as with OPTIONS server_side_binding
        return super().last_executed_query(cursor, sql, params)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # When a cursor was last opened on the current connection (monotonic seconds).
        self.last_used: float | None = None
        self._kept_cursor: Any = None

    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        if "prepare_threshold" not in self.settings_dict["OPTIONS"]:
            params["prepare_threshold"] = DEFAULT_PREPARE_THRESHOLD
        return params

    def close_if_health_check_failed(self) -> None:
        # (health_check_enabled and health_check_done are Django's, set by connect() and per request.)
        if (
            getattr(self, "health_check_enabled", False)
            and not getattr(self, "health_check_done", True)
            and self.connection is not None
            and self.last_used is not None
            and time.monotonic() - self.last_used < HEALTH_CHECK_AFTER_IDLE_SECONDS
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def connect(self) -> None:
        super().connect()
        self.last_used = None

    def create_cursor(self, name: str | None = None) -> Any:
        self.last_used = time.monotonic()
        return super().create_cursor(name)

    def prepared_cursor(self) -> Any:
        """A cursor (Django's wrapper: errors translated, queries logged) that binds on the server and
        prepares its statements. One statement per `execute`. The same psycopg cursor serves one statement
        after another on a connection; one asked for while it is in use (not closed yet) is a new one."""
        # What `cursor()` does before it creates Django's own kind of cursor.
        self.close_if_health_check_failed()
        self.ensure_connection()
        self.last_used = time.monotonic()
        kept = self._kept_cursor
        with self.wrap_database_errors:
            if kept is None or kept.connection is not self.connection or kept.closed:
                kept = self._kept_cursor = KeptCursor(self.connection)
            elif kept.in_use:
                return self._prepare_cursor(_SERVER_BINDING_CURSOR(self.connection))  # type: ignore[attr-defined]
            kept.in_use = True
            return self._prepare_cursor(kept)  # type: ignore[attr-defined]
