"""Sit-and-gos of 3 and of 4 played to the end by greedy-bot HTTP clients against a live server and a real Celery
worker (which deals, runs the clocks and the after-round job): one winner (or a share after the tie-breaker cap),
every entrant one place, prizes summing to the pool, fees to the house, reconciliation clean."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
import requests
from django.contrib.auth import get_user_model

from tests.tournaments.helpers import hidden_cards, leaked
from tournaments.models import Game
from tournaments.services import engine_io

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e, pytest.mark.worker]

BUY_IN, FEE = 300, 20


class Client:
    def __init__(self, base: str, name: str, password: str) -> None:
        self.base = base
        self.name = name
        self.session = requests.Session()
        token = self.session.post(f"{base}/api/v1/auth/token/", json={"username": name, "password": password})
        assert token.status_code == 200, token.text
        self.session.headers["Authorization"] = f"Token {token.json()['token']}"

    def call(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        if method == "POST":
            kwargs["headers"] = {"Idempotency-Key": uuid.uuid4().hex, **kwargs.get("headers", {})}
        response = self.session.request(method, f"{self.base}/api/v1{path}", timeout=40, **kwargs)
        for _retry in range(3):
            if response.status_code != 503:
                break
            time.sleep(float(response.headers.get("Retry-After", "1")))
            response = self.session.request(method, f"{self.base}/api/v1{path}", timeout=40, **kwargs)
        assert response.status_code < 500, (path, response.text)
        return response


def _user(base: str, name: str, **extra: Any) -> Client:
    password = f"pw-{uuid.uuid4().hex}"
    get_user_model().objects.create_user(name, password=password, **extra)
    return Client(base, name, password)


@pytest.mark.parametrize("entrants", [3, 4])
def test_a_sit_and_go_is_played_to_the_end_over_http(
    live_server: Any, celery_worker_process: Any, entrants: int
) -> None:
    base = live_server.url
    admin = _user(base, "boss", is_staff=True, is_superuser=True)
    staff = _user(base, "audit", is_staff=True)
    names = ["ann", "bob", "cid", "dan"][:entrants]
    players = {name: _user(base, name) for name in names}
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

    deadline = time.monotonic() + 600
    detail: dict[str, Any] = {}
    while time.monotonic() < deadline:
        detail = players["ann"].call("GET", f"/tournaments/{tid}/").json()
        if detail["status"] == "finished":
            break
        tables = players["ann"].call("GET", f"/tournaments/{tid}/tables/").json()["results"]
        game_id = tables[0]["game"]
        acted = False
        for name, client in players.items():
            view = client.call("GET", f"/games/{game_id}/").json()
            if not view.get("legal_moves"):
                continue
            game = Game.objects.get(pk=game_id)
            if game.version != view["version"] or game.state is None:
                continue
            assert not leaked(view, hidden_cards(game, name)), name
            move = engine_io.greedy_move(engine_io.load_state(game.state), name)
            answer = client.call(
                "POST", f"/games/{game_id}/moves/", json={**move, "expected_version": view["version"]}
            )
            assert answer.status_code in (200, 409, 422), answer.text
            acted = acted or answer.status_code == 200
        if not acted:
            time.sleep(0.3)
    assert detail["status"] == "finished", detail

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
