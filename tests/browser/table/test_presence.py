"""Presence and "I'm back" in the player client, in Italian at 390 px, over a real uvicorn process (the site and
`/ws/v1/` on one port, as `make run` serves them): ann's table page says beside each name who is connected, and
changes it when bob's socket comes and goes; ann's connection drops (her tab is closed), the server plays her
turn, and when she comes back her page shows what it played for her. axe-core finds nothing on either."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import requests
from django.db import connection
from django.utils import timezone
from knox.models import AuthToken
from websockets.sync.client import connect

from tests.browser.conftest import Browser
from tests.conftest import worker_env
from tests.factories import PlayerFactory
from tests.live_room.stack import uvicorn
from tests.tournaments.live.helpers import simple_move
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables
from tournaments.presence.models import PresenceLease

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PHONE = (390, 844)


@pytest.fixture
def site(transactional_db: None, tmp_path: Path) -> Iterator[str]:
    """uvicorn on the test database with the in-memory channel layer; its tasks sent to a queue nobody reads
    (the test deals and runs the clocks itself); presence read again every half second."""
    env = worker_env(connection.settings_dict["NAME"])
    env.update(
        CELERY_TASK_DEFAULT_QUEUE=f"ramino-presence-browser-{uuid.uuid4().hex[:12]}",
        CHANNEL_LAYER_URL="",
        RAMINO_PRESENCE_CHECK_SECONDS="0.5",
        # A page that long-polled before its socket opened counts as connected this long after.
        RAMINO_PRESENCE_POLL_SECONDS="2",
    )
    with uvicorn(env, tmp_path / "uvicorn.log") as base:
        yield base


def _call(base: str, token: str, method: str, path: str, body: Any = None) -> Any:
    headers = {"Authorization": f"Token {token}", "Idempotency-Key": uuid.uuid4().hex}
    answer = requests.request(method, f"{base}/api/v1{path}", json=body, headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _turn(base: str, token: str, game_id: int) -> None:
    while True:
        view = _call(base, token, "GET", f"/games/{game_id}/")
        if not view.get("legal_moves"):
            return
        _call(
            base,
            token,
            "POST",
            f"/games/{game_id}/moves/",
            {**simple_move(view), "expected_version": view["version"]},
        )


def _presence(page: Browser, name: str, connected: bool, message: str) -> None:
    page.wait_attribute(
        f"[data-role=player][data-username={name}] [data-role=presence]",
        "data-connected",
        str(connected).lower(),
        message,
    )


def test_the_table_page_shows_who_is_connected_and_what_was_played_while_away(
    site: str, chromium: None, request: pytest.FixtureRequest
) -> None:
    base = site
    boss = PlayerFactory.create(username="boss", is_staff=True, is_superuser=True)
    users = {name: PlayerFactory.create(username=name, chips=5_000) for name in ("ann", "bob")}
    tokens = {name: AuthToken.objects.create(user)[1] for name, user in users.items()}
    table = tables.create_table(
        user=boss,
        game="rummy500",
        options={"turn_seconds": 300, "time_bank_seconds": 0, "reconnect_seconds": 0},
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
    if game.turn_player == "bob":
        _turn(base, tokens["bob"], game.pk)
    game.refresh_from_db()
    assert game.turn_player == "ann"

    page = Browser(base, "ann", request.node.name, lang="it")
    try:
        page.resize(PHONE)
        page.open("/play/")
        session = json.dumps({"token": tokens["ann"], "username": "ann"})
        page.driver.execute_script("sessionStorage.setItem('ramino.session', arguments[0]);", session)
        page.open(f"/play/#/table/{table.pk}")
        _presence(page, "ann", True, "ann's own socket makes her connected")
        _presence(page, "bob", False, "bob has no socket")
        assert page.text("[data-role=player][data-username=bob] [data-role=presence]") == "disconnesso"
        # bob's socket comes: ann's page says so; it goes: said again.
        with connect(base.replace("http://", "ws://") + "/ws/v1/", open_timeout=10) as bob:
            bob.send(json.dumps({"type": "auth", "token": tokens["bob"]}))
            assert json.loads(bob.recv(timeout=10))["type"] == "welcome"
            bob.send(json.dumps({"type": "subscribe", "topic": f"game:{game.pk}", "after": game.version}))
            _presence(page, "bob", True, "bob's socket came")
            assert page.text("[data-role=player][data-username=bob] [data-role=presence]") == "connesso"
            page.assert_fits("presence")
            page.assert_accessible("presence")
        _presence(page, "bob", False, "bob's socket went")

        # ann's connection drops: her tab is closed (its socket with it), and her lease ends; a new tab is hers.
        dropped = page.driver.current_window_handle
        page.driver.switch_to.new_window("tab")
        fresh = page.driver.current_window_handle
        page.driver.switch_to.window(dropped)
        page.driver.close()
        page.driver.switch_to.window(fresh)
        deadline = time.monotonic() + 15
        while PresenceLease.objects.filter(player=users["ann"], expires_at__gt=timezone.now()).exists():
            holders = list(
                PresenceLease.objects.filter(player=users["ann"]).values_list("holder", "expires_at")
            )
            assert time.monotonic() < deadline, f"ann's connection never dropped: {holders}"
            time.sleep(0.2)
        # Her clock runs out: disconnected, with no allowance at this table, the server plays her turn.
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        assert clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version)

        # She comes back (signed in in her new tab): the page shows what the server played for her.
        page.open("/play/")
        page.driver.execute_script("sessionStorage.setItem('ramino.session', arguments[0]);", session)
        page.open(f"/play/#/table/{table.pk}")
        page.wait_present("[data-role=while-away]", "the summary of what was played while she was away")
        assert page.text("#while-away-title") == "Bentornato"
        moves = page.find_all("[data-role=while-away-move]")
        assert len(moves) >= 2 and all(m.text for m in moves)  # her draw and her discard, in words
        assert "Mano 1" in page.text("[data-role=while-away]")
        assert page.text("[data-role=while-away-result]") == "La mano non è ancora finita."
        page.assert_fits("while-away")
        page.assert_accessible("while-away")
        page.click("[data-role=while-away-close]")
        page.wait_for(lambda: not page.find_all("[data-role=while-away]"), message="the summary closed")
        # Closed, it stays closed when the page is loaded again.
        page.driver.refresh()
        _presence(page, "ann", True, "ann is back")
        assert not page.find_all("[data-role=while-away]")
        assert page.script_errors() == []
    finally:
        page.quit()
