"""The tournament row's entry counters (`tournament.counters`), filled from a count of the live entries. Adding
the columns remakes the table on SQLite, which drops its triggers: 0020's restore makes them again."""

import importlib

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce

LIVE = ("registered", "playing", "busted", "finished")
_AFTER_REMAKE = importlib.import_module("tournaments.migrations.0020_payouts_triggers_after_remake")


def fill(apps, schema_editor):  # type: ignore[no-untyped-def]
    Tournament = apps.get_model("tournaments", "Tournament")
    TournamentEntry = apps.get_model("tournaments", "TournamentEntry")
    live = TournamentEntry.objects.filter(tournament=OuterRef("pk"), status__in=LIVE).values("tournament")
    Tournament.objects.update(
        entrants=Coalesce(Subquery(live.annotate(n=Count("pk")).values("n")), 0),
        reentries=Coalesce(Subquery(live.annotate(n=Sum("reentries")).values("n")), 0),
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0027_presence_and_reconnect_allowance")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="entrants",
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name="entrants"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="reentries",
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name="re-entries"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(_AFTER_REMAKE.restore, migrations.RunPython.noop),
    ]
