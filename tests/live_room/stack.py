"""A real uvicorn process serving the ASGI application (config/asgi.py: HTTP and `/ws/v1/`) on the test database,
for the end-to-end and browser tests of the live room."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import requests

from tests.conftest import ROOT

UVICORN = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1"]
UVICORN += ["--lifespan", "off", "--ws", "websockets"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def uvicorn(env: dict[str, str], log_path: Path, *, access_log: bool = False) -> Iterator[str]:
    """uvicorn with `env` (tests.conftest.worker_env and more) until the block ends; yields its base URL. Its
    output, the access log when asked, goes to `log_path`."""
    port = free_port()
    argv = [*UVICORN, "--port", str(port)] + ([] if access_log else ["--no-access-log"])
    with log_path.open("wb") as log:
        server = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                assert server.poll() is None, log_path.read_text()
                try:
                    if requests.get(f"{base}/health/", timeout=2).status_code == 200:
                        break
                except requests.RequestException:
                    pass
                assert time.monotonic() < deadline, "uvicorn did not answer /health/"
                time.sleep(0.3)
            yield base
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
