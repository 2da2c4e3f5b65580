"""Tickets through the ledger (docs/rules.md "Tickets"). Every movement is a transfer: a ticket's own chip type
moves between the house cashier of that chip type (the issuer: its balance is minus the tickets out) and the
holder's wallet for it; the site chips an entry paid with a ticket costs move from the house cashier exactly as a
chip entry's would from the player's wallet (the buy-in to the pool, the fee to the house)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User

from accounts.selectors import is_guest
from ledger.models import Account, AccountKind, Transfer, TransferKind
from ledger.services import accounts, postings
from tournaments.errors import Conflict, Forbidden, InvalidRequest, PlayCode
from tournaments.tickets import targets
from tournaments.tickets.targets import Target
from tournaments.tournament.models import (
    LIVE_ENTRY_STATUSES,
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentStatus,
    TournamentTemplate,
)

PAYMENTS = ("auto", "chips", "ticket")
MAX_GRANT = 100
SYSTEM = "tournaments.tickets"


def _issuer(chip_type: str) -> Account:
    return accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER, chip_type=chip_type)


def _invalid(field: str, message: str) -> InvalidRequest:
    return InvalidRequest(message, code=PlayCode.TICKET_INVALID, details={"field": field})


# --- issuing ---------------------------------------------------------------------------------------------


def issue(
    *,
    target: Target,
    holders: Mapping[int, int],
    key: str,
    reason: str,
    computation: dict[str, Any],
    tournament_id: int | None = None,
    posted_by: AbstractBaseUser | None = None,
) -> Transfer | None:
    """Mint `holders[user id]` tickets to `target` into each holder's wallet for its chip type, in one transfer
    from the house (nothing when nobody gets one)."""
    legs: list[tuple[Account, int]] = []
    for user in User.objects.filter(pk__in=[u for u, n in holders.items() if n > 0]).order_by("pk"):
        legs.append((accounts.get_wallet(user=user, chip_type=target.chip_type), holders[user.pk]))
    if not legs:
        return None
    total = sum(n for _, n in legs)
    return postings.post_transfer(
        kind=TransferKind.TICKET_ISSUE,
        legs=[(_issuer(target.chip_type), -total), *legs],
        idempotency_key=key,
        reason=reason,
        tournament_id=tournament_id,
        computation={"face_value": target.face_value, "tickets": total, **computation},
        posted_by=posted_by,
        posted_by_system="" if posted_by is not None else SYSTEM,
    )


def grant(
    *,
    user: User,
    count: Any,
    reason: Any,
    idempotency_key: Any,
    posted_by: AbstractBaseUser | None,
    tournament_id: Any = None,
    template_id: Any = None,
) -> Transfer:
    """An admin's grant of `count` tickets to one target (a tournament not over, or a recurring template's next
    tournament), with a reason and an idempotency key, as adjustments are: the same key twice grants once."""
    if (tournament_id is None) == (template_id is None):
        raise _invalid("target", "Name one target: a tournament or a recurring tournament.")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_GRANT:
        raise _invalid("count", f"count must be an integer from 1 to {MAX_GRANT}.")
    if not isinstance(reason, str) or not reason.strip():
        raise _invalid("reason", "A grant needs a reason.")
    if not isinstance(idempotency_key, str) or not idempotency_key or len(idempotency_key) > 200:
        raise _invalid("idempotency_key", "A grant needs an idempotency key of 1 to 200 characters.")
    if is_guest(user=user):
        raise _invalid("user", "A guest of the demo holds no tickets.")
    target = _grant_target(tournament_id=tournament_id, template_id=template_id)
    transfer = issue(
        target=target,
        holders={user.pk: count},
        key=f"ticket_grant:{idempotency_key}",
        reason=reason.strip(),
        computation={"grant": "admin", "username": user.get_username(), "count": count},
        tournament_id=target.tournament_id,
        posted_by=posted_by,
    )
    assert transfer is not None
    return transfer


def _grant_target(*, tournament_id: Any, template_id: Any) -> Target:
    for name, value in (("tournament", tournament_id), ("template", template_id)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise _invalid(name, f"{name} must be an id.")
    if tournament_id is not None:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None or tournament.status in targets.OVER:
            raise _invalid("tournament", "No such tournament taking entries.")
        return targets.of_tournament(tournament)
    template = TournamentTemplate.objects.filter(pk=template_id).first()
    if template is None:
        raise _invalid("template", "No such recurring tournament.")
    return targets.of_template(template)


# --- held ----------------------------------------------------------------------------------------------------


def held(*, user: AbstractBaseUser, chip_types: Sequence[str]) -> str | None:
    """The first of `chip_types` the user holds a ticket of."""
    found = dict(
        Account.objects.filter(
            kind=AccountKind.WALLET, user_id=user.pk, chip_type__in=list(chip_types), balance__gte=1
        ).values_list("chip_type", "balance")
    )
    return next((c for c in chip_types if found.get(c)), None)


def holds_entry_or_ticket(*, user_id: int, target: Target) -> bool:
    """Whether the player already holds an entry to the target (a live one; for a template, in one of its
    tournaments not started yet) or a ticket to it (docs/rules.md "Satellites")."""
    if Account.objects.filter(
        kind=AccountKind.WALLET, user_id=user_id, chip_type=target.chip_type, balance__gte=1
    ).exists():
        return True
    entries = TournamentEntry.objects.filter(player_id=user_id, status__in=LIVE_ENTRY_STATUSES)
    if target.tournament_id is not None:
        return entries.filter(tournament_id=target.tournament_id).exists()
    return entries.filter(
        tournament__template_id=target.template_id,
        tournament__status__in=[TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING],
    ).exists()


# --- entries ---------------------------------------------------------------------------------------------


def choose_payment(*, tournament: Tournament, user: User, payment: Any) -> str:
    """How an entry is paid: the ticket chip type spent, or "" for chips. `payment`: "auto" (a ticket when the
    player holds one), "chips" or "ticket". Refuses a chip entry where the tournament takes tickets only
    (`tournament.entry_rule`) and a ticket entry without a ticket (`tournament.no_ticket`)."""
    if payment is None:
        payment = "auto"
    if payment not in PAYMENTS:
        raise InvalidRequest(
            "payment must be auto, chips or ticket.",
            code=PlayCode.TOURNAMENT_INVALID,
            details={"field": "payment", "allowed": list(PAYMENTS)},
        )
    ticket = None if payment == "chips" else held(user=user, chip_types=targets.accepted_by(tournament))
    if payment == "ticket" and ticket is None:
        raise Conflict(
            "You hold no ticket to this tournament.",
            code=PlayCode.TOURNAMENT_NO_TICKET,
            details={"accepted": targets.accepted_by(tournament)},
        )
    if ticket is None and tournament.tickets_only:
        raise Forbidden(
            "This tournament takes entries paid with a ticket only.",
            code=PlayCode.TOURNAMENT_ENTRY_RULE,
            details={"rule": "tickets_only"},
        )
    return ticket or ""


def pay_with_ticket(
    *, tournament: Tournament, entry: TournamentEntry, ticket: str, key: str, computation: dict[str, Any]
) -> list[Transfer]:
    """Spend one ticket of chip type `ticket` on `entry`, and pay its buy-in and fee from the house: the pool and
    the fees get what a chip entry pays. Caller holds the tournament's lock."""
    user = entry.player
    spent = postings.post_transfer(
        kind=TransferKind.TICKET_SPEND,
        legs=[(accounts.get_wallet(user=user, chip_type=ticket), -1), (_issuer(ticket), 1)],
        idempotency_key=f"{key}:ticket",
        reason=f"ticket entry into tournament {tournament.pk}",
        tournament_id=tournament.pk,
        entry_id=entry.pk,
        computation={"ticket": ticket, **computation},
        posted_by=user,
    )
    posted = [spent]
    legs = _house_legs(tournament, +1)
    if legs:
        posted.append(
            postings.post_transfer(
                kind=TransferKind.TOURNAMENT_BUY_IN,
                legs=legs,
                idempotency_key=key,
                reason=f"ticket entry into tournament {tournament.pk}",
                tournament_id=tournament.pk,
                entry_id=entry.pk,
                computation={
                    "buy_in": tournament.buy_in,
                    "fee": tournament.fee,
                    "paid_with": ticket,
                    **computation,
                },
                posted_by_system=SYSTEM,
            )
        )
    if entry.ticket != ticket:
        entry.ticket = ticket
        entry.save(update_fields=["ticket"])
    return posted


def return_ticket(*, tournament: Tournament, entry: TournamentEntry, why: str) -> list[Transfer]:
    """Before the start: an entry paid with a ticket gets its ticket back (the house takes back the buy-in and
    the fee it paid)."""
    ticket = entry.ticket
    key = f"tournament:{tournament.pk}:entry:{entry.pk}:refund"
    posted = [
        postings.post_transfer(
            kind=TransferKind.TICKET_RETURN,
            legs=[(_issuer(ticket), -1), (accounts.get_wallet(user=entry.player, chip_type=ticket), 1)],
            idempotency_key=f"{key}:ticket",
            reason=f"ticket returned on leaving tournament {tournament.pk}",
            tournament_id=tournament.pk,
            entry_id=entry.pk,
            computation={"ticket": ticket, "why": why},
            posted_by_system=SYSTEM,
        )
    ]
    legs = _house_legs(tournament, -1)
    if legs:
        posted.append(
            postings.post_transfer(
                kind=TransferKind.REFUND,
                legs=legs,
                idempotency_key=key,
                reason=f"ticket returned on leaving tournament {tournament.pk}",
                tournament_id=tournament.pk,
                entry_id=entry.pk,
                computation={
                    "buy_in": tournament.buy_in,
                    "fee": tournament.fee,
                    "paid_with": ticket,
                    "why": why,
                },
                posted_by_system=SYSTEM,
            )
        )
    return posted


def _house_legs(tournament: Tournament, sign: int) -> list[tuple[Account, int]]:
    assert tournament.pool_account_id is not None
    legs = [
        (
            accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER),
            -sign * (tournament.buy_in + tournament.fee),
        ),
        (Account.objects.get(pk=tournament.pool_account_id), sign * tournament.buy_in),
        (accounts.get_house_account(kind=AccountKind.HOUSE_FEES), sign * tournament.fee),
    ]
    return [(account, amount) for account, amount in legs if amount]


# --- conversion ------------------------------------------------------------------------------------------


def convert(
    *, chip_type: str, face_value: int, key: str, reason: str, tournament_id: int, skip: Sequence[int] = ()
) -> list[Transfer]:
    """Every ticket of `chip_type` held (but those of the players in `skip`) converted to `face_value` site
    chips each: the tickets back to the house, the chips from the house to each holder's site wallet."""
    holders = list(
        Account.objects.filter(kind=AccountKind.WALLET, chip_type=chip_type, balance__gte=1)
        .exclude(user_id__in=list(skip))
        .select_related("user")
        .order_by("pk")
    )
    if not holders:
        return []
    counts = [(a, a.balance) for a in holders]  # the posting updates the Account objects it is given
    total = sum(n for _, n in counts)
    computation = {
        "ticket": chip_type,
        "face_value": face_value,
        "tickets": {a.user.get_username(): a.balance for a in holders if a.user is not None},
    }
    posted = [
        postings.post_transfer(
            kind=TransferKind.TICKET_CONVERSION,
            legs=[*((a, -n) for a, n in counts), (_issuer(chip_type), total)],
            idempotency_key=f"{key}:tickets",
            reason=reason,
            tournament_id=tournament_id,
            computation=computation,
            posted_by_system=SYSTEM,
        )
    ]
    if face_value > 0:
        wallets = [(accounts.get_wallet(user=a.user), n * face_value) for a, n in counts if a.user]
        posted.append(
            postings.post_transfer(
                kind=TransferKind.TICKET_CONVERSION,
                legs=[
                    (accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER), -total * face_value),
                    *wallets,
                ],
                idempotency_key=f"{key}:chips",
                reason=reason,
                tournament_id=tournament_id,
                computation=computation,
                posted_by_system=SYSTEM,
            )
        )
    return posted


def _reason(chip_type: str) -> str:
    parsed = targets.parse(chip_type)
    assert parsed is not None
    what, pk = parsed
    if what == "tournament":
        return f"tickets converted to chips: tournament {pk}"
    return f"tickets converted to chips: recurring tournament {pk}"


def convert_at_start(tournament: Tournament) -> list[Transfer]:
    """The tournament starts: the tickets to it held by players not registered become chips (its template's
    too: it was their next tournament). Caller holds the tournament's lock."""
    posted: list[Transfer] = []
    for chip_type in targets.accepted_by(tournament):
        holder_ids = list(
            Account.objects.filter(kind=AccountKind.WALLET, chip_type=chip_type, balance__gte=1).values_list(
                "user_id", flat=True
            )
        )
        if not holder_ids:
            continue
        registered = TournamentEntry.objects.filter(
            tournament=tournament, player_id__in=holder_ids, status__in=LIVE_ENTRY_STATUSES
        ).values_list("player_id", flat=True)
        posted += convert(
            chip_type=chip_type,
            face_value=tournament.buy_in + tournament.fee,
            key=f"tournament:{tournament.pk}:start:{chip_type}",
            reason=_reason(chip_type),
            tournament_id=tournament.pk,
            skip=list(registered),
        )
    return posted


def convert_at_end(tournament: Tournament, *, cancelled: bool) -> list[Transfer]:
    """The tournament is over: every ticket to it still held becomes chips; when it was cancelled, its
    template's tickets too (their next tournament is gone). Caller holds the tournament's lock."""
    chip_types = (
        targets.accepted_by(tournament) if cancelled else [targets.tournament_chip_type(tournament.pk)]
    )
    posted: list[Transfer] = []
    for chip_type in chip_types:
        posted += convert(
            chip_type=chip_type,
            face_value=tournament.buy_in + tournament.fee,
            key=f"tournament:{tournament.pk}:{'cancel' if cancelled else 'end'}:{chip_type}",
            reason=_reason(chip_type),
            tournament_id=tournament.pk,
        )
    return posted


def is_ticket_entry(entry: TournamentEntry) -> bool:
    return bool(entry.ticket) and entry.status in (EntryStatus.REGISTERED,)
