"""Test settings: PostgreSQL and a real broker unless the environment says otherwise."""

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
    },
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
import os  # noqa: E402
import uuid  # noqa: E402

_SESSION = "-".join(filter(None, [os.environ.get("PYTEST_XDIST_WORKER", ""), uuid.uuid4().hex[:12]]))
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", default=f"ramino-test-{_SESSION}")
# ...and the bots' queue is derived from it (the suite's worker fixture consumes both: tests/conftest.py).
RAMINO_PRACTICE_BOTS_QUEUE = env(
    "RAMINO_PRACTICE_BOTS_QUEUE", default=f"{CELERY_TASK_DEFAULT_QUEUE}-practice_bots"
)
CELERY_TASK_ROUTES = {name: {"queue": RAMINO_PRACTICE_BOTS_QUEUE} for name in CELERY_TASK_ROUTES}  # noqa: F405
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/0")
CELERY_BROKER_TRANSPORT_OPTIONS = {}

# The worker started by the suite inherits this through DJANGO_SETTINGS_MODULE: short pauses between rounds.
RAMINO_NEXT_ROUND_DELAY_SECONDS = env.float("RAMINO_NEXT_ROUND_DELAY_SECONDS", default=0.5)
RAMINO_PRACTICE_BOT_DELAY_SECONDS = env.float("RAMINO_PRACTICE_BOT_DELAY_SECONDS", default=0.05)
RAMINO_PRACTICE_FIRST_DEAL_SECONDS = env.float("RAMINO_PRACTICE_FIRST_DEAL_SECONDS", default=0.1)
# ...and one-second turns, so that the worker's tests see players time out quickly.
RAMINO_MIN_TURN_SECONDS = env.int("RAMINO_MIN_TURN_SECONDS", default=1)
