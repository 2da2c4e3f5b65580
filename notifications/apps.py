from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    """Telling a player what concerns them wherever they are: the notification centre (in the client, fed over the
    socket's `me` topic and `GET /me/notifications/`), e-mail and Web Push (docs/api.md "Notifications").

    An app of its own, above live play and the tournaments: it reads their rows to decide whom to tell, and they
    never import it (they send its tasks by name, or call the change hook it registers at start-up), so neither
    the hot path of a move nor the tournaments' code grows with the channels a notification goes out on."""

    name = "notifications"
    verbose_name = _("Notifications")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from notifications import sources

        sources.register()
