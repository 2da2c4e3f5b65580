from django.apps import AppConfig


class AdminConfirmConfig(AppConfig):
    """The confirmation page of the admin actions that move chips or end things (admin_confirm.actions), with
    its template; no models."""

    name = "admin_confirm"
    verbose_name = "Admin confirmations"
