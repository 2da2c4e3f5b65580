"""What starting any tournament shares: the entrants checked against `min_entrants`, the guarantee's shortfall
paid into the pool, and a table's next deal scheduled on the tournament's word."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from ledger.models import Account, AccountKind, TransferKind
from ledger.services import accounts, postings
from tournaments.errors import Conflict, PlayCode
from tournaments.live import dispatch
from tournaments.live.models import Game
from tournaments.tournament.entry_payments import entry_bounty
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry


def schedule_deal(game: Game, *, delay: float | None = None) -> None:
    """The next round dealt after the usual pause, or after `delay` seconds (the tournament decided it; the
    caller holds its lock)."""
    delay = float(settings.RAMINO_NEXT_ROUND_DELAY_SECONDS) if delay is None else delay
    game.next_round_at = timezone.now() + timedelta(seconds=delay)
    game.save(update_fields=["next_round_at", "updated_at"])
    dispatch.enqueue(dispatch.START_ROUND, [game.pk], delay)


def schedule_deals(games: QuerySet[Game]) -> int:
    """`schedule_deal` for many games at once (one UPDATE, one message each); answers how many."""
    delay = float(settings.RAMINO_NEXT_ROUND_DELAY_SECONDS)
    now = timezone.now()
    ids = list(games.values_list("pk", flat=True))
    Game.objects.filter(pk__in=ids).update(next_round_at=now + timedelta(seconds=delay), updated_at=now)
    for game_id in ids:
        dispatch.enqueue(dispatch.START_ROUND, [game_id], delay)
    return len(ids)


def entrants_to_start(tournament: Tournament) -> list[TournamentEntry]:
    """The registered entries in registration order, or the TOO_FEW conflict below `min_entrants`."""
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
        .select_related("player")
        .order_by("registered_at", "pk")
    )
    if len(entries) < tournament.min_entrants:
        raise Conflict(
            "The tournament needs at least %(min_entrants)s entrants to start.",
            params={"min_entrants": tournament.min_entrants},
            code=PlayCode.TOURNAMENT_TOO_FEW_ENTRANTS,
            details={"entrants": len(entries), "min_entrants": tournament.min_entrants},
        )
    return entries


def pay_guarantee(tournament: Tournament, *, entrants: int) -> None:
    # The pool gets each buy-in less its bounty (docs/rules.md "Progressive knockout").
    buy_ins = entrants * (tournament.buy_in - entry_bounty(tournament))
    shortfall = tournament.guarantee - buy_ins
    if shortfall <= 0:
        return
    assert tournament.pool_account_id is not None
    postings.move_chips(
        source=accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER),
        destination=Account.objects.get(pk=tournament.pool_account_id),
        amount=shortfall,
        kind=TransferKind.GUARANTEE,
        idempotency_key=f"tournament:{tournament.pk}:guarantee",
        reason=f"guarantee shortfall of tournament {tournament.pk}",
        tournament_id=tournament.pk,
        computation={"guarantee": tournament.guarantee, "buy_ins": buy_ins},
        posted_by_system="tournaments.start",
    )
