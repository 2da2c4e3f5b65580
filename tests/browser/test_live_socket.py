"""The table page follows the game over the live room's socket: ann's page, served by a real uvicorn process (the
site and `/ws/v1/` on one port, as `make run` serves them), shows bob's move as soon as bob makes it over HTTP,
without one events long-poll (uvicorn's access log holds none), and the Content-Security-Policy lets the
socket through (no policy violation in the console)."""

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
from tests.tournaments.helpers import simple_move
from tournaments.live import round_start, tables
from tournaments.live.models import Game

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


def test_the_table_page_receives_the_opponents_move_over_the_socket(
    site: tuple[str, Path], chromium: None, request: pytest.FixtureRequest
) -> None:
    base, log = site
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

    page = Browser(base, "ann", request.node.name)
    try:
        page.open("/play/")
        session = json.dumps({"token": tokens["ann"], "username": "ann"})
        page.driver.execute_script("sessionStorage.setItem('ramino.session', arguments[0]);", session)
        page.open(f"/play/#/table/{table.pk}")
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
