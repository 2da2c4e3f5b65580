"""The live room end to end: a real uvicorn process serving the ASGI application (HTTP and `/ws/v1/`), a real
Celery worker, and the Redis channel layer between them. Two players at a ring table follow the game over their
sockets while they move over HTTP: each receives the other's moves (a draw from the stock in its public form),
its own with its card, and the round the worker deals, woken through Redis (the sockets' own recheck is set
far beyond the test's length, so only wake-ups can deliver in time). Presence crosses the same way: each player
is told over Redis when the other's socket comes and goes, and the game view says who is connected."""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from websockets.sync.client import ClientConnection, connect

from tests.clients import LiveClient
from tests.conftest import ROOT, CeleryWorker, worker_env
from tests.live_room.stack import uvicorn
from tests.tournaments.live.helpers import simple_move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e, pytest.mark.worker]

WAIT = 20.0


@pytest.fixture
def socket_stack(transactional_db: None, tmp_path: Path) -> Iterator[str]:
    """uvicorn and a Celery worker of their own queue, both on the test database and the Redis channel layer
    (the test broker's Redis); answers the site's base URL."""
    assert settings.CELERY_BROKER_URL.startswith("redis://"), "the Redis channel layer needs the Redis broker"
    env = worker_env(connection.settings_dict["NAME"])
    env.update(
        CHANNEL_LAYER_URL=settings.CELERY_BROKER_URL,
        CELERY_TASK_DEFAULT_QUEUE=f"ramino-socket-e2e-{uuid.uuid4().hex[:12]}",
        RAMINO_SOCKET_RECHECK_SECONDS="600",
        RAMINO_NEXT_ROUND_DELAY_SECONDS="4",
        # The players' REST reads below count as presence for this long (30 s by default); then it shows within
        # the sockets' presence check.
        RAMINO_PRESENCE_POLL_SECONDS="1",
        RAMINO_PRESENCE_CHECK_SECONDS="0.5",
    )
    worker = CeleryWorker(env, ROOT / "var" / f"test-socket-worker-{os.getpid()}.log")
    worker.start()
    try:
        with uvicorn(env, tmp_path / "uvicorn.log") as base:
            yield base
    finally:
        worker.stop()


def _socket(opened: contextlib.ExitStack, base: str, token: str, game_id: int) -> ClientConnection:
    ws = opened.enter_context(connect(base.replace("http://", "ws://") + "/ws/v1/", open_timeout=10))
    ws.send(json.dumps({"type": "auth", "token": token}))
    assert json.loads(ws.recv(timeout=WAIT))["type"] == "welcome"
    ws.send(json.dumps({"type": "subscribe", "topic": f"game:{game_id}", "after": 0}))
    subscribed = json.loads(ws.recv(timeout=WAIT))
    # Subscribed before the worker deals (RAMINO_NEXT_ROUND_DELAY_SECONDS after the second sit): the deal
    # can only reach the socket by its wake-up.
    assert subscribed == {"type": "subscribed", "topic": f"game:{game_id}", "version": 0}, subscribed
    return ws


# The last `presence` message each socket received (who is connected at the game).
Presence = dict[int, dict[str, bool]]


def _resubscribe(
    opened: contextlib.ExitStack, base: str, token: str, game_id: int, *, after: int
) -> ClientConnection:
    ws = opened.enter_context(connect(base.replace("http://", "ws://") + "/ws/v1/", open_timeout=10))
    ws.send(json.dumps({"type": "auth", "token": token}))
    assert json.loads(ws.recv(timeout=WAIT))["type"] == "welcome"
    ws.send(json.dumps({"type": "subscribe", "topic": f"game:{game_id}", "after": after}))
    assert json.loads(ws.recv(timeout=WAIT))["type"] == "subscribed"
    return ws


def _until(
    ws: ClientConnection, got: list[dict[str, Any]], version: int, presence: Presence | None = None
) -> None:
    """Read the socket's events into `got` until one at `version` or later arrived (presence messages aside)."""
    while not got or got[-1]["version"] < version:
        message = json.loads(ws.recv(timeout=WAIT))
        if message["type"] == "presence":
            if presence is not None:
                presence[id(ws)] = message["players"]
            continue
        assert message["type"] == "events", message
        got.extend(message["events"])


def _presence_until(
    ws: ClientConnection, presence: Presence, players: dict[str, bool], got: list[dict[str, Any]]
) -> None:
    """Read the socket until its presence message says `players` (the events meanwhile into `got`)."""
    while presence.get(id(ws)) != players:
        message = json.loads(ws.recv(timeout=WAIT))
        if message["type"] == "presence":
            presence[id(ws)] = message["players"]
        else:
            assert message["type"] == "events", message
            got.extend(message["events"])


def test_two_players_receive_each_others_moves_over_the_socket(socket_stack: str) -> None:
    base = socket_stack
    get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    admin = LiveClient(base, "boss")
    admin.login("boss-pw-123456")
    players = {name: LiveClient(base, name) for name in ("ann", "bob")}
    for client in players.values():
        client.register(f"pw-{uuid.uuid4().hex}")
    for name in players:
        credit = admin.call(
            "POST",
            "/ledger/adjustments/",
            json={"username": name, "amount": 5_000, "reason": "socket e2e"},
            headers={"Idempotency-Key": f"socket-e2e-{name}"},
        )
        assert credit.status_code in (200, 201), credit.text
    table = admin.call(
        "POST",
        "/tables/",
        json={
            "game": "rummy500",
            "options": {"turn_seconds": 60, "time_bank_seconds": 0},
            "seats": 2,
            "pcr": 1,
        }
        | {"min_buy_in": 100, "max_buy_in": 5000},
    ).json()
    game_id = table["current_game"]
    # A public table's events are its players' (and staff's): the players sit, then open their sockets.
    for client in players.values():
        assert client.call("POST", f"/tables/{table['id']}/sit/", json={"buy_in": 1000}).status_code == 200
    opened = contextlib.ExitStack()
    tokens = {name: str(c.session.headers["Authorization"]).split(" ", 1)[1] for name, c in players.items()}
    sockets = {name: _socket(opened, base, tokens[name], game_id) for name in players}
    got: dict[str, list[dict[str, Any]]] = {"ann": [], "bob": []}
    presence: Presence = {}
    try:
        # Each sees the other connected (bob's socket came after ann's: ann hears it through Redis).
        _presence_until(sockets["ann"], presence, {"ann": True, "bob": True}, got["ann"])
        _presence_until(sockets["bob"], presence, {"ann": True, "bob": True}, got["bob"])
        view = admin.call("GET", f"/games/{game_id}/").json()
        assert {p["username"]: p["connected"] for p in view["players"]} == {"ann": True, "bob": True}
        # The worker deals the first round: its commit wakes both sockets through Redis.
        for name, ws in sockets.items():
            _until(ws, got[name], 1, presence)
            assert got[name][0]["kind"] == "round_started", got[name]
        for _turn in range(2):
            view = players["ann"].call("GET", f"/games/{game_id}/").json()
            mover = view["turn"]["player"]
            other = "bob" if mover == "ann" else "ann"
            while True:
                view = players[mover].call("GET", f"/games/{game_id}/").json()
                if view["turn"]["player"] != mover or not view.get("legal_moves"):
                    break
                answer = players[mover].call(
                    "POST",
                    f"/games/{game_id}/moves/",
                    json={**simple_move(view), "expected_version": view["version"]},
                )
                assert answer.status_code == 200, answer.text
                version = answer.json()["version"]
                for name in (other, mover):
                    _until(sockets[name], got[name], version, presence)
            draws = {name: [e for e in got[name] if e.get("move", {}).get("type") == "draw"] for name in got}
            assert draws[other][-1]["player"] == mover
            assert "card" not in draws[other][-1], draws[other][-1]  # the other's draw: its public form
            assert draws[mover][-1]["card"], draws[mover][-1]  # my own draw: the card I took
        for name, client in players.items():
            rest = client.call("GET", f"/games/{game_id}/events/?after=0").json()["events"]
            assert got[name] == rest[: len(got[name])] and len(got[name]) >= len(rest) - 1, name
            versions = [e["version"] for e in got[name]]
            assert versions == list(range(1, versions[-1] + 1))  # each once, in order
        # bob's socket closes (his phone drops): ann is told, and the game view says so; no card in either.
        sockets["bob"].close()
        _presence_until(sockets["ann"], presence, {"ann": True, "bob": False}, got["ann"])
        view = players["ann"].call("GET", f"/games/{game_id}/").json()
        assert {p["username"]: p["connected"] for p in view["players"]} == {"ann": True, "bob": False}
        # A new socket of his, served by whichever process: he is back, and ann is told.
        sockets["bob"] = _resubscribe(opened, base, tokens["bob"], game_id, after=got["bob"][-1]["version"])
        _presence_until(sockets["ann"], presence, {"ann": True, "bob": True}, got["ann"])
    finally:
        opened.close()
