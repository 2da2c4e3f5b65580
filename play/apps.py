from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    """The pages people open in a browser: the landing page at `/` and the player client under `/play/`."""

    name = "play"
    verbose_name = _("Web pages")
