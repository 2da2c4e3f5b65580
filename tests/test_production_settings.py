"""config.settings.production refuses to start with DEBUG on or without a secret key, and sets the security
headers a deployment behind TLS expects, trusting forwarded headers only behind configured proxies.

Each case imports the settings in a fresh interpreter, so this process's settings stay untouched.
"""

from __future__ import annotations

import json
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


def _run(probe: str, **overrides: str | None) -> subprocess.CompletedProcess[str]:
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
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def _import_production(**overrides: str | None) -> subprocess.CompletedProcess[str]:
    return _run(PROBE, **overrides)


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


HEADERS_PROBE = """
import json
import config.settings.production as p
print(json.dumps({name: getattr(p, name) for name in (
    "SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "SECURE_CONTENT_TYPE_NOSNIFF",
    "SECURE_REFERRER_POLICY", "X_FRAME_OPTIONS", "MIDDLEWARE",
)} | {"NUM_PROXIES": p.REST_FRAMEWORK["NUM_PROXIES"]}))
"""


def _production_values(**overrides: str | None) -> dict[str, object]:
    # The variables env.example sets are unset unless a test names them: the settings' own defaults.
    unset: dict[str, str | None] = {"NUM_PROXIES": None, "DJANGO_SECURE_HSTS_SECONDS": None}
    result = _run(HEADERS_PROBE, **(unset | overrides))
    assert result.returncode == 0, result.stderr
    values: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return values


def test_a_bare_deployment_trusts_no_forwarded_header_and_sends_no_hsts() -> None:
    values = _production_values()
    assert values["NUM_PROXIES"] == 0
    assert values["SECURE_PROXY_SSL_HEADER"] is None  # X-Forwarded-Proto from anyone is not believed
    assert values["SECURE_HSTS_SECONDS"] == 0
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SESSION_COOKIE_SECURE"] is True and values["CSRF_COOKIE_SECURE"] is True
    assert values["SESSION_COOKIE_HTTPONLY"] is True
    assert values["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert values["SECURE_REFERRER_POLICY"] == "same-origin"
    assert values["X_FRAME_OPTIONS"] == "DENY"
    middleware = values["MIDDLEWARE"]
    assert isinstance(middleware, list)
    # Before them only what observes: the request id (docs/operations.md, "Logs") and django-prometheus' count.
    assert middleware[:2] == [
        "operations.middleware.RequestIdMiddleware",
        "django_prometheus.middleware.PrometheusBeforeMiddleware",
    ]
    assert middleware[-1] == "django_prometheus.middleware.PrometheusAfterMiddleware"
    assert middleware[2:5] == [
        "django.middleware.security.SecurityMiddleware",
        "whitenoise.middleware.WhiteNoiseMiddleware",
        "csp.middleware.CSPMiddleware",
    ]


def test_behind_a_proxy_with_hsts_configured() -> None:
    values = _production_values(NUM_PROXIES="1", DJANGO_SECURE_HSTS_SECONDS="31536000")
    assert values["NUM_PROXIES"] == 1
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["SECURE_HSTS_SECONDS"] == 31536000
