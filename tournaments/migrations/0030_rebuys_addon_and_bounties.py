"""Rebuys, the add-on and progressive knockout (docs/rules.md "Rebuys and the add-on", "Progressive knockout"):
a tournament's options and an entry's rebuys, add-on and bounty. Adding the columns remakes the tables on SQLite,
which drops their triggers: 0020's restore makes them again."""

import importlib

from django.conf import settings
from django.db import migrations, models

_AFTER_REMAKE = importlib.import_module("tournaments.migrations.0020_payouts_triggers_after_remake")


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0010_verbose_names_for_people"),
        ("tournaments", "0029_satellites_and_tickets"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="addon_chips",
            field=models.BigIntegerField(default=0, verbose_name="add-on chips (0: no add-on)"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="addon_cost",
            field=models.BigIntegerField(default=0, verbose_name="add-on cost"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="addon_fee",
            field=models.BigIntegerField(default=0, verbose_name="add-on fee"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="addon_seconds",
            field=models.PositiveIntegerField(default=60, verbose_name="add-on break (seconds)"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="bounty_share",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="bounty (percent of the buy-in)"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="max_rebuys",
            field=models.PositiveSmallIntegerField(
                default=0, verbose_name="most rebuys per entry (0: no limit)"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="rebuy_chips",
            field=models.BigIntegerField(
                blank=True, null=True, verbose_name="rebuy chips (empty: the starting stack)"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="rebuy_cost",
            field=models.BigIntegerField(default=0, verbose_name="rebuy cost"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="rebuy_fee",
            field=models.BigIntegerField(default=0, verbose_name="rebuy fee"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="rebuy_levels",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="rebuy period (levels)"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="rebuys_pool",
            field=models.BigIntegerField(
                default=0, editable=False, verbose_name="rebuys and add-ons in the pool"
            ),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="addon",
            field=models.BooleanField(default=False, verbose_name="add-on taken"),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="bounties_won",
            field=models.BigIntegerField(default=0, verbose_name="bounties won"),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="bounty",
            field=models.BigIntegerField(default=0, verbose_name="bounty"),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="held_round",
            field=models.BigIntegerField(
                blank=True, null=True, verbose_name="round of the bust held for a rebuy"
            ),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="rebuys",
            field=models.PositiveIntegerField(default=0, verbose_name="rebuys"),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("addon_chips__gte", 0),
                    ("addon_cost__gte", 0),
                    ("addon_fee__gte", 0),
                    ("bounty_share__lte", 100),
                    ("rebuy_cost__gte", 0),
                    ("rebuy_fee__gte", 0),
                    models.Q(("rebuy_chips__isnull", True), ("rebuy_chips__gte", 1), _connector="OR"),
                ),
                name="tournament_rebuy_addon_bounty_ranges",
            ),
        ),
        migrations.RunPython(_AFTER_REMAKE.restore, migrations.RunPython.noop),
    ]
