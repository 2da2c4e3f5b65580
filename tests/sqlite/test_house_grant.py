"""The house grant and Unicode usernames on SQLite, over HTTP: a player registers with an accented name and gets
the welcome chips, the same name in capitals is refused (SQLite's own UPPER and LIKE fold ASCII letters only: the
folded-name table does it), the daily top-up is claimed once and refused the second time, and the ledger
reconciles."""

from __future__ import annotations

import pytest

from ledger.models import Transfer, TransferKind
from ledger.services import grants
from tests.clients import api_client
from tests.ledger.utils import assert_reconciled
from tests.sqlite.harness import Site
from tournaments.live.models import Table

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


def test_welcome_chips_a_daily_top_up_and_a_unicode_name(sqlite_site: Site) -> None:
    grants.configure(enabled=True, welcome_chips=300, daily_floor=1_000)
    admin = sqlite_site.admin()
    niccolo = sqlite_site.player("niccolò", chips=0, admin=admin)
    taken = api_client().post(
        "/api/v1/auth/register/",
        {"username": "NICCOLÒ", "password": "a-long-secret-9", "date_of_birth": "1990-01-01"},
    )
    assert taken.status_code == 400
    assert taken.json()["error"]["details"] == {"fields": {"username": ["This username is taken."]}}

    wallet = niccolo.get("/wallet/")
    assert wallet["balance"] == 300 and wallet["top_up"]["state"] == "available"
    claimed = niccolo.call("POST", "/wallet/top-up/", expect=201)
    assert claimed["balance"] == 1_000 and claimed["transfer"]["kind"] == "grant"
    again = niccolo.call("POST", "/wallet/top-up/", expect=409)
    assert again["error"]["code"] == "grant.already_claimed_today"
    assert niccolo.get("/wallet/")["top_up"]["state"] == "claimed_today"
    assert Transfer.objects.filter(kind=TransferKind.GRANT).count() == 2
    assert_reconciled()


def test_granted_chips_wait_for_public_tables_and_the_floor_counts_the_stacks(sqlite_site: Site) -> None:
    """The play-through and the top-up's floor on SQLite, over HTTP: a newcomer's welcome chips are refused at a
    private table and taken at a public one, where sitting 600 of them does not earn a top-up."""
    grants.configure(enabled=True, welcome_chips=1_000, daily_floor=500)
    admin = sqlite_site.admin()
    master = sqlite_site.player("master", chips=1_000, admin=admin)
    newbie = sqlite_site.player("newbie", chips=0, admin=admin)
    table = {"game": "rummy500", "seats": 2, "pcr": 1, "min_buy_in": 100, "max_buy_in": 1_000}
    private = master.post("/tables/", {**table, "private": True}, expect=201)
    public = admin.post("/tables/", table, expect=201)
    code = Table.objects.get(pk=private["id"]).code
    refused = newbie.call("POST", "/tables/join/", {"code": code, "buy_in": 100}, expect=422)
    assert refused["error"]["code"] == "table.grant_held" and refused["error"]["details"]["held"] == 1_000
    newbie.post(f"/tables/{public['id']}/sit/", {"buy_in": 600})
    above = newbie.call("POST", "/wallet/top-up/", expect=422)
    assert above["error"]["details"] == {"balance": 1_000, "at_tables": 600, "floor": 500}
    newbie.post(f"/tables/{public['id']}/leave/")
    assert newbie.get("/wallet/")["balance"] == 1_000
    assert Transfer.objects.filter(kind=TransferKind.GRANT).count() == 2  # the two welcomes, no top-up
    assert_reconciled()
