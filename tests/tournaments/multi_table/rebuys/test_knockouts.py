"""Each rule of docs/rules.md "Progressive knockout": the bounty from the buy-in, the knockout's split, tied
winners, the champion's own bounty, re-entries, cancellation."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Account, Transfer, TransferKind
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import fixed_result, new_multi, seated
from tests.tournaments.multi_table.rebuys.helpers import bounty_balance, fund_bounties, job, play
from tournaments.multi_table.planning.bounties import from_dealers_left
from tournaments.tournament import admin_actions, registration
from tournaments.tournament.entry_payments import bounty_account
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentEvent, TournamentStatus

pytestmark = pytest.mark.django_db


def _pool(tournament: Any) -> Account:
    assert tournament.pool_account_id is not None
    return Account.objects.get(pk=tournament.pool_account_id)


KO = {"bounty_share": 50, "buy_in": 100}


def _wallet(entry: TournamentEntry) -> int:
    return int(entry.player.ledger_accounts.get(kind="wallet").balance)


def test_an_entry_pays_its_bounty_into_the_bounty_account_and_a_refund_returns_it(
    make_player: Any, admin_user: Any
) -> None:
    tournament = new_multi(admin_user, bounty_share=25, buy_in=101, fee=10, guarantee=1000)
    user = make_player("ko1", chips=1000)
    registration.register(user=user, tournament_id=tournament.pk)
    assert bounty_balance(tournament) == 25  # floor(101 * 25 / 100)
    assert _pool(tournament).balance == 76
    registration.unregister(user=user, tournament_id=tournament.pk)
    assert bounty_balance(tournament) == 0 and user.ledger_accounts.get(kind="wallet").balance == 1000
    assert_reconciled()


def test_the_guarantee_covers_the_pool_without_the_bounties(make_player: Any, admin_user: Any) -> None:
    tournament = new_multi(admin_user, bounty_share=50, buy_in=100, guarantee=500, min_entrants=2)
    for i in range(3):
        registration.register(user=make_player(f"g{i}", chips=1000), tournament_id=tournament.pk)
    admin_actions.start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert _pool(tournament).balance == 500
    assert bounty_balance(tournament) == 150
    assert set(TournamentEntry.objects.filter(tournament=tournament).values_list("bounty", flat=True)) == {50}
    assert_reconciled()


def test_the_knocking_out_winner_is_paid_half_and_carries_the_rest(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[1000, 100, 1000]], **KO)
    fund_bounties(tournament, entries, 25)
    before = _wallet(entries["t0p0"])
    round_ = play(monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": 150}, out="t0p0"))
    job(tournament, tables[0], round_.pk)
    loser = TournamentEntry.objects.get(pk=entries["t0p1"].pk)
    winner = TournamentEntry.objects.get(pk=entries["t0p0"].pk)
    assert loser.status == EntryStatus.BUSTED and loser.bounty == 0
    assert _wallet(winner) == before + 12 and winner.bounties_won == 12
    assert winner.bounty == 25 + 13
    paid = Transfer.objects.get(kind=TransferKind.PAYOUT, entry_id=loser.pk)
    assert paid.computation["bounty"] == 25 and paid.computation["half_paid"] == 12
    assert paid.computation["winners"] == ["t0p0"] and paid.computation["added"] == {"t0p0": 13}
    event = TournamentEvent.objects.get(tournament=tournament, kind="knockouts")
    assert event.data["knockouts"][0]["player"] == "t0p1"
    assert bounty_balance(tournament) == 75 - 12
    assert_reconciled()


def test_tied_winners_share_the_bounty_leftovers_from_the_dealers_left(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[1000, 100, 1000]], **KO)
    fund_bounties(tournament, entries, 25)
    # t0p0 and t0p2 tie at the top (equal melded, nobody went out): the round is shared.
    round_ = play(monkeypatch, tables[0], fixed_result({"t0p0": 100, "t0p1": 0, "t0p2": 100}))
    assert {t["to"] for t in round_.transfers} == {"t0p0", "t0p2"}
    job(tournament, tables[0], round_.pk)
    order = from_dealers_left(round_.players, round_.dealer, {"t0p0", "t0p2"})
    first, second = (TournamentEntry.objects.get(pk=entries[n].pk) for n in order)
    # Half: 12 = 6 + 6; the rest: 13 = 7 (first from the dealer's left) + 6.
    assert (first.bounties_won, second.bounties_won) == (6, 6)
    assert (first.bounty, second.bounty) == (25 + 7, 25 + 6)
    assert_reconciled()


def test_the_champion_receives_their_own_bounty_and_every_bounty_is_paid_once(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[1000, 100]], **KO)
    fund_bounties(tournament, entries, 25)
    before = _wallet(entries["t0p0"])
    round_ = play(monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p1": -50}))
    assert job(tournament, tables[0], round_.pk) == "finished"
    champion = TournamentEntry.objects.get(pk=entries["t0p0"].pk)
    assert champion.place == 1 and champion.bounty == 0
    assert champion.bounties_won == 12 + 38 and _wallet(champion) == before + 50 + champion.prize
    assert bounty_balance(tournament) == 0
    own = Transfer.objects.get(idempotency_key=f"tournament:{tournament.pk}:bounties:champion")
    assert own.computation == {"why": "champion", "bounties": {"t0p0": 38}}
    assert_reconciled()


def test_a_cancellation_pays_the_players_still_in_their_bounties(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[1000, 100, 1000]], **KO)
    fund_bounties(tournament, entries, 25)
    round_ = play(monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": 150}, out="t0p0"))
    job(tournament, tables[0], round_.pk)
    admin_actions.cancel(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    assert bounty_balance(tournament) == 0
    won = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list("player__username", "bounties_won")
    )
    assert won == {"t0p0": 12 + 38, "t0p1": 0, "t0p2": 25}
    assert_reconciled()


def test_a_reentry_carries_a_new_bounty(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = new_multi(
        admin_user, bounty_share=50, buy_in=100, reentry=True, late_registration_levels=2, instant_rounds=True
    )
    users = [make_player(f"re{i}", chips=1000) for i in range(3)]
    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)
    admin_actions.start(tournament_id=tournament.pk)
    entry = TournamentEntry.objects.get(player=users[1], tournament=tournament)
    table = entry.table
    stacks = {u.username: 0 for u in users}
    stacks[users[0].username] = 100
    stacks[users[1].username] = -5000
    round_ = play(monkeypatch, table, fixed_result(stacks))
    job(tournament, table, round_.pk)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.BUSTED and entry.bounty == 0
    registration.register(user=users[1], tournament_id=tournament.pk)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.PLAYING and entry.reentries == 1 and entry.bounty == 50
    assert bounty_balance(tournament) == 50 + 25 + 50 + 50  # the winner's 75, a head's 50, the new head's 50
    assert Account.objects.get(pk=bounty_account(tournament).pk).balance == sum(
        TournamentEntry.objects.filter(tournament=tournament).values_list("bounty", flat=True)
    )
    assert_reconciled()


def test_the_audit_page_shows_each_bounty_with_its_computation(
    make_player: Any, admin_user: Any, staff_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.test import Client

    tournament, tables, entries = seated(admin_user, make_player, [[1000, 100]], **KO)
    fund_bounties(tournament, entries, 25)
    round_ = play(monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p1": -50}))
    job(tournament, tables[0], round_.pk)
    browser = Client()
    browser.force_login(staff_user)
    page = browser.get(f"/audit/tournaments/{tournament.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-role="bounties"' in text
    assert text.count('data-role="bounty-row"') == 2  # the knockout, the champion's own
    assert 'data-why="knockout"' in text and 'data-why="champion"' in text
    knockout = Transfer.objects.get(kind=TransferKind.PAYOUT, entry_id=entries["t0p1"].pk)
    assert f"#{knockout.pk}" in text and "t0p0 12" in text and "t0p0 13" in text
    shown = browser.get(f"/audit/transfers/{knockout.pk}/")
    assert shown.status_code == 200 and "half_paid" in shown.content.decode()
