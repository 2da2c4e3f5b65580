"""bench-live's followers' WebSocket client: thousands of sockets in one asyncio process, on one core shared with
the servers it measures.

The `websockets` client (a reading task per socket, each waking every half second to check whether it was done)
cost the followers so much CPU at 5,000 sockets that they answered uvicorn's pings late: the server closed
sockets, both sides lost messages and the run measured the followers' starvation (2026-12-06). Here a socket is
an `asyncio.Protocol` and nothing else: no task of its own; each frame is parsed in `data_received` and a text
message handed to a callback; a ping is answered there at once, before any message of the same read is looked
at, so a pong waits only for the event loop's next turn. Frames sent are masked with a zero key (RFC 6455
requires a key, not a random one: the payload goes as it is). Text and close frames; permessage-deflate offered
as browsers offer it (the server then keeps a compressor per socket, as for a player's browser: its memory and
CPU are measured as they are in production), the messages received inflated with zlib, those sent uncompressed.

`LoopWatch` measures how late the process's event loop runs (a pong is as late as that): reported by the
followers, and a lag close to uvicorn's ping timeout makes the run invalid."""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import time
import zlib
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

_ZERO_KEY = b"\x00\x00\x00\x00"
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


def frame(opcode: int, payload: bytes) -> bytes:
    """A client's frame: final, masked (zero key)."""
    head = bytes([0x80 | opcode])
    size = len(payload)
    if size < 126:
        head += bytes([0x80 | size])
    elif size < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", size)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", size)
    return head + _ZERO_KEY + payload


class Closed(Exception):
    """The socket closed: `code` the server's close code (1006: the connection dropped without one)."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"closed {code} {reason}".strip())
        self.code = code
        self.reason = reason


class LightSocket(asyncio.Protocol):
    """One client socket. Before `on_text` is set, messages queue for `recv()` (the sign-in's answers)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.on_text: Callable[[str], None] | None = None
        self.on_close: Callable[[Closed], None] | None = None
        self.pings = 0
        self.closed: Closed | None = None
        self._buffer = bytearray()
        self._upgraded = False
        self._opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue: asyncio.Queue[str | Closed] = asyncio.Queue()
        self._parts: list[bytes] = []
        self._compressed = False  # the message being received
        self._deflate = False  # permessage-deflate agreed
        self._fresh_each = False  # server_no_context_takeover: a new inflater per message
        self._inflate: Any = None

    # ------------------------------------------------------------------------------------------ asyncio's calls

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._upgraded:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self._buffer[:end]).lower()
            status = bytes(self._buffer[: self._buffer.find(b"\r\n")])
            del self._buffer[: end + 4]
            self._deflate = b"permessage-deflate" in head
            self._fresh_each = b"server_no_context_takeover" in head
            self._inflate = zlib.decompressobj(-15) if self._deflate else None
            if b" 101 " not in status + b" ":
                self._fail(Closed(1002, status.decode("latin-1")))
                return
            self._upgraded = True
            if not self._opened.done():
                self._opened.set_result(None)
        self._frames()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(Closed(1006, str(exc or "")) if self.closed is None else self.closed)

    # ------------------------------------------------------------------------------------------------ frames

    def _frames(self) -> None:
        buffer = self._buffer
        at = 0
        while len(buffer) - at >= 2:
            first, second = buffer[at], buffer[at + 1]
            size = second & 0x7F
            head = 2
            if size == 126:
                if len(buffer) - at < 4:
                    break
                size = struct.unpack_from("!H", buffer, at + 2)[0]
                head = 4
            elif size == 127:
                if len(buffer) - at < 10:
                    break
                size = struct.unpack_from("!Q", buffer, at + 2)[0]
                head = 10
            if len(buffer) - at < head + size:
                break
            payload = bytes(buffer[at + head : at + head + size])  # a server's frames are not masked
            at += head + size
            self._frame(first & 0x80 != 0, first & 0x0F, payload, first & 0x40 != 0)
        del buffer[:at]

    def _frame(self, final: bool, opcode: int, payload: bytes, rsv1: bool = False) -> None:
        if opcode == OP_PING:
            self.pings += 1
            self._write(frame(OP_PONG, payload))
            return
        if opcode == OP_CLOSE:
            code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
            reason = payload[2:].decode("utf-8", "replace")
            if self.closed is None:
                self.closed = Closed(code, reason)
                self._write(frame(OP_CLOSE, payload[:2]))
            if self.transport is not None:
                self.transport.close()
            return
        if opcode in (OP_TEXT, OP_BINARY, OP_CONT):
            if opcode != OP_CONT:
                self._compressed = rsv1 and self._deflate
            self._parts.append(payload)
            if not final:
                return
            data = b"".join(self._parts)
            self._parts.clear()
            if self._compressed:
                if self._fresh_each:
                    self._inflate = zlib.decompressobj(-15)
                data = self._inflate.decompress(data + b"\x00\x00\xff\xff")
            text = data.decode("utf-8")
            if self.on_text is not None:
                self.on_text(text)
            else:
                self._queue.put_nowait(text)

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def _fail(self, closed: Closed) -> None:
        if self.closed is None:
            self.closed = closed
        if not self._opened.done():
            self._opened.set_exception(self.closed)
        self._queue.put_nowait(self.closed)
        callback, self.on_close = self.on_close, None
        if callback is not None:
            callback(self.closed)

    # ------------------------------------------------------------------------------------------- the caller's

    def send(self, text: str) -> None:
        self._write(frame(OP_TEXT, text.encode("utf-8")))

    async def recv(self) -> str:
        got = await self._queue.get()
        if isinstance(got, Closed):
            raise got
        return got

    async def close(self, timeout: float = 10.0) -> None:
        """Close (1000) and wait for the server's close, at most `timeout` seconds."""
        self.on_close = None
        if self.transport is None or self.transport.is_closing():
            return
        self.closed = self.closed or Closed(1000, "closed by the client")
        self._write(frame(OP_CLOSE, struct.pack("!H", 1000)))
        deadline = time.monotonic() + timeout
        while not self.transport.is_closing() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        self.transport.close()


async def connect(url: str, timeout: float = 120.0) -> LightSocket:
    """A socket opened on `url` (ws://host:port/path) once the server answered the upgrade (101)."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    loop = asyncio.get_running_loop()
    _transport, socket = await asyncio.wait_for(loop.create_connection(LightSocket, host, port), timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    socket._write(
        (
            f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
        ).encode()
    )
    try:
        await asyncio.wait_for(asyncio.shield(socket._opened), timeout)
    except BaseException:
        if socket.transport is not None:
            socket.transport.close()
        raise
    return socket


class LoopWatch:
    """How late the event loop runs a timer due every `period` seconds: the worst lateness seen (seconds)."""

    def __init__(self, period: float = 0.2) -> None:
        self.period = period
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    def stop(self) -> float:
        if self._task is not None:
            self._task.cancel()
        return self.worst

    async def _run(self) -> None:
        while True:
            due = time.monotonic() + self.period
            await asyncio.sleep(self.period)
            self.worst = max(self.worst, time.monotonic() - due)


def closed_reason(closed: Any) -> str:
    return f"{getattr(closed, 'code', '?')} {getattr(closed, 'reason', '')}".strip()
