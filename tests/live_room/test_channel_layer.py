"""The channel layer on Redis as production configures it (config/settings/live.py `redis_channel_layer`), on the
test run's own Redis: a socket process's receive waits through idle periods without failing.

channels-redis blocks 5 s per BZPOPMIN, and redis-py 8 gives up reading after 5 s by default: each idle receive
raised `redis.exceptions.TimeoutError` as Redis answered, and the socket waiting on it was closed (seen by
`make bench-live`, 2026-12-06); and its pool of 100 connections raised at once when more were needed, as a
rush of sign-ins asks for (1,000 sockets opened at once)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
import redis.exceptions
from channels_redis.core import RedisChannelLayer
from django.conf import settings

from config.settings.base import redis_channel_layer
from live_room import layer as live_layer


def test_a_receive_on_the_redis_layer_outlives_the_blocking_read() -> None:
    config = redis_channel_layer(str(settings.CELERY_BROKER_URL))["CONFIG"]
    assert isinstance(config, dict)
    layer = RedisChannelLayer(**{**config, "prefix": f"ramino:test:{uuid.uuid4().hex[:12]}"})

    async def scenario() -> None:
        channel = await layer.new_channel()
        try:
            # Nothing comes for longer than one blocking read: only asyncio's own timeout ends the wait.
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(layer.receive(channel), 6.5)
            # A rush: many more at once than redis-py's default pool (100 connections) held.
            await asyncio.gather(*(layer.group_add(f"rush.{i % 10}", channel) for i in range(300)))
            await layer.send(channel, {"type": "topic.version", "version": 2})
            assert await asyncio.wait_for(layer.receive(channel), 5) == {
                "type": "topic.version",
                "version": 2,
            }
        finally:
            await layer.flush()
            await layer.close_pools()

    asyncio.run(scenario())


def test_the_layer_is_the_patient_one_and_its_receive_outlives_a_redis_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A receive whose Redis read fails (its pool exhausted, a connect timing out) waits and reads again
    instead of raising through the consumer, which closed its socket (live_room/layer.py)."""
    conf = redis_channel_layer(str(settings.CELERY_BROKER_URL))
    assert conf["BACKEND"] == "live_room.layer.PatientRedisChannelLayer"
    config = conf["CONFIG"]
    assert isinstance(config, dict)
    monkeypatch.setattr(live_layer, "BACKOFF_SECONDS", (0.01, 0.02))
    layer = live_layer.PatientRedisChannelLayer(
        **{**config, "prefix": f"ramino:test:{uuid.uuid4().hex[:12]}"}
    )
    failures = [2]
    original = RedisChannelLayer.receive_single

    async def flaky(self: Any, channel: str) -> Any:
        if failures[0] > 0:
            failures[0] -= 1
            raise redis.exceptions.ConnectionError("Timeout connecting to server")
        return await original(self, channel)

    monkeypatch.setattr(RedisChannelLayer, "receive_single", flaky)

    async def scenario() -> None:
        channel = await layer.new_channel()
        try:
            await layer.send(channel, {"type": "topic.version", "version": 3})
            assert await asyncio.wait_for(layer.receive(channel), 5) == {
                "type": "topic.version",
                "version": 3,
            }
            assert failures == [0]
        finally:
            await layer.flush()
            await layer.close_pools()

    asyncio.run(scenario())
