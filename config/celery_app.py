from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any

from celery import Celery, Task, signals

from database import faults

logger = logging.getLogger(__name__)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

# A task that fails with one of these did nothing and may succeed in a moment (database/faults.py).
TRANSIENT_ERRORS = faults.TRANSIENT_ERRORS


if TYPE_CHECKING:
    _TaskBase = Task[Any, Any]
else:  # Celery's Task is generic only in its type stubs
    _TaskBase = Task


class RetryTransient(_TaskBase):
    """Every task's base: a transient fault is a WARNING with its reason and a retry after 1, 2, 4, 8, 16 s
    (the tasks are idempotent, so running again is safe); one that outlasts the retries fails as any other
    exception does, logged by Celery as an ERROR. Alerts counting errors then count only real failures."""

    max_retries = 5

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except TRANSIENT_ERRORS as exc:
            retries = self.request.retries
            if self.request.called_directly or retries >= self.max_retries:
                raise
            countdown = 2**retries
            reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
            logger.warning(
                "task %s[%s]: transient fault (%s); retry %d of %d in %d s",
                self.name,
                self.request.id,
                reason,
                retries + 1,
                self.max_retries,
                countdown,
            )
            raise self.retry(exc=exc, countdown=countdown) from exc


@signals.setup_logging.connect(weak=False)
def _django_logging(loglevel: int | str | None = None, **kwargs: Any) -> None:
    """Workers and beat log as the web processes do (the settings' LOGGING: the request id on every line, JSON
    in production) instead of Celery's own format; connecting here keeps Celery from configuring its own. The
    command's --loglevel, when given, is the root level."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)


app = Celery("ramino", task_cls=RetryTransient)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def prepare_publishing(celery_app: Celery[Any] = app) -> None:
    """Load the broker's transport and open a pooled connection now, in a web process's start-up, rather
    than inside the first request that enqueues a task: lazily that request paid about 70 ms of imports on
    an idle machine and up to 0.7 s under load (docs/performance.md). A broker that is down is not an
    error here: the first publish reports it as it would have."""
    # The task registry and the result backend, otherwise built at the first send.
    celery_app.finalize(auto=True)
    celery_app.backend  # noqa: B018
    try:
        with celery_app.producer_pool.acquire(block=True, timeout=2) as producer:
            if producer.connection is not None:
                producer.connection.ensure_connection(max_retries=1)
            producer.maybe_declare(celery_app.amqp.queues[celery_app.conf.task_default_queue])
    except Exception as exc:
        logger.warning("broker not reachable at start-up: %s", exc)
