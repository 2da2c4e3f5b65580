"""The job after each round of a table of a multi-table tournament (Celery `tournaments.table_round_over`,
docs/tournaments.md "Multi-table tournaments: the runtime"): bust the players left without chips, raise the
tournament's level, finish when one player is left, balance and break tables, enter and leave round-for-round
play at the bubble, and deal the table's next round.

One short transaction: the tournament's row lock (the mode chosen by the path, docs/tournaments.md "Locks of the
tables' jobs"), then the table's game. Idempotent by state: a second run finds
no seat without chips, the level already raised, the tables balanced and the deal scheduled, and does nothing
more; a run for a round that is no longer the table's last (`stale`) or while a round plays does nothing.

Its cost does not grow with the entrants: it reads this table's seats and entries, the counters kept on the
tournament row (`players_left`, `tables_open`, `bust_groups`, `level`), and for a seating plan its table
group's sizes (or a few groups', `multi_table/groups.py`; a tournament without groups: every open table's, in
one aggregate query); only a plan no group can make exact, round-for-round play (a few tables at the bubble)
and the finish read every open table.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tournaments.live import dispatch, lock_game
from tournaments.live.models import Game, GameStatus, Round, Table, TableStatus
from tournaments.multi_table import balance, faults, groups, quiet, rebuys, start
from tournaments.multi_table.balance import (
    apply_plan,
    open_table_sizes,
    plan_for,
    players_at,
    seated_count,
    wake,
)
from tournaments.multi_table.busts import bust_players
from tournaments.multi_table.finish import finish
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.levels import in_bubble, level_of
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.satellites import services as satellites
from tournaments.tournament import events
from tournaments.tournament.models import (
    Tournament,
    TournamentKind,
    TournamentStatus,
)
from tournaments.tournament.start_common import schedule_deal

IN_PLAY = (TournamentStatus.RUNNING, TournamentStatus.PAUSED)


def after_table_round(*, tournament_id: int, table_id: int, round_id: int | None) -> str:
    """What follows the settled round `round_id` of `table_id` (None: its last one). Answers what it did.

    First the shared path (`quiet.after_quiet_round`: no level rise, no bubble, no finish; the tournament's row
    share-locked, or `FOR NO KEY UPDATE` for busts and plans), else the job below with the row `FOR UPDATE`."""
    done = quiet.after_quiet_round(tournament_id=tournament_id, table_id=table_id, round_id=round_id)
    if done is not None:
        return done
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status not in IN_PLAY or tournament.kind != TournamentKind.MULTI:
            return "idle"
        if start.seating(tournament):
            return "starting"  # a batched start still seating: counters and histogram are partial (`start`)
        game_id = Game.objects.filter(table_id=table_id, table__tournament=tournament).values_list(
            "pk", flat=True
        )
        locked = lock_game(game_id.first() or 0)
        if locked is None:
            return "idle"
        table, game = locked
        if table.status != TableStatus.OPEN:
            return "closed"
        if game.status != GameStatus.WAITING:
            return "playing"  # that round's end sends this job again
        round_ = game.current_round
        if round_id is not None and (round_ is None or round_.pk != round_id):
            return "stale"
        if round_ is not None and not round_.settled:
            return "playing"
        return _after(tournament, table, game, round_)


def _after(tournament: Tournament, table: Table, game: Game, round_: Round | None) -> str:
    if table.awaiting_job:
        table.awaiting_job = False
        Table.objects.filter(pk=table.pk).update(awaiting_job=False)
    before = seated_count(table)
    if round_ is not None:
        _raise_level(tournament, round_.number + 1)
        bust_players(tournament, table, round_)
    if tournament.players_left <= satellites.stop_at(tournament):
        finish(tournament=tournament)
        return "finished"
    applied = balance.rebalance(tournament, table, game, before=before)
    broken = table.pk in applied.broken
    if applied.moved or applied.broken:
        faults.pause_point(faults.BALANCE)  # the crash tests' SIGKILL (tournaments/multi_table/faults.py)
    _bubble(tournament)
    deal = tournament.status == TournamentStatus.RUNNING
    if tournament.round_for_round:
        released = _release_if_all_played(tournament)
        return "released" if released else ("broken" if broken else "waiting")
    if deal:
        wake(tournament, applied.receivers, skip=table.pk)
        if not broken and game.next_round_at is None:
            schedule_deal(game, delay=rebuys.deal_delay(tournament=tournament, table=table, round_=round_))
    return "broken" if broken else ("dealt" if deal else "paused")


def _raise_level(tournament: Tournament, next_round: int) -> None:
    level = level_of(next_round, rounds_per_level=int(tournament.rounds_per_level or 1))
    if level > tournament.level:
        tournament.level = level
        tournament.save(update_fields=["level"])
        events.record(tournament=tournament, kind="level", data={"level": level})


def _bubble(tournament: Tournament) -> None:
    """Round-for-round play on at the bubble with more than one table; off once the bubble bursts or one table
    is left (the waiting tables are then dealt)."""
    paid = quiet.paid_places(tournament)  # a satellite's bubble is at its seats (docs/rules.md "Satellites")
    wanted = in_bubble(still_in=tournament.players_left, paid_places=paid) and tournament.tables_open > 1
    if tournament.round_for_round and (tournament.players_left <= paid or tournament.tables_open <= 1):
        tournament.round_for_round = False
        tournament.save(update_fields=["round_for_round"])
        events.record(tournament=tournament, kind="round_for_round", data={"on": False})
        if tournament.status == TournamentStatus.RUNNING:
            wake_idle(tournament)
    elif wanted and not tournament.round_for_round:
        tournament.round_for_round = True
        tournament.save(update_fields=["round_for_round"])
        # Whatever each table is playing now counts as the synchronized round `sync_round`.
        Table.objects.filter(tournament=tournament, status=TableStatus.OPEN).update(
            played_sync_round=tournament.sync_round
        )
        events.record(
            tournament=tournament,
            kind="round_for_round",
            data={"on": True, "sync_round": tournament.sync_round},
        )


def wake_idle(tournament: Tournament) -> int:
    """Every open table waiting with no deal scheduled: its job sent (which deals it when it should)."""
    tables = list(
        Game.objects.filter(
            table__tournament=tournament,
            table__status=TableStatus.OPEN,
            status=GameStatus.WAITING,
            next_round_at__isnull=True,
        ).values_list("table_id", flat=True)
    )
    wake(tournament, tables)
    return len(tables)


def _release_if_all_played(tournament: Tournament) -> bool:
    """Round-for-round: once no table plays and every table played the synchronized round, the next one is
    released: every table's game locked (pk order), all tables balanced together, each dealt."""
    tables = list(
        Table.objects.filter(tournament=tournament, status=TableStatus.OPEN)
        .order_by("pk")
        .values_list("pk", "played_sync_round")
    )
    if any(played != tournament.sync_round for _, played in tables):
        return False
    if Game.objects.filter(table_id__in=[t for t, _ in tables], status=GameStatus.PLAYING).exists():
        return False
    games: dict[int, Game] = {}
    for table_id, _ in tables:
        locked = lock_game(Game.objects.filter(table_id=table_id).values_list("pk", flat=True).get())
        assert locked is not None
        if locked[1].status != GameStatus.WAITING or locked[0].awaiting_job:
            return False  # a round in play, or a table's job still to run (it releases the round itself)
        games[table_id] = locked[1]
    tournament.sync_round += 1
    tournament.save(update_fields=["sync_round"])
    sizes = open_table_sizes(tournament)
    movable = players_at(list(sizes))
    for table_id in sizes:
        movable.setdefault(table_id, [])
    apply_plan(
        tournament=tournament,
        plan=plan_for(tournament, sizes=sizes, movable=movable),
        movable=movable,
        games=games,
        cause="round_for_round",
    )
    sizes = open_table_sizes(tournament)
    balance.keep_sizes(tournament, table_sizes.histogram(sizes.values()))
    groups.rewrite(tournament, sizes)
    for table_id, size in sizes.items():
        if size < 2:
            # Cannot deal: it does not hold up the synchronized rounds.
            Table.objects.filter(pk=table_id).update(played_sync_round=tournament.sync_round)
    if tournament.status == TournamentStatus.RUNNING:
        for table_id, size in sizes.items():
            game = games[table_id]
            if size >= 2:
                schedule_deal(game)
    events.record(tournament=tournament, kind="sync_round", data={"sync_round": tournament.sync_round})
    return True


def sweep(*, grace_seconds: float) -> int:
    """Send the job again for every table of a running multi-table tournament waiting with nothing scheduled
    since its round ended more than `grace_seconds` ago (the message after that round was lost). The job
    decides whether anything is to be done. Returns how many were sent."""
    late = timezone.now() - timedelta(seconds=grace_seconds)
    stalled = Game.objects.filter(
        status=GameStatus.WAITING,
        next_round_at__isnull=True,
        table__status=TableStatus.OPEN,
        table__tournament__kind=TournamentKind.MULTI,
        table__tournament__status=TournamentStatus.RUNNING,
        current_round__ended_at__lt=late,
    ).values_list("table__tournament_id", "table_id", "current_round_id")
    count = 0
    for tournament_id, table_id, round_id in stalled:
        dispatch.send(TABLE_ROUND_OVER, (tournament_id, table_id, round_id))
        count += 1
    return count


def resume_tables(tournament: Tournament) -> int:
    """On resume: the job sent again for every open table waiting with no deal scheduled, for its last round as
    the sweeper sends it (each deals when it should: round-for-round play deals only the tables owing the
    synchronized round). A job that has its round takes the shared path when it can (`quiet`), so the tables of
    a large field are dealt again side by side; a wake-up (round None: a table that never played) is the
    exclusive job's, and 62,500 of them took turns on the row for minutes after a 250,000-entrant field's resume
    (docs/performance.md). Caller holds the lock."""
    waiting = Game.objects.filter(
        table__tournament=tournament,
        table__status=TableStatus.OPEN,
        status=GameStatus.WAITING,
        next_round_at__isnull=True,
    ).values_list("table_id", "current_round_id")
    count = 0
    for table_id, round_id in waiting:
        dispatch.enqueue(TABLE_ROUND_OVER, [tournament.pk, table_id, round_id], 0)
        count += 1
    return count
