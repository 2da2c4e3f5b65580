from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Ratings per game family from final results, player profiles and leaderboards (docs/ratings.md)."""

    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"
