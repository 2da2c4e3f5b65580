import logging
import os

from celery import Celery

logger = logging.getLogger(__name__)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("ramino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def prepare_publishing(celery_app: Celery = app) -> None:
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
