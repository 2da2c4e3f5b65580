"""Random rebuy, add-on and knockout tournaments played by bots to the end (instant rounds, in-process): the
chips of every type are conserved, the pool and every bounty are paid exactly once, the ledger reconciles
(docs/rules.md "Rebuys and the add-on", "Progressive knockout")."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from devtools import multi_table_driver as driver
from devtools.multi_table_simulation import seeded
from ledger.models import Account, Transfer, TransferKind, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import new_multi, register_all
from tests.tournaments.multi_table.rebuys.helpers import bots, bounties_paid, bounty_balance, paid_in
from tournaments.tournament.entry_payments import entry_bounty
from tournaments.tournament.models import TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db

_runs = itertools.count()


@hypothesis_settings(
    max_examples=10,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    entrants=st.integers(min_value=2, max_value=9),
    rebuy_levels=st.integers(min_value=0, max_value=3),
    max_rebuys=st.integers(min_value=0, max_value=2),
    addon_chips=st.sampled_from([0, 300]),
    bounty_share=st.sampled_from([0, 25, 50, 100]),
    buy_in=st.integers(min_value=0, max_value=150),
    guarantee=st.sampled_from([0, 700]),
    odds=st.tuples(st.floats(0, 1), st.floats(0, 1)),
    seed=st.integers(min_value=0, max_value=2**16),
)
def test_random_rebuy_and_knockout_tournaments_conserve_and_pay_everything_once(
    admin_user: Any,
    make_player: Any,
    entrants: int,
    rebuy_levels: int,
    max_rebuys: int,
    addon_chips: int,
    bounty_share: int,
    buy_in: int,
    guarantee: int,
    odds: tuple[float, float],
    seed: int,
) -> None:
    run = next(_runs)
    with transaction.atomic():
        tournament = new_multi(
            admin_user,
            instant_rounds=True,
            starting_stack=300,
            pcr_schedule=[5, 10, 20],
            buy_in=buy_in,
            fee=3,
            guarantee=guarantee,
            bounty_share=bounty_share,
            addon_seconds=0,
            **(
                {
                    "rebuy_levels": rebuy_levels,
                    "rebuy_cost": buy_in,
                    "rebuy_fee": 2,
                    "max_rebuys": max_rebuys,
                    "addon_cost": buy_in // 2,
                    "addon_fee": 1,
                    "addon_chips": addon_chips,
                }
                if rebuy_levels
                else {}
            ),
            reentry=True,
            late_registration_levels=1,
        )
        users = [make_player(f"h{run}x{i}", chips=10_000) for i in range(entrants)]
        register_all(tournament, users)
        with seeded(seed):
            driver.drive(
                tournament_id=tournament.pk,
                after_message=bots(
                    tournament.pk, random.Random(seed), rebuy_odds=odds[0], addon_odds=odds[1]
                ),
            )
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.FINISHED
        entries = list(TournamentEntry.objects.filter(tournament=tournament))
        heads = len(entries) + sum(e.reentries for e in entries)
        bounty = entry_bounty(tournament)
        # The pool: every buy-in less its bounty, the guarantee's shortfall, every rebuy and add-on cost; paid out
        # whole, once.
        pool_in = (
            heads * (buy_in - bounty)
            + max(0, guarantee - len(entries) * (buy_in - bounty))
            + paid_in(tournament, "rebuy")
            + paid_in(tournament, "addon")
        )
        assert sum(e.prize for e in entries) == pool_in
        assert tournament.pool_account is not None
        assert Account.objects.get(pk=tournament.pool_account.pk).balance == 0
        # Every bounty paid once: what the heads carried in is what the players were paid.
        assert bounties_paid(tournament) == heads * bounty and bounty_balance(tournament) == 0
        assert all(e.bounty == 0 for e in entries)
        knockouts = Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.PAYOUT).exclude(
            idempotency_key__endswith=":prizes"
        )
        assert len({t.idempotency_key for t in knockouts}) == knockouts.count()
        # Rebuys within their cap.
        assert all(not max_rebuys or e.rebuys <= max_rebuys for e in entries)
        # Every tournament chip retired to the mint.
        assert (
            Account.objects.filter(chip_type=tournament_chip_type(tournament.pk)).aggregate(s=Sum("balance"))[
                "s"
            ]
            == 0
        )
        assert (
            not Account.objects.filter(chip_type=tournament_chip_type(tournament.pk))
            .exclude(balance=0)
            .exists()
        )
        assert_reconciled()
        transaction.set_rollback(True)
