"""A socket process's periodic work, done once for all of its signed-in sockets (docs/operations.md "The socket
tier", docs/performance.md "Live sockets"): one clock per event loop (uvicorn: one per process) instead of one
per socket.

Each socket used to keep its own clock, and each clock its own statements: the token check and a read of every
topic every `RAMINO_SOCKET_RECHECK_SECONDS`, a "looking at this game" refresh, its presence leases' renewal every
third of a lease, and its open-socket claims' renewal on Redis: about 750 statements a second at 5,000 sockets,
whatever happened at the tables. Here, per process and period:

- **the tokens** (every `RAMINO_SOCKET_RECHECK_SECONDS`): which of the sockets' tokens still stand, one statement
  per 500 tokens (`topics.standing_digests`); a socket whose token no longer stands (revoked, expired, its user
  inactive) is told `auth.failed` and closed (4401), as before within one recheck;
- **the topics** (same period): the version of every game, tournament and chat room a socket of the process
  follows, one statement per kind (`topics.versions`); only a socket behind a topic's version catches up, from
  the process's shared read (hub.py) when it may, else by its own read, exactly as a wake-up makes it do. A
  lost wake-up still costs at most one recheck's delay, and nothing is read when nothing changed; the joins of
  the topics' groups that are due (`RAMINO_SOCKET_REJOIN_SECONDS`, or failed) are made again; whom the users
  of the sockets following a chat room muted or blocked, one statement for all of them (a lost `chat.mutes`
  costs at most one recheck's delay too: live_room/chat_reader.py);
- **the lobby** (every `RAMINO_SOCKET_LOBBY_SECONDS`): its digest read once, sent to each socket on the lobby
  whose last one differs;
- **presence** (every `RAMINO_PRESENCE_CHECK_SECONDS`): each socket's leases still to be written taken and its
  games' presence told if it changed (a read per game shared by the process's sockets); every third of
  `RAMINO_PRESENCE_SOCKET_LEASE_SECONDS`, every socket's running leases renewed in one statement per 500
  sockets (`presence.services.sockets_renew`);
- **the open-socket claims** (flood.py): renewed in one Redis round trip for all the sockets due.

A step that fails is logged and tried at its next period; the clock never stops while sockets are open."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from django.conf import settings

from chat import socket as chat_socket
from live_room import flood, reads, topics
from live_room.presence import reads as presence_reads
from live_room.presence.socket import SocketPresence
from live_room.topics import Topic

logger = logging.getLogger(__name__)

# The sockets' own catch-ups and tellings run at most this many at once (a recheck after a restart finds every
# socket behind: they queue for the reading threads anyway).
AT_ONCE = 200


class Swept(Protocol):
    """What the sweep asks of a signed-in socket (live_room/consumer.py)."""

    shut: bool
    user: Any
    hidden: frozenset[int] | None
    token_digest: str | None
    following: dict[str, tuple[Topic, int]]
    presence: SocketPresence
    guard: flood.SocketGuard

    async def token_revoked(self) -> None: ...
    async def close(self, code: int | None = None) -> None: ...
    async def recheck(self, versions: dict[str, int], now: float) -> None: ...
    async def lobby_is(self, version: str) -> None: ...
    def hidden_ticket(self) -> int: ...
    def hidden_read(self, ticket: int, hidden: frozenset[int]) -> None: ...


class Sweep:
    def __init__(self) -> None:
        self.sockets: set[Swept] = set()
        self._task: asyncio.Task[None] | None = None

    def add(self, socket: Swept) -> None:
        self.sockets.add(socket)
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._run())

    def discard(self, socket: Swept) -> None:
        self.sockets.discard(socket)

    def _open(self) -> list[Swept]:
        return [s for s in self.sockets if not s.shut]

    async def _each(self, calls: list[tuple[Swept, Callable[[], Awaitable[None]]]]) -> None:
        """Run each socket's call, at most AT_ONCE at a time. A socket whose call fails (most often one the server
        closed an instant before its consumer heard of it: a send then raises; or the database away) is shut and
        closed (1011: its client opens another and resumes), and the failures are logged once per step."""
        bound = asyncio.Semaphore(AT_ONCE)
        failures: list[BaseException] = []

        async def one(socket: Swept, call: Callable[[], Awaitable[None]]) -> None:
            async with bound:
                if socket.shut:
                    return
                try:
                    await call()
                except asyncio.CancelledError:
                    raise
                except Exception as failure:
                    # As a socket's own clock did: closed (1011), its client opens another and resumes.
                    socket.shut = True
                    failures.append(failure)
                    with contextlib.suppress(Exception):
                        await socket.close(code=1011)

        await asyncio.gather(*(one(s, c) for s, c in calls))
        if failures:
            logger.warning(
                "live socket: %d sockets' periodic work failed (set aside until they close); the first: %r",
                len(failures),
                failures[0],
            )

    # --------------------------------------------------------------------------------------------- the steps

    async def recheck(self) -> None:
        sockets = self._open()
        if not sockets:
            return
        digests = {s.token_digest for s in sockets if s.token_digest is not None}
        standing = await reads.read(topics.standing_digests, digests)
        revoked = [s for s in sockets if s.token_digest not in standing]
        await self._each([(s, s.token_revoked) for s in revoked])
        sockets = [s for s in sockets if s.token_digest in standing and not s.shut]
        followed: dict[str, Topic] = {}
        for socket in sockets:
            for name, (topic, _last) in list(socket.following.items()):
                if topic.group is not None and topic.kind != topics.ME:
                    followed[name] = topic
        versions = await reads.read(topics.versions, list(followed.values())) if followed else {}
        await self.hidden(sockets)
        now = time.monotonic()
        await self._each([(s, _bound(s.recheck, versions, now)) for s in sockets])

    async def hidden(self, sockets: list[Swept]) -> None:
        """Whom the users of the sockets following a chat room do not see, read again for all at once."""
        chatting = [(s, s.hidden_ticket()) for s in sockets if s.hidden is not None]
        if chatting:
            user_ids = [int(s.user.pk) for s, _ticket in chatting]
            found = await reads.read(chat_socket.hidden_authors_of, user_ids=user_ids)
            for socket, ticket in chatting:
                socket.hidden_read(ticket, found.get(int(socket.user.pk), frozenset()))

    async def lobby(self) -> None:
        sockets = [s for s in self._open() if topics.LOBBY in s.following]
        if sockets:
            version = await reads.read(topics.lobby_version)
            await self._each([(s, _bound(s.lobby_is, version)) for s in sockets])

    async def presence(self) -> None:
        await self._each([(s, s.presence.check) for s in self._open() if s.presence.games])

    async def renew(self) -> None:
        holding = [s.presence for s in self._open() if s.presence.games]
        if not holding:
            return
        try:
            await reads.read(presence_reads.renew, sorted({p.holder for p in holding}))
        except Exception as failure:
            logger.warning("live socket: presence leases not renewed now: %r", failure)
            for presence in holding:
                presence.renewal_failed()

    async def claims(self) -> None:
        await flood.keep_all([s.guard for s in self._open()])

    # -------------------------------------------------------------------------------------------- the clock

    async def _run(self) -> None:
        began = time.monotonic()
        due = {"recheck": began, "lobby": began, "presence": began, "renew": began, "claims": began}
        steps: dict[str, Callable[[], Awaitable[None]]] = {
            "recheck": self.recheck,
            "lobby": self.lobby,
            "presence": self.presence,
            "renew": self.renew,
            "claims": self.claims,
        }
        for name in due:
            due[name] = began + _period(name)
        while self.sockets:
            await asyncio.sleep(max(0.0, min(due.values()) - time.monotonic()))
            for name, step in steps.items():
                now = time.monotonic()
                if now < due[name]:
                    continue
                due[name] = now + _period(name)
                try:
                    await step()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    logger.exception("live socket: the process's %s failed; tried again next period", name)


def _period(step: str) -> float:
    """Each step's period, read at each turn (tests change the settings)."""
    if step == "recheck":
        return float(settings.RAMINO_SOCKET_RECHECK_SECONDS)
    if step == "lobby":
        return float(settings.RAMINO_SOCKET_LOBBY_SECONDS)
    if step == "presence":
        return float(settings.RAMINO_PRESENCE_CHECK_SECONDS)
    if step == "renew":
        return float(settings.RAMINO_PRESENCE_SOCKET_LEASE_SECONDS) / 3
    return flood.CLAIM_SECONDS / 3


def _bound(method: Callable[..., Awaitable[None]], *args: Any) -> Callable[[], Awaitable[None]]:
    return lambda: method(*args)


_sweeps: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Sweep] = weakref.WeakKeyDictionary()


def current() -> Sweep:
    """The running event loop's sweep (another loop, e.g. a test's, has its own)."""
    loop = asyncio.get_running_loop()
    found = _sweeps.get(loop)
    if found is None:
        found = _sweeps[loop] = Sweep()
    return found
