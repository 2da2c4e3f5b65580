"""Production settings: refuse to start with DEBUG on or without a secret key."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import LOGGING, env

if env.bool("DJANGO_DEBUG", default=False):
    raise ImproperlyConfigured("DJANGO_DEBUG must be off in production.")
DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set in production.")

# X-Forwarded-Proto is believed only behind configured proxies (NUM_PROXIES, as for X-Forwarded-For):
# otherwise any client could call plain http "https" and skip the redirect. gunicorn trusts it only from
# GUNICORN_FORWARDED_ALLOW_IPS (deploy/gunicorn.conf.py).
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if REST_FRAMEWORK["NUM_PROXIES"] > 0 else None  # noqa: F405
)
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
# The probes and Prometheus' scrape reach gunicorn directly, over plain http (/metrics: loopback or a token).
SECURE_REDIRECT_EXEMPT = [r"^health/$", r"^ready/$", r"^metrics$"]
# HSTS only when configured: once sent, browsers refuse plain http to the host for this long, so it is
# turned on deliberately, after HTTPS works for every name served. Sent on HTTPS responses only.
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=False)
# Collected at build time (deploy/Dockerfile); hashed names with far-future cache headers.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# One JSON object per log line (operations/logs.py), for the log collector; RAMINO_LOG_FORMAT=plain turns it off.
RAMINO_LOG_FORMAT = env("RAMINO_LOG_FORMAT", default="json")
LOGGING["handlers"]["console"]["formatter"] = RAMINO_LOG_FORMAT  # type: ignore[index]
