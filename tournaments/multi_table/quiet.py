"""The shared table job: the common cases of a multi-table tournament's job after a round, run without the
tournament's exclusive row lock (docs/tournaments.md "Multi-table tournaments: the runtime", "Locks of the
tables' jobs"; docs/performance.md "At 250,000 entrants").

Most jobs change nothing but their own table and the counters: the round does not raise the tournament's
level, no round-for-round play is on or due, and once the table's busts are counted the open tables' size
histogram shows this table within one player of every other with no table to break (`table_sizes.plan_needed`
false): the next deal is scheduled. Such a job plans nothing and reads no other table.

Locks on the tournament's row (PostgreSQL's row-lock modes; each job takes one, first, and never raises it):
- a *quiet* job (nobody at the table without chips, no plan): `FOR KEY SHARE`. It writes nothing another job
  reads (its table's deal), so quiet jobs never wait for each other, nor for a busting or planning job;
- a *busting* or *planning* job: `FOR NO KEY UPDATE`, which conflicts with itself only: such jobs take turns
  for the counters (`players_left`, `bust_groups`, the histograms, `tables_open`, the event's version), in the
  order that numbers the bust groups and gives the places (settlement order, as before). A plan (balancing,
  breaking: `balance.rebalance`, the exclusive job's code) reads and moves only tables between rounds, whose games
  it locks, so what a quiet job decided beside it stays true. A job that finds a plan to make while it holds
  only the share keeps nothing and is tried again under `FOR NO KEY UPDATE`;
- the *exclusive* job (`progress.after_table_round`: levels, the bubble and round-for-round, the finish, a
  wake-up) and every other change to the tournament (registration, late entries, pause, cancel): `FOR
  UPDATE`, which conflicts with both: it sees no shared job half done and none starts until it commits.
Then the table's game (every job's order: tournament, then game, then seats and accounts).

Exactness: a shared job makes the exclusive job's decisions (the same functions on the same counters) and
does what the exclusive job would do in that case. When a check fails (a level rise, the bubble, the finish),
nothing is kept (a busting job's writes are rolled back) and the exclusive job runs in a new transaction,
deciding again under its own lock. On SQLite (one writer at a time) busts and plans are the exclusive job's.
"""

from __future__ import annotations

from django.db import connection, transaction

from tournaments.live import lock_game
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Seat, Table, TableStatus
from tournaments.multi_table import balance, faults, groups, rebuys, start
from tournaments.multi_table.balance import wake
from tournaments.multi_table.busts import bust_players
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.levels import in_bubble, level_of
from tournaments.satellites import services as satellites
from tournaments.tournament.models import Tournament, TournamentKind, TournamentStatus
from tournaments.tournament.start_common import schedule_deal

QUIET = "dealt"


def share_lock(tournament_id: int) -> None:
    """The tournament's row locked `FOR KEY SHARE` (PostgreSQL; other databases serialize writers anyway)."""
    if connection.vendor != "postgresql":
        return
    table = Tournament._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT 1 FROM "{table}" WHERE id = %s FOR KEY SHARE', [tournament_id])


class Exclusive(Exception):
    """The shared job found that the exclusive job must decide: everything it wrote is rolled back."""


def after_quiet_round(*, tournament_id: int, table_id: int, round_id: int | None) -> str | None:
    """The job when it needs no exclusive lock (what it did: "dealt", or "broken" when a plan broke its table),
    else None with nothing written. A job that must plan and holds only the row's share is tried again, nothing
    kept, under `FOR NO KEY UPDATE` (a share is never raised in place)."""
    if round_id is None:
        return None  # a wake-up after receiving players: the exclusive job decides
    postgresql = connection.vendor == "postgresql"
    # One lock on the tournament's row, taken first, never raised: a job that will bust players (read before
    # any lock: only settlements change stacks, and this round is settled) takes FOR NO KEY UPDATE, the others
    # FOR KEY SHARE. (Raising a share while an exclusive locker waits would deadlock: PostgreSQL queues the
    # raise behind the waiter, which waits for the share.)
    serial = postgresql and _broke_before(table_id)
    try:
        with transaction.atomic():
            return _shared(tournament_id=tournament_id, table_id=table_id, round_id=round_id, serial=serial)
    except Exclusive:
        return None
    except _PlanNeeded:
        if not postgresql:
            return None  # SQLite (one writer at a time): the exclusive job plans
    try:
        with transaction.atomic():
            return _shared(tournament_id=tournament_id, table_id=table_id, round_id=round_id, serial=True)
    except (Exclusive, _PlanNeeded):
        return None


class _PlanNeeded(Exception):
    """A job holding only the row's share found a plan to make: nothing written, tried again serially."""


def _shared(*, tournament_id: int, table_id: int, round_id: int, serial: bool) -> str | None:
    if serial:
        Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).first()
    else:
        share_lock(tournament_id)
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not may_share(tournament):
        return None
    game_id = Game.objects.filter(table_id=table_id, table__tournament_id=tournament_id).values_list(
        "pk", flat=True
    )
    locked = lock_game(game_id.first() or 0)
    if locked is None:
        return None
    table, game = locked
    round_ = game.current_round
    if (
        table.status != TableStatus.OPEN
        or game.status != GameStatus.WAITING
        or round_ is None
        or round_.pk != round_id
        or not round_.settled
    ):
        return None  # stale, playing or closed: the exclusive job answers which
    if level_of(round_.number + 1, rounds_per_level=int(tournament.rounds_per_level or 1)) > tournament.level:
        return None
    size, broke = _seated_and_broke(table)
    if broke and not serial:
        return None  # players without chips since the read before the lock: the exclusive job busts them
    after = size
    if broke:
        # Busts change the counters: under FOR NO KEY UPDATE (it conflicts with itself, not with the quiet
        # jobs' share) the bust path's own code, then the exclusive job's decisions on the counters it left.
        # Anything that is the exclusive job's: all rolled back.
        bust_players(tournament, table, round_)
        after, _ = _seated_and_broke(table)
        if finish_due(tournament) or bubble_due(tournament):
            raise Exclusive
    elif bubble_due(tournament):
        return None
    hist = table_sizes.resized(tournament.table_sizes or {}, old=size, new=after)
    if not broke and hist != (tournament.table_sizes or {}):
        return None  # the histogram does not hold this table at its size: the exclusive job plans every table
    if table.awaiting_job:
        Table.objects.filter(pk=table.pk).update(awaiting_job=False)
    if not balance.no_plan(tournament, hist, size=after):
        if not serial:
            raise _PlanNeeded
        # A plan, with the exclusive job's code: it takes turns with busts and other plans (the same lock),
        # never with the quiet jobs (docs/tournaments.md "Locks of the tables' jobs").
        applied = balance.rebalance(tournament, table, game, before=size)
        broken = table.pk in applied.broken
        if applied.moved or applied.broken:
            faults.pause_point(faults.BALANCE)  # the crash tests' SIGKILL (tournaments/multi_table/faults.py)
        wake(tournament, applied.receivers, skip=table.pk)
        if not broken and game.next_round_at is None:
            schedule_deal(game, delay=rebuys.deal_delay(tournament=tournament, table=table, round_=round_))
        return "broken" if broken else QUIET
    balance.keep_sizes(tournament, hist)
    if broke:
        groups.resize(tournament, table.pk, old=size, new=after)  # its group's histogram (`groups`)
    if game.next_round_at is None:
        schedule_deal(game, delay=rebuys.deal_delay(tournament=tournament, table=table, round_=round_))
    if broke:
        faults.pause_point(faults.SHARED_BUST)  # the crash tests' SIGKILL (tournaments/multi_table/faults.py)
    return QUIET


def may_share(tournament: Tournament) -> bool:
    return (
        tournament.kind == TournamentKind.MULTI
        and tournament.status == TournamentStatus.RUNNING
        and not tournament.round_for_round
        and tournament.players_left > 1
        and not start.seating(tournament)
    )


def paid_places(tournament: Tournament) -> int:
    """The places the bubble is counted from: the paid places, a satellite's seats (docs/rules.md
    "Satellites")."""
    if satellites.is_satellite(tournament):
        return satellites.stop_at(tournament)
    return len(tournament.payouts or [])


def bubble_due(tournament: Tournament) -> bool:
    """Would the exclusive job's `_bubble` turn round-for-round play on?"""
    paid = paid_places(tournament)
    return in_bubble(still_in=tournament.players_left, paid_places=paid) and tournament.tables_open > 1


def finish_due(tournament: Tournament) -> bool:
    """Would the exclusive job finish the tournament (one player left, or a satellite's seats)?"""
    return tournament.players_left <= satellites.stop_at(tournament)


def _broke_before(table_id: int) -> bool:
    """Is a seated player of the table without chips (read without locks, to choose the lock)?"""
    return Seat.objects.filter(
        table_id=table_id, status__in=SEATED_STATUSES, stack_account__balance__lte=0
    ).exists()


def _seated_and_broke(table: Table) -> tuple[int, int]:
    """The table's seated players, and how many of them have no chips (one statement, at most `seats` rows; the
    game's lock keeps both still: seats change under it or under the tournament's exclusive lock)."""
    balances = list(
        Seat.objects.filter(table=table, status__in=SEATED_STATUSES).values_list(
            "stack_account__balance", flat=True
        )
    )
    return len(balances), sum(1 for b in balances if b is not None and b <= 0)
