"""Celery's signals: a task carries the request id of whoever enqueued it and the time it was published, and
every task's queue wait, run time, retries and failures are counted (`operations.metrics`).

- `before_task_publish` (the publishing process: a web request, a task, beat): the current request id and the
  publication time go into the message's headers;
- `task_prerun` (the worker): the request id becomes the current one for the task's log lines (the task's own id
  when it was enqueued outside any request, e.g. by beat) and the queue wait is observed: from the publication,
  or from the task's ETA when it had one (a turn clock is not late for having waited its countdown);
- `task_postrun`: the run time; the request id is put back;
- `task_failure`, `task_retry`: counted by task name.

Each handler swallows its own faults: a metric never fails a task."""

from __future__ import annotations

import logging
import os
import time
from datetime import datetime
from typing import Any

from celery import signals

from operations import metrics, request_id

logger = logging.getLogger(__name__)

PUBLISHED_HEADER = "ramino_published_at"

# task id -> (the request id's context token, the monotonic start): the worker's task_prerun and task_postrun
# run in the same thread of the same process.
_running: dict[str, tuple[Any, float]] = {}


def _name(task: Any, sender: Any = None) -> str:
    return str(getattr(task, "name", None) or sender or "unknown")


def before_task_publish(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    if headers is None:
        return
    current = request_id.current()
    if current is not None:
        headers.setdefault(request_id.TASK_HEADER, current)
    headers.setdefault(PUBLISHED_HEADER, time.time())


def _started_after(task_request: Any) -> float | None:
    """The wall-clock time from which the task was due: its ETA when it had one, else its publication."""
    published = getattr(task_request, PUBLISHED_HEADER, None)
    due = float(published) if isinstance(published, int | float) else None
    eta = getattr(task_request, "eta", None)
    if eta:
        try:
            eta_ts = (eta if isinstance(eta, datetime) else datetime.fromisoformat(str(eta))).timestamp()
        except ValueError:
            eta_ts = None
        if eta_ts is not None:
            due = eta_ts if due is None else max(due, eta_ts)
    return due


def task_prerun(task_id: str | None = None, task: Any = None, **kwargs: Any) -> None:
    try:
        task_request = getattr(task, "request", None)
        carried = getattr(task_request, request_id.TASK_HEADER, None)
        # Eager tasks (no message) run inside their caller's request: they keep its id.
        rid = carried if request_id.valid(carried) else (request_id.current() or task_id)
        token = request_id.activate(rid)
        if task_id is not None:
            _running[task_id] = (token, time.monotonic())
        if task_request is not None and not getattr(task_request, "is_eager", False):
            due = _started_after(task_request)
            if due is not None:
                metrics.TASK_QUEUE_WAIT.labels(_name(task)).observe(max(0.0, time.time() - due))
    except Exception:  # a metric never fails a task
        logger.exception("task_prerun metrics")


def task_postrun(task_id: str | None = None, task: Any = None, **kwargs: Any) -> None:
    try:
        started = _running.pop(task_id, None) if task_id is not None else None
        if started is None:
            return
        token, began = started
        metrics.TASK_RUN.labels(_name(task)).observe(time.monotonic() - began)
        request_id.deactivate(token)
    except Exception:
        logger.exception("task_postrun metrics")


def task_failure(sender: Any = None, **kwargs: Any) -> None:
    metrics.TASK_FAILURES.labels(_name(sender)).inc()


def task_retry(sender: Any = None, **kwargs: Any) -> None:
    metrics.TASK_RETRIES.labels(_name(sender)).inc()


def worker_process_shutdown(**kwargs: Any) -> None:
    """A pool process that exits takes its share of the live gauges with it (multiprocess mode)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


def connect() -> None:
    """Connect every handler (weakly held by Celery otherwise: these are module functions, kept alive)."""
    signals.before_task_publish.connect(before_task_publish, weak=False, dispatch_uid="ramino.publish")
    signals.task_prerun.connect(task_prerun, weak=False, dispatch_uid="ramino.prerun")
    signals.task_postrun.connect(task_postrun, weak=False, dispatch_uid="ramino.postrun")
    signals.task_failure.connect(task_failure, weak=False, dispatch_uid="ramino.failure")
    signals.task_retry.connect(task_retry, weak=False, dispatch_uid="ramino.retry")
    signals.worker_process_shutdown.connect(
        worker_process_shutdown, weak=False, dispatch_uid="ramino.shutdown"
    )
