"""Who is at a game, in the database that every process shares (docs/rules.md "Presence and reconnection";
why a table and not Redis keys: docs/operations.md "Presence").

A `PresenceLease` is one holder's word that a player is at a game until `expires_at`: a socket subscribed to
the game (the holder is the socket's channel name; the socket renews it while it stays subscribed and ends it
when it leaves) or the long-poll (holder `poll`, 30 s after the player's last long-poll of the game). A player is
connected while one of their leases runs. A socket process that dies leaves leases that simply run out."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class PresenceLease(models.Model):
    game = models.ForeignKey(
        "tournaments.Game",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=pgettext_lazy("model", "game"),
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    # A socket's channel name, or "poll".
    holder = models.CharField(_("holder"), max_length=200)
    expires_at = models.DateTimeField(_("expires at"), db_index=True)

    class Meta:
        verbose_name = _("presence lease")
        verbose_name_plural = _("presence leases")
        constraints = [
            models.UniqueConstraint(fields=["game", "player", "holder"], name="presence_lease_unique_holder")
        ]
        indexes = [
            models.Index(fields=["game", "expires_at"], name="presence_lease_game_expiry"),
            # A socket process renews and ends its sockets' leases by holder.
            models.Index(fields=["holder"], name="presence_lease_holder"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} at game {self.game_id} until {self.expires_at:%H:%M:%S}"


class PresenceReturn(models.Model):
    """A player's latest return to a game: when their connection dropped (their last lease ran out or was
    ended) and when it came back. The "I'm back" summary lists what the server played for them in between."""

    game = models.ForeignKey(
        "tournaments.Game",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=pgettext_lazy("model", "game"),
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    away_since = models.DateTimeField(_("away since"))
    back_at = models.DateTimeField(_("back at"))

    class Meta:
        verbose_name = _("return to a game")
        verbose_name_plural = _("returns to games")
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="presence_return_unique")]

    def __str__(self) -> str:
        return f"{self.player_id} back at game {self.game_id} at {self.back_at:%H:%M:%S}"


class ReconnectAllowance(models.Model):
    """The reconnection allowance a disconnected player was given in a round (at most one per round)."""

    round = models.ForeignKey(
        "tournaments.Round", on_delete=models.CASCADE, related_name="+", verbose_name=_("round")
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    granted_at = models.DateTimeField(_("granted at"))
    until = models.DateTimeField(_("until"))

    class Meta:
        verbose_name = _("reconnection allowance")
        verbose_name_plural = _("reconnection allowances")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="reconnect_allowance_once_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in round {self.round_id} until {self.until:%H:%M:%S}"
