"""The limits of docs/rules.md "Responsible play": stakes and net loss per day, week and month, time seated
per day; a cut at once, a raise or removal after seven days and withdrawable; every refusal changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from ledger.models import Transfer
from responsible.limits import periods, selectors, services
from responsible.limits.enforcement import sweep
from responsible.limits.models import LimitChange
from tests.clients import api_client
from tests.factories import PlayerFactory, TableFactory, TournamentFactory
from tests.ledger.utils import assert_reconciled
from tests.responsible.helpers import Clock, put_limits, refused_unchanged, sit
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Seat, SeatStatus
from tournaments.live.rounds import start as round_start
from tournaments.tournament.models import TournamentEntry

pytestmark = pytest.mark.django_db

ROME = ZoneInfo("Europe/Rome")
# A Wednesday, 11:00 in Rome.
WEDNESDAY = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)
    return Clock(monkeypatch, WEDNESDAY)


@pytest.fixture
def ann() -> Any:
    return PlayerFactory.create(username="ann", chips=100_000)


def test_periods_are_calendar_periods_in_the_site_time_zone() -> None:
    late_sunday = datetime(2026, 3, 15, 22, 30, tzinfo=UTC)  # 23:30 in Rome, Sunday
    assert periods.bounds(periods.Period.DAY, late_sunday, ROME) == (
        datetime(2026, 3, 15, tzinfo=ROME),
        datetime(2026, 3, 16, tzinfo=ROME),
    )
    assert periods.bounds(periods.Period.WEEK, late_sunday, ROME) == (
        datetime(2026, 3, 9, tzinfo=ROME),
        datetime(2026, 3, 16, tzinfo=ROME),
    )
    # 23:30 UTC on the 31st of December is already the new year in Rome.
    assert periods.bounds(periods.Period.MONTH, datetime(2026, 12, 31, 23, 30, tzinfo=UTC), ROME) == (
        datetime(2027, 1, 1, tzinfo=ROME),
        datetime(2027, 2, 1, tzinfo=ROME),
    )
    # The day summer time begins is 23 hours long.
    start, end = periods.bounds(periods.Period.DAY, datetime(2026, 3, 29, 12, tzinfo=UTC), ROME)
    assert end.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=23)


def test_a_stake_past_the_daily_stakes_limit_is_refused_and_changes_nothing(clock: Clock, ann: Any) -> None:
    assert put_limits(ann, stakes_day=500).status_code == 200
    assert sit(ann, TableFactory.create().pk, 300).status_code == 200
    before, table = Transfer.objects.count(), TableFactory.create()
    details = refused_unchanged(sit(ann, table.pk, 300), "stakes_day", before)
    assert details == {
        "limit": "stakes_day",
        "value": 500,
        "left": 200,
        "amount": 300,
        "resets_at": "2026-03-11T23:00:00Z",  # midnight in Rome
    }
    assert not Seat.objects.filter(table=table).exists()
    assert sit(ann, table.pk, 200).status_code == 200
    # The next day, in Rome, the limit starts again.
    clock.at = datetime(2026, 3, 11, 23, 0, tzinfo=UTC)
    assert sit(ann, TableFactory.create().pk, 500).status_code == 200
    assert_reconciled()


def test_the_refusal_speaks_italian(clock: Clock, ann: Any) -> None:
    put_limits(ann, stakes_day=100)
    answer = api_client(ann).post(
        f"/api/v1/tables/{TableFactory.create().pk}/sit/", {"buy_in": 300}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert answer.status_code == 403
    message = answer.json()["error"]["message"]
    assert "limite giornaliero" in message and "100" in message, message


def test_a_top_up_is_a_stake(clock: Clock, ann: Any) -> None:
    table = TableFactory.create()
    put_limits(ann, stakes_day=400)
    assert sit(ann, table.pk, 300).status_code == 200
    before = Transfer.objects.count()
    assert refused_unchanged(sit(ann, table.pk, 200), "stakes_day", before)["left"] == 100
    assert Seat.objects.get(table=table, player=ann).chips == 300
    assert sit(ann, table.pk, 100).status_code == 200


@pytest.mark.parametrize(
    ("limit", "first", "second", "resets"),
    [
        # Sunday 23:30 and Monday 00:30 in Rome: a new week.
        (
            "stakes_week",
            datetime(2026, 3, 15, 22, 30, tzinfo=UTC),
            datetime(2026, 3, 15, 23, 30, tzinfo=UTC),
            True,
        ),
        # Monday and Sunday of the same week.
        (
            "stakes_week",
            datetime(2026, 3, 9, 8, 0, tzinfo=UTC),
            datetime(2026, 3, 15, 20, 0, tzinfo=UTC),
            False,
        ),
        # The 31st, and the 1st at 00:30 in Rome.
        (
            "stakes_month",
            datetime(2026, 3, 31, 20, 0, tzinfo=UTC),
            datetime(2026, 3, 31, 22, 30, tzinfo=UTC),
            True,
        ),
        (
            "stakes_month",
            datetime(2026, 3, 1, 8, 0, tzinfo=UTC),
            datetime(2026, 3, 31, 20, 0, tzinfo=UTC),
            False,
        ),
    ],
    ids=["week-new", "week-same", "month-new", "month-same"],
)
def test_weekly_and_monthly_stakes(
    clock: Clock, ann: Any, limit: str, first: datetime, second: datetime, resets: bool
) -> None:
    clock.at = first - timedelta(hours=1)
    put_limits(ann, **{limit: 500})
    clock.at = first
    assert sit(ann, TableFactory.create().pk, 400).status_code == 200
    clock.at = second
    answer = sit(ann, TableFactory.create().pk, 400)
    assert answer.status_code == (200 if resets else 403), answer.json()


def test_net_loss_counts_what_came_back(clock: Clock, ann: Any) -> None:
    put_limits(ann, loss_day=300)
    table = TableFactory.create()
    assert sit(ann, table.pk, 300).status_code == 200
    # Leaving with no round running cashes the 300 out: they came back, the loss is 0 again.
    assert api_client(ann).post(f"/api/v1/tables/{table.pk}/leave/").status_code == 200
    assert sit(ann, table.pk, 300).status_code == 200
    before = Transfer.objects.count()
    details = refused_unchanged(sit(ann, TableFactory.create().pk, 100), "loss_day", before)
    assert details["left"] == 0
    body = api_client(ann).get("/api/v1/me/limits/").json()
    assert body["loss_day"] | {"resets_at": None} == {
        "value": 300,
        "pending": None,
        "applies_at": None,
        "used": 300,
        "left": 0,
        "resets_at": None,
    }


def test_a_winning_day_leaves_room_for_more_stakes(clock: Clock, ann: Any) -> None:
    """Net loss is stakes minus returns: chips won and cashed out make room under a loss limit."""
    bob = PlayerFactory.create(username="bob", chips=10_000)
    put_limits(ann, loss_day=300)
    table = TableFactory.create()
    assert sit(ann, table.pk, 300).status_code == 200
    # bob's chips reach ann's seat (as a round's settlement would), and she cashes out 800.
    from ledger.models import TransferKind
    from ledger.services import postings

    bob_seat_table = TableFactory.create()
    sit(bob, bob_seat_table.pk, 500)
    postings.move_chips(
        source=Seat.objects.get(player=bob).stack_account,
        destination=Seat.objects.get(player=ann).stack_account,
        amount=500,
        kind=TransferKind.SETTLEMENT,
        idempotency_key="test:win",
    )
    assert api_client(ann).post(f"/api/v1/tables/{table.pk}/leave/").status_code == 200
    usage = {row.limit: row for row in services.usage(user=ann)}
    assert (usage["loss_day"].used, usage["loss_day"].left) == (0, 800)
    assert sit(ann, TableFactory.create().pk, 800).status_code == 200
    assert_reconciled()


def test_tournament_registration_is_a_stake(clock: Clock, ann: Any) -> None:
    put_limits(ann, stakes_day=100)
    sng = TournamentFactory.create(buy_in=100, fee=10)
    before = Transfer.objects.count()
    answer = api_client(ann).post(f"/api/v1/tournaments/{sng.pk}/register/")
    assert refused_unchanged(answer, "stakes_day", before)["amount"] == 110
    assert not TournamentEntry.objects.filter(tournament=sng).exists()
    put_limits(ann, stakes_day=50)
    freeroll = TournamentFactory.create(buy_in=0, fee=0)
    assert api_client(ann).post(f"/api/v1/tournaments/{freeroll.pk}/register/").status_code == 201


def test_a_cut_applies_at_once_a_raise_after_seven_days(clock: Clock, ann: Any) -> None:
    put_limits(ann, stakes_day=1000)
    put_limits(ann, stakes_day=200)  # a cut: at once
    assert selectors.in_force(player_id=ann.pk, now=clock.at) == {"stakes_day": 200}
    body = put_limits(ann, stakes_day=900).json()  # a raise: in seven days
    assert body["stakes_day"]["value"] == 200 and body["stakes_day"]["pending"] == 900
    assert body["stakes_day"]["applies_at"] == "2026-03-18T10:00:00Z"
    before = Transfer.objects.count()
    refused_unchanged(sit(ann, TableFactory.create().pk, 300), "stakes_day", before)
    clock.advance(days=7, seconds=-1)
    refused_unchanged(sit(ann, TableFactory.create().pk, 300), "stakes_day", before)
    clock.advance(seconds=1)
    assert sit(ann, TableFactory.create().pk, 300).status_code == 200


def test_a_removal_waits_seven_days_and_can_be_withdrawn(clock: Clock, ann: Any) -> None:
    put_limits(ann, loss_week=100)
    body = put_limits(ann, loss_week=None).json()
    assert (body["loss_week"]["value"], body["loss_week"]["pending"]) == (100, None)
    assert body["loss_week"]["applies_at"] == "2026-03-18T10:00:00Z"
    clock.advance(days=1)
    assert api_client(ann).post("/api/v1/me/limits/withdraw/", {"limit": "loss_week"}).status_code == 200
    clock.advance(days=7)
    assert selectors.in_force(player_id=ann.pk, now=clock.at) == {"loss_week": 100}
    again = api_client(ann).post("/api/v1/me/limits/withdraw/", {"limit": "loss_week"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "limits.nothing_pending"


def test_asking_for_the_value_in_force_withdraws_a_raise(clock: Clock, ann: Any) -> None:
    put_limits(ann, stakes_day=100)
    put_limits(ann, stakes_day=500)
    body = put_limits(ann, stakes_day=100).json()
    assert body["stakes_day"]["pending"] is None and body["stakes_day"]["applies_at"] is None
    clock.advance(days=8)
    assert selectors.in_force(player_id=ann.pk, now=clock.at) == {"stakes_day": 100}


def test_a_cut_during_a_pending_raise_replaces_it(clock: Clock, ann: Any) -> None:
    put_limits(ann, stakes_day=300)
    put_limits(ann, stakes_day=900)
    clock.advance(days=2)
    put_limits(ann, stakes_day=200)
    clock.advance(days=6)
    assert selectors.in_force(player_id=ann.pk, now=clock.at) == {"stakes_day": 200}


def test_every_change_is_kept_with_its_time(clock: Clock, ann: Any) -> None:
    put_limits(ann, stakes_day=300)
    clock.advance(hours=1)
    put_limits(ann, stakes_day=900)
    clock.advance(hours=1)
    put_limits(ann, stakes_day=100)
    rows = api_client(ann).get("/api/v1/me/limits/history/").json()["results"]
    assert [(r["limit"], r["value"], r["previous"], r["kind"]) for r in rows] == [
        ("stakes_day", 100, 300, "lower"),
        ("stakes_day", 900, 300, "raise"),
        ("stakes_day", 300, None, "new"),
    ]
    assert rows[1]["withdrawn_at"] == "2026-03-11T12:00:00Z"
    assert rows[1]["applies_at"] == "2026-03-18T11:00:00Z"
    assert LimitChange.objects.filter(player=ann).count() == 3


@pytest.mark.parametrize(
    "body",
    [
        {"stakes_day": 0},
        {"stakes_day": -5},
        {"stakes_day": "100"},
        {"minutes_day": 1441},
        {"nonsense": 1},
        {"reality_check_minutes": 20},
        {"stakes_day": 1.5},
    ],
    ids=["zero", "negative", "string", "minutes-over-a-day", "unknown", "odd-interval", "float"],
)
def test_a_malformed_limit_is_refused_and_records_nothing(ann: Any, body: dict[str, Any]) -> None:
    answer = put_limits(ann, **body)
    assert answer.status_code == 400, answer.json()
    assert not LimitChange.objects.exists()


def test_the_daily_time_limit_refuses_new_seats_and_registrations(clock: Clock, ann: Any) -> None:
    put_limits(ann, minutes_day=30)
    table = TableFactory.create()
    assert sit(ann, table.pk, 300).status_code == 200
    clock.advance(minutes=29)
    assert sit(ann, TableFactory.create().pk, 100).status_code == 200
    clock.advance(minutes=1)
    before = Transfer.objects.count()
    details = refused_unchanged(sit(ann, TableFactory.create().pk, 100), "minutes_day", before)
    assert details["left"] == 0 and details["resets_at"] == "2026-03-11T23:00:00Z"
    freeroll = TournamentFactory.create(buy_in=0, fee=0)
    answer = api_client(ann).post(f"/api/v1/tournaments/{freeroll.pk}/register/")
    assert answer.status_code == 403 and answer.json()["error"]["details"]["limit"] == "minutes_day"
    # The next day it starts again.
    clock.at = datetime(2026, 3, 11, 23, 0, tzinfo=UTC)
    for seat in Seat.objects.filter(player=ann, left_at__isnull=True):
        api_client(ann).post(f"/api/v1/tables/{seat.table_id}/leave/")
    clock.advance(minutes=1)
    assert sit(ann, TableFactory.create().pk, 100).status_code == 200


def test_the_time_limit_leaves_the_player_at_the_rounds_end(clock: Clock, ann: Any) -> None:
    bob = PlayerFactory.create(username="bob")
    put_limits(ann, minutes_day=30)
    table = TableFactory.create()
    for user in (ann, bob):
        assert sit(user, table.pk, 300).status_code == 200
    game = Game.objects.get(table=table)
    assert round_start.start_round(game_id=game.pk) is not None
    idle = TableFactory.create()
    assert sit(ann, idle.pk, 300).status_code == 200
    clock.advance(minutes=29)
    assert sweep().tables_left == 0
    clock.advance(minutes=1)
    result = sweep()
    assert (result.players_left, result.tables_left) == (1, 2)
    # In a round: left at its end; at the idle table: cashed out now. bob plays on.
    assert Seat.objects.get(table=table, player=ann).status == SeatStatus.LEAVING
    assert Seat.objects.get(table=idle, player=ann).status == SeatStatus.LEFT
    assert Seat.objects.get(table=table, player=bob).status != SeatStatus.LEAVING
    assert sweep().tables_left == 0  # twice is harmless
    assert_reconciled()


def test_practice_tables_never_count_for_time(clock: Clock, ann: Any) -> None:
    put_limits(ann, minutes_day=10)
    assert (
        api_client(ann)
        .post("/api/v1/practice/", {"game": "rummy500", "bots": 1, "level": "easy"})
        .status_code
        == 201
    )
    clock.advance(minutes=30)
    assert sit(ann, TableFactory.create().pk, 100).status_code == 200


def test_metrics_count_players_with_and_at_each_limit(clock: Clock, ann: Any) -> None:
    from django.test import Client

    from tests.operations.scrape import scrape, value

    bob = PlayerFactory.create(username="bob")
    put_limits(ann, stakes_day=300, minutes_day=10)
    put_limits(bob, stakes_day=1000)
    sit(ann, TableFactory.create().pk, 300)
    sit(bob, TableFactory.create().pk, 300)
    samples = scrape(Client())
    assert value(samples, "ramino_players_with_limit", limit="stakes_day") == 2
    assert value(samples, "ramino_players_at_limit", limit="stakes_day") == 1
    assert value(samples, "ramino_players_at_limit", limit="minutes_day") == 0
    clock.advance(minutes=10)
    samples = scrape(Client())
    assert value(samples, "ramino_players_at_limit", limit="minutes_day") == 1
    assert value(samples, "ramino_players_with_limit", limit="loss_week") == 0
