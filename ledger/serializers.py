"""Thin (de)serializers of the ledger API."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from api.fields import StrictCharField, StrictIntegerField
from ledger.models import Account, AccountKind, Entry, ReconciliationRun, Transfer, TransferKind
from ledger.schema_fields import ComputationField
from ledger.selectors import TopUpState

MAX_ADJUSTMENT = 10**12
# PostgreSQL's timestamptz takes UTC offsets up to 15:59; instants are sent in UTC anyway, but an offset
# no place uses is a client's mistake to report, not to reinterpret.
MAX_UTC_OFFSET = timedelta(hours=15, minutes=59)


class AccountSerializer(serializers.ModelSerializer[Account]):
    user = serializers.CharField(source="user.username", allow_null=True, read_only=True)

    class Meta:
        model = Account
        fields = ["id", "kind", "chip_type", "user", "reference", "balance", "created_at"]
        read_only_fields = fields


class TransferEntrySerializer(serializers.ModelSerializer[Entry]):
    account_kind = serializers.ChoiceField(choices=AccountKind.choices, source="account.kind", read_only=True)
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
    computation = ComputationField(read_only=True)

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
    kind = serializers.ChoiceField(choices=TransferKind.choices, source="transfer.kind", read_only=True)
    reason = serializers.CharField(source="transfer.reason", read_only=True)
    running_balance = serializers.IntegerField(source="balance_after", read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "transfer", "kind", "reason", "amount", "running_balance", "created_at"]
        read_only_fields = fields


class WalletEntrySerializer(serializers.ModelSerializer[Entry]):
    """One line of a player's wallet history: what moved in or out, why, and the balance after it."""

    kind = serializers.ChoiceField(choices=TransferKind.choices, source="transfer.kind", read_only=True)
    reason = serializers.CharField(source="transfer.reason", read_only=True)
    table = serializers.IntegerField(source="transfer.table_id", allow_null=True, read_only=True)
    round = serializers.IntegerField(source="transfer.round_id", allow_null=True, read_only=True)
    tournament = serializers.IntegerField(source="transfer.tournament_id", allow_null=True, read_only=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "transfer",
            "kind",
            "reason",
            "amount",
            "balance_after",
            "table",
            "round",
            "tournament",
            "created_at",
        ]
        read_only_fields = fields


# A `selectors.Statement`.
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
    requested_by = serializers.CharField(source="requested_by.username", allow_null=True, read_only=True)

    class Meta:
        model = ReconciliationRun
        fields = [
            "id",
            "status",
            "ok",
            "accounts",
            "transfers",
            "totals",
            "problems",
            "trigger",
            "requested_by",
            "queued_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


# A `selectors.ReconciliationResult`.
class ReconciliationSerializer(serializers.Serializer[Any]):
    ok = serializers.BooleanField(source="run.ok")
    accounts = serializers.IntegerField(source="run.accounts", help_text="How many accounts were checked.")
    transfers = serializers.IntegerField(source="run.transfers", help_text="How many transfers were checked.")
    total = serializers.IntegerField(help_text="Sum of every cached balance: 0 when chips are conserved.")
    totals = serializers.DictField(
        source="run.totals", child=serializers.IntegerField(), help_text="Sum per chip type (each 0)."
    )
    problems = serializers.ListField(source="run.problems", child=serializers.DictField())
    run = serializers.IntegerField(source="run.pk", help_text="The run whose result this is.")
    checked_at = serializers.DateTimeField(source="run.finished_at", help_text="When that run finished.")
    stale = serializers.BooleanField(help_text="Whether transfers were posted since that run started.")
    pending = ReconciliationRunSerializer(
        allow_null=True, help_text="A run queued or running now, if any: the next result."
    )
    latest_run = ReconciliationRunSerializer(source="run", help_text="The run whose result this is, in full.")


# A `selectors.Wallet`.
class TopUpStateSerializer(serializers.Serializer[Any]):
    """The daily top-up (a `selectors.TopUp`): what the client says about getting chips."""

    state = serializers.ChoiceField(
        choices=[(state, state) for state in TopUpState.STATES],
        help_text="`off`: the site grants no top-up (chips come from its admins); `available`: "
        "`POST /wallet/top-up/` may be claimed now; `claimed_today`: claimed this UTC day, again at "
        "`next_at`; `above_floor`: the player's chips (the wallet and their stacks at tables) are at least `floor`; `guest`: a guest of the demo, who plays "
        "without chips (`POST /wallet/top-up/` answers 403 `grant.guest`).",
    )
    available = serializers.BooleanField(help_text="Whether `POST /wallet/top-up/` would post a top-up now.")
    floor = serializers.IntegerField(
        allow_null=True, help_text="The chips (wallet and stacks at tables) a top-up brings the player to."
    )
    next_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When today's top-up is claimed: the next UTC midnight, from when it may be again.",
    )


class WalletSerializer(serializers.Serializer[Any]):
    balance = serializers.IntegerField()
    currency = serializers.CharField()
    top_up = TopUpStateSerializer(help_text="The house's daily top-up (docs/api.md, Wallet).")


class TopUpResultSerializer(serializers.Serializer[Any]):
    """A claimed daily top-up (a `services.grants.TopUp`): the transfer and the wallet's new balance."""

    transfer = TransferSerializer()
    balance = serializers.IntegerField()


class AdjustmentInputSerializer(serializers.Serializer[Any]):
    username = StrictCharField(max_length=150)
    amount = StrictIntegerField(min_value=-MAX_ADJUSTMENT, max_value=MAX_ADJUSTMENT)
    reason = StrictCharField(max_length=500)

    def validate_amount(self, value: int) -> int:
        if value == 0:
            raise serializers.ValidationError(_("The amount must not be zero."))
        return value

    def validate_username(self, value: str) -> Any:
        user = get_user_model().objects.filter(username=value).first()
        if user is None:
            raise serializers.ValidationError(_("No user has this username."))
        return user


class InstantField(serializers.Field):  # type: ignore[type-arg]
    """A query parameter naming an instant: an ISO 8601 date-time (naive means UTC) or a date (its start,
    or with `end_of_day` the next day's start). Answers an aware UTC datetime, which every database takes
    (years 1-9999); an empty value is no value."""

    default_error_messages = {
        "invalid": gettext_lazy("Expected an ISO 8601 date or date-time."),
        "offset": gettext_lazy("The UTC offset must be between -15:59 and +15:59."),
        "range": gettext_lazy("The instant is out of range (years 1 to 9999 in UTC)."),
    }

    def __init__(self, *, end_of_day: bool = False, **kwargs: Any) -> None:
        self.end_of_day = end_of_day
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> datetime | None:
        if not isinstance(data, str):
            self.fail("invalid")
        if not data:
            return None
        try:
            parsed = parse_datetime(data)
            if parsed is None and (day := parse_date(data)) is not None:
                parsed = datetime.combine(day, time.min)
                if self.end_of_day:
                    parsed += timedelta(days=1)
        except OverflowError:
            self.fail("range")
        except ValueError:  # well-formed but impossible: 2026-02-30, 25:00, an offset of a day
            self.fail("invalid")
        if parsed is None:
            self.fail("invalid")
        offset = parsed.utcoffset()
        if offset is None:
            return parsed.replace(tzinfo=UTC)
        if abs(offset) > MAX_UTC_OFFSET:
            self.fail("offset")
        try:
            return parsed.astimezone(UTC)
        except OverflowError:
            self.fail("range")

    def to_representation(self, value: datetime) -> str:
        return value.isoformat()


class StatementQuerySerializer(serializers.Serializer[Any]):
    """The statement's query parameters; every parse or range problem is a 400, never a database error."""

    def get_fields(self) -> dict[str, serializers.Field]:  # type: ignore[type-arg]
        # Built here rather than declared: `from` is a Python keyword.
        return {
            "from": InstantField(help_text="Entries at or after this instant."),
            "to": InstantField(
                end_of_day=True, help_text="Entries before this instant (a date: up to its end)."
            ),
            "at": InstantField(help_text="Also answer the balance at this instant."),
        }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, end = attrs.get("from"), attrs.get("to")
        if start is not None and end is not None and end < start:
            raise serializers.ValidationError({"to": [_("`to` must not be before `from`.")]})
        return attrs
