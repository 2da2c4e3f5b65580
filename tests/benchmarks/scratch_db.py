"""A scratch PostgreSQL database beside the one `DATABASE_URL` names, for benchmarks that migrate and drop it."""

from __future__ import annotations

from urllib.parse import urlparse, urlunparse

import psycopg


def scratch_url(base_url: str, suffix: str) -> tuple[str, str, str]:
    """(scratch database URL, maintenance database URL, scratch name) for `<base name>_<suffix>`."""
    parsed = urlparse(base_url)
    base_name = parsed.path.lstrip("/") or "ramino"
    scratch = f"{base_name}_{suffix}"
    admin_url = urlunparse(parsed._replace(path="/postgres"))
    return urlunparse(parsed._replace(path=f"/{scratch}")), admin_url, scratch


def recreate_database(admin_url: str, name: str, *, create: bool = True) -> None:
    """Drop `name` (ending its connections) and, unless `create` is false, create it empty."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if create:
            conn.execute(f'CREATE DATABASE "{name}"')
