"""The bots at practice tables: who they are (users whose names registration refuses, so no person can take
one), how strong (`BotLevel`), and how they move: one move per Celery task, a short human-like pause apart,
through the server's own move path (`moves.play_server_move`, as a timeout's move)."""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.engine.bots import GreedyBot, RandomBot
from tournaments.engine.strong_bot import StrongBot
from tournaments.live import dispatch, engine_io
from tournaments.live.advance import settle_state
from tournaments.live.clocks import clock_targets
from tournaments.live.engine_io import RoundState
from tournaments.live.game_locks import current_round, lock_game
from tournaments.live.models import Game, GameStatus, Seat, SeatStatus, Table
from tournaments.live.moves import play_server_move
from tournaments.practice.models import BotLevel, PracticeTable
from tournaments.practice.task_names import BOT_MOVE

# A space is never in a registered name (accounts.usernames), so these stay the bots'.
BOT_NAMES = ("Bot Anna", "Bot Bruno", "Bot Carla")
# A bot's turn never needs more moves than this; past it the turn is left to its clock.
MAX_BOT_MOVES_PER_TURN = 60


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
    if engine_io.phase(state) == "claims":
        targets = [str(p) for p in engine_io.may_act(state)]
    else:
        targets = clock_targets(state)
    return [p for p in targets if is_bot(p)]


def pause_seconds() -> float:
    """How long a bot "thinks" before a move: around the setting, never the same twice in a row."""
    base = float(settings.RAMINO_PRACTICE_BOT_DELAY_SECONDS)
    return base * random.uniform(0.6, 1.4)


def send_bot_move(*, game: Game, table: Table, state: RoundState) -> None:
    """The change hook of practice tables (`live.policy.register_change_hook`): after any change, a bot that
    may act is sent its move, after a pause."""
    if _bots_to_act(state):
        dispatch.enqueue(BOT_MOVE, [game.pk, game.version], pause_seconds())


def play_bot_move(*, game_id: int, version: int) -> bool:
    """A bot's move, if the game is still at `version` and a bot may act. While the player is away (leaving,
    absent) the bots play on without pausing until the player's turn, so the round ends soon. True when a
    move was played."""
    with transaction.atomic():
        locked = lock_game(game_id)
        if locked is None:
            return False
        table, game = locked
        if game.version != version or game.status != GameStatus.PLAYING or game.state is None:
            return False
        round_ = current_round(game)
        assert round_ is not None
        state = engine_io.load_state(game.state)
        bots = _bots_to_act(state)
        if not bots:
            return False
        practice = PracticeTable.objects.get(table_id=table.pk)
        bot = _bot(practice.level)
        player_away = not Seat.objects.filter(
            table=table, player_id=practice.player_id, status=SeatStatus.ACTIVE
        ).exists()
        for _ in range(MAX_BOT_MOVES_PER_TURN):
            player = bots[0]
            move = engine_io.parse_move(bot.choose(state, player))
            state = play_server_move(game=game, round_=round_, state=state, player=player, move=move)
            bots = _bots_to_act(state)
            if not player_away or not bots or engine_io.result(state) is not None:
                break
        settle_state(game=game, table=table, round_=round_, state=state, now=timezone.now())
        return True
