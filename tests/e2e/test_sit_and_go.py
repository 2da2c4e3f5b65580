"""Sit-and-gos of 3 and of 4 played to the end by greedy-bot HTTP clients against a live server and a real Celery
worker (which deals, runs the clocks and the after-round job): one winner (or a share after the tie-breaker cap),
every entrant one place, prizes summing to the pool, fees to the house, reconciliation clean."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.players import make_client, play_until_finished

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e, pytest.mark.worker]

BUY_IN, FEE = 300, 20


@pytest.mark.parametrize("entrants", [3, 4])
def test_a_sit_and_go_is_played_to_the_end_over_http(
    live_server: Any, celery_worker_process: Any, entrants: int
) -> None:
    base = live_server.url
    admin = make_client(base, "boss", is_staff=True, is_superuser=True)
    staff = make_client(base, "audit", is_staff=True)
    names = ["ann", "bob", "cid", "dan"][:entrants]
    players = {name: make_client(base, name) for name in names}
    for name in names:
        credit = admin.call(
            "POST", "/ledger/adjustments/", json={"username": name, "amount": 1000, "reason": "e2e"}
        )
        assert credit.status_code in (200, 201), credit.text
    created = admin.call(
        "POST",
        "/tournaments/",
        json={
            "name": f"e2e sit-and-go of {entrants}",
            "kind": "single",
            "game": "rummy500",
            "options": {"turn_seconds": 20, "time_bank_seconds": 10},
            "buy_in": BUY_IN,
            "fee": FEE,
            "max_entrants": entrants,
            "target_score": 60,
            "tiebreak_rounds": 2,
            "payouts": [70, 30],
        },
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    for client in players.values():
        assert client.call("POST", f"/tournaments/{tid}/register/").status_code == 201
    assert admin.call("GET", f"/tournaments/{tid}/").json()["status"] == "running"

    detail, moves = play_until_finished(tid, players, timeout=600)
    assert detail["status"] == "finished", detail
    assert moves > 0

    standings = staff.call("GET", f"/tournaments/{tid}/standings/").json()["results"]
    assert sorted(s["username"] for s in standings) == sorted(names)
    assert all(s["place"] is not None and s["status"] in ("finished", "busted") for s in standings)
    winners = [s for s in standings if s["place"] == 1]
    assert len(winners) == 1 or all(s["tiebreak_total"] is not None for s in winners)
    pool = BUY_IN * entrants
    assert sum(s["prize"] for s in standings) == pool
    report = staff.call("GET", f"/tournaments/{tid}/payouts/").json()
    assert (report["entrants"], report["buy_ins"], report["fees"], report["prize_pool"]) == (
        entrants,
        pool,
        FEE * entrants,
        pool,
    )
    assert sum(p["amount"] for p in report["prizes"]) == pool
    wallets = {name: client.call("GET", "/wallet/").json()["balance"] for name, client in players.items()}
    assert sum(wallets.values()) == 1000 * entrants - FEE * entrants
    posted = staff.call("GET", f"/ledger/transfers/?tournament={tid}").json()["results"]
    assert {t["kind"] for t in posted} == {"tournament_buy_in", "payout"}
    table = staff.call("GET", f"/tournaments/{tid}/tables/").json()["results"][0]
    assert table["status"] == "closed" and table["players"] == []
    reconciliation = staff.call("GET", "/ledger/reconciliation/").json()
    assert reconciliation["ok"] is True and reconciliation["problems"] == [], reconciliation
