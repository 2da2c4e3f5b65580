"""Log lines: one JSON object per line in production (`RAMINO_LOG_FORMAT=json`), plain text elsewhere; every line
carries the request id of the web request it serves (the client's valid `X-Request-ID`, else a new one, returned
in the answer's header). The worker's side is tests/operations/test_processes.py."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from typing import Any

import pytest
from django.test import Client

from operations import request_id
from operations.logs import FIELDS, JsonFormatter
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db


def _record(message: str, *args: Any, exc_info: Any = None) -> logging.LogRecord:
    record = logging.LogRecord("ramino.test", logging.WARNING, __file__, 1, message, args, exc_info)
    request_id.RequestIdFilter().filter(record)
    return record


def test_a_json_line_has_the_fields_and_the_request_id() -> None:
    token = request_id.activate("req-json-1")
    try:
        line = JsonFormatter().format(_record("table %s closed by %s", 7, "root"))
    finally:
        request_id.deactivate(token)
    assert "\n" not in line
    found = json.loads(line)
    assert set(FIELDS) <= set(found)
    assert found["message"] == "table 7 closed by root"
    assert found["level"] == "WARNING" and found["logger"] == "ramino.test"
    assert found["request_id"] == "req-json-1" and found["process"] == os.getpid()
    assert found["time"].endswith("+00:00")


def test_outside_a_request_the_id_is_a_dash_and_a_traceback_stays_on_the_line() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        line = JsonFormatter().format(_record("failed", exc_info=sys.exc_info()))
    assert "\n" not in line
    found = json.loads(line)
    assert found["request_id"] == "-"
    assert "ValueError: boom" in found["exc_info"]


@pytest.mark.parametrize(
    ("offered", "kept"),
    [
        ("3f2c9d1e-7b8a-4c2e-9f00-123456789abc", True),
        ("trace.id:42_x", True),
        ("x" * 128, True),
        ("x" * 129, False),
        ("has space", False),
        ("new\nline", False),
        ("", False),
        ("<script>", False),
    ],
)
def test_the_answer_returns_the_client_s_valid_id_or_a_new_one(offered: str, kept: bool) -> None:
    answer = Client().get("/health/", HTTP_X_REQUEST_ID=offered)
    assert answer.status_code == 200
    returned = answer["X-Request-ID"]
    if kept:
        assert returned == offered
    else:
        assert returned != offered and request_id.valid(returned) and len(returned) == 32


def test_each_request_gets_its_own_id_and_its_log_lines_carry_it(caplog: pytest.LogCaptureFixture) -> None:
    client = Client()
    first = client.get("/health/")["X-Request-ID"]
    second = client.get("/health/")["X-Request-ID"]
    assert first != second
    caplog.handler.addFilter(request_id.RequestIdFilter())
    with caplog.at_level(logging.WARNING, logger="django.request"):
        answer = client.get("/api/v1/no-such-thing/", HTTP_X_REQUEST_ID="req-404")
    assert answer.status_code == 404 and answer["X-Request-ID"] == "req-404"
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    # Django logs the 404 once the middleware has returned: the id comes from the request it carries.
    assert record.request_id == "req-404"  # type: ignore[attr-defined]
    assert request_id.current() is None


PROBE = """
import json, logging, logging.config
import config.settings.production as production
logging.config.dictConfig(production.LOGGING)
logging.getLogger("ramino.probe").warning("hello %s", "there")
"""


@pytest.mark.parametrize(("log_format", "is_json"), [(None, True), ("plain", False)])
def test_production_logs_json_unless_told_otherwise(log_format: str | None, is_json: bool) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "RAMINO_"))}
    env.update(
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/ramino_settings_probe",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        DJANGO_SECRET_KEY="a-secret-for-the-probe",
    )
    if log_format is not None:
        env["RAMINO_LOG_FORMAT"] = log_format
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    (line,) = done.stderr.strip().splitlines()
    if is_json:
        found = json.loads(line)
        assert found["message"] == "hello there" and found["request_id"] == "-"
    else:
        assert line.endswith("WARNING ramino.probe [-] hello there")


def test_a_bad_host_header_is_a_warning_without_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """Anyone can send a Host the site does not serve: answered 400 in the envelope, and logged as a WARNING
    without a traceback (never an ERROR, which would set off the error alerts)."""
    with caplog.at_level(logging.DEBUG):
        answer = Client().get("/api/v1/tables/", HTTP_HOST="evil.example")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "request.malformed"
    found = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert found, [r.name for r in caplog.records]
    for record in found:
        assert record.levelno == logging.WARNING and record.levelname == "WARNING"
        assert record.exc_info is None and record.exc_text is None
        assert "evil.example" in record.getMessage()
        line = json.loads(JsonFormatter().format(record))
        assert line["level"] == "WARNING" and "exc_info" not in line
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
