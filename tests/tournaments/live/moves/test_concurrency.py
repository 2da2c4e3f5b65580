"""On PostgreSQL with real connections: racing moves leave exactly one effect; events long-poll."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from ledger.models import Transfer, TransferKind
from ledger.services.accounts import get_wallet
from tests.clients import api_client
from tests.ledger.utils import assert_reconciled
from tournaments.live.http.throttling import JoinAddressThrottle, JoinUserThrottle
from tournaments.live.models import Game, GameEvent, IdempotentRequest, MoveLog, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def _race(user: Any, url: str, body: dict[str, Any], keys: list[str | None]) -> list[Any]:
    barrier = threading.Barrier(len(keys))

    def one(key: str | None) -> tuple[int, Any]:
        client = api_client(user)
        headers: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        try:
            barrier.wait()
            response = client.post(url, body, format="json", **headers)
            return response.status_code, response.json()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(keys)) as pool:
        return list(pool.map(one, keys))


def test_twenty_identical_moves_without_key_one_applies(dealt: Any) -> None:
    game = dealt["game"]
    results = _race(
        dealt["mover"],
        f"/api/v1/games/{game.pk}/moves/",
        {"type": "draw", "source": "stock", "expected_version": game.version},
        [None] * 20,
    )
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * 19, results
    assert all(body["error"]["code"] == "game.stale_version" for status, body in results if status == 409)
    assert MoveLog.objects.count() == 1
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_twenty_identical_moves_with_one_key_replay_the_first_answer(dealt: Any) -> None:
    game = dealt["game"]
    results = _race(
        dealt["mover"],
        f"/api/v1/games/{game.pk}/moves/",
        {"type": "draw", "source": "stock", "expected_version": game.version},
        ["same-key"] * 20,
    )
    assert [status for status, _ in results] == [200] * 20, results
    assert len({json.dumps(body, sort_keys=True) for _, body in results}) == 1
    assert MoveLog.objects.count() == 1
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_events_long_poll_answers_as_soon_as_something_happens(dealt: Any, client_for: Any) -> None:
    game = dealt["game"]
    other = next(u for u in dealt["users"].values() if u != dealt["mover"])
    waiter = client_for(other)
    answer: dict[str, Any] = {}

    def poll() -> None:
        try:
            started = time.monotonic()
            response = waiter.get(f"/api/v1/games/{game.pk}/events/?after={game.version}&wait=20")
            answer["elapsed"] = time.monotonic() - started
            answer["status"] = response.status_code
            answer["body"] = response.json()
        finally:
            connection.close()

    thread = threading.Thread(target=poll)
    thread.start()
    time.sleep(0.5)
    mover = client_for(dealt["mover"])
    moved = mover.post(
        f"/api/v1/games/{game.pk}/moves/",
        {"type": "draw", "source": "stock", "expected_version": game.version},
    )
    assert moved.status_code == 200
    thread.join(timeout=25)
    assert answer["status"] == 200
    assert 0.4 < answer["elapsed"] < 5
    events = answer["body"]["events"]
    assert [e["version"] for e in events] == [game.version + 1]
    # the waiter is another player: the drawn card is not in their copy of the event
    assert "card" not in events[0] and events[0]["move"] == {"type": "draw", "source": "stock"}


def test_events_long_poll_times_out_empty(dealt: Any, client_for: Any) -> None:
    game = dealt["game"]
    client = client_for(dealt["mover"])
    started = time.monotonic()
    response = client.get(f"/api/v1/games/{game.pk}/events/?after={game.version}&wait=0.6")
    elapsed = time.monotonic() - started
    assert response.status_code == 200 and response.json()["events"] == []
    assert 0.5 < elapsed < 3
    all_events = client.get(f"/api/v1/games/{game.pk}/events/?after=0").json()
    assert [e["kind"] for e in all_events["events"]] == ["round_started"]
    assert GameEvent.objects.filter(game=game).count() == 1
    for bad in ("wait=abc", "after=-1", "wait=nan"):
        assert client.get(f"/api/v1/games/{game.pk}/events/?{bad}").status_code == 400


# ----------------------------------------------------------------------- sit, join and leave under one key


def _one_answer(results: list[Any]) -> dict[str, Any]:
    """The answer every one of `results` gave, asserting they are all the same 200."""
    assert [status for status, _ in results] == [200] * len(results), results
    assert len({json.dumps(body, sort_keys=True) for _, body in results}) == 1, results
    return dict(results[0][1])


def _chips(user: Any, table_id: int) -> tuple[int, list[int]]:
    """The user's wallet balance and the amounts of the buy-ins they made at the table."""
    buy_ins = Transfer.objects.filter(table_id=table_id, kind=TransferKind.BUY_IN, posted_by=user)
    amounts = [e.amount for t in buy_ins for e in t.entries.all() if e.amount > 0]
    return get_wallet(user=user).balance, amounts


def test_twenty_identical_sits_with_one_key_buy_in_once(make_table: Any, make_player: Any) -> None:
    table = make_table(max_buy_in=5000)
    ann = make_player("ann", chips=10_000)
    results = _race(ann, f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200}, ["sit-1"] * 20)
    body = _one_answer(results)
    assert [(p["username"], p["chips"]) for p in body["players"]] == [("ann", 200)]
    assert _chips(ann, table.pk) == (9_800, [200])
    assert Seat.objects.filter(table=table, player=ann).count() == 1
    assert_reconciled()


def test_twenty_identical_joins_with_one_key_buy_in_once(
    make_table: Any, make_player: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(JoinUserThrottle, "THROTTLE_RATES", {"join_user": "1000/min"})
    monkeypatch.setattr(JoinAddressThrottle, "THROTTLE_RATES", {"join_address": "1000/min"})
    host = make_player("host")
    table = make_table(private=True, creator=host, max_buy_in=5000)
    bob = make_player("bob", chips=10_000)
    results = _race(bob, "/api/v1/tables/join/", {"code": table.code, "buy_in": 300}, ["join-1"] * 20)
    body = _one_answer(results)
    assert [(p["username"], p["chips"]) for p in body["players"]] == [("bob", 300)]
    assert _chips(bob, table.pk) == (9_700, [300])
    assert_reconciled()


def test_twenty_identical_leaves_with_one_key_cash_out_once(make_table: Any, make_player: Any) -> None:
    table = make_table()
    ann = make_player("ann", chips=10_000)
    _race(ann, f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 500}, ["sit-1"])
    results = _race(ann, f"/api/v1/tables/{table.pk}/leave/", {}, ["leave-1"] * 20)
    body = _one_answer(results)
    assert body["players"] == []
    cash_outs = Transfer.objects.filter(table_id=table.pk, kind=TransferKind.CASH_OUT)
    assert cash_outs.count() == 1
    assert _chips(ann, table.pk)[0] == 10_000
    assert_reconciled()


def test_twenty_identical_refused_moves_with_one_key_keep_one_refusal(dealt: Any) -> None:
    game = dealt["game"]
    results = _race(
        dealt["mover"],
        f"/api/v1/games/{game.pk}/moves/",
        {"type": "draw", "source": "stock", "expected_version": game.version + 1},
        ["stale-key"] * 20,
    )
    assert [status for status, _ in results] == [409] * 20, results
    assert len({json.dumps(body, sort_keys=True) for _, body in results}) == 1
    assert IdempotentRequest.objects.filter(key="stale-key").count() == 1
    assert Game.objects.get(pk=game.pk).version == game.version and not MoveLog.objects.exists()
