from django.apps import AppConfig


class PlayConfig(AppConfig):
    """The pages people open in a browser: the landing page at `/` and the player client under `/play/`."""

    name = "play"
    verbose_name = "Web pages"
