"""End to end on the notifications' own queue: a real Celery worker consuming only it (as deployed: docs/operations.md
"Queues"), a real SMTP server and a stand-in push service. The beat's reminder message and a move that passes the
turn to a player away from the table each end in an e-mail and a push in the player's language."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from notifications import vapid
from notifications.models import Notification, NotificationKind
from tests.conftest import CeleryWorker, worker_env
from tests.factories import FAST_CLOCKS
from tests.notifications.servers import Browser, Mailbox, PushService, push_service, smtp_server, vapid_claims
from tests.tournaments.live.helpers import simple_move
from tests.tournaments.multi_table.helpers import new_multi, register_all
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def outside() -> Iterator[tuple[Mailbox, PushService, tuple[str, str], CeleryWorker]]:
    """The SMTP server, the push service, the site's VAPID keys and a worker on the notifications' queue that
    sends to them (its EMAIL_URL and keys from its environment, as in production)."""
    keys = vapid.generate()
    with smtp_server() as (mailbox, port), push_service() as pusher:
        env = dict(
            worker_env(connection.settings_dict["NAME"]),
            RAMINO_NOTIFICATIONS_QUEUE=settings.RAMINO_NOTIFICATIONS_QUEUE,
            EMAIL_URL=f"smtp://127.0.0.1:{port}",
            RAMINO_VAPID_PRIVATE_KEY=keys[0],
            RAMINO_VAPID_PUBLIC_KEY=keys[1],
        )
        worker = CeleryWorker(
            env,
            ROOT / "var" / f"test-notifications-worker-{time.monotonic_ns()}.log",
            queue=settings.RAMINO_NOTIFICATIONS_QUEUE,
        )
        worker.start()
        try:
            yield mailbox, pusher, keys, worker
        finally:
            worker.stop()


def _until(check: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError("not delivered in time")


def _subscribed(user: Any, pusher: PushService, client_for: Any) -> Browser:
    browser = Browser.new()
    answer = client_for(user).post(
        "/api/v1/me/push-subscriptions/", browser.subscription(pusher.endpoint(user.username)), format="json"
    )
    assert answer.status_code == 201, answer.content
    return browser


def test_the_beats_reminder_goes_out_by_email_and_push(
    outside: Any, admin_user: Any, make_player: Any, client_for: Any
) -> None:
    mailbox, pusher, keys, _worker = outside
    ann = make_player("ann", email="ann@example.org")
    client_for(ann).put("/api/v1/me/notification-settings/", {"language": "it"}, format="json")
    browser = _subscribed(ann, pusher, client_for)
    tournament = new_multi(admin_user, name="Coppa", starts_at=timezone.now() + timedelta(minutes=4))
    register_all(tournament, [ann])

    # What beat sends every 30 s (CELERY_BEAT_SCHEDULE "notifications: tournament reminders"), by its name.
    dispatch.send("notifications.tournament_reminders", [])

    _until(lambda: bool(mailbox.messages) and bool(pusher.received))
    [message] = mailbox.messages
    assert message["Subject"] == "Ramino · Il tuo torneo sta per iniziare"
    assert "Coppa inizia tra 5 minuti." in message.get_content()
    [pushed] = pusher.received
    vapid_claims(pushed.headers["authorization"], keys[1])
    assert browser.decrypt(pushed.body)["body"] == "Coppa inizia tra 5 minuti."
    told = Notification.objects.get(user=ann)
    _until(
        lambda: Notification.objects.filter(
            pk=told.pk, email_sent_at__isnull=False, push_sent_at__isnull=False
        ).exists()
    )
    # The next beat run tells nobody again.
    dispatch.send("notifications.tournament_reminders", [])
    time.sleep(1.0)
    assert len(mailbox.messages) == 1 and len(pusher.received) == 1


def test_a_move_that_passes_the_turn_pushes_your_turn_to_a_player_away(
    outside: Any, make_table: Any, make_player: Any, client_for: Any
) -> None:
    _mailbox, pusher, _keys, _worker = outside
    # A turn clock far longer than the worker can take to start under load: the first turn's player must be
    # the one who plays it out (at 30 s a slow first push let the clock play the turn, and the loop read a view
    # without legal moves).
    table = make_table(options=dict(FAST_CLOCKS, turn_seconds=600, max_timeouts=20))
    users = {name: make_player(name) for name in ("ann", "bob")}
    # Subscribed before sitting: the second seat may have the session's worker deal the round at once (it
    # consumes this process's queue when an earlier test started it), and a turn told before the subscription
    # has nobody to push to.
    browsers = {name: _subscribed(user, pusher, client_for) for name, user in users.items()}
    for user in users.values():
        client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200})
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)
    game.refresh_from_db()
    first = game.turn_player
    # The first turn's player is told too (nobody is looking): wait for that push, then play the turn out.
    _until(lambda: len(pusher.received) == 1)
    mover = users[first]
    for _ in range(10):  # draw, then discard: the turn passes
        view = client_for(mover).get(f"/api/v1/games/{game.pk}/").json()
        move = {**simple_move(view), "expected_version": view["version"]}
        answer = client_for(mover).post(f"/api/v1/games/{game.pk}/moves/", move, format="json")
        assert answer.status_code == 200, answer.content
        game.refresh_from_db()
        if game.turn_player != first:
            break
    other = game.turn_player
    assert other and other != first
    _until(lambda: len(pusher.received) == 2)
    pushed = pusher.received[1]
    assert pushed.path == f"/push/{other}"
    payload = browsers[other].decrypt(pushed.body)
    assert payload["title"] == "Your turn"
    assert payload["link"] == f"/play/#/table/{table.pk}"
    assert Notification.objects.filter(kind=NotificationKind.YOUR_TURN).count() == 2
