"""A final-table deal offer (docs/rules.md "The final-table deal"): who proposed it at which level, which amounts
it offers (ICM or chip count), every player's answer, and how it ended. The computation behind the amounts is kept
as data, and the transfer that pays an accepted deal carries it too."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class DealMethod(models.TextChoices):
    ICM = "icm", _("ICM (chances of each place)")
    CHIPS = "chips", _("chip count")


class DealStatus(models.TextChoices):
    OPEN = "open", pgettext_lazy("deal status", "waiting for answers")
    ACCEPTED = "accepted", pgettext_lazy("deal status", "accepted")
    DECLINED = "declined", pgettext_lazy("deal status", "declined")
    EXPIRED = "expired", pgettext_lazy("deal status", "expired")


class Deal(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="deals", verbose_name=_("tournament")
    )
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("proposed by")
    )
    # The tournament's level when proposed: a player proposes at most once per level.
    level = models.PositiveIntegerField(_("level"))
    method = models.CharField(_("amounts offered"), max_length=8, choices=DealMethod.choices)
    status = models.CharField(_("status"), max_length=12, choices=DealStatus.choices, default=DealStatus.OPEN)
    # The players in the deal, in seat order from the dealer's left, and the offered amount of each.
    players = models.JSONField(_("players"), default=list)
    amounts = models.JSONField(_("amounts offered"), default=dict)
    # The amount the deal leaves to play for (the winner's), and the prizes still unpaid it was made on.
    keep = models.BigIntegerField(_("kept to play for"), default=0)
    unpaid = models.BigIntegerField(_("unpaid prizes"), default=0)
    # `icm.Offer.as_record()`: chips, prizes, both amounts, each player's chance of each place.
    computation = models.JSONField(_("computation"), default=dict)
    # {username: true | false}: the answers given so far (the proposer's acceptance with the proposal).
    answers = models.JSONField(_("answers"), default=dict)
    expires_at = models.DateTimeField(_("answer by"))
    created_at = models.DateTimeField(_("proposed at"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    transfer = models.ForeignKey(
        "ledger.Transfer",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("payment"),
    )

    class Meta:
        ordering = ["tournament_id", "id"]
        verbose_name = _("final-table deal")
        verbose_name_plural = _("final-table deals")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "proposer", "level"], name="deal_one_proposal_per_player_and_level"
            ),
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(status="open"), name="deal_one_open_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(status="accepted"), name="deal_one_accepted_per_tournament"
            ),
            models.CheckConstraint(condition=Q(method__in=DealMethod.values), name="deal_method_known"),
            models.CheckConstraint(condition=Q(status__in=DealStatus.values), name="deal_status_known"),
            models.CheckConstraint(
                condition=Q(status="open") | Q(closed_at__isnull=False), name="deal_closed_has_time"
            ),
            models.CheckConstraint(
                condition=~Q(status="accepted") | Q(transfer__isnull=False) | Q(unpaid=0),
                name="deal_accepted_is_paid",
            ),
        ]

    def __str__(self) -> str:
        return _("deal %(id)s of tournament %(tournament)s") % {
            "id": self.pk,
            "tournament": self.tournament_id,
        }
