"""The landing page's demo: a guided first round of Rummy 500 against one bot on a stacked deck
(docs/web.md "The demo"; the deal and the guide's script: `demo_script`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from accounts import services as accounts
from tournaments.practice.demo import script as demo_script
from tournaments.practice.services import StackedDeal, start_practice

# Generous clocks: a newcomer reads each instruction before acting, and the demo must never play for them.
OPTIONS: dict[str, Any] = {"turn_seconds": 300, "time_bank_seconds": 300}


@dataclass(frozen=True)
class DemoStart:
    table: int
    game: int
    username: str
    token: str | None  # a new guest's token; None when the caller was signed in


def start_demo(*, user: Any) -> DemoStart:
    """A demo table for `user`, or for a new guest (no chips, no password) when `user` is anonymous.

    The guest, its token and the table are made together: a failure leaves no guest behind."""
    with transaction.atomic():
        token: str | None = None
        if user is None or not user.is_authenticated:
            user = accounts.create_guest()
            _instance, token = accounts.create_token(user=user)
        table = start_practice(
            player=user,
            game=demo_script.GAME,
            bots=1,
            level=demo_script.LEVEL,
            deal=StackedDeal(deck=demo_script.deck(), dealer=demo_script.DEALER),
            options=dict(OPTIONS),
            demo=True,
        )
    return DemoStart(table=table.pk, game=table.live_game.pk, username=user.get_username(), token=token)
