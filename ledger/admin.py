"""The ledger in the Django admin: read-only, searchable, filterable; reversal is the only action."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from ledger import services
from ledger.errors import LedgerError
from ledger.models import Account, Entry, ReconciliationRun, Transfer


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


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "chip_type", "user", "reference", "balance", "created_at"]
    list_filter = ["kind", "chip_type"]
    search_fields = ["user__username", "reference", "chip_type"]
    list_select_related = ["user"]


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "kind",
        "chip_type",
        "reason",
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

    def has_reverse_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    @admin.action(
        description="Reverse the selected transfers (posts a reversal for each)", permissions=["reverse"]
    )
    def reverse_selected(self, request: HttpRequest, queryset: QuerySet[Transfer]) -> None:
        posted, refused = 0, []
        for transfer in queryset.order_by("id"):
            try:
                services.reverse_transfer(
                    transfer=transfer,
                    posted_by=request.user,  # type: ignore[arg-type]
                    reason=f"admin reversal of transfer #{transfer.pk}",
                )
            except LedgerError as exc:
                refused.append(f"#{transfer.pk}: {exc.message}")
            else:
                posted += 1
        if posted:
            self.message_user(request, f"Posted {posted} reversal(s).", messages.SUCCESS)
        if refused:
            self.message_user(request, "Not reversed: " + "; ".join(refused), messages.ERROR)


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "transfer", "account", "amount", "balance_after", "created_at"]
    list_filter = ["account__kind", "account__chip_type", "transfer__kind"]
    search_fields = ["account__user__username", "account__reference", "transfer__idempotency_key"]
    list_select_related = ["transfer", "account__user"]


@admin.register(ReconciliationRun)
class ReconciliationRunAdmin(ReadOnlyAdmin):
    list_display = ["id", "ok", "accounts", "transfers", "trigger", "started_at", "finished_at"]
    list_filter = ["ok", "trigger"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [field.name for field in ReconciliationRun._meta.fields]
