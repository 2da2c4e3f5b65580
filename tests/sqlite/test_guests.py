"""Guests on SQLite: refused at tournaments and ring tables, and purged once their token has expired (the
hourly job's service), their round kept (docs/operations.md "Guests")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from knox.models import AuthToken

from tests.clients import api_client
from tests.factories import TableFactory, TournamentFactory
from tests.sqlite.harness import Site
from tournaments.live.models import Round, Table, TableStatus
from tournaments.live.rounds import start as round_start
from tournaments.practice import guests

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


def test_a_guest_plays_practice_only_and_is_purged_after_its_token(sqlite_site: Site) -> None:
    demo = api_client().post("/api/v1/demo/")
    assert demo.status_code == 201, demo.content
    body = demo.json()
    client = api_client(token=body["token"])
    freeroll = TournamentFactory.create(buy_in=0, fee=0, guarantee=300)
    answer = client.post(f"/api/v1/tournaments/{freeroll.pk}/register/")
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "tournament.guest"
    answer = client.post(f"/api/v1/tables/{TableFactory.create().pk}/sit/", {"buy_in": 100})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "table.guest"

    assert round_start.start_round(game_id=body["game"]) is not None
    AuthToken.objects.update(expiry=timezone.now() - timedelta(minutes=1))
    assert guests.purge_guests(now=timezone.now() + timedelta(hours=1)).guests == 1
    guest = get_user_model().objects.get(username=body["username"])
    assert not guest.is_active and not AuthToken.objects.filter(user=guest).exists()
    assert Table.objects.get(pk=body["table"]).status == TableStatus.CLOSED
    assert body["username"] in Round.objects.get(game_id=body["game"], number=1).players
