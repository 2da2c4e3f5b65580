"""Rated results made quickly: a finished ring-table round as its row and `round_over` event, as round_end
writes them (the ratings read nothing else of a round), and players with funded wallets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from tests.factories import PlayerFactory, TableFactory
from tournaments.live.models import Game, GameEvent, Round, Table


@pytest.fixture
def make_player() -> Callable[..., Any]:
    def make(name: str, *, chips: int = 10_000, **extra: Any) -> Any:
        return PlayerFactory.create(username=name, chips=chips, **extra)

    return make


@pytest.fixture
def make_table() -> Callable[..., Table]:
    def make(**overrides: Any) -> Table:
        return TableFactory.create(**overrides)

    return make


def finish_round(table: Table, scores: dict[str, int], *, redeal: bool = False) -> Round:
    """A settled round of `table` with these scores, and its `round_over` event."""
    game = Game.objects.get(table=table)
    number = Round.objects.filter(game=game).count() + 1
    round_ = Round.objects.create(
        game=game,
        number=number,
        players=list(scores),
        dealer=0,
        deal_commitment="c",
        result={"redeal": redeal, "scores": scores},
        scores=None if redeal else scores,
        ended_at=timezone.now(),
        settled=True,
    )
    version = (
        GameEvent.objects.filter(game=game).order_by("-version").values_list("version", flat=True).first()
        or 0
    ) + 1
    GameEvent.objects.create(game=game, version=version, round=round_, kind="round_over", public={})
    return round_
