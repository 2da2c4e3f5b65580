"""Test settings: PostgreSQL and a real broker unless the environment says otherwise."""

import copy
import os

from .base import *  # noqa: F403
from .base import env

DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY", default="test-only-insecure-key")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {
        **REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],  # noqa: F405
        "auth": "10000/min",
        "practice": "10000/min",
        "practice_address": "10000/min",
        "demo": "10000/min",
        "table_create_user": "10000/min",
        "table_create_address": "10000/min",
        "replay": "10000/min",
        "play_now": "10000/min",
    },
}
# A second connection alias to the same test database, as a read replica would be (Django's test mirror): the
# replica router's tests send the lobby's reads to it (tests/test_replica_router.py); off unless a test names it.
DATABASES["replica"] = {**copy.deepcopy(DATABASES["default"]), "TEST": {"MIRROR": "default"}}  # noqa: F405
RAMINO_LOBBY_READS_DB = "default"
# The SQLite leg's test database is a file beside DATABASE_URL's (one per xdist process), as the embedded default's
# is, not Django's shared-cache memory database: shared cache locks whole tables and refuses a read that meets
# another thread's write at once ("database table is locked", whatever the busy timeout), where a file waits
# its busy timeout (SQLITE_OPTIONS): the live socket's threads write presence while the test reads it.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    _sqlite_name = str(DATABASES["default"]["NAME"])  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": f"{_sqlite_name}.test{os.environ.get('PYTEST_XDIST_WORKER', '')}"
    }
    # A commit of the throwaway test database does not wait for the disk (0.2 ms instead of 5-10 ms here): as
    # atomic and as visible to the other connections as before; only a crash of the machine could lose it.
    DATABASES["default"]["OPTIONS"] = {  # noqa: F405
        **DATABASES["default"].get("OPTIONS", {}),  # noqa: F405
        "init_command": "PRAGMA synchronous=OFF",
    }
# As for the throttle: tests that exercise lockouts set their own limits (tests/test_lockout.py).
RAMINO_LOCKOUT_USER_FAILURES = 10_000
RAMINO_LOCKOUT_ADDRESS_FAILURES = 10_000
# Static files straight from the apps (no collectstatic before the suite), as `make run` does with DEBUG on.
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = None

# Each test session gets a queue of its own so that a worker started by the suite never picks up
# messages left in the broker by an earlier run. Under pytest-xdist (`make pytest` runs the suite in parallel
# processes) each process is a session of its own, with its own test database (`test_<name>_gw0`, ...), queue
# (named with the process's name) and worker. A queue named by the environment is used as it is: that is how
# the suite's worker and servers, started as subprocesses, share their session's queue.
import uuid  # noqa: E402

_SESSION = "-".join(filter(None, [os.environ.get("PYTEST_XDIST_WORKER", ""), uuid.uuid4().hex[:12]]))
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", default=f"ramino-test-{_SESSION}")
# ...and the bots' queue is derived from it (the suite's worker fixture consumes both: tests/conftest.py).
RAMINO_PRACTICE_BOTS_QUEUE = env(
    "RAMINO_PRACTICE_BOTS_QUEUE", default=f"{CELERY_TASK_DEFAULT_QUEUE}-practice_bots"
)
# ...and so is the notifications' queue (a worker of its own in the tests that deliver: tests/notifications/).
RAMINO_NOTIFICATIONS_QUEUE = env(
    "RAMINO_NOTIFICATIONS_QUEUE", default=f"{CELERY_TASK_DEFAULT_QUEUE}-notifications"
)
CELERY_TASK_ROUTES = {
    name: {
        "queue": RAMINO_NOTIFICATIONS_QUEUE
        if name.startswith("notifications.")
        else RAMINO_PRACTICE_BOTS_QUEUE
    }
    for name in CELERY_TASK_ROUTES  # noqa: F405
}
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/0")
CELERY_BROKER_TRANSPORT_OPTIONS = {}

# The worker started by the suite inherits this through DJANGO_SETTINGS_MODULE: short pauses between rounds.
RAMINO_NEXT_ROUND_DELAY_SECONDS = env.float("RAMINO_NEXT_ROUND_DELAY_SECONDS", default=0.5)
RAMINO_REBUY_WAIT_SECONDS = env.float("RAMINO_REBUY_WAIT_SECONDS", default=1.0)
RAMINO_PRACTICE_BOT_DELAY_SECONDS = env.float("RAMINO_PRACTICE_BOT_DELAY_SECONDS", default=0.05)
RAMINO_PRACTICE_FIRST_DEAL_SECONDS = env.float("RAMINO_PRACTICE_FIRST_DEAL_SECONDS", default=0.1)
# ...and one-second turns, so that the worker's tests see players time out quickly.
RAMINO_MIN_TURN_SECONDS = env.int("RAMINO_MIN_TURN_SECONDS", default=1)
# The tests' stand-in push service listens on the loopback, over plain HTTP (tests/notifications/).
RAMINO_PUSH_SERVICES = env.list("RAMINO_PUSH_SERVICES", default=["127.0.0.1", "localhost"])
RAMINO_PUSH_ALLOW_HTTP = env.bool("RAMINO_PUSH_ALLOW_HTTP", default=True)
# No reconnection allowance unless a test's table asks for one (tests that time turns out expect none).
RAMINO_RECONNECT_SECONDS = env.int("RAMINO_RECONNECT_SECONDS", default=0)
# Sockets a test leaves open hold their flood-limit places for 90 s in this one process: the limits are set by the
# tests of them (tests/live_room/test_flood.py), never reached by the others.
RAMINO_SOCKET_MAX_PER_USER = env.int("RAMINO_SOCKET_MAX_PER_USER", default=10_000)
RAMINO_SOCKET_MAX_PER_ADDRESS = env.int("RAMINO_SOCKET_MAX_PER_ADDRESS", default=10_000)
RAMINO_SOCKET_MESSAGES_PER_SECOND = env.float("RAMINO_SOCKET_MESSAGES_PER_SECOND", default=1000.0)
