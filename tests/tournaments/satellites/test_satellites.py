"""docs/rules.md "Satellites", played through the real services to the end: a one-table satellite and a
multi-table one (the multi-table one stopping when the players left fit the seats), steps (a satellite to a
satellite to the target), a winner already holding an entry paid in chips, and random satellites played by bots:
every chip type conserved (site chips, tournament chips, tickets) and the ledger reconciled."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devtools import multi_table_simulation as simulation
from ledger.models import Account, AccountKind, Transfer, TransferKind
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import new_multi
from tests.tournaments.single_table.helpers import new_tournament, play_to_the_end
from tournaments.live.models import Round
from tournaments.satellites.prizes import seats_for
from tournaments.tickets import targets
from tournaments.tournament import admin_actions, registration
from tournaments.tournament.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentEvent,
    TournamentStatus,
)

pytestmark = pytest.mark.django_db
_names = itertools.count()


def held(user: Any, chip_type: str) -> int:
    found = Account.objects.filter(kind=AccountKind.WALLET, user=user, chip_type=chip_type).first()
    return found.balance if found else 0


def site(user: Any) -> int:
    return Account.objects.get(kind=AccountKind.WALLET, user=user, chip_type="site").balance


def every_chip_type_sums_to_zero() -> None:
    totals = Account.objects.values("chip_type").annotate(total=Sum("balance"))
    assert {row["chip_type"]: row["total"] for row in totals if row["total"]} == {}


def multi_satellite(admin: Any, target: Tournament, *, entrants: int, buy_in: int, **more: Any) -> Tournament:
    satellite = simulation.create_multi(
        admin,
        name=f"satellite {next(_names)}",
        entrants=entrants,
        seats=4,
        buy_in=buy_in,
        fee=more.pop("fee", 0),
        starting_stack=300,
        pcr_schedule=[1, 2, 3, 5, 8, 12, 20, 30, 50],
        rounds_per_level=more.pop("rounds_per_level", 1),
        payouts=more.pop("payouts", [100]),
        instant=True,
    )
    Tournament.objects.filter(pk=satellite.pk).update(satellite_target=target)
    satellite.refresh_from_db()
    return satellite


def play_multi(admin: Any, tournament: Tournament, seed: int = 1) -> None:
    simulation.play_out(
        tournament.pk,
        bots="greedy",
        seed=seed,
        start=lambda: admin_actions.start(tournament_id=tournament.pk),
    )
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED


def test_a_one_table_satellite_pays_tickets_to_the_seats_and_the_rest_to_the_next_place(
    make_player: Any, admin_user: Any
) -> None:
    target = new_multi(admin_user, buy_in=100, fee=10)
    satellite = new_tournament(admin_user, kind="quick", max_entrants=3, buy_in=100, fee=5)
    Tournament.objects.filter(pk=satellite.pk).update(satellite_target=target)
    players = [make_player(f"one-{i}") for i in range(3)]
    for p in players:
        registration.register(user=p, tournament_id=satellite.pk)
    play_to_the_end(satellite)
    chip_type = targets.tournament_chip_type(target.pk)
    entries = list(TournamentEntry.objects.filter(tournament=satellite).select_related("player"))
    # pool 300, face 110: two seats, 80 in chips to the next place
    assert sum(e.tickets_won for e in entries) == 2 == sum(held(e.player, chip_type) for e in entries)
    assert sum(e.prize for e in entries) == 300
    payout = Transfer.objects.get(tournament_id=satellite.pk, kind=TransferKind.PAYOUT)
    assert payout.computation["seats"] == 2 and payout.computation["face_value"] == 110
    for e in entries:
        if e.tickets_won:
            assert registration.register(user=e.player, tournament_id=target.pk).ticket == chip_type
    every_chip_type_sums_to_zero()
    assert_reconciled()


def test_a_multi_table_satellite_on_one_level_stops_at_the_bust_that_fits_the_seats(
    make_player: Any, admin_user: Any
) -> None:
    """One level all along: the jobs without a level rise run on the shared path (`multi_table/quiet.py`), which
    must stop play at the seats as the exclusive job does: no round is dealt once the players left fit them."""
    target = new_multi(admin_user, buy_in=300, fee=30)
    satellite = multi_satellite(admin_user, target, entrants=10, buy_in=100, rounds_per_level=1000)
    for i in range(10):
        registration.register(user=make_player(f"level-{i}"), tournament_id=satellite.pk)
    play_multi(admin_user, satellite)
    # pool 1000, face 330: three seats
    fitting = next(
        event
        for event in TournamentEvent.objects.filter(tournament=satellite, kind="busted").order_by("version")
        if event.data["players_left"] <= 3
    )
    late = Round.objects.filter(game__table__tournament=satellite, started_at__gt=fitting.created_at)
    assert not late.exists(), "a round was dealt after the players left fitted the seats"
    entries = list(TournamentEntry.objects.filter(tournament=satellite))
    assert sum(e.tickets_won for e in entries) == 3
    every_chip_type_sums_to_zero()
    assert_reconciled()


def test_a_multi_table_satellite_stops_when_the_players_left_fit_the_seats(
    make_player: Any, admin_user: Any
) -> None:
    target = new_multi(admin_user, buy_in=300, fee=30)
    satellite = multi_satellite(admin_user, target, entrants=10, buy_in=100)
    for i in range(10):
        registration.register(user=make_player(f"multi-{i}"), tournament_id=satellite.pk)
    play_multi(admin_user, satellite)
    # pool 1000, face 330: three seats; play stopped with at most three players left
    entries = list(TournamentEntry.objects.filter(tournament=satellite).select_related("player"))
    assert sum(e.tickets_won for e in entries) == 3
    assert satellite.players_left <= 3
    assert {e.place for e in entries if e.tickets_won} == {1, 2, 3}
    fourth = [e for e in entries if e.place == 4]
    assert [e.prize for e in fourth] == [10]
    assert all(e.status in (EntryStatus.FINISHED, EntryStatus.BUSTED) for e in entries)
    every_chip_type_sums_to_zero()
    assert_reconciled()


def test_a_winner_already_registered_for_the_target_gets_the_face_value_in_chips(
    make_player: Any, admin_user: Any
) -> None:
    target = new_multi(admin_user, buy_in=100, fee=10)
    satellite = new_tournament(admin_user, kind="quick", max_entrants=2, buy_in=100, fee=0)
    Tournament.objects.filter(pk=satellite.pk).update(satellite_target=target)
    ann, bob = make_player("hold-ann"), make_player("hold-bob")
    registration.register(user=ann, tournament_id=target.pk)
    registration.register(user=bob, tournament_id=target.pk)
    registration.register(user=ann, tournament_id=satellite.pk)
    registration.register(user=bob, tournament_id=satellite.pk)
    play_to_the_end(satellite)
    # pool 200, face 110: one seat, won by a player already registered: 110 in chips instead; 90 to the next
    chip_type = targets.tournament_chip_type(target.pk)
    assert held(ann, chip_type) == 0 and held(bob, chip_type) == 0
    assert sorted(e.prize for e in TournamentEntry.objects.filter(tournament=satellite)) in (
        [90, 110],
        [100, 100],
    )
    assert site(ann) + site(bob) == 2 * (10_000 - 110 - 100) + 200
    assert_reconciled()


def test_steps_a_sit_and_go_satellite_to_a_multi_table_satellite_to_the_target(
    make_player: Any, admin_user: Any
) -> None:
    target = new_multi(admin_user, buy_in=300, fee=30)
    step2 = multi_satellite(admin_user, target, entrants=8, buy_in=100, fee=10)
    step1 = new_tournament(admin_user, kind="quick", max_entrants=3, buy_in=40, fee=0)
    Tournament.objects.filter(pk=step1.pk).update(satellite_target=step2)
    first = [make_player(f"step1-{i}", chips=40) for i in range(3)]
    for p in first:
        registration.register(user=p, tournament_id=step1.pk)
    play_to_the_end(step1)
    # pool 120, face 110: one seat
    ticket2 = targets.tournament_chip_type(step2.pk)
    qualified = [p for p in first if held(p, ticket2)]
    assert len(qualified) == 1
    registration.register(user=qualified[0], tournament_id=step2.pk)
    for i in range(7):
        registration.register(user=make_player(f"step2-{i}"), tournament_id=step2.pk)
    play_multi(admin_user, step2)
    # pool 800, face 330: two seats, 140 to third place
    ticket3 = targets.tournament_chip_type(target.pk)
    winners = [e.player for e in TournamentEntry.objects.filter(tournament=step2, tickets_won=1)]
    assert len(winners) == 2
    for w in winners:
        assert registration.register(user=w, tournament_id=target.pk).ticket == ticket3
    every_chip_type_sums_to_zero()
    assert_reconciled()


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    entrants=st.integers(min_value=2, max_value=9),
    buy_in=st.sampled_from([0, 50, 100]),
    face=st.sampled_from([40, 110, 250, 2000]),
    seed=st.integers(min_value=0, max_value=1000),
)
def test_random_satellites_played_by_bots_conserve_every_chip_type(
    make_player: Any, admin_user: Any, entrants: int, buy_in: int, face: int, seed: int
) -> None:
    target = new_multi(admin_user, buy_in=face - 10, fee=10)
    satellite = multi_satellite(admin_user, target, entrants=entrants, buy_in=buy_in, payouts=[70, 30])
    run = next(_names)
    for i in range(entrants):
        registration.register(user=make_player(f"r{run}-{i}"), tournament_id=satellite.pk)
    play_multi(admin_user, satellite, seed=seed)
    pool = entrants * buy_in
    seats = seats_for(pool=pool, face_value=face, players=entrants)
    entries = list(TournamentEntry.objects.filter(tournament=satellite))
    assert sum(e.tickets_won for e in entries) <= seats
    assert sum(e.prize for e in entries) == pool
    assert satellite.pool_account is not None and satellite.pool_account.balance == 0
    every_chip_type_sums_to_zero()
    assert_reconciled()


def test_a_satellite_to_a_recurring_tournament_pays_tickets_to_its_next_tournament(
    make_player: Any, admin_user: Any
) -> None:
    from tournaments.tournament.models import TournamentTemplate

    template = TournamentTemplate.objects.create(
        name="nightly", tournament_settings={"buy_in": 90, "fee": 10}, created_by=admin_user
    )
    satellite = new_tournament(admin_user, kind="quick", max_entrants=2, buy_in=100, fee=0)
    Tournament.objects.filter(pk=satellite.pk).update(satellite_template=template)
    ann, bob = make_player("tpl-ann"), make_player("tpl-bob")
    registration.register(user=ann, tournament_id=satellite.pk)
    registration.register(user=bob, tournament_id=satellite.pk)
    play_to_the_end(satellite)
    # pool 200, face 100: two seats, a ticket to the template's next tournament each
    chip_type = targets.template_chip_type(template.pk)
    assert held(ann, chip_type) == 1 and held(bob, chip_type) == 1
    nightly = new_multi(admin_user, buy_in=90, fee=10)
    Tournament.objects.filter(pk=nightly.pk).update(template=template)
    assert registration.register(user=ann, tournament_id=nightly.pk).ticket == chip_type
    # It starts without bob: his ticket to "the next one" becomes its face value in chips.
    before = site(bob)
    registration.register(user=make_player("tpl-cid"), tournament_id=nightly.pk)
    admin_actions.start(tournament_id=nightly.pk)
    assert held(bob, chip_type) == 0 and site(bob) == before + 100
    every_chip_type_sums_to_zero()
    assert_reconciled()
