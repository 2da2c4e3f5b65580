"""Wake-ups for the events long-poll: every process learns at once that a game has a new version.

The database stays the only record of what happened; a wake-up only tells a waiting request "read again now".
A process that writes a game's events announces `<game id>:<version>` on a Redis pub/sub channel after its
transaction commits (web requests and Celery tasks alike); each web process keeps one subscriber thread that
wakes the requests waiting on that game. Pub/sub delivers at most once, so a waiting request still reads again
every `RAMINO_EVENTS_RECHECK_SECONDS`; while the subscriber is not connected (no `RAMINO_EVENTS_WAKEUP_URL`,
Redis down, reconnecting) it reads every `RAMINO_EVENTS_POLL_SECONDS` instead, as a plain poll would.

Announcements go through a queue to one publisher thread per process, so a slow Redis never holds up the
request or task that committed, and announcements made within a few milliseconds of each other leave in one
pipelined round trip (docs/performance.md: publishing from the committing thread cost 5% of the moves' rate).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import redis
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

CHANNEL = "ramino:game-versions"
_RECONNECT_BACKOFF_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
_SOCKET_TIMEOUT_SECONDS = 2.0
_BATCH_PAUSE_SECONDS = 0.01


class Watch:
    """One waiting request's interest in one game's versions after `after`."""

    def __init__(self, hub: WakeupHub | None, game_id: int, after: int) -> None:
        self.hub = hub
        self.game_id = game_id
        self.after = after
        self._woken = threading.Event()

    def wake(self) -> None:
        self._woken.set()

    def rearm(self) -> None:
        """Forget earlier wake-ups; call before reading, so that one arriving during the read is kept."""
        self._woken.clear()

    def wait(self, timeout: float) -> bool:
        """Block until woken or for at most `timeout` seconds (less while no subscriber is connected, when
        only the poll interval bounds how stale the reader may be). True when woken."""
        listening = self.hub is not None and self.hub.listening
        interval = recheck_seconds() if listening else poll_seconds()
        return self._woken.wait(max(0.0, min(timeout, interval)))


class WakeupHub:
    """One per process: the subscriber thread, the publisher thread and the requests waiting."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._watches: dict[int, set[Watch]] = {}
        self._listening = threading.Event()
        self._stopped = threading.Event()
        self._outbox: queue.SimpleQueue[tuple[int, int] | None] = queue.SimpleQueue()
        self._listener: threading.Thread | None = None
        self._publisher: threading.Thread | None = None
        self._client: redis.Redis | None = None

    # ------------------------------------------------------------------------------------ waiting side

    @property
    def listening(self) -> bool:
        """True while subscribed: a wake-up published now would reach this process."""
        return self._listening.is_set()

    @contextmanager
    def watch(self, *, game_id: int, after: int) -> Iterator[Watch]:
        self._start_listener()
        watch = Watch(self, game_id, after)
        with self._lock:
            self._watches.setdefault(game_id, set()).add(watch)
        try:
            yield watch
        finally:
            with self._lock:
                waiting = self._watches.get(game_id)
                if waiting is not None:
                    waiting.discard(watch)
                    if not waiting:
                        del self._watches[game_id]

    def waiting(self) -> int:
        with self._lock:
            return sum(len(w) for w in self._watches.values())

    def deliver(self, message: bytes | str) -> None:
        """Wake the watches of the game named in `message` that have not seen its version."""
        text = message.decode() if isinstance(message, bytes) else message
        try:
            game_text, _, version_text = text.partition(":")
            game_id, version = int(game_text), int(version_text)
        except ValueError:
            logger.warning("events wake-up: ignored malformed message %r", text[:100])
            return
        with self._lock:
            for watch in self._watches.get(game_id, ()):
                if version > watch.after:
                    watch.wake()

    def _wake_all(self) -> None:
        with self._lock:
            for watches in self._watches.values():
                for watch in watches:
                    watch.wake()

    def _start_listener(self) -> None:
        if self._listener is not None:
            return
        with self._lock:
            if self._listener is None:
                self._listener = threading.Thread(target=self._listen, name="ramino-wakeups-sub", daemon=True)
                self._listener.start()

    def _listen(self) -> None:
        failures = 0
        while not self._stopped.is_set():
            client = redis.Redis.from_url(
                self.url, socket_connect_timeout=_SOCKET_TIMEOUT_SECONDS, health_check_interval=30
            )
            pubsub = client.pubsub()  # type: ignore[no-untyped-call]
            try:
                pubsub.subscribe(CHANNEL)
                while not self._stopped.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    if message["type"] == "subscribe":
                        failures = 0
                        self._listening.set()
                    elif message["type"] == "message":
                        self.deliver(message["data"])
            except (redis.RedisError, OSError) as exc:
                if self._listening.is_set() or failures == 0:
                    logger.warning("events wake-up subscriber lost Redis (%s); polling until it is back", exc)
            finally:
                if self._listening.is_set():
                    # Whoever waited may have missed a wake-up: let them read now, then poll until resubscribed.
                    self._listening.clear()
                    self._wake_all()
                try:
                    pubsub.close()
                    client.close()
                except (redis.RedisError, OSError):
                    pass
            if self._stopped.is_set():
                break
            delay = _RECONNECT_BACKOFF_SECONDS[min(failures, len(_RECONNECT_BACKOFF_SECONDS) - 1)]
            failures += 1
            self._stopped.wait(delay)

    # ----------------------------------------------------------------------------------- announcing side

    def announce(self, *, game_id: int, version: int) -> None:
        """Queue `game_id:version` for every process's waiters; never blocks and never raises."""
        if self._publisher is None:
            with self._lock:
                if self._publisher is None:
                    self._publisher = threading.Thread(
                        target=self._publish, name="ramino-wakeups-pub", daemon=True
                    )
                    self._publisher.start()
        self._outbox.put((game_id, version))

    def _publish(self) -> None:
        client = redis.Redis.from_url(
            self.url, socket_connect_timeout=_SOCKET_TIMEOUT_SECONDS, socket_timeout=_SOCKET_TIMEOUT_SECONDS
        )
        self._client = client
        while True:
            first = self._outbox.get()
            if first is None:
                return
            latest = {first[0]: first[1]}
            while True:  # whatever queued up meanwhile leaves in the same round trip
                try:
                    more = self._outbox.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._stopped.set()
                    break
                latest[more[0]] = max(more[1], latest.get(more[0], 0))
            try:
                pipe = client.pipeline(transaction=False)
                for game_id, version in latest.items():
                    pipe.publish(CHANNEL, f"{game_id}:{version}")
                pipe.execute()
            except (redis.RedisError, OSError) as exc:
                # Waiters elsewhere see these versions at their next re-check instead.
                logger.warning("events wake-up: %d announcement(s) not published (%s)", len(latest), exc)
            if self._stopped.is_set():
                return
            # A pause before looking at the queue again: under load the announcements of the next few
            # milliseconds then leave together, and the committing threads do not wake this one every time.
            self._stopped.wait(_BATCH_PAUSE_SECONDS)

    def stop(self, timeout: float = 5.0) -> None:
        """End both threads (tests; processes simply exit)."""
        self._stopped.set()
        self._outbox.put(None)
        for thread in (self._listener, self._publisher):
            if thread is not None:
                thread.join(timeout)
        if self._client is not None:
            self._client.close()


# ----------------------------------------------------------------------------------------- the process's hub

_hub_lock = threading.Lock()
_hub: tuple[int, str, WakeupHub] | None = None


def poll_seconds() -> float:
    return float(settings.RAMINO_EVENTS_POLL_SECONDS)


def recheck_seconds() -> float:
    return float(settings.RAMINO_EVENTS_RECHECK_SECONDS)


def current_hub() -> WakeupHub | None:
    """This process's hub for the configured URL, or None when wake-ups are off. A forked child (gunicorn
    and Celery workers) gets a hub of its own: threads do not survive a fork."""
    global _hub
    url = str(settings.RAMINO_EVENTS_WAKEUP_URL or "")
    if not url:
        return None
    pid = os.getpid()
    found = _hub
    if found is not None and found[0] == pid and found[1] == url:
        return found[2]
    with _hub_lock:
        if _hub is None or _hub[0] != pid or _hub[1] != url:
            if _hub is not None and _hub[0] == pid:
                _hub[2].stop(timeout=0)
            _hub = (pid, url, WakeupHub(url))
        return _hub[2]


@contextmanager
def watch(*, game_id: int, after: int) -> Iterator[Watch]:
    """A waiting request's watch on `game_id`; register it before reading, so no wake-up falls between."""
    hub = current_hub()
    if hub is None:
        yield Watch(None, game_id, after)
        return
    with hub.watch(game_id=game_id, after=after) as found:
        yield found


def announce_on_commit(*, game_id: int, version: int) -> None:
    """Announce the game's new version once the surrounding transaction commits (never if it rolls back)."""
    hub = current_hub()
    if hub is not None:
        transaction.on_commit(lambda: hub.announce(game_id=game_id, version=version))
