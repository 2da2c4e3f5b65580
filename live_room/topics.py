"""What a socket may follow and what it reads there (docs/api.md "Live socket"), in plain synchronous reads that
the consumer runs in a thread: the REST reads' own selectors, read rules and redaction, so that a socket never
shows what `GET /games/{id}/events/` or `GET /tournaments/{id}/events/` would not show the same user.

Topics: `game:<id>` (the game's events, each as `game_log.event_for` gives it to this viewer), `tournament:<id>`
(the tournament's events), `lobby` (the lobby's digest, `GET /lobby/version/`) and `me` (the user's own
messages)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext_noop as N_
from rest_framework import exceptions

from accounts.authentication import TokenAuthentication
from api.errors import ApiCode, ServiceError
from tournaments.live import fanout, game_log, selectors
from tournaments.multi_table import selectors as multi_selectors
from tournaments.tournament import lobby
from tournaments.tournament.serializers import TournamentEventsSerializer

User = AbstractBaseUser | AnonymousUser

GAME = "game"
TOURNAMENT = "tournament"
LOBBY = "lobby"
ME = "me"
_NUMBERED = re.compile(r"(game|tournament):([1-9][0-9]{0,17})")
# The most events one read gives (the long-poll's page); a longer backlog is read page after page.
PAGE = 500
# Tokens are short; anything longer is no token.
_MAX_TOKEN = 256


class SocketRefusal(ServiceError):
    """A message the socket refuses (answered with `{"type": "error", ...}`, the REST envelope's fields)."""

    code = ApiCode.REQUEST_INVALID
    default_message = N_("The request is invalid.")


@dataclass(frozen=True)
class Topic:
    kind: str
    id: int | None = None

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.id}" if self.id is not None else self.kind

    @property
    def group(self) -> str | None:
        """The channel layer's group whose wake-ups concern this topic (a game's or a tournament's; the lobby
        is read, and `me` is the user's own group)."""
        return fanout.group_name(self.name) if self.kind in (GAME, TOURNAMENT) else None


def parse(value: object) -> Topic:
    """A topic's name as a client writes it; anything else is refused (`request.invalid`, `details.field`)."""
    if value == LOBBY:
        return Topic(LOBBY)
    if value == ME:
        return Topic(ME)
    found = _NUMBERED.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        raise SocketRefusal(
            N_("Unknown topic: game:<id>, tournament:<id>, lobby or me."), details={"field": "topic"}
        )
    return Topic(found.group(1), int(found.group(2)))


def version_after(value: object) -> int:
    """A subscription's `after`: an integer from 0 (absent: 0), as the long-poll's `after`."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2**53:
        raise SocketRefusal(N_("after must be an integer of at least 0."), details={"field": "after"})
    return value


def user_for_token(token: object) -> Any:
    """The active user whose API token this is (knox's check, as the REST API's); `auth.failed` otherwise."""
    if not isinstance(token, str) or not token or len(token) > _MAX_TOKEN:
        raise SocketRefusal(N_("Invalid token."), code=ApiCode.AUTH_FAILED)
    try:
        user, _token = TokenAuthentication().authenticate_credentials(token.encode("utf-8"))
    except exceptions.AuthenticationFailed as exc:
        raise SocketRefusal(str(exc.detail), code=ApiCode.AUTH_FAILED) from None
    return user


@dataclass(frozen=True)
class Page:
    """A topic's version now and the events after the version asked for (each as this viewer sees it)."""

    version: int
    events: list[dict[str, Any]]

    @property
    def last(self) -> int | None:
        return self.events[-1]["version"] if self.events else None


def read(*, topic: Topic, user: User, after: int) -> Page:
    """The events of a game or tournament topic after `after` for `user`, with the REST reads' refusals
    (`game.not_found`, `auth.forbidden`, `tournament.not_found`) raised as they raise them."""
    if topic.kind == GAME:
        assert topic.id is not None
        # Private parts are keyed by player: one only ever sees their own (the long-poll's very reads).
        viewer, version, events = selectors.readable_events_after(
            user=user, game_id=topic.id, after=after, limit=PAGE
        )
        return Page(version=version, events=[game_log.event_for(e, viewer) for e in events])
    if topic.kind == TOURNAMENT:
        assert topic.id is not None
        version, found = multi_selectors.events_after(tournament_id=topic.id, after=after, limit=PAGE)
        data = TournamentEventsSerializer(
            multi_selectors.EventPage(version=version, events=found, after=after)
        ).data
        return Page(version=data["version"], events=list(data["events"]))
    raise ValueError(f"{topic.name} has no events")


def lobby_version() -> str:
    return lobby.lobby_version()


def token_alive(token: object) -> bool:
    """Whether the token the socket signed in with still stands (not expired, revoked or its user inactive)."""
    try:
        user_for_token(token)
    except SocketRefusal:
        return False
    return True
