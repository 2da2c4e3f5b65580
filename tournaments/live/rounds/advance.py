"""After every change to a running round: store the new state with its events, then end the round or arm
the clock that follows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from tournaments import engine
from tournaments.engine import RoundState
from tournaments.live.clocks.arming import arm_clocks
from tournaments.live.models import Game, Round, Table
from tournaments.live.rounds.end import finish_round
from tournaments.live.storage.events import store_game
from tournaments.live.tables import policy as table_policy


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
    game.state = engine.state_to_dict(state)
    writes: list[tuple[str, list[Any]]] = []
    if state.result is not None:
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
