"""The soak: rounds played over HTTP at ring tables of several presets and in multi-table tournaments while the
Celery worker is SIGKILLed at random and the database connections are cut, then checked for exactly-once.

    make soak                                # = DATABASE_URL=<test postgres> python -m tests.benchmarks.soak
    make soak SOAK_ARGS=--quick              # a few minutes, for development

What runs, all on 127.0.0.1, all stopped at the end (also on failure):
- a scratch database `<name>_soak_run` next to DATABASE_URL's, dropped, recreated and migrated (dropped again
  afterwards when every check passed, unless --keep);
- gunicorn with deploy/gunicorn.conf.py on a free port, a Celery worker (prefork, in a process group of its
  own, so that a SIGKILL of the group takes its pool with it) and Celery beat with django-celery-beat's
  schedule from the migrations (its clock sweeper re-sends what a killed worker took with it), on a queue of
  this run's own, with config.settings.test;
- in this process: one thread per ring table (one preset each, cycling through the presets, 2 to 4 seats)
  whose bots play the engine's greedy move for whoever may act, each move a POST with `expected_version` and
  an `Idempotency-Key` (the bot reads the full state from the database to choose, as the smoke test does;
  the server knows nothing of that), long-polling the game's events between rounds; one thread that runs
  multi-table tournaments back to back (created, entered, started and played over HTTP, absent players
  coming back); a chaos thread that, at random points of the run (random fractions of --rounds), SIGKILLs
  the worker's process group (restarted after a random pause) or terminates every connection to the scratch
  database (`pg_terminate_backend`, this database only).

A client retries a 503 after its Retry-After and a dropped connection with the same Idempotency-Key, as an app
would; every answer is tallied by endpoint and status.

When --rounds rounds are settled, the chaos plan has run and at least --tournaments tournaments finished, the
ring players leave (the worker plays out their last round) and, once every game is still, the checks run:
- every round ended and settled; settlement transfers = rounds whose settlement moved chips, at most one per
  round and kind, and each round's `transfers` equal the legs of its ledger transfers (net per player);
- every tournament finished, with exactly one payout transfer, equal to its prize pool (what the buy-ins put
  in), the pool and the tournament chips emptied, every entrant placed;
- the ledger's reconciliation is ok;
- no answer 5xx other than 503, and no traceback or ERROR/CRITICAL line in any process's log (gunicorn, every
  worker incarnation, beat); a 503 in the access log is counted, not an error.
It prints a summary (rounds per preset, kills, cuts, rounds/s, answers, checks) and exits 1 with the
evidence when a check fails. Logs stay in var/soak/<time>/.

Options: --rounds 1000 --kills 20 --cuts 5 --tables 7 --tournaments 1 --entrants 12 --tournament-game rummy500
--seed S --timeout 10800 --quick --keep
--no-docs (the figures go to docs/operations.md, "Soak", unless --quick or --no-docs).
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
import uuid
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import requests

from tests.benchmarks.bench_api import _delete_queue, _free_port
from tests.benchmarks.scratch_db import recreate_database, scratch_url

ROOT = Path(__file__).resolve().parents[2]
COMMAND = "make soak"
SECTION = "## Soak: chaos while playing"
BEGIN = "<!-- make soak: output begins -->"
END = "<!-- make soak: output ends -->"
PRESETS = ("rummy500", "basic", "romme", "board", "block", "wrotham", "rummy500_household")
FUNDS = 10_000_000
RING_BUY_IN = 1_000_000
PCR = 1
# Long enough that a bot, not the clock, plays nearly every turn on a loaded machine.
TURN_SECONDS = 20
T_BUY_IN, T_FEE = 100, 10
T_STACK = 500
T_PCR_SCHEDULE = [1, 2, 3, 5, 8, 12, 20, 30, 50, 80]
T_ROUNDS_PER_LEVEL = 1
T_SEATS = 4
# A request is retried this long (503 after Retry-After, dropped connections) before it counts as failed.
RETRY_SECONDS = 90.0
# No round settled for this long (with the worker up): the run is stuck.
STALL_SECONDS = 240.0
WIND_DOWN_SECONDS = 240.0
LOG_ERROR = re.compile(r"Traceback \(most recent call last\)| (ERROR|CRITICAL)[ /:]|\[(ERROR|CRITICAL)\]")
# The first line of a log record (Django's, Celery's, gunicorn's): a traceback's lines are not.
LOG_RECORD = re.compile(r"^\[?\d{4}-\d\d-\d\d")
ACCESS_STATUS = re.compile(r"\" (\d{3}) ")

T = TypeVar("T")


class SoakFailed(RuntimeError):
    """The run could not go on (a process died, the run stalled): what was seen goes in the report."""


# ========================================================================================== bookkeeping


@dataclass
class Record:
    """Everything the threads saw, under one lock."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    answers: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    kills: list[float] = field(default_factory=list)  # seconds into the run
    cuts: list[tuple[float, int]] = field(default_factory=list)  # (seconds into the run, backends ended)
    problems: list[str] = field(default_factory=list)  # 5xx answers, thread crashes, refused setup calls
    tournaments: list[int] = field(default_factory=list)  # finished
    resits: int = 0
    backs: int = 0
    # Set when the run fails: the threads stop at once (the server may be gone).
    abort: threading.Event = field(default_factory=threading.Event)

    def answer(self, method: str, path: str, status: int | str) -> None:
        endpoint = re.sub(r"\d+", "{id}", path.split("?", 1)[0])
        with self.lock:
            self.answers[f"{method} {endpoint} {status}"] += 1

    def problem(self, text: str) -> None:
        with self.lock:
            self.problems.append(text)
        print(f"PROBLEM: {text}", flush=True)


def db(fn: Callable[[], T]) -> T:
    """`fn()` on this thread's Django connection, reconnecting while the connections are being cut."""
    from django.db import InterfaceError, OperationalError, connection

    for _attempt in range(120):
        try:
            return fn()
        except (OperationalError, InterfaceError):
            with suppress(Exception):
                connection.close()
            time.sleep(0.5)
    return fn()


# =============================================================================================== clients


class Player:
    """One user's keep-alive HTTP session with its token."""

    def __init__(self, base: str, username: str, record: Record) -> None:
        self.base = base
        self.username = username
        self.record = record
        self.session = requests.Session()

    def call(
        self, method: str, path: str, *, json: Any = None, key: str | None = None
    ) -> tuple[int, Any, requests.Response | None]:
        """(status, body, response); 503 and dropped connections retried (a POST with the same key)."""
        headers = {}
        if method == "POST":
            headers["Idempotency-Key"] = key or uuid.uuid4().hex
        deadline = time.monotonic() + RETRY_SECONDS
        while True:
            if self.record.abort.is_set():
                raise SoakFailed("the run was aborted")
            try:
                response = self.session.request(
                    method, f"{self.base}/api/v1{path}", json=json, headers=headers, timeout=60
                )
            except (requests.ConnectionError, requests.Timeout) as exc:
                self.record.answer(method, path, "connection-error")
                if time.monotonic() > deadline:
                    self.record.problem(f"{self.username}: {method} {path}: {exc}")
                    return 0, None, None
                time.sleep(0.5)
                continue
            self.record.answer(method, path, response.status_code)
            if response.status_code == 503 and time.monotonic() < deadline:
                time.sleep(float(response.headers.get("Retry-After", "1")))
                continue
            if response.status_code >= 500:
                self.record.problem(
                    f"{self.username}: {method} {path} -> {response.status_code} {response.text[:300]}"
                )
            try:
                body = response.json() if response.content else None
            except ValueError:
                body = response.text
            return response.status_code, body, response

    def expect(self, method: str, path: str, statuses: tuple[int, ...] = (200,), **kwargs: Any) -> Any:
        status, body, _ = self.call(method, path, **kwargs)
        if status not in statuses:
            raise SoakFailed(f"{self.username}: {method} {path} -> {status} {str(body)[:300]}")
        return body


def login(base: str, username: str, password: str, record: Record) -> Player:
    player = Player(base, username, record)
    body = player.expect("POST", "/auth/token/", json={"username": username, "password": password})
    player.session.headers["Authorization"] = f"Token {body['token']}"
    return player


def register(base: str, username: str, record: Record, admin: Player) -> Player:
    password = f"soak-pw-{uuid.uuid4().hex}"
    anonymous = Player(base, username, record)
    anonymous.expect(
        "POST",
        "/auth/register/",
        (201,),
        json={"username": username, "password": password, "date_of_birth": "1990-01-01"},
    )
    admin.expect(
        "POST",
        "/ledger/adjustments/",
        (200, 201),
        json={"username": username, "amount": FUNDS, "reason": "soak funding"},
    )
    return login(base, username, password, record)


# ============================================================================================ the bots


def _game_row(game_id: int) -> tuple[str, int, Any]:
    from tournaments.live.models import Game

    return db(lambda: Game.objects.values_list("status", "version", "state").get(pk=game_id))


def play_one(players: dict[str, Player], game_id: int, status: str, version: int, state: Any) -> bool:
    """The greedy move of the first of our players who may act, POSTed; whether one was accepted."""
    from tournaments.engine import state_from_dict
    from tournaments.engine.bots import greedy_move

    if status != "playing" or state is None:
        return False
    parsed = state_from_dict(state)
    for name in parsed.may_act:
        player = players.get(name)
        if player is None:
            continue
        move = dict(greedy_move(parsed, name))
        code, _body, _ = player.call(
            "POST", f"/games/{game_id}/moves/", json={**move, "expected_version": version}
        )
        if code == 200:
            with player.record.lock:
                player.record.moves += 1
            return True
        return False  # 409: someone (or a clock) moved first; 422 is tallied; read again
    return False


class RingTable(threading.Thread):
    """One ring table's players: greedy moves while a round is in play, long-polls between rounds, a seat
    taken again when the server stood a player up; all leave when the run stops."""

    def __init__(
        self,
        *,
        table_id: int,
        game_id: int,
        players: dict[str, Player],
        stop: threading.Event,
        record: Record,
    ) -> None:
        super().__init__(name=f"ring-{table_id}", daemon=True)
        self.table_id = table_id
        self.game_id = game_id
        self.players = players
        self.stop = stop
        self.record = record
        self.left = False

    def run(self) -> None:
        try:
            self._run()
        except Exception:
            if not self.record.abort.is_set():
                self.record.problem(f"{self.name} crashed:\n{traceback.format_exc()}")
        finally:
            from django.db import connection

            connection.close()

    def _run(self) -> None:
        watcher = next(iter(self.players.values()))
        while not self.stop.is_set():
            status, version, state = _game_row(self.game_id)
            if play_one(self.players, self.game_id, status, version, state):
                continue
            if status == "waiting":
                self._sit_again()
            watcher.call("GET", f"/games/{self.game_id}/events/?after={version}&wait=2")
        for player in self.players.values():
            player.expect("POST", f"/tables/{self.table_id}/leave/", (200, 409))
        self.left = True

    def _sit_again(self) -> None:
        from tournaments.live.models import SEATED_STATUSES, Seat

        seated = set(
            db(
                lambda: list(
                    Seat.objects.filter(table_id=self.table_id, status__in=SEATED_STATUSES).values_list(
                        "player__username", flat=True
                    )
                )
            )
        )
        for name, player in self.players.items():
            if name not in seated:
                player.expect(
                    "POST", f"/tables/{self.table_id}/sit/", (200, 409), json={"buy_in": RING_BUY_IN}
                )
                with self.record.lock:
                    self.record.resits += 1


class Tournaments(threading.Thread):
    """Multi-table tournaments back to back, at least `minimum`, until the run stops: each created by the
    admin, entered by every player and started over HTTP, then played by the bots to its end."""

    def __init__(
        self,
        *,
        admin: Player,
        players: dict[str, Player],
        game: str,
        minimum: int,
        more: Callable[[], bool],
        stop: threading.Event,
        record: Record,
        timeout: float,
    ) -> None:
        super().__init__(name="tournaments", daemon=True)
        self.more = more
        self.admin = admin
        self.players = players
        self.game = game
        self.minimum = minimum
        self.stop = stop
        self.record = record
        self.timeout = timeout
        self.started: list[int] = []
        self.done = threading.Event()

    def run(self) -> None:
        try:
            # Another one while the run goes on, or until the minimum finished.
            while len(self.record.tournaments) < self.minimum or (not self.stop.is_set() and self.more()):
                self._one(len(self.started) + 1)
        except Exception:
            if not self.record.abort.is_set():
                self.record.problem(f"{self.name} crashed:\n{traceback.format_exc()}")
        finally:
            self.done.set()
            from django.db import connection

            connection.close()

    def _one(self, number: int) -> None:
        from tournaments.live.models import Game, Seat, SeatStatus
        from tournaments.tournament.models import Tournament

        entrants = len(self.players)
        created = self.admin.expect(
            "POST",
            "/tournaments/",
            (201,),
            json={
                "name": f"soak multi {number}",
                "kind": "multi",
                "game": self.game,
                "options": {"turn_seconds": TURN_SECONDS, "time_bank_seconds": 0},
                "buy_in": T_BUY_IN,
                "fee": T_FEE,
                "min_entrants": 2,
                "max_entrants": entrants,
                "starting_stack": T_STACK,
                "seats": T_SEATS,
                "pcr_schedule": T_PCR_SCHEDULE,
                "rounds_per_level": T_ROUNDS_PER_LEVEL,
                "starts_at": (datetime.now(UTC) + timedelta(hours=6)).isoformat(),
                "payouts": [50, 30, 20],
            },
        )
        tid = int(created["id"])
        self.started.append(tid)
        for player in self.players.values():
            player.expect("POST", f"/tournaments/{tid}/register/", (201,))
        self.admin.expect("POST", f"/tournaments/{tid}/start/", (200,))
        print(f"tournament {tid} started: {entrants} entrants", flush=True)
        deadline = time.monotonic() + self.timeout
        after = 0
        watcher = next(iter(self.players.values()))
        while time.monotonic() < deadline:
            status = db(lambda: Tournament.objects.values_list("status", flat=True).get(pk=tid))
            if status in ("finished", "cancelled"):
                if status == "finished":
                    with self.record.lock:
                        self.record.tournaments.append(tid)
                print(f"tournament {tid} {status}", flush=True)
                return
            games = db(
                lambda: list(
                    Game.objects.filter(table__tournament_id=tid, status="playing").values_list(
                        "pk", "status", "version", "state"
                    )
                )
            )
            acted = False
            for game_id, game_status, version, state in games:
                acted = play_one(self.players, game_id, game_status, version, state) or acted
            absent = db(
                lambda: list(
                    Seat.objects.filter(table__tournament_id=tid, status=SeatStatus.ABSENT).values_list(
                        "player__username", flat=True
                    )
                )
            )
            for name in absent:
                self.players[name].call("POST", f"/tournaments/{tid}/back/")
                with self.record.lock:
                    self.record.backs += 1
            if not acted:
                _code, body, _ = watcher.call("GET", f"/tournaments/{tid}/events/?after={after}&wait=1")
                if isinstance(body, dict) and "next_after" in body:
                    after = int(body["next_after"])
        self.record.problem(f"tournament {tid} did not finish within {self.timeout:.0f} s")


# =========================================================================================== processes


class Services:
    """gunicorn, beat and the worker, each in a process group of its own; every worker incarnation logs to its
    own file (all are scanned at the end)."""

    def __init__(self, env: dict[str, str], logs: Path, queue: str) -> None:
        self.env = env
        self.logs = logs
        self.queue = queue
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.incarnation = 0
        self.worker_name = ""

    def _spawn(self, name: str, argv: list[str], env: dict[str, str], log_name: str) -> Path:
        log_path = self.logs / log_name
        with log_path.open("ab") as log:
            self.procs[name] = subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        return log_path

    def alive(self, name: str) -> bool:
        proc = self.procs.get(name)
        return proc is not None and proc.poll() is None

    def check(self) -> None:
        for name, proc in self.procs.items():
            if proc.poll() is not None:
                raise SoakFailed(f"{name} exited with {proc.returncode}; logs in {self.logs}")

    def start_gunicorn(self, port: int) -> None:
        env = dict(
            self.env,
            GUNICORN_BIND=f"127.0.0.1:{port}",
            GUNICORN_WORKERS="3",
            GUNICORN_THREADS="4",
            GUNICORN_ACCESS_LOG=str(self.logs / "access.log"),
        )
        log = self._spawn(
            "gunicorn",
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                str(ROOT / "deploy" / "gunicorn.conf.py"),
                "config.wsgi",
            ],
            env,
            "gunicorn.log",
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            self.check()
            with suppress(OSError):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/health/")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            time.sleep(0.3)
        raise SoakFailed(f"gunicorn did not answer /health/; see {log}")

    def start_beat(self) -> None:
        self._spawn(
            "beat",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "beat",
                "--loglevel=INFO",
                "--scheduler",
                "django_celery_beat.schedulers:DatabaseScheduler",
                "--pidfile",
                str(self.logs / "beat.pid"),
            ],
            self.env,
            "beat.log",
        )

    def start_worker(self) -> None:
        from config.celery_app import app

        self.incarnation += 1
        self.worker_name = f"soak-{os.getpid()}-{self.incarnation}"
        log = self._spawn(
            "worker",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--loglevel=WARNING",
                "--concurrency=2",
                "--pool=prefork",
                "-Q",
                self.queue,
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"{self.worker_name}@%h",
            ],
            self.env,
            f"worker-{self.incarnation:02d}.log",
        )
        destination = [f"{self.worker_name}@{socket.gethostname()}"]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if not self.alive("worker"):
                raise SoakFailed(f"the worker exited early; see {log}")
            if app.control.ping(destination=destination, timeout=1):
                return
        raise SoakFailed(f"the worker did not answer a ping; see {log}")

    def kill_worker(self) -> None:
        """SIGKILL the worker's whole process group (the main process and its pool), as a crash would."""
        proc = self.procs["worker"]
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _group_alive(proc.pid):
            time.sleep(0.1)

    def stop(self) -> None:
        for name in ("beat", "worker", "gunicorn"):
            proc = self.procs.get(name)
            if proc is None or proc.poll() is not None:
                continue
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                print(f"{name} did not stop on SIGTERM; killing its process group", file=sys.stderr)
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            with suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def forget_unacked(queue: str) -> int:
    """Drop this run's messages that SIGKILLed workers left in kombu's Redis `unacked` hash (and its index),
    and the queue itself: an hour later any worker on this Redis would put them back on the queue, which
    nothing consumes after the run. How many were dropped."""
    import json

    import redis

    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis"):
        return 0
    client = redis.Redis.from_url(broker)
    tags = []
    for tag, payload in client.hscan_iter("unacked"):
        with suppress(ValueError, TypeError):
            if json.loads(payload)[2] == queue:
                tags.append(tag)
    for i in range(0, len(tags), 500):
        client.hdel("unacked", *tags[i : i + 500])
        client.zrem("unacked_index", *tags[i : i + 500])
    client.delete(queue)
    return len(tags)


def cut_connections(admin_url: str, database: str) -> int:
    """Terminate every backend connected to the soak's database (and no other); how many were ended."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()) AS ended",
            [database],
        ).fetchone()
    return int(row[0]) if row else 0


class Chaos(threading.Thread):
    """The plan's kills and cuts, each when the settled rounds reach its point of the run, after a random
    moment more."""

    def __init__(
        self,
        *,
        plan: list[tuple[int, str]],
        services: Services,
        admin_url: str,
        database: str,
        settled: Callable[[], int],
        rng: random.Random,
        stop: threading.Event,
        record: Record,
        began: float,
    ) -> None:
        super().__init__(name="chaos", daemon=True)
        self.plan = plan
        self.services = services
        self.admin_url = admin_url
        self.database = database
        self.settled = settled
        self.rng = rng
        self.stop = stop
        self.record = record
        self.began = began
        self.finished = threading.Event()
        self.busy = threading.Lock()  # held while the worker is down

    def run(self) -> None:
        try:
            for at, what in self.plan:
                while self.settled() < at:
                    if self.stop.wait(0.5):
                        return
                time.sleep(self.rng.uniform(0.0, 3.0))
                if what == "kill":
                    with self.busy:
                        self.services.kill_worker()
                        with self.record.lock:
                            self.record.kills.append(time.monotonic() - self.began)
                        print(f"chaos: worker SIGKILLed at {at} settled rounds", flush=True)
                        time.sleep(self.rng.uniform(0.5, 4.0))
                        self.services.start_worker()
                else:
                    ended = cut_connections(self.admin_url, self.database)
                    with self.record.lock:
                        self.record.cuts.append((time.monotonic() - self.began, ended))
                    print(f"chaos: {ended} database connections terminated at {at} rounds", flush=True)
        except Exception:
            self.record.problem(f"chaos crashed:\n{traceback.format_exc()}")
        finally:
            self.finished.set()


def make_plan(rng: random.Random, *, rounds: int, kills: int, cuts: int) -> list[tuple[int, str]]:
    """(settled rounds, what) in order: kills and cuts at random points between 3% and 90% of the run."""
    points = [(max(1, int(rounds * rng.uniform(0.03, 0.9))), "kill") for _ in range(kills)]
    points += [(max(1, int(rounds * rng.uniform(0.03, 0.9))), "cut") for _ in range(cuts)]
    return sorted(points)


# ============================================================================================== progress


def settled_counts() -> dict[str, int]:
    """Settled rounds by preset at ring tables, and `tournament:<preset>` for tournament tables."""
    from django.db.models import Count

    from tournaments.live.models import Round

    def read() -> dict[str, int]:
        rows = (
            Round.objects.filter(settled=True)
            .values("game__table__game", "game__table__tournament_id")
            .annotate(n=Count("pk"))
        )
        counts: Counter[str] = Counter()
        for r in rows:
            preset = r["game__table__game"]
            counts[preset if r["game__table__tournament_id"] is None else f"tournament:{preset}"] += r["n"]
        return dict(counts)

    return db(read)


def wind_down(tables: list[RingTable], timeout: float) -> list[str]:
    """Wait until every ring seat has left, no game is playing and every round is settled; what is not."""
    from tournaments.live.models import SEATED_STATUSES, Game, Round, Seat

    deadline = time.monotonic() + timeout
    pending: list[str] = []
    while time.monotonic() < deadline:
        seated = db(
            lambda: Seat.objects.filter(table__tournament__isnull=True, status__in=SEATED_STATUSES).count()
        )
        playing = db(lambda: Game.objects.filter(status="playing").count())
        open_rounds = db(lambda: Round.objects.filter(settled=False).count())
        pending = []
        if seated:
            pending.append(f"{seated} ring seats still held")
        if playing:
            pending.append(f"{playing} games still playing")
        if open_rounds:
            pending.append(f"{open_rounds} rounds not settled")
        if not pending and all(t.left for t in tables):
            return []
        time.sleep(1.0)
    return pending + [f"ring thread {t.name} never left" for t in tables if not t.left]


# ================================================================================================= checks


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    evidence: list[str] = field(default_factory=list)


def check_rounds() -> list[Check]:
    from collections import defaultdict

    from ledger.models import Entry, Transfer, TransferKind
    from tournaments.live.models import Round

    rounds = list(Round.objects.values("pk", "settled", "ended_at", "transfers", "game_id"))
    unsettled = [r["pk"] for r in rounds if not r["settled"] or r["ended_at"] is None]
    kinds = {"settlement": TransferKind.SETTLEMENT, "bonus": TransferKind.BONUS_SETTLEMENT}
    posted = Counter(
        (round_id, kind)
        for round_id, kind in Transfer.objects.filter(
            kind__in=list(kinds.values()), round_id__isnull=False
        ).values_list("round_id", "kind")
    )
    legs: dict[tuple[int, str], Counter[str]] = defaultdict(Counter)
    for round_id, kind, username, amount in Entry.objects.filter(
        transfer__kind__in=list(kinds.values()), transfer__round_id__isnull=False
    ).values_list("transfer__round_id", "transfer__kind", "account__user__username", "amount"):
        legs[(int(round_id or 0), kind)][username] += amount
    twice = [f"round {rid}: {n} {kind} transfers" for (rid, kind), n in posted.items() if n > 1]
    mismatched: list[str] = []
    expected_settlements = 0
    for r in rounds:
        for label, kind in kinds.items():
            net: Counter[str] = Counter()
            for row in r["transfers"] or []:
                if row.get("kind", "settlement") == label:
                    net[row["from"]] -= int(row["amount"])
                    net[row["to"]] += int(row["amount"])
            want = {k: v for k, v in net.items() if v}
            got = {k: v for k, v in legs.get((r["pk"], kind), Counter()).items() if v}
            if label == "settlement" and want:
                expected_settlements += 1
            if want != got:
                mismatched.append(f"round {r['pk']} {label}: the round says {want}, the ledger {got}")
    settlements = sum(n for (_rid, kind), n in posted.items() if kind == TransferKind.SETTLEMENT)
    orphans = [
        f"{kind} transfer for round {rid}, which does not exist"
        for (rid, kind) in posted
        if rid not in {r["pk"] for r in rounds}
    ]
    return [
        Check(
            "every round ended and settled",
            not unsettled,
            f"{len(rounds)} rounds, {len(unsettled)} not ended or not settled",
            [f"round {pk}" for pk in unsettled[:20]],
        ),
        Check(
            "settled exactly once",
            not twice and not orphans and settlements == expected_settlements,
            f"{settlements} settlement transfers for {expected_settlements} rounds that moved chips "
            f"({len(rounds) - expected_settlements} moved none); {len(twice)} posted twice",
            (twice + orphans)[:20],
        ),
        Check(
            "each round's transfers = its ledger legs",
            not mismatched,
            f"{len(mismatched)} rounds differ",
            mismatched[:20],
        ),
    ]


def check_tournaments(started: list[int], *, required: int) -> Check:
    from ledger.models import Account, Entry, Transfer, TransferKind, tournament_chip_type
    from tournaments.tournament.models import Tournament, TournamentEntry

    evidence: list[str] = []
    for tid in started:
        t = Tournament.objects.get(pk=tid)
        if t.status != "finished":
            evidence.append(f"tournament {tid}: {t.status}")
            continue
        payouts = list(Transfer.objects.filter(tournament_id=tid, kind=TransferKind.PAYOUT))
        if len(payouts) != 1:
            evidence.append(f"tournament {tid}: {len(payouts)} payout transfers")
            continue
        assert t.pool_account_id is not None
        pool_in = sum(e.amount for e in Entry.objects.filter(account_id=t.pool_account_id, amount__gt=0))
        paid = -sum(e.amount for e in Entry.objects.filter(transfer=payouts[0], account_id=t.pool_account_id))
        entries = list(TournamentEntry.objects.filter(tournament_id=tid))
        pool_now = Account.objects.get(pk=t.pool_account_id).balance
        chips_left = Account.objects.filter(chip_type=tournament_chip_type(tid)).exclude(balance=0).count()
        if paid != pool_in or pool_in != len(entries) * t.buy_in or pool_now != 0:
            evidence.append(
                f"tournament {tid}: paid {paid} from a pool that took {pool_in} ({len(entries)} entrants x "
                f"{t.buy_in}); pool balance {pool_now}"
            )
        if sum(e.prize for e in entries) != paid or not all(e.place for e in entries):
            evidence.append(f"tournament {tid}: prizes {sum(e.prize for e in entries)}, places missing")
        if chips_left:
            evidence.append(f"tournament {tid}: {chips_left} accounts of its chips not empty")
    return Check(
        "every tournament finished with one payout equal to its pool",
        len(started) >= required and not evidence,
        f"{len(started)} tournaments",
        evidence,
    )


def check_reconciliation() -> Check:
    from ledger.selectors import reconcile

    report = reconcile()
    return Check(
        "reconciliation ok",
        report.ok,
        f"{len(report.problems)} problems",
        [str(p) for p in report.problems[:20]],
    )


def scan_logs(logs: Path) -> tuple[Check, dict[str, int]]:
    """Tracebacks and ERROR/CRITICAL lines in every process log, each with the lines up to the next record
    (its traceback), grouped by what they say; and the access log's statuses."""
    first: dict[str, str] = {}  # kind of error -> its first record, shortened
    kinds: Counter[str] = Counter()
    for path in sorted(logs.glob("*.log")):
        if path.name == "access.log":
            continue
        lines = path.read_text(errors="replace").splitlines()
        i = 0
        while i < len(lines):
            if not LOG_ERROR.search(lines[i]):
                i += 1
                continue
            end = next(
                (j for j in range(i + 1, min(len(lines), i + 400)) if LOG_RECORD.match(lines[j])),
                min(len(lines), i + 400),
            )
            block = [line for line in lines[i:end] if line.strip()]
            # What it says, without its time, ids and numbers: one group per kind of error.
            head = re.sub(r"^\[?[\d\- :,]+\]?:?\s*", "", block[0])
            head = re.sub(r"\[[0-9a-f-]{36}\]|\d+", "#", head)[:200]
            shown = block[:1] + (["...", *block[-3:]] if len(block) > 4 else block[1:])
            first.setdefault(head, f"{path.name}:{i + 1}: " + "\n    ".join(shown))
            kinds[head] += 1
            i = max(end, i + 1)
    statuses: Counter[str] = Counter()
    access = logs / "access.log"
    if access.exists():
        for line in access.read_text(errors="replace").splitlines():
            match = ACCESS_STATUS.search(line)
            if match:
                statuses[match.group(1)] += 1
    bad = {s: n for s, n in statuses.items() if s.startswith("5") and s != "503"}
    evidence = [f"{n} x {head}\n  first: {first[head]}" for head, n in kinds.most_common()]
    evidence += [f"access log: {n} answers {s}" for s, n in sorted(bad.items())]
    return (
        Check(
            "no traceback or ERROR line in any log, no 5xx but 503",
            not kinds and not bad,
            f"{sum(kinds.values())} error records in the process logs ({len(kinds)} kinds); access log "
            f"{dict(sorted(statuses.items()))}",
            evidence,
        ),
        dict(statuses),
    )


def round_gaps() -> tuple[float, float, int]:
    """Seconds between a ring round's end and the next round's deal at its table: (median, max, count). A
    start message lost with a killed worker waits for beat's sweeper; this shows how long."""
    import statistics

    from tournaments.live.models import Round

    rows = list(
        Round.objects.filter(game__table__tournament__isnull=True)
        .order_by("game_id", "number")
        .values_list("game_id", "started_at", "ended_at")
    )
    gaps = [
        (nxt[1] - cur[2]).total_seconds()
        for cur, nxt in itertools.pairwise(rows)
        if cur[0] == nxt[0] and cur[2] is not None
    ]
    if not gaps:
        return 0.0, 0.0, 0
    return statistics.median(gaps), max(gaps), len(gaps)


# ================================================================================================ report


def summary(
    *,
    counts: dict[str, int],
    record: Record,
    elapsed: float,
    checks: list[Check],
    args: argparse.Namespace,
    load: tuple[str, str],
    incarnations: int,
    gaps: tuple[float, float, int],
) -> str:
    total = sum(counts.values())
    ring = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if not k.startswith("tournament:"))
    tour = sum(v for k, v in counts.items() if k.startswith("tournament:"))
    statuses: Counter[str] = Counter()
    for key, n in record.answers.items():
        statuses[key.rsplit(" ", 1)[1]] += n
    lines = [
        f"Rounds settled: {total:,} in {elapsed / 60:.1f} min ({total / elapsed:.2f} rounds/s); ring tables: {ring}; "
        f"multi-table tournaments: {tour} rounds in {len(record.tournaments)} tournaments of {args.entrants} "
        f"entrants ({T_SEATS} seats).",
        f"Moves accepted over HTTP: {record.moves:,} ({record.moves / elapsed:.1f}/s). Answers by status: "
        + ", ".join(f"{s} {n:,}" for s, n in sorted(statuses.items()))
        + f". Seats taken again after the server stood a player up: {record.resits}; absent players back: "
        f"{record.backs}.",
        f"Chaos: {len(record.kills)} SIGKILLs of the worker ({incarnations} incarnations), "
        f"{len(record.cuts)} connection cuts ending {sum(n for _, n in record.cuts)} backends "
        f"({', '.join(str(n) for _, n in record.cuts)}). Pause between a ring round's end and the next deal: "
        f"median {gaps[0]:.1f} s, longest {gaps[1]:.1f} s (the next deal is due 1 s after; a start lost with "
        f"the worker waits for beat's sweeper: every 30 s, 5 s of grace).",
        f"Load average before: {load[0]}, after: {load[1]} ({os.cpu_count()} cores, shared).",
        "",
        "| check | result | figures |",
        "|---|---|---|",
    ]
    for c in checks:
        lines.append(f"| {c.name} | {'ok' if c.ok else 'FAILED'} | {c.detail} |")
    return "\n".join(lines)


def update_docs(path: Path, body: str) -> None:
    text = path.read_text()
    block = f"{BEGIN}\n{body.rstrip()}\n{END}"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.rstrip() + f"\n\n{SECTION}\n\n{block}\n"
    path.write_text(text.rstrip() + "\n")


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# ================================================================================================== main


@dataclass
class Setup:
    admin: Player
    tables: list[RingTable]
    tournament_players: dict[str, Player]


def setup(base: str, args: argparse.Namespace, record: Record, stop: threading.Event) -> Setup:
    admin = login(base, "soak-admin", "soak-admin-pw-123", record)
    tables: list[RingTable] = []
    for t in range(args.tables):
        preset = PRESETS[t % len(PRESETS)]
        seats = 2 + t % 3
        options: dict[str, Any] = {"turn_seconds": TURN_SECONDS, "time_bank_seconds": 0}
        if preset == "rummy500_household":
            options["rummy_call_seconds"] = 1
        table = admin.expect(
            "POST",
            "/tables/",
            (201,),
            json={
                "game": preset,
                "options": options,
                "seats": seats,
                "pcr": PCR,
                "min_buy_in": 100,
                "max_buy_in": RING_BUY_IN,
            },
        )
        players = {}
        for s in range(seats):
            player = register(base, f"soak-t{t}-p{s}", record, admin)
            player.expect("POST", f"/tables/{table['id']}/sit/", (200,), json={"buy_in": RING_BUY_IN})
            players[player.username] = player
        game_id = admin.expect("GET", f"/tables/{table['id']}/")["current_game"]
        tables.append(
            RingTable(table_id=table["id"], game_id=game_id, players=players, stop=stop, record=record)
        )
        print(f"ring table {table['id']}: {preset}, {seats} players", flush=True)
    entrants = {}
    for e in range(args.entrants if args.tournaments else 0):
        player = register(base, f"soak-e{e}", record, admin)
        entrants[player.username] = player
    return Setup(admin=admin, tables=tables, tournament_players=entrants)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    full = {"rounds": 1000, "kills": 20, "cuts": 5, "tables": 7, "tournaments": 1, "entrants": 12}
    quick = {"rounds": 80, "kills": 3, "cuts": 2, "tables": 4, "tournaments": 1, "entrants": 8}
    parser.add_argument(
        "--rounds", type=int, help=f"settled rounds to reach, all tables (default {full['rounds']})"
    )
    parser.add_argument("--kills", type=int, help=f"SIGKILLs of the worker (default {full['kills']})")
    parser.add_argument(
        "--cuts", type=int, help=f"terminations of every database connection (default {full['cuts']})"
    )
    parser.add_argument("--tables", type=int, help=f"ring tables, presets in turn (default {full['tables']})")
    parser.add_argument(
        "--tournaments", type=int, help=f"multi-table tournaments, at least (default {full['tournaments']})"
    )
    parser.add_argument(
        "--entrants", type=int, help=f"entrants of each tournament (default {full['entrants']})"
    )
    parser.add_argument("--tournament-game", default="rummy500", choices=PRESETS)
    parser.add_argument("--seed", type=int, default=None, help="the chaos plan's seed (default: random)")
    parser.add_argument("--timeout", type=float, default=3 * 3600.0, help="seconds before the run gives up")
    parser.add_argument("--quick", action="store_true", help=f"defaults for development: {quick}")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--no-docs", action="store_true", help="do not update docs/operations.md")
    args = parser.parse_args(argv)
    for name, value in (quick if args.quick else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if not (1 <= args.rounds <= 1_000_000 and 0 <= args.kills <= 1000 and 0 <= args.cuts <= 1000):
        parser.error("--rounds 1..1000000, --kills and --cuts 0..1000")
    if not (1 <= args.tables <= 30 and 0 <= args.tournaments <= 100 and 2 <= args.entrants <= 64):
        parser.error("--tables 1..30, --tournaments 0..100, --entrants 2..64")
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(10**6)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    base_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ramino")
    if not base_url.startswith("postgres"):
        print("make soak needs DATABASE_URL=postgres://...", file=sys.stderr)
        return 2
    url, admin_url, scratch = scratch_url(base_url, "soak_run")
    broker_url = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
    queue = f"ramino-soak-{uuid.uuid4().hex[:10]}"
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=url,
        CELERY_BROKER_URL=broker_url,
        CELERY_TASK_DEFAULT_QUEUE=queue,
        RAMINO_NEXT_ROUND_DELAY_SECONDS="1",
        PYTHONUNBUFFERED="1",
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the cleanup below runs on SIGTERM too
    logs = ROOT / "var" / "soak" / datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    logs.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    plan = make_plan(rng, rounds=args.rounds, kills=args.kills, cuts=args.cuts)
    print(
        f"soak: {args.rounds} rounds, {args.kills} kills, {args.cuts} cuts, {args.tables} ring tables, "
        f"{args.tournaments}+ tournaments of {args.entrants}, seed {args.seed}; database {scratch}, queue "
        f"{queue}, logs {logs}",
        flush=True,
    )
    load_before = _load()
    record = Record()
    stop = threading.Event()
    services = Services(dict(os.environ), logs, queue)
    checks: list[Check] = []
    counts: dict[str, int] = {}
    elapsed = 0.0
    tournaments: Tournaments | None = None
    recreate_database(admin_url, scratch)
    try:
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        get_user_model().objects.create_superuser("soak-admin", password="soak-admin-pw-123")
        connection.close()
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        services.start_gunicorn(port)
        services.start_worker()
        services.start_beat()
        prepared = setup(base, args, record, stop)
        began = time.monotonic()
        latest = [0]  # settled rounds, as the main loop last counted them
        for table in prepared.tables:
            table.start()
        tournaments = Tournaments(
            admin=prepared.admin,
            players=prepared.tournament_players,
            game=args.tournament_game,
            minimum=args.tournaments,
            more=lambda: latest[0] < args.rounds,
            stop=stop,
            record=record,
            timeout=args.timeout,
        )
        if args.tournaments:
            tournaments.start()
        else:
            tournaments.done.set()
        chaos = Chaos(
            plan=plan,
            services=services,
            admin_url=admin_url,
            database=scratch,
            settled=lambda: latest[0],
            rng=rng,
            stop=stop,
            record=record,
            began=began,
        )
        chaos.start()
        last_total, last_change, last_print = 0, time.monotonic(), 0.0
        while True:
            counts = settled_counts()
            total = latest[0] = sum(counts.values())
            now = time.monotonic()
            if total != last_total:
                last_total, last_change = total, now
            if now - last_print > 30:
                last_print = now
                print(
                    f"[{now - began:6.0f} s] {total} rounds settled {dict(sorted(counts.items()))}; "
                    f"{record.moves} moves, {len(record.kills)} kills, {len(record.cuts)} cuts, "
                    f"{len(record.tournaments)} tournaments finished",
                    flush=True,
                )
            if chaos.busy.acquire(blocking=False):
                try:
                    services.check()
                finally:
                    chaos.busy.release()
            if (
                total >= args.rounds
                and chaos.finished.is_set()
                and len(record.tournaments) >= args.tournaments
            ):
                break
            if now - last_change > STALL_SECONDS:
                raise SoakFailed(f"no round settled for {STALL_SECONDS:.0f} s: {stalled_games()}")
            if now - began > args.timeout:
                raise SoakFailed(f"not done within {args.timeout:.0f} s")
            if record.problems and any("crashed" in p for p in record.problems):
                raise SoakFailed("a driver thread crashed")
            time.sleep(2.0)
        stop.set()
        chaos.join(timeout=120)
        elapsed = time.monotonic() - began
        print("stopping: ring players leave, the last tournament ends", flush=True)
        tournaments.done.wait(timeout=args.timeout)
        for table in prepared.tables:
            table.join(timeout=WIND_DOWN_SECONDS)
        pending = wind_down(prepared.tables, WIND_DOWN_SECONDS)
        counts = settled_counts()
        connection.close()
        services.stop()
        checks.append(
            Check("the run wound down", not pending, "; ".join(pending) or "everyone left", pending)
        )
    except Exception as exc:
        stop.set()
        record.abort.set()
        evidence = str(exc) if isinstance(exc, SoakFailed) else traceback.format_exc()
        checks.append(Check("the run completed", False, str(exc)[:300], [evidence]))
        elapsed = elapsed or 1.0
    finally:
        stop.set()
        services.stop()
        _delete_queue(queue)
        with suppress(Exception):
            print(f"{forget_unacked(queue)} messages the killed workers held dropped from the broker")

    incarnations = services.incarnation
    gaps = (0.0, 0.0, 0)
    started_tournaments = list(tournaments.started) if tournaments is not None else []
    try:
        from django.db import connections

        connections.close_all()
        if not counts:
            counts = settled_counts()
        checks.extend(check_rounds())
        checks.append(check_tournaments(started_tournaments, required=args.tournaments))
        checks.append(check_reconciliation())
        gaps = round_gaps()
    except Exception:
        checks.append(Check("the checks ran", False, "exception", [traceback.format_exc()]))
    checks.append(
        Check(
            "the plan's chaos was done",
            len(record.kills) >= args.kills and len(record.cuts) >= args.cuts,
            f"{len(record.kills)} of {args.kills} kills, {len(record.cuts)} of {args.cuts} cuts",
        )
    )
    checks.append(
        Check(
            f"at least {args.rounds} rounds",
            sum(counts.values()) >= args.rounds,
            f"{sum(counts.values())} settled",
        )
    )
    checks.append(
        Check(
            "no 5xx answer but 503, no driver problem",
            not record.problems,
            f"{len(record.problems)} problems",
            record.problems[:20],
        )
    )
    log_check, _access = scan_logs(logs)
    checks.append(log_check)
    ok = all(c.ok for c in checks)
    body = summary(
        counts=counts,
        record=record,
        elapsed=max(elapsed, 1.0),
        checks=checks,
        args=args,
        load=(load_before, _load()),
        incarnations=incarnations,
        gaps=gaps,
    )
    print()
    print(body)
    for c in checks:
        if not c.ok and c.evidence:
            print(f"\n--- {c.name}: evidence ---")
            for line in c.evidence:
                print(line)
    print(f"\nlogs: {logs}")
    with suppress(Exception):
        from django.db import connections

        connections.close_all()
    if ok and not args.keep:
        recreate_database(admin_url, scratch, create=False)
    else:
        print(f"database kept: {scratch} (drop it with: psql {admin_url} -c 'DROP DATABASE \"{scratch}\"')")
    if not args.quick and not args.no_docs:
        extra = " ".join(argv if argv is not None else sys.argv[1:])
        update_docs(
            ROOT / "docs" / "operations.md",
            f"Run on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with `{COMMAND} "
            f"TEST_DATABASE_URL={base_url}" + (f' SOAK_ARGS="{extra}"' if extra else "") + "`"
            f", seed {args.seed}: {'every check passed' if ok else 'SOME CHECKS FAILED'}.\n\n" + body,
        )
    return 0 if ok else 1


def stalled_games() -> str:
    from tournaments.live.models import Game

    rows = db(
        lambda: list(
            Game.objects.exclude(status="closed").values_list(
                "pk", "status", "version", "turn_deadline", "claims_deadline", "next_round_at"
            )
        )
    )
    return "; ".join(f"game {r[0]} {r[1]} v{r[2]} turn {r[3]} claims {r[4]} next {r[5]}" for r in rows)


if __name__ == "__main__":
    sys.exit(main())
