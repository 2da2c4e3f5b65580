"""A satellite chain over HTTP against a live server and a real Celery worker (which deals, runs the clocks and the
after-round jobs): a sit-and-go satellite's winners get tickets to a multi-table satellite, enter it with them
(another player pays chips), the multi-table satellite stops when the players left fit its seats, and its winners
enter the target with their tickets. Every ticket through the ledger; reconciliation clean (docs/rules.md
"Tickets and satellites")."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.clients import LiveClient
from tests.e2e.players import make_client, play_until_finished
from tournaments import engine
from tournaments.engine import bots as engine_bots
from tournaments.live.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e, pytest.mark.worker]

FAST = {"turn_seconds": 20, "time_bank_seconds": 10}


def play_multi_until_finished(tid: int, players: dict[str, LiveClient], *, timeout: float) -> dict[str, Any]:
    """The greedy move over HTTP for every player offered moves at any open table, until the end."""
    watcher = next(iter(players.values()))
    deadline = time.monotonic() + timeout
    detail: dict[str, Any] = {}
    while time.monotonic() < deadline:
        detail = watcher.call("GET", f"/tournaments/{tid}/").json()
        if detail["status"] == "finished":
            break
        acted = False
        for table in watcher.call("GET", f"/tournaments/{tid}/tables/").json()["results"]:
            if table["status"] == "closed":
                continue
            game_id = table["game"]
            for name, client in players.items():
                view = client.call("GET", f"/games/{game_id}/").json()
                game = Game.objects.get(pk=game_id)
                if game.version != view.get("version") or game.state is None or not view.get("legal_moves"):
                    continue
                move = engine_bots.greedy_move(engine.state_from_dict(game.state), name)
                answer = client.call(
                    "POST", f"/games/{game_id}/moves/", json={**move, "expected_version": view["version"]}
                )
                assert answer.status_code in (200, 409, 422), answer.text
                acted = acted or answer.status_code == 200
        if not acted:
            time.sleep(0.2)
    return detail


def multi(name: str, *, buy_in: int, fee: int, **more: Any) -> dict[str, Any]:
    return {
        "name": name,
        "kind": "multi",
        "game": "rummy500",
        "options": FAST,
        "buy_in": buy_in,
        "fee": fee,
        "max_entrants": 100,
        "starting_stack": 40,
        "pcr_schedule": [5, 10, 20, 40],
        "rounds_per_level": 1,
        "seats": 4,
        "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
        **more,
    }


def test_a_sit_and_go_satellite_to_a_multi_table_satellite_to_the_target_over_http(
    live_server: Any, celery_worker_process: Any
) -> None:
    base = live_server.url
    admin = make_client(base, "boss", is_staff=True, is_superuser=True)
    staff = make_client(base, "audit", is_staff=True)
    players = {name: make_client(base, name) for name in ("ann", "bob", "cid")}
    for name in players:
        credit = admin.call(
            "POST", "/ledger/adjustments/", json={"username": name, "amount": 100, "reason": "e2e"}
        )
        assert credit.status_code == 201, credit.text

    target = admin.call("POST", "/tournaments/", json=multi("Target", buy_in=140, fee=10))
    assert target.status_code == 201, target.text
    target_id = target.json()["id"]
    # The multi-table satellite: pool 3 x 100 = 300, face value 150: two seats.
    step2 = admin.call(
        "POST",
        "/tournaments/",
        json=multi("Step 2", buy_in=100, fee=0, satellite_target=target_id, payouts=[100]),
    )
    assert step2.status_code == 201, step2.text
    step2_id = step2.json()["id"]
    # The sit-and-go satellite: pool 2 x 100 = 200, face value 100: two seats.
    step1 = admin.call(
        "POST",
        "/tournaments/",
        json={
            "name": "Step 1",
            "kind": "quick",
            "game": "rummy500",
            "options": FAST,
            "buy_in": 100,
            "max_entrants": 2,
            "rounds": 1,
            "satellite_target": step2_id,
        },
    )
    assert step1.status_code == 201, step1.text
    step1_id = step1.json()["id"]
    first = {n: players[n] for n in ("ann", "bob")}
    for client in first.values():
        assert client.call("POST", f"/tournaments/{step1_id}/register/").status_code == 201
    detail, _ = play_until_finished(step1_id, first, timeout=600)
    assert detail["status"] == "finished", detail

    ticket2 = f"ticket:tournament:{step2_id}"
    for name, client in first.items():
        held = client.call("GET", "/me/tickets/").json()["tickets"]
        assert [(x["chip_type"], x["count"]) for x in held] == [(ticket2, 1)], (name, held)
        entered = client.call("POST", f"/tournaments/{step2_id}/register/", json={"payment": "ticket"})
        assert entered.status_code == 201, entered.text
        assert client.call("GET", "/wallet/").json()["balance"] == 0
    assert players["cid"].call("POST", f"/tournaments/{step2_id}/register/").status_code == 201
    started = admin.call("POST", f"/tournaments/{step2_id}/start/")
    assert started.status_code == 200, started.text
    detail = play_multi_until_finished(step2_id, players, timeout=900)
    assert detail["status"] == "finished", detail

    standings = staff.call("GET", f"/tournaments/{step2_id}/standings/").json()["results"]
    assert sum(s["prize"] for s in standings) == 300
    ticket3 = f"ticket:tournament:{target_id}"
    winners = [n for n, c in players.items() if c.call("GET", "/me/tickets/").json()["tickets"]]
    assert len(winners) == 2, standings
    for name in winners:
        assert players[name].call("GET", "/me/tickets/").json()["tickets"][0]["chip_type"] == ticket3
        entered = players[name].call("POST", f"/tournaments/{target_id}/register/")  # auto: the ticket
        assert entered.status_code == 201, entered.text
    assert staff.call("GET", f"/tournaments/{target_id}/").json()["entrants"] == 2
    kinds = {
        t["kind"] for t in staff.call("GET", f"/ledger/transfers/?tournament={step2_id}").json()["results"]
    }
    assert {"ticket_spend", "tournament_buy_in", "payout", "ticket_issue"} <= kinds, kinds
    reconciliation = staff.call("GET", "/ledger/reconciliation/").json()
    assert reconciliation["ok"] is True and reconciliation["problems"] == [], reconciliation
