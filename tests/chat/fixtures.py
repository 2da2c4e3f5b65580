"""Chat's own fixtures: players seated at a table, and the lobby's writers."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.integrity.rounds import record_round
from tournaments.live.models import Table


def sit(client_for: Any, user: Any, table: Table) -> None:
    answer = client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200})
    assert answer.status_code == 200, answer.content


@pytest.fixture
def seated(make_table: Any, make_player: Any, client_for: Any) -> dict[str, Any]:
    """ann and bob seated at a public ring table; cid a registered bystander (a spectator)."""
    table = make_table()
    users = {name: make_player(name) for name in ("ann", "bob", "cid")}
    for name in ("ann", "bob"):
        sit(client_for, users[name], table)
    return {"table": table, "room": f"table:{table.pk}", "users": users}


@pytest.fixture
def veteran(make_table: Any, make_player: Any, client_for: Any) -> Callable[[str], Any]:
    """veteran("dan"): a player registered two days ago with a finished round (the lobby's writers)."""

    def make(name: str) -> Any:
        user = make_player(name)
        table = make_table()
        partner = make_player(f"{name}_partner")
        sit(client_for, user, table)
        sit(client_for, partner, table)
        record_round(table.pk)
        type(user).objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=2))
        user.refresh_from_db()
        return user

    return make
