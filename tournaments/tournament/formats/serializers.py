"""The API's fields of the rebuy, add-on and progressive-knockout options (docs/rules.md "Rebuys and the
add-on", "Progressive knockout"; checked by `formats.options`): the creation's input and the tournament's
rendering, mixed into `serializers.TournamentCreateSerializer` and `serializers.TournamentSerializer`."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.fields import StrictBooleanField, StrictIntegerField


def _option(help_text: str, **kwargs: Any) -> StrictIntegerField:
    """An optional whole-number option: absent or null takes the default named in brackets in `help_text`."""
    return StrictIntegerField(required=False, allow_null=True, default=None, help_text=help_text, **kwargs)


class FormatOptionsInput(serializers.Serializer[Any]):
    rebuy_levels = _option("multi: rebuys during levels 1 to this (0: no rebuys) [0]")
    rebuy_cost = _option("multi: a rebuy's cost, to the prize pool [0]")
    rebuy_fee = _option("multi: a rebuy's fee, to the house [0]")
    rebuy_chips = _option("multi: the chips a rebuy buys [the starting stack]")
    max_rebuys = _option("multi: most rebuys per entry (0: no limit) [0]")
    addon_cost = _option("multi: the add-on's cost, to the prize pool [0]")
    addon_fee = _option("multi: the add-on's fee, to the house [0]")
    addon_chips = _option("multi: the chips the add-on buys (0: no add-on) [0]")
    addon_seconds = _option("multi: the add-on break before a table's first round past the rebuy period [60]")
    bounty_share = _option(
        "multi: percent of each buy-in that becomes the entrant's bounty (0: no knockout) [0]"
    )
    # Satellites and tickets (docs/rules.md "Satellites", "Tickets").
    satellite_target = _option(
        "a satellite: the id of the tournament whose tickets are its prizes", source="satellite_target_id"
    )
    satellite_template = _option(
        "a satellite: the id of the recurring tournament whose next tournament its tickets enter",
        source="satellite_template_id",
    )
    tickets_only = StrictBooleanField(
        required=False, allow_null=True, default=None, help_text="entries paid with a ticket only [false]"
    )
    # Entry rules (docs/rules.md "Entry rules") and the final-table deal (docs/rules.md "The final-table deal").
    min_rating = _option("entry: the lowest rating in the game's family")
    max_rating = _option("entry: the highest rating in the game's family")
    max_rated_results = _option(
        "entry: newcomers only, with fewer rated results in the game's family than this"
    )
    private = StrictBooleanField(
        required=False, default=False, help_text="entry: unlisted, joined with its code (`tournaments/join/`)"
    )
    deal_seconds = _option("multi: seconds to answer a deal, 10 to 600 [60]")
    deal_keep = _option("multi: percent of the unpaid prizes a deal keeps to play for, 0 to 100 [10]")


class FormatOptionsOutput(serializers.Serializer[Any]):
    rebuy_levels = serializers.IntegerField(
        source="tournament.rebuy_levels", help_text="multi: 0 = no rebuys"
    )
    rebuy_cost = serializers.IntegerField(source="tournament.rebuy_cost")
    rebuy_fee = serializers.IntegerField(source="tournament.rebuy_fee")
    rebuy_chips = serializers.IntegerField(
        source="tournament.rebuy_chips", allow_null=True, help_text="null: the starting stack"
    )
    max_rebuys = serializers.IntegerField(source="tournament.max_rebuys", help_text="per entry; 0 = no limit")
    addon_cost = serializers.IntegerField(source="tournament.addon_cost")
    addon_fee = serializers.IntegerField(source="tournament.addon_fee")
    addon_chips = serializers.IntegerField(source="tournament.addon_chips", help_text="0 = no add-on")
    addon_seconds = serializers.IntegerField(source="tournament.addon_seconds")
    bounty_share = serializers.IntegerField(
        source="tournament.bounty_share", help_text="percent of the buy-in on each head; 0 = no knockout"
    )
