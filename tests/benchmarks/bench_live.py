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
  (bench_api's TableDriver: draw from the stock, discard the card drawn, over HTTP).

For each load (--sockets, default 100, 1000 and 5000 open sockets, spread over the tables and their players):
- `live`: the followers open the sockets (auth with the player's token, subscribe to the table's game from
  version 0) and the uvicorn processes' RSS is read before and after (memory per open socket); the bots play
  for --duration seconds; each event's latency is its arrival at a follower minus the event's `at` (written in
  the move's transaction, just before its commit: the server's commit time, to within the commit itself).
  Then every socket's versions are checked against the REST read of the same player (topics.read): none
  missed, none repeated, in order.
- `floor`: as many sockets on the floor server, one group per table; this process sends each group a message
  as often as the live phase's moves came per table, stamped with the time of sending; latency = arrival minus
  that stamp; every socket must get every message once.
- `long-poll` (loads up to --longpoll-max): as many followers long-polling `GET /games/{id}/events/?wait=`
  (bench_api's watch loop, one thread and connection each) while the bots play; gunicorn lets threads - 1
  waiters per process wait and answers the rest at once with Retry-After: 1 (they poll once a second).
The open-file limit is raised to its hard limit (resource.setrlimit) here; the servers inherit it.

Options: --sockets 100,1000,5000 --tables 8 --players 4 --duration 10 --uvicorn-workers 2 --followers 4
--clients 2 --longpoll-max 1000 --keep --no-docs (do not update docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import http.client
import json
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

from websockets.exceptions import ConnectionClosed

from tests.benchmarks import tiny
from tests.benchmarks.scratch_db import recreate_database, scratch_url

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = "tests.benchmarks.bench_api_settings"
COMMAND = "make bench-live"
SECTION = "Live sockets"
GOAL_RATIO = 2.0  # p99 at the largest load at most twice the floor's
TINY_ARGS = ["--sockets", "6", "--tables", "1", "--players", "2", "--duration", "3", "--followers", "1",
             "--clients", "1", "--longpoll-max", "6", "--no-docs"]  # fmt: skip
# How long followers may take to catch up after the bots stop (the recheck would find a lost wake-up in 30 s).
SETTLE_SECONDS = 40.0
# Sockets opened at once by one follower process (the server's listen backlog is 2048).
OPENING_AT_ONCE = 50


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


async def _open(url: str) -> Any:
    from websockets.asyncio.client import connect

    # The server's pings (uvicorn: every 20 s) are answered by the client's own reading task.
    return await connect(url, open_timeout=120, ping_interval=None, max_size=2**22)


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


async def _follow_live(
    url: str, plan: list[tuple[int, str, str]], ready: Any, measure_from: Any, finals: Any, out: Any
) -> None:
    """Sockets following games: `plan` holds (game id, username, token) per socket."""
    import orjson

    versions: list[list[int]] = [[] for _ in plan]
    latencies: list[float] = []
    problems: list[str] = []
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    sockets: list[Any] = []

    async def open_one(game_id: int, token: str) -> Any:
        async with gate:
            ws = await _open(url)
            await ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
            welcome = orjson.loads(await ws.recv())
            if welcome.get("type") != "welcome":
                raise RuntimeError(f"auth refused: {welcome}")
            await ws.send(
                orjson.dumps({"type": "subscribe", "topic": f"game:{game_id}", "after": 0}).decode()
            )
            return ws

    sockets = list(
        await asyncio.gather(
            *(_opened(functools.partial(open_one, game, token), problems) for game, _user, token in plan)
        )
    )
    ready.put(sum(ws is not None for ws in sockets))
    expected: dict[tuple[int, str], list[int]] = {}

    async def read(i: int) -> None:
        ws = sockets[i]
        game_id, username, _token = plan[i]
        seen = versions[i]
        while True:
            want = expected.get((game_id, username))
            if want is not None and (not want or (seen and seen[-1] >= want[-1])):
                return
            if expected and time.monotonic() > settle_deadline:
                return
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            except ConnectionClosed as closed:  # counted: its later events are missed
                problems.append(f"socket {i} closed at {time.time():.0f}: {closed}")
                return
            now = time.time()
            message = orjson.loads(raw)
            if message.get("type") == "events":
                start = measure_from.value
                for event in message["events"]:
                    seen.append(int(event["version"]))
                    at = datetime.fromisoformat(event["at"]).timestamp()
                    if start and at >= start:
                        latencies.append((now - at) * 1000)
            elif message.get("type") not in ("subscribed", "pong"):
                problems.append(str(message)[:200])

    settle_deadline = float("inf")
    readers = [asyncio.ensure_future(read(i)) for i in range(len(sockets)) if sockets[i] is not None]
    loop = asyncio.get_running_loop()
    given = await loop.run_in_executor(None, finals.get)
    expected.update({(int(g), u): v for (g, u), v in given})
    settle_deadline = time.monotonic() + SETTLE_SECONDS
    await asyncio.gather(*readers)
    missed = repeated = 0
    for i, (game_id, username, _token) in enumerate(plan):
        if sockets[i] is None:
            continue  # counted as not opened
        want = expected[(game_id, username)]
        got = versions[i]
        repeated += len(got) - len(set(got))
        if got != sorted(got):
            problems.append(f"socket {i}: versions out of order")
        missed += len(set(want) - set(got))
    for ws in sockets:
        if ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await ws.close()
    out.put({"latencies": latencies, "missed": missed, "repeated": repeated, "problems": problems[:5],
             "events": sum(len(v) for v in versions)})  # fmt: skip


async def _follow_floor(url: str, groups: list[int], ready: Any, finals: Any, out: Any) -> None:
    """Sockets on the floor's server, socket i in group groups[i]."""
    gate = asyncio.Semaphore(OPENING_AT_ONCE)

    async def open_one(group: int) -> Any:
        async with gate:
            ws = await _open(url)
            await ws.send(str(group))
            if await ws.recv() != "joined":
                raise RuntimeError("the floor did not join")
            return ws

    problems: list[str] = []
    sockets = list(await asyncio.gather(*(_opened(functools.partial(open_one, g), problems) for g in groups)))
    ready.put(sum(ws is not None for ws in sockets))
    seqs: list[list[int]] = [[] for _ in sockets]
    latencies: list[float] = []
    sent: dict[int, int] = {}
    deadline = float("inf")

    async def read(i: int) -> None:
        while True:
            if sent and (len(seqs[i]) >= sent[groups[i]] or time.monotonic() > deadline):
                return
            try:
                raw = await asyncio.wait_for(sockets[i].recv(), 0.5)
            except TimeoutError:
                continue
            except ConnectionClosed as closed:  # counted: its later messages are missed
                problems.append(f"socket {i} closed at {time.time():.0f}: {closed}")
                return
            now = time.time()
            message = json.loads(raw)
            seqs[i].append(message["seq"])
            latencies.append((now - message["at"]) * 1000)

    readers = [asyncio.ensure_future(read(i)) for i in range(len(sockets)) if sockets[i] is not None]
    given = await asyncio.get_running_loop().run_in_executor(None, finals.get)
    sent.update({int(g): n for g, n in given.items()})
    deadline = time.monotonic() + SETTLE_SECONDS
    await asyncio.gather(*readers)
    missed = sum(max(0, sent[groups[i]] - len(set(s))) for i, s in enumerate(seqs) if sockets[i] is not None)
    repeated = sum(len(s) - len(set(s)) for s in seqs)
    for ws in sockets:
        if ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await ws.close()
    out.put({"latencies": latencies, "missed": missed, "repeated": repeated, "problems": problems[:5],
             "events": sum(len(s) for s in seqs)})  # fmt: skip


def _follower_process(
    kind: str, url: str, plan: Any, ready: Any, measure_from: Any, finals: Any, out: Any
) -> None:
    _raise_open_files()
    try:
        if kind == "live":
            asyncio.run(_follow_live(url, plan, ready, measure_from, finals, out))
        else:
            asyncio.run(_follow_floor(url, plan, ready, finals, out))
    except Exception as exc:  # reported, not lost in a child
        ready.put(0)
        out.put({"latencies": [], "missed": 0, "repeated": 0, "problems": [f"{type(exc).__name__}: {exc}"],
                 "events": 0})  # fmt: skip


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
            "--log-level", "warning", "--backlog", "4096"]  # fmt: skip
    # The sign-in deadline (10 s by default) raised: thousands of sockets opened at once on a loaded machine
    # wait longer than that for their sign-in's read; the benchmark measures delivery, not the opening rush.
    env = dict(services.env, DATABASE_CONN_MAX_AGE="3600", RAMINO_SOCKET_AUTH_SECONDS="300")
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


def _summarise(parts: list[dict[str, Any]]) -> dict[str, Any]:
    latencies = [x for p in parts for x in p["latencies"]]
    return {
        "p50": _pct(latencies, 0.5),
        "p99": _pct(latencies, 0.99),
        "deliveries": len(latencies),
        "missed": sum(p["missed"] for p in parts),
        "repeated": sum(p["repeated"] for p in parts),
        "problems": [x for p in parts for x in p["problems"]][:5],
    }


def _bots(setups: list[dict[str, Any]], port: int, duration: float, clients: int) -> dict[str, Any]:
    from tests.benchmarks.bench_api import _client_process

    start: Any = mp.Event()
    out: Any = mp.Queue()
    shares = [setups[i::clients] for i in range(clients) if setups[i::clients]]
    procs = [
        mp.Process(target=_client_process, args=(s, "moves", port, duration, start, out)) for s in shares
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
    bots = _bots(setups, port, args.duration, args.clients)
    cpu = _group_cpu(live_pgid) - cpu_before
    time.sleep(2.0)  # the worker's next deal, if a round ended at the very end
    expected = _expected_versions(setups)
    for _proc in procs:
        finals.put(expected)
    parts = _collect(out, len(procs), SETTLE_SECONDS + 120)
    for proc in procs:
        proc.join(timeout=30)
    result = _summarise(parts)
    result.update(
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
    bots = _bots(setups, port, args.duration - 0.5, args.clients)
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
        f"--duration {args.duration:g} --uvicorn-workers {args.uvicorn_workers} --followers {args.followers}`), "
        f"on {platform.machine()} with {os.cpu_count()} cores shared with other work "
        f"(load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}); PostgreSQL, Redis as the "
        f"channel layer, gunicorn serving the moves, uvicorn ({args.uvicorn_workers} processes) the sockets. "
        f"Open-file limit raised to {limit[0]:,} by the benchmark (resource.setrlimit).",
        "",
        "| sockets | live p50 / p99 ms | floor p50 / p99 ms | p99 ratio | deliveries | missed / repeated "
        "| moves | RSS per socket live / floor | long-poll p50 / p99 ms (Retry-After answers / polls) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        live, floor, lp = row["live"], row["floor"], row.get("longpoll")
        lp_text = (
            f"{_fmt(lp['p50'])} / {_fmt(lp['p99'])} ({lp['refused']:,} / {lp['polls']:,}; {lp['moves']:,} moves)"
            if lp
            else "not run: the long-poll cannot hold this many (3 waiters per process)"
        )
        lines.append(
            f"| {row['n']:,} | {_fmt(live['p50'])} / {_fmt(live['p99'])} | {_fmt(floor['p50'])} / "
            f"{_fmt(floor['p99'])} | {live['p99'] / floor['p99']:.1f}x | {live['deliveries']:,} | "
            f"{live['missed']:,} / {live['repeated']:,} | {live['moves']:,} | {live['rss_per_socket_kb']:.0f} KB / "
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
    parser.add_argument("--followers", type=int, default=4, help="follower processes (many sockets each)")
    parser.add_argument("--clients", type=int, default=2, help="bot client processes (a thread per table)")
    parser.add_argument("--longpoll-max", type=int, default=1000, help="long-poll only at loads up to this")
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
        services.start_gunicorn(port, 5, 4)
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
                  f"{live['moves']} moves  opened in {live['open_seconds']:.1f} s  "
                  f"RSS {live['rss_before']:.0f} → {live['rss_after']:.0f} MB "
                  f"({live['rss_per_socket_kb']:.0f} KB/socket)  uvicorn CPU {live['server_cpu']:.1f} s  "
                  f"{live['problems'] or ''} {live['bot_errors'] or ''}", flush=True)  # fmt: skip
            rate = live["moves"] / args.duration / len(setups)
            floor = run_floor(n, floor_port=floor_port, n_groups=len(setups), rate_per_group=rate, args=args,
                              floor_pgid=floor_pgid)  # fmt: skip
            print(f"{n:6d} sockets  floor  p50 {_fmt(floor['p50'])} ms  p99 {_fmt(floor['p99'])} ms  "
                  f"{floor['deliveries']} deliveries  missed {floor['missed']} repeated {floor['repeated']}  "
                  f"({floor['rss_per_socket_kb']:.0f} KB/socket)  uvicorn CPU {floor['server_cpu']:.1f} s "
                  f"{floor['problems'] or ''}", flush=True)  # fmt: skip
            row: dict[str, Any] = {"n": n, "live": live, "floor": floor}
            if n <= args.longpoll_max:
                lp = run_longpoll(setups, n, port=port, args=args)
                print(f"{n:6d} followers long-poll p50 {_fmt(lp['p50'])} ms  p99 {_fmt(lp['p99'])} ms  "
                      f"{lp['refused']} Retry-After of {lp['polls']} polls  {lp['moves']} moves  "
                      f"{lp['errors'] or ''}", flush=True)  # fmt: skip
                row["longpoll"] = lp
            rows.append(row)
            for part in (live, floor):
                if part["missed"] or part["repeated"] or part["problems"] or part["opened"] != n:
                    ok = False
                    failures.append(f"FAILED at {n:,} sockets ({'live' if part is live else 'floor'}): "
                                    f"opened {part['opened']:,}, missed {part['missed']}, repeated "
                                    f"{part['repeated']}, problems {part['problems']}")  # fmt: skip
                    print(failures[-1], file=sys.stderr)
            if live["moves"] == 0 or live["deliveries"] == 0:
                ok = False
                failures.append(f"FAILED: no move or no delivery at {n:,} sockets: {live['bot_errors']}")
                print(failures[-1], file=sys.stderr)
        top = rows[-1]
        ratio = top["live"]["p99"] / top["floor"]["p99"]
        # Not met when a follower missed or repeated an event, whatever the ratio: saturated on both sides, the
        # live path and the floor can be equally late.
        met = ok and ratio <= GOAL_RATIO
        verdict = (
            f"Goal (p99 at {top['n']:,} sockets at most {GOAL_RATIO:g}x the floor's): "
            f"{'met' if met else 'not met'}, {ratio:.1f}x. No follower missed or repeated an event: "
            f"{'yes' if all(r['live']['missed'] == 0 == r['live']['repeated'] for r in rows) else 'NO'}."
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
