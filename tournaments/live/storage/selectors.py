"""Reads shared by the API views and the admin: who sees what, and the redacted views."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.db.models import Count, F, Q, QuerySet

from tournaments import engine
from tournaments.engine import RoundState
from tournaments.errors import Forbidden, NotFound, PlayCode
from tournaments.live.models import (
    SEATED_STATUSES,
    Game,
    GameEvent,
    GameStatus,
    MoveLog,
    Round,
    Seat,
    Table,
    TableStatus,
)
from tournaments.live.storage import rows as game_rows
from tournaments.presence import selectors as presence

User = AbstractBaseUser | AnonymousUser


def is_staff(user: User) -> bool:
    return bool(getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))


def seat_of(*, table: Table, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return Seat.objects.filter(table=table, player_id=user.pk, status__in=SEATED_STATUSES).first()


def visible_tables(*, user: User) -> QuerySet[Table]:
    """The listing: public ring tables only (private and practice ones are never listed, docs/api.md
    "Playing"; a tournament's tables are listed by the tournament)."""
    return Table.objects.filter(private=False, practice=False, tournament__isnull=True).order_by("id")


def filter_tables(
    tables: QuerySet[Table],
    *,
    game: str | None = None,
    stake: int | None = None,
    seats: int | None = None,
    free_seats: int | None = None,
) -> QuerySet[Table]:
    """The lobby's filters: a game, a stake (chips a point is worth: PCR times multiplier), a number of seats, at
    least `free_seats` chairs nobody holds."""
    if game is not None:
        tables = tables.filter(game=game)
    if stake is not None:
        tables = tables.annotate(stake=F("pcr") * F("multiplier")).filter(stake=stake)
    if seats is not None:
        tables = tables.filter(seats=seats)
    if free_seats is not None:
        tables = tables.annotate(
            taken=Count("seat_set", filter=Q(seat_set__status__in=SEATED_STATUSES))
        ).filter(seats__gte=F("taken") + free_seats)
    return tables


def table_for(*, user: User, table_id: int) -> Table:
    """A table the caller may read; private tables answer 404 to anyone not seated (or their creator) but
    staff and admins, practice tables to anyone but their player and staff."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NotFound("No such table.", code=PlayCode.TABLE_NOT_FOUND)
    if table.private and not (can_see_private(table=table, user=user) or is_staff(user)):
        raise NotFound("No such table.", code=PlayCode.TABLE_NOT_FOUND)
    if table.practice and not (can_see_private(table=table, user=user) or is_staff(user)):
        raise NotFound("No such table.", code=PlayCode.TABLE_NOT_FOUND)
    return table


def can_see_private(*, table: Table, user: User) -> bool:
    if not user.is_authenticated:
        return False
    return table.created_by_id == user.pk or seat_of(table=table, user=user) is not None


def table_players(*, table: Table) -> list[dict[str, Any]]:
    """The seated players as the game view lists them (username, seat, chips, status), each with its
    "player_id" (`GameAccess`; game_rows.load_game reads the same on PostgreSQL)."""
    return [
        {
            "username": seat.player.get_username(),
            "seat": seat.number,
            "chips": seat.chips,
            "status": seat.status,
            "player_id": seat.player_id,
        }
        for seat in seated(table=table)
    ]


def seated(*, table: Table) -> list[Seat]:
    """The table's seated players in seat order, each with its player and stack account."""
    return list(
        Seat.objects.filter(table=table, status__in=SEATED_STATUSES)
        .select_related("player", "stack_account")
        .order_by("number")
    )


@dataclass(frozen=True)
class TableRow:
    """A table as the caller sees it (TableSerializer): its seated players, its join code for those who may
    see it, its game while not closed."""

    table: Table
    seats: list[Seat]
    code: str | None
    current_game: int | None
    # The caller's table in the table's tournament now (None: seated at none of its tables, or a ring table).
    my_table: int | None = None

    @property
    def error(self) -> str | None:
        return self.table.error or None

    @property
    def tournament(self) -> dict[str, Any] | None:
        """The tournament the table plays for (its id, name, kind, and the target score or number of rounds
        that ends it), or None at a ring table."""
        if self.table.tournament_id is None:
            return None
        tournament = self.table.tournament
        assert tournament is not None
        return {
            "id": tournament.pk,
            "name": tournament.name,
            "kind": tournament.kind,
            "target_score": tournament.target_score,
            "rounds": tournament.rounds,
            "my_table": self.my_table,
        }


def table_row(*, table: Table, user: User) -> TableRow:
    game = Game.objects.filter(table=table).first()
    show_code = table.private and can_see_private(table=table, user=user)
    return TableRow(
        table=table,
        seats=seated(table=table),
        code=table.code if show_code else None,
        current_game=game.pk if game is not None and game.status != GameStatus.CLOSED else None,
        my_table=tournament_table_of(tournament_id=table.tournament_id, user=user),
    )


def tournament_table_of(*, tournament_id: int | None, user: User) -> int | None:
    """The open table of tournament `tournament_id` where `user` holds a seat now: where a player moved by the
    tournament (balancing, a broken table) plays on. None for a ring table or a caller seated at none."""
    if tournament_id is None or not user.is_authenticated:
        return None
    return (
        Seat.objects.filter(
            table__tournament_id=tournament_id,
            table__status=TableStatus.OPEN,
            player_id=user.pk,
            status__in=SEATED_STATUSES,
        )
        .order_by("-pk")
        .values_list("table_id", flat=True)
        .first()
    )


# --------------------------------------------------------------------------------------------------- games


class GameAccess:
    """What the caller is to a game: a player of it (seated), staff, or another user.

    `players` (the table's seated players as `table_players` gives them, each with its "player_id") and
    `history` (the scores of the finished rounds, oldest first) may come preloaded with the game."""

    def __init__(
        self,
        *,
        game: Game,
        user: User,
        players: list[dict[str, Any]] | None = None,
        history: list[Any] | None = None,
    ) -> None:
        self.game = game
        self.user = user
        self.username: str | None = user.get_username() if user.is_authenticated else None
        self.staff = is_staff(user)
        self._players = players
        self._history = history
        if players is not None:
            self.seated = user.is_authenticated and any(row["player_id"] == user.pk for row in players)
        else:
            self.seated = seat_of(table=game.table, user=user) is not None

    @property
    def players(self) -> list[dict[str, Any]]:
        """The table's seated players: username, seat, chips, status."""
        if self._players is None:
            self._players = table_players(table=self.game.table)
        return [{k: v for k, v in row.items() if k != "player_id"} for row in self._players]

    @property
    def history(self) -> list[Any]:
        if self._history is None:
            self._history = list(
                Round.objects.filter(game=self.game, ended_at__isnull=False)
                .order_by("number")
                .values_list("scores", flat=True)
            )
        return self._history

    @cached_property
    def played(self) -> bool:
        """Played a round of this game (a finished round stays open to its players after they leave)."""
        if self.username is None:
            return False
        # (checked in Python: JSON containment is not portable to the embedded SQLite default)
        return any(
            self.username in players
            for players in Round.objects.filter(game=self.game).values_list("players", flat=True)
        )


def game_access(*, user: User, game_id: int, with_history: bool = False) -> GameAccess:
    """The game with its table and current round, and what the caller is to it; 404 for a private table's
    game to anyone who is not seated, staff or a past player. On PostgreSQL one statement reads it all,
    the seated players included (and the finished rounds' scores `with_history`)."""
    access: GameAccess | None
    if connection.vendor == "postgresql":
        loaded = game_rows.load_game(game_id=game_id, with_history=with_history)
        access = None
        if loaded is not None:
            game, players, history = loaded
            access = GameAccess(game=game, user=user, players=players, history=history)
    else:
        found = Game.objects.select_related("table", "current_round").filter(pk=game_id).first()
        access = GameAccess(game=found, user=user) if found is not None else None
    if access is None:
        raise NotFound("No such game.", code=PlayCode.GAME_NOT_FOUND)
    hidden = access.game.table.private or access.game.table.practice
    if hidden and not (access.seated or access.staff or access.played):
        raise NotFound("No such game.", code=PlayCode.GAME_NOT_FOUND)
    return access


def _latest_round(game: Game) -> Round | None:
    return game.current_round


def game_view(*, access: GameAccess) -> dict[str, Any]:
    """The caller's view: own hand and legal moves for a player of the round, the spectator view otherwise."""
    game = access.game
    round_ = _latest_round(game)
    # Who is connected (docs/rules.md "Presence and reconnection"): public, as the seat's status is.
    connected = presence.connected_names(game_id=game.pk)
    seat_rows = [{**row, "connected": row["username"] in connected} for row in access.players]
    by_name = {row["username"]: row for row in seat_rows}
    base: dict[str, Any] = {
        "id": game.pk,
        "table": game.table_id,
        "status": game.status,
        "version": game.version,
        "round": None,
        "phase": None,
        "turn": None,
        "players": seat_rows,
        "discard_pile": [],
        "stock_count": None,
        "melds": [],
        "deal_commitment": None,
        "next_round_at": game.next_round_at.isoformat() if game.next_round_at else None,
    }
    if round_ is None or game.state is None:
        return base
    state = engine.state_from_dict(game.state)
    in_round = access.username is not None and access.username in round_.players and access.seated
    viewer = access.username if in_round else None
    view = engine.player_view(state, viewer)
    view.pop("legal_moves", None)
    if viewer is None:
        view.pop("hand", None)
    history = access.history
    players = []
    engine_rows = _engine_players(view)
    for username in round_.players:
        engine_row = engine_rows[username]
        seat_row = by_name.get(username, {})
        players.append(
            {
                **engine_row,
                "username": username,
                "seat": round_.seat_numbers.get(username),
                # this player's settlement score in each finished round of the table, oldest first
                "scores": [scores.get(username) for scores in history if scores and username in scores],
                "chips": seat_row.get("chips"),
                "status": seat_row.get("status", "left"),
                # seconds of time bank left this round (public, as at a real table); the turn player's
                # is what it was when the turn began: their turn clock ends at turn.deadline minus it
                "time_bank": round_.time_bank.get(username),
                "connected": username in connected,
            }
        )
    waiting = [
        {k: v for k, v in row.items() if k != "connected"}
        for row in seat_rows
        if row["username"] not in round_.players
    ]
    data = {**base, **view}
    data.update(
        {
            "id": game.pk,
            "table": game.table_id,
            "status": game.status,
            "version": game.version,
            "round": round_.number,
            "phase": state.phase,
            "players": players,
            "waiting_players": waiting,
            "deal_commitment": round_.deal_commitment,
            "turn": _turn(game=game, state=state),
        }
    )
    if in_round and viewer in state.may_act and round_.ended_at is None:
        data["legal_moves"] = engine.legal_moves(state, viewer)
    return data


def _engine_players(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The engine's row of each player of the view (`engine.player_view`: username, seat, hand_count), by
    username."""
    return {row["username"]: row for row in view["players"]}


def _turn(*, game: Game, state: RoundState) -> dict[str, Any] | None:
    if game.status != GameStatus.PLAYING:
        return None
    if state.phase == "claims":
        return {
            "player": state.to_act,
            "deadline": game.claims_deadline.isoformat() if game.claims_deadline else None,
            "claims": list(state.may_act),
        }
    return {
        "player": game.turn_player or state.to_act,
        "deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
    }


def may_read_history(*, access: GameAccess) -> bool:
    """Events and rounds: seated players, staff, and whoever played a round of the game."""
    return access.seated or access.staff or access.played


def events_after(*, game_id: int, after: int, limit: int) -> tuple[int, list[GameEvent]]:
    """The game's version now and its first `limit` events after version `after` (on PostgreSQL one
    statement that reads both at once)."""
    if connection.vendor == "postgresql":
        loaded = game_rows.load_events(game_id=game_id, after=after, limit=limit)
        if loaded is not None:
            return loaded
    # The version first, then the events up to it: read the other way round, an event committed between the
    # two statements raised the version past events the answer did not hold, and the socket tier's shared
    # window (live_room/hub.py), which holds every event up to the version it read, never sent that event.
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    if version is None:
        raise NotFound("No such game.", code=PlayCode.GAME_NOT_FOUND)
    found = GameEvent.objects.filter(game_id=game_id, version__gt=after, version__lte=version)
    return version, list(found.order_by("version")[:limit])


def events_with_seated(
    *, game_id: int, after: int, limit: int
) -> tuple[frozenset[int], int, list[GameEvent]]:
    """`events_after` with the ids of the players seated at the game's table now (on PostgreSQL in the same
    statement): the socket tier reads a game's new events once for all its sockets (live_room/hub.py) and lets
    the seated ones have them as `readable_events_after` would; anyone else reads through that."""
    if connection.vendor == "postgresql":
        loaded = game_rows.load_events_with_seated(game_id=game_id, after=after, limit=limit)
        if loaded is None:
            raise NotFound("No such game.", code=PlayCode.GAME_NOT_FOUND)
        return loaded
    version, events = events_after(game_id=game_id, after=after, limit=limit)
    seated_ids = Seat.objects.filter(table__live_game__pk=game_id, status__in=SEATED_STATUSES).values_list(
        "player_id", flat=True
    )
    return frozenset(seated_ids), version, events


def readable_events_after(
    *, user: User, game_id: int, after: int, limit: int
) -> tuple[str | None, int, list[GameEvent]]:
    """Events for a caller who may read them (`may_read_history`), with the version and the name whose
    private parts the caller sees: 404 as `game_access` answers it, 403 for someone who may see the game but
    not its events. A seated player or staff member is let in by the same statement that reads the first
    page (the long-poll's every call); anyone else goes through `game_access`."""
    if connection.vendor == "postgresql":
        user_id = user.pk if user.is_authenticated else None
        loaded = game_rows.load_events_with_access(game_id=game_id, user_id=user_id, after=after, limit=limit)
        if loaded is None:
            raise NotFound("No such game.", code=PlayCode.GAME_NOT_FOUND)
        seated, version, events = loaded
        if seated or is_staff(user):
            return user.get_username(), version, events
    access = game_access(user=user, game_id=game_id)
    if not may_read_history(access=access):
        raise Forbidden("Only the table's players and staff read its events.")
    version, events = events_after(game_id=game_id, after=after, limit=limit)
    return access.username, version, events


def rounds_data(*, access: GameAccess) -> list[dict[str, Any]]:
    rows = []
    for round_ in Round.objects.filter(game=access.game).order_by("number"):
        over = round_.ended_at is not None
        result = round_.result or {}
        row: dict[str, Any] = {
            "number": round_.number,
            "players": round_.players,
            "dealer": round_.players[round_.dealer] if round_.players else None,
            "scores": round_.scores if over else None,
            "game_points": result.get("game_points") if over else None,
            "bonuses": result.get("bonuses") if over else None,
            "transfers": [
                {"from": t["from"], "to": t["to"], "amount": t["amount"], "kind": t.get("kind", "settlement")}
                for t in round_.transfers
            ],
            "settled": round_.settled,
            "deal_commitment": round_.deal_commitment,
            "deck": round_.deck if over else None,
            "salt": round_.salt if over else None,
            "started_at": round_.started_at.isoformat(),
            "ended_at": round_.ended_at.isoformat() if round_.ended_at else None,
        }
        if over:
            row["details"] = result.get("details")
            row["moves"] = finished_round_moves(round_=round_)
        rows.append(row)
    return rows


def finished_round_moves(*, round_: Round) -> list[dict[str, Any]]:
    """The whole move log of a round; only ever called once the round is over."""
    if round_.ended_at is None:
        raise ValueError("a running round's move log is secret")
    return [
        {"version": m.version, "player": m.player, "move": m.move, "server_played": m.server_played}
        for m in MoveLog.objects.filter(round=round_).order_by("version")
    ]
