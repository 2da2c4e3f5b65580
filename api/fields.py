"""Serializer fields of the API's request bodies: JSON read as JSON, and dates within a horizon.

DRF's `IntegerField` takes `"100"`, `100.0` and `1e3` for 100 (it reads form data, where everything is a
string); a JSON client that sends a string or a float for a chip amount has a bug, which the API reports instead
of guessing (docs/api.md, "Numbers and dates"). The fields render in the schema as DRF's do (`type: integer`
with its bounds, `format: date-time`).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

# How far ahead a date-time in a request body may lie (a tournament's `starts_at`).
MAX_DAYS_AHEAD = 366


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: never a string, a float (`100.0`, `1e3`) or a boolean."""

    default_error_messages = {"invalid": _("Must be a JSON integer (not a string, a float or a boolean).")}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class HorizonDateTimeField(serializers.DateTimeField):
    """A date-time no further ahead than `MAX_DAYS_AHEAD` days: nothing is scheduled further out, and a year
    such as 9999 is a client's mistake, not a plan (docs/api.md, "Numbers and dates")."""

    # DRF's `fail` fills the {days} placeholder.
    default_error_messages = {"too_far": _("Must be at most {days} days ahead.")}

    def to_internal_value(self, value: Any) -> datetime:
        moment = super().to_internal_value(value)
        if moment > timezone.now() + timedelta(days=MAX_DAYS_AHEAD):
            self.fail("too_far", days=MAX_DAYS_AHEAD)
        return moment


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean: never `0`, `1`, `"true"` or `"yes"`, which DRF's field takes (form data again)."""

    default_error_messages = {"invalid": _("Must be a JSON boolean (true or false).")}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data
