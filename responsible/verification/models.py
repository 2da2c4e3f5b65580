"""The date of birth a player gave at registration, and staff's verification record: who checked which kind of
document, and when, never the document itself (docs/rules.md "Responsible play"). The record is append-only: the
latest row is the account's status."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

ADULT_AGE = 18


class DateOfBirth(models.Model):
    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="date_of_birth",
        verbose_name=_("player"),
    )
    date_of_birth = models.DateField(_("date of birth"))
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        verbose_name = _("date of birth")
        verbose_name_plural = _("dates of birth")

    def __str__(self) -> str:
        return f"{self.player_id} {self.date_of_birth:%Y-%m-%d}"


class DocumentType(models.TextChoices):
    IDENTITY_CARD = "identity_card", pgettext_lazy("document", "identity card")
    PASSPORT = "passport", pgettext_lazy("document", "passport")
    DRIVING_LICENCE = "driving_licence", pgettext_lazy("document", "driving licence")
    RESIDENCE_PERMIT = "residence_permit", pgettext_lazy("document", "residence permit")


class VerificationStatus(models.TextChoices):
    VERIFIED = "verified", pgettext_lazy("verification", "verified")
    # Staff withdrew a verification (a document found false, a mistake).
    WITHDRAWN = "withdrawn", pgettext_lazy("verification", "withdrawn")


class Verification(models.Model):
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    status = models.CharField(_("status"), max_length=16, choices=VerificationStatus.choices)
    document_type = models.CharField(
        _("document type"), max_length=24, choices=DocumentType.choices, blank=True
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("by")
    )
    at = models.DateTimeField(_("at"), db_index=True)
    note = models.TextField(_("note"), blank=True, max_length=500)

    class Meta:
        verbose_name = _("verification")
        verbose_name_plural = _("verifications")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["player", "at"], name="verification_player_at")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.status} {self.at:%Y-%m-%d %H:%M}"
