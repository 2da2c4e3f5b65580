"""Table groups of large multi-table tournaments (docs/tournaments.md "Table groups"): a run of a tournament's table
ids and its tables' size histogram per row; a new table, no column added to an existing one."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0034_final_table_deals_and_entry_rules"),
    ]

    operations = [
        migrations.CreateModel(
            name="TableGroup",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("first_table", models.BigIntegerField(verbose_name="first table id")),
                ("last_table", models.BigIntegerField(verbose_name="last table id")),
                (
                    "table_sizes",
                    models.JSONField(blank=True, default=dict, editable=False, verbose_name="table sizes"),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="table_groups",
                        to="tournaments.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "table group",
                "verbose_name_plural": "table groups",
                "ordering": ["tournament", "first_table"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("tournament", "first_table"), name="table_group_first_unique"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("last_table__gte", models.F("first_table"))),
                        name="table_group_range",
                    ),
                ],
            },
        ),
    ]
