"""Schedule the nightly reconciliation in django-celery-beat, so admins can edit or pause it.

History: the job is now declared in CELERY_BEAT_SCHEDULE (config/settings/base.py), which beat writes under the
same name at start-up; this migration still creates the row on a fresh database, and is kept as it was.
"""

from django.db import migrations

TASK_NAME = "ledger: nightly reconciliation"


def schedule(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    crontab, _ = CrontabSchedule.objects.get_or_create(
        minute="30", hour="3", day_of_week="*", day_of_month="*", month_of_year="*", timezone="UTC"
    )
    PeriodicTask.objects.get_or_create(
        name=TASK_NAME,
        defaults={
            "task": "ledger.run_reconciliation",
            "crontab": crontab,
            "enabled": True,
            "description": "Reconcile the chip ledger and record a ReconciliationRun.",
        },
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=TASK_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0002_database_invariants"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
