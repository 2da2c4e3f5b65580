"""A rebuy-and-add-on tournament and a progressive knockout played to the payout by greedy-bot HTTP clients
against a live server and a real Celery worker (which deals, waits the rebuy pause and the add-on break, runs the
tables' jobs): the bots rebuy when the API says they may and take the add-on in its break; the pool and every
bounty are paid exactly once, reconciliation clean (docs/rules.md "Rebuys and the add-on", "Progressive
knockout")."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.clients import LiveClient
from tests.e2e.players import make_client
from tournaments import engine
from tournaments.engine import bots as engine_bots
from tournaments.live.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e, pytest.mark.worker]

BUY_IN, FEE, STACK = 100, 10, 150


def _play(
    tid: int, players: dict[str, LiveClient], *, timeout: float
) -> tuple[dict[str, Any], dict[str, int]]:
    """Greedy moves over HTTP at the one table, and between rounds each player's rebuy or add-on when offered."""
    watcher = next(iter(players.values()))
    deadline = time.monotonic() + timeout
    bought = {"rebuy": 0, "addon": 0}
    detail: dict[str, Any] = {}
    while time.monotonic() < deadline:
        detail = watcher.call("GET", f"/tournaments/{tid}/").json()
        if detail["status"] == "finished":
            break
        acted = False
        for client in players.values():
            offer = client.call("GET", f"/tournaments/{tid}/rebuy/").json()
            for action in ("rebuy", "addon"):
                if offer[f"can_{action}"] and (action == "addon" or offer["chips"] <= 0):
                    answer = client.call("POST", f"/tournaments/{tid}/{action}/")
                    assert answer.status_code in (200, 409), answer.text  # 409: the deal came first
                    bought[action] += answer.status_code == 200
        tables = watcher.call("GET", f"/tournaments/{tid}/tables/").json()["results"]
        for table in tables:
            for name, client in players.items():
                view = client.call("GET", f"/games/{table['game']}/").json()
                game = Game.objects.get(pk=table["game"])
                if game.version != view.get("version") or game.state is None or not view.get("legal_moves"):
                    continue
                move = engine_bots.greedy_move(engine.state_from_dict(game.state), name)
                answer = client.call(
                    "POST",
                    f"/games/{table['game']}/moves/",
                    json={**move, "expected_version": view["version"]},
                )
                assert answer.status_code in (200, 409, 422), answer.text
                acted = acted or answer.status_code == 200
        if not acted:
            time.sleep(0.1)
    return detail, bought


def _tournament(live_server: Any, **formats: Any) -> tuple[LiveClient, int, dict[str, LiveClient]]:
    base = live_server.url
    admin = make_client(base, "boss", is_staff=True, is_superuser=True)
    names = ["ann", "bob", "cid", "dan"]
    players = {name: make_client(base, name) for name in names}
    for name in names:
        credit = admin.call(
            "POST", "/ledger/adjustments/", json={"username": name, "amount": 2000, "reason": "e2e"}
        )
        assert credit.status_code in (200, 201), credit.text
    created = admin.call(
        "POST",
        "/tournaments/",
        json={
            "name": "e2e formats",
            "kind": "multi",
            "game": "rummy500",
            "options": {"turn_seconds": 20, "time_bank_seconds": 10},
            "buy_in": BUY_IN,
            "fee": FEE,
            "max_entrants": 4,
            "min_entrants": 2,
            "seats": 4,
            "starting_stack": STACK,
            "pcr_schedule": [5, 10, 25, 50, 100],
            "rounds_per_level": 1,
            "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
            "payouts": [100],
            **formats,
        },
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    for client in players.values():
        assert client.call("POST", f"/tournaments/{tid}/register/").status_code == 201
    assert admin.call("POST", f"/tournaments/{tid}/start/").status_code == 200
    return admin, tid, players


def _paid_out(admin: LiveClient, tid: int) -> list[dict[str, Any]]:
    standings = admin.call("GET", f"/tournaments/{tid}/standings/").json()["results"]
    places = sorted(s["place"] for s in standings)
    # Players busted together with equal chips and melds share a place (docs/tournaments.md "Places").
    assert len(places) == 4 and places[0] == 1
    assert all(p == places[i - 1] or p == i + 1 for i, p in enumerate(places) if i), places
    reconciliation = admin.call("GET", "/ledger/reconciliation/").json()
    assert reconciliation["ok"] is True and reconciliation["problems"] == []
    return list(standings)


def test_a_rebuy_and_addon_tournament_is_played_to_its_payout(
    live_server: Any, celery_worker_process: Any
) -> None:
    admin, tid, players = _tournament(
        live_server,
        rebuy_levels=3,
        rebuy_cost=BUY_IN,
        rebuy_fee=FEE,
        addon_cost=BUY_IN,
        addon_fee=FEE,
        addon_chips=STACK,
        addon_seconds=3,
    )
    detail, bought = _play(tid, players, timeout=600)
    assert detail["status"] == "finished", detail
    standings = _paid_out(admin, tid)
    rebuys = sum(s["rebuys"] for s in standings)
    addons = sum(1 for s in standings if s["addon"])
    assert addons == bought["addon"] > 0 and rebuys == bought["rebuy"]
    assert sum(s["prize"] for s in standings) == BUY_IN * (4 + rebuys + addons)


def test_a_knockout_tournament_is_played_to_its_payout(live_server: Any, celery_worker_process: Any) -> None:
    admin, tid, players = _tournament(live_server, bounty_share=50)
    detail, _ = _play(tid, players, timeout=600)
    assert detail["status"] == "finished", detail
    standings = _paid_out(admin, tid)
    assert sum(s["bounties_won"] for s in standings) == 4 * 50  # every bounty, once
    assert sum(s["prize"] for s in standings) == 4 * 50
    assert all(s["bounty"] == 0 for s in standings)
