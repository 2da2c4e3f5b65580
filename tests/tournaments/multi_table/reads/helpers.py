"""Test data for the read side of multi-table tournaments, built with the ORM and the ledger: a multi tournament
(tests.factories) with paid entries (registration's own buy-in transfers), then RUNNING with tables, a game per table, seats whose
stack accounts (chip type `tournament_chip_type(id)`) got their chips by one mint transfer per table from the
tournament's mint account, and entries PLAYING at them."""

from __future__ import annotations

import itertools
from typing import Any

from django.db.models import F
from django.utils import timezone

from ledger.models import Account, AccountKind, TransferKind, tournament_chip_type
from ledger.services import accounts, postings
from tests.factories import MultiTournamentFactory
from tournaments.live.models import Game, Round, Seat, SeatStatus, Table, TableStatus
from tournaments.tournament import registration
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus

_names = itertools.count(1)


def multi_tournament(admin: Any, **overrides: Any) -> Tournament:
    """A registering multi tournament with its prize pool account (tests.factories.MultiTournamentFactory)."""
    fields: dict[str, Any] = {
        "name": f"Multi {next(_names)}",
        "options": {"turn_seconds": 30, "time_bank_seconds": 0},
        "pcr_schedule": [1, 2, 5],
        "payouts": [70, 30],
        **overrides,
    }
    return MultiTournamentFactory.create(created_by=admin, **fields)


def register_all(tournament: Tournament, players: list[Any]) -> list[TournamentEntry]:
    return [registration.register(user=p, tournament_id=tournament.pk) for p in players]


def start(tournament: Tournament, *, sizes: list[int]) -> list[Table]:
    """RUNNING at level 1: the registered entries (in registration order) seated at tables of `sizes`, each table's
    stacks minted by one transfer."""
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).order_by("pk")
    )
    assert sum(sizes) == len(entries)
    chip_type = tournament_chip_type(tournament.pk)
    mint = accounts.open_account(
        kind=AccountKind.TOURNAMENT_MINT, chip_type=chip_type, reference=f"tournament:{tournament.pk}"
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        status=TournamentStatus.RUNNING,
        level=1,
        started_at=timezone.now(),
        mint_account=mint,
        players_left=len(entries),  # the counters as the start keeps them
        tables_open=len(sizes),
    )
    tournament.refresh_from_db()
    stack = tournament.starting_stack or 1
    tables: list[Table] = []
    at = iter(entries)
    for size in sizes:
        table = Table.objects.create(
            game=tournament.game,
            options=tournament.options,
            seats=tournament.seats,
            pcr=tournament.pcr_schedule[0],
            min_buy_in=stack,
            max_buy_in=stack,
            tournament=tournament,
            created_by=tournament.created_by,
        )
        Game.objects.create(table=table)
        legs: list[tuple[Account, int]] = [(mint, -stack * size)]
        for number in range(1, size + 1):
            entry = next(at)
            account = accounts.open_account(
                kind=AccountKind.SEAT_STACK,
                chip_type=chip_type,
                reference=f"table:{table.pk}:seat:{number}",
                user=entry.player,
            )
            seat = Seat.objects.create(
                table=table,
                player=entry.player,
                number=number,
                stack_account=account,
                status=SeatStatus.ACTIVE,
            )
            TournamentEntry.objects.filter(pk=entry.pk).update(
                status=EntryStatus.PLAYING, table=table, seat=seat
            )
            legs.append((account, stack))
        postings.post_transfer(
            kind=TransferKind.MINT,
            legs=legs,
            idempotency_key=f"tournament:{tournament.pk}:mint:table:{table.pk}",
            tournament_id=tournament.pk,
            table_id=table.pk,
        )
        tables.append(table)
    return tables


def seat_of(tournament: Tournament, user: Any) -> Seat:
    entry = TournamentEntry.objects.get(tournament=tournament, player=user)
    assert entry.seat is not None
    return entry.seat


def win_chips(tournament: Tournament, *, winner: Any, loser: Any, amount: int, key: str) -> None:
    """`amount` of the loser's chips to the winner (a settlement as a round's)."""
    postings.move_chips(
        source=seat_of(tournament, loser).stack_account,
        destination=seat_of(tournament, winner).stack_account,
        amount=amount,
        kind=TransferKind.SETTLEMENT,
        idempotency_key=key,
        tournament_id=tournament.pk,
    )


def bust(tournament: Tournament, *, loser: Any, winner: Any, place: int, key: str) -> None:
    """The loser's whole stack to the winner; the loser out at `place`, the seat freed."""
    seat = seat_of(tournament, loser)
    seat.stack_account.refresh_from_db()
    win_chips(tournament, winner=winner, loser=loser, amount=seat.stack_account.balance, key=key)
    Seat.objects.filter(pk=seat.pk).update(status=SeatStatus.LEFT, left_at=timezone.now())
    TournamentEntry.objects.filter(tournament=tournament, player=loser).update(
        status=EntryStatus.BUSTED, place=place, table=None, busted_at=timezone.now()
    )
    Tournament.objects.filter(pk=tournament.pk).update(players_left=F("players_left") - 1)


def close_table(table: Table) -> None:
    """The table closed as a break closes it: the tournament's `tables_open` counts one fewer."""
    Table.objects.filter(pk=table.pk).update(status=TableStatus.CLOSED)
    assert table.tournament_id is not None  # a tournament's table
    Tournament.objects.filter(pk=table.tournament_id).update(tables_open=F("tables_open") - 1)


def play_round(table: Table, number: int) -> Round:
    """A round row numbered `number` as the table's current round (no cards: the read side needs the number)."""
    game = Game.objects.get(table=table)
    players = list(
        Seat.objects.filter(table=table)
        .exclude(status=SeatStatus.LEFT)
        .order_by("number")
        .values_list("player__username", flat=True)
    )
    round_ = Round.objects.create(game=game, number=number, players=players, dealer=0, deal_commitment="c")
    Game.objects.filter(pk=game.pk).update(current_round=round_)
    return round_
