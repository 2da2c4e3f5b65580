"""Each rule of docs/rules.md "Rebuys and the add-on", on seated tables with rounds of known results."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from ledger.models import Account, Transfer, TransferKind
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, fixed_result, seated
from tests.tournaments.multi_table.rebuys.helpers import deal_due, job, play
from tournaments.errors import PlayError
from tournaments.live.models import Game, GameStatus, Seat
from tournaments.multi_table import rebuys
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry, TournamentEvent

pytestmark = pytest.mark.django_db


def _pool(tournament: Any) -> Account:
    assert tournament.pool_account_id is not None
    return Account.objects.get(pk=tournament.pool_account_id)


REBUY = {
    "rebuy_levels": 1,
    "rebuy_cost": 100,
    "rebuy_fee": 10,
    "rounds_per_level": 2,
    "pcr_schedule": [1, 2],
    "addon_cost": 50,
    "addon_fee": 5,
    "addon_chips": 700,
    "addon_seconds": 45,
}
BUST_P1 = fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": 0})


def _code(service: Any, tournament: Any, user: Any) -> str:
    with pytest.raises(PlayError) as refused:
        service(tournament_id=tournament.pk, user=user)
    return str(refused.value.code)


def test_a_busted_player_stays_until_the_next_deal_and_a_rebuy_keeps_them_in(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[1000, 200, 1000]], **REBUY)
    names = sorted(entries)
    round_ = play(monkeypatch, tables[0], BUST_P1)
    job_ran = timezone.now()
    assert job(tournament, tables[0], round_.pk) == "dealt"
    entry = TournamentEntry.objects.get(pk=entries["t0p1"].pk)
    assert entry.status == EntryStatus.PLAYING and entry.held_round == round_.pk and entry.seat_id
    waiting = TournamentEvent.objects.get(tournament=tournament, kind="rebuy_wait")
    assert waiting.data == {"table": tables[0].pk, "round": 1, "waiting": ["t0p1"]}
    job(tournament, tables[0], round_.pk)  # the job again: still waiting, no second event
    assert TournamentEvent.objects.filter(tournament=tournament, kind="rebuy_wait").count() == 1
    game = Game.objects.get(table=tables[0])
    # The deal waits the rebuy pause at least.
    assert game.next_round_at is not None
    # (from before the job ran, not from now: however slowly the test runs)
    wait = (game.next_round_at - job_ran).total_seconds()
    assert wait >= float(settings.RAMINO_REBUY_WAIT_SECONDS)
    player = entry.player
    wallet = player.ledger_accounts.get(kind="wallet").balance
    pool_before = _pool(tournament).balance
    rebuys.rebuy(tournament_id=tournament.pk, user=player)
    entry.refresh_from_db()
    assert entry.rebuys == 1 and entry.held_round is None
    assert Seat.objects.get(pk=entry.seat_id).chips == 1000  # rebuy_chips: the starting stack
    assert player.ledger_accounts.get(kind="wallet").balance == wallet - 110
    assert _pool(tournament).balance == pool_before + 100
    tournament.refresh_from_db()
    assert tournament.rebuys_pool == 100  # the lobby's prize pool adds it
    pay = Transfer.objects.get(kind=TransferKind.TOURNAMENT_BUY_IN, entry_id=entry.pk)
    assert (
        pay.computation["why"] == "rebuy" and pay.computation["cost"] == 100 and pay.computation["fee"] == 10
    )
    mint = Transfer.objects.get(kind=TransferKind.MINT, entry_id=entry.pk, computation__why="rebuy")
    assert mint.computation["chips"] == 1000
    # The next deal deals them in.
    monkeypatch.setattr("tournaments.live.rounds.start.instant_result", fixed_result(dict.fromkeys(names, 0)))
    deal_due(tables[0])
    dealt = Game.objects.select_related("current_round").get(table=tables[0]).current_round
    assert dealt is not None and dealt.number == 2 and sorted(dealt.players) == names
    chips_conserved(tournament)
    assert_reconciled()


def test_without_a_rebuy_the_busted_player_is_out_at_the_next_deal(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[1000, 200, 1000]], **REBUY)
    round_ = play(monkeypatch, tables[0], BUST_P1)
    job(tournament, tables[0], round_.pk)
    sent = deal_due(tables[0])
    # The deal is held and the tournament's job sent: it busts them.
    assert sent == [(TABLE_ROUND_OVER, [tournament.pk, tables[0].pk, None])]
    assert job(tournament, tables[0], None) == "dealt"
    entry = TournamentEntry.objects.get(pk=entries["t0p1"].pk)
    assert entry.status == EntryStatus.BUSTED and entry.place == 3 and entry.bust_start_chips == 200
    tournament.refresh_from_db()
    assert tournament.players_left == 2
    assert _code(rebuys.rebuy, tournament, entry.player) == "tournament.not_playing"
    assert_reconciled()


def test_a_bust_after_the_rebuy_period_is_out_at_once(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(
        admin_user, make_player, [[1000, 200, 1000]], **{**REBUY, "rounds_per_level": 1, "addon_chips": 0}
    )
    first = play(monkeypatch, tables[0], fixed_result({"t0p0": 10, "t0p1": 0, "t0p2": 0}))
    job(tournament, tables[0], first.pk)
    second = play(monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p1": -100, "t0p2": 0}))
    assert second.number == 2
    job(tournament, tables[0], second.pk)
    assert TournamentEntry.objects.get(pk=entries["t0p1"].pk).status == EntryStatus.BUSTED
    assert _code(rebuys.rebuy, tournament, entries["t0p0"].player) == "tournament.rebuy_closed"
    assert_reconciled()


def test_rebuy_refusals_name_their_rule(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(
        admin_user, make_player, [[1000, 200, 1500]], **{**REBUY, "max_rebuys": 1, "rebuy_chips": 300}
    )
    rich = entries["t0p2"].player
    assert _code(rebuys.rebuy, tournament, rich) == "tournament.rebuy_too_many_chips"
    poor = entries["t0p1"].player
    rebuys.rebuy(tournament_id=tournament.pk, user=poor)  # 200 <= the starting stack
    assert Seat.objects.get(pk=entries["t0p1"].seat_id).chips == 500
    assert _code(rebuys.rebuy, tournament, poor) == "tournament.rebuy_limit"
    # Never during a round.
    Game.objects.filter(table=tables[0]).update(status=GameStatus.PLAYING)
    assert _code(rebuys.rebuy, tournament, entries["t0p0"].player) == "tournament.round_in_play"
    Game.objects.filter(table=tables[0]).update(status=GameStatus.WAITING)
    # A tournament without rebuys (off while rebuy_levels is 0).
    Tournament.objects.filter(pk=tournament.pk).update(rebuy_levels=0)
    assert _code(rebuys.rebuy, tournament, entries["t0p0"].player) == "tournament.rebuy_closed"
    assert _code(rebuys.take_addon, tournament, entries["t0p0"].player) == "tournament.addon_closed"
    assert_reconciled()


def test_the_addon_break_comes_once_before_the_first_round_past_the_period(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[1000, 1000]], **REBUY)
    user = entries["t0p0"].player
    assert _code(rebuys.take_addon, tournament, user) == "tournament.addon_closed"
    first = play(monkeypatch, tables[0], fixed_result({"t0p0": 10, "t0p1": 0}))
    job(tournament, tables[0], first.pk)
    assert _code(rebuys.take_addon, tournament, user) == "tournament.addon_closed"  # round 2 is level 1 too
    second = play(monkeypatch, tables[0], fixed_result({"t0p0": 10, "t0p1": 0}))
    job(tournament, tables[0], second.pk)
    game = Game.objects.get(table=tables[0])
    assert game.next_round_at is not None
    assert (game.next_round_at - timezone.now()).total_seconds() > 44  # addon_seconds
    wallet = user.ledger_accounts.get(kind="wallet").balance
    chips = Seat.objects.get(pk=entries["t0p0"].seat_id).chips
    rebuys.take_addon(tournament_id=tournament.pk, user=user)
    assert Seat.objects.get(pk=entries["t0p0"].seat_id).chips == chips + 700
    assert user.ledger_accounts.get(kind="wallet").balance == wallet - 55
    assert TournamentEntry.objects.get(pk=entries["t0p0"].pk).addon
    assert _code(rebuys.take_addon, tournament, user) == "tournament.addon_taken"
    third = play(monkeypatch, tables[0], fixed_result({"t0p0": 10, "t0p1": 0}))
    job(tournament, tables[0], third.pk)
    assert _code(rebuys.take_addon, tournament, entries["t0p1"].player) == "tournament.addon_closed"
    chips_conserved(tournament)
    assert_reconciled()
