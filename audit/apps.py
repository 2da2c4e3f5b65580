from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = _("Staff audit")

    def ready(self) -> None:
        # After every migrate (permissions are created by post_migrate too, so a data migration would run
        # before they exist on a fresh database).
        post_migrate.connect(_ensure_staff_group, dispatch_uid="audit.ensure_staff_group")


def _ensure_staff_group(sender: AppConfig, **kwargs: Any) -> None:
    if sender.name != "audit":
        return
    from audit import services

    services.ensure_staff_group(using=kwargs.get("using", "default"))
