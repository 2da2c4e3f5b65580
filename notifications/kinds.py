"""What each kind of notification says, where its link leads, and the channels it goes out on by default.

Defaults (a player changes any of them, `PUT /me/notification-settings/`): every kind in the client; by e-mail
only what a player would not want to miss when away from the site for hours (a tournament about to start, a
prize won); by Web Push every kind, since push reaches only a browser the player subscribed themselves (the
subscription is the opt-in). "Your turn" is told only to a player not looking at the table: not connected to the game (presence)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

from notifications.models import Channel, NotificationKind

CHANNELS: tuple[str, ...] = tuple(Channel.values)
KINDS: tuple[str, ...] = tuple(NotificationKind.values)

DEFAULTS: dict[str, dict[str, bool]] = {
    NotificationKind.YOUR_TURN: {Channel.CLIENT: True, Channel.EMAIL: False, Channel.PUSH: True},
    NotificationKind.TOURNAMENT_SOON: {Channel.CLIENT: True, Channel.EMAIL: True, Channel.PUSH: True},
    NotificationKind.TOURNAMENT_STARTED: {Channel.CLIENT: True, Channel.EMAIL: False, Channel.PUSH: True},
    NotificationKind.TABLE_MOVED: {Channel.CLIENT: True, Channel.EMAIL: False, Channel.PUSH: True},
    NotificationKind.PRIZE_WON: {Channel.CLIENT: True, Channel.EMAIL: True, Channel.PUSH: True},
    NotificationKind.DEAL_PROPOSED: {Channel.CLIENT: True, Channel.EMAIL: False, Channel.PUSH: True},
}

# Each kind's title and sentence (English msgids; %(name)s placeholders from the notification's data).
_TEXTS: dict[str, tuple[str, str]] = {
    NotificationKind.YOUR_TURN: (N_("Your turn"), N_("It is your turn at table %(table)s.")),
    NotificationKind.TOURNAMENT_SOON: (
        N_("Your tournament starts soon"),
        N_("%(tournament)s starts in 5 minutes."),
    ),
    NotificationKind.TOURNAMENT_STARTED: (
        N_("Your tournament has started"),
        N_("%(tournament)s has started: take your seat."),
    ),
    NotificationKind.TABLE_MOVED: (
        N_("Your table moved"),
        N_("In %(tournament)s you now play at table %(table)s."),
    ),
    NotificationKind.PRIZE_WON: (
        N_("You won a prize"),
        N_("You won %(amount)s chips in %(tournament)s."),
    ),
    NotificationKind.DEAL_PROPOSED: (
        N_("A deal is proposed"),
        N_("%(proposer)s proposes a deal at your table in %(tournament)s."),
    ),
}


@dataclass(frozen=True)
class Text:
    title: str
    body: str
    link: str


def switches(stored: Mapping[str, Any] | None) -> dict[str, dict[str, bool]]:
    """Every kind and channel: the stored choice where there is one, else the default."""
    stored = stored or {}
    result: dict[str, dict[str, bool]] = {}
    for kind in KINDS:
        found = stored.get(kind)
        mine: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        result[kind] = {
            channel: bool(mine[channel]) if isinstance(mine.get(channel), bool) else DEFAULTS[kind][channel]
            for channel in CHANNELS
        }
    return result


def link(kind: str, data: Mapping[str, Any]) -> str:
    """Where the notification leads in the player client (a path with its #route)."""
    if kind in (NotificationKind.YOUR_TURN, NotificationKind.TABLE_MOVED) and data.get("table"):
        return f"/play/#/table/{int(data['table'])}"
    if data.get("tournament_id"):
        return f"/play/#/tournament/{int(data['tournament_id'])}"
    return "/play/#/lobby"


def render(kind: str, data: Mapping[str, Any], language: str | None = None) -> Text:
    """The title and sentence in `language` (None: the active one), numbers as that language writes them."""
    title, body = _TEXTS[kind]
    with translation.override(language) if language else contextlib.nullcontext():
        params = {
            key: number_format(value, force_grouping=True)
            if isinstance(value, int) and not isinstance(value, bool) and key == "amount"
            else value
            for key, value in data.items()
        }
        params.setdefault("tournament", data.get("tournament", ""))
        params.setdefault("table", data.get("table", ""))
        try:
            sentence = gettext(body) % params
        except (KeyError, TypeError, ValueError):
            sentence = gettext(title)
        return Text(title=gettext(title), body=sentence, link=link(kind, data))
