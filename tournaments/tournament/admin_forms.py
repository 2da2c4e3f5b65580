"""The admin's tournament forms, one per kind (quick, single, multi): the game a choice of the presets, each of
its options a field, payouts and the PCR schedule comma-separated numbers, validated exactly as the API
(`setup.validate`), and the model's check constraints as sentences on their fields."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

from tournaments.admin_fields import ConstraintMessagesMixin, PercentagesField, game_options_form
from tournaments.errors import PlayError
from tournaments.live import MAX_BUY_IN, MAX_MULTIPLIER, MIN_SEATS
from tournaments.tournament import setup
from tournaments.tournament.formats import options as format_options
from tournaments.tournament.models import (
    MULTI_MAX_ENTRANTS,
    ONE_TABLE_MAX_ENTRANTS,
    Tournament,
    TournamentKind,
)
from tournaments.tournament.payouts import PERCENT

# What an admin sets; the rest (status, stage, the pool) changes only through the services.
EDITABLE = (
    "name",
    "kind",
    "game",
    "options",
    "buy_in",
    "fee",
    "guarantee",
    "max_entrants",
    "min_entrants",
    "target_score",
    "rounds",
    "tiebreak_rounds",
    "multiplier",
    "payouts",
    # Multi-table only (a quick or single tournament leaves them empty).
    "seats",
    "starting_stack",
    "pcr_schedule",
    "rounds_per_level",
    "starts_at",
    "registration_opens_at",
    "late_registration_levels",
    "reentry",
    # Multi-table formats (docs/rules.md "Rebuys and the add-on", "Progressive knockout").
    "rebuy_levels",
    "rebuy_cost",
    "rebuy_fee",
    "rebuy_chips",
    "max_rebuys",
    "addon_cost",
    "addon_fee",
    "addon_chips",
    "addon_seconds",
    "bounty_share",
)
# Every kind: a satellite's target and the tickets-only entry rule (docs/rules.md "Tickets and satellites").
SATELLITE_FIELDS = ("satellite_target", "satellite_template", "tickets_only")
# Left empty, the service's default applies.
DEFAULTED = (
    "fee",
    "guarantee",
    "min_entrants",
    "tiebreak_rounds",
    "multiplier",
    "payouts",
    "seats",
    *format_options.FIELDS,
)
# One form per kind: the settings every kind has, then each kind's own (docs/tournaments.md).
COMMON = (
    "name",
    "game",
    "buy_in",
    "fee",
    "guarantee",
    "min_entrants",
    "max_entrants",
    "multiplier",
    "payouts",
    # Entry rules (docs/rules.md "Entry rules"): any kind.
    "min_rating",
    "max_rating",
    "max_rated_results",
    "private",
)
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    TournamentKind.QUICK: ("rounds", "tiebreak_rounds"),
    TournamentKind.SINGLE: ("target_score", "tiebreak_rounds"),
    TournamentKind.MULTI: (
        "seats",
        "starting_stack",
        "pcr_schedule",
        "rounds_per_level",
        "starts_at",
        "registration_opens_at",
        "late_registration_levels",
        "reentry",
        "rebuy_levels",
        "rebuy_cost",
        "rebuy_fee",
        "rebuy_chips",
        "max_rebuys",
        "addon_cost",
        "addon_fee",
        "addon_chips",
        "addon_seconds",
        "bounty_share",
        "deal_seconds",
        "deal_keep",
    ),
}
# The formats' own settings (entry rules, the final-table deal), checked by `setup.format_settings`.
FORMAT_FIELDS = ("min_rating", "max_rating", "max_rated_results", "private", "deal_seconds", "deal_keep")
LABELS = {
    "name": _("Name"),
    "buy_in": _("Buy-in (chips)"),
    "fee": _("Fee (chips kept by the house)"),
    "guarantee": _("Guaranteed prize pool (chips)"),
    "min_entrants": _("Fewest entrants to start"),
    "max_entrants": _("Most entrants"),
    "multiplier": _("Multiplier"),
    "payouts": _("Payouts by place (%)"),
    "rounds": _("Rounds"),
    "target_score": _("Target score"),
    "tiebreak_rounds": _("Tie-breaker rounds at most"),
    "seats": _("Seats per table"),
    "starting_stack": _("Starting chips"),
    "pcr_schedule": _("PCR by level"),
    "rounds_per_level": _("Rounds per level"),
    "starts_at": _("Starts at"),
    "registration_opens_at": _("Registration opens at"),
    "late_registration_levels": _("Late registration until level"),
    "reentry": _("Re-entry allowed"),
    "satellite_target": _("Satellite: its prizes are tickets to this tournament"),
    "satellite_template": _(
        "Satellite: its prizes are tickets to the next tournament of this recurring tournament"
    ),
    "tickets_only": _("Entries paid with a ticket only"),
    "rebuy_levels": _("Rebuys until level"),
    "rebuy_cost": _("Rebuy cost (chips to the prize pool)"),
    "rebuy_fee": _("Rebuy fee (chips kept by the house)"),
    "rebuy_chips": _("Chips a rebuy buys"),
    "max_rebuys": _("Most rebuys per entry"),
    "addon_cost": _("Add-on cost (chips to the prize pool)"),
    "addon_fee": _("Add-on fee (chips kept by the house)"),
    "addon_chips": _("Chips the add-on buys"),
    "addon_seconds": _("Add-on break (seconds)"),
    "bounty_share": _("Bounty (% of the buy-in)"),
    "min_rating": _("Lowest rating admitted"),
    "max_rating": _("Highest rating admitted"),
    "max_rated_results": _("Newcomers only: fewer rated results than"),
    "private": _("Private (joined with a code)"),
    "deal_seconds": _("Seconds to answer a final-table deal"),
    "deal_keep": _("Percent of the unpaid prizes a deal leaves to play for"),
}
HELP = {
    "payouts": _(
        "Percentages by place, separated by commas, never rising, adding up to 100: e.g. 50, 30, 20."
    ),
    "pcr_schedule": _("The PCR (chips per point) of each level, separated by commas: e.g. 1, 2, 3, 5."),
    "min_entrants": _("Blank: 2."),
    "fee": _("Blank: no fee."),
    "registration_opens_at": _("Blank: registration opens at once."),
    "late_registration_levels": _("Late registration (and re-entry) until this level; 0: none."),
    "satellite_target": _(
        "Blank: not a satellite. Seats = the prize pool divided by the target's buy-in plus fee; the rest of the "
        "pool goes in chips to the next place."
    ),
    "satellite_template": _("Blank: not a satellite to a recurring tournament."),
    "rebuy_levels": _(
        "A player with no more than the starting chips may rebuy between rounds of levels 1 to this; a player "
        "who busts then stays until the next deal to rebuy. 0 or blank: no rebuys."
    ),
    "rebuy_chips": _("Blank: the starting chips."),
    "max_rebuys": _("0 or blank: no limit."),
    "addon_chips": _(
        "Each player may buy these once, in a break before their table's first round after the rebuy levels. "
        "0 or blank: no add-on."
    ),
    "addon_seconds": _("Blank: 60."),
    "bounty_share": _(
        "Progressive knockout: this share of each buy-in is the entrant's bounty; whoever knocks them out is "
        "paid half at once and adds the rest to their own. 0 or blank: no bounties."
    ),
    "min_rating": _(
        "The player's rating in this game's family; a player with no rating counts 1000. Blank: no limit."
    ),
    "max_rating": _("Blank: no limit."),
    "max_rated_results": _("Only players with fewer rated results in this game's family. Blank: anyone."),
    "private": _("Listed to no one; players enter with the code the tournament gets."),
    "deal_seconds": _("Blank: 60."),
    "deal_keep": _("Blank: 10."),
}
# What `setup.validate` refuses without a range to quote, in words for people.
SERVICE_SENTENCES = {
    "name": _("Give the tournament a name of at most 100 characters."),
    "payouts": _(
        "Percentages by place must never rise, add up to 100 and pay no more places than there are entrants."
    ),
    "pcr_schedule": _("Give 1 to 50 levels, each PCR a whole number from 1 to 1,000,000."),
    "starts_at": _("The start must be a date and time in the future."),
    "registration_opens_at": _("Registration must open at or before the start."),
    "rebuy_levels": _("Rebuys can last at most as many levels as the PCR schedule has."),
    **dict.fromkeys(
        ("rebuy_cost", "rebuy_fee", "rebuy_chips", "max_rebuys", "addon_cost", "addon_fee", "addon_chips"),
        _("Set “Rebuys until level” first: rebuy and add-on amounts need a rebuy period."),
    ),
    "max_rating": _("The highest rating admitted cannot be below the lowest."),
    "deal_seconds": _("Give the players 10 to 600 seconds to answer a deal."),
    "deal_keep": _("A deal leaves 0 to 100 percent of the unpaid prizes to play for."),
}
# Every check constraint of `Tournament`, as a sentence on its field (admin_fields.ConstraintMessagesMixin).
TOURNAMENT_CONSTRAINTS = {
    "tournament_kind_known": ((), _("Choose a kind of tournament: quick game, sit-and-go or multi-table.")),
    "tournament_status_known": ((), _("The tournament's status is not one a tournament can have.")),
    "tournament_chips_non_negative": (
        ("buy_in", "fee", "guarantee"),
        _("The buy-in, the fee and the guarantee cannot be negative."),
    ),
    "tournament_entrant_range": (
        ("max_entrants", "min_entrants"),
        _("At least 2 entrants, and the most entrants cannot be fewer than the fewest."),
    ),
    "tournament_one_table_at_most_four": (
        ("max_entrants",),
        _("A quick game or a sit-and-go plays at one table: 4 entrants at most."),
    ),
    "tournament_quick_has_rounds": (("rounds",), _("A quick game plays 1 to 3 rounds.")),
    "tournament_single_has_target": (
        ("target_score",),
        _("A sit-and-go needs a target score of at least 1."),
    ),
    "tournament_multi_has_stack_levels_and_start": (
        ("starting_stack", "rounds_per_level", "starts_at"),
        _("A multi-table tournament needs its starting chips, its rounds per level and its start."),
    ),
    "tournament_rebuy_addon_bounty_ranges": (
        ("rebuy_cost", "rebuy_fee", "rebuy_chips", "addon_cost", "addon_fee", "addon_chips", "bounty_share"),
        _(
            "Rebuy and add-on amounts cannot be negative, a rebuy buys at least 1 chip, a bounty is 0 to 100%."
        ),
    ),
    "tournament_tiebreaks_within_cap": (
        ("tiebreak_rounds",),
        _("More tie-breaker rounds have been played than this allows."),
    ),
    "tournament_tiebreak_has_first_round": ((), _("A tie-breaker needs the number of its first round.")),
    "tournament_satellite_one_target": (
        ("satellite_target", "satellite_template"),
        _("A satellite has one target: a tournament or a recurring tournament, not both."),
    ),
    "tournament_finished_at_only_when_over": (
        (),
        _("Only a finished or cancelled tournament has an end time."),
    ),
    "tournament_rating_band_ordered": (
        ("max_rating",),
        _("The highest rating admitted cannot be below the lowest."),
    ),
    "tournament_private_has_code": (
        ("private",),
        _("A private tournament has a join code; a public one none."),
    ),
    "tournament_deal_settings_in_range": (
        ("deal_keep", "deal_seconds"),
        _("A deal leaves 0 to 100 percent to play for, and gives the players time to answer."),
    ),
}


class TournamentFormBase(ConstraintMessagesMixin, forms.ModelForm):  # type: ignore[type-arg]
    """One kind's form: validates exactly as the API (`setup.validate`, which asks the engine about the preset's
    options); `TournamentAdmin.save_model` saves through `setup.create_tournament` or `update_tournament`."""

    KIND = ""
    CONSTRAINTS = TOURNAMENT_CONSTRAINTS
    ALWAYS_CHECKED = ("kind",)
    payouts = PercentagesField(
        total=PERCENT, required=False, label=LABELS["payouts"], help_text=HELP["payouts"]
    )
    buy_in = forms.IntegerField(label=LABELS["buy_in"], min_value=0, max_value=MAX_BUY_IN)
    fee = forms.IntegerField(label=LABELS["fee"], required=False, min_value=0, max_value=MAX_BUY_IN)
    guarantee = forms.IntegerField(
        label=LABELS["guarantee"], required=False, min_value=0, max_value=MAX_BUY_IN
    )
    min_entrants = forms.IntegerField(label=LABELS["min_entrants"], required=False, min_value=2)
    max_entrants = forms.IntegerField(label=LABELS["max_entrants"], min_value=2)
    multiplier = forms.IntegerField(
        label=LABELS["multiplier"], required=False, min_value=1, max_value=MAX_MULTIPLIER
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.kind = self.KIND
        most = MULTI_MAX_ENTRANTS if self.KIND == TournamentKind.MULTI else ONE_TABLE_MAX_ENTRANTS
        self.fields["max_entrants"].validators.append(MaxValueValidator(most))
        self.fields["max_entrants"].widget.attrs["max"] = most

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        options = self.option_values(cleaned)  # type: ignore[attr-defined]
        if self.errors:
            return cleaned
        values = {name: cleaned.get(name) for name in (*COMMON, *KIND_FIELDS[self.KIND])}
        values.update(kind=self.KIND, options=options)
        target, template = cleaned.get("satellite_target"), cleaned.get("satellite_template")
        values.update(
            satellite_target_id=target.pk if target is not None else None,
            satellite_template_id=template.pk if template is not None else None,
            tickets_only=bool(cleaned.get("tickets_only")),
        )
        for name in DEFAULTED:
            if name in values and values[name] is None:
                del values[name]  # the service's default
        for name in FORMAT_FIELDS:
            if name in values and values[name] is None:
                del values[name]  # off, or the default
        try:
            values, formats = setup.format_settings(values)
            checked = setup.validate(**values)
        except PlayError as exc:
            self.service_error(exc, SERVICE_SENTENCES)  # type: ignore[attr-defined]
            return cleaned
        cleaned.update(options=checked.options, payouts=checked.payouts, name=checked.name)
        self.instance.options = checked.options
        self.checked_settings = {**{name: getattr(checked, name) for name in EDITABLE}, **formats}
        self.checked_settings.update(
            satellite_target_id=checked.satellite_target_id,
            satellite_template_id=checked.satellite_template_id,
            tickets_only=checked.tickets_only,
        )
        return cleaned


class QuickFormBase(TournamentFormBase):
    KIND = TournamentKind.QUICK
    rounds = forms.IntegerField(label=LABELS["rounds"], min_value=1, max_value=setup.MAX_ROUNDS)
    tiebreak_rounds = forms.IntegerField(
        label=LABELS["tiebreak_rounds"], required=False, min_value=0, max_value=setup.MAX_TIEBREAK_ROUNDS
    )

    class Meta:
        model = Tournament
        fields = (*COMMON, *KIND_FIELDS[TournamentKind.QUICK], *SATELLITE_FIELDS)
        labels = LABELS
        help_texts = HELP


class SingleFormBase(TournamentFormBase):
    KIND = TournamentKind.SINGLE
    target_score = forms.IntegerField(
        label=LABELS["target_score"], min_value=1, max_value=setup.MAX_TARGET_SCORE
    )
    tiebreak_rounds = forms.IntegerField(
        label=LABELS["tiebreak_rounds"], required=False, min_value=0, max_value=setup.MAX_TIEBREAK_ROUNDS
    )

    class Meta:
        model = Tournament
        fields = (*COMMON, *KIND_FIELDS[TournamentKind.SINGLE], *SATELLITE_FIELDS)
        labels = LABELS
        help_texts = HELP


def _chips_amount(name: str) -> forms.IntegerField:
    """An optional amount of chips (a rebuy's or the add-on's cost or fee): blank is 0."""
    return forms.IntegerField(label=LABELS[name], required=False, min_value=0, max_value=MAX_BUY_IN)


class MultiFormBase(TournamentFormBase):
    KIND = TournamentKind.MULTI
    deal_seconds = forms.IntegerField(
        label=LABELS["deal_seconds"],
        required=False,
        min_value=10,
        max_value=600,
        help_text=HELP["deal_seconds"],
    )
    deal_keep = forms.IntegerField(
        label=LABELS["deal_keep"], required=False, min_value=0, max_value=100, help_text=HELP["deal_keep"]
    )
    seats = forms.IntegerField(
        label=LABELS["seats"], required=False, min_value=MIN_SEATS, help_text=_("Blank: 4.")
    )
    starting_stack = forms.IntegerField(label=LABELS["starting_stack"], min_value=1, max_value=MAX_BUY_IN)
    pcr_schedule = PercentagesField(label=LABELS["pcr_schedule"], help_text=HELP["pcr_schedule"])
    rounds_per_level = forms.IntegerField(
        label=LABELS["rounds_per_level"], min_value=1, max_value=setup.MAX_ROUNDS_PER_LEVEL
    )
    late_registration_levels = forms.IntegerField(
        label=LABELS["late_registration_levels"],
        required=False,
        min_value=0,
        help_text=HELP["late_registration_levels"],
    )
    rebuy_levels = forms.IntegerField(
        label=LABELS["rebuy_levels"], required=False, min_value=0, help_text=HELP["rebuy_levels"]
    )
    rebuy_cost = _chips_amount("rebuy_cost")
    rebuy_fee = _chips_amount("rebuy_fee")
    rebuy_chips = forms.IntegerField(
        label=LABELS["rebuy_chips"],
        required=False,
        min_value=1,
        max_value=MAX_BUY_IN,
        help_text=HELP["rebuy_chips"],
    )
    max_rebuys = forms.IntegerField(
        label=LABELS["max_rebuys"],
        required=False,
        min_value=0,
        max_value=format_options.MAX_REBUYS,
        help_text=HELP["max_rebuys"],
    )
    addon_cost = _chips_amount("addon_cost")
    addon_fee = _chips_amount("addon_fee")
    addon_chips = forms.IntegerField(
        label=LABELS["addon_chips"],
        required=False,
        min_value=0,
        max_value=MAX_BUY_IN,
        help_text=HELP["addon_chips"],
    )
    addon_seconds = forms.IntegerField(
        label=LABELS["addon_seconds"],
        required=False,
        min_value=0,
        max_value=format_options.MAX_ADDON_SECONDS,
        help_text=HELP["addon_seconds"],
    )
    bounty_share = forms.IntegerField(
        label=LABELS["bounty_share"],
        required=False,
        min_value=0,
        max_value=100,
        help_text=HELP["bounty_share"],
    )

    class Meta:
        model = Tournament
        fields = (*COMMON, *KIND_FIELDS[TournamentKind.MULTI], *SATELLITE_FIELDS)
        labels = LABELS
        help_texts = HELP


FORMS: dict[str, Any] = {
    TournamentKind.QUICK: game_options_form("QuickTournamentForm", QuickFormBase),
    TournamentKind.SINGLE: game_options_form("SingleTournamentForm", SingleFormBase),
    TournamentKind.MULTI: game_options_form("MultiTournamentForm", MultiFormBase),
}
TournamentForm = FORMS[TournamentKind.QUICK]
