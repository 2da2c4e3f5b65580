"""Reads of finished rounds for the people who played them (docs/api.md "Replays"): a round replayed step by
step from its revealed deal and its move log, and a player's own rounds, newest first."""

from __future__ import annotations

import json
import logging
from typing import Any, NoReturn

from django.conf import settings
from django.contrib.auth.models import User as Player
from django.core.cache import cache
from django.db.models import QuerySet

from tournaments.errors import Conflict, NotFound, PlayCode
from tournaments.live.models import Game, GameEvent, MoveLog, Round, RoundPlayer, Table
from tournaments.live.rounds.replays import CLOSE_CLAIMS, LoggedStep, ReplayError, replay_round
from tournaments.live.storage.selectors import User, game_access
from tournaments.live.tables import settings as table_settings

logger = logging.getLogger(__name__)


def _no_round() -> NotFound:
    return NotFound("No such round.", code=PlayCode.ROUND_NOT_FOUND)


def round_replay(*, user: User, game_id: int, number: int) -> dict[str, Any]:
    """`{round, players, dealer, steps, result, practice}` of round `number` of the game, for its players (whether or not
    they are still seated) and staff, once it is over; each step's view is the caller's own if they played the
    round, else the spectator's. 404 `game.not_found` as `GET /games/{id}/` answers it, `round.not_found` for
    anyone else, a round not over, or no such round; 409 `round.not_replayable` for a round that has no
    replay (an instant round's) or whose record does not replay (logged as an error: a server fault)."""
    access = game_access(user=user, game_id=game_id)
    round_ = Round.objects.filter(game_id=access.game.pk, number=number).first()
    if round_ is None or round_.ended_at is None:
        raise _no_round()
    played = access.username is not None and access.username in round_.players
    if not (played or access.staff):
        raise _no_round()
    # A finished round never changes: its replay is built once per viewer (the viewer's own hand is in every
    # step, so one player's answer is never another's) and kept in the cache.
    key = _replay_key(round_, viewer_id=access.user.pk if played else None)
    cached = cache.get(key)
    if cached is not None:
        return dict(cached)
    answer = _build_replay(round_, access.game, viewer=access.username if played else None)
    cache.set(key, answer, timeout=int(settings.RAMINO_REPLAY_CACHE_SECONDS))
    return answer


def _replay_key(round_: Round, *, viewer_id: int | None) -> str:
    """The cache key of a round's replay as one viewer sees it: the player's own (by user id) or the
    spectator's (staff who did not play). The deal commitment is in it too, so that a key never outlives its
    round (a test database that hands out the same id again)."""
    viewer = "spectator" if viewer_id is None else f"player-{viewer_id}"
    return f"ramino:replay:1:{round_.pk}:{round_.deal_commitment}:{viewer}"


def _build_replay(round_: Round, game: Game, *, viewer: str | None) -> dict[str, Any]:
    """The replay of a finished round for `viewer` (a username who played it; None: the spectator's view),
    rebuilt and checked against the round's record."""
    result = round_.result or {}
    if (result.get("details") or {}).get("reason") == "instant":
        # A simulation's round, ended with drawn scores before any move: nothing to replay, and no fault.
        raise Conflict(
            "This round was not played move by move: it has no replay.", code=PlayCode.ROUND_NOT_REPLAYABLE
        )
    try:
        replay = replay_round(
            rules=_round_rules(round_, game),
            players=list(round_.players),
            dealer=round_.dealer,
            deck=list(round_.deck or ()),
            salt=round_.salt,
            round_number=round_.number,
            moves=logged_steps(round_=round_),
            viewer=viewer,
            seats=round_.seat_numbers,
        )
    except ReplayError as exc:
        _unreplayable(round_, exc.args[0])
    if replay.commitment != round_.deal_commitment:
        _unreplayable(round_, "the revealed deck and salt are not those the deal committed to")
    if _plain(replay.result) != _plain(result) or replay.steps[-1]["view"].get("scores") != round_.scores:
        _unreplayable(round_, "the move log does not end in the recorded result")
    return {
        "round": round_.number,
        "players": list(round_.players),
        "dealer": round_.players[round_.dealer],
        "steps": replay.steps,
        "result": {**result, "transfers": list(round_.transfers)},
        "practice": game.table.practice,
    }


def _unreplayable(round_: Round, reason: str) -> NoReturn:
    """A finished round whose own record does not replay: corrupted or hand-edited rows, or an engine that no
    longer plays its moves as it did. Nothing the caller sent causes it, so it is logged as an error for the
    operators; the caller gets a 409 naming the round, not a 500."""
    logger.error(
        "round %s (game %s, round %s) does not replay: %s", round_.pk, round_.game_id, round_.number, reason
    )
    raise Conflict(
        "This round's record does not replay; the operators have been told.",
        code=PlayCode.ROUND_NOT_REPLAYABLE,
        details={"round": round_.number},
    )


def _plain(value: Any) -> Any:
    """A value as stored in a JSON column (tuples are lists, keys strings)."""
    return json.loads(json.dumps(value))


def _round_rules(round_: Round, game: Game) -> dict[str, Any]:
    """The ruleset the round was dealt with: its own (`Round.rules`); for a round dealt before rounds kept it,
    the game's state's if it is the game's last round, else the table's game and options now (a change made
    since then shows as a record that does not replay)."""
    if round_.rules is not None:
        return dict(round_.rules)
    if game.current_round_id == round_.pk and game.state:
        return dict(game.state["rules"])
    table: Table = game.table
    return {"preset": table.game, "options": table_settings.split_options(table.options)[0]}


def logged_steps(*, round_: Round) -> list[LoggedStep]:
    """The round's changes after its deal, in order: its moves (`MoveLog`, the server's included) and the claim
    windows the server closed at their deadline (`claims_closed` events). A round's events have consecutive
    versions from its deal to its end, and no window opens before the first move, so the closures are the
    `claims_closed` events from the first move up to the version after the last one (a window the last move
    opened, closed to end the round)."""
    moves = list(
        MoveLog.objects.filter(round=round_).order_by("version").values_list("version", "player", "move")
    )
    if not moves:
        return []
    closed = GameEvent.objects.filter(
        game_id=round_.game_id,
        version__gt=moves[0][0],
        version__lte=moves[-1][0] + 1,
        kind="claims_closed",
        round_id=round_.pk,
    ).values_list("version", flat=True)
    timeline = [(version, LoggedStep(player=player, move=move)) for version, player, move in moves]
    timeline += [(version, LoggedStep(player=None, move=CLOSE_CLAIMS)) for version in closed]
    return [step for _, step in sorted(timeline, key=lambda item: item[0])]


# ------------------------------------------------------------------------------------------------- my rounds


def my_rounds(*, user: Player) -> QuerySet[RoundPlayer]:
    """The caller's finished rounds, newest first (by when they were dealt), through the (user, round) index;
    each row with its round, game and table (`my_round_row`)."""
    return (
        RoundPlayer.objects.filter(user=user, round__ended_at__isnull=False)
        .select_related("round__game__table")
        .defer("round__deck", "round__salt", "round__result", "round__transfers", "round__stacks")
        .defer("round__time_bank", "round__rules", "round__game__state")
        .order_by("-round_id")
    )


def my_round_row(row: RoundPlayer, *, username: str) -> dict[str, Any]:
    round_ = row.round
    table = round_.game.table
    return {
        "game": round_.game_id,
        "round": round_.number,
        "table": table.pk,
        "preset": table.game,
        "practice": table.practice,
        "players": list(round_.players),
        "score": (round_.scores or {}).get(username),
        "ended_at": round_.ended_at.isoformat() if round_.ended_at else None,
    }
