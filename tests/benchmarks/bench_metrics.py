"""What the metrics cost a move: the CPU time of each piece the metrics add to `POST /games/{id}/moves/`, measured
in one process with and without it, interleaved (so that a busy machine slows both alike), best of --repeat.

    DATABASE_URL=postgres://... python -m tests.benchmarks.bench_metrics                # one process's metrics
    PROMETHEUS_MULTIPROC_DIR=$(mktemp -d) DATABASE_URL=... python -m tests.benchmarks.bench_metrics   # production's

- the request: the request id middleware and django-prometheus' two middlewares around a view that does nothing;
- a query: `SELECT 1` through django-prometheus' cursor (counted and timed) against psycopg's own cursor on the
  same connection; a move makes 4 queries (docs/performance.md, "HTTP API": SQL queries per request);
- the move's own counter: `ramino_moves_accepted_total`.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django

django.setup()

import psycopg  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django_prometheus.middleware import PrometheusAfterMiddleware, PrometheusBeforeMiddleware  # noqa: E402

from operations import metrics  # noqa: E402
from operations.middleware import RequestIdMiddleware  # noqa: E402

QUERIES_PER_MOVE = 4


def _cpu_us(fn: Callable[[], object], n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - start) / n * 1e6


def _best_pair(a: Callable[[], object], b: Callable[[], object], n: int, repeat: int) -> tuple[float, float]:
    best_a = best_b = float("inf")
    for _ in range(repeat):
        best_a = min(best_a, _cpu_us(a, n))
        best_b = min(best_b, _cpu_us(b, n))
    return best_a, best_b


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse(b"{}", content_type="application/json")

    wrapped = RequestIdMiddleware(PrometheusBeforeMiddleware(PrometheusAfterMiddleware(view)))
    factory = RequestFactory()
    request = factory.post("/api/v1/games/1/moves/", data=b"{}", content_type="application/json")
    bare_us, mw_us = _best_pair(lambda: view(request), lambda: wrapped(request), args.n, args.repeat)

    connection.ensure_connection()
    raw = connection.connection
    assert raw is not None

    def plain_query() -> None:
        with psycopg.Cursor(raw) as cursor:
            cursor.execute("SELECT 1")

    def counted_query() -> None:
        with (
            raw.cursor() as cursor
        ):  # the connection's cursor factory: django-prometheus' ExportingCursorWrapper
            cursor.execute("SELECT 1")

    plain_us, counted_us = _best_pair(plain_query, counted_query, args.n // 5, args.repeat)
    counter_us = min(_cpu_us(metrics.move_accepted, args.n * 4) for _ in range(args.repeat))

    mode = "multiprocess" if os.environ.get("PROMETHEUS_MULTIPROC_DIR") else "one process"
    per_move = (mw_us - bare_us) + QUERIES_PER_MOVE * (counted_us - plain_us) + counter_us
    print(f"metrics mode: {mode}")
    print(f"middleware: {bare_us:.1f} -> {mw_us:.1f} us per request (+{mw_us - bare_us:.1f})")
    print(f"query: {plain_us:.1f} -> {counted_us:.1f} us CPU per SELECT 1 (+{counted_us - plain_us:.1f})")
    print(f"counter: {counter_us:.2f} us per move")
    print(f"added per move ({QUERIES_PER_MOVE} queries): {per_move:.0f} us of CPU")


if __name__ == "__main__":
    main()
