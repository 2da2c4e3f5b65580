"""The socket's flood limits (docs/api.md "Live socket", "Limits"): sockets per player and per address, messages
per second per socket; over a limit the socket is told why with a stable code and closed with 4429, and nothing
else changes (the sockets already open go on, and a closed one frees its place)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from channels.testing.websocket import WebsocketCommunicator

from config.asgi import application
from live_room import flood
from tests.live_room.sockets import TIMEOUT, closed_with, opened, receive, signed_in, token_for

pytestmark = pytest.mark.django_db(transaction=True)


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


async def _from(address: str) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, "/ws/v1/")
    socket.scope["client"] = (address, 40000)
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    return socket


async def _still_open(socket: WebsocketCommunicator) -> None:
    await socket.send_json_to({"type": "ping"})
    assert await receive(socket) == {"type": "pong"}


def test_a_player_holds_at_most_the_limit_of_sockets(make_player: Any, settings: Any) -> None:
    settings.RAMINO_SOCKET_MAX_PER_USER = 2
    ann = make_player("ann")
    bob = make_player("bob")

    async def scenario() -> None:
        first, second = await signed_in(ann), await signed_in(ann)
        third = await opened()
        await third.send_json_to({"type": "auth", "token": await token_for(ann)})
        error = await receive(third)
        assert (error["type"], error["code"], error["details"]) == (
            "error",
            "socket.too_many",
            {"limit": 2, "scope": "user"},
        )
        assert await closed_with(third) == flood.CLOSE_TOO_MANY
        # Nothing else changed: the two open sockets go on, another player is not counted with ann.
        await _still_open(first)
        await _still_open(second)
        other = await signed_in(bob)
        # A closed socket frees its place.
        await first.disconnect()
        again = await signed_in(ann)
        for socket in (second, other, again):
            await _still_open(socket)
            await socket.disconnect()

    run(scenario)


def test_an_address_holds_at_most_the_limit_of_sockets(make_player: Any, settings: Any) -> None:
    settings.RAMINO_SOCKET_MAX_PER_ADDRESS = 2
    ann = make_player("ann")

    async def scenario() -> None:
        first = await _from("192.0.2.7")
        second = await _from("192.0.2.7")
        third = await _from("192.0.2.7")
        error = await receive(third)
        assert (error["code"], error["details"]) == ("socket.too_many", {"limit": 2, "scope": "address"})
        assert await closed_with(third) == flood.CLOSE_TOO_MANY
        # Another address is not counted with it; the first two are open still.
        elsewhere = await _from("192.0.2.8")
        for socket in (first, second, elsewhere):
            await socket.send_json_to({"type": "auth", "token": await token_for(ann)})
            assert (await receive(socket))["type"] == "welcome"
            await _still_open(socket)
            await socket.disconnect()

    run(scenario)


def test_a_socket_sending_too_fast_is_closed(make_player: Any, settings: Any) -> None:
    settings.RAMINO_SOCKET_MESSAGES_PER_SECOND = 5
    ann = make_player("ann")

    async def scenario() -> None:
        calm = await signed_in(ann)
        noisy = await signed_in(ann)
        # The sign-in was one message; a burst of twice the rate is allowed, then no more.
        for _ in range(9):
            await noisy.send_json_to({"type": "ping"})
        for _ in range(9):
            assert await receive(noisy) == {"type": "pong"}
        await noisy.send_json_to({"type": "ping"})
        error = await receive(noisy)
        assert (error["code"], error["details"]) == ("socket.flood", {"per_second": 5.0})
        assert await closed_with(noisy) == flood.CLOSE_TOO_MANY
        # The player's other socket is not touched.
        await _still_open(calm)
        await calm.disconnect()

    run(scenario)


def test_the_limit_messages_are_in_the_sockets_language(make_player: Any, settings: Any) -> None:
    settings.RAMINO_SOCKET_MAX_PER_ADDRESS = 0

    async def scenario() -> None:
        socket = await opened(**{"accept-language": "it"})
        error = await receive(socket)
        assert error["code"] == "socket.too_many"
        assert "indirizzo" in error["message"], error
        assert await closed_with(socket) == flood.CLOSE_TOO_MANY

    run(scenario)


def test_the_open_sockets_are_counted_on_redis_across_processes(settings: Any) -> None:
    """With the channel layer on Redis every socket process sees the same counts (a sorted set per key whose
    claims run out by themselves); the test's own Redis database stands in for the deployment's."""
    settings.CHANNEL_LAYER_URL = settings.CELERY_BROKER_URL
    # The suite runs on a real Redis broker (it fails, never skips, without one: README).
    assert str(settings.CHANNEL_LAYER_URL).startswith("redis://"), settings.CHANNEL_LAYER_URL
    settings.RAMINO_SOCKET_MAX_PER_ADDRESS = 1
    scope = {"client": ("198.51.100.9", 1), "headers": []}

    async def scenario() -> None:
        one = flood.SocketGuard(member="process-a.socket-1", scope=scope)
        two = flood.SocketGuard(member="process-b.socket-1", scope=scope)
        try:
            assert await one.opened() is None
            refused = await two.opened()
            assert refused is not None and refused.code == "socket.too_many"
            await one.closed()
            assert await two.opened() is None
        finally:
            await one.closed()
            await two.closed()

    run(scenario)


def test_redis_failing_the_counts_is_never_worth_a_socket(
    make_player: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis's pool exhausted (`MaxConnectionsError`, seen at 5,000 sockets by `make bench-live`): the claim lets
    the socket in, the renewal and the release are logged and left for later; the socket stays open."""
    import redis.exceptions

    class Failing:
        calls: list[str] = []

        async def claim(self, key: str, member: str, limit: int) -> bool:
            self.calls.append("claim")
            raise redis.exceptions.MaxConnectionsError("Too many connections")

        async def renew(self, keys: list[str], member: str) -> None:
            self.calls.append("renew")
            raise redis.exceptions.MaxConnectionsError("Too many connections")

        async def renew_many(self, claims: list[tuple[list[str], str]]) -> None:
            # The process's sweep renews all of its sockets' claims at once.
            self.calls.append("renew")
            raise redis.exceptions.MaxConnectionsError("Too many connections")

        async def release(self, keys: list[str], member: str) -> None:
            self.calls.append("release")
            raise redis.exceptions.ConnectionError("Timeout connecting to server")

    failing = Failing()
    monkeypatch.setattr(flood, "_counts", lambda: failing)
    monkeypatch.setattr(flood, "CLAIM_SECONDS", 0.3)  # renewed every 0.1 s
    ann = make_player("ann")

    async def scenario() -> None:
        socket = await signed_in(ann)
        await asyncio.sleep(0.5)
        await _still_open(socket)
        assert {"claim", "renew"} <= set(failing.calls)
        await socket.disconnect()
        assert "release" in failing.calls

    run(scenario)
