"""Every player's account names its player: wallets (as before) and now seat stacks too.

Runs after the tournaments app has filled in its seat stacks' players (its migration declares
`run_before` this one), so the ledger's migrations need not know the tournaments app.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ledger", "0005_account_user_is_its_player")]

    operations = [
        migrations.RemoveConstraint(model_name="account", name="ledger_account_wallet_has_user"),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("kind__in", ["wallet", "seat_stack"]), _negated=True),
                    ("user__isnull", False),
                    _connector="OR",
                ),
                name="ledger_account_player_kinds_have_user",
            ),
        ),
    ]
