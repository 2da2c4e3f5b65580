"""A rebuy-and-add-on tournament and a progressive knockout over HTTP on the embedded default, from registration
to payout (docs/rules.md "Rebuys and the add-on", "Progressive knockout"): created by an admin with the options,
registered and started over the API, played card by card by greedy bots through the move endpoint; a player left
without chips rebuys over the API before the next deal (`POST /tournaments/{id}/rebuy/`), each player at the
add-on break takes it (`POST /tournaments/{id}/addon/`); the pool and every bounty are paid exactly once and the
ledger reconciles."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Sum

from ledger.models import Account, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tests.sqlite.harness import Player, Site
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Seat
from tournaments.multi_table import rebuys
from tournaments.tournament.entry_payments import bounty_account
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]

BUY_IN, FEE, CHIPS, STACK, ENTRANTS = 100, 10, 2000, 150, 6


def _create(admin: Player, **formats: Any) -> int:
    from datetime import timedelta

    from django.utils import timezone

    created = admin.call(
        "POST",
        "/tournaments/",
        {
            "name": "formats",
            "kind": "multi",
            "game": "rummy500",
            "options": {"turn_seconds": 30, "time_bank_seconds": 0},
            "buy_in": BUY_IN,
            "fee": FEE,
            "max_entrants": 50,
            "min_entrants": 2,
            "starting_stack": STACK,
            "seats": 4,
            "pcr_schedule": [2, 5, 10, 25, 50],
            "rounds_per_level": 1,
            "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
            "payouts": [60, 40],
            **formats,
        },
        expect=201,
    )
    shown = admin.get(f"/tournaments/{created['id']}/")
    assert all(shown[k] == v for k, v in formats.items()), shown
    return int(created["id"])


def _bots_buy(tid: int, players: dict[str, Player], bought: dict[str, int]) -> None:
    """Between rounds: a player without chips rebuys, a player at the add-on break takes it, over the API when the
    API says they may (`GET /tournaments/{id}/rebuy/`)."""
    tournament = Tournament.objects.get(pk=tid)
    if tournament.rebuy_levels <= 0 or tournament.status != TournamentStatus.RUNNING:
        return
    for game in Game.objects.filter(table__tournament_id=tid, status=GameStatus.WAITING).select_related(
        "current_round"
    ):
        number = game.current_round.number if game.current_round else None
        at_break = rebuys.table_at_addon_break(tournament, number)
        for seat in Seat.objects.filter(table_id=game.table_id, status__in=SEATED_STATUSES).select_related(
            "player", "stack_account"
        ):
            if seat.chips > 0 and not at_break:
                continue
            player = players[seat.player.get_username()]
            may = player.get(f"/tournaments/{tid}/rebuy/")
            if may["can_rebuy"] and seat.chips <= 0:
                player.post(f"/tournaments/{tid}/rebuy/")
                bought["rebuy"] += 1
            if may["can_addon"]:
                player.post(f"/tournaments/{tid}/addon/")
                bought["addon"] += 1


def _play(site: Site, admin: Player, **formats: Any) -> tuple[Tournament, dict[str, int]]:
    tid = _create(admin, **formats)
    players = {f"fx{i}": site.player(f"fx{i}", chips=CHIPS, admin=admin) for i in range(ENTRANTS)}
    for player in players.values():
        player.post(f"/tournaments/{tid}/register/", expect=201)
    assert admin.post(f"/tournaments/{tid}/start/")["status"] == "running"
    bought = {"rebuy": 0, "addon": 0}
    site.play(
        lambda: Game.objects.filter(table__tournament_id=tid),
        until=lambda: Tournament.objects.get(pk=tid).status == TournamentStatus.FINISHED,
        check=lambda: _bots_buy(tid, players, bought),
    )
    site.run_messages()
    tournament = Tournament.objects.get(pk=tid)
    standings = admin.get(f"/tournaments/{tid}/standings/?page_size=50")["results"]
    places = sorted(s["place"] for s in standings)
    # Every entrant placed; players busted together with equal chips and melds share a place and the next
    # ones are skipped (docs/tournaments.md "Places": 1, 2, 2, 4).
    assert len(places) == ENTRANTS and places[0] == 1
    assert all(p == places[i - 1] or p == i + 1 for i, p in enumerate(places) if i), places
    assert tournament.pool_account is not None and tournament.pool_account.balance == 0
    assert not Account.objects.filter(chip_type=tournament_chip_type(tid)).exclude(balance=0).exists()
    assert admin.get("/ledger/reconciliation/")["ok"] is True
    assert_reconciled()
    return tournament, bought


def test_a_rebuy_and_addon_tournament_is_played_over_http_to_its_payout(
    sqlite_site: Site, settings: Any
) -> None:
    settings.RAMINO_REBUY_WAIT_SECONDS = 0
    admin = sqlite_site.admin()
    tournament, bought = _play(
        sqlite_site,
        admin,
        rebuy_levels=3,
        rebuy_cost=BUY_IN,
        rebuy_fee=FEE,
        max_rebuys=2,
        addon_cost=BUY_IN,
        addon_fee=FEE,
        addon_chips=STACK,
        addon_seconds=0,
    )
    entries = TournamentEntry.objects.filter(tournament=tournament)
    rebought = entries.aggregate(n=Sum("rebuys"))["n"]
    addons = entries.filter(addon=True).count()
    assert bought["addon"] == addons > 0 and rebought == bought["rebuy"] > 0
    prizes = entries.aggregate(s=Sum("prize"))["s"]
    assert prizes == BUY_IN * (ENTRANTS + rebought + addons)  # the pool grew with each
    events = [e["kind"] for e in admin.get(f"/tournaments/{tournament.pk}/events/?after=0")["events"]]
    assert "addon" in events and events[-1] == "finished"


def test_a_knockout_tournament_is_played_over_http_to_its_payout(sqlite_site: Site) -> None:
    admin = sqlite_site.admin()
    tournament, _ = _play(sqlite_site, admin, bounty_share=50)
    entries = TournamentEntry.objects.filter(tournament=tournament)
    assert entries.aggregate(s=Sum("bounties_won"))["s"] == ENTRANTS * 50  # every bounty paid once
    assert entries.aggregate(s=Sum("prize"))["s"] == ENTRANTS * 50  # the pool: the rest of each buy-in
    assert Account.objects.get(pk=bounty_account(tournament).pk).balance == 0
    champion = admin.get(f"/tournaments/{tournament.pk}/standings/?page_size=50")["results"][0]
    assert champion["place"] == 1 and champion["bounties_won"] >= 50 and champion["bounty"] == 0
    events = [e["kind"] for e in admin.get(f"/tournaments/{tournament.pk}/events/?after=0")["events"]]
    assert "knockouts" in events and "bounties_paid" in events
