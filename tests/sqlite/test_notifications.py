"""Notifications on the embedded default (SQLite, the mails written to a folder): a new turn tells the player who
is not at the table (the task run in this process, as the harness runs captured messages), the 5-minute reminder
tells an entrant once, the centre lists both, and the e-mail lands in the folder."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from notifications import delivery, sources
from notifications.models import Notification, NotificationKind
from tests.clients import api_client
from tests.factories import MultiTournamentFactory, PlayerFactory, TableFactory
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.tournament import registration

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


def test_turn_and_reminder_notifications_on_sqlite(settings: Any, tmp_path: Path) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    admin = PlayerFactory.create(username="boss", is_staff=True, is_superuser=True)
    ann = PlayerFactory.create(username="ann", email="ann@example.org")
    bob = PlayerFactory.create(username="bob")
    table = TableFactory.create()
    for user in (ann, bob):
        assert api_client(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    game = Game.objects.get(table=table)
    with dispatch.captured() as sent:
        round_start.start_round(game_id=game.pk)
    [turn] = [args for name, args in sent if name == "notifications.your_turn"]
    assert sources.your_turn(game_id=turn[0], turn_version=turn[1]) is True

    tournament = MultiTournamentFactory.create(
        created_by=admin, starts_at=timezone.now() + timedelta(minutes=3)
    )
    registration.register(user=ann, tournament_id=tournament.pk)
    assert sources.tournament_reminders() == 1
    assert sources.tournament_reminders() == 0

    game.refresh_from_db()
    mine = {n.kind for n in Notification.objects.filter(user=ann)}
    assert NotificationKind.TOURNAMENT_SOON in mine
    assert (NotificationKind.YOUR_TURN in mine) == (game.turn_player == "ann")
    listed = api_client(ann).get("/api/v1/me/notifications/").json()
    assert listed["count"] == len(mine)
    soon = Notification.objects.get(user=ann, kind=NotificationKind.TOURNAMENT_SOON)
    assert delivery.send_email(notification_id=soon.pk) is True
    [mail] = list(tmp_path.iterdir())
    assert "starts in 5 minutes" in mail.read_text()
