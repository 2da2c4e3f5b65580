"""Starting a multi-table tournament (docs/tournaments.md "Multi-table tournaments: the runtime", "The batched
start"), from `tournament_start.start_locked`: RUNNING at level 1, the guarantee's shortfall into the pool, the
mint account opened, the entrants shuffled (CSPRNG) into ceil(n/seats) even tables
(`seating_plan.initial_tables`), each table's starting stacks minted in one transfer, every entry PLAYING, a deal
scheduled at every table, the `started` event.

Tables, games, stack accounts and seats are bulk inserted, entries bulk updated, the deals scheduled by one
UPDATE; the ledger gets one MINT transfer a table. A field of at most `RAMINO_START_BATCH_TABLES` tables starts in
the one transaction of the start. A larger one is seated in batches of that many tables, each its own
transaction (`seat_next_batch`, Celery `tournaments.multi_start_batch`, sent on each batch's commit and re-sent by
the beat's sweeper after a crash): the shuffle comes from a seed drawn from the CSPRNG and kept on the tournament
row (`start_seed`), so every batch computes the same tables and seats the next ones (`tables_open` of them are
seated); then the first deals, in batches of as many games; then `start_seed` is cleared. Until then no table is
dealt, no table's job runs (`starting`), and late registration and cancelling wait (`tournament.seating`).
The fees reached the house at registration (`registration`); a cancellation refunds them from the house."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from ledger.models import Account
from tournaments.errors import Conflict, PlayCode
from tournaments.live import dispatch
from tournaments.live.models import Game, GameStatus, Seat, Table
from tournaments.multi_table import faults, knockouts
from tournaments.multi_table import groups as groups_module
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.seating_plan import initial_tables
from tournaments.multi_table.seating import BATCH, Seating, first_pcr, mint_account, seat_tables
from tournaments.multi_table.task_names import START_BATCH
from tournaments.tournament import events
from tournaments.tournament.models import (
    LIVE_ENTRY_STATUSES,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from tournaments.tournament.start_common import pay_guarantee, schedule_deals
from tournaments.tournament.status import move_to


def batch_tables() -> int:
    return max(1, int(settings.RAMINO_START_BATCH_TABLES))


def starting(tournament: Tournament) -> bool:
    """Is the batched start still seating or dealing (no table's job runs, nobody enters late)?"""
    return tournament.start_seed is not None


def tables_needed(tournament: Tournament) -> int:
    """How many tables the start seats: ceil(entrants / seats) (`initial_tables`; nobody enters meanwhile)."""
    return -(-int(tournament.entrants) // max(1, int(tournament.seats)))


def tables_seated(tournament: Tournament) -> int:
    """The tables the start has seated so far (none before it)."""
    return int(tournament.tables_seated or 0)


def seating(tournament: Tournament) -> bool:
    """Is the batched start still seating tables? Until then no table's job runs: the counters and the size
    histogram hold only the tables seated so far. Once every table is seated, jobs run as ever while the last
    steps deal the tables never dealt (and may break tables: `tables_open` then falls short of the field's
    tables, `tables_seated` does not)."""
    return starting(tournament) and tables_seated(tournament) < tables_needed(tournament)


def refuse_while_starting(tournament: Tournament) -> None:
    """409 `tournament.seating` while the batched start runs."""
    if starting(tournament):
        raise Conflict(
            "The tournament is seating its players: try again in a moment.",
            code=PlayCode.TOURNAMENT_SEATING,
            details={"tables_seated": tables_seated(tournament)},
        )


def start_multi(tournament: Tournament, entries: Sequence[TournamentEntry]) -> Table:
    """Start with `entries` (checked against `min_entrants` by the caller, who holds the tournament's lock).
    Answers the first table."""
    move_to(tournament, TournamentStatus.RUNNING)
    tournament.started_at = timezone.now()
    tournament.level = 1
    # A scheduled start that failed before (tournament_schedule) and now succeeds: its reason is moot.
    tournament.error = ""
    tournament.save(update_fields=["status", "started_at", "level", "error"])
    pay_guarantee(tournament, entrants=len(entries))
    mint_account(tournament)
    ids = [entry.pk for entry in entries]
    batched = -(-len(ids) // tournament.seats) > batch_tables()
    seed = secrets.randbits(63) if batched else None
    rng: random.Random = random.Random(seed) if batched else secrets.SystemRandom()
    tables = initial_tables(ids, seats=tournament.seats, rng=rng)
    stack = int(tournament.starting_stack or 0)
    tournament.players_left = 0
    tournament.tables_open = 0
    tournament.tables_seated = 0
    tournament.start_seed = seed
    first = _seat(tournament, tables[: batch_tables()] if batched else tables, entries, total=len(tables))
    events.record(
        tournament=tournament,
        kind="started",
        data={"entrants": len(entries), "tables": len(tables), "starting_stack": stack, "level": 1},
    )
    if batched:
        dispatch.enqueue(START_BATCH, [tournament.pk], 0)
    else:
        schedule_deals(Game.objects.filter(table__tournament=tournament))
    return first


def _seat(
    tournament: Tournament,
    groups: Sequence[Sequence[int]],
    entries: Sequence[TournamentEntry],
    *,
    total: int,
) -> Table:
    """The tables of `groups` (entry ids) opened and seated, the counters and histogram kept; in a field of more
    than `RAMINO_TABLE_GROUP_TABLES` tables (`total`), made into table groups (`multi_table.groups`). Caller holds
    the tournament's lock."""
    by_id = {entry.pk: entry for entry in entries}
    stack = int(tournament.starting_stack or 0)
    tables = Table.objects.bulk_create(
        [
            Table(
                game=tournament.game,
                options=tournament.options,
                seats=tournament.seats,
                pcr=first_pcr(tournament),
                min_buy_in=max(stack, 1),
                max_buy_in=max(stack, 1),
                multiplier=tournament.multiplier,
                created_by=tournament.created_by,
                tournament=tournament,
            )
            for _ in groups
        ],
        batch_size=BATCH,
    )
    Game.objects.bulk_create([Game(table=table) for table in tables], batch_size=BATCH)
    seat_tables(
        tournament=tournament,
        seatings=[
            Seating(table=table, entries=[by_id[e] for e in group])
            for table, group in zip(tables, groups, strict=True)
        ],
        stack=stack,
    )
    knockouts.start_bounties(tournament, entry_ids=[entry for group in groups for entry in group])
    if groups_module.grouped(tournament, tables=total):
        groups_module.add_tables(
            tournament,
            {table.pk: len(group) for table, group in zip(tables, groups, strict=True)},
            last=tables_seated(tournament) + len(tables) >= total,
        )
    earlier = tournament.table_sizes if tournament.tables_open else {}
    tournament.players_left += sum(len(group) for group in groups)
    tournament.tables_open += len(tables)
    tournament.tables_seated = tables_seated(tournament) + len(tables)
    tournament.table_sizes = table_sizes.added(earlier or {}, (len(group) for group in groups))
    tournament.start_step_at = timezone.now() if tournament.start_seed is not None else None
    Tournament.objects.filter(pk=tournament.pk).update(
        players_left=tournament.players_left,
        tables_open=tournament.tables_open,
        tables_seated=tournament.tables_seated,
        table_sizes=tournament.table_sizes,
        start_seed=tournament.start_seed,
        start_step_at=tournament.start_step_at,
    )
    return tables[0]


def seat_next_batch(*, tournament_id: int) -> str:
    """One step of a batched start, in one transaction under the tournament's lock: the next
    `RAMINO_START_BATCH_TABLES` tables seated, else the next as many first deals scheduled, else the start
    done. Sends itself again on commit until done; idempotent by state (a repeated or late message finds the
    step done and does the next one, or nothing). Answers what it did. Once done, the planner's statistics of
    the tables the start filled are refreshed (`refresh_statistics`)."""
    step = _next_step(tournament_id=tournament_id)
    if step == "done":
        refresh_statistics()
    return step


# The tables a start fills: a large field's rows arrive at once, and until their statistics are refreshed the
# planner plans the tables' jobs as if they held the rows they held before (docs/performance.md).
FILLED = (Table, Game, Seat, TournamentEntry, Account)


def refresh_statistics() -> None:
    """`ANALYZE` of the tables a start fills (PostgreSQL; each samples a bounded number of rows: a fraction of a
    second at 250,000 entrants), outside any transaction's locks."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in FILLED:
            cursor.execute(f'ANALYZE "{model._meta.db_table}"')


def _next_step(*, tournament_id: int) -> str:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or not starting(tournament):
            return "idle"
        if tournament.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
            return "idle"
        assert tournament.start_seed is not None
        if seating(tournament):
            # The entrants' ids only (the same list as the start's: nobody enters or leaves meanwhile), the
            # same shuffle, the same tables; then the rows of this batch's entrants.
            ids = list(
                TournamentEntry.objects.filter(tournament=tournament, status__in=LIVE_ENTRY_STATUSES)
                .order_by("registered_at", "pk")
                .values_list("pk", flat=True)
            )
            groups = initial_tables(ids, seats=tournament.seats, rng=random.Random(tournament.start_seed))
            seated = tables_seated(tournament)
            batch = groups[seated : seated + batch_tables()]
            wanted = [entry for group in batch for entry in group]
            entries = [
                entry
                for at in range(0, len(wanted), 500)  # 500 parameters a statement (SQLite's limits)
                for entry in TournamentEntry.objects.filter(pk__in=wanted[at : at + 500]).select_related(
                    "player"
                )
            ]
            _seat(tournament, batch, entries, total=len(groups))
            faults.pause_point(faults.START_BATCH)  # the crash tests' SIGKILL (multi_table/faults.py)
            dispatch.enqueue(START_BATCH, [tournament.pk], 0)
            return "seated"
        if tournament.status == TournamentStatus.RUNNING:
            # The games never dealt nor given a deal (a table that received players may have been given one by
            # its job): each dealt once, by this or by its job.
            due = Game.objects.filter(
                table__tournament=tournament,
                status=GameStatus.WAITING,
                next_round_at__isnull=True,
                current_round__isnull=True,
            ).order_by("pk")[: batch_tables()]
            if schedule_deals(Game.objects.filter(pk__in=list(due.values_list("pk", flat=True)))):
                Tournament.objects.filter(pk=tournament.pk).update(start_step_at=timezone.now())
                dispatch.enqueue(START_BATCH, [tournament.pk], 0)
                return "dealt"
        # Every table seated and dealt (or paused: the resume wakes each waiting table, which deals it).
        tournament.start_seed = None
        Tournament.objects.filter(pk=tournament.pk).update(start_seed=None, start_step_at=None)
        return "done"


def resume_starts(*, grace_seconds: float) -> int:
    """The beat's sweeper: the next step of every batched start whose last step committed more than
    `grace_seconds` ago sent again (its message was lost with a crashed worker); a step already done is never
    done twice (`seat_next_batch`). Answers how many were sent."""
    late = timezone.now() - timedelta(seconds=grace_seconds)
    ids = list(
        Tournament.objects.filter(start_seed__isnull=False, start_step_at__lt=late).values_list(
            "pk", flat=True
        )
    )
    for tournament_id in ids:
        dispatch.send(START_BATCH, [tournament_id])
    return len(ids)
