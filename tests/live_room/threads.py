"""Django's synchronous code run from a socket test's event loop, in a thread, with that thread's database
connection closed after each call (PostgreSQL will not drop the test database while one is open)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from django.db import connections


def in_thread(function: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    def closing(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return database_sync_to_async(closing)  # type: ignore[no-any-return]
