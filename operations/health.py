"""Liveness and readiness probes (`/health/`, `/ready/`; docs/operations.md).

The broker is reached through Celery's current app, the project's (`config/celery_app.py`, made current when
the `config` package loads), so that nothing below `config` imports it.
"""

from celery import current_app as celery_app
from django.db import connection
from django.http import HttpRequest, JsonResponse

from api.exceptions import log_handled_fault


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _database_ok() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means not ready
        return False, type(exc).__name__
    return True, "ok"


def _broker_ok() -> tuple[bool, str]:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            # Virtual transports (Redis) connect lazily: opening a channel makes them talk to the server.
            _channel = conn.default_channel
    except Exception as exc:  # any transport error means not ready
        return False, type(exc).__name__
    return True, "ok"


def ready(request: HttpRequest) -> JsonResponse:
    db_ok, db_detail = _database_ok()
    broker_ok, broker_detail = _broker_ok()
    ok = db_ok and broker_ok
    response = JsonResponse(
        {"status": "ok" if ok else "unavailable", "database": db_detail, "broker": broker_detail},
        status=200 if ok else 503,
    )
    if not ok:
        # Not ready is an answer, not a failure of this service: probes repeat it every few seconds.
        log_handled_fault(
            response, request, reason=f"not ready: database {db_detail}, broker {broker_detail}"
        )
    return response
