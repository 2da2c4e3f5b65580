"""HTTP players for the end-to-end tests of tournaments: a token-authenticated client, users made for it, and
the loop that has every client play the engine's greedy move over HTTP until the tournament is finished,
checking on the way that no view shows a card its viewer may not see."""

from __future__ import annotations

import time
import uuid
from typing import Any

import requests
from django.contrib.auth import get_user_model

from tests.tournaments.helpers import hidden_cards, leaked
from tournaments.live import engine_io
from tournaments.live.models import Game


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


def make_client(base: str, name: str, **extra: Any) -> Client:
    password = f"pw-{uuid.uuid4().hex}"
    get_user_model().objects.create_user(name, password=password, **extra)
    return Client(base, name, password)


def play_until_finished(
    tournament_id: int, players: dict[str, Client], *, timeout: float
) -> tuple[dict[str, Any], int]:
    """Every player whose view offers legal moves plays the greedy bot's move, until the tournament's status is
    `finished` or `timeout` seconds pass; the last detail and the number of moves accepted over HTTP (so a game
    the clocks played alone shows) are returned for the caller to assert on. A view is
    scanned for hidden cards only while the game has not moved on since it was answered."""
    watcher = next(iter(players.values()))
    deadline = time.monotonic() + timeout
    detail: dict[str, Any] = {}
    moves = 0
    while time.monotonic() < deadline:
        detail = watcher.call("GET", f"/tournaments/{tournament_id}/").json()
        if detail["status"] == "finished":
            break
        tables = watcher.call("GET", f"/tournaments/{tournament_id}/tables/").json()["results"]
        game_id = tables[0]["game"]
        acted = False
        for name, client in players.items():
            view = client.call("GET", f"/games/{game_id}/").json()
            game = Game.objects.get(pk=game_id)
            if game.version != view.get("version") or game.state is None:
                continue
            assert not leaked(view, hidden_cards(game, name)), name
            if not view.get("legal_moves"):
                continue
            move = engine_io.greedy_move(engine_io.load_state(game.state), name)
            answer = client.call(
                "POST", f"/games/{game_id}/moves/", json={**move, "expected_version": view["version"]}
            )
            assert answer.status_code in (200, 409, 422), answer.text
            if answer.status_code == 200:
                acted = True
                moves += 1
        if not acted:
            time.sleep(0.2)
    return detail, moves
