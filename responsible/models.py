"""The app's models live in its concern folders; Django finds them through this module."""

from responsible.breaks.models import Break
from responsible.limits.models import LimitChange
from responsible.sessions.models import PlaySession, RealityCheck, RealityCheckSetting
from responsible.verification.models import DateOfBirth, Verification

__all__ = [
    "Break",
    "DateOfBirth",
    "LimitChange",
    "PlaySession",
    "RealityCheck",
    "RealityCheckSetting",
    "Verification",
]
