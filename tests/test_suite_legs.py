"""The suite's two legs (tests/conftest.py): on SQLite only the tests marked `sqlite` run, and the SQLite leg's
settings do not let a PostgreSQL run pass without PostgreSQL or without a real broker. Each case is a pytest
of its own, stopped at the session's start."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_each_leg_stops_at_once_without_what_it_needs(tmp_path: Path) -> None:
    port = _closed_port()
    cases = {
        # An unmarked test on SQLite.
        "only the tests marked `sqlite`": ("sqlite:///" + str(tmp_path / "x.sqlite3"), "memory://", []),
        # The SQLite leg's selection on PostgreSQL that is not there.
        "PostgreSQL is not reachable": (
            f"postgres://postgres@127.0.0.1:{port}/x",
            "redis://127.0.0.1:6379/0",
            ["-m", "sqlite"],
        ),
        # The SQLite leg's broker on PostgreSQL.
        "needs a real, reachable broker": (os.environ["DATABASE_URL"], "memory://", ["-m", "sqlite"]),
    }
    runs = {}
    for expected, (database, broker, args) in cases.items():
        env = {**os.environ, "DATABASE_URL": database, "CELERY_BROKER_URL": broker, "CI": "true"}
        runs[expected] = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args, "tests/test_db_json.py"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
    for expected, run in runs.items():
        out, _ = run.communicate(timeout=240)
        text = out.decode()
        assert run.returncode == 3, (expected, run.returncode, text[-2000:])
        assert expected in text, (expected, text[-2000:])


def test_each_parallel_process_has_a_queue_of_its_own() -> None:
    """`make pytest` runs the suite in pytest-xdist processes (gw0, gw1, ...): each reads the test settings
    on its own and gets its own Celery queue (and so its own worker), named with the process's name."""
    env = {k: v for k, v in os.environ.items() if k != "CELERY_TASK_DEFAULT_QUEUE"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    script = "from django.conf import settings; print(settings.CELERY_TASK_DEFAULT_QUEUE)"
    names = {
        worker: subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**env, "PYTEST_XDIST_WORKER": worker},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for worker in ("gw0", "gw1")
    }
    assert names["gw0"] != names["gw1"], names
    assert all(name.startswith(f"ramino-test-{worker}-") for worker, name in names.items()), names
