"""Django's PostgreSQL backend plus a cursor for the hot paths' hand-written statements.

Django's own cursors bind parameters on the client (psycopg's `ClientCursor`): every value is quoted into
the statement's text, which PostgreSQL then parses and plans afresh. For the few statements run on every
move (tournaments/services/rows.py) `prepared_cursor()` sends the values apart from the text and has
psycopg prepare each statement once per connection (after `prepare_threshold` runs), so that neither the
quoting nor the planning is paid per request (docs/performance.md). The ORM keeps Django's cursors.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base

# Statements are prepared on their first run on a connection unless OPTIONS says otherwise. This touches
# only cursors made by `prepared_cursor` (client-side binding never prepares). Set it to None in OPTIONS
# behind a pooler that cannot keep prepared statements (PgBouncer before 1.21 in transaction mode).
DEFAULT_PREPARE_THRESHOLD = 0


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        if "prepare_threshold" not in self.settings_dict["OPTIONS"]:
            params["prepare_threshold"] = DEFAULT_PREPARE_THRESHOLD
        return params

    def prepared_cursor(self) -> Any:
        """A cursor (Django's wrapper: errors translated, queries logged) that binds on the server and
        prepares its statements. One statement per `execute`; send several in one round trip with
        `self.connection.pipeline()`."""
        # What `cursor()` does before it creates Django's own kind of cursor.
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            return self._prepare_cursor(base.ServerBindingCursor(self.connection))
