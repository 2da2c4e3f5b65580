from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """Ratings per game family from final results, player profiles and leaderboards (docs/ratings.md)."""

    name = "ratings"
    verbose_name = _("Ratings")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """A tournament's entry rules ask a player's rating and rated results in its game family
        (docs/rules.md "Entry rules"): the games import nothing of this app, so it registers its reader."""
        from ratings.selectors import rating_and_results
        from tournaments.entry_rules.services import register_rating_reader

        register_rating_reader(rating_and_results)
