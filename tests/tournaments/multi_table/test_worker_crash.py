"""SIGKILL the worker in the middle of a multi-table tournament's round end, balancing step, payout, a busting
job on the shared path (`multi_table/quiet.py`, the tournament's row held FOR NO KEY UPDATE) and a batched start's
step (`multi_table/start.py`) and a plan within a table group (`multi_table/groups.py`)
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

from devtools import multi_table_simulation as simulation
from ledger.models import Account, Transfer, TransferKind, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tournaments import tasks
from tournaments.live.models import Round, Table
from tournaments.multi_table import faults
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


def _tournament(admin: Any, make_player: Any, *, point: str) -> Tournament:
    # A bust on the shared path needs a table whose next round stays in the tournament's level (a level rise is the
    # exclusive job's) and leaves the tables balanced (one bust, not several at once): for that point levels of
    # five rounds, with a low PCR at first, so that players bust one at a time mid-level.
    shared = point == faults.SHARED_BUST
    tournament = simulation.create_multi(
        admin,
        name="crash",
        entrants=ENTRANTS,
        seats=4,
        buy_in=100,
        fee=10,
        starting_stack=200,
        pcr_schedule=[1, 1, 2, 4, 16] if shared else [1, 2, 4, 8, 16],
        rounds_per_level=5 if shared else 1,
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


@pytest.mark.parametrize("point", [faults.ROUND_END, faults.BALANCE, faults.PAYOUT, faults.SHARED_BUST])
def test_a_worker_killed_mid_transaction_leaves_everything_done_once(
    point: str, celery_worker_process: Any, admin_user: Any, make_player: Any, tmp_path: Path
) -> None:
    marker = tmp_path / "paused"
    tournament = _tournament(admin_user, make_player, point=point)
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


def test_a_worker_killed_in_a_batched_start_step_leaves_every_table_seated_once(
    celery_worker_process: Any, admin_user: Any, make_player: Any, tmp_path: Path, settings: Any
) -> None:
    """A field of three tables started one table a batch (docs/tournaments.md "The batched start"): the worker
    SIGKILLed inside its first step's transaction; restarted (without the batch size: the rest in one step,
    the same tables from the same seed) and the sweeper's re-send, the tournament is seated, dealt and played
    to its end with one mint per table and everything else exactly once."""
    marker = tmp_path / "paused"
    settings.RAMINO_START_BATCH_TABLES = 1  # this process: the start's own first batch
    tournament = _tournament(admin_user, make_player, point=faults.START_BATCH)
    try:
        celery_worker_process.env["RAMINO_START_BATCH_TABLES"] = "1"  # the worker's steps: one table each
        with worker_paused_at(celery_worker_process, faults.START_BATCH, marker):
            admin_actions.start(tournament_id=tournament.pk)
            _wait_for(marker, timeout=40)
            time.sleep(0.2)
            celery_worker_process.kill()  # SIGKILL with the step's transaction open
        celery_worker_process.env.pop("RAMINO_START_BATCH_TABLES", None)
        tournament.refresh_from_db()
        assert tournament.start_seed is not None and tournament.tables_open == 1, (
            "the killed step kept nothing"
        )
        celery_worker_process.start()
        _finish(tournament, timeout=60)
    finally:
        celery_worker_process.env.pop("RAMINO_START_BATCH_TABLES", None)
        if celery_worker_process.process is None or celery_worker_process.process.poll() is not None:
            celery_worker_process.start()
    tournament.refresh_from_db()
    assert tournament.start_seed is None
    assert Table.objects.filter(tournament=tournament).count() == 3
    _assert_exactly_once(tournament)


def _quiet(tournament: Tournament, timeout: float) -> None:
    """Every open table between rounds with its job run (a paused tournament deals nothing), for a second."""
    from tournaments.live.models import Game, GameStatus

    deadline = time.monotonic() + timeout
    settled_since: float | None = None
    while time.monotonic() < deadline:
        games = Game.objects.filter(table__tournament=tournament, table__status="open")
        busy = (
            games.exclude(status=GameStatus.WAITING).exists()
            or Table.objects.filter(tournament=tournament, awaiting_job=True).exists()
            or Round.objects.filter(game__table__tournament=tournament, settled=False).exists()
        )
        if busy:
            settled_since = None
        elif settled_since is None:
            settled_since = time.monotonic()
        elif time.monotonic() - settled_since >= 1.0:
            return
        time.sleep(0.1)
    raise AssertionError("the paused tournament's tables never came to rest")


def test_a_worker_killed_in_a_group_plan_leaves_everything_done_once(
    celery_worker_process: Any, admin_user: Any, make_player: Any, tmp_path: Path, settings: Any
) -> None:
    """Twelve entrants at four tables of three in two table groups of two (`RAMINO_TABLE_GROUP_TABLES` = 2 here,
    where the tournament starts, and in the worker, which keeps the groups). Paused at once, so that every table
    comes to rest between rounds; then two players of the first table lose their chips to the third (a ledger
    transfer, as a settlement would) and that table's job is sent, as the sweeper sends it: it busts both,
    and its table, one player against three everywhere else, takes a player from its group's other table, a
    plan within the group (docs/tournaments.md "Table groups"). The worker is SIGKILLed with that plan written
    and not committed; restarted without the fault point and the tournament resumed, it is played to its end
    with everything done exactly once."""
    from ledger.services import postings
    from tournaments.live import dispatch
    from tournaments.live.models import Game, Seat
    from tournaments.multi_table.groups import TableGroup
    from tournaments.multi_table.task_names import TABLE_ROUND_OVER

    marker = tmp_path / "paused"
    settings.RAMINO_TABLE_GROUP_TABLES = 2
    tournament = simulation.create_multi(
        admin_user,
        name="group crash",
        entrants=ENTRANTS,
        seats=3,
        buy_in=100,
        fee=10,
        starting_stack=2000,  # nobody busts before the pause: the first eight rounds at PCR 1 cost a few hundred
        pcr_schedule=[1, 1, 1, 1, 1, 1, 1, 1, 50, 200, 800],
        rounds_per_level=1,
        payouts=[60, 40],
        instant=True,
    )
    for i in range(ENTRANTS):
        registration.register(user=make_player(f"gcrash{i}"), tournament_id=tournament.pk)
    try:
        celery_worker_process.env["RAMINO_TABLE_GROUP_TABLES"] = "2"
        with worker_paused_at(celery_worker_process, faults.GROUP_PLAN, marker):
            admin_actions.start(tournament_id=tournament.pk)
            # Paused once every table has played a round (its job busts after that round).
            deadline = time.monotonic() + 40
            while Table.objects.filter(tournament=tournament, live_game__current_round__isnull=True).exists():
                assert time.monotonic() < deadline, "a table never played its first round"
                time.sleep(0.05)
            admin_actions.pause(tournament_id=tournament.pk)
            assert TableGroup.objects.filter(tournament=tournament).count() == 2
            _quiet(tournament, timeout=40)
            tables = list(Table.objects.filter(tournament=tournament).order_by("pk"))
            first = tables[0]
            assert not marker.exists()
            assert [Seat.objects.filter(table=t, status="active").count() for t in tables] == [3, 3, 3, 3]
            seats = list(
                Seat.objects.filter(table=first, status="active")
                .select_related("stack_account")
                .order_by("pk")
            )
            stacks = [s.stack_account for s in seats if s.stack_account is not None]
            losers, winner = stacks[:2], stacks[2]
            lost = sum(a.balance for a in losers)
            postings.post_transfer(
                kind="transfer",
                legs=[*((a, -a.balance) for a in losers), (winner, lost)],
                idempotency_key=f"test:group-crash:{tournament.pk}",
                tournament_id=tournament.pk,
                reason="two players of the first table lose every chip to the third",
            )
            game = Game.objects.get(table=first)
            dispatch.send(TABLE_ROUND_OVER, (tournament.pk, first.pk, game.current_round_id))
            _wait_for(marker, timeout=40)
            assert marker.read_text().startswith(faults.GROUP_PLAN)
            time.sleep(0.2)
            celery_worker_process.kill()  # SIGKILL with the group's plan written, not committed
        # Nothing of the killed job was kept: the first table still seats its three, nobody busted or moved.
        assert Seat.objects.filter(table=first, status="active").count() == 3
        assert not TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).exists()
        assert not TournamentEvent.objects.filter(tournament=tournament, kind="moved").exists()
        celery_worker_process.start()
        admin_actions.resume(tournament_id=tournament.pk)  # its job sent again (`progress.resume_tables`)
        _finish(tournament, timeout=90)
    finally:
        celery_worker_process.env.pop("RAMINO_TABLE_GROUP_TABLES", None)
        celery_worker_process.kill()
        celery_worker_process.start()  # the session's worker as it was, for the tests after this one
    _assert_exactly_once(tournament)
