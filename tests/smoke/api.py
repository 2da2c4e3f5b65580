"""The smoke test's HTTP client and the helpers both of its scenarios use (a ring table, a multi-table
tournament): a signed-in player, a new funded player, a game's full state read from the database for the bot."""

from __future__ import annotations

import json
import sqlite3
import uuid
from contextlib import closing
from pathlib import Path
from typing import Any

from tests.clients import LiveClient

from .stack import StackFailed


class Client:
    """A player's or an admin's client of the stack (tests.clients.LiveClient, no retry: a 503 fails the
    smoke test); `call` answers the body, and a status not in `expect` fails the smoke test."""

    def __init__(self, base: str, username: str) -> None:
        self.username = username
        # The house grant's welcome chips registration gave (load_demo turns the grant on).
        self.welcome_chips = 0
        self.http = LiveClient(base, username, retries=0)

    def login(self, password: str) -> None:
        answer = self.call("POST", "/auth/token/", json={"username": self.username, "password": password})
        self.http.session.headers["Authorization"] = f"Token {answer['token']}"

    def call(self, method: str, path: str, *, expect: tuple[int, ...] = (200,), **kwargs: Any) -> Any:
        response = self.http.request(method, path, **kwargs)
        if response.status_code not in expect:
            raise StackFailed(
                f"{self.username}: {method} {path} -> {response.status_code} {response.text[:500]}"
            )
        return response.json() if response.content else None


def register(base: str, username: str) -> Client:
    client = Client(base, username)
    password = f"pw-{uuid.uuid4().hex}"
    answer = client.call(
        "POST",
        "/auth/register/",
        expect=(201,),
        json={"username": username, "password": password, "date_of_birth": "1990-01-01"},
    )
    client.welcome_chips = answer["welcome_chips"]
    expect(client.welcome_chips > 0, f"{username}: the demo's house grant gave no welcome chips: {answer}")
    client.login(password)
    return client


def fund(admin: Client, player: Client, amount: int) -> None:
    """The admin credits the wallet once (a replay of the adjustment answers the same and posts nothing)."""
    funding: dict[str, Any] = {
        "json": {"username": player.username, "amount": amount, "reason": "smoke test"},
        "headers": {"Idempotency-Key": f"smoke-fund-{player.username}"},
    }
    first = admin.call("POST", "/ledger/adjustments/", expect=(200, 201), **funding)
    again = admin.call("POST", "/ledger/adjustments/", expect=(200, 201), **funding)
    expect(again == first, f"a replayed adjustment answered {again}, first {first}")
    balance = player.call("GET", "/wallet/")["balance"]
    expect(balance == player.welcome_chips + amount, f"{player.username} was not funded once: {balance}")


def game_state(database: Path, game_id: int) -> tuple[int, dict[str, Any] | None]:
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=20)) as db:
        row = db.execute("SELECT version, state FROM tournaments_game WHERE id = ?", [game_id]).fetchone()
    if row is None:
        raise StackFailed(f"game {game_id} is not in {database}")
    return int(row[0]), None if row[1] is None else json.loads(row[1])


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise StackFailed(message)
