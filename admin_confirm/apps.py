from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AdminConfirmConfig(AppConfig):
    """The admin's own look: the site's name on every admin page (not Django's), and the confirmation page of
    the admin actions that move chips or end things (admin_confirm.actions), with its template; no models."""

    name = "admin_confirm"
    verbose_name = _("Admin confirmations")

    def ready(self) -> None:
        from django.contrib import admin

        # The admin's header, its pages' titles and its home page's heading, in the page's language.
        admin.site.site_header = _("Ramino \u2014 administration")
        admin.site.site_title = _("Ramino administration")
        admin.site.index_title = _("Tables, tournaments and chips")
