"""Wake-ups for the events long-polls: every web process learns at once that a game (or a tournament) has a
new version.

The database stays the only record of what happened; a wake-up only tells a waiting request "read again now".
On PostgreSQL the statement that writes a game's events also runs `pg_notify` with `<game id>:<version>`
(`announcement`), so web requests and Celery tasks alike announce, in the same round trip, and PostgreSQL
delivers the notification only if and when the transaction commits. Each web process keeps one connection
that LISTENs, in a thread started by the first long-poll, and wakes the requests waiting on that game.
A tournament's event log (`tournament_events.record`) announces the same way on the same channel, its topic
written `t<tournament id>` (`topic`): one listener per process serves both long-polls.

A web process lets at most `RAMINO_EVENTS_MAX_WAITING` requests wait at once (the settings: one fewer than
`GUNICORN_THREADS`), so that waiting clients can never take every thread and leave a move queued behind them
until their waits run out, and at most `RAMINO_EVENTS_MAX_WAITING_PER_USER` of one user, so that one client
cannot take every slot; a long-poll beyond either answers at once with what there is and `Retry-After: 1`.

A waiting request still reads again every `RAMINO_EVENTS_RECHECK_SECONDS` (a notification can be missed while
the listener reconnects); while no listener is connected (`RAMINO_EVENTS_WAKEUPS` off, another database, the
database restarting) it reads every `RAMINO_EVENTS_POLL_SECONDS` instead, as a plain poll would.

Why not Redis pub/sub: publishing from the web processes, even batched in a thread, cost 12% of the server's
CPU per move in the benchmark; the notification inside the move's own statement costs nothing measurable
(docs/performance.md). PostgreSQL serialises the commits of notifying transactions, which matters only at
commit rates far above a game server's.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from operations import metrics

logger = logging.getLogger(__name__)

CHANNEL = "ramino_game_versions"
APPLICATION_NAME = "ramino-wakeups"
_RECONNECT_BACKOFF_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
_CONNECT_TIMEOUT_SECONDS = 5
# Connection settings of Django's that psycopg.connect does not take or that the listener must not use.
_NOT_FOR_LISTENER = ("cursor_factory", "context", "prepare_threshold", "pool")


def topic(*, game_id: int | None = None, tournament_id: int | None = None) -> str:
    """What a notification names: a game by its id, a tournament as `t<id>`."""
    if (game_id is None) == (tournament_id is None):
        raise ValueError("a topic is one game or one tournament")
    return str(game_id) if game_id is not None else f"t{tournament_id}"


class Watch:
    """One waiting request's interest in one topic's (a game's or a tournament's) versions after `after`."""

    def __init__(self, hub: WakeupHub | None, topic: str, after: int) -> None:
        self.hub = hub
        self.topic = topic
        self.after = after
        self._woken = threading.Event()

    def wake(self) -> None:
        self._woken.set()

    def rearm(self) -> None:
        """Forget earlier wake-ups; call before reading, so that one arriving during the read is kept."""
        self._woken.clear()

    def wait(self, timeout: float) -> bool:
        """Block until woken or for at most `timeout` seconds (less while no listener is connected, when
        only the poll interval bounds how stale the reader may be). True when woken."""
        listening = self.hub is not None and self.hub.listening
        interval = recheck_seconds() if listening else poll_seconds()
        return self._woken.wait(max(0.0, min(timeout, interval)))


class WakeupHub:
    """One per process: the listening connection's thread and the requests waiting."""

    def __init__(self, connect: Callable[[], psycopg.Connection[Any]]) -> None:
        self._connect = connect
        self._lock = threading.Lock()
        self._watches: dict[str, set[Watch]] = {}
        self._listening = threading.Event()
        self._stopped = threading.Event()
        self._listener: threading.Thread | None = None

    @property
    def listening(self) -> bool:
        """True while LISTENing: a version committed now would reach this process."""
        return self._listening.is_set()

    @contextmanager
    def watch(
        self, *, after: int, game_id: int | None = None, tournament_id: int | None = None
    ) -> Iterator[Watch]:
        self._start_listener()
        key = topic(game_id=game_id, tournament_id=tournament_id)
        watch = Watch(self, key, after)
        with self._lock:
            self._watches.setdefault(key, set()).add(watch)
        try:
            yield watch
        finally:
            with self._lock:
                waiting = self._watches.get(key)
                if waiting is not None:
                    waiting.discard(watch)
                    if not waiting:
                        del self._watches[key]

    def waiting(self) -> int:
        with self._lock:
            return sum(len(w) for w in self._watches.values())

    def deliver(self, payload: str) -> None:
        """Wake the watches of the topic named in `payload` ("<game id>:<version>", "t<tournament id>:<version>")
        that have not seen it."""
        key, _, version_text = payload.partition(":")
        try:
            version = int(version_text)
        except ValueError:
            logger.warning("events wake-up: ignored malformed notification %r", payload[:100])
            return
        with self._lock:
            for watch in self._watches.get(key, ()):
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
            if self._listener is None and not self._stopped.is_set():
                self._listener = threading.Thread(target=self._listen, name="ramino-wakeups", daemon=True)
                self._listener.start()

    def _listen(self) -> None:
        failures = 0
        while not self._stopped.is_set():
            conn: psycopg.Connection[Any] | None = None
            try:
                conn = self._connect()
                conn.execute(f"LISTEN {CHANNEL}")
                failures = 0
                self._listening.set()
                while not self._stopped.is_set():
                    for notification in conn.notifies(timeout=1.0):
                        self.deliver(notification.payload)
            except psycopg.Error as exc:
                if self._listening.is_set() or failures == 0:
                    logger.warning(
                        "events wake-up listener lost the database (%s); polling until it is back", exc
                    )
            finally:
                if self._listening.is_set():
                    # Whoever waited may have missed a wake-up: let them read now, then poll until back.
                    self._listening.clear()
                    self._wake_all()
                if conn is not None:
                    conn.close()
            if self._stopped.is_set():
                break
            delay = _RECONNECT_BACKOFF_SECONDS[min(failures, len(_RECONNECT_BACKOFF_SECONDS) - 1)]
            failures += 1
            self._stopped.wait(delay)

    def stop(self, timeout: float = 5.0) -> None:
        """End the listener (tests; processes simply exit)."""
        self._stopped.set()
        if self._listener is not None:
            self._listener.join(timeout)


# ----------------------------------------------------------------------------------------- the process's hub

_hub_lock = threading.Lock()
_hub: tuple[int, WakeupHub] | None = None


def poll_seconds() -> float:
    return float(settings.RAMINO_EVENTS_POLL_SECONDS)


def recheck_seconds() -> float:
    return float(settings.RAMINO_EVENTS_RECHECK_SECONDS)


def enabled(alias: str = DEFAULT_DB_ALIAS) -> bool:
    return bool(settings.RAMINO_EVENTS_WAKEUPS) and connections[alias].vendor == "postgresql"


def listener_connection(alias: str = DEFAULT_DB_ALIAS) -> psycopg.Connection[Any]:
    """A connection of its own to Django's database, in autocommit (LISTEN needs a session of its own: behind
    a transaction-pooling pooler point the database settings at the server, or turn wake-ups off)."""
    params = {
        k: v for k, v in connections[alias].get_connection_params().items() if k not in _NOT_FOR_LISTENER
    }
    params.setdefault("connect_timeout", _CONNECT_TIMEOUT_SECONDS)
    params["application_name"] = APPLICATION_NAME
    return psycopg.connect(**params, autocommit=True)


def current_hub() -> WakeupHub | None:
    """This process's hub, or None when wake-ups are off. A forked child (gunicorn and Celery workers) gets
    one of its own: threads do not survive a fork."""
    global _hub
    if not enabled():
        return None
    pid = os.getpid()
    found = _hub
    if found is not None and found[0] == pid:
        return found[1]
    with _hub_lock:
        if _hub is None or _hub[0] != pid:
            _hub = (pid, WakeupHub(listener_connection))
        return _hub[1]


class _WaitingSlots:
    """How many requests of this process are waiting in a long-poll, against `RAMINO_EVENTS_MAX_WAITING`,
    and how many of them each user's, against `RAMINO_EVENTS_MAX_WAITING_PER_USER`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.taken = 0
        self.by_user: dict[Hashable, int] = {}

    @contextmanager
    def slot(self, user_id: Hashable) -> Iterator[bool]:
        """Yields whether a request that asks to wait may; one that may not answers at once."""
        with self._lock:
            mine = self.by_user.get(user_id, 0)
            granted = self.taken < max_waiting() and mine < max_waiting_per_user()
            if granted:
                self.taken += 1
                self.by_user[user_id] = mine + 1
        if granted:
            metrics.longpoll_started()
        try:
            yield granted
        finally:
            if granted:
                metrics.longpoll_ended()
                with self._lock:
                    self.taken -= 1
                    left = self.by_user[user_id] - 1
                    if left:
                        self.by_user[user_id] = left
                    else:
                        del self.by_user[user_id]


waiting_slots = _WaitingSlots()


def max_waiting() -> int:
    return int(settings.RAMINO_EVENTS_MAX_WAITING)


def max_waiting_per_user() -> int:
    return int(settings.RAMINO_EVENTS_MAX_WAITING_PER_USER)


def stop_current_hub() -> None:
    """Close this process's listener (a test run's end: its connection would keep the database in use)."""
    global _hub
    with _hub_lock:
        if _hub is not None and _hub[0] == os.getpid():
            _hub[1].stop()
        _hub = None


@contextmanager
def waiting(
    *,
    after: int,
    seconds: float,
    user_id: Hashable,
    game_id: int | None = None,
    tournament_id: int | None = None,
) -> Iterator[Watch | None]:
    """For a request of `user_id` (a user's id, or whatever names an anonymous caller) that asks to wait
    `seconds` for a game's (or a tournament's) versions after `after`: a watch, registered before the request
    reads so that no wake-up falls between; None when it asked not to wait, or when this process has
    `RAMINO_EVENTS_MAX_WAITING` requests waiting already, or that caller `RAMINO_EVENTS_MAX_WAITING_PER_USER`."""
    key = topic(game_id=game_id, tournament_id=tournament_id)
    if seconds <= 0:
        yield None
        return
    with waiting_slots.slot(user_id) as granted:
        if not granted:
            yield None
            return
        hub = current_hub()
        if hub is None:
            yield Watch(None, key, after)
            return
        with hub.watch(game_id=game_id, tournament_id=tournament_id, after=after) as found:
            yield found


def announcement(
    *, version: int, game_id: int | None = None, tournament_id: int | None = None
) -> tuple[str, list[Any]] | None:
    """The statement that announces the game's (or tournament's) new version at commit (None where wake-ups
    are off): to be run in the transaction that wrote the version, as the last part of its write."""
    if not enabled():
        return None
    key = topic(game_id=game_id, tournament_id=tournament_id)
    return "SELECT pg_notify(%s, %s)", [CHANNEL, f"{key}:{version}"]


_Read = TypeVar("_Read", bound=tuple[Any, ...])


def read_until_found(
    watch: Watch | None, *, deadline: float, first: _Read, read: Callable[[], _Read]
) -> _Read:
    """A long-poll's loop, shared by the game and the tournament events endpoints: `first` is what the request
    read (its last item the events found); while that is empty and the request may wait (`watch`, from
    `waiting`), sleep until woken or `deadline` (time.monotonic()), then `read()` again."""
    found = first
    while not found[-1] and watch is not None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        watch.wait(remaining)
        watch.rearm()  # before the read: a wake-up during it makes the next wait return at once
        found = read()
    return found
