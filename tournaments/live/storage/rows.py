"""A game as the views read it, in hand-written PostgreSQL statements (database/rows.py).

`GET /games/{id}/` used five ORM queries (game, caller's seat, seated players, finished rounds' scores,
plus the token); clients read it at every round's start, and some before every move. The events long-poll
read the events and then the game's version by two more: every seated player's app asks for them after
every move (docs/performance.md). Other databases use the ORM (tournaments/live/storage/selectors.py)."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import get_user_model

from database import rows
from ledger.models import Account
from tournaments.live.models import SEATED_STATUSES, Game, GameEvent, Round, Seat, Table


@functools.cache
def _sql(*, with_history: bool) -> str:
    # docs/performance.md#hand-written-statements: game-view (5 → 2 statements; GET p50 56-78 → 18-23 ms).
    user_model = get_user_model()
    seated_in = rows.placeholders(len(SEATED_STATUSES))
    players = (
        f"(SELECT json_agg(json_build_array(s.player_id, u.{rows.username_column()},"
        " s.number, COALESCE(a.balance, 0), s.status) ORDER BY s.number)::text"
        f" FROM {rows.table(Seat)} s JOIN {rows.table(user_model)} u ON u.id = s.player_id"
        # A practice seat has no stack account (0 chips).
        f" LEFT JOIN {rows.table(Account)} a ON a.id = s.stack_account_id"
        f" WHERE s.table_id = t.id AND s.status IN ({seated_in}))"
    )
    history = (
        f"(SELECT json_agg(h.scores ORDER BY h.number)::text FROM {rows.table(Round)} h"
        " WHERE h.game_id = g.id AND h.ended_at IS NOT NULL)"
        if with_history
        else "NULL"
    )
    return (
        f"SELECT {rows.columns(Game, 'g')}, {rows.columns(Table, 't')}, {rows.columns(Round, 'r')},"
        f" {players}, {history}"
        f" FROM {rows.table(Game)} g JOIN {rows.table(Table)} t ON t.id = g.table_id"
        f" LEFT JOIN {rows.table(Round)} r ON r.id = g.current_round_id WHERE g.id = %s"
    )


def load_game(
    *, game_id: int, with_history: bool
) -> tuple[Game, list[dict[str, Any]], list[Any] | None] | None:
    """The game (its table and current round attached), the table's seated players as
    `selectors.table_players` gives them, and, `with_history`, the finished rounds' scores
    oldest first; None when there is no such game."""
    found = rows.fetch(_sql(with_history=with_history), [*SEATED_STATUSES, game_id])
    if not found:
        return None
    row = found[0]
    game_end = rows.width(Game)
    table_end = game_end + rows.width(Table)
    round_end = table_end + rows.width(Round)
    game = rows.from_row(Game, row[:game_end])
    table = rows.from_row(Table, row[game_end:table_end])
    assert game is not None and table is not None
    game.table = table
    game.current_round = rows.from_row(Round, row[table_end:round_end])
    players = [
        {"username": name, "seat": number, "chips": chips, "status": status, "player_id": player_id}
        for player_id, name, number, chips, status in rows.loads_text(row[round_end])
    ]
    history = rows.loads_text(row[round_end + 1]) if with_history else None
    return game, players, history


@functools.cache
def _events_sql(*, with_access: bool, with_seated: bool = False) -> str:
    # docs/performance.md#hand-written-statements: events-read (0.34 ms against 0.58 + 0.28 ms).
    # With access: whether the caller has a seat at the game's table, read with the page; with seated: the ids
    # of every player seated there (the socket tier's one read for all its sockets, live_room/hub.py).
    seated_in = rows.placeholders(len(SEATED_STATUSES))
    if with_access:
        access = (
            f"EXISTS (SELECT 1 FROM {rows.table(Seat)} s WHERE s.table_id = g.table_id AND s.player_id = %s"
            f" AND s.status IN ({seated_in})), "
        )
    elif with_seated:
        access = (
            f"(SELECT COALESCE(json_agg(s.player_id), '[]')::text FROM {rows.table(Seat)} s"
            f" WHERE s.table_id = g.table_id AND s.status IN ({seated_in})), "
        )
    else:
        access = ""
    return (
        f"SELECT {access}g.version, {rows.columns(GameEvent, 'e')} FROM {rows.table(Game)} g"
        f" LEFT JOIN LATERAL (SELECT * FROM {rows.table(GameEvent)} x WHERE x.game_id = g.id AND x.version > %s"
        " ORDER BY x.version LIMIT %s) e ON true WHERE g.id = %s ORDER BY e.version"
    )


def _events(found: list[tuple[Any, ...]], skip: int) -> tuple[int, list[GameEvent]]:
    events = [rows.from_row(GameEvent, row[skip + 1 :]) for row in found]
    return int(found[0][skip]), [event for event in events if event is not None]


def load_events(*, game_id: int, after: int, limit: int) -> tuple[int, list[GameEvent]] | None:
    """The game's version and its first `limit` events after version `after`, read together (so the
    version is never older than the events); None when there is no such game."""
    found = rows.fetch(_events_sql(with_access=False), [after, limit, game_id])
    return _events(found, 0) if found else None


def load_events_with_access(
    *, game_id: int, user_id: int | None, after: int, limit: int
) -> tuple[bool, int, list[GameEvent]] | None:
    """`load_events` plus whether `user_id` is seated at the game's table."""
    found = rows.fetch(_events_sql(with_access=True), [user_id, *SEATED_STATUSES, after, limit, game_id])
    if not found:
        return None
    version, events = _events(found, 1)
    return bool(found[0][0]), version, events


def load_events_with_seated(
    *, game_id: int, after: int, limit: int
) -> tuple[frozenset[int], int, list[GameEvent]] | None:
    """`load_events` plus the ids of the players seated at the game's table, read together."""
    found = rows.fetch(
        _events_sql(with_access=False, with_seated=True), [*SEATED_STATUSES, after, limit, game_id]
    )
    if not found:
        return None
    version, events = _events(found, 1)
    return frozenset(int(i) for i in rows.loads_text(found[0][0])), version, events
