"""Four HTTP clients driven by the greedy bot play a ring table for five rounds against a live server and a
real Celery worker: chips are conserved, the ledger reconciles, every round's settlement is pcr_transfers of
its recorded scores, and no response body (staff's included) shows a hand or a stock card it should not."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
import requests
from django.contrib.auth import get_user_model

from tests.clients import LiveClient
from tests.tournaments.live.helpers import expected_transfers, hidden_cards, leaked
from tournaments import engine
from tournaments.engine import bots as engine_bots
from tournaments.live.models import Game, Round

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e, pytest.mark.worker]

ROUNDS = 5
PLAYERS = ("ann", "bob", "cid", "dan")
BUY_IN = 2000


Scan = list[tuple[str, str, Any]]


def _client(base: str, name: str, scan: Scan) -> LiveClient:
    """One HTTP client; every body it receives is kept for the leak scan."""

    def keep(client: LiveClient, path: str, response: requests.Response) -> None:
        scan.append((client.name, path, response.json() if response.content else None))

    return LiveClient(base, name, on_answer=keep)


def _register(base: str, name: str, scan: Scan) -> LiveClient:
    client = _client(base, name, scan)
    client.register(f"pw-{uuid.uuid4().hex}")
    return client


def _check_view_for_leaks(client: LiveClient, body: dict[str, Any], game_id: int, viewer: str | None) -> bool:
    """True when checked (the game had not moved on since the answer)."""
    game = Game.objects.get(pk=game_id)
    if game.version != body.get("version"):
        return False
    assert not leaked(body, hidden_cards(game, viewer)), (client.name, body)
    return True


def _check_events(client: LiveClient, events: list[dict[str, Any]]) -> None:
    for event in events:
        assert "hand" not in event and "stock" not in event
        if event["kind"] == "move" and event["player"] != client.name:
            assert "card" not in event and "cards" not in event, (client.name, event)
        if event["kind"] == "round_started":
            assert "deck" not in event and "salt" not in event


def test_four_bots_play_five_rounds(live_server: Any, celery_worker_process: Any, settings: Any) -> None:
    # the live server runs in this process: a short pause between rounds keeps the run short
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 0.5
    base = live_server.url
    scan: Scan = []
    clients = {name: _register(base, name, scan) for name in PLAYERS}
    get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    admin = _client(base, "boss", scan)
    admin.login("boss-pw-123456")
    get_user_model().objects.create_user("audit", password="audit-pw-123456", is_staff=True)
    staff = _client(base, "audit", scan)
    staff.login("audit-pw-123456")

    for name in PLAYERS:
        credit = admin.call(
            "POST",
            "/ledger/adjustments/",
            json={"username": name, "amount": 10_000, "reason": "e2e"},
            headers={"Idempotency-Key": f"e2e-{name}"},
        )
        assert credit.status_code in (200, 201), credit.text
    table = admin.call(
        "POST",
        "/tables/",
        json={
            "game": "rummy500",
            "options": {"turn_seconds": 20, "time_bank_seconds": 20},
            "seats": 4,
            "pcr": 1,
            "min_buy_in": 500,
            "max_buy_in": 5000,
            "multiplier": 2,
        },
    ).json()
    for client in clients.values():
        assert client.call("POST", f"/tables/{table['id']}/sit/", json={"buy_in": BUY_IN}).status_code == 200
    game_id = table["current_game"]
    checked = skipped = 0
    after = 0
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        finished = Round.objects.filter(game_id=game_id, settled=True).count()
        if finished >= ROUNDS:
            break
        acted = False
        for name, client in clients.items():
            view = client.call("GET", f"/games/{game_id}/").json()
            if _check_view_for_leaks(client, view, game_id, name if view.get("hand") is not None else None):
                checked += 1
            else:
                skipped += 1
            if not view.get("legal_moves"):
                continue
            game = Game.objects.get(pk=game_id)
            if game.version != view["version"] or game.state is None:
                continue
            move = engine_bots.greedy_move(engine.state_from_dict(game.state), name)
            answer = client.call(
                "POST", f"/games/{game_id}/moves/", json={**move, "expected_version": view["version"]}
            )
            assert answer.status_code in (200, 409), answer.text
            if answer.status_code == 200:
                _check_events(client, answer.json()["events"])
                acted = True
        spectator = staff.call("GET", f"/games/{game_id}/").json()
        if _check_view_for_leaks(staff, spectator, game_id, None):
            checked += 1
        if not acted:
            # nobody could move (between rounds): wait on the event stream like a real client
            polled = clients["ann"].call("GET", f"/games/{game_id}/events/?after={after}&wait=5").json()
            _check_events(clients["ann"], polled["events"])
            after = polled["next_after"]
    assert Round.objects.filter(game_id=game_id, settled=True).count() >= ROUNDS, (
        "five rounds were not played"
    )
    assert checked > 10 * skipped, (checked, skipped)

    staff_events = staff.call("GET", f"/games/{game_id}/events/?after=0").json()["events"]
    _check_events(staff, staff_events)
    for client in clients.values():
        assert client.call("POST", f"/tables/{table['id']}/leave/").status_code == 200
    # leaving mid-round (if round 6 began) is played out by the worker, then cashed out
    time.sleep(0.5)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and any(
        p["status"] != "left" for p in admin.call("GET", f"/tables/{table['id']}/").json()["players"]
    ):
        time.sleep(0.5)
    assert admin.call("GET", f"/tables/{table['id']}/").json()["players"] == []

    # every round settled exactly as pcr_transfers of its recorded scores, once, in the ledger too
    rounds = [r for r in Round.objects.filter(game_id=game_id).order_by("number") if r.ended_at is not None]
    for round_ in rounds:
        assert round_.transfers == expected_transfers(round_), round_.number
        posted = staff.call("GET", f"/ledger/transfers/?round={round_.pk}").json()
        rows = posted.get("results", posted) if isinstance(posted, dict) else posted
        settlement_rows = [t for t in rows if t["kind"] == "settlement"]
        assert len(settlement_rows) == (1 if round_.transfers else 0), (round_.number, rows)
    assert len(rounds) >= ROUNDS and any(r.transfers for r in rounds)
    # bob has left the table: the rounds he played stay open to him
    api_rounds = clients["bob"].call("GET", f"/games/{game_id}/rounds/").json()["results"]
    assert [r["transfers"] for r in api_rounds if r["deck"]] == [r.transfers for r in rounds]

    # chips conserved: wallets hold all they were credited (the stacks are empty again)
    wallets = {name: client.call("GET", "/wallet/").json()["balance"] for name, client in clients.items()}
    assert sum(wallets.values()) == 10_000 * len(PLAYERS)
    report = staff.call("GET", "/ledger/reconciliation/").json()
    assert report["ok"] is True and report["problems"] == [], report
    # the scan: no body ever carried a deck or salt of a running round
    for who, path, body in scan:
        if path.startswith("/games/") and path.endswith("/rounds/"):
            for row in body["results"]:
                assert (row["deck"] is None) == (row["ended_at"] is None), (who, row["number"])
