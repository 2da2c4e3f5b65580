"""`make run`: the API and the live room's sockets (uvicorn), a Celery worker, the practice bots' worker and beat on
the embedded default (SQLite, filesystem broker, the in-memory channel layer). The worker also takes the
notifications' queue; mails are written under var/mail/, and a VAPID key pair for Web Push is made on first start
(var/vapid-dev.json) unless the environment names one.

Each process runs in a session of its own so that a signal reaches it and everything it spawned (uvicorn's
reloader child included). Ctrl-C or SIGTERM stops them all; so does the death of any
one of them, since a half-running stack hides failures (tasks queued with no worker, no nightly jobs).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SETTINGS = "config.settings.local"
HOST = "127.0.0.1"
STOP_GRACE_SECONDS = 10.0
LOAD_DEMO = ROOT / "tournaments" / "management" / "commands" / "load_demo.py"
DEMO_FALLBACK = "(run `manage.py load_demo` to create the demo users; it prints their logins)"


@dataclass
class Child:
    name: str
    argv: list[str]
    process: subprocess.Popen[bytes] | None = None
    pump: threading.Thread | None = field(default=None, repr=False)

    def start(self, env: dict[str, str], output: IO[str], lock: threading.Lock) -> None:
        self.process = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.pump = threading.Thread(target=self._pump, args=(output, lock), daemon=True)
        self.pump.start()

    def _pump(self, output: IO[str], lock: threading.Lock) -> None:
        assert self.process is not None and self.process.stdout is not None
        for raw in iter(self.process.stdout.readline, b""):
            line = raw.decode("utf-8", errors="replace").rstrip("\n")
            with lock:
                print(f"[{self.name:6}] {line}", file=output, flush=True)

    def returncode(self) -> int | None:
        return None if self.process is None else self.process.poll()

    def signal_group(self, signum: int) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signum)

    def reap_group(self) -> None:
        """Kill whatever the child left behind in its session (e.g. the reloader's server process)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)


def build_children(*, port: int, reload: bool) -> list[Child]:
    python = sys.executable
    # uvicorn serves the ASGI application (config/asgi.py): the site over HTTP and the live room's sockets at
    # /ws/v1/ on the one port, as the production socket service does for sockets (docs/operations.md).
    web = [python, "-m", "uvicorn", "config.asgi:application", "--host", HOST, "--port", str(port)]
    web += ["--lifespan", "off", "--ws", "websockets", "--ws-max-size", "65536"]
    if reload:
        web.append("--reload")
    # solo pool: one task at a time is plenty locally, and SQLite prefers few writers.
    common = "-m celery -A config worker --pool=solo --loglevel=INFO"
    # gossip, mingle and heartbeats are broadcast chatter between workers; useless locally.
    common += " --without-gossip --without-mingle --without-heartbeat"
    queue = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
    # ...and the notifications' queue: production gives it a worker of its own (deploy/compose.yaml).
    notifications = os.environ.get("RAMINO_NOTIFICATIONS_QUEUE", "notifications")
    worker = f"{common} -Q {queue},{notifications} -n local@%h"
    # The practice bots' own queue and worker (docs/operations.md, "Queues"): no clock waits behind a bot.
    bots_queue = os.environ.get("RAMINO_PRACTICE_BOTS_QUEUE", "practice_bots")
    bots = f"{common} -Q {bots_queue} -n bots@%h"
    beat = (
        "-m celery -A config beat --loglevel=INFO --scheduler django_celery_beat.schedulers:DatabaseScheduler"
    )
    return [
        Child("web", web),
        Child("worker", [python, *worker.split()]),
        Child("bots", [python, *bots.split()]),
        Child("beat", [python, *beat.split()]),
    ]


def ensure_vapid(env: dict[str, str]) -> None:
    """Web Push on a laptop: the VAPID pair kept in var/vapid-dev.json, made on first start; a pair named by the
    environment is used as it is (docs/operations.md "Notifications")."""
    if env.get("RAMINO_VAPID_PRIVATE_KEY") and env.get("RAMINO_VAPID_PUBLIC_KEY"):
        return
    path = Path(env.get("RAMINO_VAR_DIR") or ROOT / "var") / "vapid-dev.json"
    try:
        pair = json.loads(path.read_text())
        private, public = str(pair["private"]), str(pair["public"])
    except (OSError, ValueError, KeyError):
        from notifications.vapid import generate

        private, public = generate()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"private": private, "public": public}))
        path.chmod(0o600)
    env["RAMINO_VAPID_PRIVATE_KEY"], env["RAMINO_VAPID_PUBLIC_KEY"] = private, public


def metrics_dir(env: dict[str, str]) -> Path:
    """The three processes' Prometheus metrics, in prometheus_client's multiprocess mode, so that the web
    process's /metrics shows the worker's task metrics too (docs/operations.md, "Metrics"); emptied at each start
    (the files of processes that are gone would otherwise be added up forever)."""
    folder = Path(env.get("RAMINO_VAR_DIR") or ROOT / "var") / "metrics"
    if folder.is_dir():
        for stale in folder.glob("*.db"):
            stale.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def demo_logins(path: Path = LOAD_DEMO) -> list[str]:
    """The demo logins, read from load_demo's constants (parsed, not imported: no Django in the launcher)."""
    try:
        tree = ast.parse(path.read_text(), filename=str(path))
    except (OSError, SyntaxError):
        return [DEMO_FALLBACK]
    constants: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            with contextlib.suppress(ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                constants[node.targets[0].id] = ast.literal_eval(node.value)
    lines: list[str] = []
    for role in ("ADMIN", "STAFF"):
        login = constants.get(role)
        if isinstance(login, tuple) and len(login) == 2:
            lines.append(f"{role.lower():7} {login[0]} / {login[1]}")
    players, password = constants.get("PLAYERS"), constants.get("DEMO_PASSWORD")
    if isinstance(players, tuple) and isinstance(password, str):
        lines.extend(f"player  {name} / {password}" for name in players)
    return lines or [DEMO_FALLBACK]


def wait_for_http(url: str, *, timeout: float, alive: threading.Event) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and alive.is_set():
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    return False


def stop_all(children: Sequence[Child]) -> None:
    for child in children:
        child.signal_group(signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    for child in children:
        if child.process is None:
            continue
        try:
            child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait()
    for child in children:
        child.reap_group()
        if child.pump is not None:
            child.pump.join(timeout=2)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    # Off by default: only the web process could reload, leaving the worker and beat on the old code.
    parser.add_argument("--reload", action="store_true", help="restart the web server when code changes")
    args = parser.parse_args(argv)

    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", DEFAULT_SETTINGS)
    env["PYTHONUNBUFFERED"] = "1"
    os.environ["DJANGO_SETTINGS_MODULE"] = env["DJANGO_SETTINGS_MODULE"]
    env.setdefault("PROMETHEUS_MULTIPROC_DIR", str(metrics_dir(env)))
    ensure_vapid(env)

    stopping = threading.Event()
    received: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        received.append(signum)
        stopping.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

    lock = threading.Lock()
    children = build_children(port=args.port, reload=args.reload)
    exit_code = 0
    try:
        for child in children:
            child.start(env, sys.stdout, lock)

        base = f"http://{HOST}:{args.port}"
        running = threading.Event()
        running.set()
        announcer = threading.Thread(
            target=announce, args=(base, running, lock, env["DJANGO_SETTINGS_MODULE"]), daemon=True
        )
        announcer.start()

        while not stopping.is_set():
            dead = [child for child in children if child.returncode() is not None]
            if dead:
                with lock:
                    for child in dead:
                        print(
                            f"[run   ] {child.name} exited with code {child.returncode()}; stopping.",
                            flush=True,
                        )
                exit_code = 1
                break
            stopping.wait(0.2)
        running.clear()
    finally:
        with lock:
            print("[run   ] stopping web, workers and beat ...", flush=True)
        stop_all(children)
    if received and exit_code == 0:
        return 0
    return exit_code


def announce(base: str, running: threading.Event, lock: threading.Lock, settings_module: str) -> None:
    if not wait_for_http(f"{base}/health/", timeout=60, alive=running):
        return
    logins = demo_logins()
    with lock:
        print(
            "\n".join(
                [
                    "",
                    f"Ramino is running ({settings_module}): {base}/",
                    f"  API:       {base}/api/v1/",
                    f"  API docs:  {base}/api/docs/",
                    f"  Sockets:   ws://{HOST}:{base.rsplit(':', 1)[-1]}/ws/v1/",
                    f"  Admin:     {base}/admin/",
                    "  Demo logins:",
                    *(f"    {line}" for line in logins),
                    "Press Ctrl-C to stop.",
                    "",
                ]
            ),
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
