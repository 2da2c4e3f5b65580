"""SIGKILL the worker in the middle of a multi-table tournament's round end, balancing step and payout
(`tournaments.multi_table.faults.pause_point`: the worker started with RAMINO_FAULT_PAUSE_AT stops inside that transaction and
touches a marker file); after a restart without it, and the beat sweeper's re-sends (called here as beat
would), the tournament completes with everything done exactly once: one settlement per round, one mint per
table, one prize payout, each bust once, the mint and the pool empty, and the ledger reconciled."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from ledger.models import Account, Transfer, TransferKind, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tournaments import tasks
from tournaments.live.models import Round, Table
from tournaments.multi_table import faults, simulation
from tournaments.tournament import admin_actions, registration
from tournaments.tournament.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentEvent,
    TournamentStatus,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

ENTRANTS = 12


@contextmanager
def worker_paused_at(worker: Any, point: str, marker: Path) -> Iterator[None]:
    """The session's worker restarted with the fault point armed; restarted without it afterwards."""
    worker.kill()
    worker.env.update({faults.PAUSE_AT_ENV: point, faults.MARKER_ENV: str(marker)})
    worker.start()
    try:
        yield
    finally:
        worker.env.pop(faults.PAUSE_AT_ENV, None)
        worker.env.pop(faults.MARKER_ENV, None)


def _tournament(admin: Any, make_player: Any) -> Tournament:
    tournament = simulation.create_multi(
        admin,
        name="crash",
        entrants=ENTRANTS,
        seats=4,
        buy_in=100,
        fee=10,
        starting_stack=200,
        pcr_schedule=[1, 2, 4, 8, 16],
        rounds_per_level=1,
        payouts=[60, 40],
        instant=True,
    )
    for i in range(ENTRANTS):
        registration.register(user=make_player(f"crash{i}"), tournament_id=tournament.pk)
    return tournament


def _wait_for(marker: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert marker.exists(), "the worker never reached the fault point"


def _finish(tournament: Tournament, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            return
        tasks.sweep_all(grace_seconds=0)  # what beat does every 30 s
        time.sleep(0.5)
    raise AssertionError(f"tournament {tournament.pk} not finished: {tournament.status}")


def _assert_exactly_once(tournament: Tournament) -> None:
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    rounds = list(Round.objects.filter(game__table__tournament=tournament))
    assert rounds and all(r.settled for r in rounds)
    for round_ in rounds:
        settlements = Transfer.objects.filter(round_id=round_.pk, kind=TransferKind.SETTLEMENT).count()
        moved = any(t["kind"] == "settlement" for t in round_.transfers)
        assert settlements == (1 if moved else 0), f"round {round_.pk}: {settlements} settlements"
    chip_type = tournament_chip_type(tournament.pk)
    tables = Table.objects.filter(tournament=tournament).count()
    assert Transfer.objects.filter(kind=TransferKind.MINT, chip_type=chip_type).count() == tables
    assert Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.PAYOUT).count() == 1
    assert not Account.objects.filter(chip_type=chip_type).exclude(balance=0).exists()
    assert tournament.pool_account is not None
    tournament.pool_account.refresh_from_db()
    assert tournament.pool_account.balance == 0
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    assert len(entries) == ENTRANTS
    assert sorted(e.place for e in entries if e.place is not None) and all(e.place for e in entries)
    assert [e.place for e in entries].count(1) == 1
    assert sum(e.prize for e in entries) == ENTRANTS * tournament.buy_in
    busted = [e for e in entries if e.status == EntryStatus.BUSTED]
    assert len(busted) == ENTRANTS - 1
    logged = [
        p["entry"]
        for event in TournamentEvent.objects.filter(tournament=tournament, kind="busted")
        for p in event.data["players"]
    ]
    assert sorted(logged) == sorted(e.pk for e in busted), "each bust logged once"
    assert TournamentEvent.objects.filter(tournament=tournament, kind="finished").count() == 1
    assert_reconciled()


@pytest.mark.parametrize("point", [faults.ROUND_END, faults.BALANCE, faults.PAYOUT])
def test_a_worker_killed_mid_transaction_leaves_everything_done_once(
    point: str, celery_worker_process: Any, admin_user: Any, make_player: Any, tmp_path: Path
) -> None:
    marker = tmp_path / "paused"
    tournament = _tournament(admin_user, make_player)
    try:
        with worker_paused_at(celery_worker_process, point, marker):
            admin_actions.start(tournament_id=tournament.pk)
            _wait_for(marker, timeout=40)
            time.sleep(0.2)
            celery_worker_process.kill()  # SIGKILL with the transaction open
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.RUNNING, "killed before it could finish"
        celery_worker_process.start()
        _finish(tournament, timeout=40)
    finally:
        # The session's worker runs on without the fault point for the tests after this one.
        if celery_worker_process.process is None or celery_worker_process.process.poll() is not None:
            celery_worker_process.start()
    _assert_exactly_once(tournament)
