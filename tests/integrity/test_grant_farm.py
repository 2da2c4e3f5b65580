"""The grant farm of issue 31 played against the site: six new accounts try to hand their welcome chips and
daily top-ups to one "master" at his private heads-up table of PCR 1,000 (refused: the grants do not move),
then at a public heads-up table, where each loses its stack in one round; the integrity job then raises one
`grant_farming` flag naming the master, the six accounts and the chips each moved (docs/integrity.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone

from integrity import services
from integrity.models import Flag, FlagStatus
from ledger.models import Transfer, TransferKind
from ledger.selectors import wallet_balance
from ledger.services import grants
from tests.clients import api_client, signed_in
from tests.factories import AdminFactory, PlayerFactory, TableFactory
from tests.integrity.rounds import record_round
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Table

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-secret-9"
WELCOME, FLOOR = 750, 1_000
FARM = [f"farm{i}" for i in range(1, 7)]


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    cache.clear()


def _later() -> Any:
    return timezone.now() + timedelta(minutes=5)


def _register(name: str) -> Any:
    answer = api_client().post(
        "/api/v1/auth/register/", {"username": name, "password": PASSWORD, "date_of_birth": "1990-01-01"}
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["welcome_chips"] == WELCOME
    return signed_in(name, PASSWORD)


def test_the_farm_ends_with_the_grants_unmoved_and_a_flag_naming_the_chips() -> None:
    grants.configure(enabled=True, welcome_chips=WELCOME, daily_floor=FLOOR)
    master = PlayerFactory.create(username="master", chips=1_000)
    boss = api_client(master)
    created = boss.post(
        "/api/v1/tables/",
        {
            "game": "rummy500",
            "seats": 2,
            "pcr": 1_000,
            "min_buy_in": 100,
            "max_buy_in": 1_000,
            "private": True,
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    code = Table.objects.get(pk=created.json()["id"]).code

    farm = {name: _register(name) for name in FARM}
    for client in farm.values():
        # The welcome chips, then the day's top-up to the floor: both held for public tables.
        assert client.post("/api/v1/wallet/top-up/").status_code == 201
        for buy_in in (FLOOR, 1):
            refused = client.post("/api/v1/tables/join/", {"code": code, "buy_in": buy_in})
            assert refused.status_code == 422, refused.content
            assert refused.json()["error"]["code"] == "table.grant_held"
            assert refused.json()["error"]["details"]["held"] == FLOOR
    granted = Transfer.objects.filter(kind=TransferKind.GRANT)
    assert granted.count() == 2 * len(FARM)
    # The grants did not move: every farm wallet holds them, the master holds what he had.
    User = master.__class__
    for name in FARM:
        assert wallet_balance(user=User.objects.get(username=name)) == FLOOR
    assert wallet_balance(user=master) == 1_000
    assert not Transfer.objects.filter(kind=TransferKind.BUY_IN, table_id=created.json()["id"]).exists()

    # The farm moves to public heads-up tables (the rule lets granted chips play there): each account loses
    # its stack to the master in one round.
    admin = AdminFactory.create(username="root")
    for name, client in farm.items():
        table = TableFactory.create(creator=admin, seats=2, pcr=1_000, max_buy_in=FLOOR)
        assert boss.post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 100}).status_code == 200
        assert client.post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": FLOOR}).status_code == 200
        record_round(table.pk, payments=[(name, "master", FLOOR)])
        for player in (boss, client):
            assert player.post(f"/api/v1/tables/{table.pk}/leave/").status_code == 200
    assert wallet_balance(user=master) == 1_000 + len(FARM) * FLOOR

    summary = services.run_checks(now=_later())
    assert summary.rounds == len(FARM)
    flag = Flag.objects.get(kind="grant_farming")
    assert flag.players == ["master", *FARM] and flag.subject == "master" and flag.score == len(FARM)
    evidence = flag.evidence
    assert evidence["chips"] == len(FARM) * FLOOR
    assert evidence["payers"] == dict.fromkeys(FARM, FLOOR)
    assert evidence["grants"] == dict.fromkeys(FARM, FLOOR)
    assert evidence["chips_moved"] == [{"from": name, "to": "master", "chips": FLOOR} for name in FARM]
    settlements = Transfer.objects.filter(kind=TransferKind.SETTLEMENT)
    assert sorted(evidence["transfers"]) == sorted(settlements.values_list("pk", flat=True))
    assert len(evidence["rounds"]) == len(FARM) and len(evidence["tables"]) == len(FARM)
    # One pair at a time, nothing else saw it: one round each is far below chip dumping's 20.
    assert not Flag.objects.filter(kind="chip_dumping").exists()
    # Every account sat from one address (the test client's): each table's shared-address flag names the
    # chips that moved between its accounts too.
    shared = Flag.objects.filter(kind="shared_address")
    assert shared.count() == len(FARM)
    assert all(f.evidence["chips"] == FLOOR and len(f.evidence["chips_moved"]) == 1 for f in shared)

    # Staff see it on the API with its chips; deciding it restarts the count, and re-running adds nothing.
    staff = api_client(PlayerFactory.create(username="warden", is_staff=True))
    listed = staff.get("/api/v1/integrity/flags/", {"kind": "grant_farming"}).json()["results"]
    assert [f["evidence"]["chips"] for f in listed] == [len(FARM) * FLOOR]
    services.decide(flag_id=flag.pk, status=FlagStatus.CONFIRMED, note="a farm", by=admin)
    again = services.run_checks(now=_later())
    assert again.flags_raised == 0 and Flag.objects.filter(kind="grant_farming").count() == 1
    assert_reconciled()
