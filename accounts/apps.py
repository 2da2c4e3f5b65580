from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    label = "accounts"
    verbose_name = _("Players and tokens")

    def ready(self) -> None:
        # Connects the password-change revocation; registers the token scheme with the OpenAPI generator.
        from accounts import receivers, schema  # noqa: F401
