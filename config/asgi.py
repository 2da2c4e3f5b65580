"""The ASGI application (uvicorn, docs/operations.md "The socket tier"): the live room's sockets at `/ws/v1/`
(live_room/routing.py) and every HTTP path to Django, as the WSGI processes serve them."""

import os

from channels.routing import ProtocolTypeRouter, URLRouter
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
# Django is set up before the routes are imported: they import models.
http_application = get_asgi_application()

from config.celery_app import app, prepare_publishing  # noqa: E402
from live_room.routing import websocket_urlpatterns  # noqa: E402

# As config/wsgi.py: the HTTP requests served here enqueue tasks too.
prepare_publishing()
app.loader.import_default_modules()

application = ProtocolTypeRouter({"http": http_application, "websocket": URLRouter(websocket_urlpatterns)})
