"""Query filters of the flags list (django-filter): an unknown status or kind is a 400."""

from __future__ import annotations

import django_filters

from integrity.models import Flag, FlagKind, FlagStatus


class FlagFilter(django_filters.FilterSet):  # type: ignore[misc]
    status = django_filters.ChoiceFilter(choices=FlagStatus.choices)
    kind = django_filters.ChoiceFilter(choices=FlagKind.choices)

    class Meta:
        model = Flag
        fields = ["status", "kind"]
