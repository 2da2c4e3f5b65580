"""The text `/metrics` answers: every process's metrics (one process's, or, in multiprocess mode, those of
every process writing to PROMETHEUS_MULTIPROC_DIR) followed by the gauges read from the database."""

from __future__ import annotations

import os

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess

from operations.collectors import DatabaseCollector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def render() -> bytes:
    database = CollectorRegistry(auto_describe=False)
    database.register(DatabaseCollector())
    if multiprocess_dir():
        processes = CollectorRegistry(auto_describe=False)
        multiprocess.MultiProcessCollector(processes)  # type: ignore[no-untyped-call]
    else:
        processes = REGISTRY
    return generate_latest(processes) + generate_latest(database)
