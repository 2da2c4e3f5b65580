from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Connects the password-change revocation; registers the token scheme with the OpenAPI generator.
        from accounts import receivers, schema  # noqa: F401
