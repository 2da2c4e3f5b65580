"""A small world for the API-wide checks: a public table with two players and a dealt round, staff, an
admin, an outsider, ledger transfers and a recorded reconciliation run; one client per user."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

from ledger.models import Transfer
from ledger.services import accounts, reconciliation
from tests.clients import api_client
from tests.factories import AdminFactory, PlayerFactory, StaffFactory, TableFactory
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Game, Table
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables


@dataclass
class World:
    table: Table
    game: Game
    users: dict[str, Any]
    clients: dict[str, APIClient] = field(default_factory=dict)

    def url(self, template: str) -> str:
        account = accounts.get_wallet(user=self.users["ann"]).pk
        transfer = Transfer.objects.order_by("id").values_list("pk", flat=True)[0]
        return template.format(table=self.table.pk, game=self.game.pk, account=account, transfer=transfer)

    def client(self, name: str | None) -> APIClient:
        """The client of user `name`, or an anonymous one for None."""
        key = name or ""
        if key not in self.clients:
            self.clients[key] = api_client(None if name is None else self.users[name])
        return self.clients[key]


@pytest.fixture(autouse=True)
def _no_throttle_state() -> None:
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def world(db: None) -> Iterator[World]:
    users = {
        **{name: PlayerFactory.create(username=name, chips=5_000) for name in ("ann", "bob", "cid")},
        "staff": StaffFactory.create(username="auditor"),
        "admin": AdminFactory.create(username="root"),
    }
    table = TableFactory.create(creator=users["admin"], options={"turn_seconds": 30})
    for name in ("ann", "bob"):
        tables.sit(user=users[name], table_id=table.pk, buy_in=300)
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)
    reconciliation.run_reconciliation(trigger="manual")
    yield World(table=table, game=game, users=users)
    assert_reconciled()
