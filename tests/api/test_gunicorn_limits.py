"""Every answer over real HTTP is the API's envelope (issue 19, defect 5): a real gunicorn, started with
deploy/gunicorn.conf.py on a free port, lets Django answer an over-long query (414) or header (431) with its own
limits (api/boundary.py), and what gunicorn still refuses itself (past its ceilings, a malformed request)
it answers as JSON too, never in HTML."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from api.boundary import MAX_HEADER_LENGTH, MAX_URI_LENGTH
from tests.conftest import ROOT, worker_env

# The gunicorn fixture reads the test database's name, which pytest-django sets up for tests that use it.
pytestmark = pytest.mark.django_db

HOST = "127.0.0.1"


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def error(self) -> dict[str, Any]:
        assert self.headers.get("content-type", "").startswith("application/json"), (self.status, self.body)
        envelope = json.loads(self.body)
        assert set(envelope) == {"error"}, envelope
        error: dict[str, Any] = envelope["error"]
        assert set(error) == {"code", "message", "details"}, error
        return error


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _dechunked(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, body = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, body = out + body[:size], body[size + 2 :]
    return out


def _exchange(port: int, request: bytes) -> Answer:
    """Send raw bytes and read the answer until the server closes the connection (every request here asks
    it to, and gunicorn closes after an error of its own)."""
    with socket.create_connection((HOST, port), timeout=10) as sock:
        sock.sendall(request)
        chunks: list[bytes] = []
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        body = _dechunked(body)
    return Answer(status=int(lines[0].split()[1]), headers=headers, body=body)


def _get(port: int, target: str, *headers: str) -> Answer:
    lines = [f"GET {target} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close", *headers, "", ""]
    return _exchange(port, "\r\n".join(lines).encode("latin-1"))


@pytest.fixture(scope="module")
def gunicorn(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    from django.db import connection

    port = _free_port()
    log_path: Path = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    env = dict(
        worker_env(connection.settings_dict["NAME"]),
        GUNICORN_BIND=f"{HOST}:{port}",
        GUNICORN_WORKERS="1",
        GUNICORN_THREADS="2",
        GUNICORN_LOG_LEVEL="warning",
    )
    env.pop("GUNICORN_CONTROL_SOCKET", None)
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                str(ROOT / "deploy" / "gunicorn.conf.py"),
                "config.wsgi",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited early:\n{log_path.read_text()[-3000:]}")
            try:
                if _get(port, "/health/").status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer /health/:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.2)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def test_django_answers_a_query_over_its_limit_with_414(gunicorn: int) -> None:
    fits = "/api/v1/tournaments/?note="  # a parameter the view ignores (`game` is one of the presets)
    assert _get(gunicorn, fits + "x" * (MAX_URI_LENGTH - len(fits))).status == 200
    answer = _get(gunicorn, fits + "x" * 5000)
    assert answer.status == 414
    assert answer.error() == {
        "code": "request.uri_too_long",
        "message": answer.error()["message"],
        "details": {"limit": MAX_URI_LENGTH},
    }


def test_django_answers_a_header_over_its_limit_with_431(gunicorn: int) -> None:
    assert _get(gunicorn, "/api/v1/tournaments/", "X-Note: " + "x" * (MAX_HEADER_LENGTH - 20)).status == 200
    answer = _get(gunicorn, "/api/v1/tournaments/", "X-Note: " + "x" * 10_000)
    assert answer.status == 431
    assert answer.error()["code"] == "request.headers_too_large"
    assert answer.error()["details"] == {"header": "X-Note", "limit": MAX_HEADER_LENGTH}


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        # Past gunicorn's own ceilings: its answers, in the envelope.
        (
            b"GET /api/v1/tournaments/?game=" + b"x" * 9000 + b" HTTP/1.1\r\nHost: h\r\n\r\n",
            414,
            "request.uri_too_long",
        ),
        (
            b"GET / HTTP/1.1\r\nHost: h\r\nX-Note: " + b"x" * 40_000 + b"\r\n\r\n",
            431,
            "request.headers_too_large",
        ),
        (
            b"GET / HTTP/1.1\r\nHost: h\r\n" + b"".join(b"X-N%d: 1\r\n" % i for i in range(120)) + b"\r\n",
            431,
            "request.headers_too_large",
        ),
        # Not HTTP at all, or a header gunicorn cannot read.
        (b"NONSENSE\r\n\r\n", 400, "request.malformed"),
        (b"GET / HTTP/1.1\r\nHost: h\r\nX-Note: a\x00b\r\n\r\n", 400, "request.malformed"),
        (b"GET / HTTP/1.1\r\nHost: h\r\nBad Header: 1\r\n\r\n", 400, "request.malformed"),
    ],
    ids=["request-line", "header-field", "header-count", "not-http", "nul-in-header", "bad-header-name"],
)
def test_what_gunicorn_refuses_itself_is_the_envelope(
    gunicorn: int, request_bytes: bytes, status: int, code: str
) -> None:
    answer = _exchange(gunicorn, request_bytes)
    assert answer.status == status, answer
    assert answer.error()["code"] == code


def test_a_nul_in_a_query_and_a_deep_body_over_http(gunicorn: int) -> None:
    nul = _get(gunicorn, "/api/v1/tournaments/?game=%00")
    assert nul.status == 400 and nul.error()["details"] == {"parameter": "game"}
    body = b"[" * 1000 + b"]" * 1000
    request = (
        b"POST /api/v1/auth/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    ) + body
    deep = _exchange(gunicorn, request)
    assert deep.status == 400 and deep.error()["code"] == "request.malformed"
