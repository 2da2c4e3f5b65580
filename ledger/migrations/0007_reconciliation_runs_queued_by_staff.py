"""Reconciliation runs staff queue: a status (queued, running, finished, failed), when and by whom it was
queued; the result fields stay empty until it finishes. Every run recorded so far finished (the nightly
task recorded only finished runs), queued when it started."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def _queued_when_started(apps, schema_editor):
    Run = apps.get_model("ledger", "ReconciliationRun")
    Run.objects.update(queued_at=models.F("started_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0006_player_accounts_have_user"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="reconciliationrun",
            options={"ordering": ["-queued_at", "-id"]},
        ),
        migrations.AddField(
            model_name="reconciliationrun",
            name="queued_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AddField(
            model_name="reconciliationrun",
            name="requested_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="ledger_reconciliations_requested",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        # Existing rows are finished runs; new rows start queued.
        migrations.AddField(
            model_name="reconciliationrun",
            name="status",
            field=models.CharField(
                choices=[
                    ("queued", "Queued"),
                    ("running", "Running"),
                    ("finished", "Finished"),
                    ("failed", "Failed"),
                ],
                default="finished",
                max_length=16,
            ),
        ),
        migrations.AlterField(
            model_name="reconciliationrun",
            name="status",
            field=models.CharField(
                choices=[
                    ("queued", "Queued"),
                    ("running", "Running"),
                    ("finished", "Finished"),
                    ("failed", "Failed"),
                ],
                default="queued",
                max_length=16,
            ),
        ),
        migrations.RunPython(_queued_when_started, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="reconciliationrun",
            name="accounts",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="reconciliationrun",
            name="finished_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="reconciliationrun",
            name="ok",
            field=models.BooleanField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="reconciliationrun",
            name="started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="reconciliationrun",
            name="transfers",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddIndex(
            model_name="reconciliationrun",
            index=models.Index(fields=["status", "finished_at"], name="ledger_recon_status_done_idx"),
        ),
        migrations.AddConstraint(
            model_name="reconciliationrun",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "queued")),
                fields=("status",),
                name="ledger_reconciliation_one_queued",
            ),
        ),
        migrations.AddConstraint(
            model_name="reconciliationrun",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("status", "finished"), _negated=True),
                    models.Q(
                        ("finished_at__isnull", False), ("ok__isnull", False), ("started_at__isnull", False)
                    ),
                    _connector="OR",
                ),
                name="ledger_reconciliation_finished_has_result",
            ),
        ),
        migrations.AddConstraint(
            model_name="reconciliationrun",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["queued", "running", "finished", "failed"])),
                name="ledger_reconciliation_status_known",
            ),
        ),
    ]
