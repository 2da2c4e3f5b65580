from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SecurityConfig(AppConfig):
    name = "security"
    label = "ramino_security"
    verbose_name = _("Security")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed

        from security import lockout

        user_login_failed.connect(lockout.on_login_failed, dispatch_uid="ramino.lockout.on_login_failed")
