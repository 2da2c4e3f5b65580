"""Helpers of the responsible-play tests: a clock the tests move, the stakes made over HTTP, and a ring round driven
to its end in the test's process (the clock plays every turn nobody plays)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from ledger.models import Transfer
from tests.clients import api_client
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game, GameStatus, Table


class Clock:
    """`django.utils.timezone.now` pinned to `at`, moved by the test (entries, seats and limits read it)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, at: datetime) -> None:
        self.at = at
        monkeypatch.setattr(timezone, "now", lambda: self.at)

    def advance(self, **delta: float) -> None:
        from datetime import timedelta

        self.at += timedelta(**delta)


def put_limits(user: Any, **values: Any) -> Any:
    return api_client(user).put("/api/v1/me/limits/", values, format="json")


def sit(user: Any, table_id: int, buy_in: int) -> Any:
    return api_client(user).post(f"/api/v1/tables/{table_id}/sit/", {"buy_in": buy_in}, format="json")


def refused_unchanged(response: Any, limit: str, transfers_before: int) -> dict[str, Any]:
    """The answer is 403 limits.exceeded naming `limit`, and no transfer was posted."""
    assert response.status_code == 403, response.content
    error = response.json()["error"]
    assert error["code"] == "limits.exceeded" and error["details"]["limit"] == limit, error
    assert Transfer.objects.count() == transfers_before
    return dict(error["details"])


def play_out_round(table: Table) -> None:
    """Expire every deadline and run the clocks until the table's current round is over."""
    game = Game.objects.get(table=table)
    first = game.version
    for _ in range(600):
        game.refresh_from_db()
        if game.status != GameStatus.PLAYING:
            return
        if game.claims_deadline is not None:
            Game.objects.filter(pk=game.pk).update(claims_deadline=timezone.now() - timedelta(seconds=1))
            clock_runs.run_close_claims(game_id=game.pk, version=game.version)
            continue
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version)
    raise AssertionError(f"the round never ended (from version {first})")
