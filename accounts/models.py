"""The folded form of every username (`accounts.usernames.folded`), unique: usernames are one per folded
form on every database (SQLite's UPPER and LIKE fold ASCII letters only), kept by `receivers` on every save of
a user, whatever path saved it (registration, the admin, `createsuperuser`). Beside it the name's look-alike
key (`accounts.usernames.confusable_key`, Unicode TS #39's skeleton), unique too: no two names read the same.
It is empty only for the accounts migration 0006 found looking like an older one (docs/operations.md,
"Migrations"), until they are renamed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class UsernameKey(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="username_key"
    )
    folded = models.TextField(unique=True)
    skeleton = models.TextField(unique=True, null=True, blank=True)

    class Meta:
        verbose_name = _("folded username")
        verbose_name_plural = _("folded usernames")

    def __str__(self) -> str:
        return self.folded
