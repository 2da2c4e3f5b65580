"""Satellites and tickets (docs/rules.md "Tickets and satellites"): a tournament's satellite target (a tournament
or a recurring template) and its tickets-only rule; an entry's ticket and the tickets it won. Adding the columns
remakes the tables on SQLite, which drops their triggers: 0020's restore makes them again."""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

_AFTER_REMAKE = importlib.import_module("tournaments.migrations.0020_payouts_triggers_after_remake")


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0011_ticket_transfer_kinds"),
        ("tournaments", "0028_tournament_entry_counters"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="satellite_target",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="satellites",
                to="tournaments.tournament",
                verbose_name="satellite to tournament",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="satellite_template",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="satellites",
                to="tournaments.tournamenttemplate",
                verbose_name="satellite to the next tournament of",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="tickets_only",
            field=models.BooleanField(default=False, verbose_name="tickets only"),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="ticket",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="paid with ticket"),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="tickets_won",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="tickets won"),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("satellite_target__isnull", True), ("satellite_template__isnull", True), _connector="OR"
                ),
                name="tournament_satellite_one_target",
            ),
        ),
        migrations.RunPython(_AFTER_REMAKE.restore, migrations.RunPython.noop),
    ]
