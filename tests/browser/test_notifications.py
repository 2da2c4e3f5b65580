"""The notification centre in Chromium, in Italian at 390 px: served by a real uvicorn (the site and `/ws/v1/`),
with the Redis channel layer the test process shares, so a notification made here reaches the page over the socket.
The badge counts, the flash line says it, the panel lists it and marks all read, the settings page switches a
kind's channel; the page's language is stored as the player's; axe-core finds nothing."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction
from knox.models import AuthToken

from notifications import services
from notifications.models import Notification, NotificationSettings
from tests.browser.conftest import Browser
from tests.conftest import worker_env
from tests.factories import PlayerFactory
from tests.live_room.stack import uvicorn

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
PHONE = (390, 844)


@pytest.fixture
def site(transactional_db: None, tmp_path: Path, settings: Any) -> Iterator[str]:
    """uvicorn on the test database and this test's broker Redis as the channel layer (as production's socket tier),
    which the test process uses too."""
    layer = settings.CELERY_BROKER_URL
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [layer], "prefix": f"ramino:test-notify-{uuid.uuid4().hex[:8]}"},
        }
    }
    env = worker_env(connection.settings_dict["NAME"])
    env.update(
        CELERY_TASK_DEFAULT_QUEUE=f"ramino-notify-browser-{uuid.uuid4().hex[:12]}",
        CHANNEL_LAYER_URL=layer,
    )
    with uvicorn(env, tmp_path / "uvicorn.log") as base:
        yield base


def test_the_centre_in_italian_on_a_phone(
    site: str, chromium: None, request: pytest.FixtureRequest, settings: Any
) -> None:
    # The same prefix as the socket process's (its CHANNEL_LAYER_URL, the settings' prefix).
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = "ramino:socket"
    ann = PlayerFactory.create(username="ann", email="ann@example.org")
    token = AuthToken.objects.create(ann)[1]
    services.notify(
        user_id=ann.pk,
        kind="table_moved",
        key="tournament:3:moved",
        data={"tournament_id": 3, "tournament": "Coppa", "table": 7},
    )
    page = Browser(site, "ann", request.node.name, lang="it")
    try:
        page.resize(PHONE)
        page.open("/play/")
        session = json.dumps({"token": token, "username": "ann"})
        page.driver.execute_script("sessionStorage.setItem('ramino.session', arguments[0]);", session)
        page.open("/play/#/lobby")
        page.wait_text("[data-role=notifications-badge]", "1", "the unread count on opening")
        page.wait_for(
            lambda: NotificationSettings.objects.filter(user=ann, language="it").exists(),
            message="the page's language stored as the player's",
        )
        # Give the socket time to sign in and follow `me`, then tell ann something new.
        page.wait_for(
            lambda: page.driver.execute_script("return window.Ramino.socket.live()"),
            message="the socket is open",
        )
        time.sleep(0.5)
        with transaction.atomic():
            services.notify(
                user_id=ann.pk,
                kind="tournament_soon",
                key="tournament:9:soon",
                data={"tournament_id": 9, "tournament": "Coppa del lunedì"},
            )
        page.wait_text("[data-role=notifications-badge]", "2", "the new one counted, over the socket")
        page.wait_text(
            "[data-role=flash]",
            "Il tuo torneo sta per iniziare: Coppa del lunedì inizia tra 5 minuti.",
            "and said in the flash line",
        )
        assert page.attribute("[data-role=notifications]", "aria-label") == "Notifiche, 2 non lette"

        page.click("[data-role=notifications]")
        page.wait_attribute("[data-role=notifications]", "aria-expanded", "true", "the panel opens")
        items = page.find_all("[data-role=notices-list] li")
        assert "Il tuo torneo sta per iniziare" in items[0].text
        assert "In Coppa ora giochi al tavolo 7." in items[1].text
        page.assert_fits("centre")
        page.assert_accessible("centre")
        # The count sits on the bell's corner: its going moves nothing in the bar (on a phone it wraps).
        where = "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.x, r.y];"

        def places() -> list[Any]:
            return [page.driver.execute_script(where, f"[data-role={x}]") for x in ("whoami", "sign-out")]

        with_count = places()
        page.click("[data-role=notices-read-all]")
        page.wait_for(
            lambda: not page.find("[data-role=notifications-badge]").is_displayed(), message="no unread left"
        )
        assert places() == with_count
        assert not Notification.objects.filter(user=ann, read_at__isnull=True).exists()

        page.click("[data-role=notices-settings]")
        page.wait_present("input[name='your_turn.push']", "the settings page")
        assert page.find("input[name='prize_won.email']").is_selected()
        page.click("input[name='your_turn.push']")
        page.wait_for(
            lambda: (
                NotificationSettings.objects.get(user=ann).switches.get("your_turn", {}).get("push") is False
            ),
            message="the switch saved",
        )
        page.assert_fits("settings")
        page.assert_accessible("settings")
        assert page.script_errors() == []
    finally:
        page.quit()
