"""Schedule the multi-table tournaments' beat job in django-celery-beat (editable in the admin): every 10 s it
opens the registrations due and starts (or, below the minimum, cancels) the tournaments due
(`tournament_schedule.run_schedule`).

History: the job is now declared in CELERY_BEAT_SCHEDULE (config/settings/base.py), which beat writes under the
same name at start-up; this migration still creates the row on a fresh database, and is kept as it was.
"""

from django.db import migrations

TASK_NAME = "tournaments: open registrations and start scheduled tournaments"


def schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every, _ = IntervalSchedule.objects.get_or_create(every=10, period="seconds")
    PeriodicTask.objects.get_or_create(
        name=TASK_NAME,
        defaults={
            "task": "tournaments.run_tournament_schedule",
            "interval": every,
            "enabled": True,
            "description": "Open the registration of scheduled tournaments and start (or cancel, below "
            "min_entrants) those whose starts_at has come.",
        },
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=TASK_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_multi_table_tournaments"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
