"""Wake-ups for the live room's sockets (live_room/, docs/api.md "Live socket"): when a transaction that wrote a
game's or a tournament's new version commits, the channel layer's group of that topic is told the topic and the
version, nothing else.

As with the long-polls' `pg_notify` (wakeups.py), the database stays the only record: a socket that hears a
wake-up reads the events after the last version it sent, for its own viewer, from the database (the same
selectors and the same redaction as `GET /games/{id}/events/`), so a wake-up carries no hidden information and a
lost one costs only delay (each socket reads again every `RAMINO_SOCKET_RECHECK_SECONDS`).

The channel layer is Redis (`CHANNEL_LAYER_URL`, channels-redis) wherever the writers (web processes, Celery
workers) and the socket processes are apart, and in memory on the embedded default, where only the socket
process's own writes wake at once and the rest are found by the recheck (docs/operations.md "The socket tier").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

# The handler a wake-up names (live_room's consumer: `topic_version`), and a user's own messages (`user_message`).
VERSION_MESSAGE = "topic.version"
USER_MESSAGE = "user.message"


def game_topic(game_id: int) -> str:
    return f"game:{game_id}"


def tournament_topic(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def group_name(topic: str) -> str:
    """The channel layer's group of a topic ("game:12" → "ramino.game.12"; group names take no colon)."""
    return "ramino." + topic.replace(":", ".")


def user_group(user_id: int) -> str:
    return f"ramino.user.{user_id}"


# Wake-ups handed to the publishing thread and not sent yet, at most: beyond (Redis away), they are dropped
# and the sockets' rechecks find the versions.
MAX_PENDING = 1000


class _Publisher:
    """One thread per process running an event loop of its own, which sends the wake-ups to a channel layer
    on Redis: the writer hands a wake-up over and goes on (no event loop or connection per commit: sending
    from synchronous code with async_to_sync cost several milliseconds of the move's answer), and the layer's
    connections stay open between sends."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.pending = 0
        self._lock = threading.Lock()
        threading.Thread(target=self.loop.run_forever, name="ramino-fanout", daemon=True).start()

    def send(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        with self._lock:
            if self.pending >= MAX_PENDING:
                logger.warning("socket wake-up for %s dropped: %s waiting already", group, self.pending)
                return
            self.pending += 1
        future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), self.loop)
        future.add_done_callback(lambda done: self._sent(group, done))

    def _sent(self, group: str, done: concurrent.futures.Future[None]) -> None:
        with self._lock:
            self.pending -= 1
        if not done.cancelled() and done.exception() is not None:
            # A lost wake-up is found by the sockets' recheck; the commit stands.
            logger.warning("socket wake-up for %s not sent: %s", group, done.exception())


_publisher_lock = threading.Lock()
_publisher: tuple[int, _Publisher] | None = None


def _process_publisher() -> _Publisher:
    """This process's publisher; a forked child (gunicorn, Celery's prefork pool) starts its own."""
    global _publisher
    with _publisher_lock:
        if _publisher is None or _publisher[0] != os.getpid():
            _publisher = (os.getpid(), _Publisher())
        return _publisher[1]


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if not isinstance(layer, InMemoryChannelLayer):
        _process_publisher().send(layer, group, message)
        return
    if group not in layer.groups:
        # In memory, only this process's own sockets can hear it, and none follows the topic here (a web
        # process or a worker on the embedded default): nothing to send.
        return
    try:
        # This process's sockets (the ASGI process serving the move): sent on their own event loop.
        async_to_sync(layer.group_send)(group, message)
    except Exception as exc:  # a lost wake-up is found by the sockets' recheck; the commit stands
        logger.warning("socket wake-up for %s not sent: %s", group, exc)


def send_version(*, topic: str, version: int) -> None:
    """Tell the topic's sockets now that `topic` has reached `version` (call it once the version is committed:
    `version_on_commit`, or from a commit callback of one's own)."""
    _send(
        group_name(topic), {"type": VERSION_MESSAGE, "topic": topic, "version": version, "sent": time.time()}
    )


def version_on_commit(*, topic: str, version: int) -> None:
    """`send_version` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: send_version(topic=topic, version=version), robust=True)


def user_message_on_commit(*, user_id: int, kind: str, data: dict[str, Any]) -> None:
    """A message for one user's sockets that subscribed to `me` (docs/api.md "Live socket"), sent on commit."""

    def send() -> None:
        _send(user_group(user_id), {"type": USER_MESSAGE, "kind": kind, "data": data, "sent": time.time()})

    transaction.on_commit(send, robust=True)


# The handler of a user's change of whom they muted or blocked in chat (live_room's `chat_mutes`): the user's
# sockets read their hidden authors again (chat/socket.py). Sent to the user's group, never to the client.
MUTES_MESSAGE = "chat.mutes"


def mutes_on_commit(*, user_id: int) -> None:
    """Tell `user_id`'s sockets, once the transaction commits, that whom they muted or blocked changed."""
    transaction.on_commit(
        lambda: _send(user_group(user_id), {"type": MUTES_MESSAGE, "sent": time.time()}), robust=True
    )


# The handler a change of who is connected to a game names (live_room's `presence_changed`): the sockets of the
# game read its presence again (tournaments/presence/).
PRESENCE_MESSAGE = "presence.changed"


def presence_on_commit(*, game_id: int) -> None:
    """Tell the game's sockets, once the transaction commits, that someone connected to it or left."""
    topic = game_topic(game_id)

    def send() -> None:
        _send(group_name(topic), {"type": PRESENCE_MESSAGE, "topic": topic, "sent": time.time()})

    transaction.on_commit(send, robust=True)
