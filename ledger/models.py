"""The chip ledger: accounts, transfers and their entries (double entry, integers only).

Every chip movement is a Transfer whose Entries sum to zero within one chip type. Transfers and entries
are never updated or deleted (database triggers refuse it on PostgreSQL); a correction is a reversal
linked to what it reverses. `Account.balance` is a cache of the sum of the account's entries, kept by
`ledger.services.postings` under a row lock and re-checked by reconciliation.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

SITE_CHIPS = "site"


def tournament_chip_type(tournament_id: int) -> str:
    """The chip type of a tournament's own chips."""
    return f"tournament:{tournament_id}"


TICKET_PREFIX = "ticket:"


def ticket_chip_type(target: str) -> str:
    """The chip type of the tickets to one target (a reference, e.g. `tournament:44`): one unit, one entry.
    Tickets are held in the player's wallet for that chip type and issued from the house cashier's."""
    return f"{TICKET_PREFIX}{target}"


def is_ticket(chip_type: str) -> bool:
    return chip_type.startswith(TICKET_PREFIX)


class AccountKind(models.TextChoices):
    WALLET = "wallet", _("player wallet")
    HOUSE_CASHIER = "house_cashier", _("house cashier")
    HOUSE_FEES = "house_fees", _("house fees")
    SEAT_STACK = "seat_stack", _("table seat stack")
    PRIZE_POOL = "prize_pool", _("tournament prize pool")
    TOURNAMENT_MINT = "tournament_mint", _("tournament chip mint")


# The only accounts that may go below zero: the sources chips come from.
NEGATIVE_ALLOWED_KINDS = (AccountKind.HOUSE_CASHIER, AccountKind.TOURNAMENT_MINT)
# Accounts that belong to one player, who is recorded on them (`Account.user`), so a player's audit
# (`?player=`, the admin's search) finds every chip they held. Exactly these kinds have a user.
# A tournament-entry account kind joins this list when it exists.
PLAYER_KINDS = (AccountKind.WALLET, AccountKind.SEAT_STACK)


class TransferKind(models.TextChoices):
    ADJUSTMENT = "adjustment", _("adjustment")
    BUY_IN = "buy_in", _("buy-in (wallet to seat)")
    CASH_OUT = "cash_out", _("cash-out (seat to wallet)")
    SETTLEMENT = "settlement", _("settlement")
    BONUS_SETTLEMENT = "bonus_settlement", _("bonus settlement")
    TOURNAMENT_BUY_IN = "tournament_buy_in", _("tournament entry (wallet to entry)")
    FEE = "fee", _("fee")
    PAYOUT = "payout", _("prize")
    REFUND = "refund", _("refund")
    REVERSAL = "reversal", _("reversal")
    MINT = "mint", _("tournament chips issued")
    RETIRE = "retire", _("tournament chips retired")
    GUARANTEE = "guarantee", _("guarantee")
    TRANSFER = "transfer", _("transfer")
    # Chips the house gives a player under the grant policy (welcome chips, the daily top-up).
    GRANT = "grant", _("house grant")
    # Tickets (a chip type of their own per target): issued by the house (an admin's grant, a satellite's
    # prize), spent at registration, returned on unregistration, converted to their face value in site chips.
    TICKET_ISSUE = "ticket_issue", _("ticket issued")
    TICKET_SPEND = "ticket_spend", _("ticket spent on an entry")
    TICKET_RETURN = "ticket_return", _("ticket returned")
    TICKET_CONVERSION = "ticket_conversion", _("ticket converted to chips")


class Account(models.Model):
    kind = models.CharField(_("kind"), max_length=32, choices=AccountKind.choices)
    chip_type = models.CharField(_("chip type"), max_length=64, default=SITE_CHIPS)
    # The player the account belongs to: set for every kind in PLAYER_KINDS, null for the house's.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_accounts",
        help_text=_("The player the account belongs to (wallets, seat stacks); empty for house accounts."),
        verbose_name=_("player"),
    )
    reference = models.CharField(_("reference"), max_length=128, blank=True, default="")
    balance = models.BigIntegerField(_("balance"), default=0)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["id"]
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(kind__in=[k.value for k in NEGATIVE_ALLOWED_KINDS]),
                name="ledger_account_balance_non_negative",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=[k.value for k in PLAYER_KINDS]) | Q(user__isnull=False),
                name="ledger_account_player_kinds_have_user",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in PLAYER_KINDS]) | Q(user__isnull=True),
                name="ledger_account_house_kinds_have_no_user",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=AccountKind.values), name="ledger_account_kind_known"
            ),
            models.UniqueConstraint(
                fields=["kind", "chip_type", "user"],
                condition=Q(kind=AccountKind.WALLET),
                name="ledger_account_one_wallet_per_user",
            ),
            models.UniqueConstraint(
                fields=["kind", "chip_type", "reference"],
                condition=~Q(kind=AccountKind.WALLET),
                name="ledger_account_unique_reference",
            ),
        ]
        indexes = [
            models.Index(fields=["chip_type", "kind"], name="ledger_acc_chip_kind_idx"),
            # A tournament's seat stacks by balance, highest first, ties by account (seating order): the pages of
            # its standings read down this index (tournaments/multi_table/selectors.py `running_standings`).
            models.Index(
                fields=["chip_type", "-balance", "id"],
                condition=Q(kind=AccountKind.SEAT_STACK),
                name="ledger_acct_stack_by_balance",
            ),
        ]

    def __str__(self) -> str:
        owner = self.user.get_username() if self.user_id and self.user else self.reference
        return f"#{self.pk} {self.get_kind_display()} {self.chip_type} {owner}".rstrip()

    @property
    def may_go_negative(self) -> bool:
        return self.kind in NEGATIVE_ALLOWED_KINDS


class Transfer(models.Model):
    kind = models.CharField(_("kind"), max_length=32, choices=TransferKind.choices)
    chip_type = models.CharField(_("chip type"), max_length=64)
    idempotency_key = models.CharField(_("idempotency key"), max_length=255, unique=True)
    # sha256 of the transfer's content: a replayed key must carry the same content.
    fingerprint = models.CharField(_("fingerprint"), max_length=64)
    reason = models.TextField(_("reason"), blank=True, default="")
    # Causes by reference: the ledger knows nothing of tables or tournaments.
    table_id = models.BigIntegerField(_("table"), null=True, blank=True, db_index=True)
    round_id = models.BigIntegerField(_("round"), null=True, blank=True, db_index=True)
    tournament_id = models.BigIntegerField(_("tournament"), null=True, blank=True, db_index=True)
    entry_id = models.BigIntegerField(_("tournament entry"), null=True, blank=True, db_index=True)
    computation = models.JSONField(_("computation"), default=dict, blank=True)
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_transfers_posted",
        verbose_name=_("posted by"),
    )
    posted_by_system = models.CharField(_("posted by the system"), max_length=128, blank=True, default="")
    reverses = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversed_by",
        verbose_name=_("reverses"),
    )
    created_at = models.DateTimeField(_("posted at"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("transfer")
        verbose_name_plural = _("transfers")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=TransferKind.values), name="ledger_transfer_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(reverses__isnull=True) | Q(kind=TransferKind.REVERSAL),
                name="ledger_transfer_reverses_only_reversal",
            ),
        ]

    def __str__(self) -> str:
        return _("transfer #%(id)s: %(kind)s") % {"id": self.pk, "kind": self.get_kind_display()}


class Entry(models.Model):
    transfer = models.ForeignKey(
        Transfer, on_delete=models.PROTECT, related_name="entries", verbose_name=_("transfer")
    )
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="entries", verbose_name=_("account")
    )
    # Signed: positive credits the account, negative debits it.
    amount = models.BigIntegerField(_("amount"))
    # The account's balance right after this entry: the statement's running balance.
    balance_after = models.BigIntegerField(_("balance after"))
    created_at = models.DateTimeField(_("posted at"), default=timezone.now)

    class Meta:
        ordering = ["id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_entry_amount_non_zero"),
            models.UniqueConstraint(fields=["transfer", "account"], name="ledger_entry_one_leg_per_account"),
        ]
        indexes = [
            models.Index(fields=["account", "id"], name="ledger_entry_account_id_idx"),
            models.Index(fields=["account", "created_at"], name="ledger_entry_account_time_idx"),
        ]

    def __str__(self) -> str:
        return _("entry #%(id)s: %(amount)s on account #%(account)s") % {
            "id": self.pk,
            "amount": f"{self.amount:+d}",
            "account": self.account_id,
        }


MAX_GRANT = 10**12
MAX_PLAY_THROUGH = 10_000


class GrantPolicy(models.Model):
    """The house grant of a play-money site (one row, edited in the Django admin): welcome chips posted to a
    new player's wallet on registration, and a daily top-up a player may claim once per UTC day that brings
    their wallet up to `daily_floor`. Off unless configured: no row, `enabled` off, or a zero amount grants
    nothing. Every grant is a `grant` transfer from the house cashier (`ledger.services.grants`)."""

    SINGLETON_ID = 1

    id = models.PositiveSmallIntegerField(primary_key=True, default=SINGLETON_ID, editable=False)
    enabled = models.BooleanField(
        _("enabled"),
        default=False,
        help_text=_("Off: no welcome chips and no daily top-up, whatever the amounts below."),
    )
    welcome_chips = models.BigIntegerField(
        _("welcome chips"),
        default=0,
        validators=[MinValueValidator(0), MaxValueValidator(MAX_GRANT)],
        help_text=_("Chips posted to each new player's wallet when they register; 0 for none."),
    )
    daily_floor = models.BigIntegerField(
        _("daily top-up floor"),
        default=0,
        validators=[MinValueValidator(0), MaxValueValidator(MAX_GRANT)],
        help_text=_(
            "A player below this balance may top their wallet up to it once per UTC day; 0 for no top-up."
        ),
    )
    # The play-through (docs/operations.md "The house grant"): granted chips are not staked at private tables
    # until the player has played this many rounds at public ring tables since the grant, against at least
    # `play_through_opponents` different players.
    play_through_rounds = models.PositiveIntegerField(
        _("play-through rounds"),
        default=20,
        validators=[MaxValueValidator(MAX_PLAY_THROUGH)],
        help_text=_(
            "Granted chips go to private tables only after this many rounds at public tables since the grant; "
            "0: no hold."
        ),
    )
    play_through_opponents = models.PositiveIntegerField(
        _("play-through opponents"),
        default=3,
        validators=[MaxValueValidator(MAX_PLAY_THROUGH)],
        help_text=_("The different players those public rounds must be played against."),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("house grant policy")
        verbose_name_plural = _("house grant policy")
        constraints = [
            models.CheckConstraint(condition=Q(id=1), name="ledger_grant_policy_singleton"),
            models.CheckConstraint(
                condition=Q(welcome_chips__gte=0, welcome_chips__lte=MAX_GRANT),
                name="ledger_grant_policy_welcome_range",
            ),
            models.CheckConstraint(
                condition=Q(daily_floor__gte=0, daily_floor__lte=MAX_GRANT),
                name="ledger_grant_policy_floor_range",
            ),
        ]

    def __str__(self) -> str:
        if not self.enabled:
            return str(_("House grant: off"))
        return str(_("House grant: %(welcome)s welcome chips, a daily top-up to %(floor)s")) % {
            "welcome": self.welcome_chips,
            "floor": self.daily_floor,
        }

    @property
    def welcome_on(self) -> bool:
        return self.enabled and self.welcome_chips > 0

    @property
    def top_up_on(self) -> bool:
        return self.enabled and self.daily_floor > 0


class ReconciliationStatus(models.TextChoices):
    QUEUED = "queued", pgettext_lazy("reconciliation status", "queued")
    RUNNING = "running", pgettext_lazy("reconciliation status", "running")
    FINISHED = "finished", pgettext_lazy("reconciliation status", "finished")
    FAILED = "failed", pgettext_lazy("reconciliation status", "failed")


class ReconciliationRun(models.Model):
    """One reconciliation of the whole ledger and its result: the nightly task's, or one staff queued.

    A run staff queue is `queued`, then `running` on a worker, then `finished` (or `failed`); at most
    one is queued at a time, so asking again while one waits gets that one."""

    status = models.CharField(
        _("status"), max_length=16, choices=ReconciliationStatus.choices, default=ReconciliationStatus.QUEUED
    )
    queued_at = models.DateTimeField(_("queued at"), default=timezone.now)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_reconciliations_requested",
        verbose_name=_("requested by"),
    )
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    ok = models.BooleanField(_("clean"), null=True, blank=True)
    accounts = models.PositiveIntegerField(_("accounts"), default=0)
    transfers = models.PositiveIntegerField(_("transfers"), default=0)
    totals = models.JSONField(_("totals"), default=dict)
    problems = models.JSONField(_("problems"), default=list)
    trigger = models.CharField(_("trigger"), max_length=32, default="task")

    class Meta:
        ordering = ["-queued_at", "-id"]
        verbose_name = _("reconciliation run")
        verbose_name_plural = _("reconciliation runs")
        constraints = [
            models.UniqueConstraint(
                fields=["status"],
                condition=Q(status=ReconciliationStatus.QUEUED),
                name="ledger_reconciliation_one_queued",
            ),
            models.CheckConstraint(
                condition=~Q(status=ReconciliationStatus.FINISHED)
                | Q(ok__isnull=False, started_at__isnull=False, finished_at__isnull=False),
                name="ledger_reconciliation_finished_has_result",
            ),
            models.CheckConstraint(
                condition=Q(status__in=ReconciliationStatus.values), name="ledger_reconciliation_status_known"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "finished_at"], name="ledger_recon_status_done_idx"),
        ]

    def __str__(self) -> str:
        if self.status != ReconciliationStatus.FINISHED:
            return _("reconciliation #%(id)s: %(status)s") % {
                "id": self.pk,
                "status": self.get_status_display(),
            }
        result = _("clean") if self.ok else _("PROBLEMS")
        return _("reconciliation #%(id)s: %(result)s") % {"id": self.pk, "result": result}
