import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_wsgi_application()

from config.celery_app import prepare_publishing  # noqa: E402  (after Django is set up)

prepare_publishing()
