from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AdminConfirmConfig(AppConfig):
    """The confirmation page of the admin actions that move chips or end things (admin_confirm.actions), with
    its template; no models."""

    name = "admin_confirm"
    verbose_name = _("Admin confirmations")
