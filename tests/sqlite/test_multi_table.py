"""Multi-table tournaments on SQLite from registration to payout, over HTTP: registered by the players, started
by an admin's `POST /tournaments/{id}/start/` (on SQLite that answered 503 while the start wrote
PostgreSQL-only SQL) or by the schedule's task at `starts_at`, played card by card by greedy bots through the
move endpoint, a table broken on the way, to one winner and the pool paid; the tournament's chips are
conserved at every step and the ledger reconciles."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from celery import current_app
from django.utils import timezone

from ledger.models import Account, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tests.sqlite.conftest import Sides
from tests.sqlite.harness import Player, Site
from tests.tournaments.multi_table.helpers import chips_conserved
from tournaments.live.models import Game
from tournaments.multi_table import seating
from tournaments.multi_table.task_names import RUN_TOURNAMENT_SCHEDULE, TABLE_ROUND_OVER
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]

BUY_IN, FEE, CHIPS, STACK = 100, 10, 1000, 150
ENTRANTS = 6


def _create(admin: Player, **overrides: Any) -> int:
    created = admin.call(
        "POST",
        "/tournaments/",
        {
            "name": "sqlite multi",
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
            **overrides,
        },
        expect=201,
    )
    return int(created["id"])


def _register(site: Site, admin: Player, tid: int) -> dict[str, Player]:
    players = {f"mt{i:02d}": site.player(f"mt{i:02d}", chips=CHIPS, admin=admin) for i in range(ENTRANTS)}
    for player in players.values():
        player.post(f"/tournaments/{tid}/register/", expect=201)
    return players


def _seated(admin: Player, tid: int) -> Tournament:
    """The started tournament: its entrants at two tables of three, every entry PLAYING at its own seat."""
    tournament = Tournament.objects.get(pk=tid)
    assert tournament.status == TournamentStatus.RUNNING
    tables = admin.get(f"/tournaments/{tid}/tables/")["results"]
    assert sorted(len(t["players"]) for t in tables) == [3, 3]
    entries = list(TournamentEntry.objects.filter(tournament_id=tid).select_related("seat"))
    seats = [e.seat for e in entries if e.status == EntryStatus.PLAYING and e.seat is not None]
    assert len(seats) == ENTRANTS
    assert all(
        s.table_id == e.table_id and s.player_id == e.player_id for e, s in zip(entries, seats, strict=True)
    )
    assert len({e.seat_id for e in entries}) == ENTRANTS
    assert chips_conserved(tournament) == ENTRANTS * STACK
    return tournament


def _play_to_the_end(site: Site, admin: Player, tid: int, players: dict[str, Player]) -> None:
    tournament = _seated(admin, tid)

    def conserved() -> None:
        # Every tournament chip minted is at a seat until the finish retires them (mint = -stacks).
        in_play = chips_conserved(tournament)
        assert in_play in (ENTRANTS * STACK, 0), in_play

    site.play(
        lambda: Game.objects.filter(table__tournament_id=tid),
        until=lambda: Tournament.objects.get(pk=tid).status == TournamentStatus.FINISHED,
        check=conserved,
    )
    site.run_messages()

    assert site.ran.get(TABLE_ROUND_OVER, 0) > 0 and site.moves > 0
    standings = admin.get(f"/tournaments/{tid}/standings/?page_size=50")["results"]
    places = sorted(s["place"] for s in standings)
    # players busted in one round with equal chips and melded value share a place, and the next is skipped
    # (docs/tournaments.md "Places"): 1, 2, 3, 4, 5, 5 is a valid order, as 1, 2, 3, 4, 5, 6 is
    assert len(places) == ENTRANTS and places[0] == 1, standings
    assert all(place == rank + 1 or place == places[rank - 1] for rank, place in enumerate(places)), standings
    # The winner's row keeps the chips they finished with (every chip in play), the others 0.
    assert [s["chips"] for s in sorted(standings, key=lambda s: s["place"])] == [ENTRANTS * STACK] + [0] * (
        ENTRANTS - 1
    )
    pool = BUY_IN * ENTRANTS
    assert sum(s["prize"] for s in standings) == pool
    report = admin.get(f"/tournaments/{tid}/payouts/")
    assert report["prize_pool"] == pool and sum(p["amount"] for p in report["prizes"]) == pool
    assert Account.objects.get(tournament=tournament).balance == 0
    assert not Account.objects.filter(chip_type=tournament_chip_type(tid)).exclude(balance=0).exists()
    wallets = sum(p.get("/wallet/")["balance"] for p in players.values())
    assert wallets == (CHIPS - FEE) * ENTRANTS
    kinds = [e["kind"] for e in admin.get(f"/tournaments/{tid}/events/?after=0")["events"]]
    assert kinds[0] == "started" and kinds[-1] == "finished"
    assert "busted" in kinds and "final_table" in kinds
    reconciliation = admin.get("/ledger/reconciliation/")
    assert reconciliation["ok"] is True and reconciliation["problems"] == []
    assert_reconciled()


def test_an_admin_starts_a_multi_table_tournament_played_to_its_payout(
    sqlite_site: Site, vendor_sides: Sides
) -> None:
    site = sqlite_site
    admin = site.admin()
    tid = _create(admin)
    players = _register(site, admin, tid)
    started = admin.post(f"/tournaments/{tid}/start/")
    assert started["status"] == "running", started
    _play_to_the_end(site, admin, tid, players)
    assert vendor_sides.ran("sqlite:move_context:keyed") == site.moves
    assert vendor_sides.pg() == {}


def test_the_schedule_starts_a_multi_table_tournament_at_its_time(sqlite_site: Site) -> None:
    site = sqlite_site
    admin = site.admin()
    tid = _create(admin)
    _register(site, admin, tid)
    Tournament.objects.filter(pk=tid).update(starts_at=timezone.now() - timedelta(seconds=1))
    counts = current_app.tasks[RUN_TOURNAMENT_SCHEDULE].run()
    assert counts["started"] == 1, counts
    _seated(admin, tid)
    site.run_messages()  # every table's first deal
    assert Game.objects.filter(table__tournament_id=tid, status="playing").count() == 2


def test_the_start_marks_every_entry_playing_across_statement_batches(
    sqlite_site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Batches of two rows: the entries' update runs in several statements, each matching seats to entries.
    monkeypatch.setattr(seating, "BATCH", 2)
    site = sqlite_site
    admin = site.admin()
    tid = _create(admin)
    _register(site, admin, tid)
    admin.post(f"/tournaments/{tid}/start/")
    _seated(admin, tid)


def test_a_batched_start_seats_deals_and_plays_to_its_payout(sqlite_site: Site, settings: Any) -> None:
    """One table a batch (docs/tournaments.md "The batched start"): the start's transaction seats the first
    table and deals nothing; its steps, run as the worker would, seat the second and deal both; then played to
    its payout as any other."""
    settings.RAMINO_START_BATCH_TABLES = 1
    site = sqlite_site
    admin = site.admin()
    tid = _create(admin)
    players = _register(site, admin, tid)
    admin.post(f"/tournaments/{tid}/start/")
    tournament = Tournament.objects.get(pk=tid)
    assert tournament.start_seed is not None and tournament.tables_open == 1
    assert not Game.objects.filter(table__tournament_id=tid, next_round_at__isnull=False).exists()
    late = site.player("latecomer", chips=CHIPS, admin=admin)
    refused = late.post(f"/tournaments/{tid}/register/", expect=409)
    assert refused["error"]["code"] == "tournament.seating"
    site.run_messages()  # the steps: the second table seated, both dealt (and their first rounds)
    tournament.refresh_from_db()
    assert tournament.start_seed is None and tournament.tables_open == 2
    _play_to_the_end(site, admin, tid, players)
