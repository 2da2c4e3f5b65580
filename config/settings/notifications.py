"""Settings of the notifications (docs/operations.md "Notifications"), star-imported by base.py."""

from datetime import timedelta
from pathlib import Path
from typing import Any

import environ

_env = environ.Env()
_ROOT = Path(__file__).resolve().parent.parent.parent
# Imported before base.py reads the .env file: read it here too (it only fills what the environment lacks).
if (_ROOT / ".env").exists():
    _env.read_env(str(_ROOT / ".env"))
# The embedded default's data folder, as base.py reads it.
_VAR_DIR = Path(_env("RAMINO_VAR_DIR", default=str(_ROOT / "var")))
# E-mail through Django's e-mail framework: `EMAIL_URL` (django-environ: smtp://user:password@host:587,
# smtp+tls://..., smtp+ssl://...) names the SMTP server; without it, the embedded default writes each mail as a file under var/mail/ (nothing leaves the laptop).
EMAIL_URL = _env("EMAIL_URL", default="")
if EMAIL_URL:
    vars().update(_env.email_url("EMAIL_URL"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = str(_VAR_DIR / "mail")
EMAIL_TIMEOUT = _env.int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = _env("DEFAULT_FROM_EMAIL", default="Ramino <noreply@localhost>")
# The site's address, for the links in mails and pushes.
RAMINO_SITE_URL = _env("RAMINO_SITE_URL", default="http://localhost:8000")
# Web Push: the VAPID key pair (notifications/vapid.py: base64url; both empty: Web Push is off), the contact the
# push services may write to, and how long a push service keeps an undelivered push.
RAMINO_VAPID_PRIVATE_KEY = _env("RAMINO_VAPID_PRIVATE_KEY", default="")
RAMINO_VAPID_PUBLIC_KEY = _env("RAMINO_VAPID_PUBLIC_KEY", default="")
RAMINO_VAPID_SUBJECT = _env("RAMINO_VAPID_SUBJECT", default="mailto:noreply@localhost")
RAMINO_PUSH_TTL_SECONDS = _env.int("RAMINO_PUSH_TTL_SECONDS", default=3600)
# The push services a subscription's endpoint may name (a host or its subdomains; https only unless
# RAMINO_PUSH_ALLOW_HTTP): the browsers' own (Chrome/Edge's FCM, Firefox's autopush, Edge's WNS, Safari's).
RAMINO_PUSH_SERVICES = _env.list(
    "RAMINO_PUSH_SERVICES",
    default=["fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com"],
)
RAMINO_PUSH_ALLOW_HTTP = _env.bool("RAMINO_PUSH_ALLOW_HTTP", default=False)
# Notifications go out on a queue of their own, consumed by a worker of its own: a slow mail server or push
# service never delays a clock or a deal, and a move only ever enqueues (docs/operations.md, "Queues"). Every
# task named notifications.* is routed there (base.py).
RAMINO_NOTIFICATIONS_QUEUE = _env("RAMINO_NOTIFICATIONS_QUEUE", default="notifications")
# The notifications' periodic job, added to CELERY_BEAT_SCHEDULE by base.py (beat syncs it as the others).
NOTIFICATIONS_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "notifications: tournament reminders": {
        "task": "notifications.tournament_reminders",
        "schedule": timedelta(seconds=30),
        "description": "Tell the entrants of each tournament starting within 5 minutes, once.",
    },
}
