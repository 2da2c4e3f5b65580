"""Limits on the embedded default (SQLite), over HTTP: a player sets a daily stakes limit, is refused the stake past
it (403 `limits.exceeded`, nothing moved), raises it, and is still refused until the cooling period ends; a reality
check comes during play."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from ledger.models import Transfer
from tests.clients import api_client
from tests.factories import PlayerFactory, TableFactory
from tests.ledger.utils import assert_reconciled
from tests.responsible.helpers import Clock, put_limits, refused_unchanged, sit
from tournaments.live.messaging import dispatch

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


def test_a_daily_limit_raised_waits_its_cooling_period_on_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)
    clock = Clock(monkeypatch, datetime(2026, 5, 4, 8, 0, tzinfo=UTC))
    ann: Any = PlayerFactory.create(username="ann", chips=10_000)
    assert put_limits(ann, stakes_day=400).json()["stakes_day"]["value"] == 400
    assert sit(ann, TableFactory.create().pk, 300).status_code == 200
    before = Transfer.objects.count()
    details = refused_unchanged(sit(ann, TableFactory.create().pk, 200), "stakes_day", before)
    assert details["left"] == 100 and details["resets_at"] == "2026-05-04T22:00:00Z"
    raised = put_limits(ann, stakes_day=1000).json()["stakes_day"]
    assert (raised["value"], raised["pending"], raised["applies_at"]) == (400, 1000, "2026-05-11T08:00:00Z")
    refused_unchanged(sit(ann, TableFactory.create().pk, 200), "stakes_day", before)
    clock.advance(days=6, hours=23)
    assert sit(ann, TableFactory.create().pk, 400).status_code == 200  # a new day: 400 again
    refused_unchanged(sit(ann, TableFactory.create().pk, 100), "stakes_day", Transfer.objects.count())
    clock.advance(hours=1)
    assert sit(ann, TableFactory.create().pk, 600).status_code == 200
    # Seated since the first buy-in, a week ago: the reality check is due.
    session = api_client(ann).get("/api/v1/me/session/").json()["session"]
    assert session["reality_check_due"] is True and session["played_seconds"] >= 3600
    answer = api_client(ann).post("/api/v1/me/session/reality-check/", {"answer": "continue"})
    assert answer.status_code == 201
    history = api_client(ann).get("/api/v1/me/limits/history/").json()["results"]
    assert [row["kind"] for row in history] == ["raise", "new"]
    assert_reconciled()
