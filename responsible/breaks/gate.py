"""The break's check where chips are staked or granted (`responsible.stakes.refuse_stake`, the daily top-up, a
tournament player coming back to play their own turns): it reads breaks and nothing else, so anything may call
it (docs/rules.md "Responsible play")."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth.models import AbstractBaseUser

from responsible.breaks import selectors
from responsible.breaks.errors import OnBreak


def iso(moment: datetime | None) -> str | None:
    """UTC, written as the API writes its times (docs/api.md "Numbers and dates")."""
    return None if moment is None else moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def refuse_if_on_break(*, user: AbstractBaseUser, now: datetime | None = None) -> None:
    """403 `player.on_break` while `user` is on a cool-off or a self-exclusion (details: `kind`, `until`, null
    while an indefinite exclusion stands). One indexed look-up when there is none."""
    if not selectors.is_on_break(user, now=now):
        return
    state = selectors.state_of(player_id=int(user.pk), now=now)
    if state.until is None:
        raise OnBreak(
            "You excluded yourself from play indefinitely: this is not available.",
            details={"kind": state.kind, "until": None, "indefinite": True},
        )
    until = iso(state.until)
    raise OnBreak(
        "You are taking a break from play until %(until)s: this is not available until then.",
        params={"until": until},
        details={"kind": state.kind, "until": until, "indefinite": False},
    )
