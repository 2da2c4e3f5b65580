"""The password rules of registration (settings.AUTH_PASSWORD_VALIDATORS), their refusals in the person's
language.

Django 5.2 writes the minimum length's refusal with a message id (`... at least %d character.`) that its own
Italian catalog does not translate yet, so an Italian player read it in English. This validator is Django's, its
refusal worded with the message id Django's catalogs (and the project's, locale/it) translate."""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import ngettext


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short. It must contain at least %(min_length)d character.",
            "This password is too short. It must contain at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}
