"""Postings per second of `ledger.services.postings` on PostgreSQL, against a raw-SQL floor measured in the
same run.

    make bench-ledger        # = DATABASE_URL=<test postgres> python -m tests.benchmarks.bench_ledger

Creates (and drops afterwards) a scratch database `<name>_bench_ledger` next to DATABASE_URL's database,
migrates it (the triggers included), then for each scenario and worker count runs the same postings
twice: through `postings.move_chips`, and as the same transaction written by hand over psycopg (the
floor: idempotency lookup, accounts locked in id order, transfer and entries inserted, balances updated,
with the same deferred balance trigger at commit). Workers are processes, each with its own connection.

Scenarios: `uniform` moves chips between two random wallets out of many; `hot` moves chips between a
random wallet and one shared account (the house cashier), so every posting contends for the same row.
Options: --postings N (per worker), --workers 1,4, --rounds 3, --synchronous-commit on|off, --keep, and --orm:
the same postings also through the ORM side of the service (what every database but PostgreSQL runs), in the
same alternating rounds, so that the hand-written statements' gain is measured in the run that reports it.

Reconciliation: the ledger is then grown to --reconcile-entries entries (default 1,000,000; bulk-loaded in
balanced two-leg transfers, triggers off for the load only) and a full `selectors.reconcile()` is timed
against a floor in the same run, `SELECT count(*)` over the entries table, and so is the on-demand
`GET /ledger/reconciliation/` (which serves the last run). `--reconcile-only` skips the postings.
The scratch database's name takes `$BENCH_DB_SUFFIX` so engineers sharing a server do not collide.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import os
import random
import statistics
import sys
import time
import uuid
from dataclasses import dataclass
from typing import Any

import psycopg

from tests.benchmarks import tiny
from tests.benchmarks.scratch_db import recreate_database, scratch_url

WALLETS = 64
START_CHIPS = 1_000_000
GOAL_RATIO = 0.5
GOAL_HOT = 1_000


@dataclass
class Result:
    scenario: str
    workers: int
    postings: int
    service_rate: float
    floor_rate: float
    service_cpu_ms: float
    floor_cpu_ms: float
    # --orm: the same postings through the ORM side of the service (what other databases run).
    orm_rate: float | None = None
    orm_cpu_ms: float | None = None

    @property
    def ratio(self) -> float:
        return self.service_rate / self.floor_rate


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()


def _prepare() -> tuple[list[int], int]:
    """Migrate the scratch database and fund the wallets; returns (wallet ids, hot account id)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from ledger.models import AccountKind
    from ledger.services import accounts, postings

    call_command("migrate", verbosity=0)
    wallet_ids = []
    for i in range(WALLETS):
        user = get_user_model().objects.create_user(username=f"bench{i}", password="bench-pass-123")
        transfer = postings.adjust_wallet(
            user=user,
            amount=START_CHIPS,
            reason="bench funding",
            idempotency_key=f"bench:fund:{i}",
            posted_by=None,
        )
        wallet_ids.append(transfer.entries.get(account__kind=AccountKind.WALLET).account_id)
    hot = accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER)
    return wallet_ids, hot.pk


def _plan(
    scenario: str, wallet_ids: list[int], hot_id: int, count: int, seed: int
) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    plan = []
    for _ in range(count):
        amount = rng.randint(1, 50)
        if scenario == "hot":
            wallet = rng.choice(wallet_ids)
            plan.append((wallet, hot_id, amount) if rng.random() < 0.5 else (hot_id, wallet, amount))
        else:
            source, destination = rng.sample(wallet_ids, 2)
            plan.append((source, destination, amount))
    return plan


def _service_worker(
    plan: list[tuple[int, int, int]],
    tag: str,
    start: mp.synchronize.Event,
    out: mp.Queue[tuple[float, float]],
    orm: bool = False,
) -> None:
    from django.db import connection

    from ledger.models import Account
    from ledger.services import postings

    if orm:
        # This worker process only: the posting every other database runs (the ORM), on PostgreSQL.
        postings._hand_written = lambda: False
    connection.close()  # never share the parent's connection
    accounts = {a.pk: a for a in Account.objects.all()}
    start.wait()
    began, cpu = time.perf_counter(), time.process_time()
    for n, (source, destination, amount) in enumerate(plan):
        postings.move_chips(
            source=accounts[source],
            destination=accounts[destination],
            amount=amount,
            kind="transfer",
            idempotency_key=f"{tag}:{n}",
        )
    out.put((time.perf_counter() - began, time.process_time() - cpu))
    connection.close()


def _fingerprint(kind: str, legs: list[tuple[int, int]]) -> str:
    content = {
        "kind": kind,
        "chip_type": "site",
        "legs": sorted(legs),
        "reason": "",
        "causes": {"table_id": None, "round_id": None, "tournament_id": None, "entry_id": None},
        "reverses": None,
    }
    digest = hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":")).encode())
    digest.update(b"{}")
    return digest.hexdigest()


def _raw_worker(
    url: str,
    plan: list[tuple[int, int, int]],
    tag: str,
    start: mp.synchronize.Event,
    out: mp.Queue[tuple[float, float]],
) -> None:
    negative_ok = {"house_cashier", "tournament_mint"}
    with psycopg.connect(url) as conn:
        start.wait()
        began, cpu = time.perf_counter(), time.process_time()
        for n, (source, destination, amount) in enumerate(plan):
            key = f"{tag}:{n}"
            legs = {source: -amount, destination: amount}
            fingerprint = _fingerprint("transfer", list(legs.items()))
            with conn.transaction(), conn.cursor() as cur:
                cur.execute("SELECT id, fingerprint FROM ledger_transfer WHERE idempotency_key = %s", [key])
                if cur.fetchone() is not None:
                    continue
                now = time.time()
                cur.execute(
                    """INSERT INTO ledger_transfer (kind, chip_type, idempotency_key, fingerprint, reason, computation,
                                                    posted_by_system, created_at)
                       VALUES ('transfer', 'site', %s, %s, '', '{}', '', to_timestamp(%s)) RETURNING id""",
                    [key, fingerprint, now],
                )
                (transfer_id,) = cur.fetchone()  # type: ignore[misc]
                cur.execute(
                    "SELECT id, balance, kind, chip_type FROM ledger_account WHERE id = ANY(%s) ORDER BY id FOR UPDATE",
                    [sorted(legs)],
                )
                new_balances = {}
                for account_id, balance, kind, _chip_type in cur.fetchall():
                    new_balance = balance + legs[account_id]
                    if new_balance < 0 and kind not in negative_ok:
                        raise RuntimeError("overdraft in the floor's plan")
                    new_balances[account_id] = new_balance
                ids = sorted(legs)
                cur.execute(
                    """WITH balances AS (
                           UPDATE ledger_account SET balance = CASE id WHEN %s THEN %s::bigint ELSE %s::bigint END
                           WHERE id IN (%s, %s))
                       INSERT INTO ledger_entry (transfer_id, account_id, amount, balance_after, created_at)
                       VALUES (%s, %s, %s, %s, to_timestamp(%s)), (%s, %s, %s, %s, to_timestamp(%s))""",
                    [
                        *(ids[0], new_balances[ids[0]], new_balances[ids[1]], ids[0], ids[1]),
                        *(transfer_id, ids[0], legs[ids[0]], new_balances[ids[0]], now),
                        *(transfer_id, ids[1], legs[ids[1]], new_balances[ids[1]], now),
                    ],
                )
        out.put((time.perf_counter() - began, time.process_time() - cpu))


def _measure(target: str, url: str, plans: list[list[tuple[int, int, int]]], tag: str) -> tuple[float, float]:
    """(postings per second over all workers, client CPU milliseconds per posting)."""
    ctx = mp.get_context("fork")
    start = ctx.Event()
    out: mp.Queue[tuple[float, float]] = ctx.Queue()
    procs = []
    for i, plan in enumerate(plans):
        worker_tag = f"{tag}:{i}"
        if target in ("service", "orm"):
            proc = ctx.Process(target=_service_worker, args=(plan, worker_tag, start, out, target == "orm"))
        else:
            proc = ctx.Process(target=_raw_worker, args=(url, plan, worker_tag, start, out))
        proc.start()
        procs.append(proc)
    time.sleep(1.0)  # let every worker connect and warm up before the start signal
    wall_start = time.perf_counter()
    start.set()
    cpu = sum(out.get(timeout=600)[1] for _ in procs)
    wall = time.perf_counter() - wall_start
    for proc in procs:
        proc.join(timeout=60)
        if proc.exitcode != 0:
            raise RuntimeError(f"a {target} worker failed (exit code {proc.exitcode})")
    postings = sum(len(p) for p in plans)
    return postings / wall, 1000 * cpu / postings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--postings", type=int, default=1000, help="postings per worker and measurement")
    parser.add_argument("--workers", default="1,4", help="comma-separated worker counts")
    parser.add_argument(
        "--rounds", type=int, default=3, help="alternating floor/service rounds (median kept)"
    )
    parser.add_argument(
        "--synchronous-commit",
        choices=["on", "off"],
        default="on",
        help="PostgreSQL synchronous_commit for both sides; `off` shows the ceiling without the WAL flush",
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--reconcile-entries", type=int, default=1_000_000, help="ledger size to reconcile")
    parser.add_argument("--reconcile-only", action="store_true", help="skip the postings measurements")
    parser.add_argument(
        "--orm",
        action="store_true",
        help="also post through the service's ORM side (other databases' path), in the same rounds",
    )
    args = parser.parse_args(
        tiny.argv(
            argv,
            ["--postings", "5", "--workers", "1", "--rounds", "1", "--reconcile-entries", "200", "--orm"],
        )
    )
    base_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ramino")
    if not base_url.startswith("postgres"):
        print("bench-ledger needs DATABASE_URL=postgres://...", file=sys.stderr)
        return 2
    suffix = os.environ.get("BENCH_DB_SUFFIX", "")
    url, admin_url, scratch = scratch_url(base_url, f"bench_ledger{'_' + suffix if suffix else ''}")
    recreate_database(admin_url, scratch)
    os.environ["DATABASE_URL"] = url
    # libpq reads PGOPTIONS for every connection: Django's and the floor's alike.
    os.environ["PGOPTIONS"] = f"-c synchronous_commit={args.synchronous_commit}"
    print(
        f"bench-ledger: {args.postings} postings per worker, {args.rounds} rounds, "
        f"synchronous_commit={args.synchronous_commit}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    try:
        _setup_django()
        from django.db import connection

        wallet_ids, hot_id = _prepare()
        connection.close()
        results = []
        for workers in [] if args.reconcile_only else [int(w) for w in args.workers.split(",")]:
            for scenario in ("uniform", "hot"):
                targets = ["floor", "service"] + (["orm"] if args.orm else [])
                samples: dict[str, list[float]] = {target: [] for target in targets}
                cpu_ms: dict[str, list[float]] = {target: [] for target in targets}
                for round_number in range(args.rounds):
                    # Alternate the order so neither side always runs on a warmer (or busier) machine.
                    order = targets if round_number % 2 == 0 else targets[::-1]
                    for target in order:
                        plans = [
                            _plan(scenario, wallet_ids, hot_id, args.postings, seed=1000 * round_number + i)
                            for i in range(workers)
                        ]
                        tag = f"{target}:{scenario}:{workers}:{uuid.uuid4().hex[:6]}"
                        rate, cpu = _measure(target, url, plans, tag)
                        samples[target].append(rate)
                        cpu_ms[target].append(cpu)
                service, floor = statistics.median(samples["service"]), statistics.median(samples["floor"])
                cpu_service, cpu_floor = (
                    statistics.median(cpu_ms["service"]),
                    statistics.median(cpu_ms["floor"]),
                )
                result = Result(
                    scenario, workers, args.postings * workers, service, floor, cpu_service, cpu_floor
                )
                if args.orm:
                    result.orm_rate = statistics.median(samples["orm"])
                    result.orm_cpu_ms = statistics.median(cpu_ms["orm"])
                results.append(result)
                print(
                    f"{scenario:8s} workers={workers}  service {service:7.0f}/s  floor {floor:7.0f}/s  "
                    f"ratio {service / floor:.2f}  cpu ms {cpu_service:.2f}/{cpu_floor:.2f}   "
                    f"(service {_fmt(samples['service'])}; floor {_fmt(samples['floor'])})"
                    + (
                        f"  orm {result.orm_rate:7.0f}/s cpu ms {result.orm_cpu_ms:.2f} ({_fmt(samples['orm'])})"
                        if args.orm
                        else ""
                    ),
                    flush=True,
                )
        from ledger.selectors import reconcile

        report = reconcile()
        print(f"reconciliation after the run: ok={report.ok} problems={len(report.problems)}")
        connection.close()
        recon = _measure_reconciliation(url, wallet_ids, args.reconcile_entries)
        report = recon.report
    finally:
        if not args.keep:
            recreate_database(admin_url, scratch, create=False)

    print()
    print(
        "| scenario | workers | service postings/s | raw SQL floor postings/s | ratio "
        "| client CPU ms/posting: service | floor |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r.scenario} | {r.workers} | {r.service_rate:,.0f} | {r.floor_rate:,.0f} | {r.ratio:.2f} "
            f"| {r.service_cpu_ms:.2f} | {r.floor_cpu_ms:.2f} |"
        )
    if args.orm:
        print(
            "\n| scenario | workers | service postings/s | ORM side postings/s | service / ORM "
            "| client CPU ms/posting: service | ORM |\n|---|---:|---:|---:|---:|---:|---:|"
        )
        for r in results:
            assert r.orm_rate is not None and r.orm_cpu_ms is not None
            print(
                f"| {r.scenario} | {r.workers} | {r.service_rate:,.0f} | {r.orm_rate:,.0f} "
                f"| {r.service_rate / r.orm_rate:.2f} | {r.service_cpu_ms:.2f} | {r.orm_cpu_ms:.2f} |"
            )
    print(
        f"\n| ledger entries | SELECT count(*) floor ms | full reconciliation ms | x floor "
        f"| GET /ledger/reconciliation/ p50 ms | p99 ms |\n|---:|---:|---:|---:|---:|---:|\n"
        f"| {recon.entries:,} | {recon.floor_ms:,.0f} | {recon.full_ms:,.0f} | {recon.full_ms / recon.floor_ms:.1f} "
        f"| {recon.get_p50_ms:.1f} | {recon.get_p99_ms:.1f} |"
    )
    print(f"reconciliation at {recon.entries:,} entries: ok={recon.report.ok}")
    ratio_ok = all(r.ratio >= GOAL_RATIO for r in results)
    hot_ok = args.reconcile_only or (
        max((r.service_rate for r in results if r.scenario == "hot"), default=0) >= GOAL_HOT
    )
    print(
        f"\ngoal ratio >= {GOAL_RATIO}: {'met' if ratio_ok else 'NOT met'}; "
        f"goal hot >= {GOAL_HOT}/s: {'met' if hot_ok else 'NOT met'}"
    )
    if tiny.enabled():  # no figure judged: only the ledger's own checks
        return 0 if report.ok and recon.report.ok else 1
    return 0 if ratio_ok and hot_ok and report.ok else 1


@dataclass
class ReconciliationResult:
    entries: int
    floor_ms: float
    full_ms: float
    get_p50_ms: float
    get_p99_ms: float
    report: Any


def _grow_ledger(url: str, wallet_ids: list[int], entries: int) -> int:
    """Bulk-load balanced two-leg transfers (1 chip from a wallet to the next) until the ledger holds
    `entries` entries, with consistent running and cached balances. Returns the entry count."""
    with psycopg.connect(url) as conn, conn.cursor() as cur:
        (have,) = cur.execute("SELECT count(*) FROM ledger_entry").fetchone()  # type: ignore[misc]
        transfers = max(0, (entries - have) // 2)
        # Loading, not posting: the per-row balance trigger would make this take many minutes.
        cur.execute("SET session_replication_role = replica")
        cur.execute(
            """INSERT INTO ledger_transfer (kind, chip_type, idempotency_key, fingerprint, reason, computation,
                                            posted_by_system, created_at)
               SELECT 'transfer', 'site', 'bulk:' || g, '', '', '{}', 'bench', now()
               FROM generate_series(1, %s) g""",
            [transfers],
        )
        cur.execute(
            """WITH w AS (SELECT array_agg(id ORDER BY id) AS ids FROM unnest(%s::bigint[]) id),
                    legs AS (
                        SELECT t.id AS transfer_id, w.ids[1 + (t.id %% cardinality(w.ids))] AS account_id, -1 AS amount
                        FROM ledger_transfer t, w WHERE t.posted_by_system = 'bench'
                        UNION ALL
                        SELECT t.id, w.ids[1 + ((t.id + 1) %% cardinality(w.ids))], 1
                        FROM ledger_transfer t, w WHERE t.posted_by_system = 'bench'),
                    running AS (
                        SELECT l.transfer_id, l.account_id, l.amount,
                               a.balance + SUM(l.amount) OVER (PARTITION BY l.account_id ORDER BY l.transfer_id)
                                   AS balance_after
                        FROM legs l JOIN ledger_account a ON a.id = l.account_id)
               INSERT INTO ledger_entry (transfer_id, account_id, amount, balance_after, created_at)
               SELECT transfer_id, account_id, amount, balance_after, now() FROM running
               ORDER BY transfer_id, account_id""",
            [wallet_ids],
        )
        cur.execute(
            """UPDATE ledger_account a SET balance = a.balance + n.net
               FROM (SELECT e.account_id, SUM(e.amount) AS net FROM ledger_entry e
                     JOIN ledger_transfer t ON t.id = e.transfer_id WHERE t.posted_by_system = 'bench'
                     GROUP BY e.account_id) n
               WHERE a.id = n.account_id"""
        )
        cur.execute("SET session_replication_role = origin")
        conn.commit()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE ledger_entry")
        conn.execute("VACUUM ANALYZE ledger_transfer")
        conn.execute("VACUUM ANALYZE ledger_account")
        (count,) = conn.execute("SELECT count(*) FROM ledger_entry").fetchone()  # type: ignore[misc]
    return int(count)


def _measure_reconciliation(
    url: str, wallet_ids: list[int], entries: int, rounds: int = 3
) -> ReconciliationResult:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.test import APIClient

    from ledger.selectors import reconcile
    from ledger.services import reconciliation

    began = time.perf_counter()
    count = _grow_ledger(url, wallet_ids, entries)
    print(f"ledger grown to {count:,} entries in {time.perf_counter() - began:.0f} s", flush=True)
    floor, full = [], []
    report = None
    for _ in range(rounds):
        began = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM ledger_entry")
            cursor.fetchone()
        floor.append(1000 * (time.perf_counter() - began))
        began = time.perf_counter()
        report = reconcile()
        full.append(1000 * (time.perf_counter() - began))
    reconciliation.run_reconciliation(trigger="bench")
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user(username="bench-staff", is_staff=True))
    answers = []
    for _ in range(50):
        began = time.perf_counter()
        response = client.get("/api/v1/ledger/reconciliation/")
        answers.append(1000 * (time.perf_counter() - began))
        assert response.status_code == 200, response.content
    answers.sort()
    connection.close()
    print(f"SELECT count(*): {_fmt(floor)} ms; full reconciliation: {_fmt(full)} ms", flush=True)
    return ReconciliationResult(
        entries=count,
        floor_ms=statistics.median(floor),
        full_ms=statistics.median(full),
        get_p50_ms=statistics.median(answers),
        get_p99_ms=answers[int(0.99 * (len(answers) - 1))],
        report=report,
    )


def _fmt(samples: list[float]) -> str:
    return ", ".join(f"{x:.0f}" for x in samples)


if __name__ == "__main__":
    sys.exit(main())
