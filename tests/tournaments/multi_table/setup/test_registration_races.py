"""Registration races of a multi-table tournament on the real PostgreSQL, with real connections: twenty players
racing for the last place leave exactly one entry (nineteen `tournament.full`, who paid nothing); one player
registering from ten threads at once has one entry, paid once. Wallets and the ledger reconcile."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from ledger.models import Transfer, TransferKind
from ledger.services import accounts
from tests.clients import api_client
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.setup.helpers import create_multi as new_multi
from tests.tournaments.multi_table.setup.helpers import pool_balance
from tournaments.live.messaging import dispatch
from tournaments.tournament import registration
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_worker_runs_the_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)


def _together(calls: list[Callable[[], Any]]) -> list[Any]:
    barrier = threading.Barrier(len(calls))

    def one(call: Callable[[], Any]) -> Any:
        try:
            barrier.wait()
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(one, calls))


def _register_over_http(user: Any, tournament_id: int) -> Callable[[], tuple[int, str | None]]:
    def call() -> tuple[int, str | None]:
        answer = api_client(user).post(f"/api/v1/tournaments/{tournament_id}/register/", format="json")
        body = answer.json()
        return answer.status_code, body["error"]["code"] if "error" in body else None

    return call


def test_twenty_players_racing_for_the_last_place_leave_one_entry(make_player: Any, admin_user: Any) -> None:
    tournament = new_multi(admin_user, max_entrants=6, min_entrants=2, buy_in=100, fee=10)
    for i in range(5):
        registration.register(user=make_player(f"early{i}", chips=1000), tournament_id=tournament.pk)
    racers = [make_player(f"racer{i}", chips=1000) for i in range(20)]

    results = _together([_register_over_http(u, tournament.pk) for u in racers])

    assert Counter(results) == Counter({(201, None): 1, (409, "tournament.full"): 19}), results
    live = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
    assert live.count() == 6
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING  # a multi-table tournament starts at starts_at
    balances = sorted(accounts.get_wallet(user=u).balance for u in racers)
    assert balances == [890] + [1000] * 19  # the winner paid buy-in and fee; the losers nothing
    assert pool_balance(tournament) == 6 * 100
    assert (
        Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.TOURNAMENT_BUY_IN).count() == 6
    )
    assert_reconciled()


def test_one_player_registering_from_ten_threads_has_one_entry(make_player: Any, admin_user: Any) -> None:
    tournament = new_multi(admin_user, max_entrants=100, buy_in=100, fee=10)
    ann = make_player("ann", chips=1000)

    results = _together([_register_over_http(ann, tournament.pk) for _ in range(10)])

    assert Counter(results) == Counter({(201, None): 1, (409, "tournament.already_registered"): 9}), results
    assert TournamentEntry.objects.filter(tournament=tournament, player=ann).count() == 1
    assert accounts.get_wallet(user=ann).balance == 890
    assert pool_balance(tournament) == 100
    assert (
        Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.TOURNAMENT_BUY_IN).count() == 1
    )
    assert_reconciled()
