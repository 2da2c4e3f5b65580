"""Sessions and reality checks (docs/rules.md "Responsible play"): a session is seated time at ring and tournament
tables with no gap over 15 minutes; every 15, 30 or 60 minutes the player sees time played and the session's net
result and acknowledges or leaves; every answer is recorded."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from responsible.limits.enforcement import sweep
from responsible.sessions.models import PlaySession, RealityCheck
from tests.clients import api_client
from tests.factories import PlayerFactory, TableFactory
from tests.responsible.helpers import Clock, put_limits, sit
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Seat, SeatStatus
from tournaments.live.rounds import start as round_start

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 11, 18, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)
    return Clock(monkeypatch, START)


@pytest.fixture
def ann() -> Any:
    return PlayerFactory.create(username="ann", chips=10_000)


def session(user: Any) -> Any:
    return api_client(user).get("/api/v1/me/session/").json()["session"]


def answer(user: Any, choice: str) -> Any:
    return api_client(user).post("/api/v1/me/session/reality-check/", {"answer": choice})


def test_no_session_without_a_seat(clock: Clock, ann: Any) -> None:
    assert session(ann) is None
    refused = answer(ann, "continue")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "session.none"
    assert not RealityCheck.objects.exists()


def test_a_session_joins_gaps_of_up_to_15_minutes(clock: Clock, ann: Any) -> None:
    table = TableFactory.create()
    sit(ann, table.pk, 500)
    clock.advance(minutes=20)
    api_client(ann).post(f"/api/v1/tables/{table.pk}/leave/")
    clock.advance(minutes=15)
    first = session(ann)
    assert first["active"] is False and first["played_seconds"] == 20 * 60
    sit(ann, table.pk, 500)  # 15 minutes later: the same session
    clock.advance(minutes=5)
    again = session(ann)
    assert again["id"] == first["id"] and again["started_at"] == "2026-03-11T18:00:00Z"
    assert again["played_seconds"] == 40 * 60 and again["active"] is True
    api_client(ann).post(f"/api/v1/tables/{table.pk}/leave/")
    clock.advance(minutes=16)
    assert session(ann) is None
    recorded = PlaySession.objects.get(pk=first["id"])
    assert recorded.ended_at == datetime(2026, 3, 11, 18, 40, tzinfo=UTC)
    sit(ann, table.pk, 500)  # over 15 minutes later: a new session
    assert session(ann)["id"] != first["id"]


def test_the_reality_check_comes_every_hour_by_default(clock: Clock, ann: Any) -> None:
    table = TableFactory.create()
    sit(ann, table.pk, 500)
    clock.advance(minutes=59)
    body = session(ann)
    assert body["reality_check_due"] is False and body["reality_check_minutes"] == 60
    assert body["next_check_at"] == "2026-03-11T19:00:00Z"
    refused = answer(ann, "continue")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "reality_check.not_due"
    clock.advance(minutes=1)
    body = session(ann)
    assert body["reality_check_due"] is True and body["reality_check_number"] == 1
    assert body["played_seconds"] == 3600 and body["net_result"] == 0
    answered = answer(ann, "continue")
    assert answered.status_code == 201, answered.json()
    assert answered.json() | {"answered_at": None} == {
        "number": 1,
        "answer": "continue",
        "answered_at": None,
        "played_seconds": 3600,
        "net_result": 0,
        "tables_left": [],
    }
    after = session(ann)
    assert after["reality_check_due"] is False and after["next_check_at"] == "2026-03-11T20:00:00Z"
    # Answering the same check again keeps the first answer.
    assert answer(ann, "leave").json()["answer"] == "continue"
    assert RealityCheck.objects.count() == 1
    assert Seat.objects.get(table=table, player=ann).status == SeatStatus.ACTIVE


def test_the_player_chooses_15_or_30_minutes(clock: Clock, ann: Any) -> None:
    assert put_limits(ann, reality_check_minutes=15).json()["reality_check_minutes"] == 15
    sit(ann, TableFactory.create().pk, 500)
    clock.advance(minutes=15)
    assert session(ann)["reality_check_due"] is True
    put_limits(ann, reality_check_minutes=30)
    assert session(ann)["reality_check_due"] is False


def test_leaving_from_the_reality_check_leaves_ring_tables_at_the_rounds_end(clock: Clock, ann: Any) -> None:
    bob = PlayerFactory.create(username="bob")
    table = TableFactory.create()
    for user in (ann, bob):
        sit(user, table.pk, 500)
    assert round_start.start_round(game_id=Game.objects.get(table=table).pk) is not None
    clock.advance(minutes=61)
    body = answer(ann, "leave").json()
    assert body["answer"] == "leave" and body["tables_left"] == [table.pk]
    assert Seat.objects.get(table=table, player=ann).status == SeatStatus.LEAVING
    check = RealityCheck.objects.get()
    assert (check.number, check.answer, check.played_seconds) == (1, "leave", 61 * 60)


def test_the_net_result_counts_the_chips_on_the_table(clock: Clock, ann: Any) -> None:
    from ledger.models import TransferKind
    from ledger.services import postings

    bob = PlayerFactory.create(username="bob")
    table = TableFactory.create()
    for user in (ann, bob):
        sit(user, table.pk, 500)
    postings.move_chips(
        source=Seat.objects.get(player=bob).stack_account,
        destination=Seat.objects.get(player=ann).stack_account,
        amount=120,
        kind=TransferKind.SETTLEMENT,
        idempotency_key="test:session-win",
    )
    assert session(ann)["net_result"] == 120 and session(bob)["net_result"] == -120
    api_client(ann).post(f"/api/v1/tables/{table.pk}/leave/")
    assert session(ann)["net_result"] == 120


def test_the_sweep_records_sessions_and_closes_them(clock: Clock, ann: Any) -> None:
    table = TableFactory.create()
    sit(ann, table.pk, 500)
    assert sweep().sessions_seen == 1
    recorded = PlaySession.objects.get(player=ann)
    assert recorded.started_at == START and recorded.ended_at is None
    clock.advance(minutes=30)
    api_client(ann).post(f"/api/v1/tables/{table.pk}/leave/")
    clock.advance(minutes=16)
    sweep()
    recorded.refresh_from_db()
    assert recorded.ended_at == datetime(2026, 3, 11, 18, 30, tzinfo=UTC)
    assert sweep().sessions_seen == 0


def test_practice_is_no_session(clock: Clock, ann: Any) -> None:
    assert (
        api_client(ann)
        .post("/api/v1/practice/", {"game": "rummy500", "bots": 1, "level": "easy"})
        .status_code
        == 201
    )
    clock.advance(minutes=61)
    assert session(ann) is None
