"""Driving a practice table's round in the test's process: the bots' moves by their task's body
(`bot_turn`), the player's by the API's service (`submit_move`), a claim window closed at its deadline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from tournaments import engine
from tournaments.engine.bots import GreedyBot
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game, GameStatus, Round
from tournaments.live.moves.pipeline import submit_move
from tournaments.practice.bots import is_bot
from tournaments.practice.services import bot_turn


def play_out_round(*, game_id: int, player: Any, max_steps: int = 3000) -> Round:
    """Play the running round to its end; the player plays greedily."""
    name = player.get_username()
    human = GreedyBot()
    for _ in range(max_steps):
        game = Game.objects.select_related("current_round").get(pk=game_id)
        round_ = game.current_round
        assert round_ is not None
        if game.status != GameStatus.PLAYING:
            return round_
        state = engine.state_from_dict(game.state or {})
        may = [str(p) for p in state.may_act]
        if bot_turn(game_id=game_id, version=game.version):
            continue
        together = state.phase in ("claims", "deal")
        if name in may and (together or state.to_act == name):
            submit_move(
                user=player,
                game_id=game_id,
                move=human.choose(state, name),
                expected_version=game.version,
                idempotency_key=None,
            )
            continue
        if state.phase == "claims":
            Game.objects.filter(pk=game_id).update(claims_deadline=timezone.now() - timedelta(seconds=1))
            assert clock_runs.run_close_claims(game_id=game_id, version=game.version)
            continue
        raise AssertionError(f"nobody moves: may act {may}, bots {[p for p in may if is_bot(p)]}")
    raise AssertionError("the round did not end")
