"""Starting a multi-table tournament (docs/tournaments.md "Multi-table tournaments: the runtime"), from
`tournament_start.start_locked`: RUNNING at level 1, the guarantee's shortfall into the pool, the mint account
opened, the entrants shuffled (CSPRNG) into ceil(n/seats) even tables (`seating_plan.initial_tables`), each
table's starting stacks minted in one transfer, every entry PLAYING, a deal scheduled at every table, the
`started` event.

Built for tens of thousands of entrants in one transaction: tables, games, stack accounts and seats are bulk
inserted, entries bulk updated, the deals scheduled by one UPDATE; the ledger gets one MINT transfer a table.
The fees reached the house at registration (`registration`); a cancellation refunds them from the house."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.utils import timezone

from tournaments.live.models import Game, Table
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.seating_plan import initial_tables
from tournaments.multi_table.seating import BATCH, Seating, first_pcr, mint_account, seat_tables
from tournaments.tournament import events
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus
from tournaments.tournament.start_common import pay_guarantee, schedule_deals
from tournaments.tournament.status import move_to


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
    by_id = {entry.pk: entry for entry in entries}
    groups = initial_tables(list(by_id), seats=tournament.seats, rng=secrets.SystemRandom())
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
    tournament.players_left = len(entries)
    tournament.tables_open = len(tables)
    tournament.table_sizes = table_sizes.histogram(len(group) for group in groups)
    Tournament.objects.filter(pk=tournament.pk).update(
        players_left=tournament.players_left,
        tables_open=tournament.tables_open,
        table_sizes=tournament.table_sizes,
    )
    schedule_deals(Game.objects.filter(table__tournament=tournament))
    events.record(
        tournament=tournament,
        kind="started",
        data={"entrants": len(entries), "tables": len(tables), "starting_stack": stack, "level": 1},
    )
    return tables[0]
