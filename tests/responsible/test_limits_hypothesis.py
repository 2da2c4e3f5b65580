"""Hypothesis over random sequences of stakes, wins, cash-outs, limit changes and clock advances: a stake is
accepted exactly when a plain model of the rules allows it (so none passes a limit in force), a refused stake moves
no chip, and the ledger reconciles."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.errors import ServiceError
from ledger.models import Account, Transfer, TransferKind
from ledger.services import accounts, postings
from responsible.limits import periods, services
from responsible.limits.models import CHIP_LIMITS
from tests.factories import FAST_CLOCKS, AdminFactory, PlayerFactory, fund
from tests.ledger.utils import assert_reconciled
from tournaments.live.messaging import dispatch
from tournaments.live.models import Seat
from tournaments.live.tables import services as tables

pytestmark = pytest.mark.django_db

LIMITS = sorted(CHIP_LIMITS)
START = datetime(2026, 3, 13, 9, 0, tzinfo=UTC)  # a Friday

set_limit = st.tuples(
    st.just("set"),
    st.sampled_from(LIMITS),
    st.one_of(st.none(), st.sampled_from([100, 300, 500, 1000, 2000])),
)
stake = st.tuples(st.just("stake"), st.sampled_from([100, 200, 300, 500, 1000]))
# Stakes the most often; then cash-outs (after a win of 0 to 300 chips), limit changes and the clock.
operation = st.one_of(
    stake,
    stake,
    st.tuples(st.just("cash_out"), st.sampled_from([0, 100, 300])),
    set_limit,
    st.tuples(st.just("wait"), st.sampled_from([30, 360, 1440, 3 * 1440, 8 * 1440])),
)


@dataclass
class Model:
    """docs/rules.md "Responsible play" written plainly: limits, pending changes, stakes and returns."""

    now: datetime
    raise_after: timedelta
    current: dict[str, int] = field(default_factory=dict)
    pending: dict[str, tuple[int | None, datetime]] = field(default_factory=dict)
    flows: list[tuple[datetime, int, int]] = field(default_factory=list)  # (at, staked, returned)

    def settle(self) -> None:
        for limit, (value, at) in list(self.pending.items()):
            if at <= self.now:
                del self.pending[limit]
                if value is None:
                    self.current.pop(limit, None)
                else:
                    self.current[limit] = value

    def ask(self, limit: str, value: int | None) -> None:
        self.settle()
        self.pending.pop(limit, None)
        old = self.current.get(limit)
        if value == old:
            return
        if old is None or (value is not None and value < old):
            assert value is not None
            self.current[limit] = value
        else:
            self.pending[limit] = (value, self.now + self.raise_after)

    def allows(self, amount: int) -> bool:
        self.settle()
        for limit, value in self.current.items():
            measure, period = CHIP_LIMITS[limit]
            start = periods.bounds(period, self.now)[0]
            staked = sum(s for at, s, _ in self.flows if at >= start)
            returned = sum(r for at, _, r in self.flows if at >= start)
            used = staked + amount if measure == "stakes" else staked + amount - returned
            if used > value:
                return False
        return True


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=st.lists(set_limit, min_size=1, max_size=3), then=st.lists(operation, min_size=4, max_size=16))
def test_no_stake_passes_a_limit_in_force(
    monkeypatch: pytest.MonkeyPatch, first: list[tuple[Any, ...]], then: list[tuple[Any, ...]]
) -> None:
    steps = first + then
    clock = {"now": START}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)
    with transaction.atomic():
        _play(steps, clock)
        transaction.set_rollback(True)


def _play(steps: list[tuple[Any, ...]], clock: dict[str, datetime]) -> None:
    admin = AdminFactory.create()
    ann = PlayerFactory.create(chips=50_000)
    bob = PlayerFactory.create(chips=0)
    # bob's chips at a table of his own: what ann wins comes from there.
    bob_table = tables.create_table(
        user=admin,
        game="rummy500",
        options=dict(FAST_CLOCKS),
        seats=4,
        pcr=1,
        multiplier=1,
        private=False,
        min_buy_in=1,
        max_buy_in=10**6,
    )
    fund(bob, 10**6)
    tables.sit(user=bob, table_id=bob_table.pk, buy_in=10**6)
    bob_stack = Seat.objects.get(player=bob).stack_account
    model = Model(now=START, raise_after=services.raise_delay())
    open_tables: list[int] = []
    wins = 0
    for step in steps:
        model.now = clock["now"]
        if step[0] == "set":
            services.set_limits(user=ann, values={step[1]: step[2]})
            model.ask(step[1], step[2])
        elif step[0] == "wait":
            clock["now"] += timedelta(minutes=step[1])
        elif step[0] == "stake":
            amount = step[1]
            table = tables.create_table(
                user=admin,
                game="rummy500",
                options=dict(FAST_CLOCKS),
                seats=4,
                pcr=1,
                multiplier=1,
                private=False,
                min_buy_in=1,
                max_buy_in=2000,
            )
            wallet = accounts.get_wallet(user=ann)
            before = (Transfer.objects.count(), wallet.balance)
            allowed = model.allows(amount)
            try:
                with transaction.atomic():
                    tables.sit(user=ann, table_id=table.pk, buy_in=amount)
            except ServiceError as refusal:
                assert refusal.code == "limits.exceeded" and not allowed, (step, refusal.details)
                wallet.refresh_from_db()
                assert (Transfer.objects.count(), wallet.balance) == before
                continue
            assert allowed, (step, model)
            model.flows.append((model.now, amount, 0))
            open_tables.append(table.pk)
        elif step[0] == "cash_out" and open_tables:
            table_id = open_tables.pop(0)
            seat = Seat.objects.select_related("stack_account").get(table_id=table_id, player=ann)
            if step[1]:
                wins += 1
                postings.move_chips(
                    source=bob_stack,
                    destination=seat.stack_account,
                    amount=step[1],
                    kind=TransferKind.SETTLEMENT,
                    idempotency_key=f"test:win:{wins}",
                )
            back = Account.objects.get(pk=seat.stack_account.pk).balance
            tables.leave(user=ann, table_id=table_id)
            model.flows.append((model.now, 0, back))
    assert_reconciled()
