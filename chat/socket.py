"""What the live room's socket (live_room/) asks of chat, in plain synchronous calls it runs in a thread: a
room topic's page (`chat:<room>`: its messages as this reader sees them) and a message written over the
socket (docs/api.md "Live socket"). A quick phrase's `text` is its English words here; a client shows the
phrase by its code in its own language (`GET /chat/phrases/`).

A new message is read once per socket process for every reader of the room (`shared_read`, live_room/hub.py):
the messages with their authors' ids, whether the room is off, and which of the process's readers may read it;
each socket leaves out the authors its user muted or blocked from a set it keeps in memory (`hidden_authors`,
read when it first follows a room and again when its user mutes, blocks or undoes one: `MUTES_MESSAGE` to the
user's group, and at the process's periodic recheck, `hidden_authors_of`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Max

from chat import rooms, selectors, services
from chat.models import Message, Mute, Room, RoomKind
from tournaments.live.models import SEATED_STATUSES, Seat
from tournaments.tournament.models import TournamentEntry


def read(*, room_key: str, user: Any, after: int) -> tuple[int, list[dict[str, Any]]]:
    """The room's version (its last message's id) and the messages after `after` (the newest 50 when 0) that
    `user` sees; the REST read's refusals (`chat.room_not_found`, `chat.not_member`, `chat.disabled`)."""
    room = rooms.room_for(rooms.parse_key(room_key), user)
    rooms.refuse_read(room, user)
    version = selectors.last_id(room)
    return version, selectors.socket_events(room=room, viewer_id=user.pk, after=after, language="en")


def post(*, user: Any, room_key: object, text: object = None, phrase: object = None) -> dict[str, Any]:
    """A message written over the socket: the REST post's checks and refusals, its answer's body."""
    message = services.post(user=user, room_key=str(room_key), text=text, phrase=phrase)
    return selectors.message_body(message, language="en")


def room_versions(*, room_keys: Iterable[str]) -> dict[str, int]:
    """Each room's version now (its last message's id; 0 for a room with none or not made yet), for no reader in
    particular: the socket tier's periodic check of the rooms its sockets follow (one statement per room)."""
    versions: dict[str, int] = {}
    for key in sorted(set(room_keys)):
        parsed = rooms.parse_key(key)
        if parsed.kind == RoomKind.LOBBY:
            found = Message.objects.filter(room__kind=RoomKind.LOBBY)
        elif parsed.kind == RoomKind.TABLE and parsed.id is not None:
            found = Message.objects.filter(room__table_id=parsed.id)
        elif parsed.id is not None:
            found = Message.objects.filter(room__tournament_id=parsed.id)
        else:
            continue
        top = found.aggregate(top=Max("id"))["top"]
        versions[key] = int(top or 0)
    return versions


def hidden_authors(*, user_id: int) -> frozenset[int]:
    """The authors whose messages `user_id` does not see (muted or blocked: `selectors.muted_ids`)."""
    return frozenset(selectors.muted_ids(owner_id=user_id))


def hidden_authors_of(*, user_ids: Iterable[int]) -> dict[int, frozenset[int]]:
    """`hidden_authors` of many users in one statement (a user with none is left out)."""
    found: dict[int, set[int]] = {}
    wanted = sorted(set(user_ids))
    if wanted:
        for owner, target in Mute.objects.filter(owner_id__in=wanted).values_list("owner_id", "target_id"):
            found.setdefault(owner, set()).add(target)
    return {owner: frozenset(targets) for owner, targets in found.items()}


@dataclass(frozen=True)
class SharedMessage:
    """A message of a room's shared read: its id, its author's id (each socket leaves out its hidden authors),
    and its event as every reader gets it."""

    version: int
    author_id: int
    event: dict[str, Any]


@dataclass(frozen=True)
class SharedRoom:
    """A room's messages after a version for every reader at once. `closed`: the room is not there or its chat
    is off (each socket then reads for its own user, which refuses it as the REST read does); `everyone`: every
    registered player reads it (the lobby, a public table's room), else only `members` (of the readers asked
    about) and staff."""

    version: int
    messages: list[SharedMessage]
    closed: bool = False
    everyone: bool = False
    members: frozenset[int] = frozenset()


def _room(key: rooms.RoomKey) -> Room | None:
    lookup: dict[str, Any] = {"kind": key.kind}
    if key.kind == RoomKind.TABLE:
        lookup["table_id"] = key.id
    elif key.kind == RoomKind.TOURNAMENT:
        lookup["tournament_id"] = key.id
    return Room.objects.filter(**lookup).select_related("table").first()


def shared_read(*, room_key: str, after: int, readers: Iterable[int], limit: int) -> SharedRoom:
    """The room's version and its first `limit` messages after `after` for no reader in particular, with which
    of `readers` (user ids) may read it now: `rooms.refuse_read`'s and `rooms.room_for`'s rules, in a few
    statements however many readers (a guest never follows a room: its own first read refused it)."""
    key = rooms.parse_key(room_key)
    room = _room(key)
    if room is None:
        return SharedRoom(version=0, messages=[], closed=True)
    if not room.enabled or (room.table is not None and room.table.practice):
        return SharedRoom(version=selectors.last_id(room), messages=[], closed=True)
    everyone = False
    members: frozenset[int] = frozenset()
    wanted = sorted(set(readers))
    if room.table is not None and room.table.private:
        # `live_selectors.table_for`: a private table is read by its creator and its seated players.
        seated = Seat.objects.filter(
            table=room.table, player_id__in=wanted, status__in=SEATED_STATUSES
        ).values_list("player_id", flat=True)
        members = frozenset(seated) | ({room.table.created_by_id} & set(wanted))
    elif room.tournament_id is not None:
        entered = TournamentEntry.objects.filter(
            tournament_id=room.tournament_id, player_id__in=wanted, status__in=rooms.MEMBER_ENTRIES
        ).values_list("player_id", flat=True)
        members = frozenset(entered)
    else:
        everyone = True
    version = selectors.last_id(room)
    found = Message.objects.filter(room=room, pk__gt=after).select_related("author").order_by("id")[:limit]
    messages = []
    for message in found:
        message.room = room
        body = selectors.message_body(message, language="en")
        event = {"version": message.pk, "kind": "chat.message", **body}
        messages.append(SharedMessage(version=message.pk, author_id=message.author_id, event=event))
    return SharedRoom(version=version, messages=messages, closed=False, everyone=everyone, members=members)
