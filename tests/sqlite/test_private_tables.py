"""Private tables on the embedded default (SQLite), over HTTP (issue 31, defects 7 and 21): the creator sits down
with the table and its buy-in moves through the ledger; an admin reads and closes it; an empty one is closed by
the beat job's body after the set time; creating is throttled."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone

from tests.ledger.utils import assert_reconciled
from tests.sqlite.harness import Site
from tournaments.live.http.throttling import TableCreateUserThrottle
from tournaments.live.models import Table, TableStatus
from tournaments.tasks import close_idle_tables

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

PRIVATE = {"game": "basic", "seats": 2, "pcr": 1, "min_buy_in": 100, "max_buy_in": 1000, "private": True}


def test_private_tables_on_sqlite(sqlite_site: Site, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.RAMINO_PRIVATE_TABLE_IDLE_MINUTES = 30
    admin = sqlite_site.admin()
    ann = sqlite_site.player("ann", chips=2000, admin=admin)
    seated = ann.call("POST", "/tables/", {**PRIVATE, "buy_in": 300}, expect=201)
    assert seated["players"] == [{"username": "ann", "seat": 0, "chips": 300, "status": "active"}]
    assert ann.get("/wallet/")["balance"] == 1700
    empty = ann.call("POST", "/tables/", {**PRIVATE, "game": "board"}, expect=201)
    # the admin reads and closes the seated one (ann cashed out)
    assert admin.get(f"/tables/{seated['id']}/")["players"][0]["username"] == "ann"
    admin.call("POST", f"/tables/{seated['id']}/close/")
    assert ann.get("/wallet/")["balance"] == 2000
    # the empty one, older than the set time, is closed by the job
    Table.objects.filter(pk=empty["id"]).update(created_at=timezone.now() - timedelta(minutes=31))
    assert close_idle_tables.run() == 1
    assert Table.objects.get(pk=empty["id"]).status == TableStatus.CLOSED
    # creating is throttled per player
    monkeypatch.setattr(TableCreateUserThrottle, "THROTTLE_RATES", {"table_create_user": "1/hour"})
    cache.clear()  # the creations above were counted under the test settings' rate
    ann.call("POST", "/tables/", PRIVATE, expect=201)
    assert ann.call("POST", "/tables/", PRIVATE, expect=429)["error"]["code"] == "throttled"
    assert_reconciled()
