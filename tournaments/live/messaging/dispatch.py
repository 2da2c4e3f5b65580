"""Sending Celery tasks by their stable names: live play's own are named here, each tournament kind's beside it
(`single_table.task_names`, `multi_table.task_names`), and all are sent through `send` and `enqueue`.

Services sit below the tasks that call them: they name a task and never import `tournaments.tasks`. The task
is looked up in the Celery app's registry when it is sent (its modules autodiscovered if need be), so it is
sent exactly as `task.apply_async` would send it (eager mode, routing and the task's own options included).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from celery import Task, current_app
from django.conf import settings
from django.db import transaction

TURN_CLOCK = "tournaments.turn_clock"
CLOSE_CLAIMS = "tournaments.close_claims"
START_ROUND = "tournaments.start_round"
SWEEP_CLOCKS = "tournaments.sweep_clocks"
FORGET_IDEMPOTENCY_KEYS = "tournaments.forget_idempotency_keys"
CLOSE_IDLE_TABLES = "tournaments.close_idle_tables"


# Serializes the first lookup: a thread that arrives while another is importing the task modules would
# otherwise find them half-imported and the task not yet registered (NotRegistered after a committed move).
_discovery = threading.Lock()


def _task(task_name: str) -> Task[Any, Any]:
    if task_name not in current_app.tasks:
        # Only a worker imports the task modules at start-up (web processes do in `prepare_publishing`);
        # elsewhere (a test, a shell) the first send lets the app's autodiscovery import them.
        with _discovery:
            if task_name not in current_app.tasks:
                current_app.loader.import_default_modules()
    return current_app.tasks[task_name]


# An in-process run (`multi_simulation`): messages are collected on this thread instead of sent.
_capture = threading.local()


@contextmanager
def captured() -> Iterator[list[tuple[str, list[Any]]]]:
    """Collect this thread's messages (task name, args) in the list yielded instead of sending them: an
    in-process driver runs the task bodies itself, in order. Nested use is refused."""
    if getattr(_capture, "queue", None) is not None:
        raise RuntimeError("messages are already captured on this thread")
    queue: list[tuple[str, list[Any]]] = []
    _capture.queue = queue
    try:
        yield queue
    finally:
        _capture.queue = None


def queue_for(table: Any) -> str | None:
    """The queue of a table's clock and deal messages: a practice table's go with its bots to their own queue
    (`RAMINO_PRACTICE_BOTS_QUEUE`, docs/operations.md "Queues"), so that no real table's clock or deal waits
    behind practice; None for every other table (the task's own route, the default queue)."""
    return queue_for_kind(practice=bool(getattr(table, "practice", False)))


def queue_for_kind(*, practice: bool) -> str | None:
    """`queue_for` when only the table's `practice` column was read (the sweeper's)."""
    return str(settings.RAMINO_PRACTICE_BOTS_QUEUE) if practice else None


def send(
    task_name: str, args: Sequence[Any], countdown: float | None = None, *, queue: str | None = None
) -> None:
    """Send now (outside any transaction's outcome: the sweeper re-sends what is already committed); `queue`
    overrides the task's route (`queue_for`)."""
    captured_messages = getattr(_capture, "queue", None)
    if captured_messages is not None:
        captured_messages.append((task_name, list(args)))
        return
    task = _task(task_name)
    options: dict[str, Any] = {} if queue is None else {"queue": queue}
    if countdown is None:
        task.apply_async(args=tuple(args), **options)
    else:
        task.apply_async(args=tuple(args), countdown=max(0.0, countdown), **options)


def enqueue(task_name: str, args: Sequence[Any], countdown: float, *, queue: str | None = None) -> None:
    """Send after the surrounding transaction commits (the task must see what we wrote)."""
    captured_messages = getattr(_capture, "queue", None)
    if captured_messages is not None:
        # Captured: collected at once (a driver runs each message after the transaction that sent it).
        captured_messages.append((task_name, list(args)))
        return
    transaction.on_commit(lambda: send(task_name, args, countdown, queue=queue))
