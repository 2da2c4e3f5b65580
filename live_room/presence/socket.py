"""One socket's presence: the games it holds a lease at (renewed every third of the lease with all the process's
sockets' leases in one statement, live_room/sweep.py), and what it last told
its client of each game's presence (`{"type": "presence", "topic", "players": {username: connected}}`, sent on
subscribing, when the game's group hears a change, and when a periodic read finds one: a lease run out, or a
change made by another process on the embedded default's in-memory layer)."""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from django.db import DatabaseError

from live_room import reads as socket_reads
from live_room.presence import reads

logger = logging.getLogger(__name__)
_T = TypeVar("_T")


# A game's presence read by one socket serves the process's other sockets of the game asking within this many
# seconds (the periodic checks: at 5,000 sockets one read each every 15 s was 333 reads a second).
SHARE_SECONDS = 1.0


class _Snapshots:
    """The games' presence read once for all the sockets of an event loop (uvicorn: a process): a socket takes a
    read that started at or after `not_before`, or starts one that the others asking meanwhile share."""

    def __init__(self) -> None:
        self.read: dict[int, tuple[float, dict[str, bool]]] = {}
        self.reading: dict[int, tuple[float, asyncio.Future[dict[str, bool] | None]]] = {}

    async def get(
        self, game_id: int, not_before: float, read: Callable[[int], Awaitable[dict[str, bool] | None]]
    ) -> dict[str, bool] | None:
        found = self.read.get(game_id)
        if found is not None and found[0] >= not_before:
            return found[1]
        pending = self.reading.get(game_id)
        if pending is None or pending[0] < not_before:
            started = time.time()
            future = asyncio.ensure_future(read(game_id))
            pending = self.reading[game_id] = (started, future)
            future.add_done_callback(lambda done: self._done(game_id, started, done))
        return await asyncio.shield(pending[1])

    def _done(self, game_id: int, started: float, done: asyncio.Future[dict[str, bool] | None]) -> None:
        current = self.reading.get(game_id)
        if current is not None and current[1] is done:
            del self.reading[game_id]
        if done.cancelled() or done.exception() is not None:
            return
        players = done.result()
        if players is not None and started >= self.read.get(game_id, (0.0, {}))[0]:
            self.read[game_id] = (started, players)
        if len(self.read) > 10_000:  # games long left
            self.read.clear()


_snapshots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Snapshots] = weakref.WeakKeyDictionary()


def _shared() -> _Snapshots:
    loop = asyncio.get_running_loop()
    found = _snapshots.get(loop)
    if found is None:
        found = _snapshots[loop] = _Snapshots()
    return found


class SocketPresence:
    """Presence is never worth a socket: a read or write that fails (the database away, or busy) is logged and
    tried again by the process's periodic check (`check`); a lease not ended runs out by itself."""

    def __init__(self, *, holder: str, send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        self.holder = holder
        self._send = send
        # The games followed → the player's id; those whose lease is still to be written.
        self.games: dict[int, int] = {}
        self.pending: set[int] = set()
        self.told: dict[int, dict[str, bool]] = {}
        # When the socket's lease at each game was last written: a snapshot read before it may not show its own
        # player connected, and is never sent.
        self.held_at: dict[int, float] = {}

    async def _db(self, function: Callable[..., _T], *args: Any) -> _T | None:
        try:
            return await socket_reads.read(function, *args)
        except DatabaseError as exc:
            logger.warning("live socket: presence not read or written now: %s", exc)
            return None

    async def _hold(self, game_id: int) -> None:
        player_id = self.games.get(game_id)
        if (
            player_id is not None
            and await self._db(reads.subscribed, game_id, player_id, self.holder) is not None
        ):
            self.pending.discard(game_id)
            self.held_at[game_id] = time.time()

    async def hold(self, *, game_id: int, player_id: int) -> None:
        """The socket follows the game now (its events read succeeded): the lease held, before the client is
        told it is subscribed (a page asks then whether the server played for it while it was away, which the
        lease's writing records)."""
        self.games[game_id] = player_id
        self.pending.add(game_id)
        await self._hold(game_id)

    async def announce(self, game_id: int) -> None:
        """Tell the client who is connected at the game it now follows (its own lease among them)."""
        self.told.pop(game_id, None)
        await self.tell(game_id, not_before=time.time())

    async def left(self, *, game_id: int) -> None:
        if self.games.pop(game_id, None) is not None:
            self.pending.discard(game_id)
            self.told.pop(game_id, None)
            self.held_at.pop(game_id, None)
            await self._db(reads.left, self.holder, [game_id])

    async def closed(self) -> None:
        if self.games:
            self.games.clear()
            self.pending.clear()
            self.told.clear()
            self.held_at.clear()
            await self._db(reads.left, self.holder, None)

    async def _snapshot(self, game_id: int) -> dict[str, bool] | None:
        return await self._db(reads.snapshot, game_id)

    async def tell(self, game_id: int, *, not_before: float | None = None) -> None:
        """Send the game's presence if it changed since it was last sent: from a read of the process that
        started at or after `not_before` (a change's publication), else in the last SHARE_SECONDS, and never
        before the socket's own lease was written (until then nothing is sent: its client would be told its own
        player is away; a periodic check between the subscription and the lease's write did so)."""
        if game_id not in self.games or game_id in self.pending:
            return
        since = time.time() - SHARE_SECONDS if not_before is None else not_before
        since = max(since, self.held_at.get(game_id, 0.0))
        players = await _shared().get(game_id, since, self._snapshot)
        if players is not None and game_id in self.games and self.told.get(game_id) != players:
            self.told[game_id] = players
            await self._send({"type": "presence", "topic": f"game:{game_id}", "players": players})

    async def check(self) -> None:
        """The process's periodic check (live_room/sweep.py, every `RAMINO_PRESENCE_CHECK_SECONDS`): the leases
        still to be written taken, and each game's presence told if it changed (a lease run out; on the embedded
        default, a change made by another process), from a read the process's sockets of the game share."""
        for game_id in sorted(self.pending):
            await self._hold(game_id)
        for game_id in sorted(self.games):
            await self.tell(game_id)

    def renewal_failed(self) -> None:
        """The process's renewal of the leases failed: each is taken again at the next check (a lease that ran
        out meanwhile is not revived by a renewal)."""
        self.pending.update(self.games)
