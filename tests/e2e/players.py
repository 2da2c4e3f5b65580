"""HTTP players for the end-to-end tests of tournaments: users made for the test, signed in (tests.clients), and
the loop that has every client play the engine's greedy move over HTTP until the tournament is finished,
checking on the way that no view shows a card its viewer may not see."""

from __future__ import annotations

import time
import uuid
from typing import Any

from tests.clients import LiveClient
from tests.factories import UserFactory
from tests.tournaments.live.helpers import hidden_cards, leaked
from tournaments import engine
from tournaments.engine import bots as engine_bots
from tournaments.live.models import Game


def make_client(base: str, name: str, **extra: Any) -> LiveClient:
    """A user made for the test (`extra`: `is_staff`, `is_superuser`), signed in over HTTP."""
    password = f"pw-{uuid.uuid4().hex}"
    UserFactory.create(username=name, password=password, **extra)
    client = LiveClient(base, name)
    client.login(password)
    return client


def play_until_finished(
    tournament_id: int, players: dict[str, LiveClient], *, timeout: float
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
        if not tables:  # the last table closed between the two reads: the finish is being written
            time.sleep(0.2)
            continue
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
            move = engine_bots.greedy_move(engine.state_from_dict(game.state), name)
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
