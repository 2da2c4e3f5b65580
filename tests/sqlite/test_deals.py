"""The final-table deal on the embedded default, over HTTP with the worker's part run in process
(tests/sqlite/harness.py): a multi-table tournament of three at one table stopped between rounds; a deal proposed,
accepted and paid at once, then played to the end for the title and the amount kept; and one declined, changing
nothing (docs/rules.md "The final-table deal")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone

from tests.ledger.utils import assert_reconciled
from tests.sqlite.harness import Player, Site
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, GameStatus, Round, Table
from tournaments.tournament.models import Tournament, TournamentStatus

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]

BUY_IN, FEE, CHIPS = 100, 10, 1000


def _between_rounds(site: Site, tid: int) -> None:
    """Run the worker's messages one at a time and the bots' moves until the table's first round is over and its
    job has run (its next deal still queued)."""
    current_app.loader.import_default_modules()  # every app's tasks, as a worker has them
    table = Table.objects.get(tournament_id=tid)
    games = Game.objects.filter(table=table)
    for _ in range(20_000):
        table.refresh_from_db()
        game = games.get()
        if (
            game.status != GameStatus.PLAYING
            and not table.awaiting_job
            and Round.objects.filter(game=game).exists()
        ):
            return
        if site.queue:
            name, args = site.queue.pop(0)
            if name not in (dispatch.TURN_CLOCK, dispatch.CLOSE_CLAIMS):
                current_app.tasks[name].run(*args)
        elif not site.step(games):
            raise AssertionError("stalled")
    raise AssertionError("never between rounds")


def _started(site: Site) -> tuple[Player, dict[str, Player], int]:
    admin = site.admin()
    created = admin.post(
        "/tournaments/",
        {
            "name": "sqlite deal",
            "kind": "multi",
            "game": "rummy500",
            "options": {"turn_seconds": 30, "time_bank_seconds": 0},
            "buy_in": BUY_IN,
            "fee": FEE,
            "max_entrants": 10,
            "starting_stack": 300,
            "seats": 4,
            "pcr_schedule": [1, 2, 5, 10, 25, 50],
            "rounds_per_level": 1,
            "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
            "payouts": [70, 30],
        },
        expect=201,
    )
    tid = int(created["id"])
    players = {name: site.player(name, chips=CHIPS, admin=admin) for name in ("sqa", "sqb", "sqc")}
    for player in players.values():
        player.post(f"/tournaments/{tid}/register/", expect=201)
    admin.post(f"/tournaments/{tid}/start/")
    _between_rounds(site, tid)
    return admin, players, tid


def _to_the_end(site: Site, tid: int) -> None:
    site.play(
        lambda: Game.objects.filter(table__tournament_id=tid),
        until=lambda: Tournament.objects.get(pk=tid).status == TournamentStatus.FINISHED,
    )
    site.run_messages()


def test_a_deal_accepted_and_paid_then_played_for_the_title(sqlite_site: Site) -> None:
    site = sqlite_site
    admin, players, tid = _started(site)
    names = list(players)
    wallets = {n: players[n].get("/wallet/")["balance"] for n in names}
    deal = players["sqa"].post(f"/tournaments/{tid}/deal/", {"method": "icm"}, expect=201)
    for name in names[1:]:
        answered = players[name].post(f"/tournaments/{tid}/deal/{deal['id']}/answer/", {"accept": True})
    assert answered["status"] == "accepted"
    assert {n: players[n].get("/wallet/")["balance"] - wallets[n] for n in names} == deal["amounts"]
    _to_the_end(site, tid)
    standings = admin.get(f"/tournaments/{tid}/standings/")["results"]
    winner = next(s["username"] for s in standings if s["place"] == 1)
    for s in standings:
        assert s["prize"] == deal["amounts"][s["username"]] + (deal["keep"] if s["username"] == winner else 0)
    assert sum(s["prize"] for s in standings) == 3 * BUY_IN
    assert admin.get("/ledger/reconciliation/")["ok"] is True
    assert_reconciled()


def test_a_deal_declined_changes_nothing(sqlite_site: Site) -> None:
    site = sqlite_site
    admin, players, tid = _started(site)
    wallets = {n: p.get("/wallet/")["balance"] for n, p in players.items()}
    deal = players["sqb"].post(f"/tournaments/{tid}/deal/", {"method": "chips"}, expect=201)
    declined = players["sqc"].post(f"/tournaments/{tid}/deal/{deal['id']}/answer/", {"accept": False})
    assert declined["status"] == "declined"
    assert {n: p.get("/wallet/")["balance"] for n, p in players.items()} == wallets
    _to_the_end(site, tid)
    standings = admin.get(f"/tournaments/{tid}/standings/")["results"]
    assert sorted((s["prize"] for s in standings), reverse=True) == [210, 90, 0]
    assert_reconciled()
