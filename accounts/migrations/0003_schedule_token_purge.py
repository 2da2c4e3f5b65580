"""Schedule the hourly purge of expired API tokens in django-celery-beat (editable in the admin). Expired
tokens already fail authentication; the purge keeps the table to live ones.

History: the job is now declared in CELERY_BEAT_SCHEDULE (config/settings/base.py), which beat writes under the
same name at start-up; this migration still creates the row on a fresh database, and is kept as it was.
"""

from django.db import migrations

TASK_NAME = "accounts: purge expired tokens"


def schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every, _ = IntervalSchedule.objects.get_or_create(every=1, period="hours")
    PeriodicTask.objects.get_or_create(
        name=TASK_NAME,
        defaults={
            "task": "accounts.purge_expired_tokens",
            "interval": every,
            "enabled": True,
            "description": "Delete API tokens past their expiry.",
        },
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=TASK_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_drop_drf_tokens"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
