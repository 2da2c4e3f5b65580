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
from collections.abc import Iterable, Iterator, Sequence
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
    from django.test import testcases

    # Django's live server (pytest-django's `live_server`) writes a response's status line, headers and body in
    # separate sends with Nagle's algorithm on, so on a kept-alive connection (requests' sessions, Chromium,
    # schemathesis) each response waited for the client's delayed ACK: 44 ms a GET against 1.5 ms with
    # TCP_NODELAY (200 requests through Django's ThreadedWSGIServer and handler, 7 December 2026). gunicorn
    # sets TCP_NODELAY on its sockets and uvicorn's asyncio transports do, so the site itself never waited.
    testcases.QuietWSGIRequestHandler.disable_nagle_algorithm = True


# Under pytest-xdist (`make pytest`: `-n N --dist loadgroup`) the tests spread one by one over the processes,
# each with its own test database, Celery queue and worker, and live servers on free ports. These run in one
# process each, one after another: the browser tests (one headless Chromium at a time beside the rest of the
# suite; split in two groups they made the run no shorter, 7 December 2026: the processes are busy to the end
# either way), the schemathesis fuzz, and the modules that share a server started once for the module.
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
def _quick_flush() -> Iterator[None]:
    """Transactional tests end with a flush of every table. Django's is one `TRUNCATE` of all 66, about 0.5-1 s
    (each table and index gets a new file), although a test leaves rows in a handful: here, on PostgreSQL, the
    tables with rows are found (one query, 2-5 ms) and emptied with `DELETE` (docs/performance.md "Test suite").
    The append-only triggers refuse a `DELETE`; `session_replication_role = replica` (a superuser's setting,
    for this transaction only) lets the flush through without them or the foreign keys' checks, and every table
    ends empty either way. Without a superuser, or when a test asks for its sequences reset, Django's own.

    A flush may meet a task of the suite's Celery worker that fires meanwhile (a turn clock armed by an earlier
    test) and PostgreSQL cancels one side of the deadlock: the flush, one transaction, is simply run again."""
    from django.db.backends.base.operations import BaseDatabaseOperations
    from django.db.backends.postgresql.operations import DatabaseOperations
    from django.db.utils import OperationalError

    original_execute = BaseDatabaseOperations.execute_sql_flush
    original_sql = DatabaseOperations.sql_flush

    flushes = 0

    def execute_sql_flush(self: BaseDatabaseOperations, sql_list: Iterable[str]) -> None:
        nonlocal flushes
        statements = list(sql_list)
        for attempt in range(5):
            try:
                original_execute(self, statements)
                break
            except OperationalError as exc:
                if "deadlock detected" not in str(exc) or attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))
        flushes += 1
        # A DELETE leaves dead rows, and this machine's PostgreSQL runs no autovacuum: every 25 flushes a VACUUM
        # (0.1-0.2 s on the test database) keeps the tables as small as a TRUNCATE leaves them.
        if _PAST_TRIGGERS in statements and flushes % 25 == 0 and not self.connection.in_atomic_block:
            with self.connection.cursor() as cursor:
                cursor.execute("VACUUM")

    def sql_flush(
        self: BaseDatabaseOperations,
        style: Any,
        tables: Sequence[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or not tables or not _superuser(self.connection):
            return original_sql(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        quote = self.quote_name
        probe = " UNION ALL ".join(
            f"SELECT {index} WHERE EXISTS (SELECT 1 FROM {quote(table)})"
            for index, table in enumerate(tables)
        )
        with self.connection.cursor() as cursor:
            cursor.execute(probe)
            filled = [tables[row[0]] for row in cursor.fetchall()]
        if not filled:
            return []
        return [_PAST_TRIGGERS] + [f"DELETE FROM {quote(t)}" for t in filled]

    BaseDatabaseOperations.execute_sql_flush = execute_sql_flush  # type: ignore[method-assign]
    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
    yield
    BaseDatabaseOperations.execute_sql_flush = original_execute  # type: ignore[method-assign]
    DatabaseOperations.sql_flush = original_sql  # type: ignore[method-assign]


_SUPERUSER: dict[str, bool] = {}  # by connection alias
# The quick flush's first statement: it also tells the flush's runner that the flush deleted rows.
_PAST_TRIGGERS = "SET LOCAL session_replication_role = replica"


def _superuser(connection: Any) -> bool:
    if connection.alias not in _SUPERUSER:
        with connection.cursor() as cursor:
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            row = cursor.fetchone()
        _SUPERUSER[connection.alias] = bool(row and row[0])
    return _SUPERUSER[connection.alias]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's, plus: commits to the test database do not wait for the disk, and the long-poll's
    listener connection is closed before the test database is dropped.

    `synchronous_commit = off` is set on the test database itself (every new connection to it takes it: the
    tests', the Celery worker's, the live servers'), never on the server or another database. A commit is
    still atomic and seen at once by every other session; only a crash of PostgreSQL itself could lose the
    last few, which no test does. On this machine a commit then takes 0.6 ms instead of 9-11 ms, and the
    transactional tests, the worker and the live servers commit thousands of times."""
    from django.db import connection, connections

    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            name = connection.ops.quote_name(connection.settings_dict["NAME"])
            cursor.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
        connections.close_all()  # the next connections open with it
    yield
    from tournaments.live.messaging import wakeups

    wakeups.stop_current_hub()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: None, django_db_blocker: object) -> Iterator[CeleryWorker]:
    """A real Celery worker on the test database, and beside it one on the practice bots' queue (as
    deployed: docs/operations.md "Queues"). Tests using it must commit (transactional_db)."""
    from django.db import connection

    # The workers' metrics (queue waits, run times) in files a test can read (prometheus_client's multiprocess
    # mode, as in production): tests/tournaments/practice/test_load.py reads the turn clocks' queue waits.
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
