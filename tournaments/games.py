"""The games by their names for people, as their families declare them in the engine (each preset's `title`,
each family's `title`: `tournaments/engine/families/<family>/presets.py`), translated through the catalogs in
the active language. The one table of names the admin, the audit pages, the landing page and the ratings read:
a new family adds its names in the engine and their Italian in the catalog, nothing here."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from tournaments.engine import rules
from tournaments.engine.families import FAMILIES


def game_names() -> dict[str, Promise]:
    """Every preset some family plays, by its name for people (docs/rules.md order)."""
    return {preset: gettext_lazy(rules.preset_title(preset)) for preset in rules.implemented_presets()}


def family_names() -> dict[str, Promise]:
    """Every game family (what a rating is kept for) by its name for people, in the engine's order."""
    return {name: gettext_lazy(family.title) for name, family in FAMILIES.items()}


# Read once: importing the engine's families registers every preset.
GAME_NAMES: dict[str, Promise] = game_names()
