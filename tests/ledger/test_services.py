from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from ledger.errors import AlreadyReversed, IdempotencyConflict, InsufficientFunds, InvalidTransfer
from ledger.models import Account, AccountKind, Entry, Transfer, TransferKind, tournament_chip_type
from ledger.selectors import balance_at, wallet_balance
from ledger.services import accounts, postings
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user

pytestmark = pytest.mark.django_db


def _stack(reference: str = "table:1:seat:1", chip_type: str = "site") -> Account:
    return accounts.open_account(
        kind=AccountKind.SEAT_STACK, chip_type=chip_type, reference=reference, user=make_user()
    )


def test_move_chips_posts_a_balanced_transfer_and_updates_cached_balances() -> None:
    wallet = funded_wallet(make_user(), 500)
    stack = _stack()
    transfer = postings.move_chips(
        source=wallet,
        destination=stack,
        amount=200,
        kind=TransferKind.BUY_IN,
        idempotency_key="sit:1",
        reason="sit at table 1",
        table_id=1,
        computation={"buy_in": 200},
    )
    wallet.refresh_from_db()
    stack.refresh_from_db()
    assert (wallet.balance, stack.balance) == (300, 200)
    entries = list(
        transfer.entries.order_by("account_id").values_list("account_id", "amount", "balance_after")
    )
    assert sorted(entries) == sorted([(wallet.pk, -200, 300), (stack.pk, 200, 200)])
    assert transfer.table_id == 1
    assert transfer.computation == {"buy_in": 200}
    assert transfer.chip_type == "site"
    assert_reconciled()


def test_passed_account_objects_carry_their_new_balances() -> None:
    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    postings.move_chips(source=wallet, destination=stack, amount=40, kind="buy_in", idempotency_key="k")
    assert (wallet.balance, stack.balance) == (60, 40)


def test_same_key_same_content_returns_the_first_transfer_and_changes_nothing() -> None:
    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    kwargs = {
        "source": wallet,
        "destination": stack,
        "amount": 30,
        "kind": "buy_in",
        "idempotency_key": "dup",
        "table_id": 7,
    }
    first = postings.move_chips(**kwargs)  # type: ignore[arg-type]
    again = postings.move_chips(**kwargs)  # type: ignore[arg-type]
    assert again.pk == first.pk
    assert Transfer.objects.filter(idempotency_key="dup").count() == 1
    assert wallet_balance(user=wallet.user) == 70  # type: ignore[arg-type]
    assert_reconciled()


@pytest.mark.parametrize(
    "change",
    [{"amount": 31}, {"kind": "settlement"}, {"table_id": 8}, {"reason": "other"}, {"computation": {"x": 1}}],
)
def test_same_key_other_content_is_a_conflict(change: dict[str, object]) -> None:
    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    kwargs: dict[str, object] = {
        "source": wallet,
        "destination": stack,
        "amount": 30,
        "kind": "buy_in",
        "idempotency_key": "dup",
        "table_id": 7,
    }
    postings.move_chips(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(IdempotencyConflict) as info:
        postings.move_chips(**{**kwargs, **change})  # type: ignore[arg-type]
    assert info.value.code == "idempotency.key_reused"
    assert info.value.http_status == 409
    assert Transfer.objects.filter(idempotency_key="dup").count() == 1
    assert_reconciled()


def test_overdraft_is_refused_and_changes_nothing() -> None:
    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    count = Transfer.objects.count()
    with pytest.raises(InsufficientFunds) as info:
        postings.move_chips(
            source=wallet, destination=stack, amount=101, kind="buy_in", idempotency_key="big"
        )
    assert info.value.http_status == 422
    assert info.value.details == {"account": wallet.pk, "balance": 100, "amount": -101}
    assert Transfer.objects.count() == count
    wallet.refresh_from_db()
    assert wallet.balance == 100
    # The refused key stays free: a correct posting may use it later.
    postings.move_chips(source=wallet, destination=stack, amount=100, kind="buy_in", idempotency_key="big")
    assert_reconciled()


@pytest.mark.parametrize("kind", [AccountKind.HOUSE_FEES, AccountKind.SEAT_STACK, AccountKind.PRIZE_POOL])
def test_every_non_source_account_refuses_to_go_negative(kind: str) -> None:
    if kind == AccountKind.HOUSE_FEES:
        account = accounts.get_house_account(kind=kind)
    else:
        owner = make_user() if kind == AccountKind.SEAT_STACK else None
        account = accounts.open_account(kind=kind, chip_type="site", reference=f"{kind}:1", user=owner)
    wallet = accounts.get_wallet(user=make_user())
    with pytest.raises(InsufficientFunds):
        postings.move_chips(
            source=account, destination=wallet, amount=1, kind="payout", idempotency_key="neg"
        )


def test_house_cashier_and_mint_may_go_negative() -> None:
    user = make_user()
    funded_wallet(user, 50)
    funded_wallet(user, 70, chip_type=tournament_chip_type(3))
    assert accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER).balance == -50
    mint = accounts.get_house_account(kind=AccountKind.TOURNAMENT_MINT, chip_type="tournament:3")
    assert mint.balance == -70
    assert_reconciled()


def test_multi_leg_transfer() -> None:
    users = [make_user() for _ in range(3)]
    stacks = [_stack(f"table:9:seat:{i}") for i in range(3)]
    for user, stack in zip(users, stacks, strict=True):
        wallet = funded_wallet(user, 300)
        postings.move_chips(
            source=wallet, destination=stack, amount=300, kind="buy_in", idempotency_key=f"s{stack.pk}"
        )
    transfer = postings.post_transfer(
        kind="settlement",
        legs=[(stacks[0], 210), (stacks[1], -90), (stacks[2], -120)],
        idempotency_key="round:812:settle",
        round_id=812,
        computation={"scores": {"a": 100, "b": 70, "c": 60}, "pcr": 3},
    )
    assert transfer.entries.count() == 3
    assert [s.balance for s in stacks] == [510, 210, 180]
    assert_reconciled()


@pytest.mark.parametrize(
    "legs_factory, message",
    [
        (lambda a, b, c: [(a, 10)], "at least two legs"),
        (lambda a, b, c: [(a, 10), (b, -9)], "sum to zero"),
        (lambda a, b, c: [(a, 0), (b, 0)], "non-zero integer"),
        (lambda a, b, c: [(a, 1.0), (b, -1.0)], "non-zero integer"),
        (lambda a, b, c: [(a, True), (b, -1)], "non-zero integer"),
        (lambda a, b, c: [(a, "5"), (b, -5)], "non-zero integer"),
        (lambda a, b, c: [(a, 5), (a, -5)], "two legs"),
        (lambda a, b, c: [(a, 5), (c, -5)], "one chip type"),
        (lambda a, b, c: [(a, 5), (Account(kind="wallet"), -5)], "saved Account"),
    ],
)
def test_invalid_transfers_are_refused(legs_factory: Any, message: str) -> None:
    a = funded_wallet(make_user(), 10)
    b = _stack()
    c = accounts.get_house_account(kind=AccountKind.TOURNAMENT_MINT, chip_type="tournament:1")
    with pytest.raises(InvalidTransfer, match=message):
        postings.post_transfer(kind="transfer", legs=legs_factory(a, b, c), idempotency_key="bad")
    assert not Transfer.objects.filter(idempotency_key="bad").exists()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"kind": "gift"}, "Unknown transfer kind"),
        ({"idempotency_key": ""}, "idempotency key"),
        ({"idempotency_key": "k" * 256}, "idempotency key"),
        ({"round_id": "12"}, "round_id"),
        ({"computation": {"when": object()}}, "JSON"),
    ],
)
def test_invalid_transfer_fields_are_refused(kwargs: dict[str, object], message: str) -> None:
    a = funded_wallet(make_user(), 10)
    b = _stack()
    params: dict[str, object] = {
        "kind": "buy_in",
        "legs": [(a, -5), (b, 5)],
        "idempotency_key": "x",
        **kwargs,
    }
    with pytest.raises(InvalidTransfer, match=message):
        postings.post_transfer(**params)  # type: ignore[arg-type]


def test_move_chips_needs_a_positive_amount() -> None:
    a = funded_wallet(make_user(), 10)
    with pytest.raises(InvalidTransfer):
        postings.move_chips(source=a, destination=_stack(), amount=-5, kind="buy_in", idempotency_key="m")


def test_reversal_posts_the_opposite_once() -> None:
    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    original = postings.move_chips(
        source=wallet, destination=stack, amount=60, kind="buy_in", idempotency_key="b", table_id=4
    )
    admin = make_user(is_superuser=True)
    reversal = postings.reverse_transfer(transfer=original, posted_by=admin, reason="mistake")
    assert reversal.kind == TransferKind.REVERSAL
    assert reversal.reverses_id == original.pk
    assert reversal.table_id == 4
    assert reversal.posted_by == admin
    assert reversal.reason == "mistake"
    assert wallet_balance(user=wallet.user) == 100  # type: ignore[arg-type]
    stack.refresh_from_db()
    assert stack.balance == 0
    original.refresh_from_db()
    assert original.reversed_by == reversal
    with pytest.raises(AlreadyReversed):
        postings.reverse_transfer(transfer=original)
    with pytest.raises(InvalidTransfer, match="reversal cannot be reversed"):
        postings.reverse_transfer(transfer=reversal)
    assert_reconciled()


def test_reversal_cannot_overdraw() -> None:
    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    original = postings.move_chips(
        source=wallet, destination=stack, amount=60, kind="buy_in", idempotency_key="b"
    )
    postings.move_chips(
        source=stack,
        destination=accounts.get_house_account(kind="house_fees"),
        amount=60,
        kind="fee",
        idempotency_key="f",
    )
    with pytest.raises(InsufficientFunds):
        postings.reverse_transfer(transfer=original)
    assert not Transfer.objects.filter(reverses=original).exists()


def test_adjust_wallet_credits_and_debits_against_the_cashier() -> None:
    user = make_user()
    admin = make_user(is_superuser=True)
    credit = postings.adjust_wallet(
        user=user, amount=250, reason="welcome", idempotency_key="a1", posted_by=admin
    )
    postings.adjust_wallet(user=user, amount=-50, reason="correction", idempotency_key="a2", posted_by=admin)
    assert wallet_balance(user=user) == 200
    assert accounts.get_house_account(kind="house_cashier").balance == -200
    assert credit.kind == TransferKind.ADJUSTMENT
    assert credit.posted_by == admin
    with pytest.raises(InsufficientFunds):
        postings.adjust_wallet(
            user=user, amount=-201, reason="too much", idempotency_key="a3", posted_by=admin
        )
    with pytest.raises(InvalidTransfer):
        postings.adjust_wallet(user=user, amount=0, reason="zero", idempotency_key="a4", posted_by=admin)
    assert_reconciled()


def test_accounts_are_got_or_created_once() -> None:
    user = make_user()
    assert accounts.get_wallet(user=user).pk == accounts.get_wallet(user=user).pk
    assert accounts.get_wallet(user=user, chip_type="tournament:5").pk != accounts.get_wallet(user=user).pk
    assert (
        accounts.get_house_account(kind="house_fees").pk == accounts.get_house_account(kind="house_fees").pk
    )
    stack = accounts.open_account(kind="seat_stack", chip_type="site", reference="table:1:seat:2", user=user)
    assert stack.user == user
    assert (
        accounts.open_account(kind="seat_stack", chip_type="site", reference="table:1:seat:2", user=user).pk
        == stack.pk
    )
    with pytest.raises(InvalidTransfer):
        accounts.get_house_account(kind="wallet")
    with pytest.raises(InvalidTransfer):
        accounts.open_account(kind="wallet", chip_type="site", reference="x")


def test_a_players_account_names_its_player_and_a_house_account_none() -> None:
    user, other = make_user(), make_user()
    with pytest.raises(InvalidTransfer):
        accounts.open_account(kind="seat_stack", chip_type="site", reference="table:1:seat:3")
    with pytest.raises(InvalidTransfer):
        accounts.open_account(kind="prize_pool", chip_type="site", reference="tournament:1", user=user)
    accounts.open_account(kind="seat_stack", chip_type="site", reference="table:1:seat:3", user=user)
    with pytest.raises(InvalidTransfer):  # the same seat stack is not another player's
        accounts.open_account(kind="seat_stack", chip_type="site", reference="table:1:seat:3", user=other)
    assert Account.objects.get(reference="table:1:seat:3").user == user


@pytest.mark.parametrize(
    ("kind", "with_user"),
    [("seat_stack", False), ("wallet", False), ("house_cashier", True), ("prize_pool", True)],
)
def test_the_database_refuses_an_account_whose_player_does_not_fit_its_kind(
    kind: str, with_user: bool
) -> None:
    user = make_user()
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(kind=kind, chip_type="site", reference="x", user=user if with_user else None)


def test_statement_running_balances_and_balance_at() -> None:
    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    postings.move_chips(source=wallet, destination=stack, amount=30, kind="buy_in", idempotency_key="1")
    middle = Entry.objects.filter(account=wallet).order_by("-id").first()
    assert middle is not None
    postings.move_chips(source=wallet, destination=stack, amount=20, kind="buy_in", idempotency_key="2")
    assert list(
        Entry.objects.filter(account=wallet).order_by("id").values_list("balance_after", flat=True)
    ) == [
        100,
        70,
        50,
    ]
    assert balance_at(account=wallet, at=middle.created_at) == 70
    assert balance_at(account=wallet, at=middle.created_at, inclusive=False) == 100


def test_a_conflict_inside_a_callers_transaction_leaves_that_transaction_usable() -> None:
    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    postings.move_chips(source=wallet, destination=stack, amount=10, kind="buy_in", idempotency_key="outer")
    with transaction.atomic():
        with pytest.raises(IdempotencyConflict):
            postings.move_chips(
                source=wallet, destination=stack, amount=11, kind="buy_in", idempotency_key="outer"
            )
        postings.move_chips(
            source=wallet, destination=stack, amount=5, kind="buy_in", idempotency_key="after"
        )
    assert wallet_balance(user=wallet.user) == 85  # type: ignore[arg-type]
    assert_reconciled()


def test_service_postings_pass_the_deferred_balance_trigger() -> None:
    wallet = funded_wallet(make_user(), 100)
    postings.move_chips(source=wallet, destination=_stack(), amount=10, kind="buy_in", idempotency_key="t")
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def test_a_replay_returns_the_first_transfer_even_when_the_funds_are_gone_since() -> None:
    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    kwargs: dict[str, Any] = {
        "source": wallet,
        "destination": stack,
        "amount": 100,
        "kind": "buy_in",
        "idempotency_key": "all-in",
    }
    first = postings.move_chips(**kwargs)
    assert wallet_balance(user=wallet.user) == 0  # type: ignore[arg-type]
    assert postings.move_chips(**kwargs).pk == first.pk
    with pytest.raises(IdempotencyConflict):
        postings.move_chips(**{**kwargs, "amount": 101})
    assert Transfer.objects.filter(idempotency_key="all-in").count() == 1
    assert_reconciled()


def test_a_refusal_inside_a_callers_transaction_leaves_that_transaction_usable() -> None:
    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    with transaction.atomic():
        with pytest.raises(InsufficientFunds):
            postings.move_chips(
                source=wallet, destination=stack, amount=101, kind="buy_in", idempotency_key="a"
            )
        postings.move_chips(source=wallet, destination=stack, amount=40, kind="buy_in", idempotency_key="b")
    assert wallet_balance(user=wallet.user) == 60  # type: ignore[arg-type]
    assert not Transfer.objects.filter(idempotency_key="a").exists()
    assert_reconciled()


def test_a_posting_inside_a_transaction_is_two_statements_and_no_savepoint() -> None:
    from django.test.utils import CaptureQueriesContext

    wallet = funded_wallet(make_user(), 100)
    stack = _stack()
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        postings.move_chips(source=wallet, destination=stack, amount=10, kind="buy_in", idempotency_key="two")
    statements = [q["sql"] for q in queries.captured_queries]
    assert len(statements) == 2, statements
    assert not any("SAVEPOINT" in sql for sql in statements)
    assert stack.balance == 10 and wallet.balance == 90
    assert_reconciled()
