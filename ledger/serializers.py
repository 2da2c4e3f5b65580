"""Thin (de)serializers of the ledger API."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import serializers

from ledger.models import Account, Entry, ReconciliationRun, Transfer

MAX_ADJUSTMENT = 10**12


class AccountSerializer(serializers.ModelSerializer[Account]):
    user = serializers.CharField(source="user.username", allow_null=True, read_only=True)

    class Meta:
        model = Account
        fields = ["id", "kind", "chip_type", "user", "reference", "balance", "created_at"]
        read_only_fields = fields


class TransferEntrySerializer(serializers.ModelSerializer[Entry]):
    account_kind = serializers.CharField(source="account.kind", read_only=True)
    user = serializers.CharField(source="account.user.username", allow_null=True, read_only=True)
    reference = serializers.CharField(source="account.reference", read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "account", "account_kind", "user", "reference", "amount", "balance_after"]
        read_only_fields = fields


class TransferSerializer(serializers.ModelSerializer[Transfer]):
    table = serializers.IntegerField(source="table_id", allow_null=True, read_only=True)
    round = serializers.IntegerField(source="round_id", allow_null=True, read_only=True)
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True, read_only=True)
    entry = serializers.IntegerField(source="entry_id", allow_null=True, read_only=True)
    posted_by = serializers.CharField(source="posted_by.username", allow_null=True, read_only=True)
    reversed_by = serializers.IntegerField(source="reversed_by.id", allow_null=True, read_only=True)
    entries = TransferEntrySerializer(many=True, read_only=True)

    class Meta:
        model = Transfer
        fields = [
            "id",
            "kind",
            "chip_type",
            "reason",
            "computation",
            "table",
            "round",
            "tournament",
            "entry",
            "idempotency_key",
            "posted_by",
            "posted_by_system",
            "reverses",
            "reversed_by",
            "created_at",
            "entries",
        ]
        read_only_fields = fields


class StatementEntrySerializer(serializers.ModelSerializer[Entry]):
    kind = serializers.CharField(source="transfer.kind", read_only=True)
    reason = serializers.CharField(source="transfer.reason", read_only=True)
    running_balance = serializers.IntegerField(source="balance_after", read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "transfer", "kind", "reason", "amount", "running_balance", "created_at"]
        read_only_fields = fields


class StatementSerializer(serializers.Serializer[Any]):
    """A page of an account's statement (cursor-paginated), with the balances around it."""

    account = AccountSerializer()
    balance = serializers.IntegerField(help_text="The account's current (cached) balance.")
    opening_balance = serializers.IntegerField(help_text="The balance just before `from` (0 without `from`).")
    at = serializers.DateTimeField(allow_null=True)
    balance_at = serializers.IntegerField(
        allow_null=True, help_text="The balance at `at`, when `at` is given."
    )
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = StatementEntrySerializer(many=True)


class ProblemSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    message = serializers.CharField()


class ReconciliationRunSerializer(serializers.ModelSerializer[ReconciliationRun]):
    problems = serializers.ListField(child=serializers.DictField(), read_only=True)
    totals = serializers.DictField(child=serializers.IntegerField(), read_only=True)

    class Meta:
        model = ReconciliationRun
        fields = [
            "id",
            "ok",
            "accounts",
            "transfers",
            "totals",
            "problems",
            "trigger",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class ReconciliationSerializer(serializers.Serializer[Any]):
    ok = serializers.BooleanField()
    accounts = serializers.IntegerField(help_text="How many accounts were checked.")
    transfers = serializers.IntegerField(help_text="How many transfers were checked.")
    total = serializers.IntegerField(help_text="Sum of every cached balance: 0 when chips are conserved.")
    totals = serializers.DictField(child=serializers.IntegerField(), help_text="Sum per chip type (each 0).")
    problems = serializers.ListField(child=serializers.DictField())
    latest_run = ReconciliationRunSerializer(allow_null=True, help_text="The last recorded (nightly) run.")


class WalletSerializer(serializers.Serializer[Any]):
    balance = serializers.IntegerField()
    currency = serializers.CharField()


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: chips are never strings, floats or booleans."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class AdjustmentInputSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    amount = StrictIntegerField(min_value=-MAX_ADJUSTMENT, max_value=MAX_ADJUSTMENT)
    reason = serializers.CharField(max_length=500)

    def validate_amount(self, value: int) -> int:
        if value == 0:
            raise serializers.ValidationError("The amount must not be zero.")
        return value

    def validate_username(self, value: str) -> Any:
        user = get_user_model().objects.filter(username=value).first()
        if user is None:
            raise serializers.ValidationError("No user has this username.")
        return user
