"""Late registration and re-entry within their levels only; pause and resume; an admin's cancellation of a
running multi-table tournament (the pool split by chips)."""

from __future__ import annotations

from typing import Any

import pytest

from devtools import multi_table_driver as driver
from ledger.models import Account, AccountKind, Transfer, TransferKind, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import (
    chips_conserved,
    fixed_result,
    new_multi,
    register_all,
    seated,
)
from tournaments.errors import Conflict
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Seat, SeatStatus
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import progress
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament import admin_actions, presence, registration
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentEvent, TournamentStatus

pytestmark = pytest.mark.django_db


def _wallet(user: Any) -> int:
    return Account.objects.get(kind=AccountKind.WALLET, user=user, chip_type="site").balance


def _bust_t0p1(monkeypatch: pytest.MonkeyPatch, tournament: Any, table: Any) -> None:
    monkeypatch.setattr(round_start, "instant_result", fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": 100}))
    game = Game.objects.get(table=table)
    with dispatch.captured():
        round_ = round_start.start_round(game_id=game.pk)
        assert round_ is not None
        progress.after_table_round(tournament_id=tournament.pk, table_id=table.pk, round_id=round_.pk)


def test_late_registration_seats_a_newcomer_with_a_stack_until_its_level(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, _ = seated(
        admin_user, make_player, [[300, 300, 300, 300]], late_registration_levels=1
    )
    late = make_player("late", chips=1000)
    with dispatch.captured() as sent:
        entry = registration.register(user=late, tournament_id=tournament.pk)
    entry.refresh_from_db()
    tournament.refresh_from_db()
    assert entry.status == EntryStatus.PLAYING and _wallet(late) == 890
    # The only table is full: a new one is opened for the newcomer.
    assert entry.table_id not in (t.pk for t in tables) and tournament.tables_open == 2
    assert Account.objects.get(seat__pk=entry.seat_id or 0).balance == 1000
    assert tournament.players_left == 5 and chips_conserved(tournament) == 2200
    # Its table waits for a second player: its job is sent (it deals when it can).
    assert sent == [(TABLE_ROUND_OVER, [tournament.pk, entry.table_id, None])]
    assert TournamentEvent.objects.filter(tournament=tournament, kind="late_registered").exists()
    tournament.level = 2
    tournament.save(update_fields=["level"])
    with pytest.raises(Conflict) as closed:
        registration.register(user=make_player("later", chips=1000), tournament_id=tournament.pk)
    assert closed.value.code == "tournament.late_registration_closed"
    with pytest.raises(Conflict) as twice:
        registration.register(user=late, tournament_id=tournament.pk)
    assert twice.value.code == "tournament.already_registered"
    assert_reconciled()


def test_a_busted_player_reenters_while_the_level_allows(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(
        admin_user, make_player, [[300, 100, 300]], late_registration_levels=1, reentry=True
    )
    _bust_t0p1(monkeypatch, tournament, tables[0])
    entry = TournamentEntry.objects.get(pk=entries["t0p1"].pk)
    assert entry.status == EntryStatus.BUSTED and entry.place is None
    wallet = _wallet(entry.player)
    registration.register(user=entry.player, tournament_id=tournament.pk)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.PLAYING and entry.reentries == 1 and entry.bust_group is None
    assert _wallet(entry.player) == wallet - 110
    assert Transfer.objects.filter(
        idempotency_key=f"tournament:{tournament.pk}:entry:{entry.pk}:reentry:1"
    ).exists()
    assert Account.objects.get(seat__pk=entry.seat_id or 0).balance == 1000
    assert TournamentEntry.objects.filter(tournament=tournament, player=entry.player).count() == 1
    tournament.refresh_from_db()
    assert tournament.players_left == 3
    # Busted again past the late-registration levels: no re-entry.
    tournament.level = 2
    tournament.save(update_fields=["level"])
    Seat.objects.filter(pk=entry.seat_id or 0).update(status=SeatStatus.LEFT)
    TournamentEntry.objects.filter(pk=entry.pk).update(status=EntryStatus.BUSTED, seat=None)
    with pytest.raises(Conflict) as closed:
        registration.register(user=entry.player, tournament_id=tournament.pk)
    assert closed.value.code == "tournament.no_reentry"
    assert TournamentEntry.objects.get(pk=entry.pk).reentries == 1


def test_no_reentry_when_the_option_is_off(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(
        admin_user, make_player, [[300, 100, 300]], late_registration_levels=3
    )
    _bust_t0p1(monkeypatch, tournament, tables[0])
    with pytest.raises(Conflict) as refused:
        registration.register(user=entries["t0p1"].player, tournament_id=tournament.pk)
    assert refused.value.code == "tournament.no_reentry"
    assert_reconciled()


def test_pause_stops_the_deals_and_resume_sends_every_waiting_table_its_job(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, _ = seated(admin_user, make_player, [[300, 300, 300], [300, 300, 300]])
    admin_actions.pause(tournament_id=tournament.pk)
    with dispatch.captured():
        for table in tables:
            # The deal scheduled before the pause comes and deals nothing; the table waits.
            game = Game.objects.get(table=table)
            assert game.next_round_at is not None
            assert round_start.start_round(game_id=game.pk) is None
            assert Game.objects.get(pk=game.pk).next_round_at is None
        # Its job (run again) deals nothing either while paused.
        done = progress.after_table_round(tournament_id=tournament.pk, table_id=tables[0].pk, round_id=None)
        assert done == "paused" and Game.objects.get(table=tables[0]).next_round_at is None
    with dispatch.captured() as sent:
        admin_actions.resume(tournament_id=tournament.pk)
    assert sorted(args[1] for name, args in sent if name == TABLE_ROUND_OVER) == sorted(t.pk for t in tables)
    kinds = list(TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert kinds[-2:] == ["paused", "resumed"]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    # The woken jobs deal, and the tournament plays to its end.
    driver.drive(tournament_id=tournament.pk, start=False, seed_messages=sent)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert_reconciled()


def test_cancelling_a_running_tournament_splits_the_pool_by_chips(make_player: Any, admin_user: Any) -> None:
    tournament = new_multi(admin_user, instant_rounds=True, seats=2)
    users = [make_player(f"c{i}", chips=1000) for i in range(4)]
    register_all(tournament, users)
    with dispatch.captured():
        admin_actions.start(tournament_id=tournament.pk)
    # Stacks 1000 each after the start; move some chips seat to seat to make them differ.
    seats = list(
        Seat.objects.filter(table__tournament=tournament).select_related("stack_account").order_by("pk")
    )
    from ledger.services import postings

    postings.move_chips(
        source=seats[0].stack_account,
        destination=seats[1].stack_account,
        amount=600,
        kind=TransferKind.SETTLEMENT,
        idempotency_key="test:shift",
    )
    admin_actions.cancel(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    prizes = {e.player.username: e.prize for e in TournamentEntry.objects.filter(tournament=tournament)}
    # Pool 400: 200 equally (50 each), 200 by chips (400, 1600, 1000, 1000 of 4000: 20, 80, 50, 50).
    by_seat = {s.player.username: s for s in seats}
    expected = {seats[0].player.username: 70, seats[1].player.username: 130}
    for name in by_seat:
        expected.setdefault(name, 100)
    assert prizes == expected and sum(prizes.values()) == 400
    places = {e.player.username: e.place for e in TournamentEntry.objects.filter(tournament=tournament)}
    assert places[seats[1].player.username] == 1 and places[seats[0].player.username] == 4
    assert Account.objects.get(minting_tournament=tournament).balance == 0
    assert (
        not Account.objects.filter(chip_type=tournament_chip_type(tournament.pk)).exclude(balance=0).exists()
    )
    assert (
        TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True).last()
        == "cancelled"
    )
    assert_reconciled()


def test_an_absent_player_comes_back_at_their_own_table(make_player: Any, admin_user: Any) -> None:
    from tournaments.tournament import presence as tournament_presence

    tournament, tables, entries = seated(admin_user, make_player, [[300, 300], [300, 300]])
    entry = entries["t1p0"]
    Seat.objects.filter(pk=entry.seat_id or 0).update(status=SeatStatus.ABSENT, timeouts_in_row=3)
    seat = presence.come_back(user=entry.player, tournament_id=tournament.pk)
    assert seat.pk == entry.seat_id and seat.table_id == tables[1].pk
    assert seat.status == SeatStatus.ACTIVE and seat.timeouts_in_row == 0
    with pytest.raises(Conflict) as nowhere:
        tournament_presence.come_back(user=make_player("stranger"), tournament_id=tournament.pk)
    assert nowhere.value.code == "tournament.not_playing"
