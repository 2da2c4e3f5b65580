"""The socket tier's database reads, off the event loop: a few threads of their own
(`RAMINO_SOCKET_DB_THREADS`), each keeping its one database connection between reads as a gunicorn thread does
(`DATABASE_CONN_MAX_AGE`), so that a process's sockets read in parallel and no read opens a connection.

The shared reads (hub.py: one per topic and new version, which every socket of the topic waits for) have a lane
of their own, `SHARED_THREADS` threads: they never queue behind the sockets' own reads (sign-ins,
subscriptions, the rechecks every `RAMINO_SOCKET_RECHECK_SECONDS`, a thousand sockets' worth at once after a
restart). Measured: at 1,000 sockets behind one lane, p50 1.2 s from commit to arrival (bench-live, 2026-12-06).

Not `database_sync_to_async(thread_sensitive=False)`: that runs each read in a copy of the socket's context,
where Django's per-context connection is a new one each time, left open until collected."""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections, connections

_T = TypeVar("_T")
_lock = threading.Lock()
_executors: dict[str, ThreadPoolExecutor] = {}
OWN = "own"
SHARED = "shared"
SHARED_THREADS = 2


def _pool(lane: str) -> ThreadPoolExecutor:
    with _lock:
        executor = _executors.get(lane)
        if executor is None:
            threads = SHARED_THREADS if lane == SHARED else int(settings.RAMINO_SOCKET_DB_THREADS)
            executor = _executors[lane] = ThreadPoolExecutor(
                max_workers=threads, thread_name_prefix=f"ramino-socket-db-{lane}"
            )
        return executor


def _call(function: Callable[..., _T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> _T:
    # As a request does: a connection past its age, or broken, is replaced before and closed after.
    close_old_connections()
    try:
        return function(*args, **kwargs)
    finally:
        close_old_connections()


async def read(function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """`function(*args, **kwargs)` (synchronous, Django) in one of the sockets' own reading threads."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_pool(OWN), functools.partial(_call, function, args, kwargs))


async def read_shared(function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """`function(*args, **kwargs)` in the shared reads' own threads."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_pool(SHARED), functools.partial(_call, function, args, kwargs))


def close() -> None:
    """Close every reading thread's connection and end the threads (a test's end: PostgreSQL will not drop a
    database still connected to; a process simply exits)."""
    with _lock:
        executors = list(_executors.values())
        _executors.clear()
    for executor in executors:
        _close(executor)


def _close(executor: ThreadPoolExecutor) -> None:
    threads = int(executor._max_workers)
    # One job per thread: each waits for all the others, so no thread takes two.
    barrier = threading.Barrier(threads)

    def close_mine() -> None:
        barrier.wait(timeout=30)
        connections.close_all()

    for _ in range(threads):
        executor.submit(close_mine)
    executor.shutdown(wait=True)
