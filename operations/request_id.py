"""The request id: one per web request (the client's `X-Request-ID` when it is a valid one, else a new one),
carried into the Celery tasks the request enqueues and into every log line written on its behalf.

Imports nothing of the project. A context variable holds the current id: the web middleware sets it for a request,
the Celery signal handlers for a task (`operations.celery_signals`), the log filter reads it."""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar, Token

HEADER = "X-Request-ID"
# A Celery message header of our own (Celery keeps a message's custom headers on the task's request).
TASK_HEADER = "ramino_request_id"
# What a client may send: letters, digits and . _ : - (UUIDs, trace ids), at most 128 characters; anything else
# is replaced by a new id rather than copied into every log line.
_VALID = re.compile(r"[A-Za-z0-9._:-]{1,128}")

_current: ContextVar[str | None] = ContextVar("ramino_request_id", default=None)


def new() -> str:
    return uuid.uuid4().hex


def valid(value: str | None) -> bool:
    return value is not None and _VALID.fullmatch(value) is not None


def current() -> str | None:
    return _current.get()


def activate(value: str | None) -> Token[str | None]:
    return _current.set(value)


def deactivate(token: Token[str | None]) -> None:
    _current.reset(token)


class RequestIdFilter(logging.Filter):
    """Gives every record a `request_id` attribute ("-" outside a request or a task), for the formatters. Django
    logs a request's 4xx and 5xx (`django.request`) once the middleware has returned: those records carry the
    request, whose id the middleware left on it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            rid = _current.get() or getattr(getattr(record, "request", None), "request_id", None)
            record.request_id = rid or "-"
        return True
