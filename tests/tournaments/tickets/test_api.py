"""docs/api.md "Tickets and satellites": an admin grants tickets over HTTP (reason, Idempotency-Key), a player lists theirs and
registers paying with one; a tournament shows its satellite target and its tickets-only rule."""

from __future__ import annotations

from typing import Any

import pytest

from tests.clients import api_client
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import new_multi
from tests.tournaments.single_table.helpers import new_tournament

pytestmark = pytest.mark.django_db


def test_a_granted_ticket_is_listed_and_pays_a_registration_over_http(
    make_player: Any, admin_user: Any
) -> None:
    target = new_multi(admin_user, tickets_only=True)
    ann = make_player("api-ann", chips=0)
    admin = api_client(admin_user)
    body = {"username": "api-ann", "tournament": target.pk, "count": 1, "reason": "qualifier promotion"}
    assert admin.post("/api/v1/tickets/grant/", body).status_code == 400  # no Idempotency-Key
    first = admin.post("/api/v1/tickets/grant/", body, HTTP_IDEMPOTENCY_KEY="g-1")
    again = admin.post("/api/v1/tickets/grant/", body, HTTP_IDEMPOTENCY_KEY="g-1")
    assert first.status_code == 201 and again.json()["id"] == first.json()["id"]
    assert api_client(ann).post("/api/v1/tickets/grant/", body, HTTP_IDEMPOTENCY_KEY="g-2").status_code == 403
    bad = admin.post("/api/v1/tickets/grant/", {**body, "tournament": None}, HTTP_IDEMPOTENCY_KEY="g-3")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "ticket.invalid"
    player = api_client(ann)
    listed = player.get("/api/v1/me/tickets/").json()["tickets"]
    assert listed == [
        {
            "chip_type": f"ticket:tournament:{target.pk}",
            "count": 1,
            "target_kind": "tournament",
            "target_id": target.pk,
            "target_name": target.name,
            "face_value": 110,
            "target_status": "registering",
        }
    ]
    shown = player.get(f"/api/v1/tournaments/{target.pk}/").json()
    assert shown["tickets_only"] is True and shown["satellite_target"] is None
    assert player.post(f"/api/v1/tournaments/{target.pk}/register/", {"payment": "gold"}).status_code == 400
    entered = player.post(f"/api/v1/tournaments/{target.pk}/register/", {"payment": "ticket"})
    assert entered.status_code == 201, entered.json()
    assert player.get("/api/v1/me/tickets/").json() == {"tickets": []}
    assert_reconciled()


def test_a_chip_entry_into_a_tickets_only_tournament_names_the_rule(
    make_player: Any, admin_user: Any
) -> None:
    target = new_tournament(admin_user, tickets_only=True)
    answer = api_client(make_player("api-bob")).post(f"/api/v1/tournaments/{target.pk}/register/")
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "tournament.entry_rule"
    assert answer.json()["error"]["details"] == {"rule": "tickets_only"}


def test_an_admin_creates_a_satellite_over_http(admin_user: Any) -> None:
    target = new_multi(admin_user)
    body = {
        "name": "Qualifier",
        "kind": "quick",
        "game": "rummy500",
        "buy_in": 20,
        "max_entrants": 4,
        "rounds": 1,
        "satellite_target": target.pk,
    }
    created = api_client(admin_user).post("/api/v1/tournaments/", body)
    assert created.status_code == 201, created.json()
    assert created.json()["satellite_target"] == target.pk
