"""The end of a multi-table tournament (docs/tournaments.md "Multi-table tournaments: the runtime"):
everyone's place, the prizes paid from the pool, every stack of tournament chips retired to the mint (so the
mint and every tournament-chip account end at 0), the tables closed; and an admin's cancellation while it runs
(the unpaid pool split among the players still in, half equally and half by their chips)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db.models import Q
from django.utils import timezone

from tournaments.deals.services import finish_adjustment
from tournaments.live import close_games
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Seat, SeatStatus, Table, TableStatus
from tournaments.multi_table import faults, knockouts
from tournaments.multi_table.planning.bust_ranking import Bust, final_places
from tournaments.multi_table.seating import retire_stacks
from tournaments.tournament import events, payouts
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus
from tournaments.tournament.prize_payments import pay_cancellation, pay_places
from tournaments.tournament.status import move_to


def _out_entries(tournament: Tournament) -> list[TournamentEntry]:
    return list(
        TournamentEntry.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, status__in=[EntryStatus.PLAYING, EntryStatus.BUSTED])
        .select_related("player")
        .order_by("registered_at", "pk")
    )


def bust_groups(entries: Sequence[TournamentEntry]) -> list[list[Bust]]:
    """The busted entries' bust groups, earliest first."""
    groups: dict[int, list[Bust]] = {}
    for e in entries:
        if e.status == EntryStatus.BUSTED and e.bust_group is not None:
            groups.setdefault(e.bust_group, []).append(
                Bust(entry=e.pk, start_chips=int(e.bust_start_chips or 0), melded=int(e.bust_melded or 0))
            )
    return [groups[g] for g in sorted(groups)]


def close_open_tables(tournament: Tournament) -> None:
    """Close the tournament's open tables (pk order): between rounds at once, in one batch (every stack
    retired to the mint in one ledger call, `seating.retire_stacks`, as `seats.cash_out` would through the
    policy; every seat freed; the games closed), a table mid-round once its round is settled."""
    between: list[tuple[Game, Table]] = []
    for table in (
        Table.objects.select_for_update()
        .filter(tournament=tournament, status=TableStatus.OPEN)
        .order_by("pk")
    ):
        game = Game.objects.select_for_update().get(table=table)
        table.status = TableStatus.CLOSED
        table.save(update_fields=["status"])
        if game.status != GameStatus.PLAYING:
            between.append((game, table))
    seats = list(
        Seat.objects.select_for_update(of=("self",))
        .filter(table__in=[table for _, table in between], status__in=SEATED_STATUSES)
        .order_by("table_id", "pk")
    )
    retire_stacks(tournament=tournament, seats=seats)
    Seat.objects.filter(pk__in=[seat.pk for seat in seats]).update(
        status=SeatStatus.LEFT, left_at=timezone.now()
    )
    close_games(between)
    tournament.tables_open = 0
    Tournament.objects.filter(pk=tournament.pk).update(tables_open=0)


def _settle_entries(
    tournament: Tournament,
    entries: Sequence[TournamentEntry],
    places: Mapping[int, int],
    shares: Mapping[str, int],
) -> None:
    changed = []
    for e in entries:
        place = places[e.pk]
        prize = shares.get(e.player.get_username(), 0)
        status = EntryStatus.FINISHED if e.status == EntryStatus.PLAYING else e.status
        if (e.place, e.prize, e.status) != (place, prize, status):
            e.place, e.prize, e.status = place, prize, status
            changed.append(e)
    TournamentEntry.objects.bulk_update(changed, ["place", "prize", "status"], batch_size=2000)


def finish(*, tournament: Tournament) -> None:
    """The last player with chips wins. Caller holds the tournament's lock (and the final table's game)."""
    entries = _out_entries(tournament)
    still_in = [e.pk for e in entries if e.status == EntryStatus.PLAYING]
    places = final_places(still_in=still_in, groups=bust_groups(entries))
    by_name = {e.player.get_username(): e for e in entries}
    prizes = pay_places(
        tournament=tournament,
        places={name: places[e.pk] for name, e in by_name.items()},
        entries=by_name,
        registration_order=list(by_name),
        key=f"tournament:{tournament.pk}:prizes",
        after_deal=finish_adjustment(
            tournament=tournament,
            places={name: places[e.pk] for name, e in by_name.items()},
            order=list(by_name),
        ),
    )
    knockouts.pay_own_bounties(tournament=tournament, why="champion")
    faults.pause_point(faults.PAYOUT)  # the crash tests' SIGKILL (tournaments/multi_table/faults.py)
    _settle_entries(tournament, entries, places, prizes)
    move_to(tournament, TournamentStatus.FINISHED)
    tournament.finished_at = timezone.now()
    tournament.players_left = len(still_in)
    tournament.round_for_round = False
    tournament.save(update_fields=["status", "finished_at", "players_left", "round_for_round"])
    close_open_tables(tournament)
    winners = [e.player.get_username() for e in entries if places[e.pk] == 1]
    events.record(
        tournament=tournament,
        kind="finished",
        data={"winners": winners, "prizes": {p: a for p, a in prizes.items() if a}},
    )


def cancel_running(*, tournament: Tournament) -> list[object]:
    """An admin cancels a running multi-table tournament (status already CANCELLED, lock held): the unpaid
    pool to the players still in, half equally and half by their chips (`payouts.cancel_split`: leftovers to
    the biggest stack, ties in seat order, seats ordered by table then seat number); places by chips, the
    busted below them as their busts rank; every stack retired, the tables closed."""
    entries = _out_entries(tournament)
    playing = [e for e in entries if e.status == EntryStatus.PLAYING]
    seats = {
        s.pk: s
        for s in Seat.objects.filter(pk__in=[e.seat_id for e in playing if e.seat_id]).select_related(
            "stack_account"
        )
    }
    chips = {
        e.player.get_username(): seats[e.seat_id].stack_account.balance if e.seat_id in seats else 0
        for e in playing
    }
    order = sorted(
        playing,
        key=lambda e: (e.table_id or 0, seats[e.seat_id].number if e.seat_id in seats else 0, e.pk),
    )
    seat_order = [e.player.get_username() for e in order]
    transfers: list[object] = []
    shares: dict[str, int] = {}
    by_name = {e.player.get_username(): e for e in entries}
    if seat_order:
        shares, transfer = pay_cancellation(
            tournament=tournament, weights=chips, seat_order=seat_order, entries=by_name
        )
        if transfer is not None:
            transfers.append(transfer)
    bounties = knockouts.pay_own_bounties(tournament=tournament, why="cancellation")
    if bounties is not None:
        transfers.append(bounties)
    by_chips = payouts.place_by_keys(chips)
    below = final_places(still_in=[], groups=bust_groups(entries))
    places = {e.pk: by_chips[e.player.get_username()] for e in playing}
    places.update({entry: place + len(playing) for entry, place in below.items()})
    _settle_entries(tournament, entries, places, shares)
    tournament.players_left = 0
    tournament.round_for_round = False
    tournament.save(update_fields=["players_left", "round_for_round"])
    close_open_tables(tournament)
    events.record(
        tournament=tournament, kind="cancelled", data={"shares": {p: a for p, a in shares.items() if a}}
    )
    return transfers


def seats_left(tournament: Tournament) -> int:
    """Seated seats of the tournament (0 once it is over and every round settled)."""
    return Seat.objects.filter(Q(table__tournament=tournament), ~Q(status=SeatStatus.LEFT)).count()
