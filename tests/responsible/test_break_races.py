"""On PostgreSQL with real connections: stakes racing a break. Ten buy-ins at ten tables and two tournament
registrations race the break itself (and two breaks race each other): once the break and the sweep are done the
player holds no seat and no registration, every chip is back in the wallet, one break was taken per request that
won, and the ledger reconciles (docs/rules.md "Responsible play")."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from ledger.services import accounts
from responsible.breaks import enforcement
from responsible.breaks.models import Break
from tests.clients import api_client
from tests.factories import MultiTournamentFactory, TableFactory
from tests.ledger.utils import assert_reconciled
from tournaments.live.messaging import dispatch
from tournaments.live.models import SEATED_STATUSES, Seat
from tournaments.tournament.models import EntryStatus, TournamentEntry

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_broker(monkeypatch: Any) -> None:
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)


def _race(user: Any, calls: list[tuple[str, dict[str, Any] | None]]) -> list[tuple[int, Any]]:
    barrier = threading.Barrier(len(calls))

    def one(call: tuple[str, dict[str, Any] | None]) -> tuple[int, Any]:
        url, body = call
        try:
            barrier.wait()
            response = api_client(user).post(url, body, format="json")
            return response.status_code, response.json()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(one, calls))


def test_stakes_racing_a_break_leave_no_seat_and_no_entry(admin_user: Any, make_player: Any) -> None:
    ann = make_player("ann")
    tables = [TableFactory.create(creator=admin_user) for _ in range(10)]
    tournaments = [MultiTournamentFactory.create(created_by=admin_user) for _ in range(2)]
    calls: list[tuple[str, dict[str, Any] | None]] = [
        (f"/api/v1/tables/{t.pk}/sit/", {"buy_in": 300}) for t in tables
    ]
    calls += [(f"/api/v1/tournaments/{t.pk}/register/", None) for t in tournaments]
    calls += [("/api/v1/me/breaks/", {"kind": "cool_off", "days": 7})]
    results = _race(ann, calls)
    assert results[-1][0] == 201, results[-1]
    for status, body in results[:-1]:
        assert status in (200, 201) or body["error"]["code"] == "player.on_break", (status, body)
    enforcement.sweep()
    assert not Seat.objects.filter(player=ann, status__in=SEATED_STATUSES).exists()
    assert not TournamentEntry.objects.filter(player=ann, status=EntryStatus.REGISTERED).exists()
    assert accounts.get_wallet(user=ann).balance == 10_000
    assert enforcement.sweep() == 0
    assert_reconciled()


def test_two_breaks_at_once_never_shorten_each_other(make_player: Any) -> None:
    ann = make_player("ann")
    calls: list[tuple[str, dict[str, Any] | None]] = [
        ("/api/v1/me/breaks/", {"kind": "self_exclusion", "days": 90})
    ]
    calls += [("/api/v1/me/breaks/", {"kind": "cool_off", "days": 7})] * 5
    results = _race(ann, calls)
    rows = list(Break.objects.filter(player=ann).order_by("starts_at", "pk"))
    # Whichever came first, the 90 days stand; a cool-off after it is refused as shorter.
    assert results[0][0] == 201
    assert max(r.ends_at for r in rows if r.ends_at) == next(r.ends_at for r in rows if r.days == 90)
    for status, body in results[1:]:
        assert status == 201 or body["error"]["code"] == "break.shorter", (status, body)
    state = api_client(ann).get("/api/v1/me/breaks/").json()
    assert state["kind"] == "self_exclusion"
