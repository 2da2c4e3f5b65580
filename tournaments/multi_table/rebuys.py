"""Rebuys and the add-on in multi-table tournaments (docs/rules.md "Rebuys and the add-on"; off while
`rebuy_levels` is 0).

During levels 1 to `rebuy_levels` of their table, between its rounds, a player with no more chips than the
starting stack may rebuy (`rebuy`): `rebuy_cost` to the pool, `rebuy_fee` to the house, `rebuy_chips` minted to
their stack, at most `max_rebuys` times an entry (0: no limit). A player who busts in the rebuy period stays
seated until the table's next deal (`keep_seated`), and its deal waits at least `RAMINO_REBUY_WAIT_SECONDS`
(`deal_delay`); a rebuy before it keeps them in. When a table's next round is its first of level
`rebuy_levels + 1`, the deal waits `addon_seconds`: the add-on break, in which each of its players may take the
add-on once (`take_addon`). Never during a round: both answer `tournament.round_in_play` then.

Locks: the tournament's row (`FOR UPDATE`), the entry, then the table's game: the tables' jobs' order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from ledger import stakes
from ledger.models import AccountKind, TransferKind
from ledger.services import accounts, postings
from tournaments.errors import Conflict, NotFound, PlayCode
from tournaments.live import lock_game
from tournaments.live.models import Game, GameStatus, Round, Seat, Table
from tournaments.multi_table.planning.bounties import at_addon_break, in_rebuy_period
from tournaments.multi_table.seating import mint_account
from tournaments.tournament import events
from tournaments.tournament.entry_payments import pool_account
from tournaments.tournament.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)

SYSTEM = "tournaments.multi_rebuys"
IN_PLAY = (TournamentStatus.RUNNING, TournamentStatus.PAUSED)


def rebuy_chips(tournament: Tournament) -> int:
    return int(tournament.rebuy_chips or tournament.starting_stack or 0)


def _rounds_per_level(tournament: Tournament) -> int:
    return int(tournament.rounds_per_level or 1)


def table_in_rebuy_period(tournament: Tournament, round_number: int | None) -> bool:
    return in_rebuy_period(
        round_number=round_number,
        rounds_per_level=_rounds_per_level(tournament),
        rebuy_levels=int(tournament.rebuy_levels),
    )


def table_at_addon_break(tournament: Tournament, round_number: int | None) -> bool:
    return tournament.addon_chips > 0 and at_addon_break(
        round_number=round_number,
        rounds_per_level=_rounds_per_level(tournament),
        rebuy_levels=int(tournament.rebuy_levels),
    )


def rebuys_left(tournament: Tournament, entry: TournamentEntry) -> bool:
    return not tournament.max_rebuys or entry.rebuys < tournament.max_rebuys


def keep_seated(
    *, tournament: Tournament, table: Table, round_: Round, entry: TournamentEntry, name: str
) -> bool:
    """Does a seat left without chips after `round_` stay (not busted yet)? The first time (the round's job):
    while the round was played in the rebuy period and the entry may still rebuy, it stays until the table's
    next deal (its round kept in `held_round`). Later: while a deal is scheduled; once the deal is due (the
    deal found the seat still without chips and sent the job, `MultiTablePolicy.holds_deal`), it is out."""
    if tournament.rebuy_levels <= 0:
        return False
    if entry.held_round is None:
        # Only the round that took their last chips holds them (not a seat that came without chips).
        if name not in (round_.players or []):
            return False
        if not (table_in_rebuy_period(tournament, round_.number) and rebuys_left(tournament, entry)):
            return False
        entry.held_round = round_.pk
        entry.save(update_fields=["held_round"])
        return True
    return Game.objects.filter(table=table, next_round_at__isnull=False).exists()


def deal_delay(*, tournament: Tournament, table: Table, round_: Round | None) -> float | None:
    """The pause before a table's next deal: the add-on break (`addon_seconds`) before its first round past the
    rebuy period; at least `RAMINO_REBUY_WAIT_SECONDS` while a player without chips may rebuy; else None (the
    usual pause)."""
    if tournament.rebuy_levels <= 0 or round_ is None:
        return None
    usual = float(settings.RAMINO_NEXT_ROUND_DELAY_SECONDS)
    if table_at_addon_break(tournament, round_.number):
        return max(usual, float(tournament.addon_seconds))
    if Seat.objects.filter(table=table, stack_account__balance__lte=0).exists():
        return max(usual, float(settings.RAMINO_REBUY_WAIT_SECONDS))
    return None


def _locked(tournament_id: int, user: User) -> tuple[Tournament, TournamentEntry, Seat, Game, Round | None]:
    """The tournament, the player's playing entry, its seat and its table's game, locked in that order;
    refusals for a tournament with no such seat or a round being played."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound("No such tournament.", code=PlayCode.TOURNAMENT_NOT_FOUND)
    if tournament.kind != TournamentKind.MULTI or tournament.status not in IN_PLAY:
        raise Conflict(
            "Rebuys are not open.",
            code=PlayCode.TOURNAMENT_REBUY_CLOSED,
            details={"status": tournament.status, "rebuy_levels": tournament.rebuy_levels},
        )
    entry = (
        TournamentEntry.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, player=user, status=EntryStatus.PLAYING, seat__isnull=False)
        .first()
    )
    if entry is None or entry.table_id is None:
        raise Conflict("You have no seat in this tournament.", code=PlayCode.TOURNAMENT_NOT_PLAYING)
    game_id = Game.objects.filter(table_id=entry.table_id).values_list("pk", flat=True).first()
    locked = lock_game(game_id or 0)
    assert locked is not None
    table, game = locked
    if game.status != GameStatus.WAITING:
        raise Conflict(
            "Wait for your table's round to end.",
            code=PlayCode.TOURNAMENT_ROUND_IN_PLAY,
            details={"table": table.pk},
        )
    assert entry.seat_id is not None  # a playing entry with a seat (the filter above)
    seat = Seat.objects.select_related("stack_account").get(pk=entry.seat_id)
    return tournament, entry, seat, game, game.current_round


def _pay(
    *,
    tournament: Tournament,
    entry: TournamentEntry,
    seat: Seat,
    user: User,
    cost: int,
    fee: int,
    chips: int,
    why: str,
    key: str,
    computation: dict[str, Any],
) -> None:
    """`cost` to the pool, `fee` to the house (one transfer), `chips` minted to the seat's stack (another)."""
    legs = [
        (accounts.get_wallet(user=user), -(cost + fee)),
        (pool_account(tournament), cost),
        (accounts.get_house_account(kind=AccountKind.HOUSE_FEES), fee),
    ]
    legs = [(account, amount) for account, amount in legs if amount]
    if legs:
        postings.post_transfer(
            kind=TransferKind.TOURNAMENT_BUY_IN,
            legs=legs,
            idempotency_key=f"{key}:pay",
            reason=f"{why} in tournament {tournament.pk}",
            tournament_id=tournament.pk,
            entry_id=entry.pk,
            computation={"why": why, "cost": cost, "fee": fee, **computation},
            posted_by=user,
        )
    if cost:
        tournament.rebuys_pool += cost
        Tournament.objects.filter(pk=tournament.pk).update(rebuys_pool=tournament.rebuys_pool)
    assert seat.stack_account is not None
    postings.post_transfer(
        kind=TransferKind.MINT,
        legs=[(mint_account(tournament), -chips), (seat.stack_account, chips)],
        idempotency_key=f"{key}:mint",
        reason=f"{why} chips of tournament {tournament.pk}",
        table_id=seat.table_id,
        tournament_id=tournament.pk,
        entry_id=entry.pk,
        computation={"why": why, "chips": chips, **computation},
        posted_by_system=SYSTEM,
    )


def rebuy(*, tournament_id: int, user: User) -> TournamentEntry:
    """A rebuy, paid and minted; else the refusal (409) naming why."""
    with transaction.atomic():
        tournament, entry, seat, _game, round_ = _locked(tournament_id, user)
        number = round_.number if round_ is not None else None
        if not table_in_rebuy_period(tournament, number):
            raise Conflict(
                "Rebuys are not open.",
                code=PlayCode.TOURNAMENT_REBUY_CLOSED,
                details={"rebuy_levels": tournament.rebuy_levels, "round": number},
            )
        if not rebuys_left(tournament, entry):
            raise Conflict(
                "You have already rebought as often as this tournament allows.",
                code=PlayCode.TOURNAMENT_REBUY_LIMIT,
                details={"max_rebuys": tournament.max_rebuys, "rebuys": entry.rebuys},
            )
        chips_now = seat.chips
        if chips_now > int(tournament.starting_stack or 0):
            raise Conflict(
                "You may rebuy only with no more chips than the starting stack.",
                code=PlayCode.TOURNAMENT_REBUY_TOO_MANY_CHIPS,
                details={"chips": chips_now, "starting_stack": tournament.starting_stack},
            )
        cost, fee, chips = int(tournament.rebuy_cost), int(tournament.rebuy_fee), rebuy_chips(tournament)
        stakes.refuse_stake(user=user, amount=cost + fee, kind=stakes.StakeKind.REBUY)
        entry.rebuys += 1
        _pay(
            tournament=tournament,
            entry=entry,
            seat=seat,
            user=user,
            cost=cost,
            fee=fee,
            chips=chips,
            why="rebuy",
            key=f"tournament:{tournament.pk}:entry:{entry.pk}:rebuy:{entry.reentries}:{entry.rebuys}",
            computation={"rebuy": entry.rebuys, "chips_before": chips_now, "round": number},
        )
        entry.held_round = None
        entry.save(update_fields=["rebuys", "held_round"])
        events.record(
            tournament=tournament,
            kind="rebuy",
            data={"entry": entry.pk, "player": user.get_username(), "rebuys": entry.rebuys, "chips": chips},
        )
        return entry


def take_addon(*, tournament_id: int, user: User) -> TournamentEntry:
    """The add-on, paid and minted, once per player during their table's add-on break; else the refusal."""
    with transaction.atomic():
        tournament, entry, seat, _game, round_ = _locked(tournament_id, user)
        number = round_.number if round_ is not None else None
        if not table_at_addon_break(tournament, number):
            raise Conflict(
                "The add-on is taken during your table's add-on break only.",
                code=PlayCode.TOURNAMENT_ADDON_CLOSED,
                details={"rebuy_levels": tournament.rebuy_levels, "addon_chips": tournament.addon_chips},
            )
        if entry.addon:
            raise Conflict("You have already taken the add-on.", code=PlayCode.TOURNAMENT_ADDON_TAKEN)
        cost, fee, chips = int(tournament.addon_cost), int(tournament.addon_fee), int(tournament.addon_chips)
        stakes.refuse_stake(user=user, amount=cost + fee, kind=stakes.StakeKind.ADDON)
        _pay(
            tournament=tournament,
            entry=entry,
            seat=seat,
            user=user,
            cost=cost,
            fee=fee,
            chips=chips,
            why="addon",
            key=f"tournament:{tournament.pk}:entry:{entry.pk}:addon",
            computation={"chips_before": seat.chips, "round": number},
        )
        entry.addon = True
        entry.held_round = None
        entry.save(update_fields=["addon", "held_round"])
        events.record(
            tournament=tournament,
            kind="addon",
            data={"entry": entry.pk, "player": user.get_username(), "chips": chips},
        )
        return entry


def reentered(entry: TournamentEntry) -> None:
    """A re-entry is a new entry: its rebuys are counted afresh."""
    entry.rebuys = 0
    entry.held_round = None
    entry.save(update_fields=["rebuys", "held_round"])


@dataclass(frozen=True)
class Options:
    """What a player may buy now (the tournament page's buttons): read without locks; the services decide."""

    can_rebuy: bool
    can_addon: bool
    rebuys: int
    max_rebuys: int
    addon: bool
    chips: int
    bounty: int
    bounties_won: int
    rebuy_price: int
    rebuy_chips: int
    addon_price: int
    addon_chips: int


def options_for(*, tournament: Tournament, user: User) -> Options:
    entry = (
        TournamentEntry.objects.filter(tournament=tournament, player=user, status=EntryStatus.PLAYING)
        .select_related("seat__stack_account")
        .first()
    )
    can_rebuy = can_addon = False
    chips = 0
    if entry is not None and entry.seat is not None and tournament.status in IN_PLAY:
        chips = entry.seat.chips
        game = Game.objects.select_related("current_round").filter(table_id=entry.seat.table_id).first()
        if game is not None and game.status == GameStatus.WAITING:
            number = game.current_round.number if game.current_round else None
            can_rebuy = (
                table_in_rebuy_period(tournament, number)
                and rebuys_left(tournament, entry)
                and chips <= int(tournament.starting_stack or 0)
            )
            can_addon = table_at_addon_break(tournament, number) and not entry.addon
    return Options(
        can_rebuy=can_rebuy,
        can_addon=can_addon,
        rebuys=entry.rebuys if entry else 0,
        max_rebuys=int(tournament.max_rebuys),
        addon=bool(entry and entry.addon),
        chips=chips,
        bounty=entry.bounty if entry else 0,
        bounties_won=entry.bounties_won if entry else 0,
        rebuy_price=int(tournament.rebuy_cost + tournament.rebuy_fee),
        rebuy_chips=rebuy_chips(tournament),
        addon_price=int(tournament.addon_cost + tournament.addon_fee),
        addon_chips=int(tournament.addon_chips),
    )
