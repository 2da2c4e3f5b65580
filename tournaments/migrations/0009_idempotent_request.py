"""Idempotency keys of sit, join, leave and refused moves (tournaments/live/idempotency.py), and the hourly
beat job that forgets them after RAMINO_IDEMPOTENCY_KEEP_HOURS (editable in the admin).

History: the job is now declared in CELERY_BEAT_SCHEDULE (config/settings/base.py), which beat writes under the
same name at start-up; this migration still creates the row on a fresh database, and is kept as it was.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

TASK_NAME = "tournaments: forget old idempotency keys"


def schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every, _ = IntervalSchedule.objects.get_or_create(every=1, period="hours")
    PeriodicTask.objects.get_or_create(
        name=TASK_NAME,
        defaults={
            "task": "tournaments.forget_idempotency_keys",
            "interval": every,
            "enabled": True,
            "description": "Delete the answers kept under idempotency keys for longer than RAMINO_IDEMPOTENCY_KEEP_HOURS.",
        },
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=TASK_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_seat_stack_accounts_name_their_player"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="IdempotentRequest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("method", models.CharField(max_length=8)),
                ("path", models.TextField()),
                ("key", models.CharField(max_length=255)),
                ("fingerprint", models.CharField(max_length=64)),
                ("status", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("body", models.JSONField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                (
                    "user",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "method", "path", "key"), name="idempotent_request_key_unique"
                    )
                ],
            },
        ),
        migrations.RunPython(schedule, unschedule),
    ]
