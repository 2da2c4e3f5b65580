"""CSV exports: fixed columns, one row per ledger entry, every entry in the range (beyond any page size),
filtered, and a file name that says what the file holds."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.utils import timezone

from audit.exports import ENTRY_COLUMNS
from ledger.models import Entry, TransferKind
from ledger.services import postings
from tests.ledger.utils import assert_reconciled

pytestmark = pytest.mark.django_db


def _rows(response: Any) -> list[dict[str, str]]:
    assert response.streaming, "streamed, not built in memory"
    text = b"".join(response.streaming_content).decode()
    reader = csv.DictReader(io.StringIO(text))
    assert tuple(reader.fieldnames or ()) == ENTRY_COLUMNS
    return list(reader)


def test_every_entry_of_the_range_is_one_row_with_fixed_columns(
    make_player: Any, staff_user: Any, admin_user: Any
) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    # more entries than any page of the API or the pages (100, 1000)
    for number in range(600):
        postings.adjust_wallet(
            user=ann if number % 2 else bob,
            amount=number + 1,
            reason=f"credit {number}",
            idempotency_key=f"export:{number}",
            posted_by=admin_user,
        )
    staff = Client()
    staff.force_login(staff_user)
    response = staff.get("/audit/entries.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="ramino-ledger-entries.csv"'
    rows = _rows(response)
    assert [int(row["entry_id"]) for row in rows] == list(
        Entry.objects.order_by("id").values_list("id", flat=True)
    )

    ann_rows = _rows(staff.get("/audit/entries.csv?player=ann"))
    assert len(ann_rows) == Entry.objects.filter(account__user=ann).count() == 301
    last = ann_rows[-1]
    entry = Entry.objects.select_related("transfer", "account").get(pk=int(last["entry_id"]))
    assert last == {
        "entry_id": str(entry.pk),
        "posted_at": entry.created_at.isoformat(),
        "transfer_id": str(entry.transfer_id),
        "transfer_kind": TransferKind.ADJUSTMENT,
        "chip_type": "site",
        "account_id": str(entry.account_id),
        "account_kind": "wallet",
        "account_reference": "",
        "player": "ann",
        "amount": str(entry.amount),
        "balance_after": str(entry.balance_after),
        "table_id": "",
        "round_id": "",
        "tournament_id": "",
        "tournament_entry_id": "",
        "reverses_transfer_id": "",
        "posted_by": admin_user.username,
        "reason": entry.transfer.reason,
    }
    assert_reconciled()


def test_filters_and_the_file_name_say_which_entries(
    make_player: Any, staff_user: Any, admin_user: Any
) -> None:
    ann = make_player("ann")
    credit = postings.adjust_wallet(
        user=ann, amount=5, reason="late", idempotency_key="late", posted_by=admin_user
    )
    start = credit.created_at  # the funding just before it is an adjustment too, and left out
    end = timezone.now() + timedelta(seconds=1)
    staff = Client()
    staff.force_login(staff_user)
    query = urlencode(
        {"player": "ann", "kind": "adjustment", "from": start.isoformat(), "to": end.isoformat()}
    )
    response = staff.get(f"/audit/entries.csv?{query}")
    name = f"ramino-ledger-entries_player-ann_kind-adjustment_from-{start:%Y%m%dT%H%M%S}_to-{end:%Y%m%dT%H%M%S}.csv"
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    rows = _rows(response)
    assert [int(row["transfer_id"]) for row in rows] == [credit.pk]
    assert _rows(staff.get("/audit/entries.csv?tournament=7")) == []
    assert_reconciled()
