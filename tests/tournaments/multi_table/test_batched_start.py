"""The batched start of a large multi-table field (tournaments/multi_table/start.py, docs/tournaments.md "The
batched start"): tables seated `RAMINO_START_BATCH_TABLES` at a time, each batch its own transaction, then the
first deals in batches; the seating that of one seeded shuffle whatever the batches, each step done once however
often its message comes; while it runs no table's job deals, and late entries and cancelling are refused with
`tournament.seating`; a pause holds the deals until the resume; the sweeper re-sends a lost step."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from ledger.models import Transfer, TransferKind, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, new_multi, register_all
from tournaments.errors import Conflict
from tournaments.live.messaging import dispatch
from tournaments.live.models import SEATED_STATUSES, Game, Seat, SeatStatus, Table
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import progress
from tournaments.multi_table import start as multi_start
from tournaments.multi_table.planning.seating_plan import initial_tables
from tournaments.multi_table.task_names import START_BATCH, TABLE_ROUND_OVER
from tournaments.tournament import admin_actions, counters, registration
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db

ENTRANTS = 18  # 5 tables of 4 seats: 4, 4, 4, 3, 3


@pytest.fixture
def batched(settings: Any, admin_user: Any, make_player: Any) -> Tournament:
    settings.RAMINO_START_BATCH_TABLES = 2
    tournament = new_multi(admin_user, buy_in=0, fee=0, guarantee=0, reentry=True, late_registration_levels=3)
    register_all(tournament, [make_player(f"b{i:02d}") for i in range(ENTRANTS)])
    return tournament


def _steps(messages: list[tuple[str, list[Any]]]) -> list[str]:
    """Run the captured batch messages in order (each step sends the next) until none is left."""
    done: list[str] = []
    while messages:
        name, args = messages.pop(0)
        if name == START_BATCH:
            done.append(multi_start.seat_next_batch(tournament_id=args[0]))
    return done


def _seated_tables(tournament: Tournament) -> list[set[int]]:
    tables: dict[int, set[int]] = {}
    for entry, table in TournamentEntry.objects.filter(
        tournament=tournament, status=EntryStatus.PLAYING
    ).values_list("pk", "table_id"):
        tables.setdefault(table, set()).add(entry)
    return [tables[t] for t in sorted(tables)]


def test_a_large_field_is_seated_and_dealt_in_batches(batched: Tournament) -> None:
    with dispatch.captured() as messages:
        admin_actions.start(tournament_id=batched.pk)
        batched.refresh_from_db()
        assert batched.status == TournamentStatus.RUNNING and batched.start_seed is not None
        assert (batched.tables_open, batched.players_left) == (
            2,
            8,
        )  # the first batch, in the start's transaction
        assert not Game.objects.filter(table__tournament=batched, next_round_at__isnull=False).exists()
        assert [m[0] for m in messages if m[0].startswith("tournaments.")] == [START_BATCH]
        assert _steps(messages) == ["seated", "seated", "dealt", "dealt", "dealt", "done"]
    batched.refresh_from_db()
    assert batched.start_seed is None and batched.start_step_at is None
    assert (batched.tables_open, batched.players_left) == (5, ENTRANTS)
    assert batched.table_sizes == {"3": 2, "4": 3}
    assert not Game.objects.filter(table__tournament=batched, next_round_at__isnull=True).exists()
    assert TournamentEntry.objects.filter(tournament=batched, status=EntryStatus.PLAYING).count() == ENTRANTS
    assert Seat.objects.filter(table__tournament=batched, status=SeatStatus.ACTIVE).count() == ENTRANTS
    chip_type = tournament_chip_type(batched.pk)
    assert Transfer.objects.filter(kind=TransferKind.MINT, chip_type=chip_type).count() == 5
    assert chips_conserved(batched) == ENTRANTS * 1000
    assert counters.check(tournament_ids=[batched.pk]) == []
    assert_reconciled()


def test_the_seating_is_the_seeded_shuffle_whatever_the_batches_and_repeats(batched: Tournament) -> None:
    with dispatch.captured() as messages:
        admin_actions.start(tournament_id=batched.pk)
        batched.refresh_from_db()
        seed = batched.start_seed
        assert seed is not None
        # Every message delivered twice (a redelivery after a lost ack): no step is done twice.
        while messages:
            name, args = messages.pop(0)
            if name != START_BATCH:
                continue
            multi_start.seat_next_batch(tournament_id=args[0])
            multi_start.seat_next_batch(tournament_id=args[0])
    ids = list(
        TournamentEntry.objects.filter(tournament=batched)
        .order_by("registered_at", "pk")
        .values_list("pk", flat=True)
    )
    expected = initial_tables(ids, seats=4, rng=random.Random(seed))
    assert sorted(map(sorted, _seated_tables(batched))) == sorted(map(sorted, expected))
    chip_type = tournament_chip_type(batched.pk)
    assert Transfer.objects.filter(kind=TransferKind.MINT, chip_type=chip_type).count() == 5
    assert (
        Counter(
            Game.objects.filter(table__tournament=batched).values_list("next_round_at", flat=True)
        ).total()
        == 5
    )
    assert chips_conserved(batched) == ENTRANTS * 1000
    assert_reconciled()


def test_while_seating_no_job_deals_and_late_entries_and_cancelling_wait(
    batched: Tournament, make_player: Any
) -> None:
    with dispatch.captured() as messages:
        admin_actions.start(tournament_id=batched.pk)
        table = (
            Game.objects.filter(table__tournament=batched)
            .order_by("pk")
            .values_list("table_id", flat=True)[0]
        )
        assert (
            progress.after_table_round(tournament_id=batched.pk, table_id=table, round_id=None) == "starting"
        )
        assert not Game.objects.filter(table__tournament=batched, next_round_at__isnull=False).exists()
        newcomer = make_player("late")
        with pytest.raises(Conflict) as late:
            registration.register(user=newcomer, tournament_id=batched.pk)
        assert late.value.code == "tournament.seating"
        with pytest.raises(Conflict) as cancel:
            admin_actions.cancel(tournament_id=batched.pk)
        assert cancel.value.code == "tournament.seating"
        batched.refresh_from_db()
        assert batched.status == TournamentStatus.RUNNING and batched.tables_open == 2
        _steps(messages)
        # Once started, late registration seats the newcomer as usual.
        registration.register(user=newcomer, tournament_id=batched.pk)
    batched.refresh_from_db()
    assert batched.players_left == ENTRANTS + 1 and batched.start_seed is None
    assert counters.check(tournament_ids=[batched.pk]) == []
    assert_reconciled()


def test_a_pause_during_the_start_holds_the_deals_until_the_resume(batched: Tournament) -> None:
    with dispatch.captured() as messages:
        admin_actions.start(tournament_id=batched.pk)
        admin_actions.pause(tournament_id=batched.pk)
        assert _steps(messages) == ["seated", "seated", "done"]
        batched.refresh_from_db()
        assert batched.start_seed is None and batched.tables_open == 5
        assert not Game.objects.filter(table__tournament=batched, next_round_at__isnull=False).exists()
        admin_actions.resume(tournament_id=batched.pk)
        woken = [args for name, args in messages if name == TABLE_ROUND_OVER]
        assert len(woken) == 5
        for tournament_id, table_id, round_id in woken:
            progress.after_table_round(tournament_id=tournament_id, table_id=table_id, round_id=round_id)
    assert not Game.objects.filter(table__tournament=batched, next_round_at__isnull=True).exists()
    assert_reconciled()


def test_the_sweeper_resends_a_step_left_too_long(batched: Tournament) -> None:
    with dispatch.captured() as messages:
        admin_actions.start(tournament_id=batched.pk)
        messages.clear()  # the step's message lost with its worker
        assert multi_start.resume_starts(grace_seconds=30) == 0  # not yet overdue
        Tournament.objects.filter(pk=batched.pk).update(start_step_at=timezone.now() - timedelta(seconds=31))
        assert multi_start.resume_starts(grace_seconds=30) == 1
        assert [m for m in messages if m[0] == START_BATCH] == [(START_BATCH, [batched.pk])]
        assert _steps(messages)[-1] == "done"
    assert multi_start.resume_starts(grace_seconds=0) == 0
    batched.refresh_from_db()
    assert (batched.tables_open, batched.players_left, batched.start_seed) == (5, ENTRANTS, None)
    assert_reconciled()


def test_a_field_within_one_batch_starts_in_one_transaction(
    settings: Any, admin_user: Any, make_player: Any
) -> None:
    settings.RAMINO_START_BATCH_TABLES = 2
    tournament = new_multi(admin_user, buy_in=0, fee=0, guarantee=0)
    register_all(tournament, [make_player(f"s{i}") for i in range(8)])
    with dispatch.captured() as messages:
        admin_actions.start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.start_seed is None and tournament.tables_open == 2
    assert [name for name, _ in messages if name.startswith("tournaments.")] == [dispatch.START_ROUND] * 2


def test_tables_dealt_first_play_on_while_the_rest_are_dealt_each_dealt_once_by_the_start(
    settings: Any, admin_user: Any, make_player: Any
) -> None:
    """Instant rounds, every message run in order: the tables dealt by the first deal steps end rounds while the
    later steps deal the others; their jobs run (every table is seated) and deal them again, and no step deals a
    table twice."""
    settings.RAMINO_START_BATCH_TABLES = 2
    tournament = new_multi(admin_user, buy_in=0, fee=0, guarantee=0, instant_rounds=True)
    register_all(tournament, [make_player(f"i{i:02d}") for i in range(ENTRANTS)])
    dealt_by_start: list[int] = []
    ran = Counter[str]()
    with dispatch.captured() as messages:
        admin_actions.start(tournament_id=tournament.pk)
        while messages and ran.total() < 400:
            name, args = messages.pop(0)
            ran[name] += 1
            if name == START_BATCH:
                before = len(messages)
                multi_start.seat_next_batch(tournament_id=args[0])
                dealt_by_start += [a[0] for n, a in messages[before:] if n == dispatch.START_ROUND]
            elif name == dispatch.START_ROUND:
                Game.objects.filter(pk=args[0]).update(next_round_at=timezone.now())
                round_start.start_round(game_id=args[0])
            elif name == TABLE_ROUND_OVER:
                progress.after_table_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
    tournament.refresh_from_db()
    assert tournament.start_seed is None
    games = set(Game.objects.filter(table__tournament=tournament).values_list("pk", flat=True))
    assert sorted(dealt_by_start) == sorted(games), "each table dealt once by the start"
    assert ran[TABLE_ROUND_OVER] > 0 and ran[dispatch.START_ROUND] > len(games)
    assert counters.check(tournament_ids=[tournament.pk]) == []
    assert_reconciled()


def test_a_table_broken_while_the_start_still_deals_is_not_seated_again(
    settings: Any, admin_user: Any, make_player: Any
) -> None:
    """Every table seated, the first deal steps dealt: the tables they dealt play instant rounds that bust
    players (a small stack at a high PCR), and a job breaks a table while later steps still deal. The start is
    past its seating for good: no step seats a table again (the open tables fewer than the field needs no
    longer mean "seating"), no entry plays at two tables, and the counters agree with a count."""
    settings.RAMINO_START_BATCH_TABLES = 1
    tournament = new_multi(
        admin_user, buy_in=0, fee=0, guarantee=0, instant_rounds=True, starting_stack=10, pcr_schedule=[25]
    )
    register_all(tournament, [make_player(f"k{i:02d}") for i in range(ENTRANTS)])
    steps = Counter[str]()
    broken_while_dealing = False
    with dispatch.captured() as messages:
        admin_actions.start(tournament_id=tournament.pk)
        ran = 0
        while messages and ran < 600:
            ran += 1
            name, args = messages.pop(0)
            if name == START_BATCH:
                steps[multi_start.seat_next_batch(tournament_id=args[0])] += 1
            elif name == dispatch.START_ROUND:
                Game.objects.filter(pk=args[0]).update(next_round_at=timezone.now())
                round_start.start_round(game_id=args[0])
            elif name == TABLE_ROUND_OVER:
                done = progress.after_table_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
                tournament.refresh_from_db()
                broken_while_dealing |= done == "broken" and tournament.start_seed is not None
    assert broken_while_dealing, "the staging: a table broken while the start still dealt"
    assert steps["seated"] == 5 - 1  # the first table seated by the start's own transaction
    tournament.refresh_from_db()
    assert tournament.start_seed is None
    assert Table.objects.filter(tournament=tournament).count() == 5
    playing = Counter(
        Seat.objects.filter(table__tournament=tournament, status__in=SEATED_STATUSES).values_list(
            "player_id", flat=True
        )
    )
    assert all(n == 1 for n in playing.values()), playing
    assert counters.check(tournament_ids=[tournament.pk]) == []
    chips_conserved(tournament)
    assert_reconciled()
