"""The table page follows the game over the live room's socket: ann's page, served by a real uvicorn process (the
site and `/ws/v1/` on one port, as `make run` serves them), shows bob's move as soon as bob makes it over HTTP,
without one events long-poll (uvicorn's access log holds none), and the Content-Security-Policy lets the
socket through (no policy violation in the console); and a socket that dies without a close event (no answer to
its ping) is given up and opened again, the move then arriving on the new socket."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from django.db import connection
from knox.models import AuthToken

from tests.browser.conftest import Browser
from tests.conftest import worker_env
from tests.factories import PlayerFactory
from tests.live_room.stack import uvicorn
from tests.tournaments.live.helpers import simple_move
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture
def site(transactional_db: None, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """uvicorn on the test database with the in-memory channel layer (its own moves wake its sockets), its
    tasks sent to a queue nobody reads (the test deals the round itself); its base URL and access log."""
    env = worker_env(connection.settings_dict["NAME"])
    env.update(
        CELERY_TASK_DEFAULT_QUEUE=f"ramino-socket-browser-{uuid.uuid4().hex[:12]}",
        CHANNEL_LAYER_URL="",
        RAMINO_SOCKET_RECHECK_SECONDS="600",
    )
    log = tmp_path / "uvicorn.log"
    with uvicorn(env, log, access_log=True) as base:
        yield base, log


def _call(base: str, token: str, method: str, path: str, body: Any = None) -> Any:
    headers = {"Authorization": f"Token {token}", "Idempotency-Key": uuid.uuid4().hex}
    answer = requests.request(method, f"{base}/api/v1{path}", json=body, headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _turn(base: str, token: str, game_id: int) -> int:
    """The player of `token` plays a whole turn over HTTP (a stock draw, then a discard); the last version."""
    version = 0
    while True:
        view = _call(base, token, "GET", f"/games/{game_id}/")
        if not view.get("legal_moves"):
            return version
        move = {**simple_move(view), "expected_version": view["version"]}
        version = _call(base, token, "POST", f"/games/{game_id}/moves/", move)["version"]


def _table_of_two(base: str) -> tuple[dict[str, str], Game]:
    """ann and bob at a table, round 1 dealt and bob to play; their tokens and the game."""
    boss = PlayerFactory.create(username="boss", is_staff=True, is_superuser=True)
    users = {name: PlayerFactory.create(username=name, chips=5_000) for name in ("ann", "bob")}
    tokens = {name: AuthToken.objects.create(user)[1] for name, user in users.items()}
    table = tables.create_table(
        user=boss,
        game="rummy500",
        options={"turn_seconds": 120, "time_bank_seconds": 0},
        seats=2,
        pcr=1,
        min_buy_in=100,
        max_buy_in=2_000,
    )
    for name in users:
        _call(base, tokens[name], "POST", f"/tables/{table.pk}/sit/", {"buy_in": 1_000})
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)
    game.refresh_from_db()
    if game.turn_player == "ann":
        _turn(base, tokens["ann"], game.pk)
    game.refresh_from_db()
    assert game.turn_player == "bob"
    return tokens, game


def test_the_table_page_receives_the_opponents_move_over_the_socket(
    site: tuple[str, Path], chromium: None, request: pytest.FixtureRequest
) -> None:
    base, log = site
    tokens, game = _table_of_two(base)
    table_id = game.table_id
    page = Browser(base, "ann", request.node.name)
    try:
        page.open("/play/")
        session = json.dumps({"token": tokens["ann"], "username": "ann"})
        page.driver.execute_script("sessionStorage.setItem('ramino.session', arguments[0]);", session)
        page.open(f"/play/#/table/{table_id}")
        page.wait_attribute("[data-role=table-page]", "data-version", str(game.version), "the table as it is")
        page.screenshot("before")
        version = _turn(base, tokens["bob"], game.pk)
        page.wait_attribute(
            "[data-role=table-page]",
            "data-version",
            str(version),
            "bob's turn shown by the socket",
            timeout=10,
        )
        page.screenshot("after")
        requests_seen = log.read_text()
        assert f"/api/v1/games/{game.pk}/" in requests_seen  # the access log is on
        assert "/events/" not in requests_seen, "the page long-polled instead of using its socket"
        assert page.script_errors() == []
    finally:
        page.quit()


# Before the page's scripts: every WebSocket the page opens is kept in `__sockets`, and `__silence(socket)` makes
# one dead without a close event (what it sends is dropped, what arrives is not delivered), as a phone's socket
# after a network switch.
_SILENCEABLE = """
(() => {
  const Native = window.WebSocket;
  const silenced = new WeakSet();
  window.__sockets = [];
  window.__silence = (socket) => silenced.add(socket);
  class Watched extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
    }
    send(data) {
      if (!silenced.has(this)) super.send(data);
    }
    set onmessage(handler) {
      super.onmessage = handler && ((event) => (silenced.has(this) ? undefined : handler(event)));
    }
    get onmessage() {
      return super.onmessage;
    }
  }
  window.WebSocket = Watched;
})();
"""


def test_a_socket_dead_without_a_close_is_noticed_and_opened_again(
    site: tuple[str, Path], chromium: None, request: pytest.FixtureRequest
) -> None:
    base, _log = site
    tokens, game = _table_of_two(base)
    page = Browser(base, "ann", request.node.name)
    try:
        page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _SILENCEABLE})
        page.open("/play/")
        session = json.dumps({"token": tokens["ann"], "username": "ann"})
        page.driver.execute_script("sessionStorage.setItem('ramino.session', arguments[0]);", session)
        page.open(f"/play/#/table/{game.table_id}")
        page.wait_attribute("[data-role=table-page]", "data-version", str(game.version), "the table as it is")
        page.wait_for(
            lambda: page.driver.execute_script(
                "return window.__sockets.length === 1 && Ramino.socket.live()"
            ),
            message="the page's socket open and signed in",
        )
        # A short heartbeat, then the socket goes silent: no close event ever comes.
        page.driver.execute_script(
            "Ramino.socket.heartbeat.pingMs = 500; Ramino.socket.heartbeat.pongMs = 1000;"
            "window.__silence(window.__sockets[0]);"
        )
        page.wait_for(
            lambda: page.driver.execute_script(
                "return window.__sockets.length === 2 && window.__sockets[1].readyState === 1"
                " && Ramino.socket.live()"
            ),
            timeout=20,
            message="the dead socket given up and another opened and signed in",
        )
        assert page.driver.execute_script("return window.__sockets[0].readyState") in (
            2,
            3,
        )  # closed by the page
        version = _turn(base, tokens["bob"], game.pk)
        page.wait_attribute(
            "[data-role=table-page]", "data-version", str(version), "bob's turn shown after the reconnection"
        )
        page.screenshot("reconnected")
        assert page.script_errors() == []
    finally:
        page.quit()
