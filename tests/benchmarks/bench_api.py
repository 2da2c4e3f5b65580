"""Moves per second and latency of `POST /games/{id}/moves/` over HTTP, against a floor measured in the same run.

    make bench-api           # = DATABASE_URL=<test postgres> python -m tests.benchmarks.bench_api

What runs, all on 127.0.0.1 and all stopped at the end (also on failure):
- a scratch database `<name>_bench_api` next to DATABASE_URL's, dropped, recreated and migrated (dropped
  again afterwards unless --keep), plus the floor's two tables created with raw SQL;
- gunicorn with deploy/gunicorn.conf.py (gthread; --workers and --threads, max_requests off so that no worker
  restarts inside a measurement, access log to a scratch file) on a free port, with settings
  `tests.benchmarks.bench_api_settings` (the test settings plus the floor's URL);
- one Celery worker on a queue of its own: it starts the next round (RAMINO_NEXT_ROUND_DELAY_SECONDS=0) and
  receives the turn clocks the moves arm (turn_seconds=3600, so none fires during the run);
- client processes (--clients) with one thread per table, each thread on one keep-alive http.client
  connection, playing every seat of its table.

Ring tables of rummy500 (--tables, seats cycling through --players) are set up through the services (users,
tokens, wallets, tables, seats). Phases, after a short warm-up, take turns in --repeat slices of --duration seconds each:
- `floor`: every client thread POSTs to `/bench/floor/<row>/` (token auth, JSON in and out, one transaction
  with one `SELECT ... FOR UPDATE` of the thread's own row and one INSERT).
- `moves`: each thread plays its table with POSTs only, as a client following the event stream would: draw
  from the stock, discard the card drawn (learnt from the private part of the POST's answer). A game view is
  read only when a round starts or an answer is unexpected.
- `moves+view`: each move is preceded by `GET /games/{id}/` of the player to act and chosen from its
  `legal_moves` (melds and lay-offs first, else draw from the stock, else discard the highest card): what a
  client without its own model of the game does.
- `moves+watch`: `moves` plus one follower per table on its own connection, long-polling
  `GET /games/{id}/events/?after=V&wait=...` as a seated player's app would; it reports how long after
  its creation each event reached the follower, and the long-polls answered at once with Retry-After.
Then an in-process cProfile of both client policies through Django's test client (same database, same
settings, no gunicorn) with SQL queries counted per request, and a ledger reconciliation.

Options: --tables 16 --players 2,3,4 --duration 10 --repeat 3 --clients 2 --workers 5 --threads 4 --profile-moves 300
--keep --no-docs (do not update docs/performance.md).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import http.client
import io
import json
import multiprocessing as mp
import os
import pstats
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from tests.benchmarks import tiny
from tests.benchmarks.scratch_db import recreate_database, scratch_url

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = "tests.benchmarks.bench_api_settings"
COMMAND = "make bench-api"
GOAL_RATIO = 0.5
GOAL_RATE = 400.0
GOAL_P99_MS = 100.0
BUY_IN = 1_000_000
# Far longer than any run: no turn clock fires, every move is a client's.
TABLE_OPTIONS = {"turn_seconds": 3600, "time_bank_seconds": 0}
# Rank values for the view policy's discard choice (the highest goes first).
RANK_VALUE = {"A": 15, "K": 10, "Q": 10, "J": 10, "T": 10, **{str(n): n for n in range(2, 10)}}
LONG_POLL_SECONDS = 2.0
# How long a started process (a gunicorn's workers, a Celery worker) may take to answer: a hang guard sized for
# the 2 shared cores under a full `make test`, where 5 gunicorn workers once took over 60 s to import the site.
START_SECONDS = 180
# Every loop is bounded in time (the phase's deadline) and in count.
MAX_STEPS_PER_THREAD = 1_000_000


# =========================================================================================== transports


class Transport(Protocol):
    def request(
        self, method: str, path: str, token: str, body: dict[str, Any] | None = None, key: str | None = None
    ) -> tuple[int, Any]: ...


class HttpTransport:
    """One keep-alive connection; reconnects (bounded) when the server closed an idle one."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.conn: http.client.HTTPConnection | None = None
        self.reconnects = 0
        self.retry_after: str | None = None  # the last answer's Retry-After header

    def request(
        self, method: str, path: str, token: str, body: dict[str, Any] | None = None, key: str | None = None
    ) -> tuple[int, Any]:
        payload = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if key is not None:
            headers["Idempotency-Key"] = key
        for attempt in range(3):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
            except (http.client.HTTPException, OSError):
                # An idle keep-alive connection closed by the server; a replayed POST is harmless
                # (the Idempotency-Key returns the first answer, a stale version is a 409).
                self.conn.close()
                self.conn = None
                self.reconnects += 1
                if attempt == 2:
                    raise
                continue
            self.retry_after = response.getheader("Retry-After")
            if (response.getheader("Connection") or "").lower() == "close":
                self.conn.close()
                self.conn = None
            return response.status, json.loads(data) if data else None
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


class DjangoTransport:
    """In-process requests through Django's test client (the profile), counting SQL queries per request."""

    def __init__(self) -> None:
        from django.test import Client

        self.client = Client()
        self.queries: dict[str, list[int]] = {}
        # (request label, SQL) -> [count, seconds]: where the database time of each endpoint goes
        self.sql: dict[tuple[str, str], list[float]] = {}

    def request(
        self, method: str, path: str, token: str, body: dict[str, Any] | None = None, key: str | None = None
    ) -> tuple[int, Any]:
        from django.db import connection

        headers = {"Authorization": f"Token {token}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        count = [0]
        label = f"{method} {_endpoint(path)}"

        def counter(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
            count[0] += 1
            began = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                slot = self.sql.setdefault((label, sql), [0, 0.0])
                slot[0] += 1
                slot[1] += time.perf_counter() - began

        with connection.execute_wrapper(counter):
            if method == "GET":
                response = self.client.get(path, headers=headers)
            else:
                response = self.client.post(
                    path, data=json.dumps(body), content_type="application/json", headers=headers
                )
        self.queries.setdefault(label, []).append(count[0])
        return response.status_code, json.loads(response.content) if response.content else None


def _endpoint(path: str) -> str:
    if "/events/" in path:
        return "/games/{id}/events/"
    if path.endswith("/moves/"):
        return "/games/{id}/moves/"
    if "/bench/floor/" in path:
        return "/bench/floor/{row}/"
    return "/games/{id}/"


# ============================================================================================== drivers


@dataclass
class Tally:
    """What one client thread saw."""

    post_ms: list[float] = field(default_factory=list)  # latency of each POST answered 200
    get_ms: list[float] = field(default_factory=list)  # latency of each game view read
    end_ms: list[float] = field(default_factory=list)  # the POSTs among post_ms that ended a round
    statuses: Counter[str] = field(default_factory=Counter)
    watch_ms: list[float] = field(default_factory=list)  # event creation to a follower's long-poll answer
    watch_refused: int = 0  # long-polls answered at once with Retry-After (the process's waiting limit)
    moves: int = 0
    rounds: int = 0
    resyncs: int = 0
    errors: list[str] = field(default_factory=list)
    end: float = 0.0

    def note_error(self, text: str) -> None:
        if len(self.errors) < 5:
            self.errors.append(text[:300])

    def merge(self, other: Tally) -> None:
        self.post_ms += other.post_ms
        self.get_ms += other.get_ms
        self.end_ms += other.end_ms
        self.watch_ms += other.watch_ms
        self.watch_refused += other.watch_refused
        self.statuses.update(other.statuses)
        self.moves += other.moves
        self.rounds += other.rounds
        self.resyncs += other.resyncs
        for error in other.errors:
            self.note_error(error)
        self.end = max(self.end, other.end)


def _card_value(card: str) -> int:
    return 15 if card.startswith("JK") else RANK_VALUE.get(card[:1], 0)


def choose_from_view(moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Melds (the biggest first) and lay-offs, else a draw from the stock, else discard the highest card."""
    melds = [m for m in moves if m["type"] == "meld" and "cards" in m]
    if melds:
        return max(melds, key=lambda m: len(m["cards"]))
    for kind in ("lay_off",):
        for move in moves:
            if move["type"] == kind:
                return move
    for move in moves:
        if move["type"] == "draw" and move.get("source") == "stock":
            return move
    discards = [m for m in moves if m["type"] == "discard"]
    if discards:
        return max(discards, key=lambda m: _card_value(m["card"]))
    return moves[0]


class TableDriver:
    """Plays every seat of one table over a transport until the deadline.

    policy `post`: draw from the stock and discard the card drawn, knowing whose turn it is from the answers;
    policy `view`: read the game view of the player to act before each move and choose from `legal_moves`.
    """

    def __init__(
        self,
        transport: Transport,
        *,
        game_id: int,
        tokens: dict[str, str],
        policy: str,
        tally: Tally,
        deadline: float,
        max_moves: int | None = None,
    ) -> None:
        self.t = transport
        self.game = game_id
        self.tokens = tokens
        self.any_player = sorted(tokens)[0]
        self.policy = policy
        self.tally = tally
        self.deadline = deadline
        self.max_moves = max_moves
        self.order: list[str] = []
        self.to_act: str | None = None
        self.phase: str | None = None
        self.version = 0
        self.drawn: str | None = None

    # ---------------------------------------------------------------------------------------- requests

    def _get(self, player: str, path: str) -> tuple[int, Any]:
        began = time.perf_counter()
        status, body = self.t.request("GET", path, self.tokens[player])
        elapsed = (time.perf_counter() - began) * 1000
        self.tally.statuses[f"GET {status}"] += 1
        if status == 200 and not path.endswith("/events/") and "/events/?" not in path:
            self.tally.get_ms.append(elapsed)
        elif status != 200:
            self.tally.note_error(f"GET {path} as {player}: {status} {body}")
        return status, body

    def _post(self, player: str, move: dict[str, Any], expected_version: int) -> tuple[int, Any]:
        began = time.perf_counter()
        status, body = self.t.request(
            "POST",
            f"/api/v1/games/{self.game}/moves/",
            self.tokens[player],
            {**move, "expected_version": expected_version},
            key=uuid.uuid4().hex,
        )
        elapsed = (time.perf_counter() - began) * 1000
        self.tally.statuses[f"POST {status}"] += 1
        if status == 200:
            self.tally.post_ms.append(elapsed)
            self.tally.moves += 1
            if any(event.get("kind") == "round_over" for event in body.get("events", [])):
                self.tally.end_ms.append(elapsed)
        else:
            self.tally.note_error(f"POST {move} as {player} at v{expected_version}: {status} {body}")
        return status, body

    def _view(self, player: str) -> dict[str, Any] | None:
        status, body = self._get(player, f"/api/v1/games/{self.game}/")
        return body if status == 200 and isinstance(body, dict) else None

    def _wait_for_round(self, after: int) -> None:
        wait = max(0.0, min(LONG_POLL_SECONDS, self.deadline - time.monotonic()))
        if wait <= 0:
            return
        self._get(self.any_player, f"/api/v1/games/{self.game}/events/?after={after}&wait={wait:.2f}")

    # ------------------------------------------------------------------------------------------ state

    def resync(self) -> None:
        """Learn the turn from a game view; between rounds, long-poll until the next one starts."""
        self.tally.resyncs += 1
        self.drawn = None
        view = self._view(self.any_player)
        if view is None:
            time.sleep(0.05)
            return
        if view.get("status") == "playing" and view.get("phase") in ("draw", "play") and view.get("turn"):
            self.order = [row["username"] for row in view["players"]]
            self.to_act = view["turn"]["player"]
            self.phase = view["phase"]
            self.version = int(view["version"])
            return
        self.to_act = None
        self._wait_for_round(int(view.get("version") or 0))

    def _after_answer(self, player: str, body: dict[str, Any]) -> None:
        self.version = int(body["version"])
        for event in body.get("events") or []:
            if event.get("kind") == "round_over":
                self.tally.rounds += 1
                self.to_act = None
                self.phase = "over"
            elif event.get("kind") == "move":
                self.phase = event.get("phase")
                move = event.get("move") or {}
                if event.get("player") == player and move.get("type") == "draw":
                    self.drawn = event.get("card")
                if self.phase == "draw" and event.get("player") in self.order:
                    index = self.order.index(event["player"])
                    self.to_act = self.order[(index + 1) % len(self.order)]
                elif self.phase not in ("draw", "play"):
                    self.to_act = None

    # ------------------------------------------------------------------------------------------ loops

    def run(self) -> None:
        try:
            for _ in range(MAX_STEPS_PER_THREAD):
                if time.monotonic() >= self.deadline:
                    break
                if self.max_moves is not None and self.tally.moves >= self.max_moves:
                    break
                if self.policy == "post":
                    self._step_post()
                else:
                    self._step_view()
        except Exception as exc:  # a client failure is reported, not raised in a thread
            self.tally.note_error(f"{type(exc).__name__}: {exc}")
        finally:
            self.tally.end = time.monotonic()

    def _step_post(self) -> None:
        if self.to_act is None or self.phase not in ("draw", "play"):
            self.resync()
            return
        player = self.to_act
        if self.phase == "draw":
            move: dict[str, Any] = {"type": "draw", "source": "stock"}
        elif self.drawn is not None:
            move = {"type": "discard", "card": self.drawn}
        else:
            view = self._view(player)
            if view is None or not view.get("legal_moves"):
                self.to_act = None
                return
            self.version = int(view["version"])
            discards = [m for m in view["legal_moves"] if m["type"] == "discard"]
            move = discards[0] if discards else view["legal_moves"][0]
        status, body = self._post(player, move, self.version)
        if status == 200:
            if move["type"] == "discard":
                self.drawn = None
            self._after_answer(player, body)
        else:
            self.to_act = None

    def _step_view(self) -> None:
        player = self.to_act or self.any_player
        view = self._view(player)
        if view is None:
            self.to_act = None
            time.sleep(0.05)
            return
        moves = view.get("legal_moves")
        if not moves:
            turn = view.get("turn") or {}
            if view.get("status") == "playing" and turn.get("player") and turn["player"] != player:
                self.to_act = turn["player"]
                self.tally.resyncs += 1
            else:
                self.to_act = None
                self._wait_for_round(int(view.get("version") or 0))
            return
        self.order = [row["username"] for row in view["players"]]
        status, body = self._post(player, choose_from_view(moves), int(view["version"]))
        if status == 200:
            self.to_act = player
            self._after_answer(player, body)


def _floor_loop(transport: Transport, row: int, token: str, tally: Tally, deadline: float) -> None:
    try:
        for n in range(MAX_STEPS_PER_THREAD):
            if time.monotonic() >= deadline:
                break
            began = time.perf_counter()
            status, body = transport.request(
                "POST",
                f"/bench/floor/{row}/",
                token,
                {"type": "draw", "source": "stock", "expected_version": n},
                key=uuid.uuid4().hex,
            )
            tally.statuses[f"POST {status}"] += 1
            if status == 200:
                tally.post_ms.append((time.perf_counter() - began) * 1000)
                tally.moves += 1
            else:
                tally.note_error(f"floor: {status} {body}")
    except Exception as exc:
        tally.note_error(f"{type(exc).__name__}: {exc}")
    finally:
        tally.end = time.monotonic()


def _watch_loop(transport: HttpTransport, game_id: int, token: str, tally: Tally, deadline: float) -> None:
    """A follower of one game: long-polls its events and notes how long after its creation each event
    arrived (the event's `at` against this machine's clock). Not counted as moves or requests."""
    try:
        status, view = transport.request("GET", f"/api/v1/games/{game_id}/", token)
        after = int(view["version"]) if status == 200 else 0
        while time.monotonic() < deadline:
            wait = min(LONG_POLL_SECONDS, deadline - time.monotonic())
            if wait <= 0.05:
                break
            status, body = transport.request(
                "GET", f"/api/v1/games/{game_id}/events/?after={after}&wait={wait:.2f}", token
            )
            arrived = time.time()
            tally.statuses[f"watch GET {status}"] += 1
            if status != 200:
                tally.note_error(f"watch: {status} {body}")
                time.sleep(0.5)
                continue
            for event in body["events"]:
                tally.watch_ms.append((arrived - datetime.fromisoformat(event["at"]).timestamp()) * 1000)
            after = int(body["next_after"])
            if transport.retry_after is not None:
                tally.watch_refused += 1
                time.sleep(float(transport.retry_after))
    except Exception as exc:
        tally.note_error(f"watch {type(exc).__name__}: {exc}")


# ===================================================================================== client processes


def _client_process(
    tables: list[dict[str, Any]],
    phase: str,
    port: int,
    duration: float,
    start: Any,
    out: Any,
) -> None:
    """One client process: a thread per table, each with its own keep-alive connection."""
    transports = [HttpTransport("127.0.0.1", port) for _ in tables]
    tallies = [Tally() for _ in tables]
    start.wait(timeout=120)
    deadline = time.monotonic() + duration
    threads = []
    watchers = []
    watcher_transports: list[HttpTransport] = []
    if phase == "moves+watch":
        # One follower per table on a connection of its own, as a seated player's app would keep.
        for table, tally in zip(tables, tallies, strict=True):
            watcher = HttpTransport("127.0.0.1", port)
            watcher_transports.append(watcher)
            token = table["tokens"][sorted(table["tokens"])[-1]]
            thread = threading.Thread(
                target=_watch_loop, args=(watcher, table["game_id"], token, tally, deadline), daemon=True
            )
            thread.start()
            watchers.append(thread)
    for table, transport, tally in zip(tables, transports, tallies, strict=True):
        if phase == "floor":
            token = next(iter(table["tokens"].values()))
            target: Callable[[], None] = functools.partial(
                _floor_loop, transport, table["row"], token, tally, deadline
            )
        else:
            driver = TableDriver(
                transport,
                game_id=table["game_id"],
                tokens=table["tokens"],
                policy="view" if phase == "view" else "post",
                tally=tally,
                deadline=deadline,
            )
            target = driver.run
        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        threads.append(thread)
    for thread in [*threads, *watchers]:
        thread.join(timeout=duration + 60)
    for transport in [*transports, *watcher_transports]:
        transport.close()
    total = Tally()
    for tally in tallies:
        total.merge(tally)
    out.put(
        {
            "post_ms": total.post_ms,
            "end_ms": total.end_ms,
            "get_ms": total.get_ms,
            "watch_ms": total.watch_ms,
            "watch_refused": total.watch_refused,
            "statuses": dict(total.statuses),
            "moves": total.moves,
            "rounds": total.rounds,
            "resyncs": total.resyncs,
            "errors": total.errors,
            "end": total.end,
            "reconnects": sum(t.reconnects for t in transports),
        }
    )


# ========================================================================================= measurement


@dataclass
class PhaseResult:
    name: str
    seconds: float
    moves: int
    post_ms: list[float]
    get_ms: list[float]
    end_ms: list[float]
    statuses: dict[str, int]
    rounds: int
    watch_ms: list[float]
    watch_refused: int
    resyncs: int
    errors: list[str]
    cpu: dict[str, float]

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else 0.0

    def pct(self, q: float, which: str = "post") -> float:
        if which == "other":  # the POSTs that did not end a round
            ends = Counter(self.end_ms)
            others = Counter(self.post_ms)
            others.subtract(ends)
            values = sorted(others.elements())
        else:
            values = sorted(
                {"post": self.post_ms, "get": self.get_ms, "end": self.end_ms, "watch": self.watch_ms}[which]
            )
        if not values:
            return float("nan")
        return values[min(len(values) - 1, int(q * len(values)))]


def watch_summary(result: PhaseResult) -> str:
    return (
        f"followers: {len(result.watch_ms)} events received, p50 / p99 {result.pct(0.5, 'watch'):.1f} / "
        f"{result.pct(0.99, 'watch'):.1f} ms after their creation; {result.watch_refused} long-polls answered "
        "at once with Retry-After"
    )


def server_cpu_ms(result: PhaseResult) -> float:
    """Milliseconds of gunicorn + PostgreSQL CPU per request of the phase."""
    return 1000 * (result.cpu.get("gunicorn", 0.0) + result.cpu.get("postgres", 0.0)) / max(1, result.moves)


def merge_results(parts: list[PhaseResult]) -> PhaseResult:
    cpu: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    for part in parts:
        cpu.update(part.cpu)
        statuses.update(part.statuses)
    return PhaseResult(
        name=parts[0].name,
        seconds=sum(p.seconds for p in parts),
        moves=sum(p.moves for p in parts),
        post_ms=[v for p in parts for v in p.post_ms],
        get_ms=[v for p in parts for v in p.get_ms],
        end_ms=[v for p in parts for v in p.end_ms],
        statuses=dict(statuses),
        rounds=sum(p.rounds for p in parts),
        watch_ms=[v for p in parts for v in p.watch_ms],
        watch_refused=sum(p.watch_refused for p in parts),
        resyncs=sum(p.resyncs for p in parts),
        errors=[e for p in parts for e in p.errors][:8],
        cpu=dict(cpu),
    )


CLK_TCK = os.sysconf("SC_CLK_TCK")


def _proc_stats() -> Iterator[tuple[str, int, float]]:
    """(command line, process group, cpu seconds) of every process on the machine."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
            cmdline = (
                Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            )
        except OSError:
            continue
        rest = raw[raw.rindex(")") + 2 :].split()
        yield cmdline, int(rest[2]), (int(rest[11]) + int(rest[12])) / CLK_TCK


def _cpu_snapshot(groups: dict[str, int], database: str) -> dict[str, float]:
    """CPU seconds so far: our process groups, the PostgreSQL backends serving our database (they live as
    long as gunicorn's persistent connections), and the whole machine's busy time."""
    totals = dict.fromkeys([*groups, "postgres"], 0.0)
    for cmdline, pgrp, seconds in _proc_stats():
        for name, group in groups.items():
            if pgrp == group:
                totals[name] += seconds
        if cmdline.startswith("postgres:") and f" {database} " in cmdline:
            totals["postgres"] += seconds
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    idle = fields[3] + fields[4]
    totals["machine"] = (sum(fields) - idle) / CLK_TCK
    return totals


def run_phase(
    name: str,
    phase: str,
    tables: list[dict[str, Any]],
    *,
    port: int,
    duration: float,
    clients: int,
    groups: dict[str, int],
    database: str,
) -> PhaseResult:
    ctx = mp.get_context("fork")
    start = ctx.Event()
    out = ctx.Queue()
    shares = [tables[i::clients] for i in range(clients) if tables[i::clients]]
    procs = [
        ctx.Process(target=_client_process, args=(share, phase, port, duration, start, out), daemon=True)
        for share in shares
    ]
    for proc in procs:
        proc.start()
    time.sleep(0.5)  # let every client process start before the signal
    before = _cpu_snapshot(groups, database)
    children_before = os.times()
    began = time.monotonic()
    start.set()
    parts = [out.get(timeout=duration + 120) for _ in procs]
    for proc in procs:
        proc.join(timeout=30)
        if proc.is_alive():
            proc.kill()
    after = _cpu_snapshot(groups, database)
    children_after = os.times()
    end = max(part["end"] for part in parts)
    cpu = {k: after[k] - before[k] for k in after}
    cpu["clients"] = (children_after.children_user + children_after.children_system) - (
        children_before.children_user + children_before.children_system
    )
    ours = sum(cpu[k] for k in ("gunicorn", "celery", "postgres", "clients"))
    # Busy time of everything else on the machine (other people's jobs, Redis, this process).
    cpu["other"] = max(0.0, cpu["machine"] - ours)
    statuses: Counter[str] = Counter()
    for part in parts:
        statuses.update(part["statuses"])
    reconnects = sum(part["reconnects"] for part in parts)
    if reconnects:
        statuses["reconnects"] += reconnects
    return PhaseResult(
        name=name,
        seconds=end - began,
        moves=sum(part["moves"] for part in parts),
        post_ms=[v for part in parts for v in part["post_ms"]],
        get_ms=[v for part in parts for v in part["get_ms"]],
        end_ms=[v for part in parts for v in part["end_ms"]],
        statuses=dict(statuses),
        rounds=sum(part["rounds"] for part in parts),
        watch_ms=[v for part in parts for v in part["watch_ms"]],
        watch_refused=sum(part["watch_refused"] for part in parts),
        resyncs=sum(part["resyncs"] for part in parts),
        errors=[e for part in parts for e in part["errors"]][:8],
        cpu=cpu,
    )


# ================================================================================= database and fixtures


def _prepare(n_tables: int, seat_counts: list[int]) -> list[dict[str, Any]]:
    """Migrate, create the floor's tables, and set up funded players seated at ring tables."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from accounts.services import create_token
    from ledger.services import postings
    from tests.benchmarks.bench_api_urls import FLOOR_DDL
    from tournaments.live.models import Game
    from tournaments.live.tables import services as table_services

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        for statement in FLOOR_DDL:
            cursor.execute(statement)
        cursor.execute(
            "INSERT INTO bench_floor_row (id) SELECT generate_series(1, %s)", [max(n_tables, 1) * 4]
        )
    users = get_user_model().objects
    admin = users.create_superuser("bench-admin", password="bench-admin-pw-123")
    setups = []
    for t in range(n_tables):
        table = table_services.create_table(
            user=admin,
            game="rummy500",
            options=dict(TABLE_OPTIONS),
            seats=4,
            pcr=1,
            min_buy_in=100,
            max_buy_in=BUY_IN,
            multiplier=1,
        )
        tokens = {}
        for s in range(seat_counts[t % len(seat_counts)]):
            user = users.create_user(f"t{t}p{s}", password="bench-pass-123")
            postings.adjust_wallet(
                user=user,
                amount=BUY_IN,
                reason="bench funding",
                idempotency_key=f"bench-api:fund:{user.pk}",
                posted_by=admin,
            )
            table_services.sit(user=user, table_id=table.pk, buy_in=BUY_IN)
            tokens[user.get_username()] = create_token(user=user)[1]
        game = Game.objects.get(table=table)
        setups.append({"table_id": table.pk, "game_id": game.pk, "tokens": tokens, "row": t + 1})
    return setups


def _wait_for_rounds(game_ids: list[int], timeout: float) -> None:
    from tournaments.live.models import Game, GameStatus

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        playing = Game.objects.filter(pk__in=game_ids, status=GameStatus.PLAYING).count()
        if playing == len(game_ids):
            return
        time.sleep(0.2)
    raise RuntimeError("the worker did not start the first rounds in time")


# ========================================================================================== processes


class Services:
    """gunicorn and the Celery worker, each in its own process group, always stopped."""

    def __init__(self, env: dict[str, str], workdir: Path) -> None:
        self.env = env
        self.workdir = workdir
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def groups(self) -> dict[str, int]:
        return {name: proc.pid for name, proc in self.procs.items()}

    def _spawn(self, name: str, argv: list[str], env: dict[str, str]) -> Path:
        log_path = self.workdir / f"{name}.log"
        with log_path.open("wb") as log:
            self.procs[name] = subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        return log_path

    def start_worker(self, queue: str, concurrency: int) -> None:
        log = self._spawn(
            "celery",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--loglevel=WARNING",
                f"--concurrency={concurrency}",
                "--pool=prefork",
                "-Q",
                queue,
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"bench-api-{os.getpid()}@%h",
            ],
            self.env,
        )
        # WARNING hides the "ready." line; wait for the worker to answer a ping instead.
        from config.celery_app import app

        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            self._check_alive("celery", log)
            replies = app.control.ping(
                destination=[f"bench-api-{os.getpid()}@{socket.gethostname()}"], timeout=1
            )
            if replies:
                return
        raise RuntimeError(f"celery worker not ready; see {log}")

    def start_gunicorn(self, port: int, workers: int, threads: int) -> None:
        env = dict(
            self.env,
            GUNICORN_BIND=f"127.0.0.1:{port}",
            GUNICORN_WORKERS=str(workers),
            GUNICORN_THREADS=str(threads),
            GUNICORN_MAX_REQUESTS="0",
            # Connections live through the run (the default, 60 s, reconnects every thread once a minute,
            # which the CPU accounting of PostgreSQL's backends would miss).
            DATABASE_CONN_MAX_AGE="3600",
            # BENCH_ACCESS_LOG keeps the log after the run (e.g. with GUNICORN_ACCESS_LOG_FORMAT, for latencies).
            GUNICORN_ACCESS_LOG=os.environ.get("BENCH_ACCESS_LOG") or str(self.workdir / "access.log"),
            GUNICORN_LOG_LEVEL="warning",
        )
        log = self._spawn(
            "gunicorn",
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                str(ROOT / "deploy" / "gunicorn.conf.py"),
                "config.wsgi:application",
            ],
            env,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            self._check_alive("gunicorn", log)
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/health/")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer /health/; see {log}")

    def _check_alive(self, name: str, log: Path) -> None:
        if self.procs[name].poll() is not None:
            raise RuntimeError(f"{name} exited early:\n{log.read_text()[-3000:]}")

    def stop(self) -> None:
        for name, proc in reversed(list(self.procs.items())):
            if proc.poll() is not None:
                continue
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                print(f"{name} did not stop on SIGTERM; killing its process group", file=sys.stderr)
            # Whatever is left of the group (prefork children, gunicorn workers) goes too.
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def _delete_queue(queue: str) -> None:
    """Drop this run's queue: the worker hands back the turn clocks it held (acks_late) when it stops."""
    try:
        from kombu import Exchange, Queue

        from config.celery_app import app

        with app.connection_for_write() as conn:
            # Declared first: a virtual transport deletes only the bindings its channel knows of.
            bound = Queue(queue, Exchange(queue), routing_key=queue)(conn.default_channel)
            bound.declare()
            bound.purge()
            bound.delete()
    except Exception as exc:  # cleanup of a scratch queue must not hide the run's own error
        print(f"could not delete the queue {queue}: {exc}", file=sys.stderr)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ============================================================================================= profile


@contextmanager
def _profiled(profile: cProfile.Profile) -> Iterator[None]:
    profile.enable()
    try:
        yield
    finally:
        profile.disable()


def _compiler_class(line: int) -> str:
    """Which of Django's SQL compilers defines `execute_sql` at `line` of compiler.py."""
    import inspect

    from django.db.models.sql import compiler

    for name in ("SQLCompiler", "SQLInsertCompiler", "SQLDeleteCompiler", "SQLUpdateCompiler"):
        if inspect.getsourcelines(getattr(compiler, name).execute_sql)[1] == line:
            return name
    return f"compiler.py:{line}"


def _top_costs(profile: cProfile.Profile, total: float, count: int = 9) -> list[str]:
    """The project's functions (and the ORM's query execution as a whole) by share of the run's CPU."""
    rows = []
    entries: dict[tuple[str, int, str], tuple[Any, ...]] = getattr(pstats.Stats(profile), "stats", {})
    for (filename, line, func), (_cc, _nc, _tt, cumulative, _callers) in entries.items():
        rel = filename.replace(str(ROOT) + "/", "")
        own = rel.startswith(("tournaments/", "ledger/", "config/"))
        orm = filename.endswith("django/db/models/sql/compiler.py") and func == "execute_sql"
        if (own and func not in ("post", "get", "<lambda>")) or orm or func == "apply_async":
            if orm:
                label = f"ORM query execution (`{_compiler_class(line)}.execute_sql`)"
            else:
                short = rel if own else "/".join(Path(filename).parts[-3:])
                label = f"`{short}:{line} {func}`"
            rows.append((cumulative, label))
    rows.sort(reverse=True)
    return [f"{label} {100 * cumulative / total:.0f}%" for cumulative, label in rows[:count]]


def profile_in_process(setup: dict[str, Any], moves: int) -> tuple[str, dict[str, float], list[str]]:
    """cProfile of both policies through Django's test client.

    Returns the report text, the mean SQL queries per request, and summary lines for the docs."""
    report = io.StringIO()
    queries: dict[str, float] = {}
    summary: list[str] = []
    for policy in ("post", "view"):
        # First without the profiler: wall and CPU per move of one request at a time in one process.
        plain = Tally()
        began = time.perf_counter()
        cpu_began = time.process_time()
        TableDriver(
            DjangoTransport(),
            game_id=setup["game_id"],
            tokens=setup["tokens"],
            policy=policy,
            tally=plain,
            deadline=time.monotonic() + 120,
            max_moves=moves,
        ).run()
        wall = time.perf_counter() - began
        cpu = time.process_time() - cpu_began
        summary.append(
            f"- `{'moves' if policy == 'post' else 'moves+view'}` in one process, one request at a time, no "
            f"profiler: {1000 * wall / max(1, plain.moves):.1f} ms wall and {1000 * cpu / max(1, plain.moves):.1f} "
            f"ms CPU per move."
        )
        report.write(
            f"\n### policy `{policy}`, no profiler: {plain.moves} moves, {1000 * wall / max(1, plain.moves):.1f} ms "
            f"wall and {1000 * cpu / max(1, plain.moves):.1f} ms CPU of this process per move (including its "
            f"view reads; the rest of the wall time is PostgreSQL, Redis and waiting for a core)\n"
        )
        transport = DjangoTransport()
        tally = Tally()
        driver = TableDriver(
            transport,
            game_id=setup["game_id"],
            tokens=setup["tokens"],
            policy=policy,
            tally=tally,
            deadline=time.monotonic() + 120,
            max_moves=moves,
        )
        # CPU time, not wall time: the machine may be busy with other work, and waiting on PostgreSQL
        # shows up in the SQL timings below instead.
        profile = cProfile.Profile(time.process_time)
        began = time.perf_counter()
        cpu_began = time.process_time()
        with _profiled(profile):
            driver.run()
        elapsed = time.perf_counter() - began
        cpu = time.process_time() - cpu_began
        posts = tally.statuses.get("POST 200", 0)
        if policy == "post":
            summary.append(
                "- Top costs of `moves` (cProfile, CPU time, share of all CPU of the requests, nested): "
                + "; ".join(_top_costs(profile, cpu))
                + "."
            )
        report.write(
            f"\n### policy `{policy}`: {tally.moves} moves in {elapsed:.2f} s wall, {cpu:.2f} s CPU of this "
            f"process under cProfile ({1000 * cpu / max(1, posts):.1f} ms CPU per move including its game "
            f"view reads), statuses {dict(tally.statuses)}\n\n"
        )
        sql_rows = sorted(transport.sql.items(), key=lambda kv: -kv[1][1])[:14]
        report.write("SQL by total time (label, calls, ms per call, statement):\n```\n")
        for (label, sql), (calls, seconds) in sql_rows:
            report.write(
                f"{label:28s} {int(calls):5d} {1000 * seconds / calls:6.2f}  {' '.join(sql.split())[:160]}\n"
            )
        report.write("```\n")
        if tally.errors:
            report.write(f"errors: {tally.errors}\n")
        for label, counts in sorted(transport.queries.items()):
            queries[f"{policy}: {label}"] = sum(counts) / len(counts)
        listings = (
            ("cumulative, the project's own functions", "cumulative", r"/(tournaments|ledger|config)/", 30),
            ("cumulative, everything", "cumulative", None, 40),
            ("own time", "tottime", None, 25),
        )
        for title, sort, restriction, count in listings:
            text = io.StringIO()
            stats = pstats.Stats(profile, stream=text)
            if restriction is None:
                stats.strip_dirs().sort_stats(sort).print_stats(count)  # strip_dirs forgets the order
            else:
                stats.sort_stats(sort).print_stats(restriction, count)
            lines = [line.replace(str(ROOT) + "/", "") for line in text.getvalue().splitlines()]
            start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
            report.write(f"```\n# {title}\n" + "\n".join(lines[start:]).rstrip() + "\n```\n")
    return report.getvalue(), queries, summary


# ============================================================================================ reporting


def _fmt(value: float) -> str:
    return "-" if value != value else f"{value:.1f}"


def markdown(
    results: list[PhaseResult],
    floor_rate: float,
    config: str,
    queries: dict[str, float],
    summary: list[str],
    verdict: str,
) -> str:
    lines = [
        "| phase | moves/s | x floor | POST p50 ms | POST p99 ms | GET view p50 / p99 ms | rounds | "
        "POST statuses | server CPU ms per move | CPU s: gunicorn / postgres / celery / clients / other |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        posts = ", ".join(
            f"{k.split()[1]}x{v}" for k, v in sorted(r.statuses.items()) if k.startswith("POST")
        )
        views = f"{_fmt(r.pct(0.5, 'get'))} / {_fmt(r.pct(0.99, 'get'))}" if r.get_ms else "-"
        cpu = " / ".join(
            f"{r.cpu.get(k, 0.0):.0f}" for k in ("gunicorn", "postgres", "celery", "clients", "other")
        )
        server = r.cpu.get("gunicorn", 0.0) + r.cpu.get("postgres", 0.0)
        per_move = f"{1000 * server / r.moves:.1f}" if r.moves else "-"
        lines.append(
            f"| {r.name} | {r.rate:,.0f} | {r.rate / floor_rate:.2f} | {_fmt(r.pct(0.5))} | "
            f"{_fmt(r.pct(0.99))} | {views} | {r.rounds if not r.name.startswith('floor') else '-'} | "
            f"{posts} | {per_move} | {cpu} |"
        )
    text = "\n".join(lines) + "\n\n" + config + "\n"
    if queries:
        text += "\nSQL queries per request (in-process run, mean): " + ", ".join(
            f"{k} {v:.1f}" for k, v in sorted(queries.items())
        )
        text += "\n"
    for r in results:
        if r.watch_ms or r.watch_refused:
            text += f"\n`{r.name}` {watch_summary(r)}.\n"
    if summary:
        text += "\n" + "\n".join(summary) + "\n"
    return text + "\n" + verdict + "\n"


def update_docs(path: Path, section: str) -> None:
    """Replace (or append) the `## HTTP API` section, leaving every other section as it is."""
    heading = "## HTTP API"
    text = path.read_text() if path.exists() else "# Performance\n"
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == heading), None)
    new = [heading, "", *section.rstrip().splitlines()]
    if start is None:
        lines = [*lines, "", *new] if lines and lines[-1] != "" else [*lines, *new]
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        lines = [*lines[:start], *new, "", *lines[end:]]
    path.write_text("\n".join(lines).rstrip() + "\n")


# ================================================================================================ main


# Tiny mode (tests/benchmarks/tiny.py): every phase and the profile, on two tables for a second each.
TINY_ARGS = ["--no-docs", "--tables", "2", "--players", "2,3", "--duration", "1", "--repeat", "1"]
TINY_ARGS += ["--warmup", "2", "--clients", "1", "--workers", "1", "--threads", "2", "--profile-moves", "20"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--players", default="2,3,4", help="seats per table, cycled over the tables")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per slice of a phase")
    parser.add_argument("--repeat", type=int, default=3, help="slices per phase (the phases take turns)")
    parser.add_argument("--warmup", type=float, default=4.0)
    parser.add_argument("--clients", type=int, default=2, help="client processes (threads: one per table)")
    parser.add_argument("--workers", type=int, default=5, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads per worker")
    parser.add_argument("--celery-concurrency", type=int, default=1)
    parser.add_argument("--profile-moves", type=int, default=300, help="0: no profile")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument(
        "--phases",
        default="floor,moves,moves+view,moves+watch",
        help="which phases to measure (for profiling one of them)",
    )
    parser.add_argument("--no-docs", action="store_true", help="do not update docs/performance.md")
    args = parser.parse_args(tiny.argv(argv, TINY_ARGS))
    if not (
        1 <= args.tables <= 64
        and 1 <= args.duration <= 600
        and 1 <= args.clients <= 16
        and 1 <= args.repeat <= 20
    ):
        parser.error("--tables 1..64, --duration 1..600, --clients 1..16, --repeat 1..20")
    seat_counts = [int(p) for p in args.players.split(",")]
    if not all(2 <= n <= 4 for n in seat_counts):
        parser.error("--players: 2 to 4 seats per rummy500 table")

    base_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ramino")
    if not base_url.startswith("postgres"):
        print("bench-api needs DATABASE_URL=postgres://...", file=sys.stderr)
        return 2
    url, admin_url, scratch = scratch_url(base_url, "bench_api")
    queue = f"ramino-bench-api-{uuid.uuid4().hex[:10]}"
    broker_url = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
    os.environ.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE=SETTINGS,
        CELERY_TASK_DEFAULT_QUEUE=queue,
        RAMINO_NEXT_ROUND_DELAY_SECONDS="0",
        CELERY_BROKER_URL=broker_url,
        PYTHONUNBUFFERED="1",
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the cleanup below on SIGTERM too
    workdir = Path(tempfile.mkdtemp(prefix="bench-api-"))
    services = Services(dict(os.environ), workdir)
    results: list[PhaseResult] = []
    profile_text = ""
    queries: dict[str, float] = {}
    summary: list[str] = []
    checks: list[str] = []
    ok_checks = True
    recreate_database(admin_url, scratch)
    try:
        import django

        django.setup()
        from django.db import connection

        setups = _prepare(args.tables, seat_counts)
        connection.close()
        services.start_worker(queue, args.celery_concurrency)
        _wait_for_rounds([s["game_id"] for s in setups], timeout=60)
        connection.close()
        port = _free_port()
        services.start_gunicorn(port, args.workers, args.threads)
        groups = services.groups()
        for phase in ("floor", "moves"):  # warm-up: every worker imports and connects
            run_phase(
                "warm-up",
                phase,
                setups,
                port=port,
                duration=args.warmup / 2,
                clients=args.clients,
                groups=groups,
                database=scratch,
            )
        # The phases take turns in short slices, so that a change in the machine's other load falls on all of
        # them alike; each phase's slices are then added up.
        plan = [
            (name, phase)
            for name, phase in (
                ("floor", "floor"),
                ("moves", "moves"),
                ("moves+view", "view"),
                ("moves+watch", "moves+watch"),
            )
            if name in args.phases.split(",")
        ]
        slices: dict[str, list[PhaseResult]] = {name: [] for name, _ in plan}
        for repeat in range(args.repeat):
            for name, phase in plan:
                part = run_phase(
                    name,
                    phase,
                    setups,
                    port=port,
                    duration=args.duration,
                    clients=args.clients,
                    groups=groups,
                    database=scratch,
                )
                slices[name].append(part)
                print(
                    f"{repeat + 1}/{args.repeat} {name:11s} {part.rate:6.0f} moves/s  p50 {part.pct(0.5):6.1f} ms  "
                    f"p99 {part.pct(0.99):6.1f} ms  round-ending POSTs {len(part.end_ms)} p50 / p99 "
                    f"{part.pct(0.5, 'end'):6.1f} / {part.pct(0.99, 'end'):6.1f} ms, others' p99 "
                    f"{part.pct(0.99, 'other'):6.1f} ms  {part.statuses}  rounds {part.rounds}  "
                    f"server CPU {server_cpu_ms(part):.2f} ms per move (gunicorn "
                    f"{1000 * part.cpu.get('gunicorn', 0.0) / max(1, part.moves):.2f} + PostgreSQL "
                    f"{1000 * part.cpu.get('postgres', 0.0) / max(1, part.moves):.2f}), other CPU {part.cpu['other']:.0f} s",
                    flush=True,
                )
                if part.watch_ms or part.watch_refused:
                    print(f"    {watch_summary(part)}", flush=True)
                for error in part.errors:
                    print(f"    {error}", flush=True)
        results = [merge_results(parts) for parts in slices.values()]
        if args.profile_moves:
            profile_text, queries, summary = profile_in_process(setups[0], args.profile_moves)
            connection.close()

        from ledger.selectors import reconcile
        from tournaments.live.models import MoveLog, Round

        report = reconcile()
        server_played = MoveLog.objects.filter(server_played=True).count()
        settled = Round.objects.filter(settled=True).count()
        ok_checks = report.ok and server_played == 0
        checks.append(
            f"After the run: ledger reconciliation ok={report.ok} ({len(report.problems)} problems), "
            f"{MoveLog.objects.count()} moves logged, {server_played} played by the server, "
            f"{settled} rounds settled."
        )
        connection.close()
    finally:
        services.stop()
        _delete_queue(queue)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        if not args.keep:
            recreate_database(admin_url, scratch, create=False)
        for path in sorted(workdir.iterdir()):
            path.unlink()
        workdir.rmdir()

    if {r.name for r in results} != {"floor", "moves", "moves+view", "moves+watch"}:
        # A partial run (--phases) prints its slices and the in-process profile; nothing is written up.
        print("\n".join([*summary, *checks]))
        print(profile_text)
        return 0 if ok_checks else 1
    if tiny.enabled():
        # No figure judged; every phase answered requests, none with a server error, and the checks held.
        broken = [
            f"{r.name}: {r.moves} answered, {dict(r.statuses)}"
            for r in results
            if r.moves == 0 or any(key.split()[-1].startswith("5") for key in r.statuses)
        ]
        print("\n".join([*checks, *(f"BROKEN {line}" for line in broken)]))
        return 0 if ok_checks and not broken else 1
    floor_rate = next(r for r in results if r.name == "floor").rate
    moves = next(r for r in results if r.name == "moves")
    ratio = moves.rate / floor_rate
    floor = next(r for r in results if r.name == "floor")

    checks.insert(
        0,
        f"Server CPU (gunicorn + PostgreSQL) per move: {server_cpu_ms(moves):.1f} ms against {server_cpu_ms(floor):.1f} ms "
        f"per floor request ({server_cpu_ms(moves) / max(1e-9, server_cpu_ms(floor)):.1f}x); when the server is CPU-bound "
        f"the ratio of the rates cannot be better than the inverse of that.",
    )
    met = ratio >= GOAL_RATIO and moves.rate >= GOAL_RATE and moves.pct(0.99) <= GOAL_P99_MS
    verdict = (
        f"Goals for `moves` (≥ {GOAL_RATIO}x the floor, ≥ {GOAL_RATE:.0f} moves/s, POST p99 ≤ {GOAL_P99_MS:.0f} ms): "
        f"{'met' if met else 'NOT met'} (ratio {ratio:.2f} against the floor's {floor_rate:,.0f}/s). "
        + " ".join(checks)
    )
    config = (
        "Phases: `floor` is a bare DRF endpoint (same gunicorn, middleware, token auth and JSON) whose transaction "
        "locks one row with `SELECT ... FOR UPDATE` and inserts one row; `moves` plays the tables with "
        "`POST /games/{id}/moves/` only (draw from the stock, discard the card drawn; the client follows the game "
        "from the answers' events); `moves+view` reads `GET /games/{id}/` before every move and picks from its "
        "`legal_moves`; `moves+watch` is `moves` with one more client per table following the game by "
        "long-polling `GET /games/{id}/events/` (its requests are not counted as moves; its delay is from the "
        "event's creation on the server to the answer reaching the follower). Latencies are client-side, per "
        "request; moves/s counts moves answered 200.\n\n"
        f"Configuration: {os.cpu_count()} cores; {args.tables} rummy500 ring tables with "
        f"{'/'.join(str(n) for n in seat_counts)} seats cycled ({args.tables} concurrent client threads in "
        f"{args.clients} processes, one keep-alive connection each); gunicorn deploy/gunicorn.conf.py with "
        f"{args.workers} gthread workers x {args.threads} threads, max_requests off, database connections kept for the run, access log to a file; "
        f"one Celery worker (prefork, concurrency {args.celery_concurrency}) starting rounds "
        f"(next-round delay 0) and receiving the turn clocks the moves arm; PostgreSQL and Redis on the same machine; "
        f"each phase measured in {args.repeat} slices of {args.duration:.0f} s, the phases taking turns "
        f"(floor, moves, moves+view, moves+watch, floor, ...). CPU columns: seconds used during the phase by gunicorn's processes, the "
        f"PostgreSQL backends of the scratch database, the Celery worker, the client processes, and everything "
        f"else on the machine (other jobs, Redis; {os.cpu_count()} cores x {args.repeat * args.duration:.0f} s are available per phase). "
        f"Server CPU per move: (gunicorn + PostgreSQL) / moves, including any game view reads."
    )
    table = markdown(results, floor_rate, config, queries, summary, verdict)
    print()
    print(table)
    if profile_text:
        print("## Profile (in-process, cProfile)")
        print(profile_text)
    if not args.no_docs:
        extra = " ".join(argv if argv is not None else sys.argv[1:])
        command = (
            f"DJANGO_SETTINGS_MODULE=config.settings.test DATABASE_URL={base_url} "
            f"CELERY_BROKER_URL={broker_url} .venv/bin/python -m tests.benchmarks.bench_api {extra}"
        ).strip()
        load = "/".join(f"{value:.1f}" for value in os.getloadavg())
        update_docs(
            ROOT / "docs" / "performance.md",
            f"Measured on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} (load average {load} at the end "
            f"over 1/5/15 minutes; the CPU columns give each phase's) with {'' if extra else f'`{COMMAND}`, that is'}\n"
            f"`{command}`.\n\n" + table,
        )
    return 0 if met and ok_checks else 1


if __name__ == "__main__":
    sys.exit(main())
