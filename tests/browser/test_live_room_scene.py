"""The live room's whole story in Chromium (issue 33, "Done when"), in Italian on a 390 px phone, over a real
uvicorn (the site and `/ws/v1/` on one port) and the Redis channel layer the test process shares: ann and bob at a
table see each other's moves over the socket; bob sends a quick phrase and ann sees it over the socket; ann's
connection drops (the test closes her socket, and opens none until it gives the network back), the server plays her turn, and when
her socket is back her page shows the "Bentornato" summary; bob, on the lobby page, is told his tournament starts.
axe-core finds nothing at each step; screenshots are kept as the other browser tests keep them.

"Over the socket" is checked twice: uvicorn's access log holds no events long-poll while the sockets are up, and a
counter the test keeps in each page (a wrapper of `WebSocket`, installed before the page's own scripts) counts the
events each topic's socket messages carried."""

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
from django.db import connection, transaction
from django.utils import timezone
from knox.models import AuthToken

from notifications import sources
from tests.browser.conftest import PHONE, Browser
from tests.conftest import worker_env
from tests.factories import MultiTournamentFactory, PlayerFactory
from tests.live_room.stack import uvicorn
from tests.tournaments.live.helpers import simple_move
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables
from tournaments.presence.models import PresenceLease
from tournaments.tournament.models import EntryStatus, TournamentEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

# Installed in the page before its own scripts: every socket the page opens is kept (`__sockets`, so the test can
# close it), the events each topic's messages carried are counted (`__carried`), and while `__cut` is set a new
# socket is closed before it opens (a phone without network opens none).
SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__carried = {};
  window.__cut = false;
  window.WebSocket = class extends Native {
    constructor(address, ...rest) {
      super(address, ...rest);
      window.__sockets.push(this);
      if (window.__cut) this.close();
      this.addEventListener("message", (event) => {
        let message;
        try { message = JSON.parse(event.data); } catch (_) { return; }
        if (message.type === "events" && message.topic) {
          window.__carried[message.topic] = (window.__carried[message.topic] || 0) + message.events.length;
        } else if (message.type === "me") {
          window.__carried.me = (window.__carried.me || 0) + 1;
        }
      });
    }
  };
})();
"""


@pytest.fixture
def site(transactional_db: None, tmp_path: Path, settings: Any) -> Iterator[tuple[str, Path]]:
    """uvicorn on the test database with this test's broker Redis as its channel layer (as production's socket
    tier), which the test process uses too (the clock's moves and the reminders it runs reach the sockets); its
    tasks go to a queue nobody reads; presence is read again every half second, and a long-poll counts as
    connected for 2 s. Its base URL and access log."""
    layer = settings.CELERY_BROKER_URL
    env = worker_env(connection.settings_dict["NAME"])
    env.update(
        CELERY_TASK_DEFAULT_QUEUE=f"ramino-scene-browser-{uuid.uuid4().hex[:12]}",
        CHANNEL_LAYER_URL=layer,
        RAMINO_PRESENCE_CHECK_SECONDS="0.5",
        RAMINO_PRESENCE_POLL_SECONDS="2",
    )
    # The socket process's layer (config/settings/live.py: its CHANNEL_LAYER_URL, the settings' prefix).
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [layer], "prefix": "ramino:socket", "capacity": 500},
        }
    }
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


def _page(base: str, name: str, token: str, test_name: str) -> Browser:
    page = Browser(base, name, test_name, lang="it")
    page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SOCKETS})
    page.resize(PHONE)
    page.open("/play/")
    session = json.dumps({"token": token, "username": name})
    page.driver.execute_script("sessionStorage.setItem('ramino.session', arguments[0]);", session)
    return page


def _offline(page: Browser, offline: bool) -> None:
    """The page's network cut or given back (Chromium's emulation: its requests fail at once while offline)."""
    page.driver.execute_cdp_cmd("Network.enable", {})
    page.driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def _carried(page: Browser, topic: str) -> int:
    return int(page.driver.execute_script("return window.__carried[arguments[0]] || 0", topic))


def _live(page: Browser) -> bool:
    return bool(page.driver.execute_script("return window.Ramino.socket.live()"))


def _version(page: Browser, version: int, message: str) -> None:
    page.wait_attribute("[data-role=table-page]", "data-version", str(version), message, timeout=15)


def _presence(page: Browser, name: str, connected: bool, message: str) -> None:
    page.wait_attribute(
        f"[data-role=player][data-username={name}] [data-role=presence]",
        "data-connected",
        str(connected).lower(),
        message,
        timeout=20,
    )


def test_two_players_play_chat_drop_and_come_back_and_the_lobby_hears_the_tournament_start(
    site: tuple[str, Path], chromium: None, request: pytest.FixtureRequest
) -> None:
    base, log = site
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
    first = game.turn_player
    second = "bob" if first == "ann" else "ann"
    topic = f"game:{game.pk}"

    pages = {name: _page(base, name, tokens[name], request.node.name) for name in users}
    try:
        # 1. Both at the table, both sockets open, each sees the other's move over the socket.
        for name, page in pages.items():
            page.open(f"/play/#/table/{table.pk}")
            _version(page, game.version, f"{name}'s table as it is")
            page.wait_for(lambda page=page: _live(page), message=f"{name}'s socket is open")  # type: ignore[misc]
        for page in pages.values():
            _presence(page, "ann", True, "ann is connected")
            _presence(page, "bob", True, "bob is connected")
        version = _turn(base, tokens[first], game.pk)
        _version(pages[second], version, f"{first}'s turn at {second}'s")
        _version(pages[first], version, f"{first}'s own turn at {first}'s")
        version = _turn(base, tokens[second], game.pk)
        _version(pages[first], version, f"{second}'s turn at {first}'s")
        for name, page in pages.items():
            assert _carried(page, topic) >= 2, f"{name}'s page had the other's moves from its socket"
            page.assert_fits("moves")
            page.assert_accessible("moves")
        assert "/events/" not in log.read_text(), "a page long-polled instead of using its socket"

        # 2. bob sends a quick phrase from the chat's drawer; ann's button counts it, her drawer shows it.
        room = f"chat:table:{table.pk}"
        bob, ann = pages["bob"], pages["ann"]
        bob.click("[data-role=chat-toggle]")
        bob.wait_attribute("[data-role=chat-toggle]", "aria-expanded", "true", "bob's drawer opened")
        phrase = bob.find("[data-role=chat-phrase][data-phrase=good_luck]")
        assert phrase.text == "Buona fortuna"
        phrase.click()
        bob.wait_for(lambda: "Buona fortuna" in bob.text("[data-role=chat-messages]"), message="bob's phrase")
        ann.wait_text("[data-role=chat-unread]", "1", "ann's unread count")
        ann.click("[data-role=chat-toggle]")
        ann.wait_for(lambda: "Buona fortuna" in ann.text("[data-role=chat-messages]"), message="at ann's")
        assert _carried(ann, room) >= 1, "the phrase reached ann over her socket"
        for label, page in (("bob", bob), ("ann", ann)):
            page.assert_fits("chat")
            page.assert_accessible(f"chat-{label}")
        ann.click("[data-role=chat-close]")  # the drawer covers its button on a phone: closed from inside
        ann.wait_attribute("[data-role=chat-toggle]", "aria-expanded", "false", "ann's drawer closed")

        # 3. It is `first`'s turn again, and their connection drops: the socket closed by the test, none opened.
        game.refresh_from_db()
        assert game.turn_player == first
        away, other = pages[first], pages[second]
        # The phone is offline: no socket opens, and no long-poll either. A long-poll counts as connected (for
        # 2 s here), and one sent while the server played would have made those moves not played "while away".
        _offline(away, True)
        away.driver.execute_script("window.__cut = true; window.__sockets.forEach((s) => s.close());")
        away.wait_for(lambda: not _live(away), message="the socket is closed")
        _presence(other, first, False, f"{second}'s page says {first} is disconnected")
        deadline = time.monotonic() + 15
        while PresenceLease.objects.filter(player=users[first], expires_at__gt=timezone.now()).exists():
            assert time.monotonic() < deadline, f"{first}'s connection never dropped"
            time.sleep(0.2)
        # Their clock runs out: disconnected, with no allowance at this table, the server plays their turn.
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        assert clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version)
        game.refresh_from_db()
        assert game.turn_player == second
        _version(other, game.version, f"the server's moves for {first} at {second}'s, over the socket")
        other.assert_accessible("while-the-other-is-away")

        # 4. The network comes back: the socket opens again by itself, and the page says what was played.
        sockets_before = int(away.driver.execute_script("return window.__sockets.length"))
        _offline(away, False)
        away.driver.execute_script("window.__cut = false;")
        away.wait_for(lambda: _live(away), timeout=45, message="the socket reopened")
        assert int(away.driver.execute_script("return window.__sockets.length")) > sockets_before
        away.wait_present("[data-role=while-away]", "the summary of what was played while away", timeout=30)
        assert away.text("#while-away-title") == "Bentornato"
        moves = away.find_all("[data-role=while-away-move]")
        assert len(moves) >= 2 and all(m.text for m in moves)  # the draw and the discard, in words
        assert away.text("[data-role=while-away-result]") == "La mano non è ancora finita."
        _version(away, game.version, "the table caught up")
        _presence(other, first, True, f"{second}'s page says {first} is back")
        away.assert_fits("while-away")
        away.assert_accessible("while-away")

        # 5. bob goes to the lobby; his tournament starts within 5 minutes: the reminder's beat job tells him.
        tournament = MultiTournamentFactory.create(
            name="Coppa del lunedì", starts_at=timezone.now() + timedelta(minutes=3)
        )
        TournamentEntry.objects.create(
            tournament=tournament, player=users["bob"], status=EntryStatus.REGISTERED
        )
        bob.open("/play/#/lobby")
        bob.wait_present("[data-role=notifications]", "the notification centre on the lobby page")
        bob.wait_for(lambda: _live(bob), message="bob's socket on the lobby page")
        bob.wait_for(
            lambda: not bob.find("[data-role=notifications-badge]").is_displayed(),
            message="nothing unread yet",
        )
        time.sleep(0.5)  # the socket follows `me` once signed in
        told_before = _carried(bob, "me")
        with transaction.atomic():
            assert sources.tournament_reminders() == 1
        bob.wait_text("[data-role=notifications-badge]", "1", "the reminder counted, over the socket")
        bob.wait_text(
            "[data-role=flash]",
            "Il tuo torneo sta per iniziare: Coppa del lunedì inizia tra 5 minuti.",
            "and said in the flash line",
        )
        assert _carried(bob, "me") > told_before
        bob.assert_fits("lobby-told")
        bob.assert_accessible("lobby-told")
        bob.click("[data-role=notifications]")
        bob.wait_attribute("[data-role=notifications]", "aria-expanded", "true", "the panel opens")
        assert "Il tuo torneo sta per iniziare" in bob.text("[data-role=notices-list] li")
        bob.assert_accessible("lobby-centre")
        for name, page in pages.items():
            assert page.script_errors() == [], (name, page.script_errors())
    finally:
        for page in pages.values():
            page.quit()
