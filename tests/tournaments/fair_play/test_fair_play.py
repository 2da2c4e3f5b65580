"""Fair play for quitters (docs/rules.md "Fair play"): an absent seat is recorded outside practice, repeated
abandonment bars new seats and one-table registrations (403 `seat.barred`, nothing changed), staff lift a bar,
and the player reads their record at GET /api/v1/me/fair-play/."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from ledger.services import accounts
from tests.factories import FAST, MultiTournamentFactory, TournamentFactory
from tests.ledger.utils import assert_reconciled
from tests.tournaments.fair_play.helpers import time_out_until_absent
from tournaments.fair_play import services
from tournaments.fair_play.models import Abandonment, AbandonmentKind, BarLift
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Seat, Table
from tournaments.live.rounds import start as round_start
from tournaments.practice import services as practice
from tournaments.tournament.models import TournamentEntry

pytestmark = pytest.mark.django_db

CLOCKS = {"turn_seconds": 7, "time_bank_seconds": 0, "max_timeouts": 2, "max_timeouts_per_round": 6}


@pytest.fixture(autouse=True)
def no_broker(monkeypatch: Any) -> None:
    """The services' tasks are run by the test itself (the clocks below), never sent."""
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)


def _barred(player: Any, *, now: datetime | None = None) -> None:
    """Two abandonments a minute apart, the second just now: barred for 10 minutes."""
    now = now or timezone.now()
    for at in (now - timedelta(minutes=1), now):
        services.record_abandonment(player_id=player.pk, kind=AbandonmentKind.RING_ABSENT, at=at)


def test_a_player_timed_out_until_absent_at_a_ring_table_is_recorded(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    table = make_table(options=CLOCKS)
    ann, bob = make_player("ann"), make_player("bob")
    for user in (ann, bob):
        assert client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    assert round_start.start_round(game_id=Game.objects.get(table=table).pk) is not None
    assert not Abandonment.objects.exists()
    time_out_until_absent(table, ann)
    recorded = Abandonment.objects.get(player=ann)
    assert recorded.kind == AbandonmentKind.RING_ABSENT
    assert recorded.table_id == table.pk and recorded.tournament_id is None
    # One abandonment is a warning: the player may still sit elsewhere.
    body = client_for(ann).get("/api/v1/me/fair-play/").json()
    assert body["warned"] is True and body["barred_until"] is None and body["streak"] == 1
    assert body["next_bar_seconds"] == 600
    assert body["abandonments"][0]["kind"] == "ring_absent" and body["abandonments"][0]["table"] == table.pk


def test_practice_never_records(make_player: Any) -> None:
    ann = make_player("ann")
    table = practice.start_practice(player=ann, game="rummy500", bots=1, level="easy", options=CLOCKS)
    assert round_start.start_round(game_id=Game.objects.get(table=table).pk) is not None
    time_out_until_absent(table, ann)
    assert not Abandonment.objects.exists()


def test_a_barred_player_cannot_take_a_new_seat_and_nothing_changes(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    table = make_table()
    _barred(ann)
    wallet = accounts.get_wallet(user=ann)
    before = wallet.balance
    answer = client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300})
    assert answer.status_code == 403
    error = answer.json()["error"]
    assert error["code"] == "seat.barred" and error["details"]["reason"] == "abandonment"
    until = datetime.fromisoformat(error["details"]["until"])
    assert timedelta(minutes=8) < until - timezone.now() <= timedelta(minutes=10)
    assert not Seat.objects.filter(table=table).exists()
    wallet.refresh_from_db()
    assert wallet.balance == before
    # A private table created with a buy-in is refused whole: no table is left behind.
    tables_before = Table.objects.count()
    created = client_for(ann).post(
        "/api/v1/tables/",
        {
            "game": "rummy500",
            "seats": 2,
            "pcr": 1,
            "min_buy_in": 100,
            "max_buy_in": 500,
            "private": True,
            "buy_in": 200,
        },
        format="json",
    )
    assert created.status_code == 403 and created.json()["error"]["code"] == "seat.barred"
    assert Table.objects.count() == tables_before
    assert_reconciled()


def test_the_message_is_italian(make_table: Any, make_player: Any, client_for: Any) -> None:
    ann = make_player("ann")
    table = make_table()
    _barred(ann)
    answer = client_for(ann).post(
        f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert answer.status_code == 403
    assert "You left" not in answer.json()["error"]["message"]


def test_the_bar_ends_and_a_top_up_is_not_a_new_seat(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    table = make_table()
    assert client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    _barred(ann)
    assert client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 100}).status_code == 200
    # Eleven minutes later, the 10-minute bar is over.
    Abandonment.objects.filter(player=ann).update(at=timezone.now() - timedelta(minutes=11))
    other = make_table()
    assert client_for(ann).post(f"/api/v1/tables/{other.pk}/sit/", {"buy_in": 300}).status_code == 200


def test_one_table_registration_is_refused_and_multi_table_is_not(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    _barred(ann)
    for kind in ("single", "quick"):
        tournament = TournamentFactory.create(created_by=admin_user, kind=kind)
        answer = client_for(ann).post(f"/api/v1/tournaments/{tournament.pk}/register/")
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "seat.barred"
        assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    multi = MultiTournamentFactory.create(created_by=admin_user)
    assert client_for(ann).post(f"/api/v1/tournaments/{multi.pk}/register/").status_code == 201
    assert_reconciled()


def test_staff_lift_a_bar_through_the_admin(
    admin_user: Any, make_table: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    _barred(ann)
    table = make_table()
    assert client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 403
    assert client_for(ann).get("/api/v1/me/fair-play/").json()["barred_until"] is not None
    client = Client()
    client.force_login(admin_user)
    changelist = "/admin/tournaments/abandonment/"
    assert client.get(changelist).status_code == 200
    picked = list(Abandonment.objects.filter(player=ann).values_list("pk", flat=True))
    answer = client.post(changelist, {"action": "lift_bars", "_selected_action": picked}, follow=True)
    assert answer.status_code == 200 and b"Lifted the bar of 1 player" in answer.content
    lift = BarLift.objects.get(player=ann)
    assert lift.lifted_by == admin_user and lift.lifted_at <= timezone.now()
    # The record stays; the bar is gone.
    assert Abandonment.objects.filter(player=ann).count() == 2
    body = client_for(ann).get("/api/v1/me/fair-play/").json()
    assert body["barred_until"] is None and body["streak"] == 0 and body["lifted_at"] is not None
    assert client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200


def test_the_endpoint_says_why_and_until_when(make_player: Any, client_for: Any) -> None:
    ann = make_player("ann")
    assert client_for(None).get("/api/v1/me/fair-play/").status_code in (401, 403)
    empty = client_for(ann).get("/api/v1/me/fair-play/").json()
    assert empty == {
        "barred_until": None,
        "reason": None,
        "streak": 0,
        "warned": False,
        "next_bar_seconds": 0,
        "lifted_at": None,
        "abandonments": [],
    }
    _barred(ann)
    body = client_for(ann).get("/api/v1/me/fair-play/").json()
    assert body["reason"] == "abandonment" and body["streak"] == 2 and body["next_bar_seconds"] == 1800
    assert datetime.fromisoformat(body["barred_until"]) > timezone.now()
    assert len(body["abandonments"]) == 2


def test_a_player_absent_in_a_one_table_tournament_is_recorded(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    tournament = TournamentFactory.create(created_by=admin_user, options={**FAST, **CLOCKS})
    ann, bob, cid = (make_player(name) for name in ("ann", "bob", "cid"))
    for user in (ann, bob, cid):
        assert client_for(user).post(f"/api/v1/tournaments/{tournament.pk}/register/").status_code == 201
    table = Table.objects.get(tournament=tournament)
    assert round_start.start_round(game_id=Game.objects.get(table=table).pk) is not None
    time_out_until_absent(table, ann)
    recorded = Abandonment.objects.get(player=ann)
    assert recorded.kind == AbandonmentKind.TOURNAMENT_ABSENT
    assert (recorded.table_id, recorded.tournament_id) == (table.pk, tournament.pk)


def test_the_audit_player_page_shows_the_record_and_the_bar(make_player: Any, staff_user: Any) -> None:
    ann = make_player("ann")
    staff = Client()
    staff.force_login(staff_user)
    quiet = staff.get("/audit/players/ann/").content.decode()
    assert 'data-role="barred-until"' not in quiet and "No abandonments." in quiet
    _barred(ann)
    html = staff.get("/audit/players/ann/").content.decode()
    assert 'data-role="barred-until"' in html
    assert html.count("absent at a ring table") == 2
    assert "/admin/tournaments/abandonment/?q=ann" in html


def test_joining_by_code_is_refused_and_staff_without_the_permission_cannot_lift(
    admin_user: Any, staff_user: Any, make_table: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    table = make_table(private=True)
    _barred(ann)
    answer = client_for(ann).post("/api/v1/tables/join/", {"code": table.code, "buy_in": 300}, format="json")
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "seat.barred"
    assert not Seat.objects.filter(table=table).exists()
    viewer = Client()
    staff_user.user_permissions.add(*Permission.objects.filter(codename="view_abandonment"))
    viewer.force_login(staff_user)
    changelist = "/admin/tournaments/abandonment/"
    page = viewer.get(changelist)
    assert (
        page.status_code == 200
        and b"absent at a ring table" in page.content
        and b"lift_bars" not in page.content
    )
    picked = list(Abandonment.objects.filter(player=ann).values_list("pk", flat=True))
    viewer.post(changelist, {"action": "lift_bars", "_selected_action": picked})
    assert not BarLift.objects.exists()
