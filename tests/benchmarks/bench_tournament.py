"""Table events per second of a multi-table tournament with instant rounds, with 1, 2 and 4 Celery worker
processes and 200 and 20,000 entrants, against a floor measured by the same workers in the same run.

    make bench-tournament    # = DATABASE_URL=<test postgres> python -m tests.benchmarks.bench_tournament

What runs, all on 127.0.0.1 and all stopped at the end (also on failure):
- a scratch database `<name>_bench_tournament` next to DATABASE_URL's, dropped, recreated and migrated
  (dropped again afterwards unless --keep);
- for each worker count, that many `celery worker` processes (prefork, concurrency 1 each, each in its own
  process group) on a queue of their own, with RAMINO_NEXT_ROUND_DELAY_SECONDS=0; they also import
  `tests.benchmarks.bench_tasks`, whose signal handlers count every task run and add up its seconds in Redis
  (per task name), and whose `bench.floor` task is the floor.

For each worker count: the floor (`--floor-chains` chains of a task that only sends its successor) over
`--floor-window` seconds, then for each entrant count a freeroll with a guarantee (no wallet to fund; the
registrations go through `registration.register` one by one, timed, before the workers start), started
through the real start (`admin_actions.start`, timed: that is "the start's duration") and measured over
`--window` seconds from the start's commit. A table event is a round start (an instant round dealt, ended and
settled by PCR through the ledger) with its table's job (`progress.after_table_round`: busts, level,
balancing, the next deal): events/s = (round starts + jobs run in the window) / 2 / window; time per event =
worker-seconds (workers x window) / events. The tournament is then paused and its queue emptied before the
next one.

Afterwards, in this process: the share of an event spent holding the tournament's row lock (the job's
transaction, timed around each job of a tournament driven in-process), the open-table sizes query at 5,000 and
62,500 tables (EXPLAIN ANALYZE), and the ledger's reconciliation.

Options: --entrants 200,20000 --workers 1,2,4 --window 20 --floor-window 10 --floor-chains 50 --keep --no-docs
--to-payout N (then a tournament of N entrants played to its payout: `tournament_payout.py`) --payout-workers 2
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.benchmarks import tiny, tournament_payout
from tests.benchmarks.bench_api import _cpu_snapshot, _delete_queue
from tests.benchmarks.scratch_db import recreate_database, scratch_url

ROOT = Path(__file__).resolve().parents[2]
COMMAND = "make bench-tournament"
SECTION = "## Multi-table tournaments"
GOAL_RATIO = 1.5
LOBBY_GOAL = 2.0
START_ROUND = "tournaments.start_round"
TABLE_ROUND_OVER = "tournaments.table_round_over"
FLOOR = "bench.floor"
# The tournament: a freeroll with a guarantee (registration moves no chips), instant rounds, four seats,
# stacks that bust players from the first levels on without the 200-entrant field ending within the window.
STARTING_STACK = 1500
PCR_SCHEDULE = [1, 1, 2, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50]
ROUNDS_PER_LEVEL = 2
SEATS = 4
GUARANTEE = 100_000


# ========================================================================================== processes


class Workers:
    """`count` Celery worker processes (concurrency 1 each), each in its own process group; always stopped."""

    def __init__(self, env: dict[str, str], workdir: Path, queue: str, count: int) -> None:
        self.env = env
        self.workdir = workdir
        self.queue = queue
        self.count = count
        self.procs: list[subprocess.Popen[bytes]] = []
        self.names: list[str] = []

    def groups(self) -> dict[str, int]:
        return {f"worker{i}": proc.pid for i, proc in enumerate(self.procs)}

    def start(self) -> None:
        for i in range(self.count):
            name = f"bench-tournament-{os.getpid()}-{self.queue[-6:]}-{i}"
            log_path = self.workdir / f"{self.queue}-{i}.log"
            with log_path.open("wb") as log:
                self.procs.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "celery",
                            "-A",
                            "config",
                            "worker",
                            "--loglevel=WARNING",
                            "--concurrency=1",
                            "--pool=prefork",
                            "-Q",
                            f"{self.queue}-jobs,{self.queue}",
                            "--include",
                            "tests.benchmarks.bench_tasks",
                            "--without-gossip",
                            "--without-mingle",
                            "--without-heartbeat",
                            "-n",
                            f"{name}@%h",
                        ],
                        cwd=ROOT,
                        env=dict(
                            self.env,
                            CELERY_TASK_DEFAULT_QUEUE=self.queue,
                            BENCH_JOBS_QUEUE=f"{self.queue}-jobs",
                            BENCH_RUN=self.queue,
                        ),
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                )
            self.names.append(f"{name}@{socket.gethostname()}")
        from config.celery_app import app

        # Four workers starting beside a loaded machine took more than 90 s to answer once (7 December 2026).
        deadline = time.monotonic() + 240
        waiting = set(self.names)
        while waiting and time.monotonic() < deadline:
            for i, proc in enumerate(self.procs):
                if proc.poll() is not None:
                    tail = (self.workdir / f"{self.queue}-{i}.log").read_text()[-3000:]
                    raise RuntimeError(f"worker {i} exited early:\n{tail}")
            for reply in app.control.ping(destination=sorted(waiting), timeout=1) or []:
                waiting -= set(reply)
        if waiting:
            raise RuntimeError(f"workers not ready: {sorted(waiting)}; logs in {self.workdir}")

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                with suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                print(f"worker {proc.pid} did not stop on SIGTERM; killing its group", file=sys.stderr)
            # Whatever is left of the group (the prefork child) goes too.
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            with suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
        self.procs = []


# ============================================================================================ counters


def _redis() -> Any:
    import redis

    return redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])


def task_counts(run: str) -> dict[str, tuple[int, float]]:
    """{task name: (runs, seconds)} counted by the workers' signal handlers (bench_tasks) so far."""
    client = _redis()
    counts: dict[str, tuple[int, float]] = {}
    for key in client.scan_iter(f"bench:{run}:count:*"):
        name = key.decode().split(":count:", 1)[1]
        seconds = client.get(f"bench:{run}:seconds:{name}")
        counts[name] = (int(client.get(key) or 0), float(seconds or 0.0))
    return counts


def _diff(after: dict[str, tuple[int, float]], before: dict[str, tuple[int, float]]) -> dict[str, Any]:
    return {
        name: (runs - before.get(name, (0, 0.0))[0], seconds - before.get(name, (0, 0.0))[1])
        for name, (runs, seconds) in after.items()
    }


def _queue_length(queue: str) -> int:
    client = _redis()
    return int(client.llen(queue)) + int(client.llen(f"{queue}-jobs"))


@dataclass
class Measure:
    name: str
    workers: int
    entrants: int
    window: float
    tasks: dict[str, tuple[int, float]]
    cpu: dict[str, float]
    start_seconds: float = 0.0
    tables: int = 0
    rounds_settled: int = 0
    busted: int = 0
    moved: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def runs(self, name: str) -> int:
        return int(self.tasks.get(name, (0, 0.0))[0])

    def busy(self, name: str) -> float:
        return float(self.tasks.get(name, (0, 0.0))[1])

    @property
    def events(self) -> float:
        return (self.runs(START_ROUND) + self.runs(TABLE_ROUND_OVER)) / 2

    @property
    def rate(self) -> float:
        return self.events / self.window

    @property
    def ms_per_event(self) -> float:
        return 1000 * self.workers * self.window / self.events if self.events else float("nan")

    @property
    def busy_ms_per_event(self) -> float:
        """Mean seconds inside the two task bodies (round start + job), from the workers' own timing."""
        starts, jobs = self.runs(START_ROUND), self.runs(TABLE_ROUND_OVER)
        if not starts or not jobs:
            return float("nan")
        return 1000 * (self.busy(START_ROUND) / starts + self.busy(TABLE_ROUND_OVER) / jobs)

    def worker_cpu(self) -> float:
        return sum(v for k, v in self.cpu.items() if k.startswith("worker"))


class LockWaits:
    """Samples `pg_stat_activity` every `period` s on a connection of its own (a thread) while a window runs:
    of the client backends of the scratch database other than this process's, how many are active and how many
    wait for a lock (`wait_event_type = 'Lock'`: a row's transaction or tuple lock, a relation's), by the lock's
    kind. The workers' share of time spent waiting for locks = lock samples / (samples x workers)."""

    SQL = (
        "SELECT count(*) FILTER (WHERE state = 'active'), count(*) FILTER (WHERE wait_event_type = 'Lock'), "
        "coalesce(string_agg(wait_event, ',') FILTER (WHERE wait_event_type = 'Lock'), ''), "
        "coalesce(string_agg(left(regexp_replace(regexp_replace(query, '\\s+', ' ', 'g'), "
        "'^PREPARE \\w+ AS ', ''), 100), chr(31)) "
        "FILTER (WHERE wait_event_type = 'Lock'), '') "
        "FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' "
        "AND pid <> pg_backend_pid() AND pid <> ALL(%s)"
    )

    def __init__(self, exclude: list[int], period: float = 0.01) -> None:
        import threading

        self.exclude = exclude
        self.period = period
        self.samples = 0
        self.active = 0
        self.waiting = 0
        self.by_kind: dict[str, int] = {}
        self.by_statement: dict[str, int] = {}  # the waiting statements (their first 100 characters)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> LockWaits:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        from django.db import connection

        try:
            with connection.cursor() as cursor:
                while not self._stop.is_set():
                    cursor.execute(self.SQL, [self.exclude])
                    active, waiting, kinds, statements = cursor.fetchone()
                    self.samples += 1
                    self.active += int(active)
                    self.waiting += int(waiting)
                    for kind in filter(None, str(kinds).split(",")):
                        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
                    for statement in filter(None, str(statements).split(chr(31))):
                        self.by_statement[statement] = self.by_statement.get(statement, 0) + 1
                    time.sleep(self.period)
        finally:
            connection.close()

    def share(self, workers: int) -> float:
        return self.waiting / (self.samples * workers) if self.samples else float("nan")


def _own_pids() -> list[int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return [int(cursor.fetchone()[0])]


def _windowed(
    run: str, workers: Workers, database: str, window: float, during: Callable[[], None] | None = None
) -> tuple[dict[str, Any], dict[str, float], LockWaits]:
    groups = workers.groups()
    before_cpu = _cpu_snapshot(groups, database)
    before = task_counts(run)
    deadline = time.monotonic() + window
    waits = LockWaits(_own_pids())
    with waits:
        if during is not None:
            during()
        time.sleep(max(0.0, deadline - time.monotonic()))
    after = task_counts(run)
    after_cpu = _cpu_snapshot(groups, database)
    cpu = {k: after_cpu[k] - before_cpu.get(k, 0.0) for k in after_cpu}
    return _diff(after, before), cpu, waits


def measure_floor(run: str, workers: Workers, database: str, *, window: float, chains: int) -> Measure:
    from tests.benchmarks.bench_tasks import floor

    deadline = time.time() + window + 3
    for _ in range(chains):
        floor.apply_async(args=(f"bench:{run}:floor", deadline), queue=workers.queue)
    time.sleep(1.0)  # the chains get going
    tasks, cpu, _ = _windowed(run, workers, database, window)
    _wait_for_empty(workers.queue, timeout=30)
    return Measure(name="floor", workers=workers.count, entrants=0, window=window, tasks=tasks, cpu=cpu)


def _start_workers(count: int, workdir: Path, queues: list[str]) -> Workers:
    """`count` workers started on a queue of their own (kept in `queues`, deleted at the end), which this
    process's sends now use too."""
    queue = f"ramino-bench-tournament-{uuid.uuid4().hex[:10]}"
    queues.append(queue)
    os.environ["CELERY_TASK_DEFAULT_QUEUE"] = queue
    from django.conf import settings

    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    from config.celery_app import app

    app.conf.task_default_queue = queue
    workers = Workers(dict(os.environ), workdir, queue, count)
    workers.start()
    return workers


def _wait_for_empty(queue: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _queue_length(queue):
        time.sleep(0.2)


# =========================================================================================== tournament


def make_users(count: int) -> list[int]:
    """`count` players (no password, no wallet: the tournaments are freerolls)."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    User = get_user_model()
    existing = list(
        User.objects.filter(username__startswith="bench-p").order_by("pk").values_list("pk", flat=True)
    )
    missing = count - len(existing)
    if missing > 0:
        users = [User(username=f"bench-p{len(existing) + i}", password="!") for i in range(missing)]
        User.objects.bulk_create(users, batch_size=2000)
        # The planner's statistics of the users, as autovacuum would gather them on a site (off on some machines:
        # docs/performance.md "What the exclusive lock's 80% at 20,000 entrants was"): a read of one player by
        # name is planned as a scan of every user without them.
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f'ANALYZE "{User._meta.db_table}"')
        existing = list(
            User.objects.filter(username__startswith="bench-p").order_by("pk").values_list("pk", flat=True)
        )
    return existing[:count]


# `--formats`: rebuys (nobody buys one: the held busts and the add-on break are what the jobs do), the add-on and
# progressive-knockout bounties on every head (docs/rules.md "Rebuys and the add-on", "Progressive knockout").
FORMATS: dict[str, Any] = {}
FORMAT_OPTIONS = {"rebuy_levels": 2, "addon_chips": 100, "addon_seconds": 0}
BOUNTY = 50

# `--busting`: a field that busts from its first rounds (PCR 10 and rising against the usual stack: in a round
# of four, a player who scores about 150 below the winner is out), so that a window measures busting jobs (busts,
# plans, places: the jobs that take turns on the counters) instead of a field's first quiet rounds; `--stack` and
# `--pcr` shape it otherwise (a stack of 150 at PCR 25: nearly every loser busts in the first round).
SHAPE: dict[str, Any] = {"starting_stack": STARTING_STACK, "pcr_schedule": PCR_SCHEDULE}
BUSTING_PCR = [10, 10, 15, 20, 25, 30, 40, 50]


def fund_bounties(tournament_id: int) -> None:
    """A freeroll's heads given a bounty each, the house paying them into the bounty account in one transfer
    (as a buy-in's share would)."""
    from ledger.models import AccountKind, TransferKind
    from ledger.services import accounts, postings
    from tournaments.tournament.entry_payments import bounty_account
    from tournaments.tournament.models import Tournament, TournamentEntry

    tournament = Tournament.objects.get(pk=tournament_id)
    heads = TournamentEntry.objects.filter(tournament=tournament).update(bounty=BOUNTY)
    postings.post_transfer(
        kind=TransferKind.ADJUSTMENT,
        legs=[
            (accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER), -BOUNTY * heads),
            (bounty_account(tournament), BOUNTY * heads),
        ],
        idempotency_key=f"bench:{tournament_id}:bounties",
        reason="bench bounties",
        posted_by_system="bench",
    )


def create_tournament(admin: Any, *, entrants: int, label: str) -> Any:
    """A multi-table freeroll with a guarantee and instant rounds, registering (validation is not this
    benchmark's subject: the row is written as the services' tests write it)."""
    from django.utils import timezone

    from ledger.models import SITE_CHIPS, AccountKind
    from ledger.services import accounts
    from tournaments.tournament.models import Tournament, TournamentStatus

    tournament = Tournament.objects.create(
        name=f"bench {label}",
        kind="multi",
        game="rummy500",
        options={},
        buy_in=0,
        fee=0,
        guarantee=GUARANTEE,
        seats=SEATS,
        **SHAPE,
        rounds_per_level=ROUNDS_PER_LEVEL,
        min_entrants=2,
        max_entrants=entrants,
        starts_at=timezone.now(),
        payouts=[40, 25, 15, 10, 10],
        status=TournamentStatus.REGISTERING,
        instant_rounds=True,
        created_by=admin,
        **FORMATS,
    )
    tournament.pool_account = accounts.open_account(
        kind=AccountKind.PRIZE_POOL, chip_type=SITE_CHIPS, reference=f"tournament:{tournament.pk}"
    )
    tournament.save(update_fields=["pool_account"])
    return tournament


def register_all(tournament_id: int, user_ids: list[int]) -> list[float]:
    """Every player registered through `registration.register`; the seconds of each block of 1,000."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from tournaments.tournament import registration

    users = get_user_model().objects.in_bulk(user_ids)
    # Each registration is its own transaction: without this each would wait for its WAL flush (this run's
    # connection only; the service's statements are the same).
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO OFF")
    blocks: list[float] = []
    began = time.perf_counter()
    for i, pk in enumerate(user_ids, 1):
        registration.register(user=users[pk], tournament_id=tournament_id)
        if i % 1000 == 0 or i == len(user_ids):
            now = time.perf_counter()
            blocks.append((now - began) / (1000 if i % 1000 == 0 else i % 1000))
            began = now
    return blocks


def bulk_register(tournament_id: int, user_ids: list[int]) -> float:
    """Every player's entry written in bulk, with the row's counter (a freeroll's registration moves no chips:
    the rows are those `registration.register` writes); for fields too large to register one by one in a run
    (`--register-max`). Answers the seconds."""
    from tournaments.tournament import counters
    from tournaments.tournament.models import Tournament, TournamentEntry

    began = time.perf_counter()
    TournamentEntry.objects.bulk_create(
        (TournamentEntry(tournament_id=tournament_id, player_id=player) for player in user_ids),
        batch_size=5000,
    )
    counters.add(Tournament.objects.get(pk=tournament_id), entrants=len(user_ids))
    return time.perf_counter() - began


def copy_entries(source_id: int, target_id: int) -> None:
    """The registered entries of `source_id` copied into `target_id` (a freeroll's registration moves no
    chips): the same field for the next worker count without registering it again."""
    from tournaments.tournament import counters
    from tournaments.tournament.models import Tournament, TournamentEntry

    counters.add(Tournament.objects.get(pk=target_id), entrants=Tournament.objects.get(pk=source_id).entrants)
    TournamentEntry.objects.bulk_create(
        (
            TournamentEntry(tournament_id=target_id, player_id=player)
            for player in TournamentEntry.objects.filter(tournament_id=source_id)
            .order_by("registered_at", "pk")
            .values_list("player_id", flat=True)
        ),
        batch_size=2000,
    )


def measure_tournament(
    run: str, workers: Workers, database: str, *, tournament_id: int, entrants: int, window: float
) -> Measure:
    from django.db import connection

    from tournaments.live.models import Round, Table
    from tournaments.tournament import admin_actions
    from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

    if FORMATS:
        fund_bounties(tournament_id)
    began = time.perf_counter()
    admin_actions.start(tournament_id=tournament_id)
    first_batch = time.perf_counter() - began
    # A field of more than RAMINO_START_BATCH_TABLES tables is seated and dealt in batches by the workers
    # (`multi_table.start`): the start lasts until its last step (the window begins then).
    while Tournament.objects.filter(pk=tournament_id, start_seed__isnull=False).exists():
        if time.perf_counter() - began > 3600:
            raise RuntimeError(f"the batched start of tournament {tournament_id} did not end within an hour")
        time.sleep(0.05)
    start_seconds = time.perf_counter() - began
    committed = time.time()
    tasks, cpu, waits = _windowed(run, workers, database, window)
    finished = not Tournament.objects.filter(pk=tournament_id, status=TournamentStatus.RUNNING).exists()
    if not finished:
        admin_actions.pause(tournament_id=tournament_id)
    from datetime import UTC, datetime, timedelta

    window_end = datetime.fromtimestamp(committed, tz=UTC) + timedelta(seconds=window)
    rounds = Round.objects.filter(game__table__tournament_id=tournament_id, settled=True)
    measure = Measure(
        name=f"{entrants} entrants",
        workers=workers.count,
        entrants=entrants,
        window=window,
        tasks=tasks,
        cpu=cpu,
        start_seconds=start_seconds,
        extra={
            "finished in the window": finished,
            "lock share": waits.share(workers.count),
            "lock kinds": dict(waits.by_kind),
            "lock statements": dict(waits.by_statement),
            "lock samples": waits.samples,
            "first batch s": first_batch,
        },
        tables=Table.objects.filter(tournament_id=tournament_id).count(),
        rounds_settled=rounds.filter(ended_at__lte=window_end).count(),
        busted=TournamentEntry.objects.filter(tournament_id=tournament_id, busted_at__isnull=False).count(),
        moved=sum(
            TournamentEntry.objects.filter(tournament_id=tournament_id).values_list("times_moved", flat=True)
        ),
    )
    # Paused: each table's chain stops at its next deal; what is still queued is dropped.
    _wait_for_empty(workers.queue, timeout=60)
    connection.close()
    return measure


# ============================================================================================= in-process


def in_process(tournament_id: int, *, events: int) -> dict[str, Any]:
    """Drive `events` table events of a tournament in this process (its messages captured and run in order,
    no worker running) and time the two bodies: the round start (deal, instant end, settlement) and the job,
    whose whole transaction holds the tournament's row lock; within the job, the open tables' sizes query.
    Answers means in ms and the job's share of an event."""
    from unittest import mock

    from django.db import connection
    from django.utils import timezone

    from devtools.multi_table_simulation import CapturedDispatch
    from tournaments.live.models import Game, TableStatus
    from tournaments.live.rounds import start as round_start
    from tournaments.multi_table import balance as multi_balance
    from tournaments.multi_table import progress, quiet
    from tournaments.tournament.models import Tournament, TournamentStatus

    Tournament.objects.filter(pk=tournament_id).update(status=TournamentStatus.RUNNING)
    timings: dict[str, list[float]] = {
        "deal": [],
        "job": [],
        "sizes": [],
        "shared": [],
        "busting": [],
        "planning": [],
        "group planning": [],
        "counted": [],
        "group counted": [],
        "tried": [],
    }
    shared_original = quiet.after_quiet_round
    attempt_original = quiet._shared
    take_original = quiet.Counters.take
    path = ["exclusive"]  # the path the current job was done on
    mode = [quiet.Mode.QUIET]  # the shared path's last attempt's mode
    taken = [0.0]  # when it took the counters (0: it did not)

    def timed_attempt(**kwargs: Any) -> str | None:
        mode[0] = kwargs["mode"]
        taken[0] = 0.0
        return attempt_original(**kwargs)

    def timed_take(self: Any) -> None:
        take_original(self)
        taken[0] = taken[0] or time.perf_counter()

    def timed_shared(**kwargs: Any) -> str | None:
        began = time.perf_counter()
        try:
            done = shared_original(**kwargs)
        finally:
            ended = time.perf_counter()
            spent = 1000 * (ended - began)
        # A job done on the shared path: quiet, busting (the counters held from `Counters.take` to the commit)
        # or planning (the plans' lock and the counters held from its start); else the time of the attempts
        # (the exclusive job follows).
        if done is None:
            timings["tried"].append(spent)
            return done
        path[0] = "shared"
        if mode[0] is quiet.Mode.QUIET:
            timings["shared"].append(spent)
        elif mode[0] is quiet.Mode.BUSTING:
            timings["busting"].append(spent)
            timings["counted"].append(1000 * (ended - taken[0]) if taken[0] else 0.0)
        elif mode[0] is quiet.Mode.GROUP_PLANNING:
            # Its group's plans' lock held throughout, the counters from `Counters.take` to the commit.
            timings["group planning"].append(spent)
            timings["group counted"].append(1000 * (ended - taken[0]) if taken[0] else 0.0)
        else:
            timings["planning"].append(spent)  # the plans' lock and the counters held throughout
        return done

    first_jobs = min(events, 50)  # tables set going by their job (as a resume does), not timed
    original = multi_balance.open_table_sizes
    # Where the exclusive jobs' time goes: every statement run by `progress._after` (the job's body under
    # the tournament's exclusive lock) timed and grouped by its text, and why each exclusive job ran.
    statements: dict[str, list[float]] = {}
    inside = [False]
    timed_job = [False]
    after_original = progress._after
    why: dict[str, int] = {}

    def timed_statement(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if not inside[0]:
            return execute(sql, params, many, context)
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            slot = statements.setdefault(" ".join(sql.split())[:120], [0.0, 0.0])
            slot[0] += 1
            slot[1] += 1000 * (time.perf_counter() - began)

    def timed_after(tournament: Any, table: Any, game: Any, round_: Any) -> str:
        inside[0] = timed_job[0]  # not the first, untimed jobs
        try:
            return after_original(tournament, table, game, round_)
        finally:
            inside[0] = False

    def exclusive_reason(tournament_id: int, table_id: int) -> str:
        """Why the shared path would refuse this job (its own tests, read-only, before the job runs)."""
        from tournaments.live.models import Table
        from tournaments.multi_table.planning import table_sizes as sizes_of
        from tournaments.multi_table.planning.levels import level_of

        t = Tournament.objects.get(pk=tournament_id)
        game = Game.objects.select_related("current_round").get(table_id=table_id)
        size, broke = quiet._seated_and_broke(Table.objects.get(pk=table_id))
        number = game.current_round.number if game.current_round else 0
        hist = sizes_of.resized(t.table_sizes or {}, old=size, new=size)
        reason = (
            "not running or round-for-round"
            if not quiet.may_share(t)
            else "level"
            if level_of(number + 1, rounds_per_level=int(t.rounds_per_level or 1)) > t.level
            else "bust"
            if broke
            else "bubble"
            if quiet.bubble_due(t)
            else "histogram untrusted"
            if not sizes_of.consistent(hist, tables_open=t.tables_open, players_left=t.players_left)
            else f"plan needed (size {size}, sizes {t.table_sizes})"
            if not multi_balance.no_plan(t, hist, size=size)
            else "other"
        )
        return reason

    def timed_sizes(tournament: Any) -> dict[int, int]:
        began = time.perf_counter()
        try:
            return original(tournament)
        finally:
            timings["sizes"].append(1000 * (time.perf_counter() - began))

    with (
        CapturedDispatch() as queue,
        mock.patch.object(progress, "open_table_sizes", timed_sizes),
        mock.patch.object(quiet, "after_quiet_round", timed_shared),
        mock.patch.object(quiet, "_shared", timed_attempt),
        mock.patch.object(quiet.Counters, "take", timed_take),
        mock.patch.object(progress, "_after", timed_after),
        connection.execute_wrapper(timed_statement),
    ):
        # As a resume does: each waiting table's job (which busts what is left, balances and schedules the
        # deal); the deals and jobs it sends then follow one another here.
        waiting = Game.objects.filter(
            table__tournament_id=tournament_id, table__status=TableStatus.OPEN, status="waiting"
        ).order_by("pk")
        first = list(waiting.values_list("table_id", flat=True)[:first_jobs])
        # Their deal messages were dropped with the window's queue: as the sweeper would, forget them, so that
        # each job schedules its table's deal again.
        Game.objects.filter(table_id__in=first, status="waiting").update(next_round_at=None)
        for table_id in first:
            queue.push(TABLE_ROUND_OVER, [tournament_id, table_id, None])
        while queue and len(timings["job"]) < events:
            name, args = queue.pop()
            reason = exclusive_reason(args[0], args[1]) if name == TABLE_ROUND_OVER and args[2] else ""
            began = time.perf_counter()
            if name == START_ROUND:
                Game.objects.filter(pk=args[0], next_round_at__isnull=False).update(
                    next_round_at=timezone.now()
                )
                round_start.start_round(game_id=args[0])
                timings["deal"].append(1000 * (time.perf_counter() - began))
            elif name == TABLE_ROUND_OVER:
                path[0] = "exclusive"
                timed_job[0] = args[2] is not None
                progress.after_table_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
                if args[2] is not None:  # the job of a round dealt here (not one of the first, untimed)
                    timings["job"].append(1000 * (time.perf_counter() - began))
                    if path[0] == "exclusive":
                        why[reason] = why.get(reason, 0) + 1
    Tournament.objects.filter(pk=tournament_id, status=TournamentStatus.RUNNING).update(
        status=TournamentStatus.PAUSED
    )

    def mean(values: list[float]) -> float:
        return statistics.mean(values) if values else float("nan")

    deal, job, sizes = mean(timings["deal"]), mean(timings["job"]), mean(timings["sizes"])
    jobs = len(timings["job"])
    shared_jobs = len(timings["shared"])
    # The exclusive lock is held by the jobs not done on the shared path: their time after the attempts. On
    # the shared path, the jobs that bust or plan take turns for the counters (`quiet.Counters`): a busting job
    # from taking them to its commit, a planning job for its whole transaction (with the plans' lock).
    done_shared = sum(sum(timings[kind]) for kind in ("shared", "busting", "group planning", "planning"))
    exclusive_ms = (sum(timings["job"]) - done_shared - sum(timings["tried"])) / max(1, jobs)
    counted_ms = sum(timings["counted"]) / max(1, jobs)
    planning_ms = sum(timings["planning"]) / max(1, jobs)
    group_counted_ms = sum(timings["group counted"]) / max(1, jobs)
    top = sorted(statements.items(), key=lambda kv: -kv[1][1])[:4]
    return {
        "exclusive_statements": [(text, int(n), ms) for text, (n, ms) in top],
        "exclusive_why": why,
        "deal_ms": deal,
        "job_ms": job,
        "sizes_ms": sizes,
        "share": job / (deal + job),
        "shared_jobs": float(shared_jobs),
        "shared_ms": mean(timings["shared"]),
        "exclusive_share": exclusive_ms / (deal + job),
        "busting_jobs": float(len(timings["busting"])),
        "planning_jobs": float(len(timings["planning"])),
        "group_planning_jobs": float(len(timings["group planning"])),
        "group_counted_share": group_counted_ms / (deal + job),
        "counted_share": counted_ms / (deal + job),
        "planning_share": planning_ms / (deal + job),
        "events": float(len(timings["job"])),
        "sizes_calls": float(len(timings["sizes"])),
    }


LOBBY_READS = ("detail", "standings", "tables", "one table", "events", "one player")


def lobby_reads(tournament_id: int) -> dict[str, tuple[float, int]]:
    """The lobby's reads of a tournament through the API (Django's test client, anonymous, warm): the row,
    the first standings page, the first tables page, one table, the last 50 events, one player's row (the
    middle entrant's, `?player=`). Median ms of 5 and the statements of one."""
    from django.test import Client

    from tournaments.live.models import Table, TableStatus
    from tournaments.tournament.models import Tournament, TournamentEntry

    tournament = Tournament.objects.get(pk=tournament_id)
    table = Table.objects.filter(tournament_id=tournament_id, status=TableStatus.OPEN).order_by("-pk").first()
    # One player's place: the middle entrant's row, by name.
    entries = TournamentEntry.objects.filter(tournament_id=tournament_id).order_by("pk")
    at = max(0, tournament.entrants // 2 - 1)
    middle = next(iter(entries.values_list("player__username", flat=True)[at : at + 1]), "")
    base = f"/api/v1/tournaments/{tournament_id}"
    paths = {
        "detail": f"{base}/",
        "standings": f"{base}/standings/",
        "tables": f"{base}/tables/",
        "one table": f"{base}/tables/{table.pk if table else 0}/",
        "events": f"{base}/events/?after={max(0, tournament.version - 50)}",
        "one player": f"{base}/standings/?player={middle}",
    }
    client = Client()
    return {name: _timed_get(client, path)[:2] for name, path in paths.items()}


def _timed_get(client: Any, path: str) -> tuple[float, int, Any]:
    """`path` read through the API (Django's test client, warm): median ms of 5, the statements of one, and
    the last answer (200, or the benchmark stops)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(path)  # warm
    runs = []
    statements = 0
    for _ in range(5):
        with CaptureQueriesContext(connection) as captured:
            began = time.perf_counter()
            answer = client.get(path)
            runs.append(1000 * (time.perf_counter() - began))
        assert answer.status_code == 200, (path, answer.status_code, answer.content[:300])
        statements = len(captured.captured_queries)
    return statistics.median(runs), statements, answer


def synthetic_sizes(admin: Any, tables: int) -> dict[str, Any]:
    """The job's open-tables sizes query on a synthetic running tournament of `tables` tables of four seated
    players (rows bulk-written: tables, zero-balance stack accounts, seats; four users reused, a player being
    unique only at a table): mean ms of 5 runs, and PostgreSQL's plan (EXPLAIN ANALYZE)."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from ledger.models import Account, AccountKind, tournament_chip_type
    from tournaments.live.models import Seat, SeatStatus, Table, TableStatus
    from tournaments.multi_table.balance import open_table_sizes

    tournament = create_tournament(admin, entrants=tables * SEATS, label=f"synthetic {tables} tables")
    users = list(get_user_model().objects.order_by("pk")[:SEATS])
    chip_type = tournament_chip_type(tournament.pk)
    made: list[Any] = []
    for first in range(0, tables, 2000):
        batch = Table.objects.bulk_create(
            Table(
                game="rummy500",
                options={},
                seats=SEATS,
                pcr=1,
                min_buy_in=STARTING_STACK,
                max_buy_in=STARTING_STACK,
                created_by=admin,
                tournament=tournament,
            )
            for _ in range(first, min(tables, first + 2000))
        )
        accounts = Account.objects.bulk_create(
            Account(
                kind=AccountKind.SEAT_STACK,
                chip_type=chip_type,
                user=users[n],
                reference=f"synthetic:{table.pk}:{n}",
            )
            for table in batch
            for n in range(SEATS)
        )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                player=users[n],
                number=n,
                stack_account=accounts[i * SEATS + n],
                status=SeatStatus.ACTIVE,
            )
            for i, table in enumerate(batch)
            for n in range(SEATS)
        )
        made.extend(batch)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tournaments_table")
        cursor.execute("ANALYZE tournaments_seat")
    runs = []
    for _ in range(5):
        began = time.perf_counter()
        sizes = open_table_sizes(tournament)
        runs.append(1000 * (time.perf_counter() - began))
    assert len(sizes) == tables
    # The lobby's first page of tables, counted by the row's `tables_open` (which a real start keeps: kept here
    # for the bulk-written tables), and beside it the count of the open tables that the page no longer runs.
    type(tournament).objects.filter(pk=tournament.pk).update(tables_open=tables)
    page = _tables_page(tournament.pk, tables)
    counts = []
    for _ in range(5):
        began = time.perf_counter()
        assert Table.objects.filter(tournament=tournament, status=TableStatus.OPEN).count() == tables
        counts.append(1000 * (time.perf_counter() - began))
    queryset_sql = _sizes_sql(tournament)
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {queryset_sql[0]}", queryset_sql[1])
        plan = [row[0] for row in cursor.fetchall()]
    return {
        "tables": tables,
        "ms": statistics.median(runs),
        "plan": plan,
        "page_ms": page[0],
        "page_statements": page[1],
        "count_ms": statistics.median(counts),
        **synthetic_plans(tournament, made),
    }


def _tables_page(tournament_id: int, tables: int) -> tuple[float, int]:
    """`GET /tournaments/{id}/tables/` (the first page, anonymous, warm): median ms of 5 and its statements."""
    from django.test import Client

    ms, statements, answer = _timed_get(Client(), f"/api/v1/tournaments/{tournament_id}/tables/")
    assert answer.json()["count"] == tables, answer.content[:300]
    return ms, statements


def synthetic_plans(tournament: Any, made: list[Any]) -> dict[str, float]:
    """A plan's reads under the tournament's lock on the synthetic tournament, every table waiting for its deal
    (games bulk-written): over every open table (the sizes query, every waiting game locked) against within the
    first table's group (`multi_table/groups.py`: the group's sizes, its waiting games locked). Median ms of 5,
    each in its own transaction (rolled back)."""
    from django.db import transaction

    from tournaments.live.models import Game
    from tournaments.multi_table import groups
    from tournaments.multi_table.balance import open_table_sizes, waiting_for_deal

    Game.objects.bulk_create((Game(table=table) for table in made), batch_size=2000)
    groups.add_tables(tournament, dict.fromkeys((table.pk for table in made), SEATS), last=True)
    group = groups.group_of(tournament, made[0].pk)
    assert group is not None

    def whole() -> int:
        sizes = open_table_sizes(tournament)
        return len(sizes) + len(waiting_for_deal(tournament, besides=made[0].pk))

    def within() -> int:
        sizes = groups.sizes_in(tournament, [group])
        return len(sizes) + len(waiting_for_deal(tournament, besides=made[0].pk, within=list(sizes)))

    # Across groups: three other groups' histograms show a table of three (a break spread over groups), so
    # the plan reads the groups' rows, then the four groups' tables.
    others = list(groups.TableGroup.objects.filter(tournament=tournament).exclude(pk=group.pk)[:3])
    for other in others:
        other.table_sizes = {"3": 1, **{k: v - (k == str(SEATS)) for k, v in other.table_sizes.items()}}
        other.save(update_fields=["table_sizes"])
    short = {"players_left": len(made) * SEATS - len(others), "tables_open": len(made), "seats": SEATS}

    def across() -> int:
        chosen = groups.candidates(group, **short)
        sizes = groups.sizes_in(tournament, chosen)
        return len(sizes) + len(waiting_for_deal(tournament, besides=made[0].pk, within=list(sizes)))

    found: dict[str, float] = {
        "group_tables": float(len(groups.sizes_in(tournament, [group]))),
        "across_groups": float(len(groups.candidates(group, **short))),
    }
    for name, body in (("whole_plan_ms", whole), ("group_plan_ms", within), ("across_plan_ms", across)):
        runs = []
        for _ in range(5):
            began = time.perf_counter()
            with transaction.atomic():
                body()
                transaction.set_rollback(True)
            runs.append(1000 * (time.perf_counter() - began))
        found[name] = statistics.median(runs)
    return found


def _sizes_sql(tournament: Any) -> tuple[str, Any]:
    from django.db.models import Count, Q

    from tournaments.live.models import SEATED_STATUSES, Table, TableStatus

    queryset = (
        Table.objects.filter(tournament=tournament, status=TableStatus.OPEN)
        .annotate(size=Count("seat_set", filter=Q(seat_set__status__in=SEATED_STATUSES)))
        .values_list("pk", "size")
    )
    return queryset.query.sql_with_params()


# ================================================================================================ report


def _fmt(value: float, digits: int = 1) -> str:
    return "-" if value != value else f"{value:,.{digits}f}"


def markdown(floors: list[Measure], runs: list[Measure], notes: list[str]) -> str:
    lines = [
        "| workers | what | events/s (floor: tasks/s) | ms per event (worker-s / events) | "
        "ms in the two bodies | round starts / jobs in the window | start s (its first transaction) | tables | busted / moved (total) | "
        "CPU s: workers / postgres / machine | lock wait (share of worker time; by kind) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for floor in floors:
        runs_floor = floor.runs(FLOOR)
        lines.append(
            f"| {floor.workers} | floor | {_fmt(runs_floor / floor.window, 0)} | "
            f"{_fmt(1000 * floor.workers * floor.window / max(1, runs_floor), 2)} per task | "
            f"{_fmt(1000 * floor.busy(FLOOR) / max(1, runs_floor), 2)} per task | - | - | - | - | "
            f"{floor.worker_cpu():.0f} / {floor.cpu.get('postgres', 0):.0f} / {floor.cpu.get('machine', 0):.0f} | - |"
        )
        for m in (r for r in runs if r.workers == floor.workers):
            lines.append(
                f"| {m.workers} | {m.entrants:,} entrants | {_fmt(m.rate)} | {_fmt(m.ms_per_event)} | "
                f"{_fmt(m.busy_ms_per_event)} | {m.runs(START_ROUND)} / {m.runs(TABLE_ROUND_OVER)} | "
                f"{m.start_seconds:.1f} ({m.extra.get('first batch s', float('nan')):.1f}) | {m.tables:,} | {m.busted:,} / {m.moved:,}"
                f"{' (finished within the window)' if m.extra.get('finished in the window') else ''} | "
                f"{m.worker_cpu():.0f} / {m.cpu.get('postgres', 0):.0f} / {m.cpu.get('machine', 0):.0f} | "
                f"{_fmt(100 * m.extra.get('lock share', float('nan')))}%"
                + "".join(f"; {k} {v}" for k, v in sorted(m.extra.get("lock kinds", {}).items()))
                + f" ({m.extra.get('lock samples', 0)} samples) |"
            )
    return "\n".join(lines) + "\n\n" + "\n\n".join(notes) + "\n"


def analysis(lock: dict[int, dict[str, Any]], synthetic: list[dict[str, Any]]) -> list[str]:
    """The in-process timings and the synthetic sizes query, written up."""
    notes = []
    if lock:
        notes.append(
            "In-process (one event at a time, no worker; the same tournaments, `--lock-events` events each): "
            + "; ".join(
                f"{n:,} entrants: round start {t['deal_ms']:.1f} ms, job {t['job_ms']:.1f} ms (the open tables' "
                f"sizes read by {t['sizes_calls']:.0f} of the {t['events']:.0f} jobs, {_fmt(t['sizes_ms'])} ms "
                f"each); {t['shared_jobs']:.0f} of the {t['events']:.0f} jobs quiet on the shared path "
                f"({_fmt(t['shared_ms'])} ms each), {t['busting_jobs']:.0f} busting, "
                f"{t.get('group_planning_jobs', 0):.0f} planning within their group and "
                f"{t['planning_jobs']:.0f} planning with the plans' lock alone there (the counters held by busting "
                f"jobs {100 * t['counted_share']:.1f}% of an event's time, by plans within a group "
                f"{100 * t.get('group_counted_share', 0):.1f}%, the plans' lock and the counters by the plans with "
                f"the lock alone {100 * t['planning_share']:.1f}%), the "
                f"exclusive row lock held "
                f"{100 * t['exclusive_share']:.1f}% of an event's time (the exclusive jobs: "
                + ", ".join(f"{k} {v}" for k, v in sorted(t.get("exclusive_why", {}).items()))
                + "; their dearest statements: "
                + "; ".join(
                    f"`{sql}` {count} x, {ms:.0f} ms" for sql, count, ms in t.get("exclusive_statements", [])
                )
                + ")"
                for n, t in lock.items()
            )
            + ". Only the exclusive jobs serialize a tournament's every job (`multi_table/quiet.py`); busting "
            "jobs and plans within a group take turns for their counters only, plans with the plans' lock alone "
            "for their whole job: one tournament settles at most 1000 / (exclusive ms per event) table events "
            "per second."
        )
    for found in synthetic:
        notes.append(
            f"The sizes query at {found['tables']:,} open tables ({4 * found['tables']:,} seated players, "
            f"synthetic rows): {found['ms']:.1f} ms (median of 5); a plan's reads with every table waiting for "
            f"its deal (the sizes and every waiting game locked): {found['whole_plan_ms']:.1f} ms over every "
            f"table, {found['group_plan_ms']:.1f} ms within a group of {found['group_tables']:.0f} tables, "
            f"{found['across_plan_ms']:.1f} ms across {found['across_groups']:.0f} groups (their rows read first) "
            f"(`multi_table/groups.py`); the lobby's first page of tables {found['page_ms']:.1f} ms "
            f"({found['page_statements']} statements, counted by the row's `tables_open`), beside the count of "
            f"the open tables it no longer runs, {found['count_ms']:.1f} ms. Plan:\n\n```\n"
            + "\n".join(found["plan"])
            + "\n```"
        )
    return notes


BEGIN = "<!-- make bench-tournament: output begins -->"
END = "<!-- make bench-tournament: output ends -->"


def update_docs(path: Path, body: str) -> None:
    """Replace the benchmark's output in the section (between its two markers), leaving the written-up text
    around it and every other section as they are; a missing section is appended."""
    text = path.read_text() if path.exists() else "# Performance\n"
    block = f"{BEGIN}\n{body.rstrip()}\n{END}"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.rstrip() + f"\n\n{SECTION}\n\n{block}\n"
    path.write_text(text.rstrip() + "\n")


def _load() -> str:
    return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()


# ================================================================================================== main


# Tiny mode (tests/benchmarks/tiny.py): the floor, a small busting tournament on two workers (busts and plans on
# the shared path), the in-process events and the sizes query, a second or a few each.
TINY_ARGS = [
    "--no-docs",
    "--entrants",
    "12",
    "--workers",
    "2",
    "--window",
    "1",
    "--floor-window",
    "1",
    "--busting",
]
TINY_ARGS += ["--floor-chains", "2", "--lock-events", "5", "--synthetic", "20", "--to-payout", "8"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entrants", default="200,20000")
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--window", type=float, default=20.0)
    parser.add_argument("--floor-window", type=float, default=10.0)
    parser.add_argument("--floor-chains", type=int, default=50)
    parser.add_argument("--lock-events", type=int, default=300, help="in-process events timed (0: none)")
    parser.add_argument(
        "--synthetic", default="5000,62500", help="tables of the synthetic sizes-query measurement"
    )
    parser.add_argument(
        "--register-max",
        type=int,
        default=20_000,
        help="fields above this are written in bulk (freerolls: the same rows) instead of registered one by one",
    )
    parser.add_argument(
        "--to-payout",
        type=int,
        default=0,
        help="then play a tournament of this many entrants to its payout (0: none)",
    )
    parser.add_argument("--payout-workers", type=int, default=2, help="the workers of --to-payout")
    parser.add_argument("--payout-timeout", type=float, default=3600.0, help="seconds --to-payout may play")
    parser.add_argument("--floor-only", action="store_true", help="measure the floor only (no docs)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--no-lobby", action="store_true", help="skip the lobby reads")
    parser.add_argument("--no-docs", action="store_true", help="do not update docs/performance.md")
    parser.add_argument(
        "--busting",
        action="store_true",
        help="a high PCR from the start: busts from the first rounds (no docs)",
    )
    parser.add_argument("--stack", type=int, help="with --busting: the starting stack")
    parser.add_argument("--pcr", help="with --busting: the PCR schedule (comma-separated)")
    parser.add_argument(
        "--formats", action="store_true", help="rebuys, the add-on and knockout bounties on (no docs written)"
    )
    args = parser.parse_args(tiny.argv(argv, TINY_ARGS))
    if args.formats:
        FORMATS.update(FORMAT_OPTIONS)
        args.no_docs = True
    if args.busting:
        SHAPE.update(
            starting_stack=args.stack or STARTING_STACK,
            pcr_schedule=[int(x) for x in args.pcr.split(",")] if args.pcr else BUSTING_PCR,
        )
        args.no_docs = True
    elif args.stack or args.pcr:
        parser.error("--stack and --pcr shape --busting")
    sizes = [int(n) for n in args.entrants.split(",")]
    counts = [int(n) for n in args.workers.split(",")]
    if not (all(4 <= n <= 300_000 for n in sizes) and all(1 <= w <= 8 for w in counts)):
        parser.error("--entrants 4..300000 each, --workers 1..8 each")
    if not (1 <= args.window <= 300 and 1 <= args.floor_window <= 300):
        parser.error("--window and --floor-window: 1..300 s")

    base_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ramino")
    if not base_url.startswith("postgres"):
        print("bench-tournament needs DATABASE_URL=postgres://...", file=sys.stderr)
        return 2
    url, admin_url, scratch = scratch_url(base_url, "bench_tournament")
    broker_url = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
    os.environ.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="tests.benchmarks.bench_tournament_settings",
        RAMINO_NEXT_ROUND_DELAY_SECONDS="0",
        CELERY_BROKER_URL=broker_url,
        CELERY_TASK_DEFAULT_QUEUE=f"ramino-bench-tournament-{uuid.uuid4().hex[:10]}",
        DATABASE_CONN_MAX_AGE="3600",
        PYTHONUNBUFFERED="1",
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the cleanup below on SIGTERM too
    workdir = Path(tempfile.mkdtemp(prefix="bench-tournament-"))
    floors: list[Measure] = []
    runs: list[Measure] = []
    notes: list[str] = []
    registration_ms: dict[int, tuple[float, float]] = {}
    lock: dict[int, dict[str, Any]] = {}
    synthetic: list[dict[str, Any]] = []
    lobby: dict[int, dict[str, tuple[float, int]]] = {}
    ok = True
    current: Workers | None = None
    queues: list[str] = []
    load_before = _load()
    recreate_database(admin_url, scratch)
    try:
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        admin = get_user_model().objects.create_superuser("bench-admin", password="bench-admin-pw-123")
        user_ids = make_users(0 if args.floor_only else max(sizes))
        # Every tournament registered before any worker runs (registrations timed per 1,000).
        planned: dict[tuple[int, int], int] = {}
        for n in [] if args.floor_only else sizes:
            for w in counts:
                tournament = create_tournament(admin, entrants=n, label=f"{w} workers, {n} entrants")
                planned[(w, n)] = tournament.pk
                if w != counts[0]:
                    copy_entries(planned[(counts[0], n)], tournament.pk)
                    continue
                if n > args.register_max:
                    seconds = bulk_register(tournament.pk, user_ids[:n])
                    notes.append(f"The {n:,} entries were written in bulk ({seconds:.0f} s), not registered.")
                    print(f"wrote {n:,} entries in tournament {tournament.pk}: {seconds:.1f} s", flush=True)
                    continue
                blocks = register_all(tournament.pk, user_ids[:n])
                registration_ms[n] = (1000 * blocks[0], 1000 * blocks[-1])
                print(
                    f"registered {n:,} in tournament {tournament.pk}: {1000 * blocks[0]:.2f} ms each "
                    f"(first 1,000), {1000 * blocks[-1]:.2f} ms (last)",
                    flush=True,
                )
        connection.close()
        for w in counts:
            current = _start_workers(w, workdir, queues)
            queue = current.queue
            floor = measure_floor(queue, current, scratch, window=args.floor_window, chains=args.floor_chains)
            floors.append(floor)
            print(f"{w} workers: floor {floor.runs(FLOOR) / floor.window:,.0f} tasks/s", flush=True)
            for n in [] if args.floor_only else sizes:
                m = measure_tournament(
                    queue, current, scratch, tournament_id=planned[(w, n)], entrants=n, window=args.window
                )
                runs.append(m)
                print(
                    f"{w} workers, {n:,} entrants: start {m.start_seconds:.1f} s, {m.rate:.1f} events/s, "
                    f"{m.ms_per_event:.1f} ms per event ({m.busy_ms_per_event:.1f} ms in the bodies), "
                    f"{m.runs(START_ROUND)} starts / {m.runs(TABLE_ROUND_OVER)} jobs, {m.tables} tables, "
                    f"{m.busted} busted, {m.moved} moves",
                    flush=True,
                )
                # Which statements waited for a lock (the workers' share of time each), the largest first.
                waited = sorted(m.extra.get("lock statements", {}).items(), key=lambda kv: -kv[1])[:6]
                samples = max(1, int(m.extra.get("lock samples", 0))) * w
                for statement, count in waited:
                    print(f"  waiting {100 * count / samples:.1f}%: {statement}", flush=True)
            current.stop()
            current = None
            _delete_queue(queue)
            _delete_queue(f"{queue}-jobs")

        payout_ok = True
        if args.to_payout and not args.floor_only:
            current = _start_workers(args.payout_workers, workdir, queues)
            payout = tournament_payout.play_to_payout(
                admin=admin,
                user_ids=make_users(args.to_payout),
                workers=args.payout_workers,
                timeout=args.payout_timeout,
            )
            current.stop()
            current = None
            print(payout.line(), flush=True)
            notes.append(payout.line())
            payout_ok = not payout.problems

        from ledger.selectors import reconcile
        from tournaments.tournament import counters

        report = reconcile()
        mismatches = counters.check()
        ok = report.ok and not mismatches and payout_ok
        notes.append(
            f"Ledger reconciliation after the run: ok={report.ok} ({len(report.problems)} problems); the "
            f"tournaments' counters against a count: {len(mismatches)} mismatches"
            + (f" ({mismatches[:5]})" if mismatches else "")
            + "."
        )
        if not args.no_lobby:
            for n in sizes:
                lobby[n] = lobby_reads(planned[(counts[0], n)])
                print(
                    f"lobby reads at {n:,} entrants: "
                    + ", ".join(f"{k} {ms:.1f} ms ({q} statements)" for k, (ms, q) in lobby[n].items()),
                    flush=True,
                )
        if args.lock_events and not args.floor_only:
            for n in sizes:
                timed = in_process(planned[(counts[0], n)], events=args.lock_events)
                lock[n] = timed
                print(
                    f"in-process, {n:,} entrants: round start {timed['deal_ms']:.1f} ms, job "
                    f"{timed['job_ms']:.1f} ms (sizes query {timed['sizes_ms']:.1f} ms in "
                    f"{timed['sizes_calls']:.0f} jobs), job share "
                    f"{100 * timed['share']:.0f}% over {timed['events']:.0f} events; exclusive: "
                    f"{timed.get('exclusive_why')} {timed.get('exclusive_statements')}",
                    flush=True,
                )
        for tables in [] if args.floor_only else [int(t) for t in args.synthetic.split(",") if t]:
            synthetic.append(synthetic_sizes(admin, tables))
            print(
                f"sizes query at {tables:,} tables: {synthetic[-1]['ms']:.1f} ms; a plan's reads over every table "
                f"{synthetic[-1]['whole_plan_ms']:.1f} ms, within a group {synthetic[-1]['group_plan_ms']:.1f} ms, "
                f"across {synthetic[-1]['across_groups']:.0f} groups {synthetic[-1]['across_plan_ms']:.1f} ms; "
                f"the tables page {synthetic[-1]['page_ms']:.1f} ms ({synthetic[-1]['page_statements']} "
                f"statements), the count it no longer runs {synthetic[-1]['count_ms']:.1f} ms",
                flush=True,
            )
        connection.close()
    finally:
        if current is not None:
            current.stop()
        for queue in queues:
            _delete_queue(queue)
            _delete_queue(f"{queue}-jobs")
        with suppress(Exception):
            from django.db import connections

            connections.close_all()
        if not args.keep:
            recreate_database(admin_url, scratch, create=False)
        for path in sorted(workdir.iterdir()):
            path.unlink()
        workdir.rmdir()

    if args.floor_only:
        print(markdown(floors, [], notes))
        return 0 if ok else 1
    by = {(m.workers, m.entrants): m for m in runs}
    small, large = min(sizes), max(sizes)
    ratios = [
        by[(w, large)].ms_per_event / by[(w, small)].ms_per_event
        for w in counts
        if (w, large) in by and (w, small) in by
    ]
    growth = ", ".join(
        f"{w}: {by[(w, n)].rate / by[(counts[0], n)].rate:.2f}x"
        for n in sizes
        for w in counts
        if (w, n) in by
    )
    met = bool(ratios) and max(ratios) <= GOAL_RATIO
    notes.insert(
        0,
        f"Time per event, {large:,} against {small:,} entrants: "
        + ", ".join(f"{r:.2f}x" for r in ratios)
        + f" (by worker count {counts}; goal <= {GOAL_RATIO}x: {'met' if met else 'NOT met'}). "
        f"Events/s against {counts[0]} worker(s): {growth}. Registration: "
        + ", ".join(
            f"{n:,} entrants {first:.2f} ms each (first 1,000), {last:.2f} ms (last)"
            for n, (first, last) in registration_ms.items()
        )
        + f". Load average before the run: {load_before}, after: {_load()}; {os.cpu_count()} cores.",
    )
    if len(lobby) > 1:
        small_l, large_l = min(lobby), max(lobby)
        lobby_ratios = {k: lobby[large_l][k][0] / lobby[small_l][k][0] for k in lobby[large_l]}
        notes.append(
            f"Lobby reads (API, anonymous, median of 5 warm), {large_l:,} against {small_l:,} entrants: "
            + ", ".join(
                f"{k} {lobby[large_l][k][0]:.1f} / {lobby[small_l][k][0]:.1f} ms = {r:.2f}x "
                f"({lobby[large_l][k][1]} statements)"
                for k, r in lobby_ratios.items()
            )
            + f" (goal <= {LOBBY_GOAL}x: "
            + ("met" if max(lobby_ratios.values()) <= LOBBY_GOAL else "NOT met")
            + ")."
        )
    notes.extend(analysis(lock, synthetic))
    table = markdown(floors, runs, notes)
    print()
    print(table)
    if not args.no_docs:
        extra = " ".join(argv if argv is not None else sys.argv[1:])
        command = (
            f"DJANGO_SETTINGS_MODULE=config.settings.test DATABASE_URL={base_url} "
            f"CELERY_BROKER_URL={broker_url} .venv/bin/python -m tests.benchmarks.bench_tournament {extra}"
        ).strip()
        update_docs(
            ROOT / "docs" / "performance.md",
            f"Measured on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with "
            f"{'' if extra else f'`{COMMAND}`, that is '}`{command}`.\n\n" + table,
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
