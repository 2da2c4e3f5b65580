"""What a socket may follow and what it reads there (docs/api.md "Live socket"), in plain synchronous reads that
the consumer runs in a thread: the REST reads' own selectors, read rules and redaction, so that a socket never
shows what `GET /games/{id}/events/` or `GET /tournaments/{id}/events/` would not show the same user.

Topics: `game:<id>` (the game's events, each as `game_log.event_for` gives it to this viewer), `tournament:<id>`
(the tournament's events), `lobby` (the lobby's digest, `GET /lobby/version/`) and `me` (the user's own
messages), and `chat:<room>` (a chat room's messages, chat/socket.py: `chat:table:<id>`,
`chat:tournament:<id>`, `chat:lobby`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext_noop as N_
from knox.crypto import hash_token
from rest_framework import exceptions

from accounts import selectors as account_selectors
from accounts.authentication import RowTokenAuthentication
from api.errors import ApiCode, ServiceError
from chat import socket as chat_socket
from tournaments.live import event_for, fanout, selectors
from tournaments.live.models import Game
from tournaments.multi_table import selectors as multi_selectors
from tournaments.tournament import lobby
from tournaments.tournament.models import Tournament
from tournaments.tournament.serializers import TournamentEventsSerializer

User = AbstractBaseUser | AnonymousUser

GAME = "game"
TOURNAMENT = "tournament"
LOBBY = "lobby"
ME = "me"
CHAT = "chat"
_CHAT_ROOM = re.compile(r"chat:((table|tournament):[1-9][0-9]{0,17}|lobby)")
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
    room: str | None = None  # a chat room's name (`table:12`, `tournament:3`, `lobby`)

    @property
    def name(self) -> str:
        if self.room is not None:
            return f"{self.kind}:{self.room}"
        return f"{self.kind}:{self.id}" if self.id is not None else self.kind

    @property
    def group(self) -> str | None:
        """The channel layer's group whose wake-ups concern this topic (a game's or a tournament's; the lobby
        is read, and `me` is the user's own group)."""
        return fanout.group_name(self.name) if self.kind in (GAME, TOURNAMENT, CHAT) else None


def parse(value: object) -> Topic:
    """A topic's name as a client writes it; anything else is refused (`request.invalid`, `details.field`)."""
    if value == LOBBY:
        return Topic(LOBBY)
    if value == ME:
        return Topic(ME)
    chat_room = _CHAT_ROOM.fullmatch(value) if isinstance(value, str) else None
    if chat_room is not None:
        return Topic(CHAT, room=chat_room.group(1))
    found = _NUMBERED.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        raise SocketRefusal(
            N_("Unknown topic: game:<id>, tournament:<id>, lobby, me or chat:<room>."),
            details={"field": "topic"},
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
    """The active user whose API token this is; `auth.failed` otherwise. The live-play endpoints' check
    (`RowTokenAuthentication`: knox's answers, the token and its user in one statement), since every socket makes
    it at its sign-in and again at each recheck: knox's own ORM queries (and its deletion of expired tokens) took
    over half of a socket process's samples at 1,000 sockets, holding the interpreter the event loop needs to
    send (py-spy, bench-live, 2026-12-06)."""
    if not isinstance(token, str) or not token or len(token) > _MAX_TOKEN:
        raise SocketRefusal(N_("Invalid token."), code=ApiCode.AUTH_FAILED)
    try:
        user, _token = RowTokenAuthentication().authenticate_credentials(token.encode("utf-8"))
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
        return Page(version=version, events=[event_for(e, viewer) for e in events])
    if topic.kind == TOURNAMENT:
        assert topic.id is not None
        version, found = multi_selectors.events_after(tournament_id=topic.id, after=after, limit=PAGE)
        data = TournamentEventsSerializer(
            multi_selectors.EventPage(version=version, events=found, after=after)
        ).data
        return Page(version=data["version"], events=list(data["events"]))
    if topic.kind == CHAT:
        assert topic.room is not None
        room_version, messages = chat_socket.read(room_key=topic.room, user=user, after=after)
        return Page(version=room_version, events=messages)
    raise ValueError(f"{topic.name} has no events")


@dataclass(frozen=True)
class SharedPage:
    """A topic's events after a version as every viewer's read starts from (hub.py): a game's with all their
    private parts (each socket keeps only its own viewer's, `viewed`), a tournament's as the REST read
    serialises them; and a game's seated players' ids, read in the same statement as its events. Every event of
    the topic with a version above the read's `after` and up to `upto` is in `events`."""

    version: int
    upto: int
    events: list[Any]
    seated: frozenset[int]
    # A chat room's: every registered player reads it (else only `seated`, its members among the readers asked
    # about, and staff); `closed`: not there or its chat off (each socket reads for its own user).
    everyone: bool = False
    closed: bool = False


def shared_read(*, topic: Topic, after: int, readers: Iterable[int] = ()) -> SharedPage:
    """The events of a game, tournament or chat topic after `after` for no one in particular (hub.py hands each
    socket its viewer's share); `game.not_found`, `tournament.not_found` raised as the REST reads raise them. A
    chat room's messages carry their authors' ids (chat/socket.py `SharedMessage`), and which of `readers` (the
    process's followers' user ids) are its members."""
    if topic.kind == CHAT:
        assert topic.room is not None
        room = chat_socket.shared_read(room_key=topic.room, after=after, readers=readers, limit=PAGE)
        upto = room.version if len(room.messages) < PAGE else room.messages[-1].version
        return SharedPage(
            version=room.version,
            upto=max(upto, after),
            events=list(room.messages),
            seated=room.members,
            everyone=room.everyone,
            closed=room.closed,
        )
    assert topic.id is not None
    if topic.kind == GAME:
        seated, version, events = selectors.events_with_seated(game_id=topic.id, after=after, limit=PAGE)
        upto = version if len(events) < PAGE else events[-1].version
        return SharedPage(version=version, upto=upto, events=events, seated=seated)
    if topic.kind == TOURNAMENT:
        page = read(topic=topic, user=AnonymousUser(), after=after)
        upto = page.version if len(page.events) < PAGE else int(page.events[-1]["version"])
        return SharedPage(version=page.version, upto=upto, events=page.events, seated=frozenset())
    raise ValueError(f"{topic.name} has no events")


def event_version(event: Any) -> int:
    """A `SharedPage` event's version (a game's event row, a tournament's serialised event, a chat message)."""
    return int(event["version"]) if isinstance(event, dict) else int(event.version)


def event_author(event: Any) -> int | None:
    """A `SharedPage` chat message's author's id (None for other events)."""
    return event.author_id if isinstance(event, chat_socket.SharedMessage) else None


def viewed(topic: Topic, event: Any, viewer: str | None) -> dict[str, Any]:
    """A `SharedPage` event as `viewer` reads it: a game's public part and `viewer`'s own private part only
    (`game_log.event_for`, the REST read's redaction); a chat message's event; a tournament's as it is."""
    if topic.kind == GAME:
        return event_for(event, viewer)
    return event.event if isinstance(event, chat_socket.SharedMessage) else event


def lobby_version() -> str:
    return lobby.lobby_version()


def token_digest(token: str) -> str:
    """The digest a signed-in socket keeps of its token (the tokens table's key), for `standing_digests`."""
    return str(hash_token(token))


def standing_digests(digests: Iterable[str]) -> set[str]:
    """Which of the tokens (by digest) that a process's sockets signed in with still stand (not expired, revoked,
    or their user inactive): the socket tier's periodic check (sweep.py), a few statements for all of them."""
    return account_selectors.standing_token_digests(digests=digests)


def versions(followed: Iterable[Topic]) -> dict[str, int]:
    """Each game's, tournament's and chat room's version now, by topic name (a game or tournament that is not
    there is left out), for no reader in particular: the socket tier's periodic check of every topic a process's
    sockets follow (sweep.py), one statement per kind (and per chat room) instead of a read per socket."""
    games: list[int] = []
    tournaments: list[int] = []
    rooms: list[str] = []
    for topic in followed:
        if topic.kind == GAME and topic.id is not None:
            games.append(topic.id)
        elif topic.kind == TOURNAMENT and topic.id is not None:
            tournaments.append(topic.id)
        elif topic.kind == CHAT and topic.room is not None:
            rooms.append(topic.room)
    found: dict[str, int] = {}
    if games:
        for pk, version in Game.objects.filter(pk__in=sorted(set(games))).values_list("pk", "version"):
            found[f"{GAME}:{pk}"] = int(version)
    if tournaments:
        in_tournaments = Tournament.objects.filter(pk__in=sorted(set(tournaments)))
        for pk, version in in_tournaments.values_list("pk", "version"):
            found[f"{TOURNAMENT}:{pk}"] = int(version)
    if rooms:
        for room, version in chat_socket.room_versions(room_keys=rooms).items():
            found[f"{CHAT}:{room}"] = version
    return found
