"""The live room's socket, `/ws/v1/` (docs/api.md "Live socket"): one per client, signed in by its first message
with the API token, carrying the client's subscriptions to games, tournaments, the lobby and its own `me`.

A subscription joins the topic's channel-layer group *before* its first read (as a long-poll registers its watch
before reading), so no wake-up falls between. A wake-up (`fanout.version_on_commit`: a topic and a version) makes
the socket read the events after the last version it sent, for its own user, from the database: the REST reads'
selectors and redaction (topics.py), so a player's private events reach only that player, and every event is
sent once, in order, whatever wake-ups were lost or repeated. Each socket also reads its topics again every
`RAMINO_SOCKET_RECHECK_SECONDS` (a lost wake-up; the embedded default's in-memory layer, which other processes'
writes never reach) and checks there that its token still stands.

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
from django.utils.translation import trans_real

from api.errors import ApiCode, ServiceError
from live_room import reads, topics
from live_room.topics import SocketRefusal, Topic
from operations import metrics
from tournaments.live import fanout

logger = logging.getLogger(__name__)
_T = TypeVar("_T")

# The close code of a socket that did not sign in, or whose token no longer stands (4000-4999: the
# application's; 4401 reads as HTTP's 401).
CLOSE_UNAUTHENTICATED = 4401
# A client's message is a few dozen characters; anything this long is refused unread.
MAX_MESSAGE_CHARS = 4096


def _db(function: Callable[..., _T]) -> Callable[..., Awaitable[_T]]:
    """A synchronous read, run in one of the socket tier's reading threads (reads.py)."""
    return functools.partial(reads.read, function)


def _handshake_language(scope: dict[str, Any]) -> str:
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


class LiveSocket(AsyncJsonWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    async def connect(self) -> None:
        self.user: Any = None
        self.token: str | None = None
        self.language = _handshake_language(self.scope)
        # A topic's name → the topic and the last version sent on it (0 for the lobby and `me`).
        self.following: dict[str, tuple[Topic, int]] = {}
        self.lobby_seen: str | None = None
        self.opened_at = time.monotonic()
        self._lock = asyncio.Lock()
        self._signed_in = asyncio.Event()
        await self.accept()
        metrics.socket_opened()
        self._ticker: asyncio.Task[None] | None = asyncio.ensure_future(self._tick())

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "following"):
            return  # never connected
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        for topic, _last in list(self.following.values()):
            await self._leave(topic)
        self.following.clear()
        metrics.socket_closed()

    # ------------------------------------------------------------------------------------------ client → server

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        return orjson.loads(text_data)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return orjson.dumps(content).decode()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        try:
            if text_data is None or len(text_data) > MAX_MESSAGE_CHARS:
                raise SocketRefusal(
                    N_("A message is a JSON object of at most %(limit)s characters."),
                    code=ApiCode.REQUEST_MALFORMED,
                    params={"limit": MAX_MESSAGE_CHARS},
                )
            try:
                message = await self.decode_json(text_data)
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
            if self.following.pop(topic.name, None) is not None:
                await self._leave(topic)
            await self._send({"type": "unsubscribed", "topic": topic.name})
        elif kind == "ping":
            await self._send({"type": "pong"})
        else:
            raise SocketRefusal(
                N_("Unknown message type: auth, subscribe, unsubscribe or ping."), details={"field": "type"}
            )

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
        self.token = message["token"]
        self._signed_in.set()
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
            await self.channel_layer.group_add(fanout.user_group(self.user.pk), self.channel_name)
            self.following[topic.name] = (topic, 0)
            await self._send({"type": "subscribed", "topic": topic.name})
            return
        # Joined before the first read, so that no wake-up falls between the read and the join.
        group = topic.group
        assert group is not None
        await self.channel_layer.group_add(group, self.channel_name)
        async with self._lock:
            try:
                page = await _db(topics.read)(topic=topic, user=self.user, after=after)
            except ServiceError as refusal:
                self.following.pop(topic.name, None)
                await self._leave(topic)
                await self._refuse(refusal, topic=topic.name)
                return
            self.following[topic.name] = (topic, after)
            await self._send({"type": "subscribed", "topic": topic.name, "version": page.version})
            await self._deliver(topic, page)

    async def _leave(self, topic: Topic) -> None:
        if topic.kind == topics.ME:
            await self.channel_layer.group_discard(fanout.user_group(self.user.pk), self.channel_name)
        elif topic.group is not None:
            await self.channel_layer.group_discard(topic.group, self.channel_name)

    # ------------------------------------------------------------------------------------------ server → client

    async def _send(self, message: dict[str, Any]) -> None:
        await self.send_json(message)
        metrics.socket_message_sent(kind=message["type"])

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
            page = await _db(topics.read)(topic=topic, user=self.user, after=last)

    async def _catch_up(self, name: str) -> bool:
        """Send the events of topic `name` after the last version sent; False when the topic is no longer
        followed or no longer readable (then the client has an error message for it)."""
        async with self._lock:
            entry = self.following.get(name)
            if entry is None:
                return False
            topic, last = entry
            try:
                page = await _db(topics.read)(topic=topic, user=self.user, after=last)
            except ServiceError as refusal:
                # e.g. no longer seated at a private table: the REST read refuses it now too.
                self.following.pop(name, None)
                await self._leave(topic)
                await self._refuse(refusal, topic=name)
                return False
            await self._deliver(topic, page)
            return True

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
        if await self._catch_up(entry[0].name):
            metrics.socket_fanout(seconds=time.time() - float(event.get("sent", time.time())))

    async def user_message(self, event: dict[str, Any]) -> None:
        """A message for this user (fanout.USER_MESSAGE), to a socket that follows `me`."""
        if topics.ME in self.following:
            await self._send({"type": "me", "kind": event["kind"], "data": event["data"]})

    # -------------------------------------------------------------------------------------------- the clock

    async def _tick(self) -> None:
        """Closes a socket that did not sign in in time; rechecks the token and the topics; reads the lobby."""
        recheck = float(settings.RAMINO_SOCKET_RECHECK_SECONDS)
        lobby_every = float(settings.RAMINO_SOCKET_LOBBY_SECONDS)
        auth_deadline = self.opened_at + float(settings.RAMINO_SOCKET_AUTH_SECONDS)
        next_recheck = time.monotonic() + recheck
        next_lobby = time.monotonic() + lobby_every
        try:
            while True:
                if self.user is None:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(
                            self._signed_in.wait(), max(0.0, auth_deadline - time.monotonic())
                        )
                    if self.user is None:
                        await self._refuse(
                            SocketRefusal(
                                N_("Sign in first: send auth with the API token."),
                                code=ApiCode.NOT_AUTHENTICATED,
                            )
                        )
                        await self.close(code=CLOSE_UNAUTHENTICATED)
                        return
                    next_recheck = time.monotonic() + recheck
                    continue
                await asyncio.sleep(max(0.0, min(next_recheck, next_lobby) - time.monotonic()))
                now = time.monotonic()
                if now >= next_recheck:
                    next_recheck = now + recheck
                    if not await _db(topics.token_alive)(self.token):
                        await self._refuse(SocketRefusal(N_("Invalid token."), code=ApiCode.AUTH_FAILED))
                        await self.close(code=CLOSE_UNAUTHENTICATED)
                        return
                    for name, (topic, _last) in list(self.following.items()):
                        if topic.group is not None:
                            # Joined again: the channel layer forgets a membership after its group_expiry
                            # (a day), however long the socket stays open.
                            await self.channel_layer.group_add(topic.group, self.channel_name)
                            await self._catch_up(name)
                        elif topic.kind == topics.ME:
                            await self.channel_layer.group_add(
                                fanout.user_group(self.user.pk), self.channel_name
                            )
                if now >= next_lobby:
                    next_lobby = now + lobby_every
                    if topics.LOBBY in self.following:
                        await self._lobby_check()
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("live socket: the clock stopped; closing the socket")
            with contextlib.suppress(Exception):
                await self.close(code=1011)
