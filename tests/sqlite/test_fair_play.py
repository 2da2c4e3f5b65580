"""Fair play on the embedded default (SQLite): a ring player timed out until absent is recorded, a second
abandonment bars new seats (403 `seat.barred`), and the player reads it at GET /api/v1/me/fair-play/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.clients import api_client
from tests.factories import PlayerFactory, TableFactory, TournamentFactory
from tests.tournaments.fair_play.helpers import time_out_until_absent
from tournaments.fair_play.models import Abandonment, AbandonmentKind
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

CLOCKS = {"turn_seconds": 7, "time_bank_seconds": 0, "max_timeouts": 2, "max_timeouts_per_round": 6}


def _absent_at_a_new_table(ann: Any, bob: Any) -> None:
    table = TableFactory.create(options=CLOCKS)
    for user in (ann, bob):
        assert api_client(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    assert round_start.start_round(game_id=Game.objects.get(table=table).pk) is not None
    time_out_until_absent(table, ann)


def test_two_abandonments_bar_new_seats_on_sqlite(monkeypatch: Any) -> None:
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)
    ann, bob = PlayerFactory.create(username="ann"), PlayerFactory.create(username="bob")
    _absent_at_a_new_table(ann, bob)
    # Still seated (absent) there, ann takes a seat elsewhere: one abandonment is only a warning.
    _absent_at_a_new_table(ann, bob)
    assert (
        list(Abandonment.objects.filter(player=ann).values_list("kind", flat=True))
        == [AbandonmentKind.RING_ABSENT] * 2
    )
    body = api_client(ann).get("/api/v1/me/fair-play/").json()
    assert body["streak"] == 2 and body["reason"] == "abandonment" and body["barred_until"] is not None
    answer = api_client(ann).post(f"/api/v1/tables/{TableFactory.create().pk}/sit/", {"buy_in": 300})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "seat.barred"
    sng = TournamentFactory.create()
    answer = api_client(ann).post(f"/api/v1/tournaments/{sng.pk}/register/")
    assert answer.status_code == 403 and answer.json()["error"]["details"]["until"] == body["barred_until"]
