"""After every change to a running round: store the new state with its events, then end the round or arm
the clock that follows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from tournaments.live import engine_io
from tournaments.live import policy as table_policy
from tournaments.live.clocks import arm_clocks
from tournaments.live.engine_io import RoundState
from tournaments.live.game_log import store_game
from tournaments.live.models import Game, Round, Table
from tournaments.live.round_end import finish_round


def settle_state(
    *,
    game: Game,
    table: Table,
    round_: Round,
    state: RoundState,
    now: datetime,
    seat_statuses: Mapping[str, str] | None = None,
    also: Callable[[], Sequence[tuple[str, list[Any]]]] | None = None,
    reuse_clock: bool = False,
) -> None:
    """Store `state` and the events added since the last store, then end the round or arm the clock that
    follows. Caller holds the locks.

    `seat_statuses` (username -> status of the seated players), when the caller read them under the game
    lock, saves `arm_clocks` a query; `also` builds statements (from the game as settled) written in the
    same round trip."""
    game.state = engine_io.dump_state(state)
    writes: list[tuple[str, list[Any]]] = []
    if engine_io.result(state) is not None:
        writes = finish_round(game=game, table=table, round_=round_, state=state, now=now)
    else:
        arm_clocks(
            game=game,
            table=table,
            round_=round_,
            state=state,
            now=now,
            seat_statuses=seat_statuses,
            reuse_clock=reuse_clock,
        )
        hook = table_policy.change_hook(table)
        if hook is not None:
            hook(game=game, table=table, state=state)
    store_game(game, before=writes, after=also)
