from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tables and tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Fill the registries once the models are loaded: a tournament's tables play by its kind's policy
        (live play's registry of table kinds), and each kind of tournament registers what it decides
        (`tournament.kinds`). A new kind of tournament adds its `register()` here; live play is not edited.
        The reconciliation's recorded runs check the tournaments' counters too."""
        from ledger.services import reconciliation
        from tournaments.multi_table import kind as multi_table
        from tournaments.practice import kind as practice
        from tournaments.single_table import kind as single_table
        from tournaments.tournament import counters, kinds

        kinds.register_tables()
        single_table.register()
        multi_table.register()
        practice.register()
        # Every recorded reconciliation run also compares the tournaments' counters with a count.
        reconciliation.add_check("tournament counters", counters.problems)
