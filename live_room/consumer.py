"""The live room's socket, `/ws/v1/` (docs/api.md "Live socket"): one per client, signed in by its first message
with the API token, carrying the client's subscriptions to games, tournaments, the lobby and its own `me`.

A subscription joins the topic's channel-layer group *before* its first read (as a long-poll registers its watch
before reading), so no wake-up falls between. A wake-up (`fanout.version_on_commit`: a topic and a version) makes
the socket send the events after the last version it sent, from the database: the process reads the topic's new
events once for all its sockets (hub.py) and each seated player's socket takes its own player's view of them;
anyone else reads for their own user (topics.read). Either way the REST reads' selectors and redaction, so a
player's private events reach only that player, and every event is sent once, in order, whatever wake-ups were
lost or repeated. The process's sweep (sweep.py) checks every `RAMINO_SOCKET_RECHECK_SECONDS`, for all its
sockets at once, that their tokens still stand and which of their topics moved on without a wake-up reaching
them (a lost one; the embedded default's in-memory layer, which other processes' writes never reach): only
those sockets catch up.

A chat room's new messages come from the process's shared read too (hub.py), for every reader at once; the
socket leaves out the authors its user muted or blocked (`hidden`: read when it first follows a room, after
joining its user's group, and again on `chat.mutes` there or at the sweep's recheck).

Reads and sends of one socket are serialised (`_lock`): wake-ups, rechecks and subscribes never interleave."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import orjson
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_noop as N_

from api.errors import ApiCode, ServiceError
from chat import socket as chat_socket
from live_room import flood, hub, layer, reads, sweep, topics
from live_room.chat_reader import ChatReader, handshake_language
from live_room.presence.socket import SocketPresence
from live_room.sign_in import CLOSE_UNAUTHENTICATED, SignInClock
from live_room.topics import SocketRefusal, Topic
from operations import metrics
from tournaments.live import fanout
from tournaments.live import selectors as live_selectors

logger = logging.getLogger(__name__)
_T = TypeVar("_T")

# A client's message is a few dozen characters; anything this long is refused unread.
MAX_MESSAGE_CHARS = 4096


def _db(function: Callable[..., _T]) -> Callable[..., Awaitable[_T]]:
    """A synchronous read, run in one of the socket tier's reading threads (reads.py)."""
    return functools.partial(reads.read, function)


class LiveSocket(ChatReader, SignInClock, AsyncJsonWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    async def connect(self) -> None:
        self.user: Any = None
        self.token_digest: str | None = None
        self.language = handshake_language(self.scope)
        # A topic's name → the topic and the last version sent on it (0 for the lobby and `me`).
        self.following: dict[str, tuple[Topic, int]] = {}
        # A topic's name → the version this socket has caught up to (sent every event of it it may see; the
        # last one sent may be older: events it may not see, e.g. another player's private ones).
        self.known: dict[str, int] = {}
        self.lobby_seen: str | None = None
        self.hidden: frozenset[int] | None = None  # chat_reader.py
        self.hidden_asked = self.hidden_kept = 0
        self.staff = False
        # A channel-layer group → when this socket last joined it (monotonic); absent: to be joined at the next
        # recheck (its join failed: layer.py).
        self.joined: dict[str, float] = {}
        self.opened_at = time.monotonic()
        self._lock = asyncio.Lock()
        self._signed_in = asyncio.Event()
        self.shut = False
        self.guard = flood.SocketGuard(member=self.channel_name, scope=self.scope)
        self.presence = SocketPresence(holder=self.channel_name, send=self._send)
        self._ticker: asyncio.Task[None] | None = None
        self.counted = False
        try:
            await self.accept()
        except OSError:  # the client left before the accept (uvicorn's ClientDisconnected): nothing opened
            self.shut = True
            return
        metrics.socket_opened()
        self.counted = True
        refusal = await self.guard.opened()
        if refusal is not None:
            with contextlib.suppress(OSError):  # told, unless the client left already
                await self._over_limit(refusal)
            return
        # Once the claim is made: a deadline passing while it waited for Redis refused a client gone meanwhile.
        self._ticker = asyncio.ensure_future(self._tick())

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "following"):
            return  # never connected
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        sweep.current().discard(self)
        for name, (topic, _last) in list(self.following.items()):
            self.following.pop(name, None)
            await self._leave(topic)
        await self.presence.closed()
        await self.guard.closed()
        if self.counted:
            metrics.socket_closed()

    # ------------------------------------------------------------------------------------------ client → server

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return orjson.dumps(content).decode()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if self.shut:
            return
        over = self.guard.message()
        if over is not None:
            await self._over_limit(over)
            return
        try:
            if text_data is None or len(text_data) > MAX_MESSAGE_CHARS:
                raise SocketRefusal(
                    N_("A message is a JSON object of at most %(limit)s characters."),
                    code=ApiCode.REQUEST_MALFORMED,
                    params={"limit": MAX_MESSAGE_CHARS},
                )
            try:
                message = orjson.loads(text_data)
            except orjson.JSONDecodeError:
                raise SocketRefusal(N_("The message is not JSON."), code=ApiCode.REQUEST_MALFORMED) from None
            if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                raise SocketRefusal(N_("A message is an object with a type."), details={"field": "type"})
            await self._handle(message)
        except SocketRefusal as refusal:
            await self._refuse(refusal)

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "auth":
            await self._auth(message)
            return
        if self.user is None:
            await self._refuse(
                SocketRefusal(
                    N_("Sign in first: send auth with the API token."), code=ApiCode.NOT_AUTHENTICATED
                )
            )
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if kind == "subscribe":
            await self._subscribe(message)
        elif kind == "unsubscribe":
            topic = topics.parse(message.get("topic"))
            self.known.pop(topic.name, None)
            if self.following.pop(topic.name, None) is not None:
                await self._leave(topic)
            await self._send({"type": "unsubscribed", "topic": topic.name})
        elif kind == "ping":
            await self._send({"type": "pong"})
        elif kind == "chat":
            await self._chat(message)
        else:
            raise SocketRefusal(
                N_("Unknown message type: auth, subscribe, unsubscribe, ping or chat."),
                details={"field": "type"},
            )

    async def _chat(self, message: dict[str, Any]) -> None:
        """A chat message written over the socket (chat/socket.py): `chat_sent`, or the REST post's refusal."""
        room = message.get("room")
        topic = f"chat:{room}" if isinstance(room, str) and len(room) <= 40 else None
        try:
            sent = await _db(chat_socket.post)(
                user=self.user, room_key=room, text=message.get("text"), phrase=message.get("phrase")
            )
        except ServiceError as refusal:
            await self._refuse(refusal, topic=topic)
            return
        await self._send({"type": "chat_sent", "topic": topic, "message": sent})

    async def _auth(self, message: dict[str, Any]) -> None:
        if self.user is not None:
            raise SocketRefusal(N_("This socket is signed in already."), details={"field": "type"})
        language = message.get("language")
        if language in dict(settings.LANGUAGES):
            self.language = str(language)
        try:
            self.user = await _db(topics.user_for_token)(message.get("token"))
        except SocketRefusal as refusal:
            await self._refuse(refusal)
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.token_digest = topics.token_digest(message["token"])
        over = await self.guard.signed_in(self.user.pk)
        if over is not None:
            await self._over_limit(over)
            return
        self.staff = live_selectors.is_staff(self.user)
        self._signed_in.set()
        sweep.current().add(self)
        await self._send({"type": "welcome", "username": self.user.get_username()})

    async def _subscribe(self, message: dict[str, Any]) -> None:
        topic = topics.parse(message.get("topic"))
        after = topics.version_after(message.get("after"))
        limit = int(settings.RAMINO_SOCKET_MAX_TOPICS)
        if topic.name not in self.following and len(self.following) >= limit:
            raise SocketRefusal(
                N_("A socket follows at most %(limit)s topics."),
                params={"limit": limit},
                details={"field": "topic", "limit": limit},
            )
        if topic.kind == topics.LOBBY:
            self.following[topic.name] = (topic, 0)
            self.lobby_seen = None
            await self._send({"type": "subscribed", "topic": topic.name})
            await self._lobby_check()
            return
        if topic.kind == topics.ME:
            await self._join(fanout.user_group(self.user.pk))
            self.following[topic.name] = (topic, 0)
            await self._send({"type": "subscribed", "topic": topic.name})
            return
        if topic.kind == topics.CHAT and self.hidden is None:
            await self._read_hidden()
        # Joined before the first read, so that no wake-up falls between the read and the join.
        group = topic.group
        assert group is not None
        if topic.name not in self.following:
            hub.current().follow(topic.name, self._reader_id(topic))
        await self._join(group)
        async with self._lock:
            try:
                page = await self._own_read(topic, after)
            except ServiceError as refusal:
                self.following.pop(topic.name, None)
                await self._leave(topic)
                await self._refuse(refusal, topic=topic.name)
                return
            self.following[topic.name] = (topic, after)
            if topic.kind == topics.GAME:
                assert topic.id is not None
                # Held before `subscribed`: a page back after a drop asks then what was played while it was away.
                await self.presence.hold(game_id=topic.id, player_id=self.user.pk)
            await self._send({"type": "subscribed", "topic": topic.name, "version": page.version})
            await self._deliver(topic, page)
        if topic.kind == topics.GAME and topic.name in self.following:
            assert topic.id is not None
            await self.presence.announce(topic.id)

    async def _leave(self, topic: Topic) -> None:
        """Leave a topic no longer in `following`."""
        if topic.kind == topics.GAME and topic.id is not None:
            await self.presence.left(game_id=topic.id)
        if topic.kind != topics.ME and topic.group is not None:
            hub.current().unfollow(topic.name, self._reader_id(topic))
            await self._part(topic.group)
        if topic.kind in (topics.ME, topics.CHAT) and not self._wants_user_group():
            self.hidden = None  # read again, the group joined again, when it follows a room again
            await self._part(fanout.user_group(self.user.pk))

    async def _join(self, group: str) -> None:
        """Join `group` (layer.py: bounded, retried); a join that failed is tried again at the next recheck,
        whose reads meanwhile bring the topic's events, and the socket stays open."""
        channel = self.channel_name
        if await layer.call("group_add", lambda: self.channel_layer.group_add(group, channel)):
            self.joined[group] = time.monotonic()
        else:
            self.joined.pop(group, None)

    async def _part(self, group: str) -> None:
        """Leave `group`; a leave that failed is left to the layer's group expiry (a wake-up to a closed
        channel is dropped)."""
        self.joined.pop(group, None)
        channel = self.channel_name
        await layer.call("group_discard", lambda: self.channel_layer.group_discard(group, channel))

    async def _rejoin_due(self, group: str, now: float) -> None:
        """Join `group` again when its join failed or is `RAMINO_SOCKET_REJOIN_SECONDS` old: the layer forgets
        a membership after its group expiry (a day), however long the socket stays open, and a join at every
        recheck (30 s) was a storm of Redis calls at 5,000 sockets."""
        joined = self.joined.get(group)
        if joined is None or now - joined >= float(settings.RAMINO_SOCKET_REJOIN_SECONDS):
            await self._join(group)

    async def _own_read(self, topic: Topic, after: int) -> topics.Page:
        """The events after `after` as the REST read gives them to this socket's user (its refusals raised)."""
        metrics.socket_read(kind="own")
        return await _db(topics.read)(topic=topic, user=self.user, after=after)

    # ------------------------------------------------------------------------------------------ server → client

    async def _send(self, message: dict[str, Any]) -> None:
        await self.send_json(message)
        metrics.socket_message_sent(kind=message["type"])

    async def _over_limit(self, refusal: ServiceError) -> None:
        """A flood limit (flood.py): told why, then closed; whatever the client sends after is not read."""
        self.shut = True
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        await self._refuse(refusal)
        await self.close(code=flood.CLOSE_TOO_MANY)

    async def _refuse(self, refusal: ServiceError, *, topic: str | None = None) -> None:
        """An error message: the REST envelope's code, message (in the socket's language) and details."""
        with translation.override(self.language):
            text = refusal.localized_message()
        body: dict[str, Any] = {
            "type": "error",
            "code": str(refusal.code),
            "message": text,
            "details": refusal.details,
        }
        if topic is not None:
            body["topic"] = topic
        await self._send(body)

    async def _deliver(self, topic: Topic, page: topics.Page) -> None:
        """Send `page`'s events and any further pages of a long backlog (the caller holds the lock)."""
        while page.events:
            last = page.last
            assert last is not None
            await self._send(
                {
                    "type": "events",
                    "topic": topic.name,
                    "version": page.version,
                    "events": page.events,
                    "next_after": last,
                }
            )
            self.following[topic.name] = (topic, last)
            if len(page.events) < topics.PAGE:
                return
            page = await self._own_read(topic, last)

    async def _catch_up(self, name: str, *, wanted: int | None = None) -> bool:
        """Send the events of topic `name` after the last version sent; False when the topic is no longer
        followed or no longer readable (then the client has an error message for it). With `wanted` (a
        wake-up's version), from the process's shared read when this socket may have it (hub.py); without (a
        recheck), or when it may not, by a read for its own user, which checks the user's access as the REST
        read does."""
        async with self._lock:
            entry = self.following.get(name)
            if entry is None:
                return False
            topic, last = entry
            if wanted is not None and wanted <= last:
                return True  # sent already
            if wanted is not None and await self._shared(topic, last, wanted):
                self._caught_up(name, wanted)
                return True
            last = self.following.get(name, (topic, last))[1]
            try:
                page = await self._own_read(topic, last)
            except ServiceError as refusal:
                # e.g. no longer seated at a private table: the REST read refuses it now too.
                self.following.pop(name, None)
                self.known.pop(name, None)
                await self._leave(topic)
                await self._refuse(refusal, topic=name)
                return False
            await self._deliver(topic, page)
            if wanted is not None:
                self._caught_up(name, wanted)
            return True

    def _caught_up(self, name: str, version: int) -> None:
        """Every event of `name` up to `version` that this socket may see is sent (`version` was committed
        before the read that sent them: a wake-up's, or the sweep's read of the versions)."""
        if name in self.following and version > self.known.get(name, 0):
            self.known[name] = version

    async def _shared(self, topic: Topic, last: int, wanted: int) -> bool:
        """Send the events after `last` from the process's shared read (the caller holds the lock); False when
        this socket must read for its own user instead (from the last version it sent, which may have moved)."""
        shared = hub.current()
        while True:
            message = await shared.message(
                topic,
                after=last,
                wanted=wanted,
                user_id=self.user.pk,
                viewer=self.user.get_username(),
                staff=self.staff,
                hidden=self.hidden or frozenset(),
            )
            if message is None:
                return False
            if message is hub.NOTHING:
                return True
            if message.text:  # empty: every message up to `last` is by an author this user muted
                await self.send(text_data=message.text)
                metrics.socket_message_sent(kind="events")
            self.following[topic.name] = (topic, message.last)
            if not message.full:
                return True
            last = message.last

    async def _lobby_check(self) -> None:
        version = await _db(topics.lobby_version)()
        if version != self.lobby_seen and topics.LOBBY in self.following:
            self.lobby_seen = version
            await self._send({"type": "lobby", "version": version})

    # --------------------------------------------------------------------------------- the channel layer's calls

    async def topic_version(self, event: dict[str, Any]) -> None:
        """A wake-up (fanout.VERSION_MESSAGE): `topic` has reached `version`."""
        entry = self.following.get(event.get("topic", ""))
        if entry is None or int(event.get("version", 0)) <= entry[1]:
            return  # sent already (a recheck found it first), or no longer followed
        if await self._catch_up(entry[0].name, wanted=int(event["version"])):
            metrics.socket_fanout(seconds=time.time() - float(event.get("sent", time.time())))

    async def presence_changed(self, event: dict[str, Any]) -> None:
        """Someone connected to or left a game this socket follows (fanout.PRESENCE_MESSAGE)."""
        topic = topics.parse(event.get("topic"))
        if topic.kind == topics.GAME and topic.id is not None:
            # A read that started after the change's publication (shared by the process's sockets of the game).
            sent = event.get("sent")
            now = time.time()
            await self.presence.tell(topic.id, not_before=min(float(sent), now) if sent is not None else now)

    async def user_message(self, event: dict[str, Any]) -> None:
        """A message for this user (fanout.USER_MESSAGE), to a socket that follows `me`."""
        if topics.ME in self.following:
            await self._send({"type": "me", "kind": event["kind"], "data": event["data"]})

    # -------------------------------------------------------------------------------- the process's sweep

    async def token_revoked(self) -> None:
        """The sweep found this socket's token no longer standing (revoked, expired, its user inactive)."""
        if self.shut:
            return
        self.shut = True
        await self._refuse(SocketRefusal(N_("Invalid token."), code=ApiCode.AUTH_FAILED))
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def recheck(self, versions: dict[str, int], now: float) -> None:
        """The sweep's recheck: the groups due joined again, and each followed topic whose version (`versions`,
        read for the whole process) is beyond what this socket has caught up to read, as a wake-up would make
        it (a topic missing from `versions`, no longer there, by the socket's own read, which refuses it)."""
        for name, (topic, last) in list(self.following.items()):
            if topic.kind in (topics.ME, topics.CHAT):
                await self._rejoin_due(fanout.user_group(self.user.pk), now)
            if topic.kind == topics.ME:
                continue
            if topic.group is None:
                continue
            await self._rejoin_due(topic.group, now)
            version = versions.get(name)
            if version is None:
                await self._catch_up(name)
            elif version > max(last, self.known.get(name, 0)):
                await self._catch_up(name, wanted=version)

    async def lobby_is(self, version: str) -> None:
        """The sweep read the lobby's digest: sent when it changed since this socket last sent it."""
        if version != self.lobby_seen and topics.LOBBY in self.following and not self.shut:
            self.lobby_seen = version
            await self._send({"type": "lobby", "version": version})
