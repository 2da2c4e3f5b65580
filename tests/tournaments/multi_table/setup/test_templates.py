"""Recurring multi-table tournaments from templates: a template keeps a django-celery-beat periodic task with
its crontab, args and enabled flag; each firing creates one tournament (firing twice, one); invalid settings
are refused by the service and by the admin form. `last_fire` (pure) finds the occurrence a firing belongs to."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django_celery_beat.models import PeriodicTask
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.multi_table.setup.helpers import multi_settings
from tournaments.errors import InvalidRequest, PlayCode
from tournaments.multi_table import recurring
from tournaments.multi_table.recurring import CronLine, last_fire, parse_crontab
from tournaments.multi_table.task_names import CREATE_FROM_TEMPLATE
from tournaments.tasks import create_from_template as create_task
from tournaments.tournament.models import Tournament, TournamentStatus, TournamentTemplate


def template_settings(**overrides: Any) -> dict[str, Any]:
    settings = multi_settings(**overrides)
    for own in ("name", "starts_at", "registration_opens_at"):
        settings.pop(own, None)
    return settings


def _template(admin: Any, **overrides: Any) -> TournamentTemplate:
    values: dict[str, Any] = {
        "user": admin,
        "name": "Friday night",
        "tournament_settings": template_settings(),
        "crontab": "30 20 * * 5",
        "registration_minutes": 90,
        **overrides,
    }
    return recurring.save_template(**values)


@pytest.mark.django_db
def test_a_template_gets_its_periodic_task(admin_user: Any) -> None:
    template = _template(admin_user, crontab_timezone="Europe/Rome")
    task = PeriodicTask.objects.get(pk=template.periodic_task_id)
    assert task.task == CREATE_FROM_TEMPLATE == "tournaments.create_from_template"
    assert json.loads(task.args) == [template.pk] and task.enabled and task.interval is None
    assert task.crontab is not None
    row = task.crontab
    assert (row.minute, row.hour, row.day_of_month, row.month_of_year, row.day_of_week) == (
        "30",
        "20",
        "*",
        "*",
        "5",
    )
    assert str(row.timezone) == "Europe/Rome"
    assert template.tournament_settings["kind"] == "multi"
    assert "name" not in template.tournament_settings and "starts_at" not in template.tournament_settings

    # A change keeps the one task in step: a new crontab, disabled while inactive.
    changed = _template(admin_user, template_id=template.pk, crontab="0 18 * * 1-5", active=False)
    assert changed.periodic_task_id == task.pk
    task.refresh_from_db()
    assert task.crontab is not None and (task.crontab.minute, task.crontab.hour) == ("0", "18")
    assert task.crontab.day_of_week == "1-5" and not task.enabled
    assert PeriodicTask.objects.filter(task=CREATE_FROM_TEMPLATE).count() == 1
    recurring.delete_template(template_id=template.pk)
    assert not PeriodicTask.objects.filter(pk=task.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"tournament_settings": template_settings(starting_stack=0)}, "starting_stack"),
        ({"tournament_settings": template_settings(pcr_schedule=[])}, "pcr_schedule"),
        ({"tournament_settings": {**template_settings(), "kind": "single"}}, "kind"),
        ({"tournament_settings": {**template_settings(), "starts_at": "2030-01-01T00:00:00Z"}}, "starts_at"),
        ({"tournament_settings": {**template_settings(), "colour": "red"}}, "tournament_settings"),
        ({"tournament_settings": "nope"}, "tournament_settings"),
        ({"crontab": "61 * * * *"}, "crontab"),
        ({"crontab": "0 20 * *"}, "crontab"),
        ({"crontab_timezone": "Mars/Olympus"}, "crontab_timezone"),
        ({"registration_minutes": 0}, "registration_minutes"),
        ({"name": ""}, "name"),
    ],
)
def test_the_service_refuses_invalid_templates(admin_user: Any, change: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        _template(admin_user, **change)
    assert str(refused.value.code) in {PlayCode.TOURNAMENT_INVALID, PlayCode.TOURNAMENT_INVALID_PAYOUTS}
    assert refused.value.details["field"] == field
    assert (
        not TournamentTemplate.objects.exists()
        and not PeriodicTask.objects.filter(task=CREATE_FROM_TEMPLATE).exists()
    )


@pytest.mark.django_db
def test_firing_twice_creates_one_tournament(admin_user: Any) -> None:
    template = _template(admin_user, crontab="30 20 * * 5", registration_minutes=90)
    friday = datetime(2031, 3, 7, 20, 30, 4, tzinfo=UTC)  # a Friday, 4 s after the occurrence
    first = recurring.create_from_template(template_id=template.pk, now=friday)
    assert first is not None
    assert (
        first.kind == "multi"
        and first.status == TournamentStatus.REGISTERING
        and first.template_id == template.pk
    )
    assert first.starts_at == datetime(2031, 3, 7, 22, 0, tzinfo=UTC)
    assert first.name == "Friday night 2031-03-07 20:30"
    assert first.pool_account is not None and first.pcr_schedule == [1, 2, 3, 5]
    # The beat fires again, or the message is delivered again minutes later: the same occurrence, nothing new.
    assert recurring.create_from_template(template_id=template.pk, now=friday) is None
    later = friday + timedelta(minutes=40)
    assert recurring.create_from_template(template_id=template.pk, now=later) is None
    assert Tournament.objects.filter(template=template).count() == 1
    # The next Friday's occurrence is a new tournament.
    next_week = recurring.create_from_template(template_id=template.pk, now=friday + timedelta(days=7))
    assert next_week is not None and next_week.starts_at == first.starts_at + timedelta(days=7)
    # Too late to register (the message arrived after the start): nothing.
    assert recurring.create_from_template(template_id=template.pk, now=friday + timedelta(hours=2)) is None
    # Inactive: nothing.
    _template(admin_user, template_id=template.pk, active=False)
    assert recurring.create_from_template(template_id=template.pk, now=friday + timedelta(days=14)) is None
    assert Tournament.objects.filter(template=template).count() == 2


@pytest.mark.django_db
def test_the_database_allows_one_tournament_per_template_and_start(admin_user: Any) -> None:
    from django.db import IntegrityError, transaction

    template = _template(admin_user)
    created = recurring.create_from_template(
        template_id=template.pk, now=datetime(2031, 3, 7, 20, 30, tzinfo=UTC)
    )
    assert created is not None
    copy = Tournament.objects.get(pk=created.pk)
    copy.pk = None
    copy.pool_account = None
    with pytest.raises(IntegrityError), transaction.atomic():
        copy.save()


@pytest.mark.django_db
def test_the_task_calls_the_service(admin_user: Any) -> None:
    template = _template(admin_user, crontab="* * * * *", registration_minutes=30)
    assert create_task.name == CREATE_FROM_TEMPLATE
    created = create_task(template.pk)
    assert created is not None and Tournament.objects.get(pk=created).template_id == template.pk
    assert create_task(template.pk) is None or Tournament.objects.filter(template=template).count() == 2


@pytest.mark.django_db
def test_the_periodic_task_edited_in_the_beat_admin_decides_the_occurrence(admin_user: Any) -> None:
    template = _template(admin_user, crontab="30 20 * * 5")
    task = PeriodicTask.objects.get(pk=template.periodic_task_id)
    assert task.crontab is not None
    task.crontab.hour = "19"
    task.crontab.save()
    created = recurring.create_from_template(
        template_id=template.pk, now=datetime(2031, 3, 7, 19, 30, 2, tzinfo=UTC)
    )
    assert created is not None and created.starts_at == datetime(2031, 3, 7, 21, 0, tzinfo=UTC)


ADD = "/admin/tournaments/tournamenttemplate/add/"


def _settings_fields(**overrides: Any) -> dict[str, str]:
    """A template's settings as the admin's form takes them: one field each."""
    settings = template_settings(**overrides)
    fields = {f"option_{name}": str(value) for name, value in settings.pop("options").items()}
    settings.pop("kind")
    for name, value in settings.items():
        fields[name] = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return fields


def _form(**overrides: str) -> dict[str, str]:
    return {
        "name": "Nightly",
        **_settings_fields(),
        "crontab": "0 21 * * *",
        "crontab_timezone": "UTC",
        "registration_minutes": "60",
        "active": "on",
        **overrides,
    }


@pytest.mark.django_db
def test_the_admin_creates_through_the_service(admin_user: Any) -> None:
    browser = Client()
    browser.force_login(admin_user)
    response = browser.post(ADD, _form())
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    template = TournamentTemplate.objects.get()
    assert template.periodic_task is not None and template.periodic_task.enabled
    assert template.created_by == admin_user
    expected = template_settings()
    assert {k: template.tournament_settings[k] for k in expected} == expected
    form = browser.get(f"/admin/tournaments/tournamenttemplate/{template.pk}/change/").content.decode()
    assert 'name="payouts" value="50, 30, 20"' in form and 'name="pcr_schedule" value="1, 2, 3, 5"' in form
    page = browser.get(f"/admin/tournaments/tournamenttemplate/{template.pk}/change/")
    assert page.status_code == 200 and "django_celery_beat/periodictask" in page.content.decode()
    response = browser.post(
        f"/admin/tournaments/tournamenttemplate/{template.pk}/change/", _form(crontab="5 9 * * 0")
    )
    assert response.status_code == 302
    template.refresh_from_db()
    assert template.periodic_task is not None and template.periodic_task.crontab is not None
    assert template.periodic_task.crontab.minute == "5" and template.crontab == "5 9 * * 0"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field"),
    [
        (_settings_fields(starting_stack=0), "starting_stack"),
        (_settings_fields(seats=9), "seats"),
        (_settings_fields(payouts=[60, 50]), "payouts"),
        ({"option_turn_seconds": "soon"}, "option_turn_seconds"),
        ({"crontab": "every day"}, "crontab"),
        ({"crontab_timezone": "Nowhere/Here"}, "crontab_timezone"),
    ],
)
def test_the_admin_refuses_invalid_templates(admin_user: Any, change: dict[str, str], field: str) -> None:
    browser = Client()
    browser.force_login(admin_user)
    response = browser.post(ADD, _form(**change))
    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    assert not TournamentTemplate.objects.exists()


def test_parse_crontab_and_last_fire_examples() -> None:
    friday_evening = parse_crontab("30 20 * * 5")
    at = datetime(2031, 3, 7, 20, 30, 59, tzinfo=UTC)  # Friday
    assert last_fire(friday_evening, now=at) == datetime(2031, 3, 7, 20, 30, tzinfo=UTC)
    assert last_fire(friday_evening, now=at - timedelta(minutes=1)) == datetime(
        2031, 2, 28, 20, 30, tzinfo=UTC
    )
    rome = parse_crontab("0 21 * * *", "Europe/Rome")  # 21:00 in Rome is 20:00 UTC in winter
    assert last_fire(rome, now=datetime(2031, 1, 10, 20, 0, tzinfo=UTC)) == datetime(
        2031, 1, 10, 20, 0, tzinfo=UTC
    )
    leap = parse_crontab("0 0 29 2 *")
    assert last_fire(leap, now=datetime(2031, 3, 1, tzinfo=UTC)) == datetime(2028, 2, 29, tzinfo=UTC)


MINUTES = st.sets(st.integers(0, 59), min_size=1, max_size=4)
HOURS = st.sets(st.integers(0, 23), min_size=1, max_size=4)
MOMENTS = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC))


@given(minutes=MINUTES, hours=HOURS, now=MOMENTS)
def test_last_fire_is_the_latest_matching_minute_at_or_before_now(
    minutes: set[int], hours: set[int], now: datetime
) -> None:
    cron = CronLine(
        minute=",".join(map(str, sorted(minutes))),
        hour=",".join(map(str, sorted(hours))),
        day_of_month="*",
        month_of_year="*",
        day_of_week="*",
        timezone="UTC",
    )
    fired = last_fire(cron, now=now)
    assert fired is not None and fired <= now and fired.minute in minutes and fired.hour in hours
    assert fired.second == 0 and fired.microsecond == 0
    # No matching minute between it and now (every day matches: at most a day to look through).
    moment = fired + timedelta(minutes=1)
    while moment <= now:
        assert not (moment.minute in minutes and moment.hour in hours), moment
        moment += timedelta(minutes=1)
