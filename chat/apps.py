from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    """Chat with moderation: the rooms of tables, tournaments and the lobby, mute, block, reports, time-outs."""

    name = "chat"
    verbose_name = _("Chat")

    def ready(self) -> None:
        # Live play asks chat's block before a new seat at a private table without importing chat.
        from chat import blocks
        from tournaments.live import seat_guards

        seat_guards.add_private_seat_guard(blocks.refuse_if_blocked)
        # ... and which players "play now" keeps the caller apart from (a block either way).
        seat_guards.add_avoid_hook(blocks.blocked_either_way)
