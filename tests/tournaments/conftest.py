"""Fixtures for tables and live play: funded users with API clients, and tables."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.ledger.utils import funded_wallet, make_user
from tournaments.live import round_start, tables
from tournaments.live.models import Table

_serial = itertools.count(1)

FAST_CLOCKS = {"turn_seconds": 1, "time_bank_seconds": 0, "max_timeouts": 2, "max_timeouts_per_round": 6}


@pytest.fixture(autouse=True)
def _no_throttle_state(settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 0


@pytest.fixture
def player() -> Callable[..., Any]:
    """player("ann", chips=10_000, is_staff=False, is_superuser=False) -> a user with a funded wallet."""

    def make(name: str | None = None, *, chips: int = 10_000, **extra: Any) -> Any:
        user = make_user(name or f"p{next(_serial)}", **extra)
        if chips:
            funded_wallet(user, chips)
        return user

    return make


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    def make(user: Any) -> APIClient:
        client = APIClient()
        client.default_format = "json"
        if user is not None:
            client.force_authenticate(user=user)
        return client

    return make


@pytest.fixture
def admin_user(player: Callable[..., Any]) -> Any:
    return player("root", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_user(player: Callable[..., Any]) -> Any:
    return player("auditor", is_staff=True)


@pytest.fixture
def make_table(admin_user: Any) -> Callable[..., Table]:
    def make(*, private: bool = False, creator: Any = None, **overrides: Any) -> Table:
        fields: dict[str, Any] = {
            "game": "rummy500",
            "options": dict(FAST_CLOCKS, turn_seconds=30),
            "seats": 4,
            "pcr": 1,
            "min_buy_in": 100,
            "max_buy_in": 2000,
            "multiplier": 1,
            **overrides,
        }
        return tables.create_table(user=creator or admin_user, private=private, **fields)

    return make


@pytest.fixture
def dealt(make_table: Any, player: Any, client_for: Any) -> dict[str, Any]:
    """ann and bob at a fresh ring table with round 1 dealt: {"game", "mover" (the player to act), "users"}."""
    from tournaments.live.models import Game

    table = make_table()
    users = {name: player(name) for name in ("ann", "bob")}
    for user in users.values():
        client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200})
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)
    game.refresh_from_db()
    return {"game": game, "mover": users[game.turn_player], "users": users}
