"""A multi-table tournament played to its payout by real workers: `make bench-tournament BENCH_ARGS="--to-payout
20000 --payout-workers 2"` runs it after the windows (docs/performance.md "A tournament to its payout").

The field is a freeroll with the benchmark's guarantee, written in bulk (`bench_tournament.bulk_register`),
started through the real start and played by the workers with instant rounds until its finish: the levels
rise every round from PCR 5 (doubling), so that a 20,000-entrant field ends in tens of thousands of table events
rather than hundreds of thousands. The beat's sweeper is called every 30 s, as beat calls it. At the end:
the tournament finished, every entry placed once, the prizes equal to the guarantee, every chip of the
tournament's own type retired (each stack account and the mint at zero), the pool empty, the counters equal
to a count, and the ledger reconciled.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

# Doubling for 24 levels (5 to about 42 million): the whole field's chips (20,000 x 1,500 = 30 million) never
# outgrow the PCR, so the last tables bust as fast as the first (a schedule ending at 2,560 left the last 40
# players of 20,000 with stacks of about 850,000 and a bust every half minute).
PCR_SCHEDULE = [5 * 2**level for level in range(24)]
STARTING_STACK = 1500
SWEEP_EVERY_SECONDS = 30.0


@dataclass(frozen=True)
class PayoutRun:
    entrants: int
    workers: int
    start_seconds: float
    seconds: float
    rounds: int
    tables: int
    moved: int
    problems: tuple[str, ...]
    load_before: str
    load_after: str

    @property
    def events_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds else float("nan")

    def line(self) -> str:
        verdict = "all checks passed" if not self.problems else "PROBLEMS: " + "; ".join(self.problems)
        return (
            f"To its payout: {self.entrants:,} entrants with {self.workers} worker(s), the start {self.start_seconds:.1f} s, "
            f"then {self.seconds:.0f} s of play: {self.rounds:,} table events ({self.events_per_second:.1f} a second) "
            f"at {self.tables:,} tables, {self.moved:,} moves; {verdict} (finished, every entry placed once, the "
            f"prizes equal to the guarantee, the tournament's chips all retired, the pool empty, the counters equal "
            f"to a count, the ledger reconciled). Load average before: {self.load_before}, after: {self.load_after}."
        )


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def play_to_payout(*, admin: Any, user_ids: list[int], workers: int, timeout: float) -> PayoutRun:
    """Create, fill, start and play one tournament to its end on the running workers; answers what it measured
    and every check that failed (none: an empty `problems`)."""
    from tests.benchmarks.bench_tournament import GUARANTEE, bulk_register, create_tournament
    from tournaments import tasks
    from tournaments.live.models import Round, Table
    from tournaments.tournament import admin_actions
    from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

    load_before = _load()
    entrants = len(user_ids)
    tournament = create_tournament(admin, entrants=entrants, label=f"to its payout, {entrants} entrants")
    Tournament.objects.filter(pk=tournament.pk).update(
        pcr_schedule=PCR_SCHEDULE, rounds_per_level=1, starting_stack=STARTING_STACK
    )
    bulk_register(tournament.pk, user_ids)
    began = time.perf_counter()
    admin_actions.start(tournament_id=tournament.pk)
    while Tournament.objects.filter(pk=tournament.pk, start_seed__isnull=False).exists():
        time.sleep(0.05)
    started = time.perf_counter()
    next_sweep = started + SWEEP_EVERY_SECONDS
    next_report = started + 60
    while True:
        row = Tournament.objects.values("status", "players_left", "tables_open").get(pk=tournament.pk)
        if row["status"] != TournamentStatus.RUNNING:
            break
        now = time.perf_counter()
        if now - started > timeout:
            raise RuntimeError(f"tournament {tournament.pk} not finished within {timeout:.0f} s: {row}")
        if now >= next_sweep:
            tasks.sweep_all(grace_seconds=SWEEP_EVERY_SECONDS)  # what beat does
            next_sweep = now + SWEEP_EVERY_SECONDS
        if now >= next_report:
            print(
                f"to its payout: {now - started:.0f} s, {row['players_left']:,} players left at "
                f"{row['tables_open']:,} tables",
                flush=True,
            )
            next_report = now + 60
        time.sleep(0.5)
    seconds = time.perf_counter() - started
    tournament.refresh_from_db()
    return PayoutRun(
        entrants=entrants,
        workers=workers,
        start_seconds=started - began,
        seconds=seconds,
        rounds=Round.objects.filter(game__table__tournament_id=tournament.pk).count(),
        tables=Table.objects.filter(tournament_id=tournament.pk).count(),
        moved=sum(
            TournamentEntry.objects.filter(tournament=tournament).values_list("times_moved", flat=True)
        ),
        problems=tuple(_problems(tournament, entrants=entrants, guarantee=GUARANTEE)),
        load_before=load_before,
        load_after=_load(),
    )


def _problems(tournament: Any, *, entrants: int, guarantee: int) -> list[str]:
    from ledger.models import Account, Transfer, TransferKind, tournament_chip_type
    from ledger.selectors import reconcile
    from tournaments.tournament import counters
    from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentStatus

    found: list[str] = []
    if tournament.status != TournamentStatus.FINISHED:
        found.append(f"status {tournament.status}")
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament).values_list("status", "place", "prize")
    )
    places = sorted(place for _, place, _ in entries if place is not None)
    if len(entries) != entrants or places != list(range(1, entrants + 1)):
        found.append(f"{len(entries)} entries, places {places[:3]}... of {len(places)}")
    if sum(1 for status, _, _ in entries if status == EntryStatus.BUSTED) != entrants - 1:
        found.append("not every entry but the winner busted")
    if sum(prize for _, _, prize in entries) != guarantee:
        found.append(f"prizes {sum(prize for _, _, prize in entries)} against the guarantee {guarantee}")
    chip_type = tournament_chip_type(tournament.pk)
    if Account.objects.filter(chip_type=chip_type).exclude(balance=0).exists():
        found.append("an account of the tournament's chips is not at zero")
    if not Transfer.objects.filter(chip_type=chip_type, kind=TransferKind.RETIRE).exists():
        found.append("no chips retired")
    if tournament.pool_account is not None:
        tournament.pool_account.refresh_from_db()
        if tournament.pool_account.balance != 0:
            found.append(f"the pool holds {tournament.pool_account.balance}")
    if Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.PAYOUT).count() != 1:
        found.append("not one payout transfer")
    mismatches = counters.check(tournament_ids=[tournament.pk])
    if mismatches:
        found.append(f"counters: {mismatches}")
    report = reconcile()
    if not report.ok:
        found.append(f"reconciliation: {report.problems[:3]}")
    return found
