"""Form fields and checks the admin modules share: the game as a choice of the presets, each of the preset's
options as a field of its own (`GameOptionsForm`), percentages as a comma-separated list, and the database's
check constraints as a sentence on the field they concern (`ConstraintMessagesForm`), never by their name."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import CheckConstraint, QuerySet
from django.http import HttpRequest
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournaments.engine import rules as engine_rules
from tournaments.errors import PlayError
from tournaments.games import game_names
from tournaments.live import CLOCK_OPTIONS, clock_range


def game_choices() -> list[tuple[str, Any]]:
    """The presets some family plays, each by its name for people."""
    return list(game_names().items())


class GameFilter(admin.SimpleListFilter):
    """The admin lists' filter by game, each game by its name for people (not its code)."""

    title = _("game")
    parameter_name = "game"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return game_choices()

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(game=self.value()) if self.value() else queryset


OPTION_LABELS: dict[str, Promise] = {
    "turn_seconds": _("Seconds per turn"),
    "time_bank_seconds": _("Time bank (seconds)"),
    "max_timeouts": _("Timeouts in a row before a player is set absent"),
    "max_timeouts_per_round": _("Timeouts in one round before a player is set absent"),
    "reconnect_seconds": _("Seconds a disconnected player is waited for, once per round"),
    "target_score": _("Target score"),
    "rounds": _("Number of rounds"),
    "stall_turns": _("Turns without progress that end a round"),
    "hand_size_two_players": _("Cards each with two players"),
    "top_discard_must_be_used": _("A lone card taken from the discard pile must be used that turn"),
    "final_discard_required": _("Going out needs a final discard"),
    "ace_high": _("Ace high (Q-K-A is a run)"),
    "round_the_corner": _("Runs round the corner (K-A-2)"),
    "joker_swap": _("A joker on the table may be exchanged"),
    "swapped_joker_must_be_melded": _("An exchanged joker must be melded that turn"),
    "low_cards_five": _("Cards 2 to 9 count 5"),
    "rummy_calls": _("Rummy calls"),
    "rummy_in_the_pile": _("Rummy calls on the discard pile"),
    "rummy_call_seconds": _("Seconds to call rummy"),
    "multiple_melds_per_turn": _("Several melds per turn"),
    "going_rummy": _("Going out in one turn"),
    "lay_off_requires_own_meld": _("Laying off needs a meld of one's own first"),
    "restock": _("When the stock runs out"),
    "restock_limit": _("Restocks per round"),
    "scoring": _("Scoring"),
    "joker_penalty": _("Points of a joker left in hand"),
    "opening_minimum": _("Points needed to open (0: no opening rule)"),
    "extra_jokers": _("Extra jokers"),
}
CHOICE_LABELS: dict[str, Promise] = {
    "double": _("double the hands"),
    "plus10": _("10 points more"),
    "off": _("no bonus"),
    "shuffle": _("shuffle the discard pile"),
    "turn": _("turn the discard pile over"),
    "none": _("no restock"),
    "winner": _("the winner scores the others' hands"),
    "penalty": _("penalty points (lowest total wins)"),
}
OPTION_PREFIX = "option_"


def _option_specs() -> dict[str, tuple[Any, ...]]:
    """Every option any preset (or the table's clock) takes, with its widest range, and the presets taking it."""
    specs: dict[str, tuple[Any, ...]] = {name: ("int", *clock_range(name)) for name in CLOCK_OPTIONS}
    for preset in engine_rules.implemented_presets():
        for name in engine_rules.option_names(preset):
            spec = engine_rules._REGISTRY[preset].options[name]
            known = specs.get(name)
            if known is not None and known[0] != "choice" and spec[0] != "choice" and known[0] != "bool":
                spec = (spec[0], min(known[1], spec[1]), max(known[-1], spec[-1]))
            specs[name] = tuple(spec)
    return specs


def presets_taking(name: str) -> list[str]:
    if name in CLOCK_OPTIONS:
        return list(engine_rules.implemented_presets())
    return [p for p in engine_rules.implemented_presets() if name in engine_rules.option_names(p)]


def _option_field(name: str, spec: tuple[Any, ...]) -> forms.Field:
    label: Any = OPTION_LABELS.get(name, name.replace("_", " "))
    attrs = {"data-option": name, "data-games": " ".join(presets_taking(name))}
    if spec[0] == "choice":
        choices = [("", _("the game's default")), *((c, CHOICE_LABELS.get(c, c)) for c in spec[1])]
        return forms.ChoiceField(
            label=label, required=False, choices=choices, widget=forms.Select(attrs=attrs)
        )
    if spec[0] == "bool":
        choices = [("", _("the game's default")), ("true", _("yes")), ("false", _("no"))]
        return forms.TypedChoiceField(
            label=label,
            required=False,
            choices=choices,
            coerce=lambda value: value == "true",
            empty_value=None,
            widget=forms.Select(attrs=attrs),
        )
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=spec[1],
        max_value=spec[2],
        widget=forms.NumberInput(attrs={**attrs, "placeholder": _("default")}),
    )


def option_fields() -> dict[str, forms.Field]:
    return {OPTION_PREFIX + name: _option_field(name, spec) for name, spec in _option_specs().items()}


class GameOptionsMixin:
    """For a model form whose `game` is a choice of the presets and whose `options` are one field each (`option_*`):
    left blank, an option keeps the game's default; an option the chosen game does not take is refused. Build
    the form with `game_options_form` (the fields must be declared for the admin's form factory)."""

    instance: Any
    fields: dict[str, forms.Field]
    errors: Any
    add_error: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stored = self.stored_options()
        for name in option_fields():
            field = self.fields.get(name)
            if field is None:
                continue
            value = stored.get(name.removeprefix(OPTION_PREFIX))
            if isinstance(value, bool):
                field.initial = "true" if value else "false"
            elif value is not None:
                field.initial = value

    def stored_options(self) -> dict[str, Any]:
        """The options the object being changed holds (none for a new one); a recurring template holds them in
        its tournament settings."""
        if self.instance.pk is None:
            return {}
        settings = getattr(self.instance, "tournament_settings", None)
        return dict((settings.get("options") if settings is not None else self.instance.options) or {})

    def option_values(self, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        """The options set (blank ones left out), each checked against the chosen game."""
        game = cleaned.get("game")
        options: dict[str, Any] = {}
        for name in option_fields():
            value = cleaned.get(name)
            if value is None or value == "":
                continue
            option = name.removeprefix(OPTION_PREFIX)
            if game and option not in CLOCK_OPTIONS and option not in engine_rules.option_names(game):
                self.add_error(name, _("This game has no such option; leave it blank."))
                continue
            options[option] = value
        return options

    def service_error(self, exc: PlayError, sentences: Mapping[str, Any] | None = None) -> None:
        """A service's refusal, on the field it names (an option's own field when it names one), in words for
        people: `sentences[field]`, else the range the service gave, else the service's message."""
        field = exc.details.get("field")
        option = exc.details.get("option")
        if field == "options" and option and OPTION_PREFIX + option in self.fields:
            field = OPTION_PREFIX + option
        message: Any = exc.message
        if sentences and isinstance(field, str) and field in sentences:
            message = sentences[field]
        elif "minimum" in exc.details and "maximum" in exc.details:
            message = _("Choose a whole number from %(minimum)s to %(maximum)s.") % {
                "minimum": number_format(exc.details["minimum"], force_grouping=True),
                "maximum": number_format(exc.details["maximum"], force_grouping=True),
            }
        self.add_error(field if field in self.fields and field not in self.errors else None, message)


def game_options_form(name: str, *bases: type) -> Any:
    """A model form class with `GameOptionsMixin`, the game select and every option field declared."""
    attrs: dict[str, Any] = {
        "__module__": bases[0].__module__,
        "game": forms.ChoiceField(label=_("Game"), choices=game_choices),
        **option_fields(),
    }
    metaclass: Any = type(forms.ModelForm)
    return metaclass(name, (GameOptionsMixin, *bases), attrs)


def option_field_names() -> list[str]:
    return list(option_fields())


_NUMBERS = re.compile(r"^\[?\s*\d+(\s*,\s*\d+)*\s*,?\s*\]?$")


class PercentagesField(forms.CharField):
    """A list of whole numbers written "70, 30" (a list in brackets is read too); `total`, if set, is the sum
    they must reach."""

    def __init__(self, *, total: int | None = None, **kwargs: Any) -> None:
        self.total = total
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return value

    def to_python(self, value: Any) -> list[int] | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        if not _NUMBERS.match(text) or len(text) > 5000:
            raise ValidationError(_("Write whole numbers separated by commas, e.g. 70, 30."), code="invalid")
        numbers = [int(n) for n in re.findall(r"\d+", text)]
        if self.total is not None and sum(numbers) != self.total:
            raise ValidationError(
                _("The percentages add up to %(sum)s; they must add up to %(total)s."),
                code="total",
                params={"sum": sum(numbers), "total": self.total},
            )
        return numbers


class ConstraintMessagesMixin:
    """For a model form: checks the model's check constraints itself and shows a violated one as the sentence
    `CONSTRAINTS[name]` gives, on the first of its fields that is empty or negative (else on its first field);
    Django would show `Constraint "name" is violated.`. A field already refused keeps its own error. The
    constraints on fields the form does not set are the services' business (`ALWAYS_CHECKED`: fields the form
    fixes itself, such as a tournament's kind)."""

    CONSTRAINTS: Mapping[str, tuple[tuple[str, ...], Promise]] = {}
    ALWAYS_CHECKED: tuple[str, ...] = ()
    instance: Any
    fields: dict[str, forms.Field]
    errors: Any
    add_error: Any

    def clean(self) -> dict[str, Any]:
        # The constraints first, on a copy holding the form's values: a violated one says so in its sentence
        # (the services, asked next, would say it in their own terms).
        cleaned: dict[str, Any] = super().clean() or {}  # type: ignore[misc]
        probe = copy.copy(self.instance)
        for f in self.instance._meta.fields:
            if f.name in cleaned and f.name in self.fields:
                setattr(probe, f.attname, cleaned[f.name])
        self.check_constraints(probe)
        return cleaned

    def _post_clean(self) -> None:
        # Django's, with the constraints left to `check_constraints`.
        self.instance.validate_constraints = lambda exclude=None: None
        try:
            super()._post_clean()  # type: ignore[misc]
        finally:
            del self.instance.validate_constraints
        self.check_constraints(self.instance)

    def check_constraints(self, instance: Any) -> None:
        exclude = {
            f.name
            for f in self.instance._meta.fields
            if (f.name not in self.fields and f.name not in self.ALWAYS_CHECKED) or f.name in self.errors
        }
        for constraint in self.instance._meta.constraints:
            if not isinstance(constraint, CheckConstraint):
                continue
            try:
                constraint.validate(type(instance), instance, exclude=exclude)  # type: ignore[attr-defined]
            except ValidationError:
                self.add_constraint_error(constraint.name, instance)

    def add_constraint_error(self, name: str, instance: Any) -> None:
        fields, message = self.CONSTRAINTS.get(name, ((), _("These settings do not go together.")))
        shown = [f for f in fields if f in self.fields]
        suspects = [f for f in shown if _suspect(getattr(instance, f, None))]
        target: str | None = (suspects or shown)[0] if (suspects or shown) else None
        if target is not None and target in self.errors:
            return  # the field already says what is wrong
        if target is None and self.errors.get(NON_FIELD_ERRORS):
            return
        self.add_error(target, message)


def _suspect(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and value < 0)


def options_text(options: Mapping[str, Any] | None) -> str:
    """A stored options object in words: "Seconds per turn: 40; Target score: 500"."""
    if not options:
        return str(_("the game's defaults"))
    shown = []
    for name, value in sorted(options.items()):
        if isinstance(value, bool):
            value = _("yes") if value else _("no")
        elif isinstance(value, str):
            value = CHOICE_LABELS.get(value, value)
        shown.append(f"{OPTION_LABELS.get(name, name)}: {value}")
    return "; ".join(shown)


class OptionsField(forms.JSONField):
    """Django's JSON field lets a ValueError other than a syntax error through (a number too long to
    convert); here any undecodable text is a form error (a recurring template's settings)."""

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
