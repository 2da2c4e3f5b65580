from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Account, Entry, GrantPolicy, ReconciliationRun, Transfer, TransferKind
from ledger.services import accounts, postings, reconciliation
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(ledger_admin: Any) -> Client:
    client = Client()
    client.force_login(ledger_admin)
    return client


@pytest.fixture
def transfer(player: Any) -> Transfer:
    wallet = funded_wallet(player, 100)
    stack = accounts.open_account(
        kind="seat_stack", chip_type="site", reference="table:1:seat:1", user=player
    )
    return postings.move_chips(
        source=wallet, destination=stack, amount=40, kind="buy_in", idempotency_key="b"
    )


@pytest.mark.parametrize("model", [Account, Transfer, Entry, ReconciliationRun])
def test_the_ledger_is_read_only_in_the_admin(
    superuser_client: Client, transfer: Transfer, model: Any
) -> None:
    reconciliation.run_reconciliation(trigger="manual")
    meta = model._meta
    changelist = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
    assert superuser_client.get(changelist).status_code == 200
    assert superuser_client.get(changelist, {"q": "ann"}).status_code == 200
    obj = model.objects.order_by("id").first()
    change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    page = superuser_client.get(change)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert superuser_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add")).status_code == 403
    assert superuser_client.post(change, {}).status_code == 403
    delete = reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[obj.pk])
    assert superuser_client.post(delete, {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()


def test_transfer_admin_filters_and_search(superuser_client: Client, transfer: Transfer) -> None:
    url = reverse("admin:ledger_transfer_changelist")
    response = superuser_client.get(url, {"kind__exact": "buy_in"})
    assert response.status_code == 200
    assert response.context["cl"].result_count == 1
    response = superuser_client.get(url, {"q": "ann"})
    assert response.context["cl"].result_count == 2  # funding and buy-in, once each
    accounts = superuser_client.get(reverse("admin:ledger_account_changelist"), {"kind__exact": "wallet"})
    assert accounts.context["cl"].result_count == 1


def test_reverse_action_posts_a_reversal(
    superuser_client: Client, transfer: Transfer, ledger_admin: Any
) -> None:
    url = reverse("admin:ledger_transfer_changelist")
    chosen = {"action": "reverse_selected", "_selected_action": [transfer.pk]}
    # First the action asks, listing the transfer; nothing is posted until the answer is yes.
    asking = superuser_client.post(url, chosen)
    assert asking.status_code == 200 and b'data-role="consequence"' in asking.content
    assert str(transfer).encode() in asking.content
    assert not Transfer.objects.filter(reverses=transfer).exists()
    response = superuser_client.post(url, {**chosen, "confirmed": "yes"}, follow=True)
    assert response.status_code == 200
    reversal = Transfer.objects.get(reverses=transfer)
    assert reversal.kind == TransferKind.REVERSAL
    assert reversal.posted_by == ledger_admin
    assert b"Posted 1 reversal" in response.content
    # A second reversal is refused with a message, and nothing is posted.
    response = superuser_client.post(url, {**chosen, "confirmed": "yes"}, follow=True)
    assert b"already been reversed" in response.content
    assert Transfer.objects.filter(kind=TransferKind.REVERSAL).count() == 1
    assert_reconciled()


def test_only_superusers_get_the_reverse_action(transfer: Transfer) -> None:
    from django.contrib.auth.models import Permission

    staff = make_user("viewer", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_transfer"))
    client = Client()
    client.force_login(staff)
    url = reverse("admin:ledger_transfer_changelist")
    page = client.get(url)
    assert page.status_code == 200
    assert b"reverse_selected" not in page.content
    client.post(url, {"action": "reverse_selected", "_selected_action": [transfer.pk], "confirmed": "yes"})
    assert not Transfer.objects.filter(reverses=transfer).exists()


def test_the_adjustment_form_posts_one_transfer_through_the_ledger_service(
    superuser_client: Client, player: Any, ledger_admin: Any
) -> None:
    from ledger.selectors import wallet_balance

    url = reverse("admin:ledger_account_adjust")
    assert (
        b'data-role="adjust-wallet"'
        in superuser_client.get(reverse("admin:ledger_account_changelist")).content
    )
    form = superuser_client.get(url)
    key = form.context["form"].initial["key"]
    data = {"username": "ann", "amount": 250, "reason": "goodwill", "key": key}
    response = superuser_client.post(url, data)
    transfer = Transfer.objects.get(kind=TransferKind.ADJUSTMENT, reason="goodwill")
    assert response["Location"] == reverse("admin:ledger_transfer_change", args=[transfer.pk])
    assert transfer.posted_by == ledger_admin and wallet_balance(user=player) == 250
    # the same form submitted again (a double click) posts nothing new
    superuser_client.post(url, data)
    assert Transfer.objects.filter(kind=TransferKind.ADJUSTMENT).count() == 1
    # refused: what the API refuses, as form errors, with nothing posted
    for bad, field in (
        ({"username": "nobody"}, "username"),
        ({"amount": 0}, "amount"),
        ({"amount": "1e3"}, "amount"),
        ({"amount": 10**13}, "amount"),
        ({"reason": ""}, "reason"),
    ):
        answer = superuser_client.post(url, {**data, "key": "other", **bad})
        assert answer.status_code == 200 and field in answer.context["form"].errors, bad
    overdraw = superuser_client.post(url, {**data, "key": "debit", "amount": -10_000})
    assert overdraw.status_code == 200 and "the account holds 250" in str(
        overdraw.context["form"].non_field_errors()
    )
    assert wallet_balance(user=player) == 250
    assert_reconciled()


def test_only_superusers_adjust_wallets(staff: Any) -> None:
    client = Client()
    client.force_login(staff)
    url = reverse("admin:ledger_account_adjust")
    assert client.get(url).status_code == 403
    assert (
        client.post(url, {"username": "staffer", "amount": 5, "reason": "x", "key": "k"}).status_code == 403
    )
    assert not Transfer.objects.exists()


# --- the house grant policy (docs/operations.md, "The house grant") ---------------------------------


def test_admins_configure_the_house_grant_once_and_change_it(superuser_client: Client) -> None:
    add = reverse("admin:ledger_grantpolicy_add")
    refused = superuser_client.post(add, {"enabled": "on", "welcome_chips": -5, "daily_floor": 100})
    assert refused.status_code == 200 and "welcome_chips" in refused.context["adminform"].form.errors
    assert not GrantPolicy.objects.exists()
    hold = {"play_through_rounds": 20, "play_through_opponents": 3}
    superuser_client.post(add, {"enabled": "on", "welcome_chips": 1_000, "daily_floor": 500, **hold})
    policy = GrantPolicy.objects.get()
    assert policy.enabled and (policy.welcome_chips, policy.daily_floor) == (1_000, 500)
    # One row: no second add, no delete; it is changed instead.
    assert superuser_client.get(add).status_code == 403
    change = reverse("admin:ledger_grantpolicy_change", args=[policy.pk])
    superuser_client.post(
        change,
        {"welcome_chips": 0, "daily_floor": 200, "play_through_rounds": 0, "play_through_opponents": 1},
    )
    policy.refresh_from_db()
    assert not policy.enabled and policy.daily_floor == 200
    assert (policy.play_through_rounds, policy.play_through_opponents) == (0, 1)
    delete = reverse("admin:ledger_grantpolicy_delete", args=[policy.pk])
    assert superuser_client.post(delete, {"post": "yes"}).status_code == 403
    assert not Transfer.objects.exists()  # configuring moves no chips


def test_the_house_grant_page_is_in_italian(superuser_client: Client) -> None:
    page = superuser_client.get(reverse("admin:ledger_grantpolicy_add"), HTTP_ACCEPT_LANGUAGE="it")
    assert "fiches di benvenuto" in page.content.decode().lower()
