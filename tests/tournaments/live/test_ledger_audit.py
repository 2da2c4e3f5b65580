"""Staff auditing a player's payouts: the ledger's `?player=` filter and the admin's transfer search find the
settlements a player won or lost at a table (they move chips between seat stacks, not wallets)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Account, AccountKind, Transfer, TransferKind
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import settle_a_round_that_moves_chips
from tournaments.live.models import Seat

pytestmark = pytest.mark.django_db


def test_a_players_settlements_are_found_by_the_player_filter_and_the_admin_search(
    dealt: dict[str, Any], client_for: Any, staff_user: Any, admin_user: Any
) -> None:
    round_ = settle_a_round_that_moves_chips(dealt, client_for)
    settlement = Transfer.objects.get(round_id=round_.pk, kind=TransferKind.SETTLEMENT)
    stacks = {seat.player.username: seat.stack_account for seat in Seat.objects.select_related("player")}
    for name in ("ann", "bob"):
        assert stacks[name].kind == AccountKind.SEAT_STACK and stacks[name].user == dealt["users"][name]

    for name in ("ann", "bob"):
        body = client_for(staff_user).get("/api/v1/ledger/transfers/", {"player": name}).json()
        found = {row["id"]: row for row in body["results"]}
        assert settlement.pk in found, f"{name}'s settlement is missing"
        legs = {leg["account"]: leg for leg in found[settlement.pk]["entries"]}
        assert legs[stacks[name].pk]["user"] == name
        # the buy-in, which touches both the wallet and the seat stack, is listed once
        kinds = [row["kind"] for row in body["results"]]
        assert kinds.count("buy_in") == 1 and kinds.count("settlement") == 1
        assert {row["id"] for row in body["results"]} == set(
            Transfer.objects.filter(entries__account__user__username=name).values_list("id", flat=True)
        )
    only_round = client_for(staff_user).get(
        "/api/v1/ledger/transfers/", {"player": "ann", "round": round_.pk}
    )
    assert [row["id"] for row in only_round.json()["results"]] == [settlement.pk]

    admin = Client()
    admin.force_login(admin_user)
    page = admin.get(reverse("admin:ledger_transfer_changelist"), {"q": "ann"})
    assert page.status_code == 200
    assert settlement.pk in {t.pk for t in page.context["cl"].result_list}
    accounts = admin.get(reverse("admin:ledger_account_changelist"), {"q": "ann"})
    assert stacks["ann"].pk in {a.pk for a in accounts.context["cl"].result_list}
    assert Account.objects.filter(kind=AccountKind.SEAT_STACK, user__isnull=True).count() == 0
    assert_reconciled()
