"""Database helpers shared by the apps' hand-written hot paths."""

from __future__ import annotations

from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections


def statement_cursor(alias: str = DEFAULT_DB_ALIAS) -> Any:
    """A cursor for hand-written statements: on PostgreSQL one that binds on the server and prepares each
    statement once per connection (config/db/postgresql), elsewhere Django's own."""
    db = connections[alias]
    if db.settings_dict["OPTIONS"].get("server_side_binding") is True:
        return db.cursor()
    prepared = getattr(db, "prepared_cursor", None)
    return prepared() if prepared is not None else db.cursor()
