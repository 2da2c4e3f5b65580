"""The job after each round of a one-table tournament (Celery `tournaments.advance_tournament`): total the
rounds, decide (`next_step.decide`) between another round, tie-breaker rounds among the tied, and the end; at the
end place everyone, pay the prizes from the pool through the ledger and close the table.

Idempotent and safe twice or concurrently: it runs in one transaction under the tournament's lock, recomputes
everything from the settled rounds each time, and posts with keys named by its cause (`tournament:<id>:prizes`),
so a worker killed mid-job leaves nothing behind and the re-delivered message does the same work again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from ledger.models import Transfer
from tournaments.live import dispatch, wind_down
from tournaments.live.models import Game, GameStatus, Round, Seat, Table, TableStatus
from tournaments.satellites import services as satellites
from tournaments.single_table import events, next_step
from tournaments.single_table.task_names import ADVANCE_TOURNAMENT
from tournaments.tournament import payouts
from tournaments.tournament.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStage,
    TournamentStatus,
)
from tournaments.tournament.prize_payments import pay_cancellation, pay_places
from tournaments.tournament.registration import live_entries
from tournaments.tournament.start_common import schedule_deal
from tournaments.tournament.status import move_to

IN_PLAY = (TournamentStatus.RUNNING, TournamentStatus.PAUSED)


def _points(rounds: Sequence[Round], players: Sequence[str]) -> dict[str, int]:
    """Totals: each player adds each round's `game_points` (the engine's `add_round` rule)."""
    totals = dict.fromkeys(players, 0)
    for round_ in rounds:
        for player, points in ((round_.result or {}).get("game_points") or {}).items():
            if player in totals:
                totals[player] += int(points)
    return totals


def _counted(rounds: Sequence[Round]) -> int:
    # A refused deal (Board Rummy's redeal) is dealt again: it is not one of the rounds played.
    return sum(1 for r in rounds if not (r.result or {}).get("redeal"))


def progress_of(
    tournament: Tournament, rounds: Sequence[Round], entries: Mapping[str, TournamentEntry]
) -> next_step.Progress:
    start = tournament.tiebreak_from_round
    main = [r for r in rounds if start is None or r.number < start]
    tiebreak = [r for r in rounds if start is not None and r.number >= start]
    tied = [p for p, e in entries.items() if e.in_tiebreak]
    return next_step.Progress(
        kind=tournament.kind,
        totals=_points(main, list(entries)),
        main_rounds=_counted(main),
        target_score=tournament.target_score,
        rounds=tournament.rounds,
        tiebreak_rounds=tournament.tiebreak_rounds,
        tied=tied,
        tiebreak_totals=_points(tiebreak, tied),
        tiebreaks_played=_counted(tiebreak),
        stop_at=satellites.stop_at(tournament),
    )


def _lock_table(tournament: Tournament) -> tuple[Table, Game]:
    table = Table.objects.select_for_update().filter(tournament=tournament).order_by("pk").first()
    assert table is not None, "a running one-table tournament has its table"
    return table, Game.objects.select_for_update().get(table=table)


def close_tables(tournament: Tournament) -> None:
    """Close the tournament's table: at once between rounds, else once the round in play is settled."""
    for table in Table.objects.select_for_update().filter(tournament=tournament).order_by("pk"):
        game = Game.objects.select_for_update().get(table=table)
        if table.status != TableStatus.CLOSED:
            table.status = TableStatus.CLOSED
            table.save(update_fields=["status"])
        if game.status != GameStatus.PLAYING:
            wind_down(game=game, table=table)


def advance(*, tournament_id: int, round_id: int | None = None) -> str:
    """What follows the settled round `round_id` (None: the last one, e.g. on resume). Answers what it did."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status not in IN_PLAY or tournament.kind == TournamentKind.MULTI:
            return "idle"  # a multi-table tournament's tables have their own job (`multi_progress`)
        _table, game = _lock_table(tournament)
        if game.status != GameStatus.WAITING:
            return "playing"  # that round's end sends this job again
        rounds = list(game.rounds.filter(settled=True).order_by("number"))
        if round_id is not None and (not rounds or rounds[-1].pk != round_id):
            return "stale"  # a later round was dealt: its own job decides
        entries = {
            e.player.get_username(): e
            for e in live_entries(tournament)
            if e.status in (EntryStatus.PLAYING, EntryStatus.BUSTED)
        }
        progress = progress_of(tournament, rounds, entries)
        decision = next_step.decide(progress)
        _record(tournament, entries, progress)
        events.record_round(
            tournament=tournament,
            rounds=rounds,
            totals=progress.totals,
            tiebreak_totals=progress.tiebreak_totals,
        )
        if decision.next is next_step.Next.FINISH:
            finish(tournament=tournament, entries=entries, places=decision.places)
            return "finished"
        if decision.next is next_step.Next.TIEBREAK and tournament.stage == TournamentStage.MAIN:
            _enter_tiebreak(tournament, entries, progress, decision.tied, next_round=_next_number(rounds))
        if tournament.status == TournamentStatus.RUNNING:
            schedule_deal(game)
        return str(decision.next.value)


def sweep(*, grace_seconds: float) -> int:
    """Send the job again for every running tournament whose table waits with nothing scheduled since a round
    ended more than `grace_seconds` ago: the message after that round was lost (the broker away at the
    commit). The job itself decides whether anything is to be done. Returns how many were sent."""
    late = timezone.now() - timedelta(seconds=grace_seconds)
    stalled = (
        Game.objects.filter(
            status=GameStatus.WAITING,
            next_round_at__isnull=True,
            table__tournament__status=TournamentStatus.RUNNING,
            current_round__ended_at__lt=late,
        )
        .exclude(table__tournament__kind=TournamentKind.MULTI)
        .values_list("table__tournament_id", flat=True)
    )
    count = 0
    for tournament_id in stalled.distinct():
        dispatch.send(ADVANCE_TOURNAMENT, (tournament_id, None))
        count += 1
    return count


def _next_number(rounds: Sequence[Round]) -> int:
    return (rounds[-1].number if rounds else 0) + 1


def _record(
    tournament: Tournament, entries: Mapping[str, TournamentEntry], progress: next_step.Progress
) -> None:
    for player, entry in entries.items():
        entry.total = progress.totals.get(player, 0)
        entry.tiebreak_total = progress.tiebreak_totals.get(player, 0)
        entry.save(update_fields=["total", "tiebreak_total"])
    tournament.tiebreaks_played = progress.tiebreaks_played
    tournament.save(update_fields=["tiebreaks_played"])


def _enter_tiebreak(
    tournament: Tournament,
    entries: Mapping[str, TournamentEntry],
    progress: next_step.Progress,
    tied: Sequence[str],
    *,
    next_round: int,
) -> None:
    """Everyone not tied at the top is out, placed by their totals (below every tied player)."""
    places = payouts.place_by_totals(progress.totals)
    for player, entry in entries.items():
        if player in tied:
            entry.in_tiebreak = True
            entry.save(update_fields=["in_tiebreak"])
        else:
            entry.status = EntryStatus.BUSTED
            entry.place = places[player]
            entry.save(update_fields=["status", "place"])
    tournament.stage = TournamentStage.TIEBREAK
    tournament.tiebreak_from_round = next_round
    tournament.save(update_fields=["stage", "tiebreak_from_round"])
    events.tiebreak(
        tournament=tournament, tied=tied, out=[p for p in entries if p not in tied], from_round=next_round
    )


def cancel_running(tournament: Tournament) -> list[Transfer]:
    """An admin cancels a running one-table tournament (status already CANCELLED, lock held; docs/tournaments.md
    "Lifecycle"): the unpaid pool split among the players still in (`pay_cancellation`, weighted by their totals:
    the rule speaks of the chips of a multi-table one), places by totals, the table closed. Answers the transfers
    posted."""
    still_in = {
        e.player.get_username(): e for e in live_entries(tournament) if e.status == EntryStatus.PLAYING
    }
    seat_numbers = dict(
        Seat.objects.filter(table__tournament=tournament).values_list("player__username", "number")
    )
    seat_order = sorted(still_in, key=lambda p: (seat_numbers.get(p, 0), p))
    weights = {p: e.total for p, e in still_in.items()}
    shares, transfer = pay_cancellation(
        tournament=tournament, weights=weights, seat_order=seat_order, entries=still_in
    )
    places = payouts.place_by_totals({p: e.total for p, e in still_in.items()})
    for player, entry in still_in.items():
        entry.place = places[player]
        entry.prize = shares[player]
        entry.status = EntryStatus.FINISHED
        entry.save(update_fields=["place", "prize", "status"])
    close_tables(tournament)
    events.cancelled_running(tournament=tournament, shares=shares)
    return [] if transfer is None else [transfer]


def finish(
    *, tournament: Tournament, entries: Mapping[str, TournamentEntry], places: Mapping[str, int]
) -> None:
    registration = [p for p, _ in sorted(entries.items(), key=lambda i: (i[1].registered_at, i[1].pk))]
    shares = pay_places(
        tournament=tournament,
        places=places,
        entries=entries,
        registration_order=registration,
        key=f"tournament:{tournament.pk}:prizes",
    )
    for player, entry in entries.items():
        entry.place = places[player]
        entry.prize = shares[player]
        if entry.status == EntryStatus.PLAYING:
            entry.status = EntryStatus.FINISHED
        entry.save(update_fields=["place", "prize", "status"])
    move_to(tournament, TournamentStatus.FINISHED)
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    events.finished(tournament=tournament, places=places, prizes=shares)
    close_tables(tournament)
