"""The final-table deal over the API (docs/rules.md "The final-table deal"): only at the final table between
rounds, proposals at most once per player per level, the next deal held while the players answer, all accepting
paid at once through the ledger with the computation, the winner paid the amount kept, a refusal or the time
running out changing nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from devtools import multi_table_driver as driver
from ledger.models import Account, Transfer
from ledger.services import accounts
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import seated
from tournaments.deals import icm, services
from tournaments.deals.models import Deal, DealStatus
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, GameStatus
from tournaments.multi_table.policy import MultiTablePolicy
from tournaments.tournament.models import TournamentEntry, TournamentStatus
from tournaments.tournament.start_common import pay_guarantee

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def _final(
    admin: Any, make_player: Any, stacks: list[int] | None = None, **overrides: Any
) -> tuple[Any, Any]:
    fields = {"guarantee": 1000, "payouts": [50, 30, 20], "deal_keep": 10, "deal_seconds": 60, **overrides}
    tournament, tables, _ = seated(admin, make_player, [stacks or [600, 300, 100]], **fields)
    pay_guarantee(tournament, entrants=0)
    return tournament, tables[0]


def _wallet(name: str) -> int:
    from django.contrib.auth.models import User

    return int(accounts.get_wallet(user=User.objects.get(username=name)).balance)


def _propose(client_for: Any, user: Any, tournament: Any, method: str = "icm") -> Any:
    return client_for(user).post(
        f"/api/v1/tournaments/{tournament.pk}/deal/", {"method": method}, format="json"
    )


def _answer(client_for: Any, name: str, tournament: Any, deal_id: int, accept: bool) -> Any:
    from django.contrib.auth.models import User

    return client_for(User.objects.get(username=name)).post(
        f"/api/v1/tournaments/{tournament.pk}/deal/{deal_id}/answer/", {"accept": accept}, format="json"
    )


def _user(name: str) -> Any:
    from django.contrib.auth.models import User

    return User.objects.get(username=name)


def test_all_accept_pays_the_icm_amounts_at_once_and_the_winner_the_amount_kept(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    tournament, table = _final(admin_user, make_player)
    before = {n: _wallet(n) for n in ("t0p0", "t0p1", "t0p2")}
    preview = client_for(_user("t0p1")).get(f"/api/v1/tournaments/{tournament.pk}/deal/").json()
    assert preview["can_propose"] is True and preview["deal"] is None
    expected = icm.offer(
        chips={"t0p0": 600, "t0p1": 300, "t0p2": 100}, prizes=[500, 300, 200], keep_percent=10
    )
    assert preview["preview"]["icm"] == expected.icm and preview["preview"]["chip_count"] == expected.by_chips
    assert preview["preview"]["keep"] == 100 and preview["preview"]["unpaid"] == 1000

    proposed = _propose(client_for, _user("t0p1"), tournament)
    assert proposed.status_code == 201, proposed.json()
    deal = proposed.json()
    assert deal["status"] == "open" and deal["amounts"] == expected.icm and deal["answers"] == {"t0p1": True}
    assert sum(deal["amounts"].values()) == 900 and deal["keep"] == 100

    # The table's next deal waits while the players answer.
    game = Game.objects.get(table=table)
    tournament.refresh_from_db()
    now = timezone.now()
    assert MultiTablePolicy(tournament, table).holds_deal(game=game, now=now) is True
    game.refresh_from_db()
    assert game.next_round_at is not None and game.next_round_at > now + timedelta(seconds=50)

    assert _answer(client_for, "t0p0", tournament, deal["id"], True).json()["status"] == "open"
    assert _answer(client_for, "t0p0", tournament, deal["id"], True).json()["error"]["code"] == (
        "deal.already_answered"
    )
    accepted = _answer(client_for, "t0p2", tournament, deal["id"], True)
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    for name, amount in expected.icm.items():
        assert _wallet(name) == before[name] + amount
    row = Deal.objects.get(pk=deal["id"])
    assert row.transfer_id is not None
    transfer = Transfer.objects.get(pk=row.transfer_id)
    assert transfer.computation["why"] == "deal" and transfer.computation["icm"] == expected.icm
    assert transfer.computation["place_chances"]["t0p0"][0] == "3/5"
    assert tournament.pool_account is not None
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == 100
    # The held deal is dealt at once; play goes on for the title and the amount kept.
    game.refresh_from_db()
    assert game.next_round_at is not None and game.next_round_at <= timezone.now()
    driver.drive(tournament_id=tournament.pk, start=False, seed_messages=[(dispatch.START_ROUND, [game.pk])])
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    entries = {e.player.username: e for e in TournamentEntry.objects.filter(tournament=tournament)}
    winner = next(n for n, e in entries.items() if e.place == 1)
    for name, entry in entries.items():
        assert entry.prize == expected.icm[name] + (100 if name == winner else 0)
        assert _wallet(name) == before[name] + entry.prize
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == 0
    assert sum(e.prize for e in entries.values()) == 1000
    audit = client_for(admin_user).get(f"/api/v1/tournaments/{tournament.pk}/deals/").json()["deals"]
    assert audit[0]["computation"]["keep"] == 100 and audit[0]["status"] == "accepted"
    assert client_for(_user("t0p0")).get(f"/api/v1/tournaments/{tournament.pk}/deals/").status_code == 403
    from django.test import Client

    staff = Client()
    staff.force_login(admin_user)
    page = staff.get(f"/audit/tournaments/{tournament.pk}/").content.decode()
    assert f'data-deal="{deal["id"]}" data-status="accepted"' in page
    assert "3/5" in page and f"/audit/transfers/{row.transfer_id}/" in page
    assert_reconciled()


def test_chip_count_offer_declined_changes_nothing_and_the_held_deal_goes_ahead(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    tournament, table = _final(admin_user, make_player)
    before = {n: _wallet(n) for n in ("t0p0", "t0p1", "t0p2")}
    deal = _propose(client_for, _user("t0p0"), tournament, "chips").json()
    assert deal["amounts"] == {"t0p0": 540, "t0p1": 270, "t0p2": 90}
    game = Game.objects.get(table=table)
    MultiTablePolicy(tournament, table).holds_deal(game=game, now=timezone.now())
    declined = _answer(client_for, "t0p2", tournament, deal["id"], False)
    assert declined.json()["status"] == "declined"
    assert {n: _wallet(n) for n in before} == before
    assert tournament.pool_account is not None
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == 1000
    game.refresh_from_db()
    assert game.next_round_at is not None and game.next_round_at <= timezone.now()
    assert _answer(client_for, "t0p1", tournament, deal["id"], True).json()["error"]["code"] == "deal.closed"
    # At most once per player per level: the same proposer is refused, another player may propose.
    assert _propose(client_for, _user("t0p0"), tournament).json()["error"]["code"] == "deal.already_proposed"
    assert _propose(client_for, _user("t0p1"), tournament).status_code == 201
    assert _propose(client_for, _user("t0p2"), tournament).json()["error"]["code"] == "deal.pending"
    assert_reconciled()


def test_the_time_running_out_ends_the_offer_unchanged(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    tournament, table = _final(admin_user, make_player)
    deal = _propose(client_for, _user("t0p0"), tournament).json()
    assert services.expire(deal_id=deal["id"]) is False  # not yet
    Deal.objects.filter(pk=deal["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert (
        MultiTablePolicy(tournament, table).holds_deal(game=Game.objects.get(table=table), now=timezone.now())
        is False
    )
    assert _answer(client_for, "t0p1", tournament, deal["id"], True).json()["error"]["code"] == "deal.closed"
    assert services.expire(deal_id=deal["id"]) is True
    assert services.expire(deal_id=deal["id"]) is False  # twice: nothing more
    assert Deal.objects.get(pk=deal["id"]).status == DealStatus.EXPIRED
    assert tournament.pool_account is not None
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == 1000


def test_refusals(admin_user: Any, make_player: Any, client_for: Any) -> None:
    tournament, table = _final(admin_user, make_player)
    outsider = make_player("outsider")
    assert _propose(client_for, outsider, tournament).json()["error"]["code"] == "deal.not_a_player"
    bad = _propose(client_for, _user("t0p0"), tournament, "equal")
    assert bad.status_code == 400
    # Only between rounds.
    Game.objects.filter(table=table).update(status=GameStatus.PLAYING)
    assert _propose(client_for, _user("t0p0"), tournament).json()["error"]["code"] == "deal.round_running"
    Game.objects.filter(table=table).update(status=GameStatus.WAITING)
    # Only while late registration is over.
    type(tournament).objects.filter(pk=tournament.pk).update(late_registration_levels=1)
    assert _propose(client_for, _user("t0p0"), tournament).json()["error"]["code"] == "deal.not_final_table"


def test_only_at_the_final_table(admin_user: Any, make_player: Any, client_for: Any) -> None:
    tournament, _, _ = seated(admin_user, make_player, [[100, 100], [100, 100]], guarantee=100)
    refused = _propose(client_for, _user("t0p0"), tournament)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "deal.not_final_table"
    view = client_for(_user("t0p0")).get(f"/api/v1/tournaments/{tournament.pk}/deal/").json()
    assert view["can_propose"] is False and view["why_not"] == "deal.not_final_table"


def test_nothing_to_share(admin_user: Any, make_player: Any, client_for: Any) -> None:
    tournament, _, _ = seated(admin_user, make_player, [[100, 100]])
    assert _propose(client_for, _user("t0p0"), tournament).json()["error"]["code"] == "deal.nothing_to_share"


def test_after_a_deal_another_is_refused(admin_user: Any, make_player: Any, client_for: Any) -> None:
    tournament, _ = _final(admin_user, make_player, stacks=[500, 500])
    deal = _propose(client_for, _user("t0p0"), tournament).json()
    assert deal["amounts"] == {"t0p0": 450, "t0p1": 450} and deal["keep"] == 100
    assert _answer(client_for, "t0p1", tournament, deal["id"], True).json()["status"] == "accepted"
    assert _propose(client_for, _user("t0p1"), tournament).json()["error"]["code"] == "deal.already_made"
    assert_reconciled()


def test_a_satellite_refuses_a_deal_and_changes_nothing(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    """docs/rules.md "The final-table deal": never in a satellite (its prizes are tickets): the proposal is
    refused with its own code, nothing moves, the table's next deal is not held, and the view offers nothing."""
    from tests.tournaments.multi_table.helpers import new_multi
    from tournaments.tournament.models import Tournament, TournamentEvent

    target = new_multi(admin_user, buy_in=100, fee=10)
    tournament, table = _final(admin_user, make_player)
    Tournament.objects.filter(pk=tournament.pk).update(satellite_target=target)
    tournament.refresh_from_db()
    before = {n: _wallet(n) for n in ("t0p0", "t0p1", "t0p2")}
    assert tournament.pool_account is not None
    pool = Account.objects.get(pk=tournament.pool_account.pk).balance
    game = Game.objects.get(table=table)
    next_round_at, events, transfers = (
        game.next_round_at,
        TournamentEvent.objects.count(),
        Transfer.objects.count(),
    )

    for method in ("icm", "chips"):
        refused = _propose(client_for, _user("t0p0"), tournament, method)
        assert refused.status_code == 409, refused.json()
        assert refused.json()["error"]["code"] == "deal.satellite"
    italian = client_for(_user("t0p1")).post(
        f"/api/v1/tournaments/{tournament.pk}/deal/",
        {"method": "icm"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert italian.json()["error"]["code"] == "deal.satellite"
    assert italian.json()["error"]["message"].startswith("In un satellite non si fanno accordi")
    assert italian.json()["error"]["message"] != refused.json()["error"]["message"]

    view = client_for(_user("t0p0")).get(f"/api/v1/tournaments/{tournament.pk}/deal/").json()
    assert view == {"deal": None, "preview": None, "can_propose": False, "why_not": "deal.satellite"}
    assert not Deal.objects.filter(tournament=tournament).exists()
    assert {n: _wallet(n) for n in before} == before
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == pool
    assert (TournamentEvent.objects.count(), Transfer.objects.count()) == (events, transfers)
    game.refresh_from_db()
    assert game.next_round_at == next_round_at
    assert MultiTablePolicy(tournament, table).holds_deal(game=game, now=timezone.now()) is False
    # The same final table with no satellite target would take the proposal: the refusal is the satellite's.
    Tournament.objects.filter(pk=tournament.pk).update(satellite_target=None)
    assert _propose(client_for, _user("t0p0"), tournament).status_code == 201
