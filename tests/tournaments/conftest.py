"""Fixtures for tables and live play: funded users with API clients, and tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.clients import api_client
from tests.factories import PlayerFactory, TableFactory
from tournaments.live.models import Table
from tournaments.live.rounds import start as round_start


@pytest.fixture(autouse=True)
def _no_throttle_state(settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 0


@pytest.fixture
def make_player() -> Callable[..., Any]:
    """make_player("ann", chips=10_000, is_staff=False, is_superuser=False) -> a user with a funded wallet
    (tests.factories.PlayerFactory)."""

    def make(name: str | None = None, *, chips: int = 10_000, **extra: Any) -> Any:
        if name is not None:
            extra["username"] = name
        return PlayerFactory.create(chips=chips, **extra)

    return make


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    """client_for(user) -> an API client authenticated as `user` (None: anonymous), tests.clients.api_client."""
    return api_client


@pytest.fixture
def admin_user(make_player: Callable[..., Any]) -> Any:
    return make_player("root", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_user(make_player: Callable[..., Any]) -> Any:
    return make_player("auditor", is_staff=True)


@pytest.fixture
def make_table(admin_user: Any) -> Callable[..., Table]:
    """make_table(private=False, creator=admin_user, **settings) -> a ring table (tests.factories.TableFactory)."""

    def make(*, private: bool = False, creator: Any = None, **overrides: Any) -> Table:
        return TableFactory.create(creator=creator or admin_user, private=private, **overrides)

    return make


@pytest.fixture
def dealt(make_table: Any, make_player: Any, client_for: Any) -> dict[str, Any]:
    """ann and bob at a fresh ring table with round 1 dealt: {"game", "mover" (the player to act), "users"}."""
    from tournaments.live.models import Game

    table = make_table()
    users = {name: make_player(name) for name in ("ann", "bob")}
    for user in users.values():
        client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200})
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)
    game.refresh_from_db()
    return {"game": game, "mover": users[game.turn_player], "users": users}
