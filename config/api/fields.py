"""A serializer field of the API's request bodies that reads JSON as JSON: no coercion of one type into another.

DRF's `IntegerField` takes `"100"`, `100.0` and `1e3` for 100 (it reads form data, where everything is a
string); a JSON client that sends a string or a float for a chip amount has a bug, which the API reports instead
of guessing (docs/api.md, "Numbers and dates"). The field renders in the schema as DRF's does
(`type: integer`, its bounds included).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: never a string, a float (`100.0`, `1e3`) or a boolean."""

    default_error_messages = {"invalid": "Must be a JSON integer (not a string, a float or a boolean)."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))

