from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OperationsConfig(AppConfig):
    name = "operations"
    verbose_name = _("Operations")

    def ready(self) -> None:
        # The Celery signal handlers: request ids into tasks, task latency and failures (every process that
        # loads Django connects them; a web process publishes, a worker runs).
        from operations import celery_signals

        celery_signals.connect()
