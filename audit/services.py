"""The staff group: what a staff member may see in the admin (view permissions only; docs/operations.md)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, Group, Permission
from django.db import transaction

STAFF_GROUP = "staff (read-only)"
# Every model of these apps is viewable by staff; nothing is addable, changeable or deletable through
# the group (admins are superusers). `knox` shows who holds tokens, never a token.
VIEWABLE_APPS = ("ledger", "tournaments", "auth", "knox", "django_celery_beat")


@transaction.atomic
def ensure_staff_group(*, using: str = "default") -> Group:
    """Create the staff group, or bring its permissions back to exactly the view permissions."""
    group, _ = Group.objects.using(using).get_or_create(name=STAFF_GROUP)
    permissions = Permission.objects.using(using).filter(
        content_type__app_label__in=VIEWABLE_APPS, codename__startswith="view_"
    )
    group.permissions.set(permissions)
    return group


def make_staff(*, user: AbstractBaseUser) -> None:
    """Mark the user staff and put them in the staff group (the admin then shows them the ledger and the
    tables read-only, and /audit/ lets them in)."""
    group = ensure_staff_group()
    if not getattr(user, "is_staff", False):
        user.is_staff = True  # type: ignore[attr-defined]
        user.save(update_fields=["is_staff"])
    user.groups.add(group)  # type: ignore[attr-defined]
