"""Laptop settings: the embedded default (SQLite, filesystem broker) with DEBUG on."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="local-only-insecure-key-change-me")
# WhiteNoise serves static files straight from the apps with DEBUG on (WHITENOISE_USE_FINDERS follows
# DEBUG); nothing is collected on a laptop unless DJANGO_STATIC_ROOT names a folder.
STATIC_ROOT = env("DJANGO_STATIC_ROOT", default=None)
