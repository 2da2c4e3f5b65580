"""Random transfers, replays, conflicts and reversals against a plain-Python model of the ledger."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from ledger.errors import AlreadyReversed, IdempotencyConflict, InsufficientFunds, InvalidTransfer
from ledger.models import Account, AccountKind, Entry, Transfer
from ledger.services import accounts, postings
from tests.ledger.utils import assert_reconciled, make_user


class LedgerMachine(RuleBasedStateMachine):
    @initialize()
    def open_accounts(self) -> None:
        # Each example has a chip type of its own: examples share one test transaction.
        self.tag = uuid.uuid4().hex[:10]
        chip_type = f"hyp:{self.tag}"
        self.accounts: list[Account] = [
            accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER, chip_type=chip_type),
            accounts.get_house_account(kind=AccountKind.HOUSE_FEES, chip_type=chip_type),
            *(accounts.get_wallet(user=make_user(f"h{self.tag}{i}"), chip_type=chip_type) for i in range(3)),
            *(
                accounts.open_account(
                    kind=AccountKind.SEAT_STACK,
                    chip_type=chip_type,
                    reference=f"t:{i}",
                    user=make_user(f"s{self.tag}{i}"),
                )
                for i in range(2)
            ),
        ]
        self.model: dict[int, int] = {account.pk: 0 for account in self.accounts}
        self.may_go_negative = {account.pk for account in self.accounts if account.may_go_negative}
        # key -> (legs as (account index, amount), transfer id)
        self.posted: dict[str, tuple[list[tuple[int, int]], int]] = {}
        self.reversed: set[int] = set()
        self.serial = 0

    def _new_key(self) -> str:
        self.serial += 1
        return f"{self.tag}:{self.serial}"

    def _legs(self, spec: list[tuple[int, int]]) -> list[tuple[Account, int]]:
        return [(self.accounts[index], amount) for index, amount in spec]

    def _overdraws(self, spec: list[tuple[int, int]]) -> bool:
        return any(
            self.model[self.accounts[i].pk] + amount < 0
            for i, amount in spec
            if self.accounts[i].pk not in self.may_go_negative
        )

    def _apply(self, spec: list[tuple[int, int]]) -> None:
        for i, amount in spec:
            self.model[self.accounts[i].pk] += amount

    @rule(data=st.data())
    def post(self, data: Any) -> None:
        n = data.draw(st.integers(min_value=2, max_value=4), label="legs")
        indexes = data.draw(st.permutations(range(len(self.accounts))), label="accounts")[:n]
        amounts = data.draw(
            st.lists(st.integers(-300, 300).filter(bool), min_size=n - 1, max_size=n - 1), label="amounts"
        )
        assume(sum(amounts) != 0)
        spec = list(zip(indexes, [*amounts, -sum(amounts)], strict=True))
        key = self._new_key()
        if self._overdraws(spec):
            with pytest.raises(InsufficientFunds):
                postings.post_transfer(kind="transfer", legs=self._legs(spec), idempotency_key=key)
            return
        transfer = postings.post_transfer(kind="transfer", legs=self._legs(spec), idempotency_key=key)
        self._apply(spec)
        self.posted[key] = (spec, transfer.pk)

    @precondition(lambda self: self.posted)
    @rule(data=st.data())
    def replay(self, data: Any) -> None:
        key = data.draw(st.sampled_from(sorted(self.posted)), label="key")
        spec, transfer_id = self.posted[key]
        again = postings.post_transfer(kind="transfer", legs=self._legs(spec), idempotency_key=key)
        assert again.pk == transfer_id

    @precondition(lambda self: self.posted)
    @rule(data=st.data(), delta=st.integers(1, 50))
    def conflict(self, data: Any, delta: int) -> None:
        key = data.draw(st.sampled_from(sorted(self.posted)), label="key")
        spec, _ = self.posted[key]
        (i, a), (j, b), *rest = spec
        other = [(i, a + delta), (j, b - delta), *rest]
        assume(all(amount != 0 for _, amount in other))
        with pytest.raises(IdempotencyConflict):
            postings.post_transfer(kind="transfer", legs=self._legs(other), idempotency_key=key)

    @precondition(lambda self: self.posted)
    @rule(data=st.data())
    def reverse(self, data: Any) -> None:
        key = data.draw(st.sampled_from(sorted(self.posted)), label="key")
        spec, transfer_id = self.posted[key]
        transfer = Transfer.objects.get(pk=transfer_id)
        opposite = [(i, -amount) for i, amount in spec]
        if transfer_id in self.reversed:
            with pytest.raises(AlreadyReversed):
                postings.reverse_transfer(transfer=transfer)
        elif self._overdraws(opposite):
            with pytest.raises(InsufficientFunds):
                postings.reverse_transfer(transfer=transfer)
        else:
            reversal = postings.reverse_transfer(transfer=transfer)
            assert reversal.reverses_id == transfer_id
            self._apply(opposite)
            self.reversed.add(transfer_id)

    @rule(amount=st.integers(1, 100))
    def unbalanced(self, amount: int) -> None:
        with pytest.raises(InvalidTransfer):
            postings.post_transfer(
                kind="transfer",
                legs=[(self.accounts[0], amount), (self.accounts[1], -amount - 1)],
                idempotency_key=self._new_key(),
            )

    @invariant()
    def balances_match_the_model(self) -> None:
        ids = list(self.model)
        cached = dict(Account.objects.filter(pk__in=ids).values_list("pk", "balance"))
        assert cached == self.model
        for account in self.accounts:
            last = (
                Entry.objects.filter(account=account)
                .order_by("-id")
                .values_list("balance_after", flat=True)
                .first()
            )
            assert (last or 0) == self.model[account.pk]
        assert sum(self.model.values()) == 0
        assert all(balance >= 0 for pk, balance in self.model.items() if pk not in self.may_go_negative)

    @invariant()
    def database_triggers_accept_everything_posted(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")

    @invariant()
    def ledger_reconciles(self) -> None:
        assert_reconciled()


@pytest.mark.django_db
def test_random_transfers_keep_the_ledger_invariants() -> None:
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(
            max_examples=30,
            stateful_step_count=15,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
