"""The ticket transfer kinds (docs/rules.md "Tickets and satellites"): `ticket_issue`, `ticket_spend`,
`ticket_return`, `ticket_conversion` join the transfer's `kind` check constraint.

Django's SQLite schema editor changes the constraint by remaking ledger_transfer, which drops the append-only
triggers of 0002 with the old table: on SQLite they are created again after it (forwards) and after the remake
that undoes it (backwards: the first operation's reverse runs last), as 0008 does. PostgreSQL keeps them.
"""

import importlib

from django.conf import settings
from django.db import migrations, models

_0008 = importlib.import_module("ledger.migrations.0008_house_grant_policy")


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0010_verbose_names_for_people"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, _0008.restore_triggers),
        migrations.RemoveConstraint(
            model_name="transfer",
            name="ledger_transfer_kind_known",
        ),
        migrations.AlterField(
            model_name="transfer",
            name="kind",
            field=models.CharField(
                choices=[
                    ("adjustment", "adjustment"),
                    ("buy_in", "buy-in (wallet to seat)"),
                    ("cash_out", "cash-out (seat to wallet)"),
                    ("settlement", "settlement"),
                    ("bonus_settlement", "bonus settlement"),
                    ("tournament_buy_in", "tournament entry (wallet to entry)"),
                    ("fee", "fee"),
                    ("payout", "prize"),
                    ("refund", "refund"),
                    ("reversal", "reversal"),
                    ("mint", "tournament chips issued"),
                    ("retire", "tournament chips retired"),
                    ("guarantee", "guarantee"),
                    ("transfer", "transfer"),
                    ("grant", "house grant"),
                    ("ticket_issue", "ticket issued"),
                    ("ticket_spend", "ticket spent on an entry"),
                    ("ticket_return", "ticket returned"),
                    ("ticket_conversion", "ticket converted to chips"),
                ],
                max_length=32,
                verbose_name="kind",
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
                            "ticket_issue",
                            "ticket_spend",
                            "ticket_return",
                            "ticket_conversion",
                        ],
                    )
                ),
                name="ledger_transfer_kind_known",
            ),
        ),
        migrations.RunPython(_0008.restore_triggers, migrations.RunPython.noop),
    ]
