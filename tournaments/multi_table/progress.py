"""The job after each round of a table of a multi-table tournament (Celery `tournaments.table_round_over`,
docs/tournaments.md "Multi-table tournaments: the runtime"): bust the players left without chips, raise the
tournament's level, finish when one player is left, balance and break tables, enter and leave round-for-round
play at the bubble, and deal the table's next round.

One short transaction: the tournament's row lock, then the table's game. Idempotent by state: a second run finds
no seat without chips, the level already raised, the tables balanced and the deal scheduled, and does nothing
more; a run for a round that is no longer the table's last (`stale`) or while a round plays does nothing.

Its cost does not grow with the entrants: it reads this table's seats and entries, the counters kept on the
tournament row (`players_left`, `tables_open`, `bust_groups`, `level`), and one aggregate query of the open
tables' sizes for the seating plan; only round-for-round play (a few tables at the bubble) and the finish
read every open table.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tournaments.live import dispatch, engine_io
from tournaments.live.game_locks import lock_game, seats_with_stacks
from tournaments.live.models import Game, GameStatus, Round, Table, TableStatus
from tournaments.live.seats import cash_out
from tournaments.multi_table import faults
from tournaments.multi_table.balance import (
    Applied,
    apply_plan,
    open_table_sizes,
    plan_for,
    players_at,
    seated_count,
    waiting_for_deal,
    wake,
)
from tournaments.multi_table.finish import finish
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.bust_ranking import Bust, places_for_busts
from tournaments.multi_table.planning.levels import in_bubble, level_of
from tournaments.multi_table.policy import MultiTablePolicy
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament import events
from tournaments.tournament.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)
from tournaments.tournament.start_common import schedule_deal

IN_PLAY = (TournamentStatus.RUNNING, TournamentStatus.PAUSED)


def after_table_round(*, tournament_id: int, table_id: int, round_id: int | None) -> str:
    """What follows the settled round `round_id` of `table_id` (None: its last one). Answers what it did."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status not in IN_PLAY or tournament.kind != TournamentKind.MULTI:
            return "idle"
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
        _bust(tournament, table, round_)
    if tournament.players_left <= 1:
        finish(tournament=tournament)
        return "finished"
    applied = _balance(tournament, table, game, before=before)
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
            schedule_deal(game)
    return "broken" if broken else ("dealt" if deal else "paused")


def _balance(tournament: Tournament, table: Table, game: Game, *, before: int) -> Applied:
    """The seating plan with this table and every table waiting for its next deal between rounds
    (`multi_balance.waiting_for_deal`), unless the open tables' size histogram shows that this table is within
    one player of every other and could be broken by no plan (`table_sizes.plan_needed`): then neither every
    table's size nor the waiting tables' players are read, and the job's cost does not grow with the tables
    (docs/performance.md)."""
    size = seated_count(table)
    hist = table_sizes.resized(tournament.table_sizes or {}, old=before, new=size)
    trusted = table_sizes.consistent(
        hist, tables_open=tournament.tables_open, players_left=tournament.players_left
    )
    if trusted and not table_sizes.plan_needed(
        hist,
        size=size,
        players_left=tournament.players_left,
        tables_open=tournament.tables_open,
        seats=tournament.seats,
    ):
        _keep_sizes(tournament, hist)
        return Applied(moved=0, broken=(), receivers=())
    sizes = open_table_sizes(tournament)
    games = {table.pk: game, **waiting_for_deal(tournament, besides=table.pk)}
    movable = players_at(list(games))
    for table_id in games:
        movable.setdefault(table_id, [])
    plan = plan_for(tournament, sizes=sizes, movable=movable)
    applied = apply_plan(tournament=tournament, plan=plan, movable=movable, games=games, cause="balance")
    _keep_sizes(tournament, table_sizes.histogram(table_sizes.after_plan(sizes, plan).values()))
    return applied


def _keep_sizes(tournament: Tournament, hist: dict[str, int]) -> None:
    if hist != tournament.table_sizes:
        tournament.table_sizes = hist
        Tournament.objects.filter(pk=tournament.pk).update(table_sizes=hist)


def _raise_level(tournament: Tournament, next_round: int) -> None:
    level = level_of(next_round, rounds_per_level=int(tournament.rounds_per_level or 1))
    if level > tournament.level:
        tournament.level = level
        tournament.save(update_fields=["level"])
        events.record(tournament=tournament, kind="level", data={"level": level})


def comeback_possible(tournament: Tournament) -> bool:
    """Can registration still bring a player in (late registration, re-entry)? Until then busts get no place
    (the finish places them, `bust_ranking.final_places`)."""
    return tournament.level <= tournament.late_registration_levels


def _bust(tournament: Tournament, table: Table, round_: Round) -> None:
    """Seats of this table left without chips: their entries busted, one bust group for the round."""
    seats = [s for s in seats_with_stacks(table) if s.stack_account.balance <= 0]
    if not seats:
        return
    entries = {
        e.seat_id: e
        for e in TournamentEntry.objects.select_for_update(of=("self",)).filter(
            seat_id__in=[s.pk for s in seats], status=EntryStatus.PLAYING
        )
    }
    melded = engine_io.melded_values(round_.result or {}, engine_io.build_rules(table.game, table.options))
    now = timezone.now()
    tournament.bust_groups += 1
    busts: list[tuple[TournamentEntry, str]] = []
    policy = MultiTablePolicy(tournament, table)
    for seat in seats:
        cash_out(seat=seat, table=table, policy=policy)  # no chips: the chair is freed
        entry = entries.get(seat.pk)
        if entry is None:
            continue
        name = seat.player.get_username()
        entry.status = EntryStatus.BUSTED
        entry.busted_at = now
        entry.bust_group = tournament.bust_groups
        entry.bust_start_chips = int((round_.stacks or {}).get(name, 0))
        entry.bust_melded = int(melded.get(name, 0))
        entry.seat = None
        busts.append((entry, name))
    tournament.players_left -= len(busts)
    places: dict[int, int] = {}
    if not comeback_possible(tournament):
        places = places_for_busts(
            [
                Bust(entry=e.pk, start_chips=int(e.bust_start_chips or 0), melded=int(e.bust_melded or 0))
                for e, _ in busts
            ],
            still_in=tournament.players_left,
        )
    for entry, _ in busts:
        entry.place = places.get(entry.pk)
        entry.save(
            update_fields=[
                "status",
                "busted_at",
                "bust_group",
                "bust_start_chips",
                "bust_melded",
                "seat",
                "place",
            ]
        )
    tournament.save(update_fields=["bust_groups", "players_left"])
    events.record(
        tournament=tournament,
        kind="busted",
        data={
            "table": table.pk,
            "round": round_.number,
            "group": tournament.bust_groups,
            "players": [{"entry": e.pk, "player": name, "place": e.place} for e, name in busts],
            "players_left": tournament.players_left,
        },
    )
    faults.pause_point(faults.ROUND_END)  # the crash tests' SIGKILL (tournaments/multi_table/faults.py)


def _bubble(tournament: Tournament) -> None:
    """Round-for-round play on at the bubble with more than one table; off once the bubble bursts or one table
    is left (the waiting tables are then dealt)."""
    paid = len(tournament.payouts or [])
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
    _keep_sizes(tournament, table_sizes.histogram(sizes.values()))
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
    """On resume: the job sent for every open table waiting with no deal scheduled (each deals when it should:
    round-for-round play deals only the tables owing the synchronized round). Caller holds the lock."""
    return wake_idle(tournament)
