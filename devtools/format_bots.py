"""Bots that rebuy and take the add-on (docs/rules.md "Rebuys and the add-on") in a tournament driven in this
process: after each table's job, every player at that table without chips rebuys with `rebuy_odds`, one short of
chips (some, at most the starting stack: the rule allows it) with `short_odds`, every player at an add-on break
takes it with `addon_odds`; the services' refusals are the rules' (and a wallet too short) and are ignored.
Used by `simulate_tournament --kind multi` (as an `Observer`) and the tests (`act_at_table`)."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from api.errors import ServiceError
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Seat
from tournaments.multi_table import rebuys
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament.models import Tournament


def act_at_table(
    tournament_id: int,
    table_id: int,
    rng: random.Random,
    *,
    rebuy_odds: float,
    addon_odds: float,
    short_odds: float = 0.0,
) -> int:
    """The players of `table_id` rebuy and take the add-on as the odds say; answers how many bought. A short
    stack's chance is drawn only when `short_odds` is set (the draws of a run without it are unchanged)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.rebuy_levels <= 0 or tournament.status not in rebuys.IN_PLAY:
        return 0
    game = Game.objects.select_related("current_round").filter(table_id=table_id).first()
    if game is None or game.status != GameStatus.WAITING:
        return 0
    number = game.current_round.number if game.current_round else None
    addon = rebuys.table_at_addon_break(tournament, number)
    starting = int(tournament.starting_stack or 0)
    bought = 0
    for seat in Seat.objects.filter(table_id=table_id, status__in=SEATED_STATUSES).select_related(
        "player", "stack_account"
    ):
        if addon and rng.random() < addon_odds:
            bought += _try(rebuys.take_addon, tournament_id, seat.player)
        if (seat.chips <= 0 and rng.random() < rebuy_odds) or (
            short_odds and 0 < seat.chips <= starting and rng.random() < short_odds
        ):
            bought += _try(rebuys.rebuy, tournament_id, seat.player)
    return bought


def _try(service: Any, tournament_id: int, user: Any) -> int:
    with contextlib.suppress(ServiceError):
        service(tournament_id=tournament_id, user=user)
        return 1
    return 0


class FormatBots:
    """An observer of the simulation's steps (`multi_table_simulation.Observer`): after each table's job, its
    players buy; `inner` is called first."""

    def __init__(
        self,
        tournament_id: int,
        *,
        seed: int,
        rebuy_odds: float,
        addon_odds: float,
        short_odds: float = 0.0,
        inner: Any = None,
    ) -> None:
        self.tournament_id = tournament_id
        self.rng = random.Random(seed)
        self.rebuy_odds = rebuy_odds
        self.addon_odds = addon_odds
        self.short_odds = short_odds
        self.inner = inner
        self.bought = 0

    def before(self, step: Any) -> None:
        if self.inner is not None:
            self.inner.before(step)

    def after(self, step: Any, result: Any) -> None:
        if self.inner is not None:
            self.inner.after(step, result)
        if step.name == TABLE_ROUND_OVER:
            self.bought += act_at_table(
                self.tournament_id,
                int(step.args[1]),
                self.rng,
                rebuy_odds=self.rebuy_odds,
                addon_odds=self.addon_odds,
                short_odds=self.short_odds,
            )
