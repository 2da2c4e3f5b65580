"""Suite-wide fixtures: the services the suite needs, and a real Celery worker.

The suite runs on PostgreSQL with a real broker. When either is unreachable the run stops with an
error instead of skipping (CI sets CI=true; the same holds on a laptop).

The SQLite leg (`make pytest-sqlite`): on SQLite, the embedded default, only the tests marked `sqlite` run
(tests/sqlite, collected on SQLite only): the flows from registration to payout and the SQLite side of every
`connection.vendor` branch, with the tasks' bodies run in the test's process (no broker, no worker). A run on
SQLite that selects any other test stops at once, as one on PostgreSQL without PostgreSQL does.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.api.conformance import Recording, check_answers, published_schema, record_answers, summary

# A shared, slow 2-core CI box: no per-example deadline; example counts are set per test.
hypothesis_settings.register_profile(
    "ramino", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
hypothesis_settings.load_profile("ramino")

ROOT = Path(__file__).resolve().parent.parent


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=3
        ).close()
    except OSError:
        return False
    return True


# Django's backends, or the same under django-prometheus' wrapper (config/settings/base.py).
SQLITE_ENGINES = ("django.db.backends.sqlite3", "django_prometheus.db.backends.sqlite3")
POSTGRESQL_ENGINES = ("django.db.backends.postgresql", "django_prometheus.db.backends.postgresql")
SQLITE_TESTS = ROOT / "tests" / "sqlite"


def on_sqlite() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"] in SQLITE_ENGINES)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite: runs in the SQLite leg (make pytest-sqlite) as well as on PostgreSQL"
    )


# Under pytest-xdist (`make pytest`: `-n N --dist loadgroup`) the tests spread one by one over the processes,
# each with its own test database, Celery queue and worker, and live servers on free ports. These run in one
# process each, one after another: the browser tests (one headless Chromium at a time beside the rest of the
# suite), the schemathesis fuzz, and the modules that share a server started once for the module.
XDIST_GROUPS = {
    "tests/browser/": "browser",
    "tests/api/test_fuzz.py": "fuzz",
    "tests/api/test_gunicorn_limits.py": "gunicorn-limits",
    "tests/operations/test_processes.py": "processes",
}


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for prefix, group in XDIST_GROUPS.items():
            if item.nodeid.startswith(prefix) and item.get_closest_marker("xdist_group") is None:
                item.add_marker(pytest.mark.xdist_group(group))


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    # tests/sqlite checks the SQLite side of the vendor branches: it has nothing to say on PostgreSQL.
    if collection_path == SQLITE_TESTS and not on_sqlite():
        return True
    return None


def pytest_collection_finish(session: pytest.Session) -> None:
    if not on_sqlite():
        return
    others = [item.nodeid for item in session.items if item.get_closest_marker("sqlite") is None]
    if others:
        pytest.exit(
            f"On SQLite only the tests marked `sqlite` run (make pytest-sqlite); {len(others)} selected are "
            f"not, e.g. {others[0]}. The rest of the suite runs on PostgreSQL: make pytest.",
            returncode=3,
        )
    if not session.items:
        pytest.exit("The SQLite leg selected no test.", returncode=3)


def pytest_sessionstart(session: pytest.Session) -> None:
    db = settings.DATABASES["default"]
    if db["ENGINE"] in SQLITE_ENGINES:
        # The SQLite leg: its tests run the tasks' bodies in process and need no broker.
        return
    if db["ENGINE"] not in POSTGRESQL_ENGINES:
        pytest.exit(
            "The test suite runs on PostgreSQL: set DATABASE_URL=postgres://... (make test does).",
            returncode=3,
        )
    if not _reachable(f"postgres://{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}", 5432):
        pytest.exit(f"PostgreSQL is not reachable at {db.get('HOST')}:{db.get('PORT')}.", returncode=3)
    broker = settings.CELERY_BROKER_URL
    default_port = 5672 if broker.startswith("amqp") else 6379
    if broker.startswith(("filesystem", "memory")) or not _reachable(broker, default_port):
        pytest.exit(
            f"The test suite needs a real, reachable broker; CELERY_BROKER_URL={broker!r}.", returncode=3
        )


def worker_env(database_name: str) -> dict[str, str]:
    """Environment for a subprocess (worker, gunicorn) that must use the test database and queue."""
    db = settings.DATABASES["default"]
    user = db.get("USER") or "postgres"
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=f"postgres://{user}@{host}:{port}/{database_name}",
        CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
        CELERY_TASK_DEFAULT_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
        RAMINO_PRACTICE_BOTS_QUEUE=settings.RAMINO_PRACTICE_BOTS_QUEUE,
        PYTHONUNBUFFERED="1",
    )
    return env


class CeleryWorker:
    """A real `celery worker` process consuming this session's queue (or `queue`, e.g. the bots' own)."""

    def __init__(
        self, env: dict[str, str], log_path: Path, *, queue: str | None = None, concurrency: int = 2
    ) -> None:
        self.env = env
        self.log_path = log_path
        self.queue = queue or env["CELERY_TASK_DEFAULT_QUEUE"]
        self.concurrency = concurrency
        self.process: subprocess.Popen[bytes] | None = None
        self.node = ""

    def start(self) -> None:
        # A node name of this start alone: `kill` reaps this worker's children by it, never the other worker
        # of the same test process (the bots' beside the main one, which a crash test must leave running).
        self.node = f"test-{os.getpid()}-{time.monotonic_ns()}"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--loglevel=INFO",
                f"--concurrency={self.concurrency}",
                "--pool=prefork",
                "-Q",
                self.queue,
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"{self.node}@%h",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self._wait_ready()

    def _wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"celery worker exited early; see {self.log_path}")
            if b"ready." in self.log_path.read_bytes():
                return
            time.sleep(0.2)
        raise RuntimeError(f"celery worker not ready after {timeout}s; see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)
            # prefork children die with the parent's pipe; reap any that linger
            subprocess.run(["pkill", "-9", "-f", f"{self.node}@"], check=False)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="session", autouse=True)
def _flush_outlasts_a_deadlock() -> Iterator[None]:
    """Transactional tests end with a TRUNCATE of every table, which takes its locks one table after
    another; a task of the suite's Celery worker that fires meanwhile (a turn clock armed by an earlier
    test) can hold one of them while waiting for another, and PostgreSQL then cancels one side. The
    flush runs in a transaction that the deadlock rolls back, so it is simply run again."""
    from django.db.backends.base.operations import BaseDatabaseOperations
    from django.db.utils import OperationalError

    original = BaseDatabaseOperations.execute_sql_flush

    def execute_sql_flush(self: BaseDatabaseOperations, sql_list: Iterable[str]) -> None:
        for attempt in range(5):
            try:
                return original(self, list(sql_list))
            except OperationalError as exc:
                if "deadlock detected" not in str(exc) or attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    BaseDatabaseOperations.execute_sql_flush = execute_sql_flush  # type: ignore[method-assign]
    yield
    BaseDatabaseOperations.execute_sql_flush = original  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None) -> Iterator[None]:
    """pytest-django's, plus: the long-poll's listener connection is closed before the test database is
    dropped."""
    yield
    from tournaments.live import wakeups

    wakeups.stop_current_hub()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: None, django_db_blocker: object) -> Iterator[CeleryWorker]:
    """A real Celery worker on the test database, and beside it one on the practice bots' queue (as
    deployed: docs/operations.md "Queues"). Tests using it must commit (transactional_db)."""
    from django.db import connection

    # The workers' metrics (queue waits, run times) in files a test can read (prometheus_client's multiprocess
    # mode, as in production): tests/tournaments/test_practice_load.py reads the turn clocks' queue waits.
    metrics = ROOT / "var" / f"test-worker-metrics-{os.getpid()}"
    shutil.rmtree(metrics, ignore_errors=True)
    metrics.mkdir(parents=True)
    env = dict(worker_env(connection.settings_dict["NAME"]), PROMETHEUS_MULTIPROC_DIR=str(metrics))
    worker = CeleryWorker(env, ROOT / "var" / f"test-worker-{os.getpid()}.log")
    # Its own metrics folder: the main worker's tell the real tables' waits apart from practice's.
    (metrics / "bots").mkdir()
    bots = CeleryWorker(
        dict(env, PROMETHEUS_MULTIPROC_DIR=str(metrics / "bots")),
        ROOT / "var" / f"test-worker-bots-{os.getpid()}.log",
        queue=settings.RAMINO_PRACTICE_BOTS_QUEUE,
        concurrency=1,
    )
    worker.start()
    bots.start()
    yield worker
    bots.stop()
    worker.stop()
    shutil.rmtree(metrics, ignore_errors=True)


@pytest.fixture(scope="session")
def published_spec() -> dict[str, Any]:
    """The OpenAPI schema as `/api/schema/` publishes it."""
    return published_schema()


@pytest.fixture
def answers_conform(published_spec: dict[str, Any], request: pytest.FixtureRequest) -> Iterator[Recording]:
    """Every answer the API gives during the test (test client or live server) is checked, at its end,
    against the published schema of its operation and status (tests.api.conformance). A test marked
    `off_contract` fakes an answer the server cannot give (a throttle on an unthrottled view) and is not."""
    from django.core.handlers.base import BaseHandler

    recording = Recording()
    if request.node.get_closest_marker("off_contract") is not None:
        yield recording
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BaseHandler, "get_response", record_answers(recording))
        yield recording
    _checked, found = check_answers(published_spec, recording.answers)
    assert not found, "answers that differ from the published schema:\n" + summary(found)


@pytest.fixture(autouse=True)
def _answers_conform(answers_conform: Recording) -> None:
    """Every answer any test receives (the end-to-end runs' included) is checked against the published
    schema: the suite's several thousand requests are the conformance test."""


@pytest.fixture(autouse=True)
def _language_does_not_outlive_its_test() -> Iterator[None]:
    """A test that activates a language (an Italian request handled in process, `translation.activate`) must not
    leave it to the next test of the same process: with the suite spread over processes (pytest-xdist), which
    test comes next differs from run to run, and a number formatted "9.600" instead of "9,600" would fail there."""
    from django.utils import translation

    yield
    translation.deactivate()
