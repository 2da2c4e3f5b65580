"""Starting a multi-table tournament: even tables at random, one mint transfer a table, every entry playing, a
deal scheduled everywhere; too few entrants refused; no start when full (multi starts at its time)."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from ledger.models import Account, Transfer, TransferKind, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, new_multi, register_all
from tournaments.errors import Conflict
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Seat, Table
from tournaments.tournament import admin_actions
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentEvent, TournamentStatus

pytestmark = pytest.mark.django_db


def test_start_seats_everyone_evenly_with_minted_stacks(make_player: Any, admin_user: Any) -> None:
    tournament = new_multi(admin_user, max_entrants=11, seats=4, guarantee=2000)
    register_all(tournament, [make_player(f"s{i}", chips=1000) for i in range(11)])
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING  # full, but a multi starts at its time
    with dispatch.captured() as queue:
        admin_actions.start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING and tournament.level == 1 and tournament.started_at
    assert tournament.players_left == 11 and tournament.tables_open == 3
    tables = list(Table.objects.filter(tournament=tournament))
    sizes = sorted(Seat.objects.filter(table__in=tables).values_list("table_id", flat=True).order_by())
    assert sorted(Counter(sizes).values()) == [3, 4, 4]
    assert all(t.pcr == 1 and t.min_buy_in == t.max_buy_in == 1000 and t.seats == 4 for t in tables)
    mints = Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.MINT)
    assert sorted(m.idempotency_key for m in mints) == sorted(
        f"tournament:{tournament.pk}:mint:table:{t.pk}" for t in tables
    )
    mint = Account.objects.get(minting_tournament=tournament)
    assert (
        mint.chip_type == tournament_chip_type(tournament.pk)
        and mint.reference == f"tournament:{tournament.pk}"
    )
    assert chips_conserved(tournament) == 11 * 1000
    entries = TournamentEntry.objects.filter(tournament=tournament)
    assert all(
        e.status == EntryStatus.PLAYING and e.seat is not None and e.seat.table_id == e.table_id
        for e in entries
    )
    assert all(e.seat.stack_account.user_id == e.player_id for e in entries if e.seat)
    games = Game.objects.filter(table__in=tables)
    assert all(g.next_round_at is not None for g in games)
    assert sorted(args[0] for name, args in queue if name == dispatch.START_ROUND) == sorted(
        g.pk for g in games
    )
    assert TournamentEvent.objects.get(tournament=tournament, version=1).kind == "started"
    # The guarantee's shortfall (2000 - 11 x 100) was paid into the pool.
    assert tournament.pool_account is not None
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == 2000
    assert_reconciled()


def test_too_few_entrants_do_not_start(make_player: Any, admin_user: Any) -> None:
    tournament = new_multi(admin_user, min_entrants=3)
    register_all(tournament, [make_player("a1"), make_player("a2")])
    with pytest.raises(Conflict) as refused:
        admin_actions.start(tournament_id=tournament.pk)
    assert refused.value.code == "tournament.too_few_entrants"
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING and tournament.mint_account_id is None


def test_two_thousand_entrants_start_in_one_go(admin_user: Any) -> None:
    """The start is bulk work: measured here (reported in docs/tournaments.md)."""
    tournament = new_multi(admin_user, max_entrants=5000, buy_in=0, fee=0)
    user_model = get_user_model()
    users = user_model.objects.bulk_create([user_model(username=f"bulk{i}") for i in range(2000)])
    TournamentEntry.objects.bulk_create([TournamentEntry(tournament=tournament, player=u) for u in users])
    began = time.monotonic()
    with dispatch.captured():
        admin_actions.start(tournament_id=tournament.pk)
    took = time.monotonic() - began
    print(f"start of 2,000 entrants: {took:.2f} s")
    tournament.refresh_from_db()
    assert tournament.tables_open == 500 and tournament.players_left == 2000
    assert chips_conserved(tournament) == 2000 * 1000
    assert took < 60
    assert_reconciled()
