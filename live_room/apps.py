from django.apps import AppConfig


class LiveRoomConfig(AppConfig):
    """The live room: the WebSocket tier (`/ws/v1/`, docs/api.md "Live socket") beside the HTTP API."""

    name = "live_room"
    verbose_name = "Live room"
