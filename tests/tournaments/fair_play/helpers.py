"""Driving a player to `absent` in the test's process: the clock plays every turn (the player never moves)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game, GameStatus, Seat, SeatStatus, Table
from tournaments.practice import services as practice


def time_out_until_absent(table: Table, player: Any) -> Seat:
    """Run the clocks (and a practice table's bots) until `player`'s seat is marked absent."""
    game = Game.objects.get(table=table)
    for _ in range(400):
        seat = Seat.objects.filter(table=table, player=player).order_by("-pk").first()
        assert seat is not None
        if seat.status == SeatStatus.ABSENT:
            return seat
        game.refresh_from_db()
        assert game.status == GameStatus.PLAYING
        if table.practice and practice.bot_turn(game_id=game.pk, version=game.version):
            continue
        if game.claims_deadline is not None:
            Game.objects.filter(pk=game.pk).update(claims_deadline=timezone.now() - timedelta(seconds=1))
            assert clock_runs.run_close_claims(game_id=game.pk, version=game.version)
            continue
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        assert clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version)
    raise AssertionError("the player was never marked absent")
