"""What a move reads under the game's lock: the table, the current round, everyone seated and the idempotency
key's earlier answer, in one statement after the lock (docs/performance.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection

from database import rows
from tournaments.live.models import SEATED_STATUSES, Game, IdempotentRequest, MoveLog, Round, Seat, Table
from tournaments.live.storage.locks import attach, lock_game_row, table_and_round_sql


@dataclass(frozen=True, slots=True)
class EarlierAnswer:
    """The idempotency key's earlier answer: `status` None for an accepted move (its log row's answer), the
    status of a kept refusal otherwise."""

    request_hash: str
    answer: Any
    status: int | None


@dataclass(frozen=True, slots=True)
class MoveContext:
    """What a move reads under the game's lock: the game (its table and current round attached), the mover's
    seat (None when not seated), everyone seated's status by username, and the key's earlier answer."""

    game: Game
    table: Table
    seated: Seat | None
    seat_statuses: dict[str, str]
    earlier: EarlierAnswer | None


def lock_for_move(
    *, game_id: int, user: User, key: str | None, path: str | None = None
) -> MoveContext | None:
    """`lock_game_row`, then one statement reading `MoveContext` (on PostgreSQL: two round
    trips, which cost less client CPU than one pipelined round trip; docs/performance.md)."""
    game = lock_game_row(game_id)
    if game is None:
        return None
    if connection.vendor != "postgresql":
        context_sql, params = _move_context_sql(
            game_id=game.pk,
            user=user,
            key=key,
            path=path,
            round_id=game.current_round_id,
            table_id=game.table_id,
        )
        found = rows.fetch(context_sql, params)
        base = rows.width(Table) + rows.width(Round)
        seats = [tuple(row[base : base + 5]) for row in found if row[base] is not None]
        refused_hash, refused_body, refused_status = found[0][-3:]
        refused = (
            None
            if refused_hash is None
            else (refused_hash, rows.convert(IdempotentRequest, "body", refused_body), refused_status)
        )
        return _move_context(game=game, user=user, row=found[0][:-3], seats=seats, refused=refused)
    context_sql, params = _move_context_pg_sql(game_id=game_id, user=user, key=key, path=path)
    row = rows.fetch(context_sql, params, prepared=True)[0]
    seats = [tuple(seat) for seat in rows.loads_text(row[rows.width(Table) + rows.width(Round)])]
    refused_row = rows.loads_text(row[-1]) or None
    return _move_context(game=game, user=user, row=row[:-1], seats=seats, refused=refused_row)


def _move_context_pg_sql(
    *, game_id: int, user: User, key: str | None, path: str | None
) -> tuple[str, list[Any]]:
    """`_move_context_sql` for PostgreSQL as one row: the seats as a JSON array and the key's earlier
    answer as scalar subqueries, so that the planner sees a three-table join (planning the six-table
    join cost more CPU than running it) and the round's row is sent once, not once per seat."""
    params: list[Any] = [*SEATED_STATUSES]
    if key:
        params += [game_id, user.pk, key, game_id, user.pk, key, user.pk, path, key]
    cache_key = (connection.vendor, bool(key))
    sql = _MOVE_CONTEXT_PG_SQL.get(cache_key)
    if sql is None:
        sql = _MOVE_CONTEXT_PG_SQL[cache_key] = _build_move_context_pg_sql(keyed=bool(key))
    return sql, [*params, game_id]


# The statement's text, built once per process (vendor, keyed).
_MOVE_CONTEXT_PG_SQL: dict[tuple[str, bool], str] = {}


def _build_move_context_pg_sql(*, keyed: bool) -> str:
    # docs/performance.md#hand-written-statements: move-read
    # (planning 0.23 → 0.18 ms; lock + read 350-360 µs as two round trips).
    seated_in = rows.placeholders(len(SEATED_STATUSES))
    seats = (
        "(SELECT json_agg(json_build_array(s.id, s.player_id, s.status, s.timeouts_in_row,"
        f" u.{rows.username_column()}))::text FROM {rows.table(Seat)} s"
        f" JOIN {rows.table(get_user_model())} u ON u.id = s.player_id"
        f" WHERE s.table_id = t.id AND s.status IN ({seated_in}))"
    )
    if keyed:
        # (user, game, key) is unique among keyed moves; a move without a key has key "".
        logged = (
            f" FROM {rows.table(MoveLog)} m WHERE m.game_id = %s AND m.user_id = %s"
            " AND m.idempotency_key = %s AND m.idempotency_key <> ''"
        )
        # A kept refusal (path NULL for a caller outside HTTP: none), as one JSON array.
        refused = (
            "(SELECT json_build_array(i.fingerprint, i.body, i.status)::text"
            f" FROM {rows.table(IdempotentRequest)} i"
            " WHERE i.user_id = %s AND i.method = 'POST' AND i.path = %s AND i.key = %s)"
        )
        earlier = f", (SELECT m.request_hash{logged}), (SELECT m.response{logged}), {refused}"
    else:
        earlier = ", NULL, NULL, NULL"
    return (
        f"SELECT {rows.columns(Table, 't')}, {rows.columns(Round, 'r')}, {seats}{earlier} "
        f"FROM {rows.table(Game)} g JOIN {rows.table(Table)} t ON t.id = g.table_id"
        f" LEFT JOIN {rows.table(Round)} r ON r.id = g.current_round_id WHERE g.id = %s"
    )


def _move_context_sql(
    *, game_id: int, user: User, key: str | None, path: str | None, round_id: int | None, table_id: int
) -> tuple[str, list[Any]]:
    """One statement: the table and current round, the seated seats with their players' names (a row
    each) and, for an idempotency key, the (request hash, response) of the move logged under it and the
    (fingerprint, answer, status) of a refusal kept under it."""
    # Other databases' form of the statement above (move-read); run by the SQLite tests.
    seated_in = rows.placeholders(len(SEATED_STATUSES))
    joins = (
        f" LEFT JOIN {rows.table(Seat)} s ON s.table_id = t.id AND s.status IN ({seated_in})"
        f" LEFT JOIN {rows.table(get_user_model())} u ON u.id = s.player_id"
    )
    params: list[Any] = [*SEATED_STATUSES]
    extra = f", s.id, s.player_id, s.status, s.timeouts_in_row, u.{rows.username_column()}"
    if key:
        joins += (
            f" LEFT JOIN {rows.table(MoveLog)} m"
            " ON m.game_id = %s AND m.user_id = %s AND m.idempotency_key = %s AND m.idempotency_key <> ''"
        )
        joins += (
            f" LEFT JOIN {rows.table(IdempotentRequest)} i"
            " ON i.user_id = %s AND i.method = 'POST' AND i.path = %s AND i.key = %s"
        )
        params += [game_id, user.pk, key, user.pk, path, key]
        extra += ", m.request_hash, m.response, i.fingerprint, i.body, i.status"
    else:
        extra += ", NULL, NULL, NULL, NULL, NULL"
    return table_and_round_sql(extra, joins), [round_id, *params, table_id]


def _move_context(
    *,
    game: Game,
    user: User,
    row: Sequence[Any],
    seats: Sequence[Sequence[Any]],
    refused: Sequence[Any] | None,
) -> MoveContext:
    """The table and current round (attached to `game`) from `row`, the caller's seat, the statuses of
    everyone seated (username -> status) from `seats` (id, player id, status, timeouts in a row, username)
    and the key's earlier answer: the logged move's (request hash, response) from the row's last two
    columns, or the kept refusal `refused` (fingerprint, body, status)."""
    table = attach(game, row)
    seated: Seat | None = None
    statuses: dict[str, str] = {}
    for seat_id, player_id, status, timeouts_in_row, name in seats:
        statuses[str(name)] = str(status)
        if player_id == user.pk:
            seated = Seat.from_db(
                connection.alias,
                ["id", "table_id", "player_id", "status", "timeouts_in_row"],
                [seat_id, table.pk, player_id, status, timeouts_in_row],
            )
    earlier: EarlierAnswer | None = None
    request_hash, response = row[-2:]
    if request_hash is not None:
        earlier = EarlierAnswer(str(request_hash), rows.convert(MoveLog, "response", response), None)
    elif refused is not None:
        fingerprint, body, status = refused
        earlier = EarlierAnswer(str(fingerprint), body, int(status))
    return MoveContext(game=game, table=table, seated=seated, seat_statuses=statuses, earlier=earlier)
