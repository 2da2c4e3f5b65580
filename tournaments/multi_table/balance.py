"""Balancing and breaking the tables of a multi-table tournament (docs/tournaments.md "Multi-table
tournaments: seating and places"), applying `seating_plan.plan_seating`.

A table is between rounds from its round's end until its next deal starts. At a table's job, the tables between
rounds that may give players or be broken are this table and every open table whose own job has run and whose
next deal has not started (`waiting_games`; `_seating` locks the games of those the plan takes players from, so
none of them is dealt meanwhile, and the others are dealt beside the plan); a table
whose round is over but whose job has not run yet (`Table.awaiting_job`: its busts are its job's) and a table
mid-round enter the plan by their size only and may only receive. All sizes come from one aggregate query. At
the release of a synchronized round (round-for-round play) every table is between rounds and all are planned
with their players.

Locks (the caller holds the tournament's row, a plans' lock that keeps other plans off these tables, and the
games of the tables between rounds): the receiving tables' rows in primary-key order (their seat numbers are given
out under them). Nothing but a tournament's own job, holding the tournament's row and such a lock, locks a
tournament table's row, so this cannot deadlock with play, which locks games only (one each: a deal, a move, a
round's end).
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.db.models import Count, Q

from tournaments.live import dispatch, wind_down
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Seat, Table, TableStatus
from tournaments.multi_table import faults, groups
from tournaments.multi_table.planning import groups as plan_groups
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.seating_plan import Plan, SeatedPlayer, TableState, plan_seating
from tournaments.multi_table.seating import free_numbers, move_entrant
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament import events as tournament_events
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry


@dataclass(frozen=True)
class Applied:
    moved: int
    broken: tuple[int, ...]
    receivers: tuple[int, ...]
    moves: tuple[dict[str, object], ...] = ()  # the `moved` event's data, one per player moved


def open_table_sizes(tournament: Tournament) -> dict[int, int]:
    """Every open table's seated players, in one aggregate query."""
    return dict(
        Table.objects.filter(tournament=tournament, status=TableStatus.OPEN)
        .annotate(size=Count("seat_set", filter=Q(seat_set__status__in=SEATED_STATUSES)))
        .values_list("pk", "size")
    )


def waiting_for_deal(
    tournament: Tournament, *, besides: int, within: Collection[int] | None = None
) -> dict[int, Game]:
    """The open tables other than `besides` whose job has run and whose next deal has not started, by table,
    their games locked (primary-key order, one statement); `within`: only among these tables (a table group's,
    `multi_table.groups`). Caller holds the tournament's lock and the game of `besides`. A game
    dealt while the lock was awaited is left out (the lock re-reads its status); so is one whose round ended
    too, and whose job is thus still to run (its table re-read once the games are locked)."""
    return lock_waiting(list(waiting_games(tournament, besides=besides, within=within).values()))


def waiting_games(
    tournament: Tournament, *, besides: int, within: Collection[int] | None = None
) -> dict[int, int]:
    """The open tables other than `besides` whose job has run and whose next deal has not started, as read now
    (nothing locked): table -> its game's id; `within`: only among these tables."""
    found = Game.objects.filter(
        table__tournament=tournament,
        table__status=TableStatus.OPEN,
        table__awaiting_job=False,
        status=GameStatus.WAITING,
    ).exclude(table_id=besides)
    if within is not None:
        found = found.filter(table_id__in=list(within))
    return dict(found.values_list("table_id", "pk"))


def lock_waiting(game_ids: Collection[int]) -> dict[int, Game]:
    """These games locked (primary-key order, one statement), by table, those still waiting for their deal with
    their table's job run: a game dealt while the lock was awaited is left out, and so is one whose round ended
    too (its job still to run)."""
    if not game_ids:
        return {}
    games = {
        game.table_id: game
        for game in Game.objects.select_for_update(of=("self",))
        .filter(pk__in=list(game_ids), status=GameStatus.WAITING)
        .order_by("pk")
    }
    still = set(
        Table.objects.filter(pk__in=list(games), status=TableStatus.OPEN, awaiting_job=False).values_list(
            "pk", flat=True
        )
    )
    return {table: game for table, game in games.items() if table in still}


def players_at(tables: Iterable[int], *, lock: bool = True) -> dict[int, list[TournamentEntry]]:
    """The playing entries seated at `tables` (between rounds), by table; locked unless `lock` is false."""
    found: dict[int, list[TournamentEntry]] = {}
    entries = TournamentEntry.objects.filter(
        table_id__in=list(tables), status=EntryStatus.PLAYING, seat__isnull=False
    )
    if lock:
        entries = entries.select_for_update(of=("self",))
    for entry in entries.select_related("player").order_by("pk"):
        assert entry.table_id is not None
        found.setdefault(entry.table_id, []).append(entry)
    return found


def plan_for(
    tournament: Tournament, *, sizes: Mapping[int, int], movable: Mapping[int, Sequence[TournamentEntry]]
) -> Plan:
    states = [
        TableState(
            table=table,
            size=len(movable[table]) if table in movable else size,
            between_rounds=table in movable,
            players=tuple(
                SeatedPlayer(entry=e.pk, times_moved=e.times_moved) for e in movable.get(table, ())
            ),
        )
        for table, size in sorted(sizes.items())
    ]
    return plan_seating(states, seats=tournament.seats, rng=secrets.SystemRandom())


def apply_plan(
    *,
    tournament: Tournament,
    plan: Plan,
    movable: Mapping[int, Sequence[TournamentEntry]],
    games: Mapping[int, Game],
    cause: str,
) -> Applied:
    """Move the plan's players (each stack seat to seat, keyed by the move), close the broken tables (their
    games are in `games`, locked), keep `tables_open`, record the events. Answers what it did."""
    applied = move_players(tournament=tournament, plan=plan, movable=movable, games=games)
    record_plan(tournament, applied, cause=cause)
    return applied


def move_players(
    *,
    tournament: Tournament,
    plan: Plan,
    movable: Mapping[int, Sequence[TournamentEntry]],
    games: Mapping[int, Game],
) -> Applied:
    """The plan's tables' part: its players moved (each stack seat to seat, keyed by the move) and its broken
    tables closed (their games are in `games`, locked); the tournament's row neither read nor written (its
    counted part is `record_plan`)."""
    if not plan.moves and not plan.broken:
        return Applied(moved=0, broken=(), receivers=())
    entries = {e.pk: e for group in movable.values() for e in group}
    destinations = sorted({move.destination for move in plan.moves})
    receivers = {
        t.pk: t for t in Table.objects.select_for_update().filter(pk__in=destinations).order_by("pk")
    }
    wanted: dict[int, int] = {}
    for move in plan.moves:
        wanted[move.destination] = wanted.get(move.destination, 0) + 1
    numbers = {table: free_numbers(receivers[table], count) for table, count in wanted.items()}
    moved: list[dict[str, object]] = []
    for move in plan.moves:
        entry = entries[move.entry]
        number = numbers[move.destination].pop(0)
        move_entrant(
            tournament=tournament,
            entry=entry,
            destination=receivers[move.destination],
            number=number,
            key=f"tournament:{tournament.pk}:entry:{entry.pk}:move:{entry.times_moved + 1}",
        )
        moved.append(
            {
                "entry": entry.pk,
                "player": entry.player.get_username(),
                "from": move.source,
                "to": move.destination,
            }
        )
    for table_id in plan.broken:
        game = games[table_id]
        table = Table.objects.get(pk=table_id)
        table.status = TableStatus.CLOSED
        table.save(update_fields=["status"])
        wind_down(game=game, table=table)
    return Applied(
        moved=len(moved), broken=tuple(plan.broken), receivers=tuple(destinations), moves=tuple(moved)
    )


def record_plan(tournament: Tournament, applied: Applied, *, cause: str) -> None:
    """A plan's counted part, after `move_players`: `tables_open` kept and the events recorded (the caller holds
    the counters)."""
    if applied.moves:
        tournament_events.record(
            tournament=tournament, kind="moved", data={"moves": list(applied.moves), "why": cause}
        )
    for table_id in applied.broken:
        tournament.tables_open -= 1
        tournament_events.record(tournament=tournament, kind="table_broken", data={"table": table_id})
    if applied.broken:
        Tournament.objects.filter(pk=tournament.pk).update(tables_open=tournament.tables_open)
        if tournament.tables_open == 1:
            final = Table.objects.filter(tournament=tournament, status=TableStatus.OPEN).values_list(
                "pk", flat=True
            )
            tournament_events.record(tournament=tournament, kind="final_table", data={"table": final.first()})


def wake(tournament: Tournament, tables: Sequence[int], *, skip: int | None = None) -> None:
    """Tables that received players and wait with no deal scheduled (too few players before, or their job
    not run yet): their job sent (round None: their last round), which deals when it should. Never a deal
    directly: a table's job must bust its players left without chips before its next deal."""
    if not tables:
        return
    waiting = Game.objects.filter(
        table_id__in=[t for t in tables if t != skip],
        status=GameStatus.WAITING,
        next_round_at__isnull=True,
        table__status=TableStatus.OPEN,
    ).values_list("table_id", flat=True)
    for table_id in waiting:
        dispatch.enqueue(TABLE_ROUND_OVER, [tournament.pk, table_id, None], 0)


def seated_count(table: Table) -> int:
    return Seat.objects.filter(table=table, status__in=SEATED_STATUSES).count()


# --- a table job's plan (the exclusive job, `progress`, and the shared path, `quiet`, each holding the row and the
# table's game): whether the histogram shows one, then over the table's group, a few groups or every table


def rebalance(tournament: Tournament, table: Table, game: Game, *, before: int) -> Applied:
    """The seating plan with this table and every table waiting for its next deal between rounds
    (`multi_balance.waiting_for_deal`), unless the open tables' size histogram shows that this table is within
    one player of every other and could be broken by no plan (`table_sizes.plan_needed`): then neither every
    table's size nor the waiting tables' players are read, and the job's cost does not grow with the tables
    (docs/performance.md). A plan reads its table's group, or the few groups rebalanced against each other,
    when that plan is the whole field's (`_plan_within`, docs/tournaments.md "Table groups"), else every open
    table (then every group's histogram rewritten)."""
    size = seated_count(table)
    hist = table_sizes.resized(tournament.table_sizes or {}, old=before, new=size)
    if no_plan(tournament, hist, size=size):
        keep_sizes(tournament, hist)
        groups.resize(tournament, table.pk, old=before, new=size)
        return Applied(moved=0, broken=(), receivers=())
    group = groups.group_of(tournament, table.pk)
    if group is not None:
        applied_within = _plan_within(tournament, table, game, group, hist)
        if applied_within is not None:
            return applied_within
    sizes = open_table_sizes(tournament)
    planned = _plan(tournament, table, game, sizes, within=None)
    assert planned is not None
    applied, after = planned
    keep_sizes(tournament, table_sizes.histogram(after.values()))
    if group is not None:
        groups.rewrite(tournament, after)
    return applied


def _plan_within(
    tournament: Tournament, table: Table, game: Game, group: groups.TableGroup, hist: dict[str, int]
) -> Applied | None:
    """The plan over this table's group, else over the groups rebalanced against each other
    (`groups.candidates`), when that plan is the whole field's (`planning.groups.plan_within_group`); None when
    neither is (the plan then reads every open table)."""
    counters = {
        "players_left": tournament.players_left,
        "tables_open": tournament.tables_open,
        "seats": tournament.seats,
    }
    chosen = [group]
    sizes = groups.sizes_in(tournament, chosen)
    if not plan_groups.plan_within_group(hist, sizes.values(), **counters):
        chosen = groups.candidates(group, **counters)
        if len(chosen) < 2:
            return None
        sizes = groups.sizes_in(tournament, chosen)
        if not plan_groups.plan_within_group(hist, sizes.values(), **counters):
            return None
    planned = _plan(tournament, table, game, sizes, within=list(sizes), complete=True)
    if planned is None:
        return None  # a table of these groups left off the band (its givers mid-round): every table planned
    applied, after = planned
    keep_sizes(tournament, plan_groups.replaced(hist, before=sizes.values(), after=after.values()))
    groups.planned(tournament, chosen, after)
    faults.pause_point(faults.GROUP_PLAN)  # the crash tests' SIGKILL (tournaments/multi_table/faults.py)
    return applied


def _plan(
    tournament: Tournament,
    table: Table,
    game: Game,
    sizes: dict[int, int],
    *,
    within: list[int] | None,
    complete: bool = False,
) -> tuple[Applied, dict[int, int]] | None:
    """The seating plan over the tables of `sizes` (every open table, or some groups'), with this table and those
    of them waiting for their deal between rounds, applied. Answers it and the planned tables' sizes after it;
    `complete`: None, nothing applied, unless every planned table is then within the whole field's band
    (`planning.groups.in_band`: a table whose givers are mid-round may be given players by another group's)."""
    plan, movable, games, after = _seating(tournament, table, game, sizes, within=within)
    if complete and not plan_groups.in_band(
        after.values(),
        players_left=tournament.players_left,
        tables_kept=tournament.tables_open - len(plan.broken),
    ):
        return None
    applied = apply_plan(tournament=tournament, plan=plan, movable=movable, games=games, cause="balance")
    return applied, after


# A plan made on the waiting tables as read, and redone when one it takes players from was dealt before its game
# was locked; after this many, every waiting table's game is locked first.
PLAN_ATTEMPTS = 3


def _seating(
    tournament: Tournament, table: Table, game: Game, sizes: dict[int, int], *, within: list[int] | None
) -> tuple[Plan, dict[int, list[TournamentEntry]], dict[int, Game], dict[int, int]]:
    """The seating plan over the tables of `sizes`, with this table and those of them waiting for their deal: the
    plan, the players, the games it takes players from or breaks (this table's included) and the planned tables'
    sizes after it. The waiting tables are read without locks and planned on; then only the games of the tables
    the plan takes players from (or breaks) are locked, with their players, so the deals of the others go on
    beside the plan. A table whose deal started before its game was locked (or whose players changed) makes the
    plan be made again; after `PLAN_ATTEMPTS`, with every waiting table's game locked first, as before. Nothing
    else changes a waiting table's players meanwhile: its own job has run, and the other plans and busts of its
    tables wait for the caller's plans' lock."""
    for _attempt in range(PLAN_ATTEMPTS):
        waiting = waiting_games(tournament, besides=table.pk, within=within)
        read = players_at([table.pk, *waiting], lock=False)
        for table_id in [table.pk, *waiting]:
            read.setdefault(table_id, [])
        plan = plan_for(tournament, sizes=sizes, movable=read)
        givers = sorted(({move.source for move in plan.moves} | set(plan.broken)) - {table.pk})
        games = lock_waiting([waiting[t] for t in givers])
        if set(games) != set(givers):
            continue  # a giver dealt meanwhile: it is mid-round now
        locked = players_at([table.pk, *givers])
        if all([e.pk for e in locked.get(t, [])] == [e.pk for e in read[t]] for t in [table.pk, *givers]):
            movable = {**read, **{t: locked.get(t, []) for t in [table.pk, *givers]}}
            return plan, movable, {table.pk: game, **games}, table_sizes.after_plan(sizes, plan)
    games = {table.pk: game, **waiting_for_deal(tournament, besides=table.pk, within=within)}
    movable = players_at(list(games))
    for table_id in games:
        movable.setdefault(table_id, [])
    plan = plan_for(tournament, sizes=sizes, movable=movable)
    return plan, movable, games, table_sizes.after_plan(sizes, plan)


# --- a plan within one group beside other groups' plans (`quiet`'s group planning job): its tables' part on the
# counters as read under the tournament's row shared, then, under the counters, whether it is still the whole
# field's plan, and its counted part


@dataclass(frozen=True)
class GroupPlan:
    """A plan within one table group, its tables' part done (`plan_in_group`): the group's open tables' sizes
    before it (this table's busts out) and after it (broken tables gone); both empty when the counters read
    under the share showed no plan (nothing read, nothing moved)."""

    group: groups.TableGroup
    before: dict[int, int]
    after: dict[int, int]
    applied: Applied


def plan_in_group(
    tournament: Tournament,
    table: Table,
    game: Game,
    group: groups.TableGroup,
    hist: dict[str, int],
    *,
    size: int,
    busted: int,
) -> GroupPlan | None:
    """The plan within the table's group, its tables' part applied (`move_players`), when the counters read under
    the share say it is the whole field's plan; None (nothing moved) when they say it is not: the plan over
    several groups or every table is then made with the plans' lock held alone. `hist`: the tournament's
    histogram with this table at `size`; `busted`: this job's busts, not yet counted off `players_left`.
    The caller holds the group's plans' lock alone (`quiet.group_lock`) and the table's game."""
    players_left = tournament.players_left - busted
    if no_plan(tournament, hist, size=size, busted=busted):
        return GroupPlan(group=group, before={}, after={}, applied=Applied(moved=0, broken=(), receivers=()))
    sizes = groups.sizes_in(tournament, [group])
    counters = {
        "players_left": players_left,
        "tables_open": tournament.tables_open,
        "seats": tournament.seats,
    }
    if not plan_groups.plan_within_group(hist, sizes.values(), **counters):
        return None
    plan, movable, games, after = _seating(tournament, table, game, sizes, within=list(sizes))
    tables_kept = tournament.tables_open - len(plan.broken)
    if not plan_groups.in_band(after.values(), players_left=players_left, tables_kept=tables_kept):
        return None
    applied = move_players(tournament=tournament, plan=plan, movable=movable, games=games)
    return GroupPlan(group=group, before=sizes, after=after, applied=applied)


def group_plan_holds(tournament: Tournament, hist: dict[str, int], planned: GroupPlan, *, size: int) -> bool:
    """Under the counters (read again, this job's busts counted): is the plan made within the group the one the
    exclusive job would make on the field as it is now (`rebalance`: no plan, or this group's)? Other groups'
    busts and plans may have changed the field since the plan was made on the counters read under the share.
    `hist`: the tournament's histogram with this table at `size`."""
    applied = planned.applied
    if no_plan(tournament, hist, size=size):
        return not applied.moved and not applied.broken
    if not planned.before:
        return False
    counters = {
        "players_left": tournament.players_left,
        "tables_open": tournament.tables_open,
        "seats": tournament.seats,
    }
    return (
        plan_groups.plan_within_group(hist, planned.before.values(), **counters)
        and plan_groups.in_band(
            planned.after.values(),
            players_left=tournament.players_left,
            tables_kept=tournament.tables_open - len(applied.broken),
        )
        and not groups.merge_due(
            tournament,
            planned.group,
            tables=len(planned.after),
            tables_open=tournament.tables_open - len(applied.broken),
        )
    )


def count_group_plan(
    tournament: Tournament, table: Table, hist: dict[str, int], planned: GroupPlan, *, before: int, size: int
) -> None:
    """A group's plan's counted part, once `group_plan_holds`: the events, `tables_open` and the histograms (the
    tournament's and the group's). `before`, `size`: this table's size before its busts and after them."""
    if not planned.before:
        keep_sizes(tournament, hist)
        groups.resize(tournament, table.pk, old=before, new=size)
        return
    record_plan(tournament, planned.applied, cause="balance")
    keep_sizes(
        tournament, plan_groups.replaced(hist, before=planned.before.values(), after=planned.after.values())
    )
    groups.keep_histogram(planned.group, planned.after)


def no_plan(tournament: Tournament, hist: dict[str, int], *, size: int, busted: int = 0) -> bool:
    """A trusted histogram (it agrees with the counters) that shows no plan for a table of `size` players: the
    test both the exclusive job and the shared path make before planning. `busted`: players out of `hist` not yet
    counted off `players_left` (a busting job foreseeing its plan)."""
    players_left = tournament.players_left - busted
    trusted = table_sizes.consistent(hist, tables_open=tournament.tables_open, players_left=players_left)
    return trusted and not table_sizes.plan_needed(
        hist,
        size=size,
        players_left=players_left,
        tables_open=tournament.tables_open,
        seats=tournament.seats,
    )


def keep_sizes(tournament: Tournament, hist: dict[str, int]) -> None:
    if hist != tournament.table_sizes:
        tournament.table_sizes = hist
        Tournament.objects.filter(pk=tournament.pk).update(table_sizes=hist)
