"""Guests of the demo play practice tables only (docs/api.md "The demo"): no chips, so no ring table and no
tournament, freerolls with a guaranteed prize included (403 `table.guest`, `tournament.guest`, changing
nothing); and once their token has expired they are purged (docs/operations.md "Guests"): tables ended,
tokens and seat addresses gone, the account deactivated, their rounds kept under their name."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from knox.models import AuthToken

from ledger.models import Account, Transfer
from ledger.services import grants
from tests.clients import api_client
from tests.factories import MultiTournamentFactory, PlayerFactory, TableFactory, TournamentFactory
from tournaments.live.models import Game, Round, RoundPlayer, Seat, Table, TableStatus
from tournaments.live.rounds import start as round_start
from tournaments.practice import guests
from tournaments.tasks import purge_guests
from tournaments.tournament.models import TournamentEntry

pytestmark = pytest.mark.django_db


def _guest() -> tuple[Any, dict[str, Any]]:
    answer = api_client().post("/api/v1/demo/")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    return api_client(token=body["token"]), body


@pytest.mark.parametrize(
    "make",
    [
        lambda: TournamentFactory.create(kind="quick", buy_in=0, fee=0, guarantee=500),
        lambda: TournamentFactory.create(buy_in=0, fee=0, guarantee=500),
        lambda: MultiTournamentFactory.create(buy_in=0, fee=0, guarantee=500),
    ],
    ids=["quick game", "sit-and-go", "multi-table"],
)
def test_a_guest_cannot_enter_a_freeroll(make: Any) -> None:
    tournament = make()
    client, _ = _guest()
    transfers = Transfer.objects.count()
    refused = client.post(f"/api/v1/tournaments/{tournament.pk}/register/")
    assert refused.status_code == 403, refused.content
    assert refused.json()["error"]["code"] == "tournament.guest"
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    assert Transfer.objects.count() == transfers
    # A player may.
    player = api_client(PlayerFactory.create(username="ann"))
    assert player.post(f"/api/v1/tournaments/{tournament.pk}/register/").status_code == 201


def test_a_guest_cannot_sit_at_a_ring_table_public_or_private() -> None:
    grants.configure(enabled=True, welcome_chips=1_000, daily_floor=1_000)
    client, body = _guest()
    public = TableFactory.create()
    private = TableFactory.create(private=True, creator=PlayerFactory.create(username="ann"))
    for answer in (
        client.post(f"/api/v1/tables/{public.pk}/sit/", {"buy_in": 100}),
        client.post("/api/v1/tables/join/", {"code": private.code, "buy_in": 100}),
    ):
        assert answer.status_code == 403, answer.content
        assert answer.json()["error"]["code"] == "table.guest"
    guest = get_user_model().objects.get(username=body["username"])
    assert not Seat.objects.filter(player=guest, table__practice=False).exists()
    assert not Account.objects.filter(user=guest, kind="wallet").exists()


def test_guests_are_purged_once_their_token_has_expired() -> None:
    _, body = _guest()
    guest = get_user_model().objects.get(username=body["username"])
    game = Game.objects.get(pk=body["game"])
    assert round_start.start_round(game_id=game.pk) is not None
    Seat.objects.filter(player=guest).update(address="203.0.113.7")
    _, fresh = _guest()
    player = PlayerFactory.create(username="ann")  # no token: a person signs in again, never purged
    ttl = settings.REST_KNOX["TOKEN_TTL"]
    assert isinstance(ttl, timedelta)
    later = timezone.now() + ttl + timedelta(hours=1)
    AuthToken.objects.filter(user__username=fresh["username"]).update(expiry=later + timedelta(days=1))

    done = guests.purge_guests(now=later)
    assert (done.guests, done.tables) == (1, 1)
    guest.refresh_from_db()
    assert not guest.is_active and guest.get_username() == body["username"]
    assert not AuthToken.objects.filter(user=guest).exists()
    assert not Seat.objects.filter(player=guest).exclude(address="").exists()
    # The practice table ended: closed (a running round is played out by the server, the guest's seat
    # leaving).
    assert Table.objects.get(pk=body["table"]).status == TableStatus.CLOSED
    assert Seat.objects.get(table_id=body["table"], player=guest).status in ("leaving", "left")
    # The round stays for the record, under the guest's name.
    round_ = Round.objects.get(game=game, number=1)
    assert (
        body["username"] in round_.players and RoundPlayer.objects.filter(round=round_, user=guest).exists()
    )
    # The token no longer plays; the other guest and the player are untouched; running again purges nothing.
    assert api_client(token=body["token"]).get("/api/v1/wallet/").status_code == 401
    assert get_user_model().objects.get(username=fresh["username"]).is_active and player.is_active
    assert guests.purge_guests(now=later).guests == 0
    assert "tournaments.purge_guests" in {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()}
    assert purge_guests.name == "tournaments.purge_guests"
