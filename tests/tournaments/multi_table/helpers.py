"""Helpers of the multi-table tournament tests: a tournament (tests.factories.MultiTournamentFactory, which can
also make it running at a level), entrants registered, tables seated, the ledger's tournament-chip invariant; for
the tables' jobs run at once (`test_shared_jobs.py`, `test_group_plans.py`): a running tournament seating given
stacks, a table's round played to its job, another connection holding locks."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone

from ledger.models import Account, AccountKind, tournament_chip_type
from tests.factories import MultiTournamentFactory
from tournaments.live.messaging import dispatch
from tournaments.live.models import SEATED_STATUSES, Game, Table, TableStatus
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import quiet
from tournaments.multi_table import seating as multi_seating
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament import counters
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

_examples = itertools.count(1)
SEATS = 4  # the seats of `running_with_stacks`'s tables
# The start of a statement on the tournament's row, for another connection holding it (`held_by_another`).
ROW = 'SELECT 1 FROM "tournaments_tournament" WHERE id = %s '

FAST = {"turn_seconds": 30, "time_bank_seconds": 0, "max_timeouts": 20, "max_timeouts_per_round": 100}


def new_multi(admin: Any, **overrides: Any) -> Tournament:
    """A registering multi-table tournament created by `admin` (any field overridden, `status` and `level`
    included)."""
    return MultiTournamentFactory.create(created_by=admin, **overrides)


def chips_conserved(tournament: Tournament) -> int:
    """Asserts the mint's balance is minus the chips at the seats; answers the chips in play."""
    chip_type = tournament_chip_type(tournament.pk)
    tournament.refresh_from_db()
    mint = Account.objects.get(pk=tournament.mint_account_id).balance if tournament.mint_account_id else 0
    stacks = (
        Account.objects.filter(chip_type=chip_type, kind=AccountKind.SEAT_STACK).aggregate(s=Sum("balance"))[
            "s"
        ]
        or 0
    )
    assert mint == -stacks, (mint, stacks)
    return int(stacks)


def register_all(tournament: Tournament, users: list[Any]) -> None:
    from tournaments.tournament import registration

    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)


def seated(
    admin: Any, make_player: Any, tables: list[list[int]], **overrides: Any
) -> tuple[Tournament, list[Any], dict[str, Any]]:
    """A running tournament whose tables hold players with the given stacks (named t<table>p<seat>), built
    with the seating services (no start); answers (tournament, tables, entries by name)."""
    from tournaments.multi_table import seating as multi_seating
    from tournaments.tournament.models import TournamentEntry

    fields: dict[str, Any] = {"status": TournamentStatus.RUNNING, "level": 1, "instant_rounds": True}
    tournament = new_multi(admin, **{**fields, **overrides})
    opened = []
    entries: dict[str, Any] = {}
    for t, stacks in enumerate(tables):
        table = multi_seating.open_tournament_table(tournament=tournament)
        opened.append(table)
        for s, stack in enumerate(stacks):
            name = f"t{t}p{s}"
            entry = TournamentEntry.objects.create(
                tournament=tournament, player=make_player(name, chips=1000)
            )
            multi_seating.seat_entrant(
                tournament=tournament,
                entry=entry,
                table=table,
                stack=stack,
                key=f"test:{tournament.pk}:{name}",
            )
            entries[name] = entry
    from tournaments.live.models import Game

    # Every table's first deal scheduled, as the start does.
    Game.objects.filter(table__in=opened).update(next_round_at=timezone.now())
    tournament.refresh_from_db()
    return tournament, opened, entries


def fixed_result(scores: dict[str, int], melded: dict[str, int] | None = None, out: str | None = None) -> Any:
    """An `instant_result` stand-in answering these scores (and melded values, who went out)."""

    def result(players: Any, rng: Any = None) -> dict[str, Any]:
        return {
            "scores": {p: scores[p] for p in players},
            "game_points": {p: scores[p] for p in players},
            "bonuses": [],
            "details": {
                "reason": "instant",
                "went_out": out,
                "players": {p: {"placed_value": (melded or {}).get(p, 0)} for p in players},
            },
            "redeal": False,
        }

    return result


def running_with_stacks(
    admin: Any, make_player: Any, stacks: list[list[int]], *, seats: int = SEATS
) -> tuple[Tournament, list[Table]]:
    """A running tournament (late registration over: busts get their places at once) with tables of `seats`
    seating players of these stacks, the size histogram written as the start writes it."""
    example = next(_examples)
    tournament = new_multi(
        admin,
        status=TournamentStatus.RUNNING,
        level=1,
        instant_rounds=True,
        seats=seats,
        pcr_schedule=[1],
        rounds_per_level=100,
        payouts=[100],
    )
    tables = []
    for t, row in enumerate(stacks):
        table = multi_seating.open_tournament_table(tournament=tournament)
        tables.append(table)
        for s, stack in enumerate(row):
            name = f"x{example}t{t}p{s}"
            entry = TournamentEntry.objects.create(tournament=tournament, player=make_player(name, chips=0))
            counters.add(tournament, entrants=1)
            multi_seating.seat_entrant(
                tournament=tournament,
                entry=entry,
                table=table,
                stack=stack,
                key=f"test:{tournament.pk}:{name}",
            )
    Game.objects.filter(table__in=tables).update(next_round_at=timezone.now())
    histogram = table_sizes.histogram(len(row) for row in stacks)
    Tournament.objects.filter(pk=tournament.pk).update(table_sizes=histogram)
    tournament.refresh_from_db()
    return tournament, tables


def round_over(monkeypatch: pytest.MonkeyPatch, table: Table, scores: dict[str, int]) -> list[Any]:
    """The table's round dealt and ended with these scores; answers its job's args."""
    monkeypatch.setattr(round_start, "instant_result", fixed_result(scores))
    with dispatch.captured() as sent:
        round_start.start_round(game_id=Game.objects.get(table=table).pk)
    (args,) = [args for name, args in sent if name == TABLE_ROUND_OVER]
    return list(args)


def seated_names(table: Table) -> list[str]:
    return list(table.seat_set.filter(status__in=SEATED_STATUSES).values_list("player__username", flat=True))


def open_sizes(tournament: Tournament) -> dict[int, int]:
    return dict(
        Table.objects.filter(tournament=tournament, status=TableStatus.OPEN)
        .annotate(size=Count("seat_set", filter=Q(seat_set__status__in=SEATED_STATUSES)))
        .values_list("pk", "size")
    )


@contextmanager
def held_by_another(tournament_id: int, mode: str | list[str]) -> Iterator[None]:
    """The tournament's row held in `mode` (or these statements run) by another connection (a thread) while
    the body runs in a transaction that gives up on a lock after 500 ms; released afterwards."""
    held, release = threading.Event(), threading.Event()
    statements = [ROW + mode] if isinstance(mode, str) else mode
    holder = threading.Thread(target=_hold_statements, args=(tournament_id, statements, held, release))
    holder.start()
    try:
        assert held.wait(timeout=30)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '500ms'")
            yield
    finally:
        release.set()
        holder.join(timeout=30)


def _hold_statements(
    tournament_id: int, statements: list[str], held: threading.Event, release: threading.Event
) -> None:
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            for statement in statements:  # the tournament's id for its placeholder, if it has one
                cursor.execute(statement, [tournament_id] if "%s" in statement else [])
            held.set()
            release.wait(timeout=30)
    finally:
        connection.close()


@contextmanager
def first_held_at_its_counters(monkeypatch: pytest.MonkeyPatch, job: list[Any]) -> Iterator[list[Any]]:
    """`job` run in a thread named "first" that stops when it first takes the counters (its busts' table part
    and its plan's moves done, its locks held) until the block ends; yields the list its answer goes in. The
    block runs in a transaction that gives up on a lock after 500 ms."""
    at_counters, go_on = threading.Event(), threading.Event()
    take = quiet.Counters.take
    stopped: list[bool] = []

    def held_take(self: quiet.Counters) -> None:
        if threading.current_thread().name == "first" and not stopped:
            stopped.append(True)
            at_counters.set()
            assert go_on.wait(timeout=30)
        take(self)

    monkeypatch.setattr(quiet.Counters, "take", held_take)
    answers: list[Any] = []

    def run() -> None:
        try:
            with dispatch.captured():
                answers.append(
                    quiet.after_quiet_round(tournament_id=job[0], table_id=job[1], round_id=job[2])
                )
        except Exception as error:  # the caller's assertion shows it
            answers.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run, name="first")
    thread.start()
    try:
        assert at_counters.wait(timeout=30)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '500ms'")
            yield answers
    finally:
        go_on.set()
        thread.join(timeout=30)
