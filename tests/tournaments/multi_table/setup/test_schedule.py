"""The multi-table tournaments' clock (`schedule.run_schedule`, the beat job
`tournaments.run_tournament_schedule` every 10 s): registration opens at `registration_opens_at`; at `starts_at`
the tournament starts, or below `min_entrants` is cancelled with every buy-in and fee refunded
(docs/tournaments.md "The schedule (beat job)"); two runs at once act once; a run repeated does nothing
more."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from ledger.models import Account, AccountKind, Transfer, TransferKind
from ledger.services import accounts
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved
from tests.tournaments.multi_table.setup.helpers import create_multi as new_multi
from tests.tournaments.multi_table.setup.helpers import pool_balance
from tournaments.errors import Conflict, PlayCode
from tournaments.live.messaging import dispatch
from tournaments.live.models import Table
from tournaments.multi_table import schedule
from tournaments.multi_table.task_names import RUN_TOURNAMENT_SCHEDULE
from tournaments.tasks import run_tournament_schedule
from tournaments.tournament import registration
from tournaments.tournament.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentEvent,
    TournamentStatus,
)

NOTHING = {"opened": 0, "started": 0, "cancelled": 0, "failed": 0}


def _balances(*accounts: Account) -> list[int]:
    return [Account.objects.get(pk=a.pk).balance for a in accounts]


@pytest.mark.django_db
def test_the_beat_job_is_scheduled_every_ten_seconds_by_its_stable_name() -> None:
    task = PeriodicTask.objects.get(task=RUN_TOURNAMENT_SCHEDULE)
    assert RUN_TOURNAMENT_SCHEDULE == "tournaments.run_tournament_schedule"
    assert task.enabled and task.interval is not None
    assert (task.interval.every, task.interval.period) == (10, "seconds")
    assert run_tournament_schedule.name == RUN_TOURNAMENT_SCHEDULE
    assert run_tournament_schedule() == NOTHING  # the task's body calls the service


@pytest.mark.django_db
def test_registration_opens_when_its_time_comes(admin_user: Any, make_player: Any) -> None:
    now = timezone.now()
    tournament = new_multi(admin_user, registration_opens_at=now + timedelta(minutes=5))
    assert tournament.status == TournamentStatus.SCHEDULED
    with pytest.raises(Conflict) as refused:  # registering before it opens
        registration.register(user=make_player("ann"), tournament_id=tournament.pk)
    assert refused.value.code == PlayCode.TOURNAMENT_NOT_REGISTERING
    assert schedule.run_schedule(now=now + timedelta(minutes=4)) == NOTHING
    assert schedule.run_schedule(now=now + timedelta(minutes=5)) == {**NOTHING, "opened": 1}
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING
    event = TournamentEvent.objects.get(tournament=tournament)
    assert event.kind == "registration_open" and event.version == tournament.version == 1
    # Again: nothing more.
    assert schedule.run_schedule(now=now + timedelta(minutes=6)) == NOTHING
    assert TournamentEvent.objects.filter(tournament=tournament).count() == 1
    registration.register(user=make_player("bob"), tournament_id=tournament.pk)


@pytest.mark.django_db
def test_cancellation_below_the_minimum_refunds_everything(admin_user: Any, make_player: Any) -> None:
    tournament = new_multi(admin_user, min_entrants=4, buy_in=100, fee=10)
    fees = accounts.get_house_account(kind=AccountKind.HOUSE_FEES)
    fees_before = fees.balance
    users = [make_player(name, chips=1000) for name in ("ann", "bob", "cid")]
    wallets = [accounts.get_wallet(user=u) for u in users]
    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)
    assert _balances(*wallets) == [890, 890, 890]
    pool = tournament.pool_account
    assert pool is not None and pool_balance(tournament) == 300 and _balances(fees) == [fees_before + 30]

    assert tournament.starts_at is not None
    # Before the start nothing happens.
    assert schedule.run_schedule(now=tournament.starts_at - timedelta(seconds=1)) == NOTHING
    outcome = schedule.run_schedule(now=tournament.starts_at)
    assert outcome == {**NOTHING, "cancelled": 1}

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED and tournament.finished_at is not None
    assert _balances(*wallets) == [1000, 1000, 1000]  # every buy-in and fee back
    assert _balances(pool) == [0]
    assert _balances(fees) == [fees_before]
    assert set(TournamentEntry.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        EntryStatus.REFUNDED
    }
    refunds = Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.REFUND)
    assert refunds.count() == 3
    event = TournamentEvent.objects.get(tournament=tournament, kind="cancelled")
    assert event.data["reason"] == "too_few_entrants"
    assert (event.data["entrants"], event.data["min_entrants"]) == (3, 4)
    assert sorted(event.data["refunds"]) == sorted(refunds.values_list("pk", flat=True))
    # Run again (a repeated beat, a redelivered message): nothing more.
    assert schedule.run_schedule(now=tournament.starts_at + timedelta(seconds=10)) == NOTHING
    assert refunds.count() == 3 and _balances(*wallets) == [1000, 1000, 1000]
    assert_reconciled()


@pytest.mark.django_db
def test_at_starts_at_with_enough_entrants_it_starts(admin_user: Any, make_player: Any) -> None:
    tournament = new_multi(admin_user, min_entrants=4, seats=4, starting_stack=1500, guarantee=2000)
    users = [make_player(f"p{i}", chips=1000) for i in range(9)]
    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)
    assert tournament.starts_at is not None
    assert schedule.run_schedule(now=tournament.starts_at) == {**NOTHING, "started": 1}
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING and tournament.level == 1
    assert tournament.started_at is not None and tournament.mint_account_id is not None
    entries = TournamentEntry.objects.filter(tournament=tournament)
    assert set(entries.values_list("status", flat=True)) == {EntryStatus.PLAYING}
    sizes = sorted(Counter(entries.values_list("table_id", flat=True)).values())
    assert sizes == [3, 3, 3]  # ceil(9 / 4) tables, filled evenly
    assert chips_conserved(tournament) == 9 * 1500
    assert pool_balance(tournament) == 2000  # 900 of buy-ins and the guarantee's shortfall of 1100
    assert [e.kind for e in TournamentEvent.objects.filter(tournament=tournament)] == ["started"]
    # The next run (or a concurrent one) does nothing more.
    assert schedule.run_schedule(now=tournament.starts_at + timedelta(seconds=10)) == NOTHING
    assert Table.objects.filter(tournament=tournament).count() == 3
    assert_reconciled()


@pytest.mark.django_db
def test_only_multi_tournaments_due_are_touched(admin_user: Any, make_player: Any) -> None:
    later = new_multi(admin_user, starts_in=timedelta(hours=3))
    sit_and_go = Tournament.objects.create(
        name="sng",
        kind="single",
        game="rummy500",
        buy_in=0,
        max_entrants=3,
        target_score=100,
        seats=3,
        payouts=[100],
        created_by=admin_user,
        starts_at=timezone.now() - timedelta(hours=1),  # never set for one table, but harmless
    )
    assert schedule.run_schedule(now=timezone.now() + timedelta(hours=1)) == NOTHING
    assert Tournament.objects.get(pk=later.pk).status == TournamentStatus.REGISTERING
    assert Tournament.objects.get(pk=sit_and_go.pk).status == TournamentStatus.REGISTERING


@pytest.mark.django_db
def test_a_failing_tournament_is_left_for_the_next_run_and_the_others_go_on(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = new_multi(admin_user, min_entrants=2)
    second = new_multi(admin_user, min_entrants=2)
    assert first.starts_at is not None and second.starts_at is not None
    real = schedule.start_or_cancel

    def broken(tournament: Tournament) -> str:
        if tournament.pk == first.pk:
            # Transient: left for the next run (the bound on retries: test_start_failure.py).
            raise OperationalError("the database restarted")
        return real(tournament)

    # `run_schedule` looks the step's function up when it runs: patch it in the module.
    monkeypatch.setattr(schedule, "start_or_cancel", broken)
    now = max(first.starts_at, second.starts_at)
    outcome = schedule.run_schedule(now=now)
    assert outcome == {**NOTHING, "failed": 1, "cancelled": 1}
    left = Tournament.objects.get(pk=first.pk)
    assert left.status == TournamentStatus.REGISTERING  # rolled back, the failure counted
    assert left.start_failures == 1 and "OperationalError" in left.error
    assert Tournament.objects.get(pk=second.pk).status == TournamentStatus.CANCELLED
    monkeypatch.setattr(schedule, "start_or_cancel", real)
    assert schedule.run_schedule(now=now) == {**NOTHING, "cancelled": 1}
    assert_reconciled()


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_cancel_once(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)
    tournaments = [new_multi(admin_user, min_entrants=3) for _ in range(3)]
    users = [make_player(f"racer{i}", chips=500) for i in range(2)]
    for tournament in tournaments:
        for user in users:
            registration.register(user=user, tournament_id=tournament.pk)
    now = max(t.starts_at for t in tournaments if t.starts_at is not None)
    barrier = threading.Barrier(4)

    def run() -> dict[str, int]:
        try:
            barrier.wait()
            return schedule.run_schedule(now=now)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(lambda _: run(), range(4)))
    assert sum(o["cancelled"] for o in outcomes) == 3, outcomes
    assert sum(o["failed"] for o in outcomes) == 0
    assert Transfer.objects.filter(kind=TransferKind.REFUND).count() == 6
    assert TournamentEvent.objects.filter(kind="cancelled").count() == 3
    assert _balances(*[accounts.get_wallet(user=u) for u in users]) == [500, 500]
    assert_reconciled()
