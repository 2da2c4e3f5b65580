"""Sessions recorded, reality checks answered, the reality check's interval chosen (docs/rules.md "Responsible
play"). A session's record is made the first time the player's client or the sweep sees it, and closed (its last
seat's end) once 15 minutes pass with no seat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from responsible.limits.errors import InvalidLimit
from responsible.sessions import leaving, selectors
from responsible.sessions.errors import NoSession, NotDue
from responsible.sessions.models import (
    DEFAULT_REALITY_CHECK_MINUTES,
    REALITY_CHECK_CHOICES,
    PlaySession,
    RealityCheck,
    RealityCheckAnswer,
    RealityCheckSetting,
)


def interval_minutes(*, player_id: int) -> int:
    row = RealityCheckSetting.objects.filter(player_id=player_id).values_list("minutes", flat=True).first()
    return row or DEFAULT_REALITY_CHECK_MINUTES


def set_interval(*, user: User, minutes: object, now: datetime | None = None) -> int:
    """Every 15, 30 or 60 minutes (applies at once: it is not a limit)."""
    if isinstance(minutes, bool) or minutes not in REALITY_CHECK_CHOICES:
        raise InvalidLimit(
            "The reality check comes every 15, 30 or 60 minutes.",
            details={"limit": "reality_check_minutes", "allowed": list(REALITY_CHECK_CHOICES)},
        )
    RealityCheckSetting.objects.update_or_create(
        player=user, defaults={"minutes": minutes, "updated_at": now or timezone.now()}
    )
    return int(minutes)  # type: ignore[call-overload,no-any-return]


@dataclass(frozen=True)
class SessionView:
    session: PlaySession
    active: bool  # a seat is held now (else: the last seat was left less than 15 minutes ago)
    played_seconds: int
    net_result: int
    interval_minutes: int
    due_number: int  # the reality check due now (0: none due)
    answered: int  # the last reality check answered in this session (0: none)
    next_check_at: datetime


def _record(*, user: User, started_at: datetime) -> PlaySession:
    try:
        with transaction.atomic():
            session, _ = PlaySession.objects.get_or_create(player=user, started_at=started_at)
    except IntegrityError:  # recorded at the same moment by the sweep or another request
        session = PlaySession.objects.get(player=user, started_at=started_at)
    return session


def close_finished(*, user: User, now: datetime, keep: PlaySession | None = None) -> int:
    """Stamp the end of the player's recorded sessions that are over (the end of their last seat)."""
    closed = 0
    for session in PlaySession.objects.filter(player=user, ended_at__isnull=True):
        if keep is not None and session.pk == keep.pk:
            continue
        stretch = selectors.stretch_starting(player_id=user.pk, started_at=session.started_at, now=now)
        ended = stretch.ended_at if stretch is not None else session.started_at
        if ended is None or now - ended <= selectors.GAP:
            continue
        session.ended_at = ended
        session.save(update_fields=["ended_at"])
        closed += 1
    return closed


def current(*, user: User, now: datetime | None = None) -> SessionView | None:
    """The session going on (recorded now if it was not), with its time, net result and reality check; None when
    the player has not sat at a ring or tournament table in the last 15 minutes."""
    now = now or timezone.now()
    stretch = selectors.current_stretch(player_id=user.pk, now=now)
    if stretch is None:
        close_finished(user=user, now=now)
        return None
    session = _record(user=user, started_at=stretch.started_at)
    close_finished(user=user, now=now, keep=session)
    minutes = interval_minutes(player_id=user.pk)
    played = int((stretch.end(now) - stretch.started_at).total_seconds())
    answered = max(session.checks.values_list("number", flat=True), default=0)
    elapsed = int((now - stretch.started_at).total_seconds())
    number = elapsed // (minutes * 60)
    due = number if number > answered else 0
    following = number if due else answered + 1
    return SessionView(
        session=session,
        active=stretch.ended_at is None,
        played_seconds=played,
        net_result=selectors.net_result(player_id=user.pk, user=user, since=stretch.started_at, now=now),
        interval_minutes=minutes,
        due_number=due,
        answered=answered,
        next_check_at=stretch.started_at + timedelta(minutes=minutes * following),
    )


def answer(*, user: User, choice: str, now: datetime | None = None) -> tuple[RealityCheck, list[int]]:
    """Record the answer to the reality check due now: `continue`, or `leave` (every ring seat is left, at the
    round's end during a round; tournaments go on). Returns the check and the tables left."""
    now = now or timezone.now()
    if choice not in RealityCheckAnswer.values:
        raise InvalidLimit(
            "The answer is continue or leave.", details={"allowed": list(RealityCheckAnswer.values)}
        )
    view = current(user=user, now=now)
    if view is None:
        raise NoSession()
    number = view.due_number or view.answered
    if number == 0:
        raise NotDue(
            details={"next_check_at": view.next_check_at.astimezone(UTC).isoformat().replace("+00:00", "Z")}
        )
    with transaction.atomic():
        check, _ = RealityCheck.objects.get_or_create(
            session=view.session,
            number=number,
            defaults={
                "answered_at": now,
                "answer": choice,
                "played_seconds": view.played_seconds,
                "net_result": view.net_result,
            },
        )
    left: list[int] = []
    if check.answer == RealityCheckAnswer.LEAVE:
        left = leaving.leave_ring_tables(user=user)
    return check, left
