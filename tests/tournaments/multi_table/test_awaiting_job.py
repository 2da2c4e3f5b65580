"""A table of a multi-table tournament deals nothing between its round's end and its job (`Table.awaiting_job`):
another table's job may send it a deal meanwhile (players it received, round-for-round), and a deal first
would release the seats left without chips before the job busts them (their entries then stuck in play)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, new_multi, register_all
from tournaments.live.messaging import dispatch
from tournaments.live.models import SEATED_STATUSES, Game, Round, Seat, Table
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import progress
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament import admin_actions
from tournaments.tournament.models import EntryStatus, TournamentEntry

pytestmark = pytest.mark.django_db


def test_a_deal_before_the_job_waits_for_it(admin_user: Any, make_player: Any) -> None:
    tournament = new_multi(admin_user, instant_rounds=True, starting_stack=1, pcr_schedule=[1])
    register_all(tournament, [make_player(f"w{i}") for i in range(8)])
    with dispatch.captured() as queue:
        admin_actions.start(tournament_id=tournament.pk)
        for name, args in list(queue):
            if name == dispatch.START_ROUND:
                Game.objects.filter(pk=args[0], next_round_at__isnull=False).update(
                    next_round_at=timezone.now()
                )
                round_start.start_round(game_id=args[0])
        jobs = [args for name, args in queue if name == TABLE_ROUND_OVER]
        assert jobs, "every instant round ended and sent its table's job"
        # A table with a seat left at 0 chips, its job not run yet: a deal sent now (as `wake` does).
        table_id = next(
            args[1]
            for args in jobs
            if Seat.objects.filter(
                table_id=args[1], status__in=SEATED_STATUSES, stack_account__balance=0
            ).exists()
        )
        table = Table.objects.get(pk=table_id)
        assert table.awaiting_job
        game = Game.objects.get(table=table)
        broke = set(
            Seat.objects.filter(
                table=table, status__in=SEATED_STATUSES, stack_account__balance=0
            ).values_list("pk", flat=True)
        )
        rounds = Round.objects.filter(game=game).count()
        assert round_start.start_round(game_id=game.pk) is None
        assert Round.objects.filter(game=game).count() == rounds
        assert broke <= set(
            Seat.objects.filter(table=table, status__in=SEATED_STATUSES).values_list("pk", flat=True)
        )
        # The job then busts them, and deals.
        round_id = next(args[2] for args in jobs if args[1] == table_id)
        assert progress.after_table_round(
            tournament_id=tournament.pk, table_id=table_id, round_id=round_id
        ) in ("dealt", "broken", "finished")
        table.refresh_from_db()
        assert not table.awaiting_job
        busted = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED)
        assert set(busted.values_list("seat_id", flat=True)) == {None}
        assert busted.count() >= len(broke)
        assert not TournamentEntry.objects.filter(
            tournament=tournament, status=EntryStatus.PLAYING, seat__status="left"
        ).exists()
    chips_conserved(tournament)
    assert_reconciled()
