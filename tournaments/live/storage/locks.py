"""Locking a game for play, and the seats play changes under that lock.

Lock order everywhere: table, then game, then seats, then ledger accounts (by id). Every change to a table's
seats holds the game's row lock too (sit and leave take the table's and then the game's), so play takes only
the game's.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from database import rows
from ledger.models import Account
from tournaments.live.models import SEATED_STATUSES, Game, Round, Seat, Table


def current_round(game: Game) -> Round | None:
    return game.current_round


def lock_game_row(game_id: int) -> Game | None:
    """Lock the game row and nothing else.

    The table and round are read by a later statement on purpose: under READ COMMITTED a statement that
    waited for the lock still reads its joined rows as of its start, so a round started (or a seat changed)
    by the transaction it waited for would be missed."""
    found = rows.fetch(_lock_game_sql(connection.vendor), [game_id], prepared=True)
    return rows.from_row(Game, found[0]) if found else None


@functools.cache
def _lock_game_sql(vendor: str) -> str:
    """The lock statement's text, built once per database vendor (it runs on every move)."""
    # docs/performance.md#hand-written-statements: move-lock (12.2 → 4 statements per move).
    sql = f"SELECT {rows.columns(Game, 'g')} FROM {rows.table(Game)} g WHERE g.id = %s"
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql


def table_and_round_sql(extra_columns: str = "", extra_joins: str = "") -> str:
    # docs/performance.md#hand-written-statements: move-read
    # (the lock's second statement; other databases' move read).
    return (
        f"SELECT {rows.columns(Table, 't')}, {rows.columns(Round, 'r')}{extra_columns} "
        f"FROM {rows.table(Table)} t LEFT JOIN {rows.table(Round)} r ON r.id = %s{extra_joins} WHERE t.id = %s"
    )


def attach(game: Game, row: Sequence[Any]) -> Table:
    """Fill `game.table` and `game.current_round` from a row of `table_and_round_sql`."""
    table = rows.from_row(Table, row[: rows.width(Table)])
    assert table is not None
    round_ = rows.from_row(Round, row[rows.width(Table) : rows.width(Table) + rows.width(Round)])
    game.table = table
    game.current_round = round_
    return table


def lock_game(game_id: int) -> tuple[Table, Game] | None:
    """Lock the game row, then read its table and current round (two statements; see `lock_game_row`)."""
    game = lock_game_row(game_id)
    if game is None:
        return None
    found = rows.fetch(table_and_round_sql(), [game.current_round_id, game.table_id])
    return attach(game, found[0]), game


def seats_by_player(table: Table, players: Sequence[str] | None = None) -> dict[str, Seat]:
    qs = (
        Seat.objects.select_for_update(of=("self",))
        .filter(table=table, status__in=SEATED_STATUSES)
        .select_related("player")
    )
    if players is not None:
        qs = qs.filter(player__username__in=list(players))
    return {seat.player.get_username(): seat for seat in qs.order_by("number")}


def seats_with_stacks(table: Table) -> list[Seat]:
    """The table's seated seats with their players and stack accounts, in one statement that locks the seats
    and the accounts in the accounts' id order (the ledger's lock order)."""
    # docs/performance.md#hand-written-statements: round-end (21 → 10 statements, 8.6 → 4.3 ms CPU).
    user_model = get_user_model()
    seated_in = rows.placeholders(len(SEATED_STATUSES))
    if table.practice:
        return _practice_seats(table)
    sql = (
        f"SELECT {rows.columns(Seat, 's')}, {rows.columns(user_model, 'u')}, {rows.columns(Account, 'a')}"
        f" FROM {rows.table(Seat)} s JOIN {rows.table(user_model)} u ON u.id = s.player_id"
        f" JOIN {rows.table(Account)} a ON a.id = s.stack_account_id"
        f" WHERE s.table_id = %s AND s.status IN ({seated_in}) ORDER BY s.stack_account_id"
    )
    if connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF s, a"
    seats: list[Seat] = []
    seat_width, user_width = rows.width(Seat), rows.width(user_model)
    for found in rows.fetch(sql, [table.pk, *SEATED_STATUSES]):
        seat = rows.from_row(Seat, found[:seat_width])
        player = rows.from_row(user_model, found[seat_width : seat_width + user_width])
        account = rows.from_row(Account, found[seat_width + user_width :])
        assert seat is not None and player is not None and account is not None
        seat.player = player
        seat.stack_account = account
        seat.table = table
        seats.append(seat)
    return seats


def _practice_seats(table: Table) -> list[Seat]:
    """A practice table's seated seats with their players, locked: they have no stack accounts (nothing is
    staked there; `stack_account` is left None even on a seat opened with one before that was so)."""
    seats = list(
        Seat.objects.select_for_update(of=("self",))
        .filter(table=table, status__in=SEATED_STATUSES)
        .select_related("player")
        .order_by("number")
    )
    for seat in seats:
        seat.stack_account = None
        seat.table = table
    return seats
