from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ResponsibleConfig(AppConfig):
    """Responsible play: the player's limits, breaks and verification, enforced where chips are staked."""

    name = "responsible"
    verbose_name = _("Responsible play")

    def ready(self) -> None:
        # The ledger refuses a grant during a break without importing responsible play (no app-level cycle).
        from accounts import birth_dates
        from ledger import grant_guards, stakes
        from responsible.breaks.gate import refuse_if_on_break
        from responsible.stakes import refuse_stake
        from responsible.verification import services as verification
        from tournaments.live import seat_guards

        grant_guards.register_grant_guard(refuse_if_on_break)
        seat_guards.add_return_guard(refuse_if_on_break)
        # Every stake's gate (ledger/stakes.py) runs responsible play's checks; the games never import this app.
        stakes.register_check(refuse_stake)
        # Registration refuses a minor and keeps the date of birth without importing responsible play.
        birth_dates.register(
            refuse_underage=verification.refuse_underage, record=verification.record_date_of_birth
        )
