"""The live room's sockets under load: a move's commit to its arrival at every follower, against a floor.

    make bench-live          # = DATABASE_URL=<test postgres> python -m tests.benchmarks.bench_live

What runs, all on 127.0.0.1 and all stopped at the end (also on failure):
- a scratch database `<name>_bench_live` (as bench-api's), ring tables of rummy500 set up through the services
  (bench_api._prepare), one Celery worker starting the next rounds, gunicorn serving the moves (as in
  production: the WSGI processes write, the socket tier reads), all with the channel layer on Redis
  (CHANNEL_LAYER_URL; default: the broker's Redis database, under the layer's own prefix);
- uvicorn serving config/asgi.py (`--uvicorn-workers` processes, `--ws websockets`, as deploy/compose.yaml);
- uvicorn serving the floor: `floor_application` below, a bare Channels consumer that joins a group and relays
  every group message to its socket, nothing else (no database, no authentication);
- follower processes (asyncio and the `websockets` client, many sockets each), bot client processes
  (bench_api's TableDriver: draw from the stock, discard the card drawn, over HTTP), each table's moves at least
  --move-interval seconds apart (2 s: a turn, a draw and a discard, every 4 s; 0: as fast as the bots can).
  Paced so that the followers, on the same cores, decode what they are sent as it comes: unpaced, at 1,000
  sockets and more the followers' backlog (seconds) was the latency measured, on the floor as on the live path.

For each load (--sockets, default 100, 1000 and 5000 open sockets, spread over the tables and their players):
- `live`: the followers open the sockets (auth with the player's token, subscribe to the table's game from
  version 0) and the uvicorn processes' RSS is read before and after (memory per open socket); the bots play
  for --duration seconds; each event's latency is its arrival at a follower minus the event's `at` (written in
  the move's transaction, just before its commit: the server's commit time, to within the commit itself).
  A socket the server closes (uvicorn's keep-alive, when a follower answers its ping late) is opened again and
  subscribes from the last version it saw, as the player client does (counted: `reconnects`). Then every
  socket's versions are checked against the REST read of the same player (topics.read): none missed, none
  repeated, in order.
- `floor`: as many sockets on the floor server, one group per table; this process sends each group a message
  as often as the live phase's moves came per table, stamped with the time of sending; latency = arrival minus
  that stamp; every socket must get every message once.
- `long-poll` (loads up to --longpoll-max): as many followers long-polling `GET /games/{id}/events/?wait=`
  (bench_api's watch loop, one thread and connection each) while the bots play; gunicorn lets threads - 1
  waiters per process wait and answers the rest at once with Retry-After: 1 (they poll once a second).
The open-file limit is raised to its hard limit (resource.setrlimit) here; the servers inherit it.

Options: --sockets 100,1000,5000 --tables 8 --players 4 --duration 10 --move-interval 2 --uvicorn-workers 2
--followers 1 --clients 2 --longpoll-max 5000 --keep --no-docs (do not update docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import http.client
import json
import math
import multiprocessing as mp
import os
import platform
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tests.benchmarks import live_client, tiny
from tests.benchmarks.scratch_db import recreate_database, scratch_url

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = "tests.benchmarks.bench_api_settings"
COMMAND = "make bench-live"
SECTION = "Live sockets"
GOAL_RATIO = 2.0  # p99 at the largest load at most twice the floor's
TINY_ARGS = ["--sockets", "6", "--tables", "1", "--players", "2", "--duration", "3", "--followers", "1",
             "--clients", "1", "--longpoll-max", "6", "--move-interval", "0.2", "--no-docs"]  # fmt: skip
# How long followers may take to catch up after the bots stop (the recheck would find a lost wake-up in 30 s).
SETTLE_SECONDS = 40.0
# Sockets opened at once by one follower process (the server's listen backlog is 2048).
OPENING_AT_ONCE = 50
# uvicorn's ping interval and timeout (its defaults); a follower's event loop this late (a quarter of it) may have
# answered a ping too late: the run is invalid.
PING_SECONDS = 20
LOOP_LAG_LIMIT_MS = PING_SECONDS * 1000 / 4


# ==================================================================================== the floor's server


def floor_application() -> Any:
    """The floor's ASGI application (`uvicorn --factory tests.benchmarks.bench_live:floor_application`): a bare
    Channels consumer on the same channel layer. A socket sends a group's number, joins that group, answers
    `joined`; each `floor.relay` message of the group is sent on as it came."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    import django

    django.setup()
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    class FloorConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
        group: str | None = None

        async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
            self.group = f"bench.floor.{int(text_data or 0)}"
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.send(text_data="joined")

        async def disconnect(self, code: int) -> None:
            if self.group is not None:
                await self.channel_layer.group_discard(self.group, self.channel_name)

        async def floor_relay(self, event: dict[str, Any]) -> None:
            await self.send(text_data=event["text"])

    return ProtocolTypeRouter({"websocket": URLRouter([path("floor/", FloorConsumer.as_asgi())])})


# ======================================================================================== the followers


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _opened(opener: Any, problems: list[str], attempts: int = 3) -> Any:
    """A socket from `opener()`, tried again twice (an overloaded server may close one before its sign-in);
    None, with the reason noted, when it never opens."""
    for attempt in range(attempts):
        try:
            return await opener()
        except Exception as exc:
            if attempt == attempts - 1:
                problems.append(f"not opened: {type(exc).__name__}: {str(exc)[:120]}")
    return None


class _Follower:
    """What one follower process found: the server's closes (a ping that timed out among them), the pings it
    answered, and how late its event loop ran (live_client.LoopWatch)."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.closes: list[str] = []
        self.watch = live_client.LoopWatch()
        self.watch.start()

    def report(self, sockets: list[Any], **figures: Any) -> dict[str, Any]:
        return {
            **figures,
            "problems": self.problems[:5],
            "server_closes": len(self.closes),
            "close_reasons": sorted(set(self.closes))[:5],
            "pings": sum(ws.pings for ws in sockets if ws is not None),
            "loop_lag_ms": self.watch.stop() * 1000,
        }


async def _follow_live(
    url: str, plan: list[tuple[int, str, str]], ready: Any, measure_from: Any, finals: Any, out: Any
) -> None:
    """Sockets following games: `plan` holds (game id, username, token) per socket. No task per socket: each
    message is handled in its socket's callback (live_client.py)."""
    import orjson

    follower = _Follower()
    versions: list[list[int]] = [[] for _ in plan]
    latencies: list[float] = []
    reconnects = [0]
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    sockets: list[Any] = [None] * len(plan)
    expected: dict[tuple[int, str], list[int]] = {}
    done = [False] * len(plan)
    left = [len(plan)]
    all_done = asyncio.Event()
    settle_deadline = [float("inf")]
    reopening: set[asyncio.Future[None]] = set()

    def finished(i: int) -> None:
        if not done[i]:
            done[i] = True
            left[0] -= 1
            if left[0] == 0:
                all_done.set()

    def check(i: int) -> None:
        if done[i] or not expected:
            return
        want = expected[(plan[i][0], plan[i][1])]
        seen = versions[i]
        if sockets[i] is None or not want or (seen and seen[-1] >= want[-1]):
            finished(i)

    def on_text(i: int, raw: str) -> None:
        now = time.time()
        message = orjson.loads(raw)
        kind = message.get("type")
        if kind == "events":
            start = measure_from.value
            seen = versions[i]
            for event in message["events"]:
                seen.append(int(event["version"]))
                at = datetime.fromisoformat(event["at"]).timestamp()
                if start and at >= start:
                    latencies.append((now - at) * 1000)
            check(i)
        elif kind not in ("subscribed", "pong", "presence"):
            follower.problems.append(raw[:200])

    def on_close(i: int, closed: Any) -> None:
        # The server closed it (a ping that timed out: uvicorn's 1011). As the player client does: opened again,
        # resuming after the last version seen; counted, and the run is invalid.
        follower.closes.append(live_client.closed_reason(closed))
        if not done[i]:
            reopening.add(asyncio.ensure_future(reopen(i)))

    async def open_one(i: int, after: int = 0) -> Any:
        game_id, _user, token = plan[i]
        async with gate:
            ws = await live_client.connect(url)
            ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
            welcome = orjson.loads(await asyncio.wait_for(ws.recv(), 300))
            if welcome.get("type") != "welcome":
                raise RuntimeError(f"auth refused: {welcome}")
            ws.on_text = functools.partial(on_text, i)
            ws.on_close = functools.partial(on_close, i)
            ws.send(orjson.dumps({"type": "subscribe", "topic": f"game:{game_id}", "after": after}).decode())
            return ws

    async def reopen(i: int) -> None:
        reconnects[0] += 1
        seen = versions[i]
        opening = _opened(functools.partial(open_one, i, seen[-1] if seen else 0), follower.problems)
        wait = settle_deadline[0] - time.monotonic()
        try:
            ws = await (asyncio.wait_for(opening, wait) if wait != float("inf") else opening)
        except TimeoutError:
            ws = None
        sockets[i] = ws
        if ws is None:  # counted: its later events are missed
            follower.problems.append(f"socket {i} closed at {time.time():.0f} and not opened again")
            finished(i)

    opened = await asyncio.gather(
        *(_opened(functools.partial(open_one, i), follower.problems) for i in range(len(plan)))
    )
    for i, ws in enumerate(opened):
        sockets[i] = sockets[i] or ws
    ready.put(sum(ws is not None for ws in opened))
    given = await asyncio.get_running_loop().run_in_executor(None, finals.get)
    expected.update({(int(g), u): v for (g, u), v in given})
    settle_deadline[0] = time.monotonic() + SETTLE_SECONDS
    for i in range(len(plan)):
        if opened[i] is None:
            finished(i)  # counted as not opened
        check(i)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(all_done.wait(), SETTLE_SECONDS)
    missed = repeated = 0
    for i, (game_id, username, _token) in enumerate(plan):
        if opened[i] is None:
            continue
        want = expected[(game_id, username)]
        got = versions[i]
        repeated += len(got) - len(set(got))
        if got != sorted(got):
            follower.problems.append(f"socket {i}: versions out of order")
        missed += len(set(want) - set(got))
    # Reported before the sockets close: closing thousands on a loaded machine outlasted the parent's wait.
    out.put(follower.report(sockets, latencies=latencies, missed=missed, repeated=repeated,
                            events=sum(len(v) for v in versions), reconnects=reconnects[0]))  # fmt: skip
    await _close_all(sockets)


async def _follow_floor(url: str, groups: list[int], ready: Any, finals: Any, out: Any) -> None:
    """Sockets on the floor's server, socket i in group groups[i]."""
    follower = _Follower()
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    seqs: list[list[int]] = [[] for _ in groups]
    latencies: list[float] = []
    sent: dict[int, int] = {}
    left = [len(groups)]
    done = [False] * len(groups)
    all_done = asyncio.Event()

    def finished(i: int) -> None:
        if not done[i]:
            done[i] = True
            left[0] -= 1
            if left[0] == 0:
                all_done.set()

    def on_text(i: int, raw: str) -> None:
        now = time.time()
        message = json.loads(raw)
        seqs[i].append(message["seq"])
        latencies.append((now - message["at"]) * 1000)
        if sent and len(seqs[i]) >= sent[groups[i]]:
            finished(i)

    def on_close(i: int, closed: Any) -> None:  # counted: its later messages are missed
        follower.closes.append(live_client.closed_reason(closed))
        finished(i)

    async def open_one(i: int) -> Any:
        async with gate:
            ws = await live_client.connect(url)
            ws.send(str(groups[i]))
            if await asyncio.wait_for(ws.recv(), 300) != "joined":
                raise RuntimeError("the floor did not join")
            ws.on_text = functools.partial(on_text, i)
            ws.on_close = functools.partial(on_close, i)
            return ws

    sockets = list(
        await asyncio.gather(
            *(_opened(functools.partial(open_one, i), follower.problems) for i in range(len(groups)))
        )
    )
    ready.put(sum(ws is not None for ws in sockets))
    given = await asyncio.get_running_loop().run_in_executor(None, finals.get)
    sent.update({int(g): n for g, n in given.items()})
    for i, ws in enumerate(sockets):
        if ws is None or len(seqs[i]) >= sent[groups[i]]:
            finished(i)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(all_done.wait(), SETTLE_SECONDS)
    missed = sum(max(0, sent[groups[i]] - len(set(s))) for i, s in enumerate(seqs) if sockets[i] is not None)
    repeated = sum(len(s) - len(set(s)) for s in seqs)
    out.put(follower.report(sockets, latencies=latencies, missed=missed, repeated=repeated,
                            events=sum(len(s) for s in seqs)))  # fmt: skip
    await _close_all(sockets)


async def _close_all(sockets: list[Any]) -> None:
    """Close the sockets together, each given 10 s for the server's answer."""
    await asyncio.gather(*(ws.close(10) for ws in sockets if ws is not None), return_exceptions=True)


def _follower_process(
    kind: str, url: str, plan: Any, ready: Any, measure_from: Any, finals: Any, out: Any
) -> None:
    # Forked with the parent's SIGTERM handler (sys.exit), which an asyncio loop waiting in a thread never ran.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _raise_open_files()
    try:
        if kind == "live":
            asyncio.run(_follow_live(url, plan, ready, measure_from, finals, out))
        else:
            asyncio.run(_follow_floor(url, plan, ready, finals, out))
    except Exception as exc:  # reported, not lost in a child
        ready.put(0)
        out.put({"latencies": [], "missed": 0, "repeated": 0, "problems": [f"{type(exc).__name__}: {exc}"],
                 "events": 0, "server_closes": 0, "close_reasons": [], "pings": 0, "loop_lag_ms": 0.0})  # fmt: skip


def _longpoll_process(port: int, plan: list[tuple[int, str]], duration: float, start: Any, out: Any) -> None:
    from tests.benchmarks.bench_api import HttpTransport, Tally, _watch_loop

    tallies = [Tally() for _ in plan]
    transports = [HttpTransport("127.0.0.1", port) for _ in plan]
    start.wait(timeout=120)
    deadline = time.monotonic() + duration
    threads = [
        threading.Thread(target=_watch_loop, args=(t, game, token, tally, deadline), daemon=True)
        for (game, token), t, tally in zip(plan, transports, tallies, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=duration + 60)
    total = Tally()
    for tally in tallies:
        total.merge(tally)
    out.put({"latencies": total.watch_ms, "refused": total.watch_refused, "errors": total.errors,
             "polls": sum(v for k, v in total.statuses.items() if k.startswith("watch"))})  # fmt: skip


# ============================================================================================ helpers


def _raise_open_files() -> tuple[int, int]:
    """The open-file limit raised to its hard limit (each socket is a descriptor at both ends)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def _group_rss_mb(pgid: int) -> float:
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.getpgid(int(entry)) != pgid:
                continue
            for line in Path(f"/proc/{entry}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return total / 1024


def _group_cpu(pgid: int) -> float:
    from tests.benchmarks.bench_api import _proc_stats

    return sum(seconds for _cmd, group, seconds in _proc_stats() if group == pgid)


def _wait_http(port: int, path: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited early:\n{log.read_text()[-3000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"no answer on port {port}; see {log}")


def _uvicorn(services: Any, name: str, app: list[str], port: int, workers: int) -> int:
    argv = [sys.executable, "-m", "uvicorn", *app, "--host", "127.0.0.1", "--port", str(port),
            "--workers", str(workers), "--lifespan", "off", "--ws", "websockets", "--no-access-log",
            "--log-level", "warning", "--backlog", "4096",
            # uvicorn's keep-alive as in production (a ping every 20 s, the socket closed when its pong is 20 s
            # late): the followers answer a ping as soon as their event loop turns (live_client.py), and a socket
            # the server closed makes the run invalid (_validity).
            "--ws-ping-interval", str(PING_SECONDS), "--ws-ping-timeout", str(PING_SECONDS)]  # fmt: skip
    # The sign-in deadline (10 s by default) raised: thousands of sockets opened at once on a loaded machine
    # wait longer than that for their sign-in's read; the benchmark measures delivery, not the opening rush.
    env = dict(services.env, DATABASE_CONN_MAX_AGE="3600", RAMINO_SOCKET_AUTH_SECONDS="300")
    if name == "uvicorn-live":
        # The socket processes' metrics in files of their own, read after each phase (_fanout_buckets).
        FANOUT_DIR.clear()
        metrics_dir = services.workdir / "metrics-live"
        metrics_dir.mkdir(exist_ok=True)
        FANOUT_DIR.append(metrics_dir)
        env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
    log = services._spawn(name, argv, env)
    _wait_http(port, "/health/", services.procs[name], log)
    time.sleep(1.0 if workers > 1 else 0.2)  # every worker process up
    return int(services.procs[name].pid)


def _expected_versions(setups: list[dict[str, Any]]) -> list[tuple[tuple[int, str], list[int]]]:
    """Each (game, player)'s versions as the REST read gives them to that player."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from live_room import topics

    found = []
    for setup in setups:
        topic = topics.parse(f"game:{setup['game_id']}")
        for username in setup["tokens"]:
            user = get_user_model().objects.get(username=username)
            versions: list[int] = []
            after = 0
            while True:
                page = topics.read(topic=topic, user=user, after=after)
                versions += [int(e["version"]) for e in page.events]
                if len(page.events) < topics.PAGE:
                    break
                after = versions[-1]
            found.append(((setup["game_id"], username), versions))
    connection.close()
    return found


def _collect(out: Any, count: int, timeout: float) -> list[dict[str, Any]]:
    return [out.get(timeout=timeout) for _ in range(count)]


def _start_followers(
    kind: str, url: str, plans: list[Any], measure_from: Any
) -> tuple[list[mp.Process], Any, Any, int]:
    ready: Any = mp.Queue()
    finals: Any = mp.Queue()
    out: Any = mp.Queue()
    procs = [
        mp.Process(
            target=_follower_process, args=(kind, url, plan, ready, measure_from, finals, out), daemon=True
        )
        for plan in plans
        if plan
    ]
    for proc in procs:
        proc.start()
    opened = sum(ready.get(timeout=600) for _ in procs)
    return procs, finals, out, opened


def _validity(part: dict[str, Any], n: int) -> str:
    """Why a phase's figures are invalid ('' when they stand): a socket not opened, an event missed or repeated,
    a socket the server closed (a ping that timed out: the followers starved), a follower's event loop late
    enough to have answered a ping late, or any other problem a follower noted."""
    why = []
    if part["opened"] != n:
        why.append(f"opened {part['opened']:,} of {n:,}")
    if part["missed"] or part["repeated"]:
        why.append(f"missed {part['missed']:,}, repeated {part['repeated']:,} events")
    if part["server_closes"]:
        why.append(
            f"{part['server_closes']:,} sockets closed by the server ({', '.join(part['close_reasons'])})"
        )
    if part["loop_lag_ms"] > LOOP_LAG_LIMIT_MS:
        why.append(
            f"a follower's event loop ran {part['loop_lag_ms']:,.0f} ms late (pings may have timed out)"
        )
    if part["problems"]:
        why.append(f"problems {part['problems']}")
    return "; ".join(why)


def _summarise(parts: list[dict[str, Any]]) -> dict[str, Any]:
    latencies = [x for p in parts for x in p["latencies"]]
    return {
        "reconnects": sum(p.get("reconnects", 0) for p in parts),
        "server_closes": sum(p["server_closes"] for p in parts),
        "close_reasons": sorted({r for p in parts for r in p["close_reasons"]})[:5],
        "pings": sum(p["pings"] for p in parts),
        "loop_lag_ms": max((p["loop_lag_ms"] for p in parts), default=0.0),
        "p50": _pct(latencies, 0.5),
        "p99": _pct(latencies, 0.99),
        "deliveries": len(latencies),
        "missed": sum(p["missed"] for p in parts),
        "repeated": sum(p["repeated"] for p in parts),
        "problems": [x for p in parts for x in p["problems"]][:5],
    }


def _paced_client_process(
    tables: list[dict[str, Any]], port: int, duration: float, interval: float, start: Any, out: Any
) -> None:
    """bench_api's client process (a thread and a connection per table), each table's moves at least
    `interval` seconds apart."""
    from tests.benchmarks.bench_api import HttpTransport, TableDriver, Tally

    class PacedDriver(TableDriver):
        next_at = 0.0

        def _post(self, player: str, move: dict[str, Any], expected_version: int) -> tuple[int, Any]:
            wait = min(self.next_at, self.deadline) - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self.next_at = time.monotonic() + interval
            return super()._post(player, move, expected_version)

    transports = [HttpTransport("127.0.0.1", port) for _ in tables]
    tallies = [Tally() for _ in tables]
    start.wait(timeout=120)
    deadline = time.monotonic() + duration
    drivers = [
        PacedDriver(
            t, game_id=table["game_id"], tokens=table["tokens"], policy="post", tally=tally, deadline=deadline
        )
        for table, t, tally in zip(tables, transports, tallies, strict=True)
    ]
    threads = [threading.Thread(target=d.run, daemon=True) for d in drivers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=duration + 60)
    for transport in transports:
        transport.close()
    total = Tally()
    for tally in tallies:
        total.merge(tally)
    out.put({"moves": total.moves, "errors": total.errors, "post_ms": total.post_ms})


def _bots(
    setups: list[dict[str, Any]], port: int, duration: float, clients: int, interval: float
) -> dict[str, Any]:
    start: Any = mp.Event()
    out: Any = mp.Queue()
    shares = [setups[i::clients] for i in range(clients) if setups[i::clients]]
    procs = [
        mp.Process(target=_paced_client_process, args=(s, port, duration, interval, start, out))
        for s in shares
    ]
    for proc in procs:
        proc.start()
    start.set()
    parts = _collect(out, len(procs), duration + 120)
    for proc in procs:
        proc.join(timeout=30)
    errors = [e for p in parts for e in p["errors"]]
    return {
        "moves": sum(p["moves"] for p in parts),
        "errors": errors,
        "post_ms": [x for p in parts for x in p["post_ms"]],
    }


# ============================================================================================ phases


# Where the live socket processes write their metrics (prometheus_client's multiprocess mode).
FANOUT_DIR: list[Path] = []


def _fanout_buckets() -> dict[float, float]:
    """The socket processes' `ramino_socket_fanout_seconds` so far (a version's commit to its events sent on one
    socket, live_room/consumer.py `topic_version`): cumulative count per bucket's upper bound."""
    if not FANOUT_DIR:
        return {}
    from prometheus_client import CollectorRegistry, multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=str(FANOUT_DIR[0]))  # type: ignore[no-untyped-call]
    buckets: dict[float, float] = {}
    for family in registry.collect():
        if family.name == "ramino_socket_fanout_seconds":
            for sample in family.samples:
                if sample.name.endswith("_bucket"):
                    bound = float(sample.labels["le"])
                    buckets[bound] = buckets.get(bound, 0.0) + sample.value
    return buckets


def _fanout_quantiles(before: dict[float, float], after: dict[float, float]) -> tuple[float, float, int]:
    """The phase's server-side commit → sent p50 and p99 (ms, each a bucket's upper bound) and its count."""
    bounds = sorted(after)
    counts = [after[b] - before.get(b, 0.0) for b in bounds]
    total = counts[-1] if counts else 0.0
    if total <= 0:
        return math.nan, math.nan, 0

    def quantile(q: float) -> float:
        for bound, cumulative in zip(bounds, counts, strict=True):
            if cumulative >= q * total:
                return bound * 1000
        return math.inf

    return quantile(0.5), quantile(0.99), int(total)


def run_live(
    setups: list[dict[str, Any]], n: int, *, ws_port: int, port: int, args: Any, live_pgid: int
) -> dict[str, Any]:
    players = [(s["game_id"], u, t) for s in setups for u, t in sorted(s["tokens"].items())]
    plan = [players[i % len(players)] for i in range(n)]
    plans = [plan[f :: args.followers] for f in range(args.followers)]
    measure_from: Any = mp.Value("d", 0.0)
    rss_before = _group_rss_mb(live_pgid)
    began = time.monotonic()
    procs, finals, out, opened = _start_followers(
        "live", f"ws://127.0.0.1:{ws_port}/ws/v1/", plans, measure_from
    )
    open_seconds = time.monotonic() - began
    time.sleep(2.0)  # the subscriptions' backlogs sent
    rss_after = _group_rss_mb(live_pgid)
    cpu_before = _group_cpu(live_pgid)
    measure_from.value = time.time()
    fanout_before = _fanout_buckets()
    bots = _bots(setups, port, args.duration, args.clients, args.move_interval)
    cpu = _group_cpu(live_pgid) - cpu_before
    time.sleep(2.0)  # the worker's next deal, if a round ended at the very end
    expected = _expected_versions(setups)
    for _proc in procs:
        finals.put(expected)
    parts = _collect(out, len(procs), SETTLE_SECONDS + 120)
    for proc in procs:
        proc.join(timeout=30)
    result = _summarise(parts)
    fanout_p50, fanout_p99, fanout_count = _fanout_quantiles(fanout_before, _fanout_buckets())
    result.update(
        fanout_p50=fanout_p50,
        fanout_p99=fanout_p99,
        fanout_count=fanout_count,
        opened=opened,
        open_seconds=open_seconds,
        rss_per_socket_kb=(rss_after - rss_before) * 1024 / max(opened, 1),
        rss_before=rss_before,
        rss_after=rss_after,
        moves=bots["moves"],
        bot_errors=bots["errors"][:3],
        move_p50=_pct(bots["post_ms"], 0.5),
        server_cpu=cpu,
    )
    return result


def run_floor(
    n: int, *, floor_port: int, n_groups: int, rate_per_group: float, args: Any, floor_pgid: int
) -> dict[str, Any]:
    from channels.layers import get_channel_layer

    groups = [i % n_groups for i in range(n)]
    plans = [groups[f :: args.followers] for f in range(args.followers)]
    measure_from: Any = mp.Value("d", 0.0)
    rss_before = _group_rss_mb(floor_pgid)
    procs, finals, out, opened = _start_followers(
        "floor", f"ws://127.0.0.1:{floor_port}/floor/", plans, measure_from
    )
    rss_after = _group_rss_mb(floor_pgid)
    cpu_before = _group_cpu(floor_pgid)
    sent = dict.fromkeys(range(n_groups), 0)

    async def publish() -> None:
        layer = get_channel_layer()
        interval = 1.0 / max(rate_per_group * n_groups, 0.5)
        deadline = time.monotonic() + args.duration
        g = 0
        while time.monotonic() < deadline:
            text = json.dumps({"seq": sent[g], "at": time.time()})
            await layer.group_send(f"bench.floor.{g}", {"type": "floor.relay", "text": text})
            sent[g] += 1
            g = (g + 1) % n_groups
            await asyncio.sleep(interval)

    asyncio.run(publish())
    cpu = _group_cpu(floor_pgid) - cpu_before
    for _proc in procs:
        finals.put(sent)
    parts = _collect(out, len(procs), SETTLE_SECONDS + 120)
    for proc in procs:
        proc.join(timeout=30)
    result = _summarise(parts)
    result.update(opened=opened, rss_per_socket_kb=(rss_after - rss_before) * 1024 / max(opened, 1),
                  messages=sum(sent.values()), server_cpu=cpu)  # fmt: skip
    return result


def run_longpoll(setups: list[dict[str, Any]], n: int, *, port: int, args: Any) -> dict[str, Any]:
    players = [(s["game_id"], t) for s in setups for _u, t in sorted(s["tokens"].items())]
    plan = [players[i % len(players)] for i in range(n)]
    start: Any = mp.Event()
    out: Any = mp.Queue()
    shares = [plan[f :: args.followers] for f in range(args.followers) if plan[f :: args.followers]]
    procs = [
        mp.Process(target=_longpoll_process, args=(port, s, args.duration, start, out), daemon=True)
        for s in shares
    ]
    for proc in procs:
        proc.start()
    time.sleep(1.0)
    start.set()
    time.sleep(0.5)
    bots = _bots(setups, port, args.duration - 0.5, args.clients, args.move_interval)
    parts = _collect(out, len(procs), args.duration + 120)
    for proc in procs:
        proc.join(timeout=30)
    latencies = [x for p in parts for x in p["latencies"]]
    return {
        "followers": n,
        "p50": _pct(latencies, 0.5),
        "p99": _pct(latencies, 0.99),
        "deliveries": len(latencies),
        "refused": sum(p["refused"] for p in parts),
        "polls": sum(p["polls"] for p in parts),
        "moves": bots["moves"],
        "move_p50": _pct(bots["post_ms"], 0.5),
        "errors": [e for p in parts for e in p["errors"]][:3] + bots["errors"][:3],
    }


# ============================================================================================ report


def _fmt(value: float) -> str:
    return "-" if value != value else f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def markdown(
    args: Any, rows: list[dict[str, Any]], limit: tuple[int, int], verdict: str, notes: list[str]
) -> str:
    load = os.getloadavg()
    lines = [
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC with `{COMMAND}` "
        f"(`BENCH_ARGS` equivalent: `--sockets {args.sockets} --tables {args.tables} --players {args.players} "
        f"--duration {args.duration:g} --move-interval {args.move_interval:g} --uvicorn-workers {args.uvicorn_workers} "
        f"--followers {args.followers} --longpoll-max {args.longpoll_max}`), "
        f"on {platform.machine()} with {os.cpu_count()} cores shared with other work "
        f"(load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}); PostgreSQL, Redis as the "
        f"channel layer, gunicorn serving the moves, uvicorn ({args.uvicorn_workers} processes) the sockets. "
        f"Open-file limit raised to {limit[0]:,} by the benchmark (resource.setrlimit).",
        "",
        "| sockets | live p50 / p99 ms | server commit→sent p50 / p99 ms | floor p50 / p99 ms | p99 ratio | deliveries | missed / repeated "
        "(server closes; worst follower loop lag ms) | moves | RSS per socket live / floor | long-poll p50 / p99 ms (Retry-After answers / polls) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        live, floor, lp = row["live"], row["floor"], row.get("longpoll")
        lp_text = (
            f"{_fmt(lp['p50'])} / {_fmt(lp['p99'])} ({lp['refused']:,} / {lp['polls']:,}; {lp['moves']:,} moves)"
            if lp
            else "not run (--longpoll-max)"
        )
        lines.append(
            f"| {row['n']:,} | {_fmt(live['p50'])} / {_fmt(live['p99'])} | ≤{_fmt(live['fanout_p50'])} / "
            f"≤{_fmt(live['fanout_p99'])} | {_fmt(floor['p50'])} / "
            f"{_fmt(floor['p99'])} | {live['p99'] / floor['p99']:.1f}x | {live['deliveries']:,} | "
            f"{live['missed']:,} / {live['repeated']:,} ({live['server_closes'] + floor['server_closes']:,}; {max(live['loop_lag_ms'], floor['loop_lag_ms']):,.0f}) | {live['moves']:,} | {live['rss_per_socket_kb']:.0f} KB / "
            f"{floor['rss_per_socket_kb']:.0f} KB | {lp_text} |"
        )
    lines += ["", verdict, *notes]
    return "\n".join(lines) + "\n"


def update_docs(path: Path, body: str) -> None:
    text = path.read_text()
    heading = f"## {SECTION}"
    block = f"{heading}\n\n{body}"
    if heading in text:
        head, rest = text.split(heading, 1)
        tail = rest.split("\n## ", 1)
        text = head + block + ("\n## " + tail[1] if len(tail) > 1 else "")
    elif "\n## Ledger" in text:  # after the live play's sections
        before, after = text.split("\n## Ledger", 1)
        text = before.rstrip("\n") + "\n\n" + block + "\n## Ledger" + after
    else:
        text = text.rstrip("\n") + "\n\n" + block
    path.write_text(text)


# ============================================================================================== main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sockets", default="100,1000,5000", help="open sockets per load, comma-separated")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--players", default="4", help="seats per table, cycled over the tables")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of play per phase")
    parser.add_argument("--uvicorn-workers", type=int, default=2)
    parser.add_argument("--followers", type=int, default=1, help="follower processes (many sockets each)")
    parser.add_argument("--clients", type=int, default=2, help="bot client processes (a thread per table)")
    parser.add_argument("--longpoll-max", type=int, default=5000, help="long-poll only at loads up to this")
    parser.add_argument("--move-interval", type=float, default=2.0,
                        help="seconds between a table's moves at least (0: as fast as the bots can)")  # fmt: skip
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--no-docs", action="store_true", help="do not update docs/performance.md")
    args = parser.parse_args(tiny.argv(argv, TINY_ARGS))
    loads = [int(n) for n in args.sockets.split(",")]
    seat_counts = [int(p) for p in args.players.split(",")]
    if not (1 <= args.tables <= 64 and all(1 <= n <= 20_000 for n in loads) and 1 <= args.followers <= 32):
        parser.error("--tables 1..64, --sockets 1..20000 each, --followers 1..32")
    base_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ramino")
    if not base_url.startswith("postgres"):
        print("bench-live needs DATABASE_URL=postgres://...", file=sys.stderr)
        return 2
    limit = _raise_open_files()
    print(f"open-file limit raised to {limit[0]} (hard {limit[1]})", flush=True)
    if limit[0] < 2 * max(loads) + 1000:
        print(f"the open-file limit {limit[0]} is below what {max(loads)} sockets need", file=sys.stderr)
        return 2
    url, admin_url, scratch = scratch_url(base_url, "bench_live")
    queue = f"ramino-bench-live-{uuid.uuid4().hex[:10]}"
    broker_url = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
    layer_url = os.environ.get("CHANNEL_LAYER_URL") or broker_url  # other keys than Celery's
    os.environ.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE=SETTINGS,
        CELERY_TASK_DEFAULT_QUEUE=queue,
        RAMINO_NEXT_ROUND_DELAY_SECONDS="0",
        CELERY_BROKER_URL=broker_url,
        CHANNEL_LAYER_URL=layer_url,
        PYTHONUNBUFFERED="1",
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    from tests.benchmarks.bench_api import Services, _delete_queue, _free_port, _prepare, _wait_for_rounds

    workdir = Path(tempfile.mkdtemp(prefix="bench-live-"))
    services = Services(dict(os.environ), workdir)
    recreate_database(admin_url, scratch)
    rows: list[dict[str, Any]] = []
    ok = True
    failures: list[str] = []
    try:
        import django

        django.setup()
        from django.db import connection

        setups = _prepare(args.tables, seat_counts)
        connection.close()
        services.start_worker(queue, 1)
        _wait_for_rounds([s["game_id"] for s in setups], timeout=60)
        connection.close()
        port = _free_port()
        # Tiny mode (make test): two workers are enough for its six sockets and start sooner.
        services.start_gunicorn(port, 2 if tiny.enabled() else 5, 4)
        ws_port = _free_port()
        live_pgid = _uvicorn(
            services, "uvicorn-live", ["config.asgi:application"], ws_port, args.uvicorn_workers
        )
        floor_port = _free_port()
        floor_pgid = _uvicorn(
            services, "uvicorn-floor", ["--factory", "tests.benchmarks.bench_live:floor_application"],
            floor_port, args.uvicorn_workers,
        )  # fmt: skip
        print("warm-up", flush=True)
        run_live(setups, min(loads[0], 20), ws_port=ws_port, port=port, args=argparse.Namespace(
            **{**vars(args), "duration": 2.0}), live_pgid=live_pgid)  # fmt: skip
        run_floor(min(loads[0], 20), floor_port=floor_port, n_groups=len(setups), rate_per_group=5.0,
                  args=argparse.Namespace(**{**vars(args), "duration": 1.0}), floor_pgid=floor_pgid)  # fmt: skip
        for n in loads:
            live = run_live(setups, n, ws_port=ws_port, port=port, args=args, live_pgid=live_pgid)
            print(f"{n:6d} sockets  live   p50 {_fmt(live['p50'])} ms  p99 {_fmt(live['p99'])} ms  "
                  f"{live['deliveries']} deliveries  missed {live['missed']} repeated {live['repeated']}  "
                  f"server closes {live['server_closes']} (reconnects {live['reconnects']})  pings {live['pings']}  "
                  f"follower loop lag ≤{live['loop_lag_ms']:.0f} ms  {live['moves']} moves  opened in {live['open_seconds']:.1f} s  "
                  f"RSS {live['rss_before']:.0f} → {live['rss_after']:.0f} MB "
                  f"({live['rss_per_socket_kb']:.0f} KB/socket)  uvicorn CPU {live['server_cpu']:.1f} s  "
                  f"server commit→sent p50 ≤{_fmt(live['fanout_p50'])} ms p99 ≤{_fmt(live['fanout_p99'])} ms "
                  f"({live['fanout_count']} sends)  "
                  f"{live['problems'] or ''} {live['bot_errors'] or ''}", flush=True)  # fmt: skip
            rate = live["moves"] / args.duration / len(setups)
            floor = run_floor(n, floor_port=floor_port, n_groups=len(setups), rate_per_group=rate, args=args,
                              floor_pgid=floor_pgid)  # fmt: skip
            print(f"{n:6d} sockets  floor  p50 {_fmt(floor['p50'])} ms  p99 {_fmt(floor['p99'])} ms  "
                  f"{floor['deliveries']} deliveries  missed {floor['missed']} repeated {floor['repeated']}  "
                  f"({floor['rss_per_socket_kb']:.0f} KB/socket)  uvicorn CPU {floor['server_cpu']:.1f} s  "
                  f"server closes {floor['server_closes']}  follower loop lag ≤{floor['loop_lag_ms']:.0f} ms "
                  f"{floor['problems'] or ''}", flush=True)  # fmt: skip
            row: dict[str, Any] = {"n": n, "live": live, "floor": floor}
            if n <= args.longpoll_max:
                lp = run_longpoll(setups, n, port=port, args=args)
                print(f"{n:6d} followers long-poll p50 {_fmt(lp['p50'])} ms  p99 {_fmt(lp['p99'])} ms  "
                      f"{lp['refused']} Retry-After of {lp['polls']} polls  {lp['moves']} moves  "
                      f"{lp['errors'] or ''}", flush=True)  # fmt: skip
                row["longpoll"] = lp
            rows.append(row)
            for name, part in (("live", live), ("floor", floor)):
                invalid = _validity(part, n)
                if invalid:
                    ok = False
                    failures.append(f"INVALID at {n:,} sockets ({name}): {invalid}")
                    print(f"\n{'!' * 100}\n{failures[-1]}\n{'!' * 100}\n", file=sys.stderr, flush=True)
            if live["moves"] == 0 or live["deliveries"] == 0:
                ok = False
                failures.append(f"FAILED: no move or no delivery at {n:,} sockets: {live['bot_errors']}")
                print(failures[-1], file=sys.stderr)
        top = rows[-1]
        ratio = top["live"]["p99"] / top["floor"]["p99"]
        # Invalid when a follower missed or repeated an event, a socket was closed by the server or a follower
        # starved, whatever the ratio: saturated on both sides, the live path and the floor can be equally late.
        met = ok and ratio <= GOAL_RATIO
        verdict = (
            f"Goal (p99 at {top['n']:,} sockets at most {GOAL_RATIO:g}x the floor's): "
            f"{'met' if met else 'not met'}, {ratio:.1f}x. No follower missed or repeated an event: "
            f"{'yes' if all(r['live']['missed'] == 0 == r['live']['repeated'] for r in rows) else 'NO'}."
        )
        if not ok:
            verdict = (
                f"**INVALID RUN** ({len(failures)} phases: see below); the figures do not stand. {verdict}"
            )
        print(verdict, flush=True)
        # Written whatever the checks found: a failed check is a finding too (and the exit status says it).
        if not args.no_docs and not tiny.enabled():
            notes = ["", *(f"- {failure}" for failure in failures)] if failures else []
            update_docs(ROOT / "docs" / "performance.md", markdown(args, rows, limit, verdict, notes))
            print("docs/performance.md updated", flush=True)
    finally:
        services.stop()
        _delete_queue(queue)
        if not args.keep:
            recreate_database(admin_url, scratch, create=False)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
