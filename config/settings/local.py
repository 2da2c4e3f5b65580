"""Laptop settings: the embedded default (SQLite, filesystem broker) with DEBUG on."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="local-only-insecure-key-change-me")
