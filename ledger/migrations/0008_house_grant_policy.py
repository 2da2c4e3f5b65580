"""The house grant policy (one row) and the `grant` transfer kind.

The kind joins the transfer's `kind` check constraint, which Django's SQLite schema editor changes by remaking
ledger_transfer: that drops the append-only triggers of 0002 with the old table, so on SQLite they are created
again after it (forwards) and after the remake that undoes it (backwards: the first operation's reverse runs
last). PostgreSQL changes the constraint in place and keeps its triggers.
"""

import django.core.validators
from django.conf import settings
from django.db import migrations, models

SQLITE_TRIGGERS = [
    f"CREATE TRIGGER IF NOT EXISTS ledger_transfer_no_{op} BEFORE {op.upper()} ON ledger_transfer "
    f"BEGIN SELECT RAISE(ABORT, 'ledger: {op} on ledger_transfer is refused; ledger rows are immutable'); END"
    for op in ("update", "delete")
]


def restore_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_TRIGGERS:
            schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0007_reconciliation_runs_queued_by_staff"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, restore_triggers),
        migrations.CreateModel(
            name="GrantPolicy",
            fields=[
                (
                    "id",
                    models.PositiveSmallIntegerField(
                        default=1, editable=False, primary_key=True, serialize=False
                    ),
                ),
                (
                    "enabled",
                    models.BooleanField(
                        default=False,
                        help_text="Off: no welcome chips and no daily top-up, whatever the amounts below.",
                        verbose_name="enabled",
                    ),
                ),
                (
                    "welcome_chips",
                    models.BigIntegerField(
                        default=0,
                        help_text="Chips posted to each new player's wallet when they register; 0 for none.",
                        validators=[
                            django.core.validators.MinValueValidator(0),
                            django.core.validators.MaxValueValidator(1000000000000),
                        ],
                        verbose_name="welcome chips",
                    ),
                ),
                (
                    "daily_floor",
                    models.BigIntegerField(
                        default=0,
                        help_text="A player below this balance may top their wallet up to it once per UTC day; 0 for no top-up.",
                        validators=[
                            django.core.validators.MinValueValidator(0),
                            django.core.validators.MaxValueValidator(1000000000000),
                        ],
                        verbose_name="daily top-up floor",
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True, verbose_name="updated at")),
            ],
            options={
                "verbose_name": "house grant policy",
                "verbose_name_plural": "house grant policy",
            },
        ),
        migrations.RemoveConstraint(
            model_name="transfer",
            name="ledger_transfer_kind_known",
        ),
        migrations.AlterField(
            model_name="transfer",
            name="kind",
            field=models.CharField(
                choices=[
                    ("adjustment", "Adjustment"),
                    ("buy_in", "Buy In"),
                    ("cash_out", "Cash Out"),
                    ("settlement", "Settlement"),
                    ("bonus_settlement", "Bonus Settlement"),
                    ("tournament_buy_in", "Tournament Buy In"),
                    ("fee", "Fee"),
                    ("payout", "Payout"),
                    ("refund", "Refund"),
                    ("reversal", "Reversal"),
                    ("mint", "Mint"),
                    ("retire", "Retire"),
                    ("guarantee", "Guarantee"),
                    ("transfer", "Transfer"),
                    ("grant", "Grant"),
                ],
                max_length=32,
            ),
        ),
        migrations.AddConstraint(
            model_name="transfer",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "kind__in",
                        [
                            "adjustment",
                            "buy_in",
                            "cash_out",
                            "settlement",
                            "bonus_settlement",
                            "tournament_buy_in",
                            "fee",
                            "payout",
                            "refund",
                            "reversal",
                            "mint",
                            "retire",
                            "guarantee",
                            "transfer",
                            "grant",
                        ],
                    )
                ),
                name="ledger_transfer_kind_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="grantpolicy",
            constraint=models.CheckConstraint(
                condition=models.Q(("id", 1)), name="ledger_grant_policy_singleton"
            ),
        ),
        migrations.AddConstraint(
            model_name="grantpolicy",
            constraint=models.CheckConstraint(
                condition=models.Q(("welcome_chips__gte", 0), ("welcome_chips__lte", 1000000000000)),
                name="ledger_grant_policy_welcome_range",
            ),
        ),
        migrations.AddConstraint(
            model_name="grantpolicy",
            constraint=models.CheckConstraint(
                condition=models.Q(("daily_floor__gte", 0), ("daily_floor__lte", 1000000000000)),
                name="ledger_grant_policy_floor_range",
            ),
        ),
        migrations.RunPython(restore_triggers, migrations.RunPython.noop),
    ]
