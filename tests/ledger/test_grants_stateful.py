"""Random sequences of policy changes, registrations, daily claims on random days, retries and spending,
against a plain-Python model: every grant is posted at most once per key, a claim tops up exactly to the floor
or is refused changing nothing, and chips are conserved (the cashier's loss is the wallets' gain)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from accounts import services as account_services
from ledger.errors import GrantAboveFloor, GrantAlreadyClaimed, GrantNotAvailable
from ledger.models import AccountKind, Transfer, TransferKind
from ledger.selectors import wallet_balance
from ledger.services import accounts, grants, postings
from tests.factories import ADULT_BIRTH
from tests.ledger.utils import assert_reconciled

DAY0 = datetime(2026, 12, 1, tzinfo=UTC)
AMOUNTS = st.integers(min_value=0, max_value=5_000)


class GrantMachine(RuleBasedStateMachine):
    @initialize()
    def start(self) -> None:
        # Examples share one test transaction: names of their own, and the cashier measured from here.
        self.tag = uuid.uuid4().hex[:8]
        self.cashier_start = accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER).balance
        self.grants_start = Transfer.objects.filter(kind=TransferKind.GRANT).count()
        grants.configure(enabled=False)
        self.policy = (False, 0, 0)
        self.users: list[Any] = []
        self.model: dict[int, int] = {}  # user id -> balance
        self.claimed: set[tuple[int, int]] = set()  # (user id, day)
        self.granted = 0  # grant transfers posted
        self.serial = 0

    @rule(enabled=st.booleans(), welcome=AMOUNTS, floor=AMOUNTS)
    def configure(self, enabled: bool, welcome: int, floor: int) -> None:
        grants.configure(enabled=enabled, welcome_chips=welcome, daily_floor=floor)
        self.policy = (enabled, welcome, floor)

    @rule()
    def register(self) -> None:
        self.serial += 1
        user = account_services.register_user(
            username=f"g{self.tag}{self.serial}", password="a-long-secret-9", date_of_birth=ADULT_BIRTH
        )
        enabled, welcome, _ = self.policy
        gift = welcome if enabled else 0
        self.users.append(user)
        self.model[user.pk] = gift
        self.granted += 1 if gift else 0
        # Posting the welcome chips again (a retried job) replays the first: nothing more moves.
        if gift:
            grants.post_welcome_grant(user=user)
        assert wallet_balance(user=user) == gift

    @precondition(lambda self: self.users)
    @rule(
        index=st.integers(min_value=0), day=st.integers(min_value=0, max_value=3), minute=st.integers(0, 1439)
    )
    def claim(self, index: int, day: int, minute: int) -> None:
        user = self.users[index % len(self.users)]
        now = DAY0 + timedelta(days=day, minutes=minute)
        enabled, _, floor = self.policy
        balance = self.model[user.pk]
        try:
            claimed = grants.claim_daily_top_up(user=user, now=now)
        except GrantNotAvailable:
            assert not (enabled and floor > 0)
        except GrantAlreadyClaimed:
            assert enabled and floor > 0 and (user.pk, day) in self.claimed
        except GrantAboveFloor:
            assert enabled and floor > 0 and (user.pk, day) not in self.claimed and balance >= floor
        else:
            assert enabled and floor > 0 and (user.pk, day) not in self.claimed and balance < floor
            assert claimed.balance == floor
            self.model[user.pk] = floor
            self.claimed.add((user.pk, day))
            self.granted += 1

    @precondition(lambda self: self.users)
    @rule(index=st.integers(min_value=0), share=st.floats(min_value=0, max_value=1))
    def spend(self, index: int, share: float) -> None:
        user = self.users[index % len(self.users)]
        amount = int(self.model[user.pk] * share)
        if amount <= 0:
            return
        self.serial += 1
        postings.adjust_wallet(
            user=user,
            amount=-amount,
            reason="spent",
            idempotency_key=f"spend:{self.tag}:{self.serial}",
            posted_by=None,
        )
        self.model[user.pk] -= amount

    @invariant()
    def chips_are_conserved(self) -> None:
        for user in self.users:
            assert wallet_balance(user=user) == self.model[user.pk]
        assert Transfer.objects.filter(kind=TransferKind.GRANT).count() - self.grants_start == self.granted
        assert_reconciled()


@pytest.mark.django_db
def test_random_grants_and_claims_conserve_chips() -> None:
    run_state_machine_as_test(
        GrantMachine,
        settings=settings(
            max_examples=25,
            stateful_step_count=12,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
