"""The shared table job: the common cases of a multi-table tournament's job after a round, run without the
tournament's exclusive row lock (docs/tournaments.md "Multi-table tournaments: the runtime", "Locks of the
tables' jobs"; docs/performance.md "At 250,000 entrants").

Most jobs change nothing but their own table and the counters: the round does not raise the tournament's
level, no round-for-round play is on or due, and once the table's busts are counted the open tables' size
histogram shows this table within one player of every other with no table to break (`table_sizes.plan_needed`
false): the next deal is scheduled. Such a job plans nothing and reads no other table.

Locks (PostgreSQL's row-lock modes on the tournament's row, and advisory locks for plans: one per tournament,
one per table group); each job takes them in this order and never waits for a lock it ranks before one it holds:
1. the tournament's row, first: `FOR KEY SHARE` for every job of this path, so shared jobs never wait for each
   other there, only for the exclusive job's `FOR UPDATE`;
2. the plans' lock (`plan_lock`): shared by a *busting* job (players at the table without chips, read before any
   lock: only settlements change stacks, and this round is settled) and by a plan within a table group,
   exclusive for a plan over several groups or every table (balancing, breaking: `balance.rebalance`, the
   exclusive job's code). A *quiet* job (nobody without chips, no plan) takes none: it writes nothing another
   job reads (its table's deal);
3. its table group's plans' lock (`group_lock`, in a tournament with groups): shared by a busting job, exclusive
   for a plan within the group. So busting jobs bust side by side, a plan sees no bust of its tables half done,
   and plans within different groups run side by side;
4. the table's game, then its seats and accounts (every job's order);
5. the *counters* last (`Counters.take`: the row raised to `FOR NO KEY UPDATE`, which conflicts with itself
   only, and `players_left`, `bust_groups`, the histograms, `tables_open` and the event's version read again):
   busting jobs and plans within a group take turns only for their counted part (the bust group, the places,
   the events, the histograms) and their commit, in the order that numbers the bust groups and gives the places.
   A plan within a group made on the counters read under the share is kept only if it still is the exclusive
   job's plan on the counters it takes (`balance.group_plan_holds`). A plan with the plans' lock alone takes
   them right after that lock (it excludes every other writer of the counters already). A share raised to `FOR
   NO KEY UPDATE` does not wait for a waiting `FOR UPDATE` (PostgreSQL lets a transaction that holds a lock on
   the row past the row's queue; the two modes do not conflict with a share), so no deadlock.
A job that finds a plan to make without the lock it needs keeps nothing and is tried again as a planning job,
within its group first, then with the plans' lock alone (a lock is never raised to wait behind the job holding
it). The *exclusive* job (`progress.after_table_round`: levels, the bubble and round-for-round, the finish, a
wake-up) and every other change to the tournament (registration, late entries, pause, cancel) take the row `FOR
UPDATE`, which conflicts with every share: it sees no shared job half done and none starts until it commits.

Exactness: a shared job makes the exclusive job's decisions (the same functions on the same counters) and
does what the exclusive job would do in that case. When a check fails (a level rise, the bubble, the finish),
nothing is kept (a busting job's writes are rolled back) and the exclusive job runs in a new transaction,
deciding again under its own lock. On SQLite (one writer at a time) busts and plans are the exclusive job's.
"""

from __future__ import annotations

from enum import Enum

from django.db import connection, transaction

from tournaments.live import lock_game
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Round, Seat, Table, TableStatus
from tournaments.multi_table import balance, faults, groups, rebuys, start
from tournaments.multi_table.balance import wake
from tournaments.multi_table.busts import bust_players, bust_table, count_busts
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.levels import in_bubble, level_of
from tournaments.satellites import services as satellites
from tournaments.tournament.models import Tournament, TournamentKind, TournamentStatus
from tournaments.tournament.start_common import schedule_deal

QUIET = "dealt"
# The advisory lock's first key (an arbitrary constant naming "a tournament's plans"); the second is the
# tournament's id, folded into PostgreSQL's int4 (two tournaments sharing a key only wait for each other).
PLANS_LOCK_SPACE = 0x52504C4E
# A table group's plans' lock (`group_lock`): the second key is the group's id.
GROUP_PLANS_LOCK_SPACE = 0x52504C47


class Mode(Enum):
    QUIET = "quiet"
    BUSTING = "busting"
    GROUP_PLANNING = "group planning"
    PLANNING = "planning"


def share_lock(tournament_id: int) -> None:
    """The tournament's row locked `FOR KEY SHARE` (PostgreSQL; other databases serialize writers anyway)."""
    if connection.vendor != "postgresql":
        return
    table = Tournament._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT 1 FROM "{table}" WHERE id = %s FOR KEY SHARE', [tournament_id])


def plan_lock(tournament_id: int, *, exclusive: bool) -> None:
    """The tournament's plans' lock for this transaction: shared by busting jobs, exclusive for a plan
    (PostgreSQL's transaction-level advisory lock; the shared path runs on PostgreSQL only). A row would do the
    same with a table of its own; the advisory lock needs none and is released by the commit or the rollback."""
    take = "pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {take}(%s, %s)", [PLANS_LOCK_SPACE, tournament_id % 2**31])


def group_lock(group_id: int, *, exclusive: bool) -> None:
    """A table group's plans' lock for this transaction (taken after the tournament's, shared): shared by the
    busting jobs of its tables, exclusive for a plan within the group, so that such a plan sees no bust of its
    group half done, while plans and busts of other groups go on beside it."""
    take = "pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {take}(%s, %s)", [GROUP_PLANS_LOCK_SPACE, group_id % 2**31])


class Counters:
    """The tournament's counters, taken once for the transaction: the row raised to `FOR NO KEY UPDATE` and the
    fields other shared jobs change read again into `tournament` (a busting job read them under its share)."""

    FIELDS = ("players_left", "bust_groups", "table_sizes", "tables_open", "version")

    def __init__(self, tournament: Tournament, *, held: bool = False) -> None:
        self.tournament = tournament
        self.held = held

    def take(self) -> None:
        if self.held:
            return
        fresh = (
            Tournament.objects.select_for_update(no_key=True)
            .filter(pk=self.tournament.pk)
            .values(*self.FIELDS)
            .get()
        )
        for field, value in fresh.items():
            setattr(self.tournament, field, value)
        self.held = True


class Exclusive(Exception):
    """The shared job found that the exclusive job must decide: everything it wrote is rolled back."""


def after_quiet_round(*, tournament_id: int, table_id: int, round_id: int | None) -> str | None:
    """The job when it needs no exclusive lock (what it did: "dealt", or "broken" when a plan broke its table),
    else None with nothing written. A job that must plan without the plans' lock is tried again, nothing kept,
    as a planning job: within its table group first (beside other groups' plans), then with the tournament's
    plans' lock held alone."""
    if round_id is None:
        return None  # a wake-up after receiving players: the exclusive job decides
    if connection.vendor != "postgresql":
        modes = [Mode.QUIET]  # SQLite (one writer at a time): the exclusive job busts and plans
    else:
        first = Mode.BUSTING if _broke_before(table_id) else Mode.QUIET
        modes = [first, Mode.GROUP_PLANNING, Mode.PLANNING]
    for mode in modes:
        try:
            with transaction.atomic():
                return _shared(tournament_id=tournament_id, table_id=table_id, round_id=round_id, mode=mode)
        except Exclusive:
            return None
        except _PlanNeeded:
            continue
    return None


class _PlanNeeded(Exception):
    """A job without the plans' lock it needs found a plan to make (or a plan within its group that is not the
    whole field's): nothing written, tried again with the next mode."""


def _shared(*, tournament_id: int, table_id: int, round_id: int, mode: Mode) -> str | None:
    share_lock(tournament_id)
    if mode is not Mode.QUIET:
        plan_lock(tournament_id, exclusive=mode is Mode.PLANNING)
    group: groups.TableGroup | None = None
    if mode in (Mode.BUSTING, Mode.GROUP_PLANNING):
        # The groups change only under the plans' lock held alone or the exclusive lock: steady from here.
        group = groups.group_of(tournament_id, table_id)
        if group is None and mode is Mode.GROUP_PLANNING:
            raise _PlanNeeded  # no groups: a plan holds the tournament's plans' lock alone
        if group is not None:
            group_lock(group.pk, exclusive=mode is Mode.GROUP_PLANNING)
    rows = Tournament.objects.filter(pk=tournament_id)
    if mode is Mode.PLANNING:
        # The counters held from here, read with the row: no other writer of them runs beside a plan.
        rows = rows.select_for_update(no_key=True)
    tournament = rows.first()
    if tournament is None or not may_share(tournament):
        return None
    counters = Counters(tournament, held=mode is Mode.PLANNING)
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
    if broke and mode is Mode.QUIET:
        return None  # players without chips since the read before the lock: the exclusive job busts them
    if broke and mode is Mode.BUSTING and _plan_foreseen(tournament, size=size, broke=broke):
        raise _PlanNeeded  # foreseen on the counters read under the share: nothing done yet
    if mode is Mode.GROUP_PLANNING:
        assert group is not None
        return _plan_in_group(tournament, table, game, round_, group, counters, size=size, broke=broke)
    after = size
    if broke:
        # The bust path's own code: the table's part beside other busting jobs, then the counted part with the
        # counters taken, then the exclusive job's decisions on the counters it left. Anything that is the
        # exclusive job's: all rolled back.
        bust_players(tournament, table, round_, before_counting=counters.take)
        counters.take()  # taken by the busts' counted part, unless all of them were held for a rebuy
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
        if mode is not Mode.PLANNING:
            raise _PlanNeeded
        # A plan, with the exclusive job's code: it takes turns with busts and other plans (the plans' lock),
        # never with the quiet jobs (docs/tournaments.md "Locks of the tables' jobs").
        applied = balance.rebalance(tournament, table, game, before=size)
        if applied.moved or applied.broken:
            faults.pause_point(faults.BALANCE)  # the crash tests' SIGKILL (tournaments/multi_table/faults.py)
        return _deal_unless_broken(tournament, table, game, round_, applied)
    balance.keep_sizes(tournament, hist)
    if broke:
        groups.resize(tournament, table.pk, old=size, new=after)  # its group's histogram (`groups`)
    if game.next_round_at is None:
        schedule_deal(game, delay=rebuys.deal_delay(tournament=tournament, table=table, round_=round_))
    if broke:
        faults.pause_point(faults.SHARED_BUST)  # the crash tests' SIGKILL (tournaments/multi_table/faults.py)
    return QUIET


def _plan_in_group(
    tournament: Tournament,
    table: Table,
    game: Game,
    round_: Round,
    group: groups.TableGroup,
    counters: Counters,
    *,
    size: int,
    broke: int,
) -> str:
    """A planning job within its table group, beside other groups' plans and busts: its table's busts and the
    plan's tables' part (moves, breaks) on the counters read under the share, then the counters taken, its
    busts counted, and the plan kept only if it is still the one the exclusive job would make on the field as
    it now is (`balance.group_plan_holds`); else nothing is kept and the plan is made with the tournament's
    plans' lock held alone. The exclusive job's cases (the finish, the bubble) roll everything back."""
    part = bust_table(tournament, table, round_) if broke else None
    after = _seated_and_broke(table)[0] if part is not None else size
    busted = len(part.busts) if part is not None else 0
    if table.awaiting_job:
        Table.objects.filter(pk=table.pk).update(awaiting_job=False)
    hist = table_sizes.resized(tournament.table_sizes or {}, old=size, new=after)
    planned = balance.plan_in_group(tournament, table, game, group, hist, size=after, busted=busted)
    if planned is None:
        raise _PlanNeeded  # not the whole field's plan on the counters read under the share
    counters.take()
    if part is not None:
        count_busts(tournament, table, round_, part)
    if finish_due(tournament) or bubble_due(tournament):
        raise Exclusive
    hist = table_sizes.resized(tournament.table_sizes or {}, old=size, new=after)
    if not balance.group_plan_holds(tournament, hist, planned, size=after):
        raise _PlanNeeded  # other groups' busts or plans changed the field: planned with the lock held alone
    balance.count_group_plan(tournament, table, hist, planned, before=size, size=after)
    applied = planned.applied
    if applied.moved or applied.broken:
        faults.pause_point(faults.GROUP_PLAN)  # the crash tests' SIGKILL (tournaments/multi_table/faults.py)
    elif part is not None:
        faults.pause_point(faults.SHARED_BUST)
    return _deal_unless_broken(tournament, table, game, round_, applied)


def _deal_unless_broken(
    tournament: Tournament, table: Table, game: Game, round_: Round, applied: balance.Applied
) -> str:
    """After a plan: the tables that received players woken, and this table's deal scheduled unless the plan
    broke it. Answers what the job did."""
    broken = table.pk in applied.broken
    wake(tournament, applied.receivers, skip=table.pk)
    if not broken and game.next_round_at is None:
        schedule_deal(game, delay=rebuys.deal_delay(tournament=tournament, table=table, round_=round_))
    return "broken" if broken else QUIET


def _plan_foreseen(tournament: Tournament, *, size: int, broke: int) -> bool:
    """Will these busts leave a plan to make, on the counters as read under the share (other busting jobs may
    change them before this one counts)? Foreseen, the job is tried as a planning job before it busts anyone;
    missed, it finds out once it holds the counters, and is tried again all the same."""
    hist = table_sizes.resized(tournament.table_sizes or {}, old=size, new=size - broke)
    return not balance.no_plan(tournament, hist, size=size - broke, busted=broke)


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
