"""The production shape on this machine: gunicorn (two worker processes) and a Celery worker (two pool
processes) writing their metrics into one PROMETHEUS_MULTIPROC_DIR, logging JSON lines.

A request that enqueues a task (staff queue a reconciliation) carries its X-Request-ID into the task: the worker's
log lines of that task carry the same id. The web process's /metrics adds up every process of the directory, the
worker's task latency included."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from django.contrib.auth import get_user_model

from accounts.services import create_token
from ledger.models import ReconciliationRun, ReconciliationStatus
from tests.conftest import ROOT, CeleryWorker, worker_env
from tests.operations.scrape import parse, value

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

HOST = "127.0.0.1"
TASK = "ledger.perform_reconciliation_run"


@dataclass
class Stack:
    base: str
    web_log: Path
    worker_log: Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def stack(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    from django.db import connection

    folder = tmp_path_factory.mktemp("processes")
    metrics_dir = folder / "metrics"
    metrics_dir.mkdir()
    port = _free_port()
    env = dict(
        worker_env(connection.settings_dict["NAME"]),
        # A queue of their own: the suite's shared worker must not take this web process's tasks.
        CELERY_TASK_DEFAULT_QUEUE=f"ramino-test-processes-{uuid.uuid4().hex[:8]}",
        PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
        RAMINO_LOG_FORMAT="json",
        GUNICORN_BIND=f"{HOST}:{port}",
        GUNICORN_WORKERS="2",
        GUNICORN_THREADS="2",
        GUNICORN_LOG_LEVEL="warning",
    )
    env.pop("GUNICORN_CONTROL_SOCKET", None)
    worker = CeleryWorker(env, folder / "worker.log")
    worker.start()
    web_log = folder / "web.log"
    with web_log.open("wb") as log:
        web = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                str(ROOT / "deploy" / "gunicorn.conf.py"),
                "config.wsgi",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if web.poll() is not None:
                raise RuntimeError(f"gunicorn exited early:\n{web_log.read_text()[-3000:]}")
            try:
                if requests.get(f"{base}/health/", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer:\n{web_log.read_text()[-3000:]}")
            time.sleep(0.3)
        yield Stack(base=base, web_log=web_log, worker_log=worker.log_path)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(web.pid, signal.SIGTERM)
        try:
            web.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(web.pid, signal.SIGKILL)
            web.wait(timeout=10)
        worker.stop()


def _json_lines(path: Path) -> list[dict[str, Any]]:
    """The log's JSON lines (Celery's start-up banner is printed, not logged)."""
    found = []
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            found.append(json.loads(line))
    return found


def _scrape(base: str) -> dict[Any, float]:
    answer = requests.get(f"{base}/metrics", timeout=10)
    assert answer.status_code == 200, answer.text
    return parse(answer.text)


def test_a_request_id_reaches_the_task_it_enqueues_and_the_worker_s_metrics_reach_metrics(
    stack: Stack,
) -> None:
    staff = get_user_model().objects.create_user("ops-staff", password="pw-ops-123456", is_staff=True)
    _, token = create_token(user=staff)
    rid = f"test-{uuid.uuid4().hex}"
    answer = requests.post(
        f"{stack.base}/api/v1/ledger/reconciliation/runs/",
        headers={"Authorization": f"Token {token}", "X-Request-ID": rid, "Idempotency-Key": uuid.uuid4().hex},
        timeout=20,
    )
    assert answer.status_code == 202, answer.text
    assert answer.headers["X-Request-ID"] == rid
    run_id = answer.json()["id"]
    deadline = time.monotonic() + 60
    while ReconciliationRun.objects.get(pk=run_id).status != ReconciliationStatus.FINISHED:
        assert time.monotonic() < deadline, stack.worker_log.read_text()[-3000:]
        time.sleep(0.2)

    # The worker's lines of that task: JSON, with the request's id (the service's own line among them).
    deadline = time.monotonic() + 10
    while True:
        mine = [line for line in _json_lines(stack.worker_log) if line.get("request_id") == rid]
        if (
            any(line["logger"] == "ledger.services.reconciliation" for line in mine)
            or time.monotonic() > deadline
        ):
            break
        time.sleep(0.2)
    assert any(
        line["logger"] == "ledger.services.reconciliation"
        and f"reconciliation run {run_id}:" in line["message"]
        for line in mine
    ), stack.worker_log.read_text()[-3000:]
    for line in mine:
        assert {"time", "level", "logger", "message", "request_id", "process"} <= set(line)

    # Whichever gunicorn worker answers, /metrics adds up every process: the Celery worker's task included.
    for _ in range(4):
        samples = _scrape(stack.base)
        assert value(samples, "ramino_celery_task_run_seconds_count", task=TASK) >= 1
        assert value(samples, "ramino_celery_task_queue_wait_seconds_count", task=TASK) >= 1
        assert value(samples, "ramino_reconciliation_ok") == 1
        assert value(samples, "django_http_responses_total_by_status_total", status="202") >= 1


def test_an_invalid_request_id_is_replaced_and_the_web_log_is_json(stack: Stack) -> None:
    answer = requests.get(
        f"{stack.base}/api/v1/no-such-thing/", headers={"X-Request-ID": "a b\tc"}, timeout=10
    )
    assert answer.status_code == 404
    rid = answer.headers["X-Request-ID"]
    assert rid != "a b\tc" and len(rid) == 32 and int(rid, 16) >= 0
    deadline = time.monotonic() + 10
    while True:
        lines = [line for line in _json_lines(stack.web_log) if line.get("request_id") == rid]
        if lines or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    (line,) = lines
    assert line["level"] == "WARNING" and line["logger"] == "django.request"
    assert "/api/v1/no-such-thing/" in line["message"]
