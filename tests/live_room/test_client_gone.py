"""A client that leaves before its socket is accepted, or before the sign-in deadline, costs no traceback and no
open-socket count (live_room/consumer.py `connect`, live_room/sign_in.py): uvicorn answers a send to a client
gone with `ClientDisconnected` (an OSError), which the sign-in clock logged as a failure with its traceback."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from uvicorn.protocols.utils import ClientDisconnected

from live_room.consumer import LiveSocket
from operations import metrics


def _socket(sent: list[dict[str, Any]], *, accepts: bool) -> LiveSocket:
    """A consumer as Channels makes it, whose client is gone: uvicorn refuses every send (the accept too, unless
    `accepts`)."""

    async def base_send(message: dict[str, Any]) -> None:
        if accepts and message["type"] == "websocket.accept":
            sent.append(message)
            return
        raise ClientDisconnected()

    socket = LiveSocket()
    socket.scope = {"type": "websocket", "path": "/ws/v1/", "headers": [], "client": ("127.0.0.1", 50000)}
    socket.channel_name = "test.client-gone!1"
    socket.channel_layer = None
    socket.base_send = base_send
    return socket


def _open_sockets() -> float:
    return float(metrics.SOCKETS_OPEN._value.get())


def test_a_client_gone_before_the_accept_opens_nothing(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        before = _open_sockets()
        socket = _socket([], accepts=False)
        await socket.connect()  # no exception: nothing to tell a client gone
        assert socket.shut and socket._ticker is None and not socket.counted
        assert _open_sockets() == before
        await socket.disconnect(1006)
        assert _open_sockets() == before

    with caplog.at_level(logging.WARNING):
        asyncio.run(scenario())
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def test_a_client_gone_before_signing_in_is_let_go_quietly(
    caplog: pytest.LogCaptureFixture, settings: Any
) -> None:
    settings.RAMINO_SOCKET_AUTH_SECONDS = 0.1

    async def scenario() -> None:
        before = _open_sockets()
        sent: list[dict[str, Any]] = []
        socket = _socket(sent, accepts=True)
        await socket.connect()
        assert [m["type"] for m in sent] == ["websocket.accept"] and _open_sockets() == before + 1
        ticker = socket._ticker
        assert ticker is not None
        await asyncio.wait_for(asyncio.shield(ticker), 5)  # the deadline passes; the refusal's send fails
        assert socket.shut
        await socket.disconnect(1006)
        assert _open_sockets() == before

    with caplog.at_level(logging.WARNING):
        asyncio.run(scenario())
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
