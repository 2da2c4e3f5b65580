"""Live play of ring tables: rounds start and end, moves, turn clocks, claim windows, settlement.

Every function that changes a game runs in one transaction holding the game's row lock (taken after the
table's), bumps `Game.version` once per observable change, appends a `GameEvent` per version and, on
commit, enqueues the clock that follows. Celery tasks carry (game id, version) and do nothing when the
game has moved on, so running one twice or late is harmless.
"""

from __future__ import annotations

import functools
import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import kombu.exceptions
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import timezone

from ledger import services as ledger
from ledger.models import Account, TransferKind
from ledger.settlement import pcr_settlement
from tournaments import wakeups
from tournaments.errors import (
    Forbidden,
    IllegalMoveError,
    KeyReused,
    MalformedMove,
    NotFound,
    PlayError,
    StaleVersion,
    Unprocessable,
)
from tournaments.models import (
    SEATED_STATUSES,
    Game,
    GameEvent,
    GameStatus,
    IdempotentRequest,
    MoveLog,
    Round,
    Seat,
    SeatStatus,
    Table,
    TableStatus,
)
from tournaments.services import engine_io, idempotency, rows, table_settings

logger = logging.getLogger(__name__)

# A turn is auto-played in a loop of single moves; no turn of any game needs more than this.
MAX_AUTO_MOVES_PER_TURN = 60
# A clock message due sooner than this is not relied on for a later turn (it may be firing right now).
CLOCK_REUSE_MARGIN = timedelta(seconds=1)
# Fields a client may see of a move; anything else a client sent is not echoed to others.
PUBLIC_MOVE_FIELDS = ("type", "source", "card", "index", "cards", "melds", "meld", "discard", "groups")
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

# What `_finish_round` writes to the round row.
ROUND_END_FIELDS = ("result", "scores", "ended_at", "transfers", "settled")


def next_round_delay() -> float:
    return float(settings.RAMINO_NEXT_ROUND_DELAY_SECONDS)


# --------------------------------------------------------------------------------------------- enqueueing


def _enqueue(task_name: str, args: Sequence[Any], countdown: float) -> None:
    """Enqueue after the surrounding transaction commits (the task must see what we wrote)."""
    from tournaments import tasks

    task = getattr(tasks, task_name)
    transaction.on_commit(lambda: task.apply_async(args=tuple(args), countdown=max(0.0, countdown)))


# ------------------------------------------------------------------------------------------------ helpers


def current_round(game: Game) -> Round | None:
    return game.current_round


def _seats_by_player(table: Table, players: Sequence[str] | None = None) -> dict[str, Seat]:
    qs = (
        Seat.objects.select_for_update(of=("self",))
        .filter(table=table, status__in=SEATED_STATUSES)
        .select_related("player")
    )
    if players is not None:
        qs = qs.filter(player__username__in=list(players))
    return {seat.player.get_username(): seat for seat in qs.order_by("number")}


def _hand(state: Any, player: str) -> list[str]:
    return list(engine_io.player_view(state, player).get("hand") or [])


def _drawn_cards(before: Any, after: Any, player: str) -> list[str]:
    gained = Counter(_hand(after, player)) - Counter(_hand(before, player))
    return sorted(gained.elements())


def _public_move(move: Mapping[str, Any]) -> dict[str, Any]:
    public = {k: move[k] for k in PUBLIC_MOVE_FIELDS if k in move}
    if public.get("type") == "draw" and public.get("source") == "stock":
        # The stock's top card is the drawer's secret.
        public = {"type": "draw", "source": "stock"}
    return public


def _add_event(
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
    # Written along with the game row by `_settle_state` (every change ends there, in the same transaction);
    # also kept on the instance for this transaction's answer (saves reading them back).
    game.__dict__.setdefault("_pending_events", []).append(event)
    game.__dict__.setdefault("_written_events", []).append(event)
    return event


def _game_writes(game: Game) -> list[tuple[str, list[Any]]]:
    """The statements that store the game row and its events not yet written."""
    pending: list[GameEvent] = game.__dict__.pop("_pending_events", [])
    writes = [rows.insert_sql(pending)] if pending else []
    return [*writes, rows.update_sql(game, GAME_PLAY_FIELDS)]


def _written_events(game: Game) -> list[GameEvent]:
    return list(game.__dict__.get("_written_events", []))


def event_for(event: GameEvent, username: str | None) -> dict[str, Any]:
    """An event as `username` may see it (None: a spectator, staff included)."""
    data = {"version": event.version, "kind": event.kind, **event.public, "at": event.created_at.isoformat()}
    if username is not None and username in event.private:
        data.update(event.private[username])
    return data


# ------------------------------------------------------------------------------------------- round start


def schedule_round_start_if_ready(*, game: Game, table: Table, delay: float | None = None) -> None:
    """Caller holds the table and game locks."""
    if game.status != GameStatus.WAITING:
        return
    ready = Seat.objects.filter(
        table=table,
        status__in=(SeatStatus.ACTIVE, SeatStatus.SITTING_OUT),
        stack_account__balance__gt=0,
    ).count()
    if _schedule_round_start(game=game, ready=ready, delay=delay):
        game.save(update_fields=["next_round_at", "updated_at"])


def _schedule_round_start(*, game: Game, ready: int, delay: float | None = None) -> bool:
    """Set `next_round_at` and enqueue the start when `ready` seats hold chips and none is scheduled yet.
    True when it did (the caller stores the game row)."""
    if ready < 2:
        return False
    now = timezone.now()
    if game.next_round_at is not None and game.next_round_at > now:
        return False  # already scheduled
    wait = next_round_delay() if delay is None else delay
    game.next_round_at = now + timedelta(seconds=wait)
    _enqueue("start_round", [game.pk], wait)
    return True


def wind_down(*, game: Game, table: Table) -> None:
    """A closed table between rounds: every seat cashed out, the game closed for good. Caller holds the
    table's and the game's locks; the game has no round running."""
    from tournaments.services.tables import cash_out

    seats = (
        Seat.objects.select_for_update(of=("self",))
        .filter(table=table, status__in=SEATED_STATUSES)
        .select_related("player")
        .order_by("pk")
    )
    for seat in seats:
        cash_out(seat=seat, table=table)
    if game.status != GameStatus.CLOSED:
        _close_game(game=game, table=table, round_=None)
        _store_game(game)


def _close_game(*, game: Game, table: Table, round_: Round | None) -> None:
    """The game over for good (its table closed or out of service, every seat cashed out); the caller stores
    the game row."""
    game.status = GameStatus.CLOSED
    game.next_round_at = None
    if table.status == TableStatus.ERROR:
        _add_event(game, round_, "table_error", {"table": table.pk, "error": table.error})
    else:
        _add_event(game, round_, "table_closed", {"table": table.pk})


# A round start that fails with one of these did nothing and may succeed in a moment (the database restarting,
# a lock timeout, the broker away while the next clock is sent): it is left to the beat sweeper to retry.
TRANSIENT_ERRORS: tuple[type[Exception], ...] = (
    OperationalError,
    InterfaceError,
    kombu.exceptions.OperationalError,
)


def start_round(*, game_id: int) -> Round | None:
    """Deal the next round if the table has two players with chips; else wait. Idempotent.

    A failure retrying cannot cure (a table whose settings no longer pass, an exception in dealing) puts the
    table in error instead of leaving it to the sweeper to fail again every 30 s with the chips held."""
    try:
        return _deal(game_id=game_id)
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:
        logger.exception("round start of game %s failed; the table is put in error", game_id)
        fail_table(game_id=game_id, error=_failure(exc))
        return None


def _failure(exc: Exception) -> str:
    """What a failed start stores and shows: our own validation's message, else only the exception's type
    (another message might quote anything, a deal included; the log has it)."""
    if isinstance(exc, PlayError):
        text = f"{exc.code}: {exc.message}"
    else:
        text = f"round start failed: {type(exc).__name__}"
    return text[:500]


def fail_table(*, game_id: int, error: str) -> None:
    """Put the table in error: every seat cashed out, the game closed with a `table_error` event. Does
    nothing once a round was dealt or the game closed meanwhile."""
    with transaction.atomic():
        locked = _lock_game(game_id)
        if locked is None:
            return
        table, game = locked
        if game.status != GameStatus.WAITING:
            return
        table.status = TableStatus.ERROR
        table.error = error or "round start failed"
        table.save(update_fields=["status", "error"])
        wind_down(game=game, table=table)


def _deal(*, game_id: int) -> Round | None:
    with transaction.atomic():
        locked = _lock_game(game_id)
        if locked is None:
            return None
        table, game = locked
        if game.status != GameStatus.WAITING:
            return None
        if table.status == TableStatus.CLOSED:
            wind_down(game=game, table=table)
            return None
        now = timezone.now()
        if game.next_round_at is not None and game.next_round_at > now + timedelta(seconds=0.5):
            # Early (a duplicate or a re-armed message): the scheduled one will come.
            return None
        seats = list(
            Seat.objects.select_for_update(of=("self",))
            .filter(table=table, status__in=SEATED_STATUSES)
            .select_related("player", "stack_account")
            .order_by("number")
        )
        from tournaments.services.tables import cash_out

        playing: list[Seat] = []
        for seat in seats:
            if seat.stack_account.balance <= 0:
                # No chips and no top-up during the pause: unseated (RULES §5).
                cash_out(seat=seat, table=table)
            else:
                if seat.status != SeatStatus.ACTIVE:
                    seat.status = SeatStatus.ACTIVE
                    seat.save(update_fields=["status"])
                playing.append(seat)
        game.next_round_at = None
        if len(playing) < 2:
            game.save(update_fields=["next_round_at", "updated_at"])
            return None
        numbers = [seat.number for seat in playing]
        if game.dealer_seat is None:
            dealer = 0
        else:
            last = game.rounds.order_by("-number").values_list("result", flat=True).first()
            redeal = bool(isinstance(last, dict) and last.get("redeal"))
            dealer = numbers.index(engine_io.next_dealer_seat(game.dealer_seat, numbers, redeal=redeal))
        players = [seat.player.get_username() for seat in playing]
        table_settings.check_stored(table)
        rules = engine_io.build_rules(table.game, table.options)
        number = (game.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        state = engine_io.new_round(rules, players=players, dealer=dealer, round_number=number)
        commitment, deck, salt = engine_io.deal_secret(state)
        clocks = engine_io.clocks_for(table.options)
        round_ = Round.objects.create(
            game=game,
            number=number,
            players=players,
            seat_numbers={seat.player.get_username(): seat.number for seat in playing},
            dealer=dealer,
            deal_commitment=commitment,
            deck=deck,
            salt=salt,
            stacks={seat.player.get_username(): seat.stack_account.balance for seat in playing},
            time_bank=dict.fromkeys(players, clocks.time_bank_seconds),
        )
        for seat in playing:
            if seat.timeouts_in_round:
                seat.timeouts_in_round = 0
                seat.save(update_fields=["timeouts_in_round"])
        game.dealer_seat = numbers[dealer]
        game.current_round = round_
        game.status = GameStatus.PLAYING
        game.turn_player = ""
        game.turn_started_at = None
        game.turn_deadline = None
        game.claims_deadline = None
        _add_event(
            game,
            round_,
            "round_started",
            {
                "round": number,
                "players": players,
                "dealer": players[dealer],
                "deal_commitment": commitment,
            },
        )
        _settle_state(game=game, table=table, round_=round_, state=state, now=now)
        return round_


# -------------------------------------------------------------------------------------------- after moves


def _settle_state(
    *,
    game: Game,
    table: Table,
    round_: Round,
    state: Any,
    now: datetime,
    seat_statuses: Mapping[str, str] | None = None,
    also: Callable[[], Sequence[tuple[str, list[Any]]]] | None = None,
    reuse_clock: bool = False,
) -> None:
    """Store `state` and the events added since the last store, then end the round or arm the clock that
    follows. Caller holds the locks.

    `seat_statuses` (username -> status of the seated players), when the caller read them under the game
    lock, saves `_arm_clocks` a query; `also` builds statements (from the game as settled) written in the
    same round trip."""
    game.state = engine_io.dump_state(state)
    writes: list[tuple[str, list[Any]]] = []
    if engine_io.result(state) is not None:
        writes = _finish_round(game=game, table=table, round_=round_, state=state, now=now)
    else:
        _arm_clocks(
            game=game,
            table=table,
            round_=round_,
            state=state,
            now=now,
            seat_statuses=seat_statuses,
            reuse_clock=reuse_clock,
        )
    _store_game(game, before=writes, after=also)


def _store_game(
    game: Game,
    *,
    before: Sequence[tuple[str, list[Any]]] = (),
    after: Callable[[], Sequence[tuple[str, list[Any]]]] | None = None,
) -> None:
    """Write the game row and its events not yet written, with `before` and `after()` (on PostgreSQL in one
    round trip), announcing the new version to long-polls when there are events."""
    announce = bool(game.__dict__.get("_pending_events"))
    statements = [*before, *_game_writes(game), *(after() if after is not None else ())]
    # Last, so that on PostgreSQL it is the outer statement of the one round trip (rows.execute).
    notice = wakeups.announcement(game_id=game.pk, version=game.version) if announce else None
    rows.execute([*statements, notice] if notice is not None else statements)


def _clock_targets(state: Any) -> list[str]:
    """Whom the turn clock plays for when it fires: the turn's player, or everyone in a deal phase."""
    may = engine_io.may_act(state)
    if engine_io.phase(state) == "deal":
        return list(may)
    current = engine_io.to_act(state)
    if current in may:
        return [str(current)]
    return list(may[:1])


def _charge_time_bank(*, game: Game, table: Table, round_: Round, now: datetime) -> None:
    """The player whose turn just ended pays any time beyond `turn_seconds` from the bank."""
    if not game.turn_player or game.turn_started_at is None:
        return
    clocks = engine_io.clocks_for(table.options)
    over = (now - game.turn_started_at).total_seconds() - clocks.turn_seconds
    if over > 0 and game.turn_player in round_.time_bank:
        bank = dict(round_.time_bank)
        bank[game.turn_player] = max(0.0, float(bank[game.turn_player]) - over)
        round_.time_bank = bank
        round_.save(update_fields=["time_bank"])


def _arm_clocks(
    *,
    game: Game,
    table: Table,
    round_: Round,
    state: Any,
    now: datetime,
    seat_statuses: Mapping[str, str] | None = None,
    reuse_clock: bool = False,
) -> None:
    """`reuse_clock`: a new turn sends no clock message when the one already on its way fires before the
    turn's deadline (`run_turn_clock` re-arms from it); a message per turn costs a move about as much CPU
    as the rest of its work."""
    clocks = engine_io.clocks_for(table.options)
    if engine_io.phase(state) == "claims":
        _charge_time_bank(game=game, table=table, round_=round_, now=now)
        game.turn_player = ""
        game.turn_started_at = None
        game.turn_deadline = None
        window = engine_io.claim_seconds(state)
        game.claims_deadline = now + timedelta(seconds=window)
        _enqueue("close_claims", [game.pk, game.version], window)
        return
    game.claims_deadline = None
    targets = _clock_targets(state)
    if not targets:
        return
    player = targets[0]
    new_turn = player != game.turn_player or game.turn_started_at is None or game.turn_deadline is None
    if new_turn:
        _charge_time_bank(game=game, table=table, round_=round_, now=now)
        game.turn_player = player
        game.turn_started_at = now
        game.turn_version = game.version
        bank = float(round_.time_bank.get(player, clocks.time_bank_seconds))
        game.turn_deadline = now + timedelta(seconds=clocks.turn_seconds + bank)
    assert game.turn_deadline is not None
    # (A seat that turns `leaving` mid-turn is re-armed by leave() itself: only a new turn needs the look-up.)
    seat_status: str | None = None
    if new_turn and seat_statuses is not None:
        seat_status = seat_statuses.get(player)
    elif new_turn:
        seat_status = (
            Seat.objects.filter(table=table, player__username=player, status__in=SEATED_STATUSES)
            .values_list("status", flat=True)
            .first()
        )
    if seat_status in (SeatStatus.LEAVING, SeatStatus.ABSENT) and game.turn_deadline > now:
        # Nobody is there to think: the server plays at once.
        game.turn_deadline = now
        new_turn = True
    if new_turn:
        due = game.clock_due_at
        # Strictly before: a message due at the deadline itself is not told from this turn's own.
        if reuse_clock and due is not None and now + CLOCK_REUSE_MARGIN < due < game.turn_deadline:
            return
        game.clock_due_at = game.turn_deadline
        _enqueue("turn_clock", [game.pk, game.turn_version], (game.turn_deadline - now).total_seconds())


def rearm_clock_now_if_turn(*, game: Game, username: str) -> None:
    """A player leaving on their own turn: play it out now. Caller holds the game lock."""
    if game.status == GameStatus.PLAYING and game.turn_player == username:
        game.turn_deadline = timezone.now()
        game.save(update_fields=["turn_deadline", "updated_at"])
        _enqueue("turn_clock", [game.pk, game.turn_version], 0)


# ---------------------------------------------------------------------------------------------- the move


def _classify_engine_error(exc: Exception) -> Exception:
    code = str(getattr(exc, "code", "move.illegal"))
    message = str(getattr(exc, "message", str(exc)))
    if engine_io.is_malformed(exc):
        return MalformedMove(message, code=code)
    return IllegalMoveError(message, code=code)


def _apply_and_log(
    *,
    game: Game,
    round_: Round,
    state: Any,
    player: str,
    move: Mapping[str, Any],
    server_played: bool,
) -> tuple[Any, GameEvent]:
    new_state = engine_io.apply_move(state, player, move)
    private: dict[str, Any] = {}
    if move.get("type") == "draw" and move.get("source") == "stock":
        drawn = _drawn_cards(state, new_state, player)
        if drawn:
            private[player] = {"card": drawn[0]} if len(drawn) == 1 else {"cards": drawn}
    event = _add_event(
        game,
        round_,
        "move",
        {
            "round": round_.number,
            "player": player,
            "move": _public_move(move),
            "server_played": server_played,
            "phase": engine_io.phase(new_state),
        },
        private,
    )
    return new_state, event


def submit_move(
    *,
    user: User,
    game_id: int,
    move: dict[str, Any],
    expected_version: int,
    idempotency_key: str | None,
    request_path: str | None = None,
) -> dict[str, Any]:
    """A client's move. Returns {version, events}; a replayed key returns the first answer, a refusal
    included (kept under (user, POST, `request_path`, key); callers outside HTTP pass no path)."""
    fingerprint = idempotency.fingerprint({"move": move, "expected_version": expected_version})
    refusal_key = (
        idempotency.RequestKey(user.pk, "POST", request_path, idempotency_key)
        if idempotency_key and request_path
        else None
    )
    refused: PlayError
    with transaction.atomic():
        locked = _lock_for_move(game_id=game_id, user=user, key=idempotency_key, path=request_path)
        if locked is None:
            raise NotFound("No such game.", code="game.not_found")
        game, (table, seated, seat_statuses, earlier) = locked
        if table.private and seated is None:
            raise NotFound("No such game.", code="game.not_found")
        if earlier is not None:
            request_hash, earlier_response, refused_status = earlier
            if request_hash != fingerprint:
                raise KeyReused()
            if refused_status is not None:
                raise idempotency.replayed_error(refused_status, earlier_response)
            return dict(earlier_response or {})
        try:
            return _play_client_move(
                game=game,
                table=table,
                seated=seated,
                seat_statuses=seat_statuses,
                user=user,
                move=move,
                expected_version=expected_version,
                idempotency_key=idempotency_key,
                fingerprint=fingerprint,
            )
        except PlayError as exc:
            answer = idempotency.refusal(exc)
            if refusal_key is None or answer is None:
                raise
            # Every refusal comes before the move's first write: committing keeps only the refusal.
            idempotency.record_refusal(
                request_key=refusal_key, request_fingerprint=fingerprint, answer=answer
            )
            refused = exc
    raise refused


def _play_client_move(
    *,
    game: Game,
    table: Table,
    seated: Seat | None,
    seat_statuses: dict[str, str],
    user: User,
    move: dict[str, Any],
    expected_version: int,
    idempotency_key: str | None,
    fingerprint: str,
) -> dict[str, Any]:
    """`submit_move` under the game's lock, once the key has no earlier answer. Refuses (PlayError) before
    its first write."""
    username = user.get_username()
    if expected_version != game.version:
        raise StaleVersion(details={"version": game.version, "expected_version": expected_version})
    round_ = current_round(game)
    if game.status != GameStatus.PLAYING or round_ is None or round_.ended_at is not None:
        raise Unprocessable("No round is being played at this table.", code="game.no_round_running")
    if username not in round_.players or seated is None:
        raise Forbidden("You are not playing this round.", code="game.not_a_player")
    assert game.state is not None
    state = engine_io.load_state(game.state)
    try:
        new_state, _event = _apply_and_log(
            game=game, round_=round_, state=state, player=username, move=move, server_played=False
        )
    except Exception as exc:
        if engine_io.is_illegal_move(exc):
            raise _classify_engine_error(exc) from exc
        raise
    move_version = game.version
    if seated.timeouts_in_row:
        seated.timeouts_in_row = 0
        rows.update(seated, ["timeouts_in_row"])
    now = timezone.now()
    answer: dict[str, Any] = {}

    def log_move() -> list[tuple[str, list[Any]]]:
        # The version was `expected_version` under the lock: the events after it are the ones just added.
        events = _written_events(game)
        answer.update(version=game.version, events=[event_for(e, username) for e in events])
        entry = MoveLog(
            round_id=round_.pk,
            game_id=game.pk,
            player=username,
            user_id=user.pk,
            move=move,
            version=move_version,
            idempotency_key=idempotency_key or "",
            request_hash=fingerprint,
            server_played=False,
            response=answer,
        )
        return [rows.insert_sql([entry])]

    _settle_state(
        game=game,
        table=table,
        round_=round_,
        state=new_state,
        now=now,
        seat_statuses=seat_statuses,
        also=log_move,
        reuse_clock=True,
    )
    return answer


# -------------------------------------------------------------------------------------------------- clocks


def _lock_game_row(game_id: int) -> Game | None:
    """Lock the game row and nothing else. Every change to a table's seats holds this lock too (sit and
    leave take the table's and then the game's), so play needs no other.

    The table and round are read by a later statement on purpose: under READ COMMITTED a statement that
    waited for the lock still reads its joined rows as of its start, so a round started (or a seat changed)
    by the transaction it waited for would be missed."""
    found = rows.fetch(_lock_game_sql(connection.vendor), [game_id])
    return rows.from_row(Game, found[0]) if found else None


@functools.cache
def _lock_game_sql(vendor: str) -> str:
    """The lock statement's text, built once per database vendor (it runs on every move)."""
    sql = f"SELECT {rows.columns(Game, 'g')} FROM {rows.table(Game)} g WHERE g.id = %s"
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql


def _table_and_round_sql(extra_columns: str = "", extra_joins: str = "") -> str:
    return (
        f"SELECT {rows.columns(Table, 't')}, {rows.columns(Round, 'r')}{extra_columns} "
        f"FROM {rows.table(Table)} t LEFT JOIN {rows.table(Round)} r ON r.id = %s{extra_joins} WHERE t.id = %s"
    )


def _attach(game: Game, row: Sequence[Any]) -> Table:
    """Fill `game.table` and `game.current_round` from a row of `_table_and_round_sql`."""
    table = rows.from_row(Table, row[: rows.width(Table)])
    assert table is not None
    round_ = rows.from_row(Round, row[rows.width(Table) : rows.width(Table) + rows.width(Round)])
    game.table = table
    game.current_round = round_
    return table


def _lock_game(game_id: int) -> tuple[Table, Game] | None:
    """Lock the game row, then read its table and current round (two statements; see `_lock_game_row`)."""
    game = _lock_game_row(game_id)
    if game is None:
        return None
    found = rows.fetch(_table_and_round_sql(), [game.current_round_id, game.table_id])
    return _attach(game, found[0]), game


# The key's earlier answer: (request hash, answer, status): status None for an accepted move (its log row's
# answer), the status of a kept refusal otherwise.
EarlierAnswer = tuple[str, Any, int | None]
MoveContext = tuple[Table, Seat | None, dict[str, str], EarlierAnswer | None]


def _lock_for_move(
    *, game_id: int, user: User, key: str | None, path: str | None = None
) -> tuple[Game, MoveContext] | None:
    """`_lock_game_row`, then one statement reading `MoveContext` (both prepared on PostgreSQL: two round
    trips, which cost less client CPU than one pipelined round trip; docs/performance.md)."""
    game = _lock_game_row(game_id)
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
        return game, _move_context(game=game, user=user, row=found[0][:-3], seats=seats, refused=refused)
    context_sql, params = _move_context_pg_sql(game_id=game_id, user=user, key=key, path=path)
    row = rows.fetch(context_sql, params)[0]
    seats = [tuple(seat) for seat in rows.loads_text(row[rows.width(Table) + rows.width(Round)])]
    refused_row = rows.loads_text(row[-1]) or None
    return game, _move_context(game=game, user=user, row=row[:-1], seats=seats, refused=refused_row)


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
    return _table_and_round_sql(extra, joins), [round_id, *params, table_id]


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
    table = _attach(game, row)
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
        earlier = (str(request_hash), rows.convert(MoveLog, "response", response), None)
    elif refused is not None:
        fingerprint, body, status = refused
        earlier = (str(fingerprint), body, int(status))
    return table, seated, statuses, earlier


def _server_play(
    *, game: Game, round_: Round, state: Any, player: str, choose: Callable[[Any, str], dict[str, Any]]
) -> Any:
    """Play `player`'s moves until the turn passes (or a claim window opens, or the round ends)."""
    for _ in range(MAX_AUTO_MOVES_PER_TURN):
        if engine_io.result(state) is not None or player not in engine_io.may_act(state):
            return state
        if engine_io.phase(state) == "claims":
            return state
        move = choose(state, player)
        state, _event = _apply_and_log(
            game=game, round_=round_, state=state, player=player, move=move, server_played=True
        )
        rows.insert(
            MoveLog(
                round=round_,
                game=game,
                player=player,
                user=None,
                move=move,
                version=game.version,
                server_played=True,
            )
        )
    raise RuntimeError(f"auto play of {player} did not end the turn in {MAX_AUTO_MOVES_PER_TURN} moves")


def run_turn_clock(*, game_id: int, version: int) -> bool:
    """The turn clock fired: if the turn armed at `version` is still running and its deadline has passed,
    the server plays it. True when it played."""
    with transaction.atomic():
        locked = _lock_game(game_id)
        if locked is None:
            return False
        table, game = locked
        now = timezone.now()
        if game.status != GameStatus.PLAYING or game.turn_deadline is None:
            return False
        if game.turn_version != version:
            due = game.clock_due_at
            # Only the message later turns relied on (see `_arm_clocks`) fires before the running turn's
            # deadline: it arms that turn's clock. Once armed (here or by `_arm_clocks`) `clock_due_at` is
            # the deadline, so any other stale copy (the sweeper's, a redelivery) ends here; else each copy
            # would arm one more for an overdue turn (leaving seats), and the queue would only grow.
            if due is not None and due <= now + CLOCK_REUSE_MARGIN and due < game.turn_deadline:
                game.clock_due_at = game.turn_deadline
                rows.update(game, ["clock_due_at"])
                remaining = (game.turn_deadline - now).total_seconds()
                _enqueue("turn_clock", [game.pk, game.turn_version], max(0.0, remaining))
            return False
        remaining = (game.turn_deadline - now).total_seconds()
        if remaining > 0.05:
            _enqueue("turn_clock", [game.pk, game.turn_version], remaining)
            return False
        round_ = current_round(game)
        assert round_ is not None and game.state is not None
        state = engine_io.load_state(game.state)
        if engine_io.phase(state) == "claims":
            return False
        targets = _clock_targets(state)
        seats = _seats_by_player(table, targets)
        clocks = engine_io.clocks_for(table.options)
        for player in targets:
            state = _server_play(
                game=game, round_=round_, state=state, player=player, choose=engine_io.auto_move
            )
            seat = seats.get(player)
            if seat is not None and seat.status == SeatStatus.ACTIVE:
                seat.timeouts_in_row += 1
                seat.timeouts_in_round += 1
                if (
                    seat.timeouts_in_row >= clocks.max_timeouts
                    or seat.timeouts_in_round >= clocks.max_timeouts_per_round
                ):
                    seat.status = SeatStatus.ABSENT
                seat.save(update_fields=["timeouts_in_row", "timeouts_in_round", "status"])
        if game.turn_player in round_.time_bank:
            bank = dict(round_.time_bank)
            bank[game.turn_player] = 0
            round_.time_bank = bank
            round_.save(update_fields=["time_bank"])
        game.turn_player = ""
        game.turn_started_at = None
        # Whatever message was relied on may be this one: the next turn sends its own.
        game.clock_due_at = None
        _settle_state(game=game, table=table, round_=round_, state=state, now=now)
        return True


def run_close_claims(*, game_id: int, version: int) -> bool:
    """The "Rummy!" claim window's deadline: close it if the game is still where the window opened."""
    with transaction.atomic():
        locked = _lock_game(game_id)
        if locked is None:
            return False
        table, game = locked
        if game.version != version or game.status != GameStatus.PLAYING or game.claims_deadline is None:
            return False
        now = timezone.now()
        remaining = (game.claims_deadline - now).total_seconds()
        if remaining > 0.05:
            _enqueue("close_claims", [game.pk, game.version], remaining)
            return False
        round_ = current_round(game)
        assert round_ is not None and game.state is not None
        state = engine_io.close_claims(engine_io.load_state(game.state))
        _add_event(game, round_, "claims_closed", {"round": round_.number, "phase": engine_io.phase(state)})
        _settle_state(game=game, table=table, round_=round_, state=state, now=now)
        return True


def sweep_clocks(*, grace_seconds: float | None = None) -> int:
    """Re-enqueue every clock whose deadline passed long ago (its message was lost). Returns how many."""
    if grace_seconds is None:
        grace_seconds = float(settings.RAMINO_CLOCK_SWEEP_GRACE_SECONDS)
    now = timezone.now()
    late = now - timedelta(seconds=grace_seconds)
    count = 0
    from tournaments import tasks

    for game_id, version in Game.objects.filter(
        status=GameStatus.PLAYING, turn_deadline__lt=late
    ).values_list("pk", "turn_version"):
        tasks.turn_clock.apply_async(args=(game_id, version))
        count += 1
    for game_id, version in Game.objects.filter(
        status=GameStatus.PLAYING, claims_deadline__lt=late
    ).values_list("pk", "version"):
        tasks.close_claims.apply_async(args=(game_id, version))
        count += 1
    for game_id in Game.objects.filter(status=GameStatus.WAITING, next_round_at__lt=late).values_list(
        "pk", flat=True
    ):
        tasks.start_round.apply_async(args=(game_id,))
        count += 1
    return count


# ------------------------------------------------------------------------------------------ end of round


def _seat_order(round_: Round) -> list[str]:
    """Players from the dealer's left (the settlement's order for leftover chips)."""
    players = list(round_.players)
    start = (round_.dealer + 1) % len(players)
    return players[start:] + players[:start]


def _post_settlement(
    *,
    kind: str,
    key: str,
    table: Table,
    round_: Round,
    scores: Mapping[str, int],
    stacks: Mapping[str, int],
    accounts: Mapping[str, Account],
    reason: str,
) -> list[dict[str, Any]]:
    seat_order = _seat_order(round_)
    settlement = pcr_settlement(
        scores={p: int(scores.get(p, 0)) for p in seat_order},
        pcr=table.pcr * table.multiplier,
        stacks={p: int(stacks[p]) for p in seat_order},
        seat_order=seat_order,
    )
    net: dict[str, int] = dict.fromkeys(seat_order, 0)
    for payer, payee, chips in settlement.transfers:
        net[payer] -= chips
        net[payee] += chips
    legs = [(accounts[p], amount) for p, amount in net.items() if amount]
    if legs:
        computation = {**settlement.computation(), "table_pcr": table.pcr, "multiplier": table.multiplier}
        ledger.post_transfer(
            kind=kind,
            legs=legs,
            idempotency_key=key,
            reason=reason,
            table_id=table.pk,
            round_id=round_.pk,
            computation=computation,
            posted_by_system="tournaments.settle_round",
        )
    label = "bonus" if kind == TransferKind.BONUS_SETTLEMENT else "settlement"
    return [
        {"from": payer, "to": payee, "amount": chips, "kind": label}
        for payer, payee, chips in settlement.transfers
    ]


def _seats_with_stacks(table: Table) -> list[Seat]:
    """The table's seated seats with their players and stack accounts, in one statement that locks the seats
    and the accounts in the accounts' id order (the ledger's lock order)."""
    user_model = get_user_model()
    seated_in = rows.placeholders(len(SEATED_STATUSES))
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


def _finish_round(
    *, game: Game, table: Table, round_: Round, state: Any, now: datetime
) -> list[tuple[str, list[Any]]]:
    """Record the result, settle by PCR, release leaving and absent seats, schedule the next round.

    Returns the round row's UPDATE, which the caller writes with the game row (the round is read by nobody
    before the commit); the game's new fields are left on `game` for the caller to store likewise."""
    from tournaments.services.tables import cash_out

    _charge_time_bank(game=game, table=table, round_=round_, now=now)
    result = engine_io.result_dict(engine_io.result(state))
    round_.result = result
    round_.scores = result["scores"]
    round_.ended_at = now
    seated = _seats_with_stacks(table)
    seats = {seat.player.get_username(): seat for seat in seated}
    # The same Account objects as the seats': the ledger leaves the new balances on them.
    accounts = {p: seats[p].stack_account for p in round_.players if p in seats}
    transfers: list[dict[str, Any]] = []
    if not result["redeal"] and result["scores"] and len(accounts) == len(round_.players):
        transfers += _post_settlement(
            kind=TransferKind.SETTLEMENT,
            key=f"round:{round_.pk}:settle",
            table=table,
            round_=round_,
            scores=result["scores"],
            stacks=round_.stacks,
            accounts=accounts,
            reason=f"round {round_.number} of table {table.pk}",
        )
        bonus_points: dict[str, int] = {}
        for bonus in result["bonuses"]:
            bonus_points[bonus["player"]] = bonus_points.get(bonus["player"], 0) + int(bonus["points"])
        if any(bonus_points.values()):
            # The bonus is its own settlement, capped by what each stack holds after the round's.
            transfers += _post_settlement(
                kind=TransferKind.BONUS_SETTLEMENT,
                key=f"round:{round_.pk}:bonus",
                table=table,
                round_=round_,
                scores=bonus_points,
                stacks={p: a.balance for p, a in accounts.items()},
                accounts=accounts,
                reason=f"bonus of round {round_.number} of table {table.pk}",
            )
    elif len(accounts) != len(round_.players):
        logger.error("round %s: a player of the round has no seat; not settled", round_.pk)
    round_.transfers = transfers
    round_.settled = True
    _add_event(
        game,
        round_,
        "round_over",
        {
            "round": round_.number,
            "scores": result["scores"],
            "game_points": result["game_points"],
            "bonuses": result["bonuses"],
            "redeal": result["redeal"],
            "transfers": transfers,
            "deal_commitment": round_.deal_commitment,
            "deck": round_.deck,
            "salt": round_.salt,
        },
    )
    ready = 0
    closing = table.status == TableStatus.CLOSED
    for seat in seated:
        if closing or seat.status in (SeatStatus.LEAVING, SeatStatus.ABSENT):
            cash_out(seat=seat, table=table)
        elif seat.status == SeatStatus.ACTIVE and seat.stack_account.balance <= 0:
            seat.status = SeatStatus.SITTING_OUT
            seat.save(update_fields=["status"])
        elif seat.status in (SeatStatus.ACTIVE, SeatStatus.SITTING_OUT) and seat.stack_account.balance > 0:
            ready += 1
    game.status = GameStatus.WAITING
    game.turn_player = ""
    game.turn_started_at = None
    game.turn_deadline = None
    game.claims_deadline = None
    game.next_round_at = None
    if closing:
        _close_game(game=game, table=table, round_=round_)
    else:
        _schedule_round_start(game=game, ready=ready)
    # What the end of a round changes (the time bank is saved by `_charge_time_bank`); the deal and the
    # players stay as they were written at the start.
    return [rows.update_sql(round_, ROUND_END_FIELDS)]
