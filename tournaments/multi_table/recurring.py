"""Recurring multi-table tournaments (issue 12): a `TournamentTemplate` holds a tournament's settings and a cron
line; `save_template` checks both and keeps the template's django-celery-beat `PeriodicTask` (task
`tournaments.create_from_template`, args `[template id]`, a `CrontabSchedule`, enabled while the template is
active; editable in the beat admin) in step; each time it fires, `create_from_template` creates the tournament,
registering at once and starting `registration_minutes` later.

Firing twice creates one tournament: the tournament is named and timed by the cron occurrence the firing
belongs to (`last_fire`, the latest one at or before the firing), never by the clock of the worker, and a
unique constraint allows one tournament per (template, starts_at)."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from celery import schedules
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django_celery_beat.models import CrontabSchedule, PeriodicTask

from tournaments.errors import InvalidRequest, PlayCode
from tournaments.multi_table.task_names import CREATE_FROM_TEMPLATE
from tournaments.tournament import setup
from tournaments.tournament.models import Tournament, TournamentKind, TournamentTemplate

logger = logging.getLogger(__name__)

MAX_REGISTRATION_MINUTES = 7 * 24 * 60
# The settings a template leaves out: each tournament gets its own name and times.
PER_TOURNAMENT = ("name", "starts_at", "registration_opens_at")
CRON_FIELDS = ("minute", "hour", "day_of_month", "month_of_year", "day_of_week")
# How far back `last_fire` looks for an occurrence (a cron line may fire once in four years: 29 February).
HORIZON_DAYS = 5 * 366


@dataclass(frozen=True)
class CronLine:
    """A cron line's five fields as written ("minute hour day-of-month month day-of-week") and its time zone."""

    minute: str
    hour: str
    day_of_month: str
    month_of_year: str
    day_of_week: str
    timezone: str

    def schedule(self) -> schedules.crontab:
        return schedules.crontab(
            minute=self.minute,
            hour=self.hour,
            day_of_month=self.day_of_month,
            month_of_year=self.month_of_year,
            day_of_week=self.day_of_week,
        )

    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


def _invalid(field_name: str, message: str) -> InvalidRequest:
    return InvalidRequest(message, code=PlayCode.TOURNAMENT_INVALID, details={"field": field_name})


def parse_crontab(line: Any, zone: Any = "UTC") -> CronLine:
    """A cron line checked as celery reads it; else 400 tournament.invalid (field `crontab` or
    `crontab_timezone`)."""
    parts = line.split() if isinstance(line, str) else []
    if len(parts) != len(CRON_FIELDS):
        raise _invalid(
            "crontab", 'crontab must be five fields: "minute hour day-of-month month day-of-week".'
        )
    minute, hour, day_of_month, month_of_year, day_of_week = parts
    cron = CronLine(
        minute=minute,
        hour=hour,
        day_of_month=day_of_month,
        month_of_year=month_of_year,
        day_of_week=day_of_week,
        timezone=zone if isinstance(zone, str) else "",
    )
    try:
        cron.schedule()
    except (ValueError, TypeError) as exc:
        raise _invalid("crontab", f"crontab is not a valid cron line: {exc}") from None
    try:
        cron.zone()
    except (ZoneInfoNotFoundError, ValueError):
        raise _invalid("crontab_timezone", "crontab_timezone must be a time zone name, e.g. UTC.") from None
    return cron


def last_fire(cron: CronLine, *, now: datetime) -> datetime | None:
    """The latest minute at or before `now` the cron line fires (in its time zone; a day must match both its
    day of month and its day of week, as celery's crontab does), in UTC; None if none within HORIZON_DAYS."""
    spec: Any = cron.schedule()  # celery's expanded sets: minute, hour, day_of_week (0 = Sunday), ...
    zone = cron.zone()
    local = now.astimezone(zone).replace(second=0, microsecond=0)
    hours = sorted(spec.hour, reverse=True)
    minutes = sorted(spec.minute, reverse=True)
    for back in range(HORIZON_DAYS):
        day = local.date() - timedelta(days=back)
        if (
            day.month not in spec.month_of_year
            or day.day not in spec.day_of_month
            or day.isoweekday() % 7 not in spec.day_of_week
        ):
            continue
        for hour in hours:
            for minute in minutes:
                candidate = datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone)
                if candidate <= local:
                    return candidate.astimezone(UTC)
    return None


def check_template(
    *, name: Any, tournament_settings: Any, registration_minutes: Any, now: datetime | None = None
) -> dict[str, Any]:
    """The template's tournament settings checked as a tournament's (`setup.validate`, with a
    placeholder start `registration_minutes` from now), normalized for storing; else 400 tournament.invalid."""
    if not isinstance(name, str) or not name.strip() or len(name) > setup.MAX_NAME:
        raise _invalid("name", f"name must be 1 to {setup.MAX_NAME} characters.")
    if (
        isinstance(registration_minutes, bool)
        or not isinstance(registration_minutes, int)
        or not 1 <= registration_minutes <= MAX_REGISTRATION_MINUTES
    ):
        raise _invalid(
            "registration_minutes",
            f"registration_minutes must be an integer from 1 to {MAX_REGISTRATION_MINUTES}.",
        )
    if not isinstance(tournament_settings, Mapping):
        raise _invalid("tournament_settings", "tournament_settings must be an object.")
    for own in PER_TOURNAMENT:
        if own in tournament_settings:
            raise _invalid(own, f"{own} is set for each tournament by the template; leave it out.")
    settings = {"kind": TournamentKind.MULTI, **tournament_settings}
    if settings["kind"] != TournamentKind.MULTI:
        raise _invalid("kind", "A template creates multi-table tournaments.")
    now = timezone.now() if now is None else now
    try:
        checked = setup.validate(
            **settings,
            name=name,
            starts_at=now + timedelta(minutes=registration_minutes),
            now=now,
        )
    except TypeError as exc:  # a setting no tournament takes
        raise _invalid(
            "tournament_settings", f"tournament_settings holds an unknown setting: {exc}"
        ) from None
    return {k: v for k, v in asdict(checked).items() if k not in PER_TOURNAMENT}


def _crontab_row(cron: CronLine) -> CrontabSchedule:
    row, _ = CrontabSchedule.objects.get_or_create(
        minute=cron.minute,
        hour=cron.hour,
        day_of_month=cron.day_of_month,
        month_of_year=cron.month_of_year,
        day_of_week=cron.day_of_week,
        timezone=cron.timezone,
    )
    return row


def save_template(
    *,
    user: User,
    name: Any,
    tournament_settings: Any,
    crontab: Any,
    crontab_timezone: Any = "UTC",
    registration_minutes: Any = 60,
    active: bool = True,
    template_id: int | None = None,
) -> TournamentTemplate:
    """Create (no `template_id`) or change a template, and its periodic task with it."""
    settings = check_template(
        name=name, tournament_settings=tournament_settings, registration_minutes=registration_minutes
    )
    cron = parse_crontab(crontab, crontab_timezone)
    with transaction.atomic():
        if template_id is None:
            template = TournamentTemplate(created_by=user)
        else:
            template = TournamentTemplate.objects.select_for_update().get(pk=template_id)
        if TournamentTemplate.objects.filter(name=name.strip()).exclude(pk=template.pk).exists():
            raise _invalid("name", "Another template has this name.")
        template.name = name.strip()
        template.tournament_settings = settings
        template.registration_minutes = registration_minutes
        template.crontab = " ".join(getattr(cron, f) for f in CRON_FIELDS)
        template.crontab_timezone = cron.timezone
        template.active = bool(active)
        template.save()
        task = template.periodic_task or PeriodicTask(name=f"tournaments: template {template.pk}")
        task.task = CREATE_FROM_TEMPLATE
        task.args = json.dumps([template.pk])
        task.crontab = _crontab_row(cron)
        task.interval = None
        task.enabled = template.active
        task.description = f"Create a tournament from the template {template.name!r} (tournaments admin)."
        task.save()
        if template.periodic_task_id != task.pk:
            template.periodic_task = task
            template.save(update_fields=["periodic_task"])
    return template


def firing(template: TournamentTemplate) -> CronLine:
    """When the template fires: its periodic task's crontab (an admin may have changed it in the beat admin),
    else the template's own line."""
    row = template.periodic_task.crontab if template.periodic_task is not None else None
    if row is None:
        return parse_crontab(template.crontab, template.crontab_timezone)
    return parse_crontab(
        " ".join(str(getattr(row, f)) for f in CRON_FIELDS), str(row.timezone) if row.timezone else "UTC"
    )


def delete_template(*, template_id: int) -> None:
    """The template and its periodic task (the tournaments it created stay, unlinked)."""
    with transaction.atomic():
        template = TournamentTemplate.objects.select_for_update().filter(pk=template_id).first()
        if template is None:
            return
        task_id = template.periodic_task_id
        template.delete()
        if task_id is not None:
            PeriodicTask.objects.filter(pk=task_id).delete()


def create_from_template(*, template_id: int, now: datetime | None = None) -> Tournament | None:
    """The tournament of the template's latest occurrence (registering now, starting `registration_minutes`
    after the occurrence); None when the template is gone or inactive, when that occurrence's tournament
    exists already (the beat fired twice, or the message was delivered again), or when it would start at once."""
    now = timezone.now() if now is None else now
    template = (
        TournamentTemplate.objects.select_related("created_by", "periodic_task__crontab")
        .filter(pk=template_id)
        .first()
    )
    if template is None or not template.active:
        return None
    fired_at = last_fire(firing(template), now=now)
    if fired_at is None:
        fired_at = now.replace(second=0, microsecond=0)
    starts_at = fired_at + timedelta(minutes=template.registration_minutes)
    if starts_at <= now:
        logger.warning(
            "template %s: the occurrence at %s is past its start; nothing created", template.pk, fired_at
        )
        return None
    if Tournament.objects.filter(template=template, starts_at=starts_at).exists():
        return None
    local = fired_at.astimezone(firing(template).zone())
    stamp = f" {local:%Y-%m-%d %H:%M}"
    settings = {
        **template.tournament_settings,
        "name": template.name[: setup.MAX_NAME - len(stamp)] + stamp,
        "starts_at": starts_at,
    }
    try:
        with transaction.atomic():
            return setup.create_tournament(user=template.created_by, settings=settings, template=template)
    except IntegrityError:
        # Another delivery of the same firing created it between our check and our insert.
        if Tournament.objects.filter(template=template, starts_at=starts_at).exists():
            return None
        raise
