import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_wsgi_application()

from config.celery_app import app, prepare_publishing  # noqa: E402  (after Django is set up)

prepare_publishing()
# Every task module imported now, as a worker does at start-up: no request's thread imports them lazily
# (tournaments/live/messaging/dispatch.py).
app.loader.import_default_modules()
