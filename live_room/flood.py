"""Socket flood limits (docs/api.md "Live socket", "Limits"): at most `RAMINO_SOCKET_MAX_PER_USER` open sockets per
player and `RAMINO_SOCKET_MAX_PER_ADDRESS` per client address, and `RAMINO_SOCKET_MESSAGES_PER_SECOND` messages
per second per socket (a burst of twice as many). Over a limit the socket is told why (`socket.too_many`,
`socket.flood`) and closed with code 4429.

The open sockets are counted where every socket process sees them: on Redis (`CHANNEL_LAYER_URL`) a sorted set per
player and per address whose members are the sockets' channel names scored by when their claim runs out
(renewed every `CLAIM_SECONDS` / 3 while the socket stays open), so that a process that dies leaves nothing that
lasts; on the embedded default's one socket process, the same in memory.

Redis's counts are never worth a socket (`make bench-live` at 5,000 sockets, 2026-12-06: redis-py's pool of 100
connections raised `MaxConnectionsError` in the renewals, and each closed its socket): a process's calls wait
for one of `COUNTS_CONNECTIONS` connections instead of failing; a renewal or release that fails anyway is logged
and left to the next renewal or to the claim's own expiry; a claim that fails lets the socket in (logged): the
limits guard against floods, and Redis away must not shut every player out."""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from types import SimpleNamespace
from typing import Any, Protocol

from django.conf import settings
from django.utils.translation import gettext_noop as N_
from redis.exceptions import RedisError
from rest_framework.throttling import BaseThrottle

from api.errors import ApiCode
from live_room.topics import SocketRefusal

logger = logging.getLogger(__name__)

# The close code of a socket over a limit (4000-4999: the application's; 4429 reads as HTTP's 429).
CLOSE_TOO_MANY = 4429
# A socket's claim on its player's and address's counts lasts this long unless renewed.
CLAIM_SECONDS = 90.0
_PREFIX = "ramino:socket:open:"
# Redis connections a socket process's counts use at most (a call waits up to COUNTS_WAIT_SECONDS for one).
COUNTS_CONNECTIONS = 50
COUNTS_WAIT_SECONDS = 30


def client_address(scope: dict[str, Any]) -> str:
    """The client's address by the REST API's rule (security/addresses.py: `NUM_PROXIES`, X-Forwarded-For)."""
    meta: dict[str, str] = {"REMOTE_ADDR": (scope.get("client") or ("", 0))[0] or ""}
    headers: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":
            headers["x-forwarded-for"] = meta["HTTP_X_FORWARDED_FOR"] = value.decode("latin-1")
    return str(BaseThrottle().get_ident(SimpleNamespace(META=meta, headers=headers)))  # type: ignore[arg-type]


class _Counts(Protocol):
    async def claim(self, key: str, member: str, limit: int) -> bool: ...
    async def renew(self, keys: list[str], member: str) -> None: ...
    async def renew_many(self, claims: list[tuple[list[str], str]]) -> None: ...
    async def release(self, keys: list[str], member: str) -> None: ...


class _MemoryCounts:
    def __init__(self) -> None:
        self.claims: dict[str, dict[str, float]] = {}

    def _live(self, key: str) -> dict[str, float]:
        now = time.time()
        members = {m: until for m, until in self.claims.get(key, {}).items() if until > now}
        self.claims[key] = members
        return members

    async def claim(self, key: str, member: str, limit: int) -> bool:
        members = self._live(key)
        if member not in members and len(members) >= limit:
            return False
        members[member] = time.time() + CLAIM_SECONDS
        return True

    async def renew(self, keys: list[str], member: str) -> None:
        for key in keys:
            self._live(key)[member] = time.time() + CLAIM_SECONDS

    async def renew_many(self, claims: list[tuple[list[str], str]]) -> None:
        for keys, member in claims:
            await self.renew(keys, member)

    async def release(self, keys: list[str], member: str) -> None:
        for key in keys:
            self._live(key).pop(member, None)
            if not self.claims[key]:
                del self.claims[key]


class _RedisCounts:
    def __init__(self, url: str) -> None:
        import redis.asyncio as redis  # only where the channel layer is on Redis

        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=COUNTS_CONNECTIONS, timeout=COUNTS_WAIT_SECONDS
        )
        self.client = redis.Redis(connection_pool=pool)

    async def claim(self, key: str, member: str, limit: int) -> bool:
        now = time.time()
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(key, 0, now)
            pipe.zadd(key, {member: now + CLAIM_SECONDS})
            pipe.zcard(key)
            pipe.expire(key, int(CLAIM_SECONDS) + 1)
            _removed, _added, count, _expiry = await pipe.execute()
        if int(count) > limit:
            await self.client.zrem(key, member)
            return False
        return True

    async def renew(self, keys: list[str], member: str) -> None:
        until = time.time() + CLAIM_SECONDS
        async with self.client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zadd(key, {member: until})
                pipe.expire(key, int(CLAIM_SECONDS) + 1)
            await pipe.execute()

    async def renew_many(self, claims: list[tuple[list[str], str]]) -> None:
        """Many sockets' claims renewed in one round trip (a process's periodic renewal, `keep_all`)."""
        until = time.time() + CLAIM_SECONDS
        async with self.client.pipeline(transaction=False) as pipe:
            for keys, member in claims:
                for key in keys:
                    pipe.zadd(key, {member: until})
                    pipe.expire(key, int(CLAIM_SECONDS) + 1)
            await pipe.execute()

    async def release(self, keys: list[str], member: str) -> None:
        async with self.client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(key, member)
            await pipe.execute()


_memory = _MemoryCounts()


def forget_counts() -> None:
    """Forget this process's in-memory counts (tests)."""
    _memory.claims.clear()


# A Redis client belongs to the event loop it was made on.
_redis: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _RedisCounts] = weakref.WeakKeyDictionary()


def _counts() -> _Counts:
    url = str(settings.CHANNEL_LAYER_URL)
    if not url:
        return _memory
    loop = asyncio.get_running_loop()
    found = _redis.get(loop)
    if found is None:
        found = _redis[loop] = _RedisCounts(url)
    return found


def _too_many(scope: str, limit: int) -> SocketRefusal:
    if scope == "user":
        message = N_("You have %(limit)s sockets open already: close one first.")
    else:
        message = N_("Too many sockets are open from your address (at most %(limit)s).")
    return SocketRefusal(
        message,
        code=ApiCode.SOCKET_TOO_MANY,
        params={"limit": limit},
        details={"limit": limit, "scope": scope},
    )


class SocketGuard:
    """One socket's claims and its message budget."""

    def __init__(self, *, member: str, scope: dict[str, Any]) -> None:
        self.member = member
        self.address = client_address(scope)
        self.keys: list[str] = []
        self.rate = float(settings.RAMINO_SOCKET_MESSAGES_PER_SECOND)
        self.tokens = 2 * self.rate
        self.at = time.monotonic()
        self.renewed = time.monotonic()

    async def _claim(self, key: str, limit: int, scope: str) -> SocketRefusal | None:
        try:
            allowed = await _counts().claim(key, self.member, limit)
        except (RedisError, OSError) as failure:
            logger.warning("live socket: open sockets not counted now, let in: %r", failure)
            allowed = True
        if not allowed:
            return _too_many(scope, limit)
        self.keys.append(key)
        return None

    async def opened(self) -> SocketRefusal | None:
        """The socket opened: a refusal when its address has too many open already."""
        limit = int(settings.RAMINO_SOCKET_MAX_PER_ADDRESS)
        return await self._claim(f"{_PREFIX}address:{self.address}", limit, "address")

    async def signed_in(self, user_id: int) -> SocketRefusal | None:
        """The socket signed in: a refusal when its player has too many open already."""
        limit = int(settings.RAMINO_SOCKET_MAX_PER_USER)
        return await self._claim(f"{_PREFIX}user:{user_id}", limit, "user")

    def message(self) -> SocketRefusal | None:
        """A message arrived: a refusal when it is over the socket's budget."""
        now = time.monotonic()
        self.tokens = min(2 * self.rate, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return SocketRefusal(
                N_("Too many messages: at most %(rate)s a second."),
                code=ApiCode.SOCKET_FLOOD,
                params={"rate": f"{self.rate:g}"},
                details={"per_second": self.rate},
            )
        self.tokens -= 1
        return None

    async def keep(self) -> None:
        """Renew the claims when a third of their life has passed (one socket's; a process renews all of its
        sockets' at once, `keep_all`)."""
        if self.keys and time.monotonic() - self.renewed >= CLAIM_SECONDS / 3:
            self.renewed = time.monotonic()
            try:
                await _counts().renew(self.keys, self.member)
            except (RedisError, OSError) as failure:
                # Tried again at the next renewal, well before the claims run out.
                logger.warning("live socket: open sockets' claims not renewed now: %r", failure)

    async def closed(self) -> None:
        keys, self.keys = self.keys, []
        if keys:
            try:
                await _counts().release(keys, self.member)
            except (RedisError, OSError) as failure:
                logger.warning("live socket: claims left to run out: %r", failure)


async def keep_all(guards: list[SocketGuard]) -> None:
    """Renew the claims of every socket whose claims are a third of their life old, in one Redis round trip
    (the process's periodic sweep, live_room/sweep.py; one call per socket was 55 Redis calls a second at 5,000
    sockets). A failure is logged and tried again at the next sweep, well before the claims run out."""
    now = time.monotonic()
    due = [g for g in guards if g.keys and now - g.renewed >= CLAIM_SECONDS / 3]
    if not due:
        return
    for guard in due:
        guard.renewed = now
    try:
        await _counts().renew_many([(list(g.keys), g.member) for g in due])
    except (RedisError, OSError) as failure:
        logger.warning("live socket: open sockets' claims not renewed now: %r", failure)
