"""A socket's own calls to the channel layer (`group_add`, `group_discard`), bounded and patient (docs/operations.md
"The socket tier", docs/performance.md "Live sockets").

At 5,000 sockets on two processes (`make bench-live`, 2026-12-06 15:58 UTC) a rush of sign-ins, subscriptions
and the every-30-s re-joins asked the Redis layer for more connections than its pool holds at once: 594
`MaxConnectionsError` and 925 `Timeout connecting to server`, each raised through a consumer and closing its
socket, whose client then reconnected and joined again, feeding the rush. Here:

- the calls of one event loop (uvicorn: one per process) go through a semaphore of
  `RAMINO_SOCKET_LAYER_CALLS` at once, well under the pool's connections: a burst waits its turn instead of
  failing;
- a call that fails anyway (Redis slow or away) is tried again after a short, growing, jittered pause, and
  after the last attempt reported as failed (False) rather than raised: the socket stays open, the consumer
  joins again at its next recheck, and meanwhile the recheck's reads bring its events (a lost wake-up costs at
  most one recheck's delay; no event is lost or repeated, as the reads resume from the last version sent)."""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections.abc import Awaitable, Callable

from channels_redis.core import RedisChannelLayer
from django.conf import settings
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# Pauses before the second and third attempts (each with up to half as much again at random, so that sockets
# that failed together do not come back together).
BACKOFF_SECONDS = (0.2, 1.0)

_semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def semaphore() -> asyncio.Semaphore:
    """The running event loop's bound on concurrent channel-layer calls."""
    loop = asyncio.get_running_loop()
    found = _semaphores.get(loop)
    if found is None:
        found = _semaphores[loop] = asyncio.Semaphore(max(1, int(settings.RAMINO_SOCKET_LAYER_CALLS)))
    return found


async def call(what: str, make: Callable[[], Awaitable[object]]) -> bool:
    """Run the channel-layer call `make()` (a coroutine each time: it may be made again) within the loop's
    bound, retried on failure; True when it succeeded, False (logged) when every attempt failed."""
    bound = semaphore()
    for attempt in range(len(BACKOFF_SECONDS) + 1):
        try:
            async with bound:
                await make()
            return True
        except asyncio.CancelledError:
            raise
        except Exception as failure:
            if attempt == len(BACKOFF_SECONDS):
                logger.warning(
                    "live socket: channel layer %s failed %d times: %r", what, attempt + 1, failure
                )
                return False
            pause = BACKOFF_SECONDS[attempt]
            await asyncio.sleep(pause * (1 + random.random() / 2))  # jitter, not a secret
    return False  # pragma: no cover  # the loop returns


class PatientRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]  # channels-redis is untyped
    """The Redis channel layer whose receive outlives Redis's hiccups: a connection error or timeout while a
    socket waits for its next message is logged and the wait taken up again after a pause, instead of ending
    the consumer and closing its socket (config/settings/live.py `redis_channel_layer`). A message Redis never
    handed over stays in its channel until the layer's expiry; the socket's recheck reads what it announced."""

    async def receive(self, channel: str) -> dict[str, object]:
        failures = 0
        while True:
            try:
                message: dict[str, object] = await super().receive(channel)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as failure:
                failures += 1
                pause = BACKOFF_SECONDS[min(failures, len(BACKOFF_SECONDS)) - 1]
                if failures == 1 or failures % 10 == 0:
                    logger.warning("live socket: channel layer receive failed (%d): %r", failures, failure)
                await asyncio.sleep(pause * (1 + random.random() / 2))  # jitter
                continue
            return message
