from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_sched_template_crontab"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="awaiting_job",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddField(
            model_name="tournament",
            name="table_sizes",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
    ]
