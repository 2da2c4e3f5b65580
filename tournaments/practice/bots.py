"""The bots at practice tables: who they are (users whose names registration refuses, so no person can take
one), how strong (`BotLevel`), and how they move: one Celery task per bot turn, sent after one short human-like
pause, which plays the whole turn at once through the server's own move path (`moves.play_server_move`, as a
timeout's move). The task runs on the bots' own queue (`RAMINO_PRACTICE_BOTS_QUEUE`, docs/operations.md), so no
real table's clock waits behind a bot. A round whose player is gone (left, or absent after their timeouts) is
not played out by the bots: it is dropped and the table closes (`services.drop_and_close`)."""

from __future__ import annotations

import enum
import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments import engine
from tournaments.engine import RoundState
from tournaments.engine.bots import GreedyBot, RandomBot
from tournaments.engine.strong_bot import StrongBot
from tournaments.live import clock_targets, current_round, dispatch, lock_game, play_server_move, settle_state
from tournaments.live.models import Game, GameStatus, Seat, SeatStatus, Table
from tournaments.practice.models import BotLevel, PracticeTable
from tournaments.practice.task_names import BOT_MOVE

# A space is never in a registered name (accounts.usernames), so these stay the bots'.
BOT_NAMES = ("Bot Anna", "Bot Bruno", "Bot Carla")
# A bot's turn never needs more moves than this; past it the turn is left to its clock.
MAX_BOT_MOVES_PER_TURN = 60


class BotTurn(enum.Enum):
    NONE = "none"  # nothing to play (a stale or duplicated message)
    PLAYED = "played"  # a bot's turn was played
    DROP = "drop"  # the player is gone: the round is to be dropped


def bot_users(count: int) -> list[Any]:
    """The first `count` bots' users, made on first use (unusable password: nobody signs in as a bot)."""
    user_model = get_user_model()
    users = []
    for name in BOT_NAMES[:count]:
        user = user_model.objects.filter(username=name).first()
        if user is None:
            try:
                with transaction.atomic():
                    user = user_model(username=name)
                    user.set_unusable_password()
                    user.save()
            except IntegrityError:  # made meanwhile by another table's start
                user = user_model.objects.get(username=name)
        users.append(user)
    return users


def is_bot(username: str) -> bool:
    return username in BOT_NAMES


def _bot(level: str) -> Any:
    if level == BotLevel.EASY:
        return RandomBot()
    if level == BotLevel.HARD:
        return StrongBot()
    return GreedyBot()


def _bots_to_act(state: RoundState) -> list[str]:
    """The bots among those the turn clock would play for; in a "Rummy!" claim window, every bot may answer."""
    targets = [str(p) for p in state.may_act] if state.phase == "claims" else clock_targets(state)
    return [p for p in targets if is_bot(p)]


def pause_seconds() -> float:
    """How long a bot "thinks" before its turn: around the setting, never the same twice in a row."""
    base = float(settings.RAMINO_PRACTICE_BOT_DELAY_SECONDS)
    return base * random.uniform(0.6, 1.4)


def send_bot_move(*, game: Game, table: Table, state: RoundState) -> None:
    """The change hook of practice tables (`live.tables.policy.register_change_hook`): after any change, a bot that
    may act is sent its turn, after one pause."""
    if _bots_to_act(state):
        dispatch.enqueue(BOT_MOVE, [game.pk, game.version], pause_seconds())


def player_present(*, table_id: int, player_id: int) -> bool:
    """The practice table's person is still there: seated, neither leaving nor absent."""
    return Seat.objects.filter(
        table_id=table_id, player_id=player_id, status__in=(SeatStatus.ACTIVE, SeatStatus.SITTING_OUT)
    ).exists()


def play_bot_move(*, game_id: int, version: int) -> BotTurn:
    """A bot's whole turn, if the game is still at `version` and a bot may act: its moves played one after
    another with no pause and no other task between them, until its turn passes, a "Rummy!" claim window
    opens or the round ends (the next bot's turn is sent by the change hook, after its own pause). When the
    player is gone, nothing is played: the caller drops the round (`BotTurn.DROP`)."""
    with transaction.atomic():
        locked = lock_game(game_id)
        if locked is None:
            return BotTurn.NONE
        table, game = locked
        if game.version != version or game.status != GameStatus.PLAYING or game.state is None:
            return BotTurn.NONE
        round_ = current_round(game)
        assert round_ is not None
        state = engine.state_from_dict(game.state)
        bots = _bots_to_act(state)
        if not bots:
            return BotTurn.NONE
        practice = PracticeTable.objects.get(table_id=table.pk)
        if not player_present(table_id=table.pk, player_id=practice.player_id):
            return BotTurn.DROP
        bot = _bot(practice.level)
        player = bots[0]
        phase = state.phase
        for _ in range(MAX_BOT_MOVES_PER_TURN):
            move = engine.parse_move(bot.choose(state, player))
            state = play_server_move(game=game, round_=round_, state=state, player=player, move=move)
            if state.result is not None or player not in _bots_to_act(state):
                break
            if state.phase == "claims" and phase != "claims":
                break  # every bot may answer a claim window: each after its own pause
        settle_state(game=game, table=table, round_=round_, state=state, now=timezone.now())
        return BotTurn.PLAYED
