"""The Django admin's ticket grant: an admin grants tickets with a reason in words; the same form submitted twice
grants once; a target must be one tournament or one recurring tournament."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ledger.models import Account, AccountKind, Transfer, TransferKind
from tests.ledger.utils import assert_reconciled
from tests.tournaments.single_table.helpers import new_tournament

pytestmark = pytest.mark.django_db
URL = "/admin/tournaments/tournament/grant-tickets/"


def test_an_admin_grants_tickets_in_the_django_admin_once_per_form(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user)
    ann = make_player("ann")
    client = Client()
    client.force_login(admin_user)
    page = client.get(URL)
    assert page.status_code == 200 and b"grant-tickets-form" in page.content
    body = {
        "username": "ann",
        "tournament": tournament.pk,
        "count": 2,
        "reason": "spring promotion",
        "key": "k",
    }
    for _ in range(2):
        answer = client.post(URL, body)
        assert answer.status_code == 302, answer.content
    wallet = Account.objects.get(
        kind=AccountKind.WALLET, user=ann, chip_type=f"ticket:tournament:{tournament.pk}"
    )
    assert wallet.balance == 2
    assert Transfer.objects.filter(kind=TransferKind.TICKET_ISSUE).count() == 1
    refused = client.post(URL, {**body, "tournament": "", "key": "other"})
    assert refused.status_code == 200 and b"Choose one target" in refused.content
    assert_reconciled()
