"""A room's name, the room behind it, and who reads and who writes there (docs/rules.md "Chat").

Rooms: `table:<id>` (its seated players write; anyone who may read the table reads), `tournament:<id>` (its
entrants), `lobby` (every registered player reads; players registered over a day ago with a finished round
write). Staff read every room. Members-only mode narrows the writers to players seated at a table or
registered in a tournament not over (at a table: its seated players, as always; in a tournament: the entrants
still in it; in the lobby: players seated somewhere or in a tournament not over)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from accounts.selectors import is_guest
from api.errors import ServiceError
from chat.errors import ChatCode, ChatConflict, NotAllowed, RoomNotFound
from chat.models import Room, RoomKind
from tournaments.live import selectors as live_selectors
from tournaments.live.models import SEATED_STATUSES, RoundPlayer, Seat, Table
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry

_KEY = re.compile(r"(table|tournament):([1-9][0-9]{0,17})")
# Entries that make a player a tournament room's member, and those still in it (members-only mode).
MEMBER_ENTRIES = (EntryStatus.REGISTERED, EntryStatus.PLAYING, EntryStatus.BUSTED, EntryStatus.FINISHED)
IN_PLAY_ENTRIES = (EntryStatus.REGISTERED, EntryStatus.PLAYING)
# A lobby writer's account is at least this old (docs/rules.md "Chat": a day).
LOBBY_MIN_AGE_SECONDS = 86400


@dataclass(frozen=True)
class RoomKey:
    kind: str
    id: int | None = None

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.id}" if self.id is not None else self.kind


def parse_key(value: object) -> RoomKey:
    """`table:<id>`, `tournament:<id>` or `lobby`; anything else: 404 `chat.room_not_found`."""
    if value == RoomKind.LOBBY:
        return RoomKey(RoomKind.LOBBY)
    found = _KEY.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        raise RoomNotFound(details={"room": str(value)[:40]})
    return RoomKey(found.group(1), int(found.group(2)))


def is_staff(user: Any) -> bool:
    return live_selectors.is_staff(user)


def _target(key: RoomKey, user: Any) -> Table | Tournament | None:
    """The table or tournament of the room, as its reads show it to `user` (404 when they would not)."""
    if key.kind == RoomKind.TABLE:
        assert key.id is not None
        try:
            return live_selectors.table_for(user=user, table_id=key.id)
        except ServiceError:
            raise RoomNotFound(details={"room": key.name}) from None
    if key.kind == RoomKind.TOURNAMENT:
        assert key.id is not None
        found = Tournament.objects.filter(pk=key.id).first()
        if found is None:
            raise RoomNotFound(details={"room": key.name})
        return found
    return None


def room_for(key: RoomKey, user: Any) -> Room:
    """The room (made on first use) of a table or tournament `user` may see, or the lobby."""
    target = _target(key, user)
    lookup: dict[str, Any] = {"kind": key.kind}
    if isinstance(target, Table):
        lookup["table"] = target
    elif isinstance(target, Tournament):
        lookup["tournament"] = target
    room = Room.objects.filter(**lookup).first()
    if room is not None:
        return room
    try:
        with transaction.atomic():
            return Room.objects.create(**lookup)
    except IntegrityError:  # made by a concurrent first use
        return Room.objects.get(**lookup)


def _seated(*, table_id: int, user_id: int) -> bool:
    return Seat.objects.filter(table_id=table_id, player_id=user_id, status__in=SEATED_STATUSES).exists()


def _entered(*, tournament_id: int, user_id: int, statuses: tuple[str, ...]) -> bool:
    return TournamentEntry.objects.filter(
        tournament_id=tournament_id, player_id=user_id, status__in=statuses
    ).exists()


def disabled(room: Room) -> bool:
    """Chat is off at practice tables (against bots) and wherever an admin turned it off."""
    if not room.enabled:
        return True
    return room.table_id is not None and Table.objects.filter(pk=room.table_id, practice=True).exists()


def refuse_read(room: Room, user: Any) -> None:
    """403 `chat.not_member` unless `user` may read the room; 409 `chat.disabled` where chat is off."""
    if disabled(room):
        raise _disabled()
    if is_staff(user):
        return
    if not user.is_authenticated or is_guest(user=user):
        raise NotAllowed(N_("Only registered players read this room."), code=ChatCode.NOT_MEMBER)
    if room.tournament_id is not None and not _entered(
        tournament_id=room.tournament_id, user_id=user.pk, statuses=MEMBER_ENTRIES
    ):
        raise NotAllowed(N_("Only the tournament's entrants read its room."), code=ChatCode.NOT_MEMBER)
    # A table's room: whoever may read the table (room_for checked it); the lobby: every registered player.


def _disabled() -> ServiceError:
    return ChatConflict(N_("Chat is off here."), code=ChatCode.DISABLED)


def lobby_eligible(user: Any, now: Any = None) -> tuple[bool, str]:
    """Whether `user` writes in the lobby, and if not why: `account_too_new` or `no_finished_round`."""
    now = now or timezone.now()
    age = timedelta(seconds=LOBBY_MIN_AGE_SECONDS)
    if user.date_joined > now - age:
        return False, "account_too_new"
    if not RoundPlayer.objects.filter(user_id=user.pk, round__ended_at__isnull=False).exists():
        return False, "no_finished_round"
    return True, ""


def _active_somewhere(user_id: int) -> bool:
    return (
        Seat.objects.filter(player_id=user_id, status__in=SEATED_STATUSES).exists()
        or TournamentEntry.objects.filter(player_id=user_id, status__in=IN_PLAY_ENTRIES).exists()
    )


def refuse_write(room: Room, user: Any) -> None:
    """Who writes (the module's docstring): 403 `chat.not_member`, `chat.not_eligible` or `chat.members_only`."""
    refuse_read(room, user)
    if is_guest(user=user) or not user.is_authenticated:
        raise NotAllowed(N_("You cannot write in this room."), code=ChatCode.NOT_MEMBER)
    if room.table_id is not None:
        if not _seated(table_id=room.table_id, user_id=user.pk):
            raise NotAllowed(
                N_("Only the players seated at the table write; spectators read."), code=ChatCode.NOT_MEMBER
            )
        return
    if room.tournament_id is not None:
        if room.members_only and not _entered(
            tournament_id=room.tournament_id, user_id=user.pk, statuses=IN_PLAY_ENTRIES
        ):
            raise NotAllowed(
                N_("This room is in members-only mode: only the entrants still in the tournament write."),
                code=ChatCode.MEMBERS_ONLY,
            )
        return
    eligible, why = lobby_eligible(user)
    if not eligible:
        raise NotAllowed(
            N_("The lobby's chat is for players registered over a day ago who have finished a round."),
            code=ChatCode.NOT_ELIGIBLE,
            details={"reason": why},
        )
    if room.members_only and not _active_somewhere(user.pk):
        raise NotAllowed(
            N_("The lobby is in members-only mode: only players seated at a table or in a tournament write."),
            code=ChatCode.MEMBERS_ONLY,
        )


def can_write(room: Room, user: Any) -> bool:
    try:
        refuse_write(room, user)
    except ServiceError:
        return False
    return True
