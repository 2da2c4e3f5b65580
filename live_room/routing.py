"""The live room's WebSocket routes (config/asgi.py): one socket endpoint, versioned as the API is."""

from __future__ import annotations

from django.urls import path

from live_room.consumer import LiveSocket

websocket_urlpatterns = [path("ws/v1/", LiveSocket.as_asgi())]
