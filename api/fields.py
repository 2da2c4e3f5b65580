"""Serializer fields of the API's request bodies: JSON read as JSON, and dates within a horizon.

DRF's `IntegerField` takes `"100"`, `100.0` and `1e3` for 100, and its `CharField` takes `0` for `"0"` (they read
form data, where everything is a string); a JSON client that sends a string for a chip amount or a number for a
name has a bug, which the API reports instead of guessing (docs/api.md, "Numbers and dates"). The fields render
in the schema as DRF's do (`type: integer` with its bounds, `type: string`, `format: date-time`), and every
integer has bounds: its own, else the database's (a signed 64-bit integer).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

# How far ahead a date-time in a request body may lie (a tournament's `starts_at`).
MAX_DAYS_AHEAD = 366


# The bounds of an integer field that names none: the database's (PostgreSQL's bigint, SQLite's integer).
MIN_INTEGER = -(2**63)
MAX_INTEGER = 2**63 - 1


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer within bounds (the field's, else `MIN_INTEGER`..`MAX_INTEGER`, shown in the schema as its
    `minimum` and `maximum`): never a string, a float (`100.0`, `1e3`) or a boolean. An integer too large for a
    64-bit number, which the JSON parser can only read as a float (`18446744073709551616`), is refused as out
    of range, like any other past the bounds."""

    default_error_messages = {"invalid": _("Must be a JSON integer (not a string, a float or a boolean).")}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", MIN_INTEGER)
        kwargs.setdefault("max_value", MAX_INTEGER)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, float) and math.isfinite(data) and data.is_integer() and abs(data) > MAX_INTEGER:
            if data > 0:
                self.fail("max_value", max_value=self.max_value)
            self.fail("min_value", min_value=self.min_value)
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictCharField(serializers.CharField):
    """A JSON string: never a number (`0` read as `"0"`, `12345` as a name) or a boolean, which DRF's field
    takes (form data again)."""

    default_error_messages = {"invalid": _("Must be a JSON string.")}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


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
