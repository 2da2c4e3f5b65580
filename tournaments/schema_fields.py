"""Fields whose schema names a closed set the service checks itself.

A table's or a tournament's `game` is one of the presets (RULES.md), but an unknown one is refused by the
service with its own code (`table.invalid_options`, `tournament.invalid`, `details.field = "game"`; docs/api.md),
not DRF's choice error: the field takes any string and the schema shows the enum (`GameEnum`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.engine.rules import PRESETS


@extend_schema_field(serializers.ChoiceField(choices=PRESETS))
class PresetField(serializers.CharField):
    """A game preset's name (`rummy500`, `board`, ...)."""
