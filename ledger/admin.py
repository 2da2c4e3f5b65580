"""The ledger in the Django admin: read-only, searchable, filterable. Chips move here only through the ledger's
services: the reversal action (after a confirmation) and the wallet adjustment form (admins)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from admin_confirm.actions import confirmation
from ledger.errors import LedgerError
from ledger.models import Account, Entry, GrantPolicy, ReconciliationRun, Transfer
from ledger.serializers import MAX_ADJUSTMENT
from ledger.services import postings
from ledger.words import TRIGGERS, reason_text, word


class TriggerFilter(admin.SimpleListFilter):
    """Reconciliation runs by how they were started, in words."""

    title = _("trigger")
    parameter_name = "trigger"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(TRIGGERS.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(trigger=self.value()) if self.value() else queryset


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Nothing in the ledger is added, changed or deleted by hand; chips move only through services."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    fields = ["account", "amount", "balance_after", "created_at"]
    readonly_fields = ["account", "amount", "balance_after", "created_at"]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class AdjustmentForm(forms.Form):
    """What `POST /ledger/adjustments/` takes, checked the same way; `key` is the form's idempotency key,
    fixed when the form is first shown, so a double submit posts one transfer."""

    username = forms.CharField(label=_("Username"), max_length=150)
    amount = forms.IntegerField(
        min_value=-MAX_ADJUSTMENT,
        max_value=MAX_ADJUSTMENT,
        label=_("Amount (chips)"),
        help_text=_("Positive credits the wallet, negative debits it."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
    key = forms.CharField(max_length=64, widget=forms.HiddenInput)

    def clean_username(self) -> Any:
        user = get_user_model().objects.filter(username=self.cleaned_data["username"]).first()
        if user is None:
            raise forms.ValidationError(_("No user has this username."))
        return user

    def clean_amount(self) -> int:
        amount: int = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(_("The amount must not be zero."))
        return amount


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "chip_type", "user", "reference", "balance", "created_at"]
    list_filter = ["kind", "chip_type"]
    search_fields = ["user__username", "reference", "chip_type"]
    list_select_related = ["user"]

    def get_urls(self) -> list[URLPattern]:
        adjust = path("adjust/", self.admin_site.admin_view(self.adjust_view), name="ledger_account_adjust")
        return [adjust, *super().get_urls()]

    def adjust_view(self, request: HttpRequest) -> HttpResponse:
        """Credit or debit a wallet through `postings.adjust_wallet`, as the API's adjustment does."""
        if not request.user.is_superuser:
            raise PermissionDenied
        form = AdjustmentForm(request.POST or None, initial={"key": uuid.uuid4().hex})
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                transfer = postings.adjust_wallet(
                    user=data["username"],
                    amount=data["amount"],
                    reason=data["reason"],
                    # The API's key scope (adjustment, admin, key): the same ledger service, the same rules.
                    idempotency_key=f"adjustment:{request.user.pk}:admin-form:{data['key']}",
                    posted_by=request.user,
                )
            except LedgerError as exc:
                form.add_error(None, exc.message)
            else:
                self.message_user(
                    request,
                    _("Posted transfer #%(id)s: %(chips)s chips to the wallet of %(name)s.")
                    % {"id": transfer.pk, "chips": f"{data['amount']:+d}", "name": data["username"]},
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:ledger_transfer_change", args=[transfer.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Adjust a wallet"),
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/ledger/account/adjust.html", context)


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "kind",
        "chip_type",
        "reason_shown",
        "table_id",
        "round_id",
        "tournament_id",
        "posted_by",
        "posted_by_system",
        "reverses",
        "created_at",
    ]
    list_filter = ["kind", "chip_type", "created_at"]
    search_fields = ["idempotency_key", "reason", "entries__account__user__username"]
    list_select_related = ["posted_by", "reverses"]
    inlines = [EntryInline]
    actions = ["reverse_selected"]
    date_hierarchy = "created_at"
    # The stored reason, and the same in the page's language when the site wrote it (ledger.words).
    fields = (
        "kind",
        "chip_type",
        "reason_shown",
        "reason",
        "table_id",
        "round_id",
        "tournament_id",
        "entry_id",
        "computation",
        "posted_by",
        "posted_by_system",
        "reverses",
        "idempotency_key",
        "fingerprint",
        "created_at",
    )
    readonly_fields = fields

    @admin.display(description=_("reason in words"), ordering="reason")
    def reason_shown(self, obj: Transfer) -> str:
        return reason_text(obj.reason)

    def has_reverse_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    @admin.action(
        description=_("Reverse the selected transfers (posts a reversal for each)"), permissions=["reverse"]
    )
    def reverse_selected(self, request: HttpRequest, queryset: QuerySet[Transfer]) -> TemplateResponse | None:
        asking = confirmation(
            self,
            request,
            queryset,
            action="reverse_selected",
            title=_("Reverse these transfers?"),
            consequence=_(
                "Each selected transfer gets a reversal: its exact opposite, posted now and linked to it. "
                "A reversal cannot itself be reversed."
            ),
        )
        if asking is not None:
            return asking
        posted, refused = 0, []
        for transfer in queryset.order_by("id"):
            try:
                postings.reverse_transfer(
                    transfer=transfer,
                    posted_by=request.user,  # type: ignore[arg-type]
                    reason=f"admin reversal of transfer #{transfer.pk}",
                )
            except LedgerError as exc:
                refused.append(f"#{transfer.pk}: {exc.message}")
            else:
                posted += 1
        if posted:
            self.message_user(
                request,
                ngettext("Posted %(count)s reversal.", "Posted %(count)s reversals.", posted)
                % {"count": posted},
                messages.SUCCESS,
            )
        if refused:
            self.message_user(
                request, _("Not reversed: %(reasons)s") % {"reasons": "; ".join(refused)}, messages.ERROR
            )
        return None


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "transfer", "account", "amount", "balance_after", "created_at"]
    list_filter = ["account__kind", "account__chip_type", "transfer__kind"]
    search_fields = ["account__user__username", "account__reference", "transfer__idempotency_key"]
    list_select_related = ["transfer", "account__user"]


@admin.register(ReconciliationRun)
class ReconciliationRunAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "status",
        "ok",
        "accounts",
        "transfers",
        "trigger_shown",
        "started_at",
        "finished_at",
    ]
    list_filter = ["status", "ok", TriggerFilter]

    @admin.display(description=_("trigger"), ordering="trigger")
    def trigger_shown(self, obj: ReconciliationRun) -> str:
        return word(TRIGGERS, obj.trigger)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # The run's detail says its trigger in words, as the list does, not the stored code.
        return [
            "trigger_shown" if field.name == "trigger" else field.name
            for field in ReconciliationRun._meta.fields
        ]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return self.get_readonly_fields(request, obj)


@admin.register(GrantPolicy)
class GrantPolicyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The house grant policy: one row, which admins add once and then change (docs/operations.md, "The
    house grant"). Changing it moves no chips: it applies to the registrations and claims that follow."""

    list_display = ["__str__", "enabled", "welcome_chips", "daily_floor", "updated_at"]
    fields = [
        "enabled",
        "welcome_chips",
        "daily_floor",
        "play_through_rounds",
        "play_through_opponents",
        "updated_at",
    ]
    readonly_fields = ["updated_at"]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return super().has_add_permission(request) and not GrantPolicy.objects.exists()

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
