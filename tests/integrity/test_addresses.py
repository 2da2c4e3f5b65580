"""Sitting down (by id or by a private table's code) records the client's address on the seat, by the same rule
as the throttles (security.addresses): the integrity job's shared-address signal reads it."""

from __future__ import annotations

import pytest

from tests.clients import api_client
from tests.factories import PlayerFactory, TableFactory
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Seat

pytestmark = pytest.mark.django_db


def test_sit_and_join_record_the_client_address() -> None:
    ann, bob = PlayerFactory.create(username="ann"), PlayerFactory.create(username="bob")
    table = TableFactory.create(private=True, creator=ann)
    sat = api_client(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 500}, REMOTE_ADDR="203.0.113.9")
    assert sat.status_code == 200, sat.content
    joined = api_client(bob).post(
        "/api/v1/tables/join/", {"code": table.code, "buy_in": 500}, REMOTE_ADDR="198.51.100.4"
    )
    assert joined.status_code == 200, joined.content
    assert dict(Seat.objects.values_list("player__username", "address")) == {
        "ann": "203.0.113.9",
        "bob": "198.51.100.4",
    }
    assert_reconciled()
