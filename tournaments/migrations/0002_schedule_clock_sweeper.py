"""Schedule the clock sweeper in django-celery-beat (editable in the admin): it re-arms turn clocks,
claim windows and round starts whose messages were lost (a broker restart).

History: the job is now declared in CELERY_BEAT_SCHEDULE (config/settings/base.py), which beat writes under the
same name at start-up; this migration still creates the row on a fresh database, and is kept as it was.
"""

from django.db import migrations

TASK_NAME = "tournaments: re-arm lost clocks"


def schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every, _ = IntervalSchedule.objects.get_or_create(every=30, period="seconds")
    PeriodicTask.objects.get_or_create(
        name=TASK_NAME,
        defaults={
            "task": "tournaments.sweep_clocks",
            "interval": every,
            "enabled": True,
            "description": "Re-enqueue overdue turn clocks, claim windows and round starts.",
        },
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=TASK_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
