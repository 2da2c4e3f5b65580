"""Django's PostgreSQL backend plus prepared statements for the hot paths' hand-written SQL, and JSON
columns written with orjson. Why each stays: docs/performance.md#hand-written-statements, rows
"prepared" and "orjson".

`prepared_cursor()`: Django's own cursors bind parameters on the client (psycopg's `ClientCursor`): every
value is quoted into the statement's text, which PostgreSQL then parses and plans afresh. For the few
statements run on every move (config/db/rows.py) this cursor sends the values apart from the text and
psycopg prepares each statement once per connection. The ORM keeps Django's cursors. Django's public
alternative, `OPTIONS={"server_side_binding": True}` for every cursor, was measured in its place: moves at
0.52-0.63x the floor against 0.59-1.13x in the same hours (docs/performance.md, "The database backend, measured").
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base, operations
from psycopg.types.json import Jsonb

from config.db import json

# Statements are prepared on their first run on a connection unless OPTIONS says otherwise. This touches
# only cursors made by `prepared_cursor` (client-side binding never prepares). DATABASE_PREPARED_STATEMENTS=false
# (config/settings) sets "prepare_threshold": None for a pooler that cannot keep prepared statements.
DEFAULT_PREPARE_THRESHOLD = 0
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
        # docs/performance.md#hand-written-statements: orjson (json.dumps/loads 6-7% of a move's samples).
        if encoder is None:
            return Jsonb(value, dumps=json.dumps)
        return super().adapt_json_value(value, encoder)

    def last_executed_query(self, cursor: Any, sql: str, params: Any) -> Any:
        # Django's composes the values into the text client-side, which gives None for the prepared
        # cursor's statements: logged queries (DEBUG, CaptureQueriesContext) would lose their SQL.
        if isinstance(cursor, _SERVER_BINDING_CURSOR):
            return sql  # the values travel apart from the text, as with OPTIONS server_side_binding
        return super().last_executed_query(cursor, sql, params)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept_cursor: Any = None

    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        if "prepare_threshold" not in self.settings_dict["OPTIONS"]:
            params["prepare_threshold"] = DEFAULT_PREPARE_THRESHOLD
        return params

    def prepared_cursor(self) -> Any:
        """A cursor (Django's wrapper: errors translated, queries logged) that binds on the server and
        prepares its statements. One statement per `execute`. The same psycopg cursor serves one statement
        after another on a connection; one asked for while it is in use (not closed yet) is a new one."""
        # docs/performance.md#hand-written-statements: prepared (PostgreSQL CPU per move 1.85 -> 1.0-1.2 ms).
        # What `cursor()` does before it creates Django's own kind of cursor.
        self.close_if_health_check_failed()
        self.ensure_connection()
        kept = self._kept_cursor
        with self.wrap_database_errors:
            if kept is None or kept.connection is not self.connection or kept.closed:
                kept = self._kept_cursor = KeptCursor(self.connection)
            elif kept.in_use:
                return self._prepare_cursor(_SERVER_BINDING_CURSOR(self.connection))  # type: ignore[attr-defined]
            kept.in_use = True
            return self._prepare_cursor(kept)  # type: ignore[attr-defined]
