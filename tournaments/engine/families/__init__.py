"""The game families behind the engine's seam (``family.Family``), by the name a preset gives.

Importing this package registers every family's presets with ``rules``.
"""

from __future__ import annotations

from ..family import Family
from ..rules import Ruleset
from .board import BOARD
from .rummy500 import RUMMY500

FAMILIES: dict[str, Family] = {RUMMY500.name: RUMMY500, BOARD.name: BOARD}


def family_of(rules: Ruleset) -> Family:
    """The family that plays ``rules``."""
    return FAMILIES[rules.family]
