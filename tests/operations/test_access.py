"""Who reads `/metrics`: the networks RAMINO_METRICS_NETWORKS names (loopback by default) or the bearer of
RAMINO_METRICS_TOKEN; anyone else gets 404 (no token) or 403 (a wrong token) in the error envelope."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest
from django.test import Client

from operations import access
from tests.conftest import ROOT
from tests.operations.scrape import names, scrape, value

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

LOOPBACK = access.parse_networks(["127.0.0.0/8", "::1/128"])


def _refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.content
    assert answer.json() == {
        "error": {"code": code, "message": answer.json()["error"]["message"], "details": {}}
    }
    assert answer.json()["error"]["message"]
    assert b"ramino_" not in answer.content


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        ({"REMOTE_ADDR": "127.0.0.1"}, access.Verdict.ALLOWED),
        ({"REMOTE_ADDR": "127.8.9.10"}, access.Verdict.ALLOWED),
        ({"REMOTE_ADDR": "::1"}, access.Verdict.ALLOWED),
        ({"REMOTE_ADDR": "::ffff:127.0.0.1"}, access.Verdict.ALLOWED),
        ({"REMOTE_ADDR": "10.0.0.7"}, access.Verdict.UNKNOWN),
        ({"REMOTE_ADDR": "2001:db8::1"}, access.Verdict.UNKNOWN),
        ({"REMOTE_ADDR": ""}, access.Verdict.UNKNOWN),
        ({"REMOTE_ADDR": "not-an-address"}, access.Verdict.UNKNOWN),
        # Through a proxy on this host, every client would look like loopback: never let in by address.
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}, access.Verdict.UNKNOWN),
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_FORWARDED": "for=203.0.113.9"}, access.Verdict.UNKNOWN),
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_REAL_IP": "203.0.113.9"}, access.Verdict.UNKNOWN),
        # A token that is not the one configured is refused, from loopback too.
        ({"REMOTE_ADDR": "127.0.0.1", "HTTP_AUTHORIZATION": "Bearer nope"}, access.Verdict.BAD_TOKEN),
        ({"REMOTE_ADDR": "10.0.0.7", "HTTP_AUTHORIZATION": "Bearer s3cret-token"}, access.Verdict.ALLOWED),
        ({"REMOTE_ADDR": "10.0.0.7", "HTTP_AUTHORIZATION": "bearer s3cret-token"}, access.Verdict.ALLOWED),
        # Another scheme (the API's `Token`) is no metrics token at all.
        ({"REMOTE_ADDR": "10.0.0.7", "HTTP_AUTHORIZATION": "Token s3cret-token"}, access.Verdict.UNKNOWN),
    ],
)
def test_the_verdict(meta: dict[str, str], expected: access.Verdict) -> None:
    assert access.verdict(meta, networks=LOOPBACK, token="s3cret-token") is expected


def test_without_a_configured_token_no_token_is_accepted() -> None:
    meta = {"REMOTE_ADDR": "10.0.0.7", "HTTP_AUTHORIZATION": "Bearer "}
    assert access.verdict(meta, networks=LOOPBACK, token="") is access.Verdict.UNKNOWN
    meta["HTTP_AUTHORIZATION"] = "Bearer anything"
    assert access.verdict(meta, networks=LOOPBACK, token="") is access.Verdict.BAD_TOKEN


def test_a_wrong_network_setting_fails_loudly() -> None:
    with pytest.raises(ValueError):
        access.parse_networks(["127.0.0.0/8", "loopback"])


def test_loopback_reads_the_metrics_in_the_text_format() -> None:
    client = Client()
    samples = scrape(client, REMOTE_ADDR="127.0.0.1")
    assert {"ramino_moves_accepted_total", "ramino_database_up", "ramino_reconciliation_ok"} <= names(samples)
    assert value(samples, "ramino_database_up") == 1  # the gauges read from the database (SQLite too)
    assert scrape(client, REMOTE_ADDR="::1")


def test_others_get_404_and_a_wrong_token_403(settings: Any) -> None:
    client = Client()
    _refused(client.get("/metrics", REMOTE_ADDR="198.51.100.4"), 404, "not_found")
    _refused(
        client.get("/metrics", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.4"), 404, "not_found"
    )
    _refused(
        client.get("/metrics", REMOTE_ADDR="198.51.100.4", HTTP_AUTHORIZATION="Bearer guess"),
        403,
        "auth.forbidden",
    )
    settings.RAMINO_METRICS_TOKEN = "a-long-metrics-token"
    _refused(
        client.get("/metrics", REMOTE_ADDR="198.51.100.4", HTTP_AUTHORIZATION="Bearer a-long-metrics-tokeX"),
        403,
        "auth.forbidden",
    )
    samples = scrape(client, REMOTE_ADDR="198.51.100.4", HTTP_AUTHORIZATION="Bearer a-long-metrics-token")
    assert "ramino_database_up" in names(samples)


def test_the_networks_follow_the_setting(settings: Any) -> None:
    settings.RAMINO_METRICS_NETWORKS = ["10.20.0.0/16"]
    client = Client()
    assert scrape(client, REMOTE_ADDR="10.20.3.4")
    _refused(client.get("/metrics", REMOTE_ADDR="127.0.0.1"), 404, "not_found")
    _refused(client.get("/metrics", REMOTE_ADDR="10.21.0.1"), 404, "not_found")


def test_only_get_is_answered_and_a_refusal_changes_nothing() -> None:
    client = Client()
    answer = client.post("/metrics", REMOTE_ADDR="127.0.0.1")
    _refused(answer, 405, "request.method_not_allowed")
    assert answer["Allow"] == "GET, HEAD"
    _refused(client.post("/metrics", REMOTE_ADDR="198.51.100.4"), 404, "not_found")
    assert client.head("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200


EXEMPT_PROBE = """
import json
import config.settings.production as production
print(json.dumps(production.SECURE_REDIRECT_EXEMPT))
"""


def test_production_answers_the_scrape_over_plain_http() -> None:
    """Prometheus scrapes gunicorn directly, without TLS: /metrics is not redirected to https (nor is any other
    page let off)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "RAMINO_"))}
    env.update(
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/ramino_settings_probe",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        DJANGO_SECRET_KEY="a-secret-for-the-probe",
    )
    done = subprocess.run(
        [sys.executable, "-c", EXEMPT_PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    exempt = [re.compile(pattern) for pattern in json.loads(done.stdout.strip().splitlines()[-1])]

    def exempted(path: str) -> bool:  # SecurityMiddleware's own test
        return any(pattern.search(path.lstrip("/")) for pattern in exempt)

    assert exempted("/metrics") and exempted("/health/")
    assert not any(exempted(path) for path in ("/metrics/x", "/api/v1/wallet/", "/admin/", "/play/metrics"))
