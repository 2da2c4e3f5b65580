"""On PostgreSQL with real connections: the race for the last seat leaves exactly one entry; the after-round
job run twice, or concurrently, pays once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from ledger.models import Account, AccountKind, Transfer, TransferKind
from tests.clients import api_client
from tests.ledger.utils import assert_reconciled
from tests.tournaments.single_table.helpers import bots_play_the_round, game_of, new_tournament
from tournaments import tasks
from tournaments.live.models import Seat
from tournaments.live.rounds import start as round_start
from tournaments.single_table import progress
from tournaments.single_table.task_names import ADVANCE_TOURNAMENT
from tournaments.tournament import registration
from tournaments.tournament.models import TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_worker_runs_the_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests commit: a suite's Celery worker would deal and advance by itself. Here the tests run the
    jobs, so the messages go nowhere."""
    from tournaments.live.messaging import dispatch

    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)


def _together(calls: list[Any]) -> list[Any]:
    barrier = threading.Barrier(len(calls))

    def one(call: Any) -> Any:
        try:
            barrier.wait()
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(one, calls))


def test_two_players_racing_for_the_last_seat_leave_one_entry(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user, max_entrants=3)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name, chips=1000), tournament_id=tournament.pk)
    racers = [make_player(name, chips=1000) for name in ("cid", "dot")]

    def register(user: Any) -> Any:
        def call() -> tuple[int, Any]:
            answer = api_client(user).post(f"/api/v1/tournaments/{tournament.pk}/register/", format="json")
            return answer.status_code, answer.json()

        return call

    results = sorted(_together([register(u) for u in racers]), key=lambda r: r[0])
    assert [status for status, _ in results] == [201, 409], results
    assert results[1][1]["error"]["code"] == "tournament.full"
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 3
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert Seat.objects.filter(table__tournament=tournament).count() == 3
    # The loser paid nothing.
    loser = next(u for u in racers if not TournamentEntry.objects.filter(player=u).exists())
    assert Account.objects.get(kind=AccountKind.WALLET, user=loser).balance == 1000
    assert_reconciled()


def test_the_after_round_job_concurrently_and_again_pays_once(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user, kind="quick", rounds=1, max_entrants=2, tiebreak_rounds=0)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name, chips=1000), tournament_id=tournament.pk)
    game = game_of(tournament)
    assert round_start.start_round(game_id=game.pk) is not None
    round_ = bots_play_the_round(game)

    def job() -> str:
        return progress.advance(tournament_id=tournament.pk, round_id=round_.pk)

    outcomes = _together([job, job, job])
    assert sorted(outcomes) == ["finished", "idle", "idle"]
    assert job() == "idle"  # the redelivered message
    assert Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.PAYOUT).count() == 1
    assert sum(TournamentEntry.objects.filter(tournament=tournament).values_list("prize", flat=True)) == 200
    assert_reconciled()


def test_a_job_killed_mid_way_leaves_nothing_and_the_rerun_pays_once(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = new_tournament(admin_user, kind="quick", rounds=1, max_entrants=2, tiebreak_rounds=0)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name, chips=1000), tournament_id=tournament.pk)
    game = game_of(tournament)
    assert round_start.start_round(game_id=game.pk) is not None
    round_ = bots_play_the_round(game)

    def killed(tournament: Any) -> None:
        raise SystemExit("worker killed")  # after the prizes were posted, before the table is closed

    real = progress.close_tables
    monkeypatch.setattr(progress, "close_tables", killed)
    with pytest.raises(SystemExit):
        progress.advance(tournament_id=tournament.pk, round_id=round_.pk)
    assert not Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.PAYOUT).exists()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    monkeypatch.setattr(progress, "close_tables", real)
    assert progress.advance(tournament_id=tournament.pk, round_id=round_.pk) == "finished"
    assert Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.PAYOUT).count() == 1
    assert_reconciled()


def test_the_sweeper_sends_a_lost_after_round_message_again(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournaments.live.messaging import dispatch

    tournament = new_tournament(admin_user, kind="quick", rounds=2, max_entrants=2)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name, chips=1000), tournament_id=tournament.pk)
    game = game_of(tournament)
    assert round_start.start_round(game_id=game.pk) is not None
    sent: list[tuple[str, Any]] = []
    monkeypatch.setattr(
        dispatch, "send", lambda name, args, countdown=None, queue=None: sent.append((name, tuple(args)))
    )
    bots_play_the_round(game)  # its after-round message is "lost" (recorded, never delivered)
    assert (ADVANCE_TOURNAMENT, (tournament.pk, game_of(tournament).current_round_id)) in sent
    sent.clear()
    assert tasks.sweep_all(grace_seconds=0) == 1
    assert sent == [(ADVANCE_TOURNAMENT, (tournament.pk, None))]
    assert progress.advance(tournament_id=tournament.pk) == "deal"
    sent.clear()
    # Now a deal is scheduled: the sweeper sends the start (its own job), not the tournament's.
    tasks.sweep_all(grace_seconds=0)
    assert all(name != ADVANCE_TOURNAMENT for name, _ in sent)
