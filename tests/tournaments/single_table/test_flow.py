"""Registration through the ledger, the automatic start, play to the end with prizes, through the services."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.errors import InsufficientFunds
from ledger.models import Account, AccountKind, Transfer, TransferKind
from tests.ledger.utils import assert_reconciled
from tests.tournaments.single_table.helpers import game_of, new_tournament, play_one_round, play_to_the_end
from tournaments.errors import Conflict
from tournaments.live.models import Seat
from tournaments.live.rounds import start as round_start
from tournaments.tournament import admin_actions, registration
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db


def wallet(user: Any) -> int:
    return Account.objects.get(kind=AccountKind.WALLET, user=user).balance


def test_registering_pays_buy_in_to_the_pool_and_fee_to_the_house_and_unregistering_refunds(
    make_player: Any, admin_user: Any
) -> None:
    tournament = new_tournament(admin_user)
    ann = make_player("ann", chips=1000)
    entry = registration.register(user=ann, tournament_id=tournament.pk)
    assert entry.status == EntryStatus.REGISTERED and wallet(ann) == 890
    assert tournament.pool_account is not None
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == 100
    buy_in = Transfer.objects.get(tournament_id=tournament.pk, kind=TransferKind.TOURNAMENT_BUY_IN)
    assert buy_in.entry_id == entry.pk and buy_in.entries.count() == 3
    with pytest.raises(Conflict) as twice:
        registration.register(user=ann, tournament_id=tournament.pk)
    assert twice.value.code == "tournament.already_registered"
    registration.unregister(user=ann, tournament_id=tournament.pk)
    assert wallet(ann) == 1000 and Account.objects.get(pk=tournament.pool_account.pk).balance == 0
    # Registering again after unregistering is a new entry.
    registration.register(user=ann, tournament_id=tournament.pk)
    assert TournamentEntry.objects.filter(tournament=tournament, player=ann).count() == 2
    assert_reconciled()


def test_insufficient_funds_leaves_nothing_behind(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user)
    poor = make_player("poor", chips=109)
    with pytest.raises(InsufficientFunds):
        registration.register(user=poor, tournament_id=tournament.pk)
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    assert wallet(poor) == 109
    assert_reconciled()


def test_a_sit_and_go_starts_when_full_with_seats_at_random_and_plays_to_a_winner(
    make_player: Any, admin_user: Any
) -> None:
    tournament = new_tournament(admin_user, max_entrants=3, payouts=[70, 30], target_score=1)
    users = [make_player(n, chips=1000) for n in ("ann", "bob", "cid")]
    for user in users[:2]:
        registration.register(user=user, tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING
    registration.register(user=users[2], tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    seats = Seat.objects.filter(table__tournament=tournament)
    assert sorted(s.number for s in seats) == [0, 1, 2]
    with pytest.raises(Conflict) as late:
        registration.register(user=make_player("dot"), tournament_id=tournament.pk)
    assert late.value.code == "tournament.full"
    with pytest.raises(Conflict) as gone:
        registration.unregister(user=users[0], tournament_id=tournament.pk)
    assert gone.value.code == "tournament.started"
    play_to_the_end(tournament)
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    assert sum(e.prize for e in entries) == 300
    places = [e.place for e in entries if e.place is not None]
    assert len(places) == 3 and min(places) == 1
    # Exactly one winner, unless a tie outlasted the tie-breakers (then they share first place).
    winners = [e for e in entries if e.place == 1]
    assert len(winners) == 1 or all(e.in_tiebreak for e in winners)
    fees = Account.objects.get(kind=AccountKind.HOUSE_FEES, chip_type="site").balance
    assert fees == 30
    # No chips moved at the table: the seat stacks never held any.
    assert not Transfer.objects.filter(table_id=game_of(tournament).table_id).exists()
    assert_reconciled()


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_a_quick_game_plays_exactly_its_rounds(make_player: Any, admin_user: Any, rounds: int) -> None:
    tournament = new_tournament(admin_user, kind="quick", rounds=rounds, max_entrants=2, tiebreak_rounds=0)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
    played = play_to_the_end(tournament)
    assert len(played) == rounds
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    assert sum(e.prize for e in entries) == 200
    assert_reconciled()


def test_pause_deals_no_new_round_and_resume_goes_on(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user, kind="quick", rounds=2, max_entrants=2)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
    play_one_round(tournament)
    admin_actions.pause(tournament_id=tournament.pk)

    assert round_start.start_round(game_id=game_of(tournament).pk) is None
    admin_actions.resume(tournament_id=tournament.pk)
    play_to_the_end(tournament)
    assert_reconciled()


def test_cancel_before_the_start_refunds_everything(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user, max_entrants=3)
    ann, bob = make_player("ann", chips=500), make_player("bob", chips=500)
    for user in (ann, bob):
        registration.register(user=user, tournament_id=tournament.pk)
    cancelled, transfers = admin_actions.cancel(tournament_id=tournament.pk)
    assert cancelled.status == TournamentStatus.CANCELLED and len(transfers) == 2
    assert wallet(ann) == wallet(bob) == 500
    assert Account.objects.get(kind=AccountKind.HOUSE_FEES, chip_type="site").balance == 0
    assert_reconciled()


def test_cancel_during_play_splits_the_pool_among_the_players(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user, kind="quick", rounds=3, max_entrants=3)
    users = [make_player(n, chips=1000) for n in ("ann", "bob", "cid")]
    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)
    play_one_round(tournament)
    _cancelled, transfers = admin_actions.cancel(tournament_id=tournament.pk)
    assert len(transfers) == 1 and transfers[0].kind == TransferKind.PAYOUT
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    assert sum(e.prize for e in entries) == 300
    assert all(e.prize >= 50 for e in entries)  # half of the pool equally
    assert game_of(tournament).status == "closed"
    assert_reconciled()


def test_an_absent_player_stays_seated_is_auto_played_and_comes_back(
    make_player: Any, admin_user: Any, client_for: Any
) -> None:
    tournament = new_tournament(admin_user, kind="quick", rounds=3, max_entrants=2)
    ann, bob = make_player("ann"), make_player("bob")
    for user in (ann, bob):
        registration.register(user=user, tournament_id=tournament.pk)
    Seat.objects.filter(table__tournament=tournament, player=ann).update(status="absent")
    played = play_one_round(tournament, by_clock=True)
    assert sorted(played.players) == ["ann", "bob"]
    # Still absent at the next deal: auto-played, never unseated as at a ring table.

    assert round_start.start_round(game_id=game_of(tournament).pk) is not None
    assert Seat.objects.get(table__tournament=tournament, player=ann).status == "absent"
    back = client_for(ann).post(f"/api/v1/tournaments/{tournament.pk}/back/")
    assert back.status_code == 200, back.content
    assert Seat.objects.get(table__tournament=tournament, player=ann).status == "active"
    stranger = client_for(make_player("eve")).post(f"/api/v1/tournaments/{tournament.pk}/back/")
    assert stranger.status_code == 409 and stranger.json()["error"]["code"] == "tournament.not_playing"
