"""The job after a table's round (`multi_progress.after_table_round`): busts and their places, levels, balancing
and breaking, idempotence."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Account
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, fixed_result, seated
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Round, Seat, SeatStatus
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import progress as multi_progress
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentEvent

pytestmark = pytest.mark.django_db


def _play(
    monkeypatch: pytest.MonkeyPatch, table: Any, result: Any
) -> tuple[Round, list[tuple[str, list[Any]]]]:
    """Deal `table`'s round, ended at once with `result`; answers it and the messages sent."""
    monkeypatch.setattr(round_start, "instant_result", result)
    game = Game.objects.get(table=table)
    with dispatch.captured() as queue:
        round_ = round_start.start_round(game_id=game.pk)
    assert round_ is not None
    round_.refresh_from_db()
    assert round_.settled
    return round_, queue


def _job(tournament: Any, table: Any, round_: Round) -> tuple[str, list[tuple[str, list[Any]]]]:
    with dispatch.captured() as queue:
        done = multi_progress.after_table_round(
            tournament_id=tournament.pk, table_id=table.pk, round_id=round_.pk
        )
    return done, queue


def test_two_busts_in_one_round_rank_by_start_chips_then_melded(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[300, 150, 100], [200, 200, 200]])
    round_, sent = _play(
        monkeypatch,
        tables[0],
        fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": -50}, melded={"t0p1": 0, "t0p2": 90}),
    )
    # The round's end sends the tournament's job, with the round.
    assert sent == [(TABLE_ROUND_OVER, [tournament.pk, tables[0].pk, round_.pk])]
    assert round_.transfers and chips_conserved(tournament) == 1150
    done, _ = _job(tournament, tables[0], round_)
    tournament.refresh_from_db()
    busted = {n: TournamentEntry.objects.get(pk=entries[n].pk) for n in ("t0p1", "t0p2")}
    # More chips at the start of the round ranks better, whatever was melded.
    assert busted["t0p1"].place == 5 and busted["t0p2"].place == 6
    assert {e.status for e in busted.values()} == {EntryStatus.BUSTED}
    assert busted["t0p1"].bust_start_chips == 150 and busted["t0p2"].bust_melded == 90
    assert busted["t0p1"].bust_group == busted["t0p2"].bust_group == 1 == tournament.bust_groups
    assert not Seat.objects.filter(pk__in=[entries["t0p1"].seat_id, entries["t0p2"].seat_id]).exclude(
        status=SeatStatus.LEFT
    )
    assert tournament.players_left == 4
    event = TournamentEvent.objects.filter(tournament=tournament, kind="busted").get()
    assert {p["player"]: p["place"] for p in event.data["players"]} == {"t0p1": 5, "t0p2": 6}
    # Table 0 is left with one player: balancing moves one from... nowhere mid-round; it may take one later.
    assert done in ("dealt", "broken")
    assert_reconciled()


def test_equal_keys_share_the_place(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[300, 100, 100], [200, 200, 200]])
    round_, _ = _play(
        monkeypatch,
        tables[0],
        fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": -50}, melded={"t0p1": 7, "t0p2": 7}),
    )
    _job(tournament, tables[0], round_)
    places = [TournamentEntry.objects.get(pk=entries[n].pk).place for n in ("t0p1", "t0p2")]
    assert places == [5, 5]
    assert_reconciled()


def test_a_tie_at_the_top_is_broken_by_melded_then_by_who_went_out(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tournament, tables, _ = seated(admin_user, make_player, [[500, 500, 500]])
    round_, _ = _play(
        monkeypatch,
        tables[0],
        fixed_result({"t0p0": 100, "t0p1": 100, "t0p2": 0}, melded={"t0p0": 40, "t0p1": 40}, out="t0p1"),
    )
    assert [t["to"] for t in round_.transfers] == ["t0p1"]
    stacks = dict(
        Seat.objects.filter(table=tables[0]).values_list("player__username", "stack_account__balance")
    )
    assert stacks == {"t0p0": 500, "t0p1": 600, "t0p2": 400}
    assert_reconciled()


def test_busts_during_late_registration_get_their_place_at_the_finish(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(
        admin_user, make_player, [[300, 100, 100]], late_registration_levels=1
    )
    round_, _ = _play(monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": 100}))
    _job(tournament, tables[0], round_)
    assert TournamentEntry.objects.get(pk=entries["t0p1"].pk).place is None  # a re-entry could still come
    # Level 2 (rounds_per_level 2) closes registration: the next busts are placed at once.
    round_, _ = _play(monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p2": -50}))
    assert _job(tournament, tables[0], round_)[0] == "finished"
    places = {n: TournamentEntry.objects.get(pk=e.pk).place for n, e in entries.items()}
    assert places == {"t0p0": 1, "t0p2": 2, "t0p1": 3}
    tournament.refresh_from_db()
    assert Account.objects.get(minting_tournament=tournament).balance == 0
    assert_reconciled()


def test_the_level_follows_the_tables_rounds_and_sets_the_pcr(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, _ = seated(
        admin_user, make_player, [[1000, 1000]], rounds_per_level=1, pcr_schedule=[1, 3]
    )
    round_, _ = _play(monkeypatch, tables[0], fixed_result({"t0p0": 10, "t0p1": 0}))
    assert round_.transfers[0]["amount"] == 10
    _job(tournament, tables[0], round_)
    tournament.refresh_from_db()
    assert tournament.level == 2
    round_, _ = _play(monkeypatch, tables[0], fixed_result({"t0p0": 10, "t0p1": 0}))
    assert round_.transfers[0]["amount"] == 30  # level 2: PCR 3
    from ledger.models import Transfer

    record = Transfer.objects.get(round_id=round_.pk).computation
    assert record["level"] == 2 and record["level_pcr"] == 3 and record["tournament"] == tournament.pk
    assert_reconciled()


def test_the_job_twice_does_nothing_more(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, _ = seated(admin_user, make_player, [[300, 100, 100], [200, 200, 200], [200, 200]])
    round_, _ = _play(monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": -50}))
    first, _sent = _job(tournament, tables[0], round_)
    tournament.refresh_from_db()
    state = (
        tournament.version,
        tournament.players_left,
        tournament.tables_open,
        sorted(Seat.objects.exclude(status=SeatStatus.LEFT).values_list("pk", "table_id")),
    )
    again, sent_again = _job(tournament, tables[0], round_)
    tournament.refresh_from_db()
    assert (
        tournament.version,
        tournament.players_left,
        tournament.tables_open,
        sorted(Seat.objects.exclude(status=SeatStatus.LEFT).values_list("pk", "table_id")),
    ) == state
    assert sent_again == [] or all(name == dispatch.START_ROUND for name, _ in sent_again)
    assert first in ("dealt", "broken") and again in ("dealt", "closed", "broken")
    assert_reconciled()


def test_a_bust_leaving_a_small_table_breaks_it_into_the_others(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 3 tables of 4 seats: 3 + 3 + 3; two bust at table 0: 7 players fit in 2 tables.
    tournament, tables, entries = seated(
        admin_user, make_player, [[300, 100, 100], [200, 200, 200], [200, 200, 200]]
    )
    round_, _ = _play(monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": -50}))
    done, _sent = _job(tournament, tables[0], round_)
    assert done == "broken"
    tournament.refresh_from_db()
    assert tournament.tables_open == 2 and tournament.players_left == 7
    winner = TournamentEntry.objects.get(pk=entries["t0p0"].pk)
    assert winner.table_id in (tables[1].pk, tables[2].pk) and winner.times_moved == 1
    assert Account.objects.get(seat__pk=winner.seat_id or 0).balance == 500
    sizes = sorted(Seat.objects.exclude(status=SeatStatus.LEFT).values_list("table_id", flat=True))
    assert sizes.count(tables[0].pk) == 0 and sorted(
        [sizes.count(tables[1].pk), sizes.count(tables[2].pk)]
    ) == [3, 4]
    kinds = list(TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert kinds[-3:] == ["busted", "moved", "table_broken"]
    assert chips_conserved(tournament) == 500 + 1200
    assert_reconciled()


def test_a_table_mid_round_gives_nobody_but_may_receive(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Table 1 (4 players) is mid-round; table 0 loses two: 2 and 4 differ by two, but only table 0 may move.
    tournament, tables, _ = seated(
        admin_user, make_player, [[300, 100, 100, 100], [200, 200, 200, 200]], seats=4
    )
    Game.objects.filter(table=tables[1]).update(status="playing")
    round_, _ = _play(
        monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p1": -50, "t0p2": -50, "t0p3": 150})
    )
    _job(tournament, tables[0], round_)
    # 6 players fit in 2 tables of 4: sizes 2 (table 0) and 4 (table 1, mid-round): nobody moved.
    assert Seat.objects.filter(table=tables[1]).exclude(status=SeatStatus.LEFT).count() == 4
    assert not TournamentEvent.objects.filter(tournament=tournament, kind="moved").exists()
    assert_reconciled()


def test_the_sweep_resends_a_lost_job_for_a_multi_table_only(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.single_table import progress as tournament_progress

    tournament, tables, _ = seated(admin_user, make_player, [[500] * 4, [500] * 4])
    round_, _ = _play(monkeypatch, tables[0], fixed_result({"t0p0": 10, "t0p1": 0, "t0p2": 0, "t0p3": 0}))
    # The job's message was lost: the table waits with nothing scheduled.
    Round.objects.filter(pk=round_.pk).update(ended_at=timezone.now() - timedelta(minutes=5))
    sent: list[tuple[str, Any]] = []
    monkeypatch.setattr(
        dispatch, "send", lambda name, args, countdown=None, queue=None: sent.append((name, list(args)))
    )
    assert tournament_progress.sweep(grace_seconds=60) == 0  # the one-table job is not sent for it
    assert multi_progress.sweep(grace_seconds=60) == 1
    assert sent == [(TABLE_ROUND_OVER, [tournament.pk, tables[0].pk, round_.pk])]
    # The resent job deals the table's next round.
    with dispatch.captured():
        assert (
            multi_progress.after_table_round(
                tournament_id=tournament.pk, table_id=tables[0].pk, round_id=round_.pk
            )
            == "dealt"
        )
    assert Game.objects.get(table=tables[0]).next_round_at is not None
    assert_reconciled()
