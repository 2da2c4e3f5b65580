"""The body of play now (docs/api.md "Playing", `tournaments/live/tables/play_now.py`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.fields import StrictIntegerField
from tournaments.engine import PRESETS
from tournaments.live.http.schema_fields import PresetField
from tournaments.live.tables.settings import MAX_BUY_IN


class PlayNowSerializer(serializers.Serializer[Any]):
    """Play now (docs/api.md "Play now"): the game, and optionally the stake and the buy-in."""

    game = PresetField(help_text="The game's preset.")
    stake = StrictIntegerField(
        min_value=1,
        max_value=MAX_BUY_IN,
        required=False,
        allow_null=True,
        help_text="Chips a point is worth (the table's PCR times multiplier); any stake when left out.",
    )
    buy_in = StrictIntegerField(
        min_value=1,
        max_value=MAX_BUY_IN,
        required=False,
        allow_null=True,
        help_text="The chips to sit with; the chosen table's smallest buy-in when left out.",
    )

    def validate_game(self, value: str) -> str:
        if value not in PRESETS:
            raise serializers.ValidationError(_("No such game."))
        return value
