"""A game's event log: every observable change bumps `Game.version` once and appends a `GameEvent`, written with
the game row (and, on PostgreSQL, announced to long-polls) in one round trip."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils import timezone

from database import rows
from tournaments.engine.move_fields import FIELD_SCHEMAS
from tournaments.live.messaging import fanout, wakeups
from tournaments.live.models import Game, GameEvent, Round

# Fields a client may see of a move (every field a move may carry); anything else is not echoed to others.
PUBLIC_MOVE_FIELDS = ("type", *FIELD_SCHEMAS)
# What play writes to the game row (everything but the table and the creation time; `updated_at` follows).
GAME_PLAY_FIELDS = (
    "state",
    "version",
    "dealer_seat",
    "current_round",
    "status",
    "turn_player",
    "turn_version",
    "clock_due_at",
    "turn_started_at",
    "turn_deadline",
    "claims_deadline",
    "next_round_at",
)


def public_move(move: Mapping[str, Any]) -> dict[str, Any]:
    public = {k: move[k] for k in PUBLIC_MOVE_FIELDS if k in move}
    if public.get("type") == "draw" and public.get("source") == "stock":
        # The stock's top card is the drawer's secret.
        public = {"type": "draw", "source": "stock"}
    return public


def add_event(
    game: Game, round_: Round | None, kind: str, public: dict[str, Any], private: dict[str, Any] | None = None
) -> GameEvent:
    game.version += 1
    # Foreign keys by id: the related-object descriptors' checks were a visible share of a move's CPU.
    event = GameEvent(
        game_id=game.pk,
        version=game.version,
        round_id=round_.pk if round_ is not None else None,
        kind=kind,
        public=public,
        private=private or {},
        created_at=timezone.now(),
    )
    # Written along with the game row by `store_game` (every change ends there, in the same transaction);
    # also kept on the instance for this transaction's answer (saves reading them back).
    game.__dict__.setdefault("_pending_events", []).append(event)
    game.__dict__.setdefault("_written_events", []).append(event)
    return event


def game_writes(game: Game) -> list[tuple[str, list[Any]]]:
    """The statements that store the game row and its events not yet written."""
    pending: list[GameEvent] = game.__dict__.pop("_pending_events", [])
    writes = [rows.insert_sql(pending)] if pending else []
    return [*writes, rows.update_sql(game, GAME_PLAY_FIELDS)]


def written_events(game: Game) -> list[GameEvent]:
    return list(game.__dict__.get("_written_events", []))


def event_for(event: GameEvent, username: str | None) -> dict[str, Any]:
    """An event as `username` may see it (None: a spectator, staff included)."""
    data = {"version": event.version, "kind": event.kind, **event.public, "at": event.created_at.isoformat()}
    if username is not None and username in event.private:
        data.update(event.private[username])
    return data


def store_game(
    game: Game,
    *,
    before: Sequence[tuple[str, list[Any]]] = (),
    after: Callable[[], Sequence[tuple[str, list[Any]]]] | None = None,
) -> None:
    """Write the game row and its events not yet written, with `before` and `after()` (on PostgreSQL in one
    round trip), announcing the new version to long-polls when there are events."""
    announce = bool(game.__dict__.get("_pending_events"))
    statements = [*before, *game_writes(game), *(after() if after is not None else ())]
    # docs/performance.md#hand-written-statements: move-write
    # (one round trip; pg_notify in it within the noise).
    # Last, so that on PostgreSQL it is the outer statement of the one round trip (rows.execute).
    notice = wakeups.announcement(game_id=game.pk, version=game.version) if announce else None
    rows.execute([*statements, notice] if notice is not None else statements, prepared=True)
    if announce:
        # The sockets' wake-up (fanout.py), sent once the transaction commits.
        fanout.version_on_commit(topic=fanout.game_topic(game.pk), version=game.version)


def store_games(games: Sequence[Game]) -> None:
    """`store_game` for several games in one write: their events and rows, and one statement announcing each
    new version to long-polls (on PostgreSQL in one round trip); the sockets' wake-ups on commit."""
    statements: list[tuple[str, list[Any]]] = []
    announced: list[Game] = []
    for game in games:
        pending: list[GameEvent] = game.__dict__.pop("_pending_events", [])
        if pending:
            statements.append(rows.insert_sql(pending))
            announced.append(game)
        statements.append(rows.update_sql(game, GAME_PLAY_FIELDS))
    notices = [wakeups.announcement(game_id=game.pk, version=game.version) for game in announced]
    selects = [notice for notice in notices if notice is not None]
    if selects:
        # One SELECT of every pg_notify (each `SELECT pg_notify(...)`), last: a CTE that only reads is not run
        # unless read.
        calls: list[str] = []
        values: list[Any] = []
        for sql, params in selects:
            calls.append(sql.removeprefix("SELECT "))
            values += params
        statements.append(("SELECT " + ", ".join(calls), values))
    rows.execute(statements, prepared=True)
    for game in announced:
        fanout.version_on_commit(topic=fanout.game_topic(game.pk), version=game.version)
