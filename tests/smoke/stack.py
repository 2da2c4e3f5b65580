"""`make run` in a throwaway directory on a free port, and everything it started stopped again.

The stack is started by `make run` itself (migrate, load_demo, deploy/run_local.py), with only where its
data lives (RAMINO_VAR_DIR) and its port (PORT) changed, so the smoke test runs what a developer runs. The
database and broker are pinned to the embedded default so that a `.env` or an exported DATABASE_URL cannot
point the run at a real database.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
START_SECONDS = 180.0
STOP_SECONDS = 30.0
REAP_SECONDS = 10.0
LOGINS_SECONDS = 15.0
# Settings a developer's shell may export that would take the run off the embedded default.
CLEARED = ("DJANGO_SETTINGS_MODULE", "CACHE_URL", "CELERY_TASK_DEFAULT_QUEUE", "CELERY_TASK_ALWAYS_EAGER")

WORKER_READY = re.compile(r"^\[worker\] .* ready\.$", re.MULTILINE)
BEAT_STARTED = re.compile(r"^\[beat  \] .*beat: Starting\.\.\.$", re.MULTILINE)
# Django's, Celery's and uvicorn's log lines at ERROR or above, tracebacks, and 5xx answers in uvicorn's access
# log (`127.0.0.1:5000 - "GET /x HTTP/1.1" 500`).
ERROR_LINE = re.compile(
    r"Traceback \(most recent call last\)| (ERROR|CRITICAL)[ /:]|[\]-] \"[A-Z]+ [^\"]*\" 5\d\d "
)


class StackFailed(AssertionError):
    """The stack did not start, died, or misbehaved: the smoke run fails (it never skips)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


class Stack:
    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.database = data_dir / "ramino.sqlite3"
        self.log_path = data_dir / "run.log"
        self.env = {key: value for key, value in os.environ.items() if key not in CLEARED}
        self.env.update(
            RAMINO_VAR_DIR=str(data_dir),
            PORT=str(self.port),
            DATABASE_URL=f"sqlite:///{self.database}",
            CELERY_BROKER_URL="filesystem://",
            PYTHONUNBUFFERED="1",
            # bots read no results panel: the pause before each deal (10 s by default) kept short
            RAMINO_NEXT_ROUND_DELAY_SECONDS="3",
            # and the wait for a rebuy after a bust in the rebuy period (20 s by default): bots rebuy at once
            RAMINO_REBUY_WAIT_SECONDS="3",
            # a practice table's bots pause about this long before each move (1.2 s by default)
            RAMINO_PRACTICE_BOT_DELAY_SECONDS="0.2",
        )
        self.process: subprocess.Popen[bytes] | None = None
        # every process seen under `make run`: the launcher's children run in sessions of their own, which
        # a signal to make's group does not reach if the launcher itself dies first
        self.seen: dict[int, int] = {}
        self.leftovers: list[int] = []

    # --------------------------------------------------------------------------------------- start

    def start(self) -> None:
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                ["make", "--no-print-directory", "run"],
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            self.check_alive()
            self._note_processes()
            # web answers /ready/ (database and broker), the worker says "ready.", beat "Starting..."
            text = self.log()
            if WORKER_READY.search(text) and BEAT_STARTED.search(text) and self._answers("/ready/"):
                return
            time.sleep(0.5)
        raise StackFailed(f"`make run` did not come up within {START_SECONDS:.0f}s")

    def _answers(self, path: str) -> bool:
        try:
            with urllib.request.urlopen(self.base + path, timeout=5) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def errors(self) -> list[str]:
        """Lines of the stack's log that report a failure: an exception a retry or a 200 would hide."""
        return [line for line in self.log().splitlines() if ERROR_LINE.search(line)]

    def check_alive(self) -> None:
        if self.process is None or self.process.poll() is not None:
            code = None if self.process is None else self.process.returncode
            raise StackFailed(f"`make run` exited (code {code})")

    def logins(self) -> dict[str, tuple[str, str]]:
        """The demo logins load_demo printed (role -> (username, password))."""
        # load_demo's lines (some end with a note in brackets) come before the launcher's banner, which a
        # thread prints once the web process answers: wait a little for either rather than race the banner.
        deadline = time.monotonic() + LOGINS_SECONDS
        while True:
            found = re.findall(
                r"^\s+(admin|staff)\s+(\S+) / (\S+)(?:\s+\(.*\))?\s*$", self.log(), flags=re.MULTILINE
            )
            logins = {role: (username, password) for role, username, password in found}
            if set(logins) == {"admin", "staff"}:
                return logins
            if time.monotonic() >= deadline:
                raise StackFailed("load_demo printed no admin and staff logins")
            time.sleep(0.2)

    # ---------------------------------------------------------------------------------------- stop

    def stop(self) -> None:
        """SIGTERM to make's group (the launcher stops web, worker and beat), then SIGKILL to any group of
        a process seen under it that is still there."""
        if self.process is None:
            return
        self._note_processes()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        for pid, group in self.seen.items():
            if _alive(pid):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(group, signal.SIGKILL)
        # A process SIGKILLed a moment ago may still be running its exit on a loaded machine: give the kernel
        # a few seconds before calling it a leftover.
        deadline = time.monotonic() + REAP_SECONDS
        while any(_alive(pid) for pid in self.seen) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.leftovers = [pid for pid in self.seen if _alive(pid)]

    def _note_processes(self) -> None:
        if self.process is None:
            return
        for pid in _descendants(self.process.pid):
            with contextlib.suppress(ProcessLookupError):
                self.seen.setdefault(pid, os.getpgid(pid))


def _alive(pid: int) -> bool:
    """Running (a zombie has already exited: it only waits for its parent to read its status)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _descendants(root: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry.name)] = int(fields[1])
    found: list[int] = []
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found.extend(children)
        frontier.extend(children)
    return found
