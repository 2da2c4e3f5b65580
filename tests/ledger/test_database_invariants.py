"""The database itself refuses what would break the ledger, whatever SQL reaches it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from ledger.models import Account, AccountKind, Entry, Transfer
from ledger.selectors import reconcile
from ledger.services import accounts, postings
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user


def _setup() -> tuple[Account, Account, Transfer]:
    user = make_user()
    wallet = funded_wallet(user, 100)
    stack = accounts.open_account(
        kind=AccountKind.SEAT_STACK, chip_type="site", reference="table:1:seat:1", user=user
    )
    transfer = postings.move_chips(
        source=wallet, destination=stack, amount=40, kind="buy_in", idempotency_key="b"
    )
    return wallet, stack, transfer


def _insert_transfer(cursor: Any, key: str, chip_type: str = "site") -> int:
    cursor.execute(
        """
        INSERT INTO ledger_transfer (kind, chip_type, idempotency_key, fingerprint, reason, computation,
                                     posted_by_system, created_at)
        VALUES ('transfer', %s, %s, '', '', '{}', 'raw sql', %s) RETURNING id
        """,
        [chip_type, key, timezone.now()],
    )
    return int(cursor.fetchone()[0])


def _insert_entry(cursor: Any, transfer_id: int, account_id: int, amount: int) -> None:
    cursor.execute(
        "INSERT INTO ledger_entry (transfer_id, account_id, amount, balance_after, created_at) VALUES (%s, %s, %s, 0, %s)",
        [transfer_id, account_id, amount, timezone.now()],
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE ledger_entry SET amount = amount * 2 WHERE transfer_id = %(t)s",
        "UPDATE ledger_entry SET balance_after = 0 WHERE transfer_id = %(t)s",
        "DELETE FROM ledger_entry WHERE transfer_id = %(t)s",
        "UPDATE ledger_transfer SET reason = 'tampered' WHERE id = %(t)s",
        "DELETE FROM ledger_transfer WHERE id = %(t)s",
    ],
)
def test_entries_and_transfers_cannot_be_updated_or_deleted(sql: str) -> None:
    _, _, transfer = _setup()
    with (
        pytest.raises(IntegrityError, match="immutable"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, {"t": transfer.pk})
    assert Entry.objects.filter(transfer=transfer).count() == 2
    assert_reconciled()


@pytest.mark.django_db
def test_an_overdrawn_wallet_is_refused() -> None:
    wallet, stack, _ = _setup()
    with (
        pytest.raises(IntegrityError, match="balance_non_negative"),
        transaction.atomic(),
        connection.cursor() as c,
    ):
        c.execute("UPDATE ledger_account SET balance = -1 WHERE id = %s", [wallet.pk])
    # A complete raw transfer that takes more than the wallet holds fails on the balance update.
    with (
        pytest.raises(IntegrityError, match="balance_non_negative"),
        transaction.atomic(),
        connection.cursor() as c,
    ):
        transfer_id = _insert_transfer(c, "raw:overdraw")
        _insert_entry(c, transfer_id, wallet.pk, -61)
        _insert_entry(c, transfer_id, stack.pk, 61)
        c.execute("UPDATE ledger_account SET balance = balance - 61 WHERE id = %s", [wallet.pk])
        c.execute("UPDATE ledger_account SET balance = balance + 61 WHERE id = %s", [stack.pk])
    accounts.get_house_account(kind="house_fees")
    accounts.open_account(kind="prize_pool", chip_type="site", reference="tournament:1:pool")
    for kind in ("seat_stack", "prize_pool", "house_fees"):
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as c:
            c.execute("UPDATE ledger_account SET balance = -5 WHERE kind = %s", [kind])
            assert c.rowcount == 1
    assert_reconciled()


@pytest.mark.django_db
def test_a_reversal_is_posted_at_most_once_and_keys_are_unique() -> None:
    _, _, transfer = _setup()
    reversal = postings.reverse_transfer(transfer=transfer)
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as c:
        c.execute(
            """INSERT INTO ledger_transfer (kind, chip_type, idempotency_key, fingerprint, reason, computation,
                                            posted_by_system, created_at, reverses_id)
               VALUES ('reversal', 'site', 'raw:second-reversal', '', '', '{}', '', now(), %s)""",
            [transfer.pk],
        )
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as c:
        _insert_transfer(c, reversal.idempotency_key)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "case", ["one_leg", "unbalanced", "no_entries", "other_chip_type", "entry_added_later"]
)
def test_an_unbalanced_transfer_is_refused_at_commit(case: str) -> None:
    wallet, stack, existing = _setup()
    mint = accounts.get_house_account(kind=AccountKind.TOURNAMENT_MINT, chip_type="tournament:1")
    with pytest.raises(IntegrityError, match="transfer"), transaction.atomic(), connection.cursor() as c:
        if case == "entry_added_later":
            _insert_entry(c, existing.pk, accounts.get_house_account(kind="house_fees").pk, 5)
        else:
            transfer_id = _insert_transfer(c, f"raw:{case}")
            if case == "one_leg":
                _insert_entry(c, transfer_id, stack.pk, 10)
            elif case == "unbalanced":
                _insert_entry(c, transfer_id, stack.pk, 10)
                _insert_entry(c, transfer_id, wallet.pk, -9)
            elif case == "other_chip_type":
                _insert_entry(c, transfer_id, stack.pk, 10)
                _insert_entry(c, transfer_id, mint.pk, -10)
            elif case == "third_leg":
                _insert_entry(c, transfer_id, stack.pk, 10)
                _insert_entry(c, transfer_id, wallet.pk, -10)
                _insert_entry(c, transfer_id, accounts.get_house_account(kind="house_fees").pk, 1)
            elif case == "in_savepoint":
                with transaction.atomic():
                    inner_id = _insert_transfer(c, "raw:inner")
                    _insert_entry(c, inner_id, stack.pk, 10)
                _insert_entry(c, inner_id, wallet.pk, -9)
                _insert_entry(c, transfer_id, stack.pk, 1)
                _insert_entry(c, transfer_id, wallet.pk, -1)
    assert not Transfer.objects.filter(idempotency_key__startswith="raw:").exists()
    assert_reconciled()


@pytest.mark.django_db(transaction=True)
def test_a_balanced_raw_transfer_commits() -> None:
    """The trigger refuses only what is wrong: the same raw SQL, balanced, goes through."""
    wallet, stack, _ = _setup()
    with transaction.atomic(), connection.cursor() as c:
        transfer_id = _insert_transfer(c, "raw:ok")
        _insert_entry(c, transfer_id, stack.pk, 10)
        _insert_entry(c, transfer_id, wallet.pk, -10)
    assert Entry.objects.filter(transfer_id=transfer_id).count() == 2


@pytest.mark.django_db
def test_reconciliation_reports_a_cached_balance_changed_by_raw_sql() -> None:
    wallet, _stack, _ = _setup()
    assert reconcile().ok
    with connection.cursor() as c:
        c.execute("UPDATE ledger_account SET balance = balance + 7 WHERE id = %s", [wallet.pk])
    report = reconcile()
    assert not report.ok
    codes = {(p["code"], p.get("account"), p.get("chip_type")) for p in report.problems}
    assert ("account.balance_mismatch", wallet.pk, None) in codes
    assert ("chips.not_conserved", None, "site") in codes
    mismatch = next(p for p in report.problems if p["code"] == "account.balance_mismatch")
    assert mismatch["balance"] == 67
    assert mismatch["entries_total"] == 60
    assert report.totals["site"] == 7
    assert report.total == 7
