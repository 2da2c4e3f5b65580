from django.apps import AppConfig, apps
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    label = "accounts"
    verbose_name = _("Players and tokens")

    def ready(self) -> None:
        # Connects the password-change revocation; registers the token scheme with the OpenAPI generator.
        from accounts import receivers, schema  # noqa: F401
        from accounts.selectors import is_guest
        from ledger.guests import register_guest_test

        # The ledger grants guests no chips and asks this app who is one (it imports nothing of accounts).
        register_guest_test(is_guest)

        # knox's tokens, which the admin lists (accounts/admin.py), named for people rather than "Knox" and
        # "auth tokens". Only the names the admin reads change: migrations read a model's options from its Meta
        # (`_meta.original_attrs`), so knox's own migrations stay as they are.
        knox = apps.get_app_config("knox")
        knox.verbose_name = _("API access")
        token = knox.get_model("AuthToken")
        token._meta.verbose_name = _("API token")
        token._meta.verbose_name_plural = _("API tokens")
