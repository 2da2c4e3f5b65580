"""The final-table deal and entry rules (docs/rules.md "The final-table deal", "Entry rules"): the `Deal` model, a
tournament's rating band, newcomers' limit, privacy and code, the deal's seconds and kept share. Adding the columns
remakes the tables on SQLite, which drops their triggers: 0020's restore makes them again."""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

_AFTER_REMAKE = importlib.import_module("tournaments.migrations.0020_payouts_triggers_after_remake")


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0012_account_stack_by_balance_index"),
        ("tournaments", "0033_presence_lease_holder_index"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Deal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("level", models.PositiveIntegerField(verbose_name="level")),
                (
                    "method",
                    models.CharField(
                        choices=[("icm", "ICM (chances of each place)"), ("chips", "chip count")],
                        max_length=8,
                        verbose_name="amounts offered",
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("open", "waiting for answers"),
                            ("accepted", "accepted"),
                            ("declined", "declined"),
                            ("expired", "expired"),
                        ],
                        default="open",
                        max_length=12,
                        verbose_name="status",
                    ),
                ),
                ("players", models.JSONField(default=list, verbose_name="players")),
                ("amounts", models.JSONField(default=dict, verbose_name="amounts offered")),
                ("keep", models.BigIntegerField(default=0, verbose_name="kept to play for")),
                ("unpaid", models.BigIntegerField(default=0, verbose_name="unpaid prizes")),
                ("computation", models.JSONField(default=dict, verbose_name="computation")),
                ("answers", models.JSONField(default=dict, verbose_name="answers")),
                ("expires_at", models.DateTimeField(verbose_name="answer by")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="proposed at")),
                ("closed_at", models.DateTimeField(blank=True, null=True, verbose_name="closed at")),
            ],
            options={
                "verbose_name": "final-table deal",
                "verbose_name_plural": "final-table deals",
                "ordering": ["tournament_id", "id"],
            },
        ),
        migrations.AddField(
            model_name="tournament",
            name="code",
            field=models.CharField(
                blank=True, editable=False, max_length=16, null=True, unique=True, verbose_name="join code"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="deal_keep",
            field=models.PositiveSmallIntegerField(default=10, verbose_name="deal: % kept to play for"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="deal_seconds",
            field=models.PositiveIntegerField(default=60, verbose_name="deal: seconds to answer"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="max_rated_results",
            field=models.PositiveIntegerField(
                blank=True, null=True, verbose_name="newcomers: fewer rated results than"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="max_rating",
            field=models.IntegerField(blank=True, null=True, verbose_name="highest rating"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="min_rating",
            field=models.IntegerField(blank=True, null=True, verbose_name="lowest rating"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="private",
            field=models.BooleanField(default=False, verbose_name="private"),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("min_rating__isnull", True),
                    ("max_rating__isnull", True),
                    ("min_rating__lte", models.F("max_rating")),
                    _connector="OR",
                ),
                name="tournament_rating_band_ordered",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("private", True), ("code__isnull", False)),
                    models.Q(("private", False), ("code__isnull", True)),
                    _connector="OR",
                ),
                name="tournament_private_has_code",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("deal_keep__lte", 100), ("deal_seconds__gte", 1)),
                name="tournament_deal_settings_in_range",
            ),
        ),
        migrations.AddField(
            model_name="deal",
            name="proposer",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="proposed by",
            ),
        ),
        migrations.AddField(
            model_name="deal",
            name="tournament",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="deals",
                to="tournaments.tournament",
                verbose_name="tournament",
            ),
        ),
        migrations.AddField(
            model_name="deal",
            name="transfer",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="ledger.transfer",
                verbose_name="payment",
            ),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.UniqueConstraint(
                fields=("tournament", "proposer", "level"), name="deal_one_proposal_per_player_and_level"
            ),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "open")),
                fields=("tournament",),
                name="deal_one_open_per_tournament",
            ),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "accepted")),
                fields=("tournament",),
                name="deal_one_accepted_per_tournament",
            ),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.CheckConstraint(
                condition=models.Q(("method__in", ["icm", "chips"])), name="deal_method_known"
            ),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["open", "accepted", "declined", "expired"])),
                name="deal_status_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.CheckConstraint(
                condition=models.Q(("status", "open"), ("closed_at__isnull", False), _connector="OR"),
                name="deal_closed_has_time",
            ),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("status", "accepted"), _negated=True),
                    ("transfer__isnull", False),
                    ("unpaid", 0),
                    _connector="OR",
                ),
                name="deal_accepted_is_paid",
            ),
        ),
        migrations.RunPython(_AFTER_REMAKE.restore, migrations.RunPython.noop),
    ]
