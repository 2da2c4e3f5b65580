"""Form fields the admin modules share."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError


class OptionsField(forms.JSONField):
    """Django's JSON field lets a ValueError other than a syntax error through (a number too long to
    convert); here any undecodable text is a form error."""

    def to_python(self, value: Any) -> Any:
        try:
            return super().to_python(value)
        except ValueError:
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None

    def bound_data(self, data: Any, initial: Any) -> Any:
        try:
            return super().bound_data(data, initial)
        except ValueError:
            return forms.fields.InvalidJSONInput(data)
