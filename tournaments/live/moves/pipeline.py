"""Moves: applying one to a round's state and logging it, and a client's move end to end (`submit_move`, the
hot path: docs/performance.md).

Every function that changes a game runs in one transaction holding the game's row lock, bumps `Game.version`
once per observable change and appends a `GameEvent` per version (`game_log`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from database import rows
from operations import metrics
from tournaments import engine
from tournaments.engine import IllegalMove, Move, RoundState
from tournaments.engine.moves import DrawMove
from tournaments.errors import (
    Forbidden,
    IllegalMoveError,
    KeyReused,
    MalformedMove,
    NotFound,
    PlayCode,
    PlayError,
    StaleVersion,
    Unprocessable,
)
from tournaments.live.models import Game, GameEvent, GameStatus, MoveLog, Round, Seat, Table
from tournaments.live.moves import idempotency
from tournaments.live.moves.context import lock_for_move
from tournaments.live.rounds.advance import settle_state
from tournaments.live.storage.events import add_event, event_for, public_move, written_events


def _classify_engine_error(exc: IllegalMove) -> PlayError:
    if (
        exc.http_status == 400
    ):  # the engine's verdict "not a move at all" (400), not "against the rules" (422)
        return MalformedMove(exc.message, code=exc.code, details=exc.details)
    return IllegalMoveError(exc.message, code=exc.code, details=exc.details)


def apply_and_log(
    *,
    game: Game,
    round_: Round,
    state: RoundState | Mapping[str, Any],
    player: str,
    move: Move,
    server_played: bool,
) -> tuple[Any, GameEvent]:
    """`move` applied to `state` (a round's state, or as stored: `Game.state`) and its event added. The engine
    runs in one stretch, then the event log (docs/architecture.md "Two requests, file by file")."""
    if not isinstance(state, RoundState):
        state = engine.state_from_dict(state)
    new_state = engine.apply_move(state, player, move)
    private: dict[str, Any] = {}
    if isinstance(move, DrawMove) and move.source == "stock":
        gained = Counter(new_state.hand_of(player)) - Counter(state.hand_of(player))
        drawn = sorted(gained.elements())
        if drawn:
            private[player] = {"card": drawn[0]} if len(drawn) == 1 else {"cards": drawn}
    shown = move.to_json()
    event = add_event(
        game,
        round_,
        "move",
        {
            "round": round_.number,
            "player": player,
            "move": public_move(shown),
            "server_played": server_played,
            "phase": new_state.phase,
        },
        private,
    )
    return new_state, event


def play_server_move(*, game: Game, round_: Round, state: RoundState, player: str, move: Move) -> Any:
    """A move the server plays for `player` (a timeout's, a practice bot's): applied, its event added and
    logged with `server_played`. Returns the new state. Caller holds the game lock and settles the state."""
    new_state, _event = apply_and_log(
        game=game, round_=round_, state=state, player=player, move=move, server_played=True
    )
    MoveLog(
        round=round_,
        game=game,
        player=player,
        user=None,
        move=move.to_json(),
        version=game.version,
        server_played=True,
    ).save(force_insert=True)
    return new_state


def submit_move(
    *,
    user: User,
    game_id: int,
    move: Move | Mapping[str, Any],
    expected_version: int,
    idempotency_key: str | None,
    request_path: str | None = None,
) -> dict[str, Any]:
    """A client's move (over HTTP, as `move_input.parse_move` read it; callers outside HTTP may pass its JSON).
    Returns {version, events}; a replayed key returns the first answer, a refusal included (kept under (user,
    POST, `request_path`, key); callers outside HTTP pass no path). Counted once committed: accepted, or refused
    by code (`operations.metrics`; a replay is counted as what it replays)."""
    try:
        answer = _submit_move(
            user=user,
            game_id=game_id,
            move=move,
            expected_version=expected_version,
            idempotency_key=idempotency_key,
            request_path=request_path,
        )
    except PlayError as exc:
        metrics.move_refused(code=str(exc.code))
        raise
    metrics.move_accepted()
    return answer


def _submit_move(
    *,
    user: User,
    game_id: int,
    move: Move | Mapping[str, Any],
    expected_version: int,
    idempotency_key: str | None,
    request_path: str | None,
) -> dict[str, Any]:
    try:
        move = engine.parse_move(move)
    except IllegalMove as exc:
        raise _classify_engine_error(exc) from exc
    fingerprint = idempotency.fingerprint({"move": move.to_json(), "expected_version": expected_version})
    refusal_key = (
        idempotency.RequestKey(user.pk, "POST", request_path, idempotency_key)
        if idempotency_key and request_path
        else None
    )
    refused: PlayError
    with transaction.atomic():
        context = lock_for_move(game_id=game_id, user=user, key=idempotency_key, path=request_path)
        if context is None:
            raise NotFound("No such game.", code=PlayCode.GAME_NOT_FOUND)
        if context.table.private and context.seated is None:
            raise NotFound("No such game.", code=PlayCode.GAME_NOT_FOUND)
        earlier = context.earlier
        if earlier is not None:
            if earlier.request_hash != fingerprint:
                raise KeyReused()
            if earlier.status is not None:
                raise idempotency.replayed_error(earlier.status, earlier.answer)
            return dict(earlier.answer or {})
        try:
            return _play_client_move(
                game=context.game,
                table=context.table,
                seated=context.seated,
                seat_statuses=context.seat_statuses,
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
    move: Move,
    expected_version: int,
    idempotency_key: str | None,
    fingerprint: str,
) -> dict[str, Any]:
    """`submit_move` under the game's lock, once the key has no earlier answer. Refuses (PlayError) before
    its first write."""
    username = user.get_username()
    if expected_version != game.version:
        raise StaleVersion(details={"version": game.version, "expected_version": expected_version})
    round_ = game.current_round  # read with the game under its lock (`lock_for_move`)
    if game.status != GameStatus.PLAYING or round_ is None or round_.ended_at is not None:
        raise Unprocessable("No round is being played at this table.", code=PlayCode.GAME_NO_ROUND_RUNNING)
    if username not in round_.players or seated is None:
        raise Forbidden("You are not playing this round.", code=PlayCode.GAME_NOT_A_PLAYER)
    assert game.state is not None
    try:
        new_state, _event = apply_and_log(
            game=game, round_=round_, state=game.state, player=username, move=move, server_played=False
        )
    except IllegalMove as exc:
        raise _classify_engine_error(exc) from exc
    move_version = game.version
    if seated.timeouts_in_row:
        seated.timeouts_in_row = 0
        seated.save(update_fields=["timeouts_in_row"])
    now = timezone.now()
    answer: dict[str, Any] = {}

    def log_move() -> list[tuple[str, list[Any]]]:
        # The version was `expected_version` under the lock: the events after it are the ones just added.
        events = written_events(game)
        answer.update(version=game.version, events=[event_for(e, username) for e in events])
        entry = MoveLog(
            round_id=round_.pk,
            game_id=game.pk,
            player=username,
            user_id=user.pk,
            move=move.to_json(),
            version=move_version,
            idempotency_key=idempotency_key or "",
            request_hash=fingerprint,
            server_played=False,
            response=answer,
        )
        # docs/performance.md#hand-written-statements: move-write
        # (the log row rides in the move's one write statement).
        return [rows.insert_sql([entry])]

    settle_state(
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
