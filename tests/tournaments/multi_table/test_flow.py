"""A multi-table tournament end to end with instant rounds, driven in-process (`driver.drive`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from devtools import multi_table_driver as driver
from ledger.models import Account, AccountKind, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, new_multi, register_all
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Round
from tournaments.live.rounds import instant as instant_rounds
from tournaments.multi_table import balance as multi_balance
from tournaments.multi_table import start
from tournaments.multi_table.balance import open_table_sizes
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentEvent, TournamentStatus

pytestmark = pytest.mark.django_db


def test_twelve_entrants_play_to_one_winner_with_every_place_and_the_pool_paid(
    make_player: Any, admin_user: Any
) -> None:
    tournament = new_multi(admin_user, instant_rounds=True, payouts=[50, 30, 20])
    users = [make_player(f"m{i}", chips=1000) for i in range(12)]
    register_all(tournament, users)
    steps: list[int] = []

    def check(name: str, args: list[object]) -> None:
        steps.append(chips_conserved(tournament))

    ran = driver.drive(tournament_id=tournament.pk, after_message=check)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED, (tournament.status, ran)
    assert all(chips == 12 * 1000 for chips in steps[:-1])
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    places = sorted(e.place for e in entries if e.place is not None)
    assert len(places) == 12 and places[0] == 1 and places.count(1) == 1
    assert [e.status for e in entries].count(EntryStatus.FINISHED) == 1
    assert sum(e.prize for e in entries) == 1200
    assert tournament.pool_account is not None
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == 0
    assert Account.objects.get(minting_tournament=tournament).balance == 0
    assert (
        not Account.objects.filter(chip_type=tournament_chip_type(tournament.pk)).exclude(balance=0).exists()
    )
    kinds = list(TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert kinds[0] == "started" and kinds[-1] == "finished" and "busted" in kinds and "final_table" in kinds
    assert (
        Account.objects.filter(kind=AccountKind.WALLET, chip_type=tournament_chip_type(tournament.pk)).count()
        == 0
    )
    assert_reconciled()


class _Seeded:
    """`secrets` with a seeded SystemRandom: a run is then repeatable (what the simulate command does)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def SystemRandom(self) -> random.Random:
        return self.rng


def _seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    seeded = _Seeded(seed)
    for module in (instant_rounds, start, multi_balance):
        monkeypatch.setattr(module, "secrets", seeded)


def test_round_for_round_at_the_bubble_then_balanced_tables(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """8 entrants at 2 tables of 4, 4 paid: with 5 left (the bubble) each table deals one round per
    synchronized round, and never the next before every table has ended the one before. All along: no table
    over its seats, players moved only from the table whose round just ended (or at a release, when all are
    between rounds), and that table within one of the smallest afterwards."""
    users = [make_player(f"b{i}", chips=10_000) for i in range(8)]
    sync_of: dict[int, int] = {}
    for seed in range(12):
        _seed(monkeypatch, seed)
        tournament = new_multi(
            admin_user, instant_rounds=True, payouts=[40, 30, 20, 10], pcr_schedule=[1, 2, 4, 8, 16, 32]
        )
        register_all(tournament, users)
        seen = {"version": 0}

        def check(name: str, args: list[Any], tournament: Any = tournament, seen: Any = seen) -> None:
            tournament.refresh_from_db()
            sizes = open_table_sizes(tournament)
            assert all(size <= tournament.seats for size in sizes.values())
            events = TournamentEvent.objects.filter(tournament=tournament, version__gt=seen["version"])
            seen["version"] = tournament.version
            if name == TABLE_ROUND_OVER:
                table = args[1]
                for event in events.filter(kind="moved"):
                    if event.data["why"] == "balance":
                        assert {m["from"] for m in event.data["moves"]} == {table}
                if table in sizes and tournament.status == TournamentStatus.RUNNING:
                    assert sizes[table] <= min(sizes.values()) + 1, sizes
                if any(e.kind == "sync_round" for e in events):
                    assert max(sizes.values()) - min(sizes.values()) <= 1, sizes
            if name == dispatch.START_ROUND and tournament.round_for_round:
                game = Game.objects.get(pk=args[0])
                if game.current_round_id and game.current_round_id not in sync_of:
                    sync_of[game.current_round_id] = tournament.sync_round

        driver.drive(tournament_id=tournament.pk, after_message=check)
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.FINISHED
        assert_reconciled()
        if sync_of:
            break
    assert sync_of, "no seed reached the bubble with two tables"
    kinds = list(TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert "round_for_round" in kinds and "sync_round" in kinds
    rounds = {r.pk: r for r in Round.objects.filter(pk__in=sync_of).select_related("game")}
    by_sync: dict[int, list[Round]] = {}
    for round_id, sync in sync_of.items():
        by_sync.setdefault(sync, []).append(rounds[round_id])
    for sync, played in by_sync.items():
        tables = [r.game.table_id for r in played]
        assert len(tables) == len(set(tables)), "a table dealt twice in one synchronized round"
        later = [r for s, rs in by_sync.items() if s > sync for r in rs]
        assert all(r.started_at >= max(p.ended_at for p in played if p.ended_at) for r in later)
