"""Random one-table satellites (sit-and-go or quick game, of random size, buy-in, fee, payout table and target face
value, one entrant perhaps already holding an entry or a ticket to the target) played by the greedy bot to the
end through the real services: every chip type conserved (site chips, tournament chips, tickets), the pool paid
exactly once (seats times the face value in tickets, the rest in site chips), every ticket spendable, the ledger
reconciled (docs/rules.md "Tickets and satellites")."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from devtools.multi_table_simulation import seeded
from ledger.models import Account, AccountKind, Transfer, TransferKind, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import new_multi
from tests.tournaments.single_table.helpers import new_tournament, play_to_the_end
from tournaments.satellites.prizes import seats_for
from tournaments.tickets import services as tickets
from tournaments.tickets import targets
from tournaments.tournament import registration
from tournaments.tournament.models import Tournament, TournamentEntry

pytestmark = pytest.mark.django_db
_runs = itertools.count()


def _held(user: Any, chip_type: str) -> int:
    found = Account.objects.filter(kind=AccountKind.WALLET, user=user, chip_type=chip_type).first()
    return int(found.balance) if found else 0


def _fees() -> int:
    total = Account.objects.filter(kind=AccountKind.HOUSE_FEES, chip_type="site").aggregate(s=Sum("balance"))
    return int(total["s"] or 0)


@settings(
    max_examples=10,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    kind=st.sampled_from(["single", "quick"]),
    entrants=st.integers(min_value=2, max_value=4),
    buy_in=st.sampled_from([0, 25, 60, 100, 333]),
    fee=st.sampled_from([0, 7]),
    face=st.sampled_from([30, 55, 110, 250, 2000]),
    payouts=st.sampled_from([[100], [70, 30], [50, 30, 20]]),
    holder=st.sampled_from(["none", "entry", "ticket"]),
    seed=st.integers(min_value=0, max_value=2**16),
)
def test_random_sit_and_go_satellites_pay_the_pool_once_and_conserve_every_chip_type(
    make_player: Any,
    admin_user: Any,
    kind: str,
    entrants: int,
    buy_in: int,
    fee: int,
    face: int,
    payouts: list[int],
    holder: str,
    seed: int,
) -> None:
    run = next(_runs)
    payouts = payouts if len(payouts) <= entrants else [100]  # never more paid places than seats
    target = new_multi(admin_user, buy_in=face - 10, fee=10)
    ticket = targets.tournament_chip_type(target.pk)
    satellite = new_tournament(
        admin_user, kind=kind, max_entrants=entrants, buy_in=buy_in, fee=fee, payouts=payouts
    )
    Tournament.objects.filter(pk=satellite.pk).update(satellite_target=target)
    players = [make_player(f"sg{run}x{i}", chips=10_000) for i in range(entrants)]
    holding = players[0] if holder != "none" else None
    if holder == "entry":
        registration.register(user=players[0], tournament_id=target.pk)
    elif holder == "ticket":
        tickets.grant(
            user=players[0],
            count=1,
            reason="holds one already",
            idempotency_key=f"sg{run}",
            posted_by=admin_user,
            tournament_id=target.pk,
        )
    site_before = {p.pk: _held(p, "site") for p in players}
    tickets_before = {p.pk: _held(p, ticket) for p in players}
    fees_before = _fees()

    for p in players:
        registration.register(user=p, tournament_id=satellite.pk)
    with seeded(seed):
        play_to_the_end(satellite)

    pool = entrants * buy_in
    seats = seats_for(pool=pool, face_value=face, players=entrants)
    entries = {e.player_id: e for e in TournamentEntry.objects.filter(tournament=satellite)}
    assert len(entries) == entrants and all(e.place is not None for e in entries.values())
    # The pool, paid once: one payout transfer emptying it, one ticket issue at most.
    payouts_posted = list(Transfer.objects.filter(tournament_id=satellite.pk, kind=TransferKind.PAYOUT))
    assert len(payouts_posted) == (1 if pool else 0)
    issued = Transfer.objects.filter(tournament_id=satellite.pk, kind=TransferKind.TICKET_ISSUE)
    assert issued.count() <= 1
    assert sum(e.prize for e in entries.values()) == pool
    won = sum(e.tickets_won for e in entries.values())
    assert won <= seats
    chips_awarded: dict[str, int] = {}
    if payouts_posted:
        computation = payouts_posted[0].computation
        assert computation["pool"] == pool and computation["face_value"] == face
        assert computation["seats"] == seats
        awards = computation["awards"]
        assert sum(a["tickets"] for a in awards.values()) == won
        assert sum(a["chips"] for a in awards.values()) + won * face == pool
        chips_awarded = {name: a["chips"] for name, a in awards.items()}
    for p in players:
        entry = entries[p.pk]
        chips = chips_awarded.get(p.get_username(), 0)
        # Each prize is its tickets at face value and its chips; the ticket lands in the wallet for the target.
        assert entry.prize == entry.tickets_won * face + chips
        assert _held(p, ticket) - tickets_before[p.pk] == entry.tickets_won
        assert _held(p, "site") - site_before[p.pk] == chips - buy_in - fee
        if p == holding:
            assert entry.tickets_won == 0  # a holder is paid the face value in chips instead
    # Places distinct: every place up to the seats carries a ticket (a holder's in chips).
    if len({e.place for e in entries.values()}) == entrants:
        for p in players:
            entry = entries[p.pk]
            if entry.place is not None and entry.place <= seats:
                assert entry.tickets_won == (0 if p == holding else 1)
                assert entry.prize >= face
    assert _fees() - fees_before == entrants * fee
    satellite.refresh_from_db()
    assert satellite.pool_account is not None and satellite.pool_account.balance == 0
    # Tournament chips: every one minted for the satellite is back in its mint.
    own = Account.objects.filter(chip_type=tournament_chip_type(satellite.pk)).exclude(
        kind=AccountKind.TOURNAMENT_MINT
    )
    assert all(a.balance == 0 for a in own)
    totals = Account.objects.values("chip_type").annotate(total=Sum("balance"))
    assert {row["chip_type"]: row["total"] for row in totals if row["total"]} == {}
    # Every ticket won enters the target, the house paying its pool and fee.
    for p in players:
        if entries[p.pk].tickets_won:
            assert registration.register(user=p, tournament_id=target.pk, payment="ticket").ticket == ticket
            assert _held(p, ticket) == tickets_before[p.pk]
    assert_reconciled()
