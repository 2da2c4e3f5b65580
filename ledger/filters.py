"""Query filters of the staff audit endpoints (django-filter)."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema_field

from ledger.models import Account, AccountKind, Transfer, TransferKind
from ledger.selectors import transfers_of_player

MAX_ID = 2**63 - 1


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class IdFilter(django_filters.NumberFilter):  # type: ignore[misc]
    """A row id: an integer the database can hold (anything else is a 400, not a driver overflow)."""

    field_class = forms.IntegerField

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class AccountFilter(django_filters.FilterSet):  # type: ignore[misc]
    kind = django_filters.ChoiceFilter(choices=AccountKind.choices)
    chip_type = django_filters.CharFilter()
    user = django_filters.CharFilter(field_name="user__username", help_text="The owner's username.")
    reference = django_filters.CharFilter()

    class Meta:
        model = Account
        fields = ["kind", "chip_type", "user", "reference"]


class TransferFilter(django_filters.FilterSet):  # type: ignore[misc]
    player = django_filters.CharFilter(
        method="filter_player", help_text="Transfers touching this username's accounts."
    )
    table = IdFilter(field_name="table_id")
    tournament = IdFilter(field_name="tournament_id")
    round = IdFilter(field_name="round_id")
    entry = IdFilter(field_name="entry_id")
    kind = django_filters.ChoiceFilter(choices=TransferKind.choices)
    chip_type = django_filters.CharFilter()
    account = IdFilter(field_name="entries__account_id", distinct=True)

    class Meta:
        model = Transfer
        fields = ["player", "table", "tournament", "round", "entry", "kind", "chip_type", "account"]

    def filter_player(self, queryset: QuerySet[Transfer], name: str, value: str) -> QuerySet[Transfer]:
        return transfers_of_player(queryset, username=value)
