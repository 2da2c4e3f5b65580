"""What a transient fault is: one that did nothing and may not happen again in a moment (the database restarting
or a connection cut, a lock or deadlock timeout, the broker away while a task sends its successor). Every task's
base retries them (config/celery_app.py) and live play's round start tells them from its own failures; kept
here, at the bottom, so that neither imports the other (nothing below `config` imports it)."""

from __future__ import annotations

import kombu.exceptions
from django.db import InterfaceError, OperationalError

TRANSIENT_ERRORS: tuple[type[Exception], ...] = (
    OperationalError,
    InterfaceError,
    kombu.exceptions.OperationalError,
)
