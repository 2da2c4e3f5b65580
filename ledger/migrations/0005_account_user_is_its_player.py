"""`Account.user` is the player the account belongs to: house accounts have none.

The seat stacks' players are filled in by the tournaments app (it alone knows its seats; its migration
runs before 0006), then 0006 requires a player on every player's account kind.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0004_cheaper_balance_trigger"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="account",
            name="user",
            field=models.ForeignKey(
                blank=True,
                help_text="The player the account belongs to (wallets, seat stacks); empty for house accounts.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="ledger_accounts",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("kind__in", ["wallet", "seat_stack"]), ("user__isnull", True), _connector="OR"
                ),
                name="ledger_account_house_kinds_have_no_user",
            ),
        ),
    ]
