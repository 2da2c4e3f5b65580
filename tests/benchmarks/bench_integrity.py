"""The daily integrity job's run time on a database holding a year of settled rounds (1,000,000 by default)
where one day's worth is new.

    make bench-integrity     # = DATABASE_URL=<test postgres> python -m tests.benchmarks.bench_integrity

Creates (and drops afterwards, unless --keep) a scratch database `<name>_bench_integrity` next to
DATABASE_URL's, migrates it, then loads with INSERT ... SELECT over generate_series (PostgreSQL; the ledger's
balance trigger off for the load only, so the settlement transfers carry no entries, which the job never
reads): `--tables` heads-up tables (half of them private) of 2 players each, `--rounds` settled rounds spread
evenly over 365 days with their settlement transfer and the round's `transfers` row, and no move log (the job
reads moves only of the rounds it has not read yet). Timed, in this process, through `services.run_checks`:

1. the first run, which reads the whole history (the catch-up a site does once);
2. a day's rounds (`--rounds` / 365) added, each with a settlement and 40 moves in the move log, and the
   daily run that reads them;
3. the same run again, with nothing new (what a re-delivered task costs).

Options: --rounds 1000000 --tables 1000 --keep --no-catch-up (set the checkpoint past the history instead of
reading it, for a quick run). Results are printed; docs/performance.md "Integrity job" reports a run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from tests.benchmarks import tiny
from tests.benchmarks.scratch_db import recreate_database, scratch_url

DAYS = 365
MOVES_PER_ROUND = 40


def load_history(
    *, tables: int, rounds: int, total: int, first_round: int = 0, with_moves: bool = False
) -> None:
    """`rounds` settled rounds (the `first_round`-th on, of `total` over the year) at the `tables` tables, in SQL."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SET session_replication_role = replica")  # no balance trigger for entry-less transfers
        cur.execute("SELECT min(id) FROM tournaments_game")
        first_game = cur.fetchone()[0]
        cur.execute("SELECT coalesce(max(id), 0) FROM tournaments_round")
        before = cur.fetchone()[0]
        cur.execute(
            """
            INSERT INTO tournaments_round (game_id, number, players, seat_numbers, dealer, deal_commitment, salt,
                stacks, time_bank, transfers, settled, started_at, ended_at)
            SELECT %(g)s + (i %% %(t)s), i / %(t)s + 1,
                jsonb_build_array('b' || (i %% %(t)s) || 'x', 'b' || (i %% %(t)s) || 'y'), '{}', 0, 'bench', '',
                '{}', '{}',
                jsonb_build_array(jsonb_build_object(
                    'from', 'b' || (i %% %(t)s) || CASE WHEN (i / %(t)s) %% 2 = 0 THEN 'x' ELSE 'y' END,
                    'to', 'b' || (i %% %(t)s) || CASE WHEN (i / %(t)s) %% 2 = 0 THEN 'y' ELSE 'x' END,
                    'amount', 1 + i %% 97, 'kind', 'settlement')),
                true,
                now() - interval '366 days' + (i * interval '1 second' * (%(days)s * 86400.0 / %(all)s)),
                now() - interval '366 days' + (i * interval '1 second' * (%(days)s * 86400.0 / %(all)s))
            FROM generate_series(%(a)s, %(b)s - 1) AS i
            """,
            {
                "g": first_game,
                "t": tables,
                "a": first_round,
                "b": first_round + rounds,
                "days": DAYS,
                "all": total,
            },
        )
        cur.execute(
            """
            INSERT INTO ledger_transfer (kind, chip_type, idempotency_key, fingerprint, reason, table_id, round_id,
                computation, posted_by_system, created_at)
            SELECT 'settlement', 'site', 'round:' || r.id || ':settle', 'bench', '', g.table_id, r.id, '{}',
                'bench', r.ended_at
            FROM tournaments_round r JOIN tournaments_game g ON g.id = r.game_id
            WHERE r.id > %(before)s
            ORDER BY r.id
            """,
            {"before": before},
        )
        if with_moves:
            cur.execute(
                """
                INSERT INTO tournaments_movelog (round_id, game_id, player, user_id, move, version, idempotency_key,
                    request_hash, server_played, created_at)
                SELECT r.id, r.game_id, r.players ->> (m %% 2),
                    (SELECT u.id FROM auth_user u WHERE u.username = r.players ->> (m %% 2)),
                    CASE WHEN m %% 2 = 0 THEN '{"type": "discard", "card": "7H"}'::jsonb
                         WHEN m %% 6 = 1 THEN '{"type": "draw", "source": "discard", "card": "7H"}'::jsonb
                         ELSE '{"type": "draw", "source": "stock"}'::jsonb END,
                    1000000 + r.id * %(n)s + m, '', '', false, r.ended_at
                FROM tournaments_round r, generate_series(0, %(n)s - 1) AS m
                WHERE r.id > %(before)s
                """,
                {"n": MOVES_PER_ROUND, "before": before},
            )
        cur.execute("SET session_replication_role = origin")
        cur.execute("ANALYZE")


def make_tables(count: int) -> None:
    from django.contrib.auth import get_user_model

    from tournaments.live.models import Game, Table

    User = get_user_model()
    users = User.objects.bulk_create(
        [User(username=f"b{i}{side}") for i in range(count) for side in ("x", "y")], batch_size=2000
    )
    rows = Table.objects.bulk_create(
        [
            Table(
                game="rummy500",
                seats=2,
                pcr=1,
                min_buy_in=100,
                max_buy_in=2000,
                private=i % 2 == 0,
                code=f"B{i:07d}" if i % 2 == 0 else None,
                created_by=users[2 * i],
            )
            for i in range(count)
        ],
        batch_size=2000,
    )
    Game.objects.bulk_create([Game(table=t) for t in rows], batch_size=2000)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--no-catch-up", action="store_true")
    # Tiny mode: ten rounds a day over the year (the run needs at least one a day).
    args = parser.parse_args(tiny.argv(argv, ["--rounds", str(10 * DAYS), "--tables", "10"]))
    base_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ramino")
    if not base_url.startswith("postgres"):
        print("bench-integrity needs DATABASE_URL=postgres://...", file=sys.stderr)
        return 2
    url, admin_url, scratch = scratch_url(base_url, os.environ.get("BENCH_DB_SUFFIX", "bench_integrity"))
    os.environ.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings.test")
    recreate_database(admin_url, scratch)
    try:
        import django

        django.setup()
        from datetime import timedelta

        from django.core.management import call_command
        from django.db import connection
        from django.utils import timezone

        from integrity import services
        from integrity.models import Checkpoint, PairStat
        from ledger.models import Transfer

        call_command("migrate", verbosity=0)
        day = args.rounds // DAYS
        history = args.rounds - day
        started = time.perf_counter()
        make_tables(args.tables)
        load_history(tables=args.tables, rounds=history, total=args.rounds)
        print(f"loaded {history:,} settled rounds in {time.perf_counter() - started:.1f} s", flush=True)
        later = timezone.now() + timedelta(minutes=5)
        if args.no_catch_up:
            last = Transfer.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
            Checkpoint.objects.update_or_create(pk=1, defaults={"last_transfer_id": last})
        else:
            first = services.run_checks(now=later)
            print(
                f"first run (the whole history): {first.rounds:,} rounds in {first.seconds:.1f} s "
                f"({first.rounds / first.seconds:,.0f} rounds/s), {first.flags_raised} flags, "
                f"{PairStat.objects.count():,} pairs",
                flush=True,
            )
        started = time.perf_counter()
        load_history(tables=args.tables, rounds=day, total=args.rounds, first_round=history, with_moves=True)
        print(
            f"added a day: {day:,} rounds with {day * MOVES_PER_ROUND:,} moves in {time.perf_counter() - started:.1f} s"
        )
        daily = services.run_checks(now=later)
        print(
            f"daily run: {daily.rounds:,} new rounds of {args.rounds:,} in {daily.seconds:.2f} s "
            f"({daily.rounds / max(daily.seconds, 1e-9):,.0f} rounds/s), {daily.flags_raised} flags raised, "
            f"{daily.flags_updated} updated",
            flush=True,
        )
        again = services.run_checks(now=later)
        print(f"again, nothing new: {again.rounds} rounds in {again.seconds * 1000:.0f} ms", flush=True)
        connection.close()
    finally:
        if not args.keep:
            from django.db import connections

            connections.close_all()
            recreate_database(admin_url, scratch, create=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
