"""On PostgreSQL with real connections: 20 stakes of one player racing at a limit leave it unpassed (the gate
locks the player's wallet row before it reads what was staked)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection
from django.db.models import Sum

from ledger.models import Entry, TransferKind
from ledger.services.accounts import get_wallet
from tests.clients import api_client
from tests.factories import PlayerFactory, TableFactory, TournamentFactory
from tests.ledger.utils import assert_reconciled
from tests.responsible.helpers import put_limits

pytestmark = pytest.mark.django_db(transaction=True)


def _race(user: Any, urls: list[str], body: dict[str, Any]) -> list[tuple[int, Any]]:
    barrier = threading.Barrier(len(urls))

    def one(url: str) -> tuple[int, Any]:
        client = api_client(user)
        try:
            barrier.wait()
            response = client.post(url, body, format="json")
            return response.status_code, response.json()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(urls)) as pool:
        return list(pool.map(one, urls))


def _staked(user: Any) -> int:
    wallet = get_wallet(user=user)
    total = Entry.objects.filter(
        account=wallet, transfer__kind__in=[TransferKind.BUY_IN, TransferKind.TOURNAMENT_BUY_IN]
    ).aggregate(total=Sum("amount"))["total"]
    return -(total or 0)


def test_twenty_buy_ins_at_twenty_tables_never_pass_the_daily_limit() -> None:
    ann = PlayerFactory.create(username="ann", chips=100_000)
    assert put_limits(ann, stakes_day=1000).status_code == 200
    tables = [TableFactory.create() for _ in range(20)]
    results = _race(ann, [f"/api/v1/tables/{t.pk}/sit/" for t in tables], {"buy_in": 150})
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] * 6 + [403] * 14, results
    assert {body["error"]["code"] for status, body in results if status == 403} == {"limits.exceeded"}
    assert _staked(ann) == 900
    assert_reconciled()


def test_twenty_registrations_never_pass_the_weekly_loss_limit() -> None:
    ann = PlayerFactory.create(username="ann", chips=100_000)
    assert put_limits(ann, loss_week=550).status_code == 200
    tournaments = [TournamentFactory.create(buy_in=100, fee=10, max_entrants=3) for _ in range(20)]
    results = _race(ann, [f"/api/v1/tournaments/{t.pk}/register/" for t in tournaments], {})
    statuses = sorted(status for status, _ in results)
    assert statuses == [201] * 5 + [403] * 15, results
    assert _staked(ann) == 550
    assert_reconciled()
