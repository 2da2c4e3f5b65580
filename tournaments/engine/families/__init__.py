"""The game families behind the engine's seam (``family.Family``), by the name a preset gives.

Importing this package registers every family's presets with ``rules``.
"""

from __future__ import annotations

from ..family import Family
from ..move_fields import FIELD_SCHEMAS
from ..rules import Ruleset
from .basic import BASIC
from .board import BOARD
from .rummy500 import RUMMY500

FAMILIES: dict[str, Family] = {RUMMY500.name: RUMMY500, BASIC.name: BASIC, BOARD.name: BOARD}


def family_of(rules: Ruleset) -> Family:
    """The family that plays ``rules``."""
    return FAMILIES[rules.family]


def move_fields() -> dict[str, frozenset[str]]:
    """Every move type of every family with the fields (``type`` included) it allows, in the families'
    order. A type two families share allows what either allows; each family refuses the rest."""
    fields: dict[str, frozenset[str]] = {}
    for family in FAMILIES.values():
        for mtype, allowed in family.move_fields.items():
            undescribed = allowed - {"type"} - set(FIELD_SCHEMAS)
            if undescribed:
                raise ValueError(
                    f"{family.name}'s move {mtype!r} takes {sorted(undescribed)}: describe them in FIELD_SCHEMAS"
                )
            fields[mtype] = fields.get(mtype, frozenset()) | allowed
    return fields
