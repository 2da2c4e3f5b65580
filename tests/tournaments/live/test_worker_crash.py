"""SIGKILL the worker while rounds are being played out and settled; after a restart (and the beat sweeper
re-arming lost clocks) every round is settled exactly once and the ledger reconciles."""

from __future__ import annotations

import time
from typing import Any

import pytest

from ledger.models import Transfer
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import expected_transfers
from tournaments import tasks
from tournaments.live.models import Game, Round, Seat, SeatStatus

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

TABLES = 4


def test_rounds_settle_exactly_once_across_a_worker_crash(
    celery_worker_process: Any, make_table: Any, make_player: Any, client_for: Any
) -> None:
    games = []
    for t in range(TABLES):
        table = make_table(options={"turn_seconds": 30, "time_bank_seconds": 0})
        users = [make_player(f"t{t}a"), make_player(f"t{t}b")]
        for user in users:
            assert (
                client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 500}).status_code == 200
            )
        game = Game.objects.get(table=table)
        deadline = time.monotonic() + 30
        while not Round.objects.filter(game=game).exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert Round.objects.filter(game=game).exists()
        games.append((game, table, users))
    # everybody leaves: the worker plays every turn at once, then settles and cashes out
    for _game, table, users in games:
        for user in users:
            assert client_for(user).post(f"/api/v1/tables/{table.pk}/leave/").status_code == 200
    time.sleep(0.4)
    celery_worker_process.kill()
    celery_worker_process.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if (
            all(Round.objects.get(game=g).settled for g, _, _ in games)
            and not Seat.objects.exclude(status=SeatStatus.LEFT).exists()
        ):
            break
        tasks.sweep_all(grace_seconds=0)  # what beat does every 30 s
        time.sleep(0.5)
    for game, _table, _users in games:
        round_ = Round.objects.get(game=game)
        assert round_.settled, f"round of game {game.pk} not settled"
        assert round_.transfers == expected_transfers(round_)
        settlements = Transfer.objects.filter(round_id=round_.pk, kind="settlement")
        assert settlements.count() == (1 if round_.transfers else 0)
    assert not Seat.objects.exclude(status=SeatStatus.LEFT).exists()
    assert Transfer.objects.filter(kind="cash_out").count() <= 2 * TABLES
    assert_reconciled()
