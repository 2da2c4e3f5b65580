"""The final-table deal (docs/rules.md "The final-table deal"). Only at the final table of a running multi-table
tournament, only between rounds, a player proposes; the table's next deal then waits (its policy asks
`holding_until`) up to `deal_seconds` while everyone answers. Every player accepting pays the offered amounts at
once from the pool (one transfer carrying the computation); the finish then pays the winner the amount kept
(`after_deal`). A refusal or the time running out ends the offer with nothing changed.

Lock order, as everywhere: the tournament, the final table, its game, then the deal row, then ledger accounts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ledger.models import Account, Transfer, TransferKind
from ledger.services import accounts, postings
from tournaments.deals import icm
from tournaments.deals.models import Deal, DealStatus
from tournaments.errors import Conflict, InvalidRequest, NotFound, PlayCode
from tournaments.live import dispatch
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Seat, Table, TableStatus
from tournaments.satellites.services import is_satellite
from tournaments.tournament import events, payouts
from tournaments.tournament.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)
from tournaments.tournament.prize_payments import PrizeAdjustment
from tournaments.tournament.status import lock_tournament

EXPIRE_DEAL = "tournaments.expire_deal"


@dataclass(frozen=True)
class FinalTable:
    table: Table
    game: Game
    # In seat order from the dealer's left.
    seats: list[Seat]

    @property
    def chips(self) -> dict[str, int]:
        return {s.player.get_username(): int(s.stack_account.balance) for s in self.seats}


def _refuse_unless_final_table(tournament: Tournament) -> None:
    """One table left of a running tournament, or a paused one (a pause holds every table between rounds); never
    a satellite (its prizes are tickets, which no deal shares)."""
    if is_satellite(tournament):
        raise Conflict(
            "No deal is made in a satellite: its prizes are tickets, played for to the end.",
            code=PlayCode.DEAL_SATELLITE,
        )
    if (
        tournament.kind != TournamentKind.MULTI
        or tournament.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        or tournament.tables_open != 1
    ):
        raise Conflict(
            "A deal is made only at the final table of a running multi-table tournament.",
            code=PlayCode.DEAL_NOT_FINAL_TABLE,
        )
    # Places are not final while a player may still come in (late registration, re-entry).
    if tournament.level <= tournament.late_registration_levels:
        raise Conflict(
            "A deal is made only once late registration and re-entry are over.",
            code=PlayCode.DEAL_NOT_FINAL_TABLE,
            details={"late_registration_levels": tournament.late_registration_levels},
        )


def lock_final_table(tournament: Tournament, *, lock: bool = True) -> FinalTable:
    """The final table between rounds, locked (table, game, seats; `lock` False: read only, for a preview), its
    players in seat order from the dealer's left. Caller holds the tournament's lock."""
    _refuse_unless_final_table(tournament)
    tables = Table.objects.select_for_update() if lock else Table.objects.all()
    table = tables.filter(tournament=tournament, status=TableStatus.OPEN).first()
    if table is None:
        raise Conflict("No final table is open.", code=PlayCode.DEAL_NOT_FINAL_TABLE)
    game = (Game.objects.select_for_update() if lock else Game.objects).get(table=table)
    if game.status == GameStatus.PLAYING or table.awaiting_job:
        raise Conflict(
            "A deal is made between rounds: wait for the round to end.", code=PlayCode.DEAL_ROUND_RUNNING
        )
    seat_rows = Seat.objects.select_for_update(of=("self",)) if lock else Seat.objects.all()
    seats = list(
        seat_rows.filter(table=table, status__in=SEATED_STATUSES, stack_account__balance__gt=0)
        .select_related("player", "stack_account")
        .order_by("number")
    )
    dealer = game.dealer_seat
    if dealer is not None:
        seats = [s for s in seats if s.number > dealer] + [s for s in seats if s.number <= dealer]
    return FinalTable(table=table, game=game, seats=seats)


def _paid(deal: Deal) -> int:
    """What an accepted deal paid from the pool."""
    return sum(int(a) for a in deal.amounts.values())


def unpaid_prizes(tournament: Tournament, *, players_left: int, lock: bool = True) -> list[int]:
    """The prizes of places 1..`players_left` (those not yet paid), from the pool as the finish splits it."""
    assert tournament.pool_account_id is not None
    rows = Account.objects.select_for_update() if lock else Account.objects.all()
    pool = rows.get(pk=tournament.pool_account_id).balance
    entries = TournamentEntry.objects.filter(
        tournament=tournament, status__in=[EntryStatus.PLAYING, EntryStatus.BUSTED]
    ).count()
    amounts = payouts.place_amounts(int(pool), tournament.payouts, max(entries, players_left))
    return icm.unpaid_prizes(place_amounts=amounts, players_left=players_left)


def propose(*, user: User, tournament_id: int, method: Any) -> Deal:
    """`user`, at the final table between rounds, offers the deal by `method` (icm or chips)."""
    if method not in icm.METHODS:
        raise InvalidRequest(
            "A deal offers the ICM amounts or the chip-count amounts.",
            code=PlayCode.DEAL_INVALID_METHOD,
            details={"field": "method", "allowed": list(icm.METHODS)},
        )
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        final = lock_final_table(tournament)
        name = user.get_username()
        if name not in final.chips:
            raise Conflict(
                "Only the players at the final table take part in a deal.", code=PlayCode.DEAL_NOT_A_PLAYER
            )
        if Deal.objects.filter(tournament=tournament, status=DealStatus.ACCEPTED).exists():
            raise Conflict(
                "A deal has already been made in this tournament.", code=PlayCode.DEAL_ALREADY_MADE
            )
        pending = Deal.objects.filter(tournament=tournament, status=DealStatus.OPEN).first()
        if pending is not None:
            raise Conflict(
                "A deal is already waiting for answers.",
                code=PlayCode.DEAL_PENDING,
                details={"deal": pending.pk},
            )
        if Deal.objects.filter(tournament=tournament, proposer=user, level=tournament.level).exists():
            raise Conflict(
                "You have already proposed a deal at this level.",
                code=PlayCode.DEAL_ALREADY_PROPOSED,
                details={"level": tournament.level},
            )
        prizes = unpaid_prizes(tournament, players_left=len(final.seats))
        if sum(prizes) == 0:
            raise Conflict("No prize is left to share.", code=PlayCode.DEAL_NOTHING_TO_SHARE)
        offer = icm.offer(chips=final.chips, prizes=prizes, keep_percent=tournament.deal_keep)
        now = timezone.now()
        deal = Deal.objects.create(
            tournament=tournament,
            proposer=user,
            level=tournament.level,
            method=method,
            players=list(final.chips),
            amounts=offer.amounts(method),
            keep=offer.keep,
            unpaid=offer.unpaid,
            computation={**offer.as_record(), "method": method, "keep_percent": tournament.deal_keep},
            answers={name: True},
            expires_at=now + timedelta(seconds=tournament.deal_seconds),
        )
        events.record(
            tournament=tournament,
            kind="deal_proposed",
            data={
                "deal": deal.pk,
                "proposer": name,
                "method": method,
                "amounts": deal.amounts,
                "keep": deal.keep,
                "expires_at": deal.expires_at.isoformat(),
            },
        )
        dispatch.enqueue(EXPIRE_DEAL, [deal.pk], float(tournament.deal_seconds))
        return deal


def _lock_deal(tournament: Tournament, deal_id: int) -> Deal:
    deal = Deal.objects.select_for_update().filter(pk=deal_id, tournament=tournament).first()
    if deal is None:
        raise NotFound("No such deal.", code=PlayCode.DEAL_NOT_FOUND)
    return deal


def _close(tournament: Tournament, deal: Deal, status: str, **data: Any) -> None:
    deal.status = status
    deal.closed_at = timezone.now()
    deal.save(update_fields=["status", "closed_at", "answers", "transfer"])
    events.record(tournament=tournament, kind=f"deal_{status}", data={"deal": deal.pk, **data})
    _release_table(tournament)


def _release_table(tournament: Tournament) -> None:
    """The offer is over: a deal the final table was holding for it is dealt now (nothing when none was due: the
    table's job schedules it)."""
    table = Table.objects.filter(tournament=tournament, status=TableStatus.OPEN).first()
    if table is None:
        return
    game = Game.objects.select_for_update().get(table=table)
    if game.status == GameStatus.WAITING and game.next_round_at is not None:
        game.next_round_at = timezone.now()
        game.save(update_fields=["next_round_at", "updated_at"])
        dispatch.enqueue(dispatch.START_ROUND, [game.pk], 0, queue=dispatch.queue_for(table))


def answer(*, user: User, tournament_id: int, deal_id: int, accept: Any) -> Deal:
    """A player's answer: a refusal ends the offer; the last acceptance pays it."""
    if not isinstance(accept, bool):
        raise InvalidRequest("accept must be true or false.", details={"field": "accept"})
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        deal = Deal.objects.filter(pk=deal_id, tournament=tournament).first()
        if deal is None:
            raise NotFound("No such deal.", code=PlayCode.DEAL_NOT_FOUND)
        name = user.get_username()
        if name not in deal.players:
            raise Conflict(
                "Only the players at the final table take part in a deal.", code=PlayCode.DEAL_NOT_A_PLAYER
            )
        # Every change of a deal holds the tournament's lock: its status read here stands.
        if deal.status != DealStatus.OPEN or deal.expires_at <= timezone.now():
            raise Conflict(
                "This deal is no longer open.", code=PlayCode.DEAL_CLOSED, details={"status": deal.status}
            )
        final = lock_final_table(tournament)
        deal = _lock_deal(tournament, deal_id)
        if name in deal.answers:
            raise Conflict("You have already answered this deal offer.", code=PlayCode.DEAL_ALREADY_ANSWERED)
        deal.answers = {**deal.answers, name: accept}
        if not accept:
            _close(tournament, deal, DealStatus.DECLINED, by=name)
        elif all(deal.answers.get(p) is True for p in deal.players):
            _accept(tournament, deal, final)
        else:
            deal.save(update_fields=["answers"])
            events.record(tournament=tournament, kind="deal_answered", data={"deal": deal.pk, "player": name})
        return deal


def _accept(tournament: Tournament, deal: Deal, final: FinalTable) -> None:
    """Every player accepted: the offered amounts paid from the pool at once, if the chips are still those the
    offer was made on (else the offer expires: nothing changes)."""
    if final.chips != deal.computation.get("stacks"):
        _close(tournament, deal, DealStatus.EXPIRED, why="chips_changed")
        return
    deal.transfer = pay(tournament=tournament, deal=deal, seats=final.seats)
    _close(tournament, deal, DealStatus.ACCEPTED, amounts=deal.amounts, keep=deal.keep)


def pay(*, tournament: Tournament, deal: Deal, seats: list[Seat]) -> Transfer | None:
    assert tournament.pool_account_id is not None
    pool = Account.objects.select_for_update().get(pk=tournament.pool_account_id)
    players = {s.player.get_username(): s.player for s in seats}
    legs = [(accounts.get_wallet(user=players[p]), int(a)) for p, a in deal.amounts.items() if int(a)]
    if not legs:
        return None
    total = sum(amount for _, amount in legs)
    return postings.post_transfer(
        kind=TransferKind.PAYOUT,
        legs=[(pool, -total), *legs],
        idempotency_key=f"tournament:{tournament.pk}:deal:{deal.pk}",
        reason=f"final-table deal {deal.pk} of tournament {tournament.pk}",
        tournament_id=tournament.pk,
        computation={"deal": deal.pk, "why": "deal", **deal.computation, "amounts": deal.amounts},
        posted_by_system="tournaments.deals",
    )


def expire(*, deal_id: int) -> bool:
    """The time to answer ran out (the task at `expires_at`; safe late or twice): the offer ends unchanged."""
    with transaction.atomic():
        deal = Deal.objects.filter(pk=deal_id).first()
        if deal is None or deal.status != DealStatus.OPEN:
            return False
        tournament = lock_tournament(deal.tournament_id)
        deal = _lock_deal(tournament, deal_id)
        if deal.status != DealStatus.OPEN:
            return False
        if deal.expires_at > timezone.now():
            dispatch.enqueue(EXPIRE_DEAL, [deal.pk], (deal.expires_at - timezone.now()).total_seconds())
            return False
        _close(tournament, deal, DealStatus.EXPIRED)
        return True


def holding_until(*, tournament_id: int, now: datetime) -> datetime | None:
    """When the open offer's time runs out, if one is open and running (the final table's deal waits till then)."""
    found = (
        Deal.objects.filter(tournament_id=tournament_id, status=DealStatus.OPEN, expires_at__gt=now)
        .values_list("expires_at", flat=True)
        .first()
    )
    return found


def after_deal(
    *, deal: Deal, shares: dict[str, int], places: dict[str, int], order: list[str]
) -> tuple[dict[str, int], dict[str, int]]:
    """At the finish, after the accepted `deal` (`shares`: the prizes by place of the pool as it was before the
    deal): (what the pool pays now, each entry's whole prize). The deal's players' places carry no prize any
    more: the winner (place 1; tied winners share, the remainder to the earlier registration) receives the amount
    kept; each prize recorded is the deal's amount plus what the finish pays."""
    pays = {p: (0 if p in deal.players else a) for p, a in shares.items()}
    winners = [p for p in order if p in deal.players and places.get(p) == 1]
    each, left = divmod(int(deal.keep), max(1, len(winners)))
    for index, p in enumerate(winners):
        pays[p] = each + (1 if index < left else 0)
    prizes = {p: pays.get(p, 0) + int(deal.amounts.get(p, 0)) for p in shares}
    return pays, prizes


def finish_adjustment(
    *, tournament: Tournament, places: dict[str, int], order: list[str]
) -> PrizeAdjustment | None:
    """What the finish's prizes change after an accepted deal (None without one): the pool split as it was before
    the deal, then `after_deal`."""
    deal = Deal.objects.filter(tournament=tournament, status=DealStatus.ACCEPTED).first()
    if deal is None:
        return None
    return PrizeAdjustment(
        paid=_paid(deal),
        split=lambda shares: after_deal(deal=deal, shares=shares, places=places, order=order),
    )
