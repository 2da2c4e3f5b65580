"""config.settings.production refuses to start with DEBUG on or without a secret key.

Each case imports the settings in a fresh interpreter, so this process's settings stay untouched.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
from django.core.exceptions import ImproperlyConfigured
try:
    import config.settings.production as production
except ImproperlyConfigured as exc:
    print(f"ImproperlyConfigured: {exc}")
    raise SystemExit(3)
print(f"loaded DEBUG={production.DEBUG} SECRET_KEY_SET={bool(production.SECRET_KEY)}")
"""


def _import_production(**overrides: str | None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    # Neither is contacted; a real broker URL keeps the settings from creating the filesystem broker's folders.
    env.update(
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/ramino_settings_probe",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        DJANGO_SECRET_KEY="a-secret-for-the-probe",
    )
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_production_settings_load_with_a_secret_and_debug_off() -> None:
    result = _import_production(DJANGO_DEBUG="false")
    assert result.returncode == 0, result.stderr
    assert "loaded DEBUG=False SECRET_KEY_SET=True" in result.stdout


@pytest.mark.parametrize("debug", ["true", "True", "1", "yes", "on"])
def test_production_settings_refuse_debug_on(debug: str) -> None:
    result = _import_production(DJANGO_DEBUG=debug)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "ImproperlyConfigured: DJANGO_DEBUG" in result.stdout


@pytest.mark.parametrize("secret", [None, ""], ids=["unset", "empty"])
def test_production_settings_refuse_a_missing_secret_key(secret: str | None) -> None:
    result = _import_production(DJANGO_SECRET_KEY=secret)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY" in result.stdout
