"""Settings of the API benchmark's gunicorn: the test settings plus the floor's URL, and the database
variants compared in docs/performance.md ("The database backend, measured").

`BENCH_DB_ENGINE` replaces the engine (e.g. Django's own `django.db.backends.postgresql`),
`BENCH_DB_OPTIONS` (JSON) is merged into the connection's OPTIONS (e.g. `{"pool": true}`,
`{"server_side_binding": true}`), `BENCH_DB_CONN_MAX_AGE` replaces CONN_MAX_AGE (Django's pool needs 0, and psycopg-pool installed by hand: it is
not a dependency of the project).
"""

import json
import os

from config.settings.test import *  # noqa: F403

ROOT_URLCONF = "tests.benchmarks.bench_api_urls"

if engine := os.environ.get("BENCH_DB_ENGINE"):
    DATABASES["default"]["ENGINE"] = engine  # noqa: F405
if options := os.environ.get("BENCH_DB_OPTIONS"):
    DATABASES["default"]["OPTIONS"] = {**DATABASES["default"].get("OPTIONS", {}), **json.loads(options)}  # noqa: F405
if (max_age := os.environ.get("BENCH_DB_CONN_MAX_AGE")) is not None:
    DATABASES["default"]["CONN_MAX_AGE"] = int(max_age)  # noqa: F405
