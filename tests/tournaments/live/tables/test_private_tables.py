"""Private tables (issue 31, defects 7 and 21): admins read and close them, staff read them; an empty one closes by
itself after the set time; creating one is rate-limited (per user and per address) and refused to guests; its
creator is seated on creation with a buy-in, through the same service as sitting."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.services import create_guest
from ledger.models import Transfer, TransferKind
from ledger.services import accounts
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.tables.test_tables import TABLE, assert_envelope, wallet
from tournaments.live.http.throttling import TableCreateAddressThrottle, TableCreateUserThrottle
from tournaments.live.models import Game, GameStatus, Seat, SeatStatus, Table, TableStatus
from tournaments.live.tables import services as tables
from tournaments.tasks import close_idle_tables

pytestmark = pytest.mark.django_db

PRIVATE = {**TABLE, "private": True}


# ------------------------------------------------------------------------------- admins and staff read them


def test_admins_read_and_close_a_private_table_staff_read_it(
    make_table: Any, make_player: Any, admin_user: Any, staff_user: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    table = make_table(private=True, creator=ann)
    assert client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    for user in (staff_user, admin_user):
        read = client_for(user).get(f"/api/v1/tables/{table.pk}/")
        assert read.status_code == 200, read.content
        # reading it gives nobody the code: that stays its creator's and players'
        assert read.json()["code"] is None and read.json()["players"][0]["username"] == "ann"
    assert_envelope(
        client_for(staff_user).post(f"/api/v1/tables/{table.pk}/close/"), 403, "table.close_forbidden"
    )
    assert Table.objects.get(pk=table.pk).status == TableStatus.OPEN
    closed = client_for(admin_user).post(f"/api/v1/tables/{table.pk}/close/")
    assert closed.status_code == 200, closed.content
    assert Table.objects.get(pk=table.pk).status == TableStatus.CLOSED
    assert wallet(ann) == 10_000  # cashed out
    assert_reconciled()


def test_others_still_get_404_for_a_private_table(make_table: Any, make_player: Any, client_for: Any) -> None:
    table = make_table(private=True, creator=make_player())
    olga = client_for(make_player("olga"))
    assert_envelope(olga.get(f"/api/v1/tables/{table.pk}/"), 404, "table.not_found")
    assert_envelope(olga.post(f"/api/v1/tables/{table.pk}/close/"), 404, "table.not_found")


# ------------------------------------------------------------------------------------ empty ones close


def _age(table: Table, minutes: float) -> None:
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - timedelta(minutes=minutes))


def test_an_empty_private_table_closes_by_itself_after_the_set_time(
    make_table: Any, make_player: Any, settings: Any
) -> None:
    settings.RAMINO_PRIVATE_TABLE_IDLE_MINUTES = 30
    old_empty = make_table(private=True, creator=make_player())
    young_empty = make_table(private=True, creator=make_player())
    public_empty = make_table()
    _age(old_empty, 31)
    _age(young_empty, 29)
    _age(public_empty, 31)
    assert close_idle_tables.run() == 1
    assert Table.objects.get(pk=old_empty.pk).status == TableStatus.CLOSED
    assert Game.objects.get(table=old_empty).status == GameStatus.CLOSED
    assert Table.objects.get(pk=young_empty.pk).status == TableStatus.OPEN
    assert Table.objects.get(pk=public_empty.pk).status == TableStatus.OPEN
    assert close_idle_tables.run() == 0  # closing twice closes nothing more


def test_a_private_table_with_a_player_or_a_recent_leave_stays_open(
    make_table: Any, make_player: Any, client_for: Any, settings: Any
) -> None:
    settings.RAMINO_PRIVATE_TABLE_IDLE_MINUTES = 30
    ann, bob = make_player("ann"), make_player("bob")
    seated = make_table(private=True, creator=ann)
    client_for(ann).post(f"/api/v1/tables/{seated.pk}/sit/", {"buy_in": 200})
    left_lately = make_table(private=True, creator=bob)
    client_for(bob).post(f"/api/v1/tables/{left_lately.pk}/sit/", {"buy_in": 200})
    client_for(bob).post(f"/api/v1/tables/{left_lately.pk}/leave/")
    for table in (seated, left_lately):
        _age(table, 120)
    assert tables.close_idle_private_tables() == 0
    # the leave is 31 minutes old: nobody has sat there since
    Seat.objects.filter(table=left_lately).update(left_at=timezone.now() - timedelta(minutes=31))
    assert tables.close_idle_private_tables() == 1
    assert Table.objects.get(pk=left_lately.pk).status == TableStatus.CLOSED
    assert Table.objects.get(pk=seated.pk).status == TableStatus.OPEN
    assert Seat.objects.get(table=seated).status == SeatStatus.ACTIVE
    assert_reconciled()


def test_the_sweep_is_a_beat_job() -> None:
    from django.conf import settings

    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "tournaments.close_idle_tables" in names


# ------------------------------------------------------------------------------- creation is limited


def test_creating_private_tables_is_throttled_per_user(
    make_player: Any, client_for: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(TableCreateUserThrottle, "THROTTLE_RATES", {"table_create_user": "2/hour"})
    ann = client_for(make_player("ann"))
    statuses = [ann.post("/api/v1/tables/", PRIVATE, format="json").status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    assert_envelope(ann.post("/api/v1/tables/", PRIVATE, format="json"), 429, "throttled")
    assert Table.objects.count() == 2
    # reading the list is not creating
    assert ann.get("/api/v1/tables/").status_code == 200
    # another player (same address, under its own limit) still creates
    assert client_for(make_player("bob")).post("/api/v1/tables/", PRIVATE, format="json").status_code == 201


def test_creating_private_tables_is_throttled_per_address(
    make_player: Any, client_for: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(TableCreateAddressThrottle, "THROTTLE_RATES", {"table_create_address": "2/hour"})
    statuses = [
        client_for(make_player()).post("/api/v1/tables/", PRIVATE, format="json").status_code
        for _ in range(3)
    ]
    assert statuses == [201, 201, 429]


def test_admins_creating_public_tables_are_not_throttled(
    admin_user: Any, client_for: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(TableCreateUserThrottle, "THROTTLE_RATES", {"table_create_user": "1/hour"})
    monkeypatch.setattr(TableCreateAddressThrottle, "THROTTLE_RATES", {"table_create_address": "1/hour"})
    admin = client_for(admin_user)
    assert [admin.post("/api/v1/tables/", TABLE, format="json").status_code for _ in range(3)] == [201] * 3


def test_a_guest_creates_no_table(client_for: Any) -> None:
    guest = create_guest()
    assert_envelope(client_for(guest).post("/api/v1/tables/", PRIVATE, format="json"), 403, "table.guest")
    assert not Table.objects.exists()


# ------------------------------------------------------------------------- the creator sits on creation


def test_the_creator_is_seated_on_creation_with_the_buy_in(make_player: Any, client_for: Any) -> None:
    ann = make_player("ann")
    response = client_for(ann).post(
        "/api/v1/tables/", {**PRIVATE, "game": "board", "buy_in": 300}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["game"] == "board" and body["code"]
    assert body["players"] == [{"username": "ann", "seat": 0, "chips": 300, "status": "active"}]
    assert wallet(ann) == 10_000 - 300
    buy_in = Transfer.objects.get(kind=TransferKind.BUY_IN)
    assert buy_in.table_id == body["id"]
    assert_reconciled()


def test_a_refused_buy_in_creates_no_table(make_player: Any, client_for: Any) -> None:
    poor = make_player("poor", chips=50)
    client = client_for(poor)
    assert_envelope(client.post("/api/v1/tables/", {**PRIVATE, "buy_in": 100}, format="json"), 422)
    assert_envelope(
        client.post("/api/v1/tables/", {**PRIVATE, "buy_in": 5000}, format="json"),
        422,
        "table.buy_in_out_of_range",
    )
    assert not Table.objects.exists() and not Seat.objects.exists()
    assert accounts.get_wallet(user=poor).balance == 50
    assert_reconciled()


@pytest.mark.parametrize(
    "game", ["rummy500", "rummy500_household", "basic", "block", "wrotham", "romme", "board"]
)
def test_every_game_makes_a_private_table(game: str, make_player: Any, client_for: Any) -> None:
    response = client_for(make_player()).post("/api/v1/tables/", {**PRIVATE, "game": game}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["game"] == game
