"""Every save of a user keeps its folded username (`accounts.models.UsernameKey`) up to date.

A password change revokes every API token of the user, whatever path changed it.

`set_password()` (the admin's password form, `manage.py changepassword`, password reset, any service) keeps
the new raw password on the instance until its `save()` has run, which is how Django itself tells
validators that a password changed; a hash upgrade at login (`check_password`'s setter) clears it first, so
it revokes nothing. `set_unusable_password()` sets no raw password: an unusable password is checked
directly.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts import services, usernames
from accounts.models import UsernameKey


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.keep_username_key")
def keep_username_key(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """The user's folded name and look-alike key (`UsernameKey`), written with every save that may change the
    name: a second name with the same folded form, or one that reads the same (`usernames.confusable_key`),
    fails here with the unique indexes' IntegrityError. An account migration 0006 left without a key (it
    looked like an older one) stays so until it is renamed."""
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and "username" not in update_fields:
        return
    name = instance.get_username()
    folded = usernames.folded(name)
    skeleton = usernames.confusable_key(name)
    if created:
        UsernameKey.objects.create(user=instance, folded=folded, skeleton=skeleton)
        return
    kept = UsernameKey.objects.filter(user=instance).first()
    if kept is not None and kept.skeleton is None and kept.folded == folded:
        return  # grandfathered by migration 0006 and not renamed
    UsernameKey.objects.update_or_create(user=instance, defaults={"folded": folded, "skeleton": skeleton})


@receiver(
    post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.revoke_tokens_on_password_change"
)
def revoke_tokens_on_password_change(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if created:
        return
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and "password" not in update_fields:
        return
    if getattr(instance, "_password", None) is not None or not instance.has_usable_password():
        services.revoke_all_tokens(user=instance)
