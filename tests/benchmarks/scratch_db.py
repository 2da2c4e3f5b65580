"""A scratch PostgreSQL database beside the one `DATABASE_URL` names, for benchmarks that migrate and drop it.

With BENCH_TEMPLATE_DB set (`make bench-tiny` does), a scratch database is created as a copy of that
already-migrated database, so the benchmark's own `migrate` has nothing left to do:

    python -m tests.benchmarks.scratch_db template   # creates and migrates <name>_bench_template; prints its name
    python -m tests.benchmarks.scratch_db drop        # drops it
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psycopg

TEMPLATE_ENV = "BENCH_TEMPLATE_DB"
TEMPLATE_SUFFIX = "bench_template"
ROOT = Path(__file__).resolve().parents[2]


def scratch_url(base_url: str, suffix: str) -> tuple[str, str, str]:
    """(scratch database URL, maintenance database URL, scratch name) for `<base name>_<suffix>`."""
    parsed = urlparse(base_url)
    base_name = parsed.path.lstrip("/") or "ramino"
    scratch = f"{base_name}_{suffix}"
    admin_url = urlunparse(parsed._replace(path="/postgres"))
    return urlunparse(parsed._replace(path=f"/{scratch}")), admin_url, scratch


def recreate_database(admin_url: str, name: str, *, create: bool = True) -> None:
    """Drop `name` (ending its connections) and, unless `create` is false, create it empty (or, with
    BENCH_TEMPLATE_DB set, as a copy of that migrated database)."""
    template = os.environ.get(TEMPLATE_ENV, "")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if create:
            conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))


def main(argv: list[str]) -> int:
    if argv not in (["template"], ["drop"]):
        print("usage: python -m tests.benchmarks.scratch_db template|drop", file=sys.stderr)
        return 2
    base_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ramino")
    url, admin_url, name = scratch_url(base_url, TEMPLATE_SUFFIX)
    env = {k: v for k, v in os.environ.items() if k != TEMPLATE_ENV}
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if argv == ["drop"]:
            return 0
        conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": url},
        check=True,
    )
    print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
