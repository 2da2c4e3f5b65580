"""Fill in the player of every existing seat-stack account from its seat, so the ledger's audit by player
(`?player=`, the admin's search) finds the chips won and lost at tables. New seats set it when they open
the account (services.tables.sit). Runs before the ledger requires a player on seat stacks."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def backfill(apps, schema_editor):
    Account = apps.get_model("ledger", "Account")
    Seat = apps.get_model("tournaments", "Seat")
    player = Seat.objects.filter(stack_account_id=OuterRef("pk")).values("player_id")[:1]
    Account.objects.filter(
        kind="seat_stack", user__isnull=True, pk__in=Seat.objects.values("stack_account_id")
    ).update(user_id=Subquery(player))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_log_indexes_covered"),
        ("ledger", "0005_account_user_is_its_player"),
    ]
    run_before = [("ledger", "0006_player_accounts_have_user")]

    # Reversing leaves the players in place: the ledger's 0005 allows them on seat stacks.
    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
