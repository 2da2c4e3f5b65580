"""On PostgreSQL with real connections: the job after a table's round run twice at once does the work once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, fixed_result, seated
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Seat, SeatStatus
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import progress
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentEvent

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_job_twice_at_once_busts_and_moves_once(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(
        admin_user, make_player, [[300, 100, 100], [200, 200, 200], [200, 200, 200]]
    )
    monkeypatch.setattr(round_start, "instant_result", fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": -50}))
    with dispatch.captured():
        round_ = round_start.start_round(game_id=Game.objects.get(table=tables[0]).pk)
    assert round_ is not None
    barrier = threading.Barrier(2)

    def job() -> str:
        try:
            with dispatch.captured():
                barrier.wait()
                return progress.after_table_round(
                    tournament_id=tournament.pk, table_id=tables[0].pk, round_id=round_.pk
                )
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=2) as pool:
        answers = sorted(pool.map(lambda _: job(), range(2)))
    # One broke the table (its last player moved); the other found it closed.
    assert answers == ["broken", "closed"]
    tournament.refresh_from_db()
    assert tournament.players_left == 7 and tournament.tables_open == 2 and tournament.bust_groups == 1
    kinds = list(TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert kinds.count("busted") == 1 and kinds.count("moved") == 1 and kinds.count("table_broken") == 1
    assert TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).count() == 2
    assert Seat.objects.filter(table__tournament=tournament).exclude(status=SeatStatus.LEFT).count() == 7
    assert TournamentEntry.objects.get(pk=entries["t0p0"].pk).times_moved == 1
    assert chips_conserved(tournament) == 1700
    assert_reconciled()
