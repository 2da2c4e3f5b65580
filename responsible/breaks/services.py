"""Taking a break, staff applying one, revoking an indefinite exclusion (docs/rules.md "Responsible play").

A break is never shortened: one that would end before the breaks already in force is refused
(`break.shorter`); an indefinite exclusion is revoked only 6 months after it began, and the revocation applies 7
days after it is asked for. Every change is written to the admin's log, with who made it. Taking a break leaves
the player's seats and refunds their registrations at once (`enforcement.enforce`), after the break is
committed: a stake racing it is refused by the gate, or caught by the sweep (`enforcement.sweep`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from responsible.breaks import enforcement, selectors
from responsible.breaks.errors import BreakInvalid, BreakNotRevocable, BreakShorter
from responsible.breaks.gate import iso
from responsible.breaks.models import DAYS, Break, BreakKind

__all__ = ["apply_break", "refuse_invalid", "revoke", "take_break"]


def _checked(kind: str, days: int | None, indefinite: bool) -> None:
    if kind not in BreakKind.values:
        raise BreakInvalid(details={"field": "kind", "kinds": list(BreakKind.values)})
    if indefinite:
        if kind != BreakKind.SELF_EXCLUSION or days is not None:
            raise BreakInvalid(
                "Only a self-exclusion can be indefinite, and then without a number of days.",
                details={"field": "indefinite"},
            )
        return
    if days not in DAYS[BreakKind(kind)]:
        raise BreakInvalid(
            "This break lasts one of these numbers of days: %(days)s.",
            params={"days": ", ".join(str(d) for d in DAYS[BreakKind(kind)])},
            details={"field": "days", "days": list(DAYS[BreakKind(kind)])},
        )


def refuse_invalid(
    *, player_id: int, kind: str, days: int | None, indefinite: bool, now: datetime | None = None
) -> datetime | None:
    """The break's end (None: indefinite), or the refusal: a length not offered (`break.invalid`), or one that
    would end before the breaks in force (`break.shorter`)."""
    _checked(kind, days, indefinite)
    now = now or timezone.now()
    state = selectors.state_of(player_id=player_id, now=now)
    ends_at = None if indefinite else now + timedelta(days=int(days or 0))
    if state.on_break and (
        state.indefinite or (ends_at is not None and state.until is not None and ends_at <= state.until)
    ):
        raise BreakShorter(details={"until": iso(state.until), "indefinite": state.indefinite})
    return ends_at


def _log(*, by: User, row: Break, flag: int, message: str) -> None:
    LogEntry.objects.log_actions(
        user_id=by.pk, queryset=[row], action_flag=flag, change_message=message, single_object=True
    )


def _create(
    *,
    player: User,
    kind: str,
    days: int | None,
    indefinite: bool,
    by: User | None,
    reason: str,
    now: datetime | None,
) -> Break:
    with transaction.atomic():
        # The player's row serialises two breaks taken at once, so neither shortens the other; the time is read
        # once the lock is held.
        User.objects.select_for_update().filter(pk=player.pk).first()
        now = now or timezone.now()
        ends_at = refuse_invalid(
            player_id=int(player.pk), kind=kind, days=days, indefinite=indefinite, now=now
        )
        row = Break.objects.create(
            player=player,
            kind=kind,
            days=days,
            indefinite=indefinite,
            starts_at=now,
            ends_at=ends_at,
            applied_by=by,
            reason=reason,
        )
        _log(
            by=by or player,
            row=row,
            flag=ADDITION,
            message=f"{kind} {'indefinite' if indefinite else f'{days} days'}"
            + (f" applied by staff: {reason}" if by is not None else " taken by the player"),
        )
    enforcement.enforce(player_id=int(player.pk))
    row.refresh_from_db()
    return row


def take_break(
    *,
    user: User,
    kind: str,
    days: int | None = None,
    indefinite: bool = False,
    now: datetime | None = None,
) -> Break:
    """The player takes a cool-off (`days` 1, 2, 7, 30 or 42) or excludes themselves (`days` 30, 60 or 90, or
    `indefinite`)."""
    return _create(player=user, kind=kind, days=days, indefinite=indefinite, by=None, reason="", now=now)


def apply_break(
    *,
    player: User,
    by: User,
    kind: str,
    reason: str,
    days: int | None = None,
    indefinite: bool = False,
    now: datetime | None = None,
) -> Break:
    """Staff apply a break to a player, with a reason; as the player's own, it never shortens one in force."""
    if not reason.strip():
        raise BreakInvalid("Say why the break is applied.", details={"field": "reason"})
    return _create(
        player=player, kind=kind, days=days, indefinite=indefinite, by=by, reason=reason.strip(), now=now
    )


def revoke(*, user: User, now: datetime | None = None) -> Break:
    """Ask to end the indefinite exclusion in force: allowed 6 months after it began; it then ends 7 days after
    this request (a cooling period). Asked twice, the first request stands."""
    now = now or timezone.now()
    with transaction.atomic():
        row = (
            Break.objects.select_for_update()
            .filter(selectors.active(now=now), player_id=user.pk, indefinite=True)
            .order_by("starts_at", "pk")
            .first()
        )
        if row is None:
            raise BreakNotRevocable(
                "You have no indefinite exclusion to revoke.", details={"reason": "no_indefinite_exclusion"}
            )
        if row.revocation_asked_at is not None:
            return row
        revocable_at = selectors.revocable_at(row)
        if now < revocable_at:
            raise BreakNotRevocable(
                "An indefinite exclusion can be revoked from %(revocable_at)s.",
                params={"revocable_at": iso(revocable_at)},
                details={"reason": "too_early", "revocable_at": iso(revocable_at)},
            )
        row.revocation_asked_at = now
        row.ends_at = selectors.revocation_end(now)
        row.save(update_fields=["revocation_asked_at", "ends_at"])
        _log(by=user, row=row, flag=CHANGE, message=f"revocation asked; ends {iso(row.ends_at)}")
    return row
