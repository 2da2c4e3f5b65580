"""The live socket's part in chat (consumer.py): whom its user does not see in chat rooms, kept in memory so that
a room's new message, read once for the process (hub.py), is filtered per socket without a read per reader; and
the language of the handshake."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils.translation import trans_real

from chat import socket as chat_socket
from live_room import reads, topics
from live_room.topics import Topic
from tournaments.live import fanout


def handshake_language(scope: dict[str, Any]) -> str:
    """The language of the handshake's Accept-Language among the site's (the auth message may name another)."""
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            found = trans_real.get_supported_language_variant  # the site's languages
            for code, _quality in trans_real.parse_accept_lang_header(value.decode("latin-1")):
                if code == "*":
                    continue
                with contextlib.suppress(LookupError):
                    return str(found(code))
    return str(settings.LANGUAGE_CODE)


class ChatReader:
    """`hidden`: the authors whose messages the user does not see (muted or blocked; None while the socket follows
    no chat room), read when it first follows one, after joining the user's group, so that no change falls
    between; read again on the group's `chat.mutes` (fanout.MUTES_MESSAGE) and at the process's recheck
    (sweep.py). Each read takes a ticket before it starts; a read's answer is kept unless one with a later
    ticket (begun later, so as new or newer) was kept already."""

    user: Any
    shut: bool
    hidden: frozenset[int] | None
    hidden_asked: int
    hidden_kept: int
    following: dict[str, tuple[Topic, int]]
    joined: dict[str, float]

    if TYPE_CHECKING:

        async def _join(self, group: str) -> None: ...

    def hidden_ticket(self) -> int:
        self.hidden_asked += 1
        return self.hidden_asked

    def hidden_read(self, ticket: int, hidden: frozenset[int]) -> None:
        """A read of whom the user does not see, begun with `ticket`."""
        if self.hidden is not None and ticket > self.hidden_kept:
            self.hidden, self.hidden_kept = hidden, ticket

    async def _read_hidden(self) -> None:
        group = fanout.user_group(self.user.pk)
        if group not in self.joined:  # joined already when the socket follows `me`
            await self._join(group)
        self.hidden = frozenset()  # followed from now: a change told meanwhile reads again
        await self._reread_hidden()

    async def _reread_hidden(self) -> None:
        ticket = self.hidden_ticket()
        self.hidden_read(ticket, await reads.read(chat_socket.hidden_authors, user_id=self.user.pk))

    def _reader_id(self, topic: Topic) -> int | None:
        """The user's id as a chat room's reader (hub.py asks which readers are the room's members)."""
        return int(self.user.pk) if topic.kind == topics.CHAT else None

    def _wants_user_group(self) -> bool:
        """The user's group is joined while the socket follows `me` (its messages) or a chat room (its mutes)."""
        return any(topic.kind in (topics.ME, topics.CHAT) for topic, _last in self.following.values())

    async def chat_mutes(self, event: dict[str, Any]) -> None:
        """This user muted, blocked or undid one (fanout.MUTES_MESSAGE): whom they do not see read again."""
        if self.user is not None and self.hidden is not None and not self.shut:
            await self._reread_hidden()
