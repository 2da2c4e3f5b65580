"""Query parameters, read in one dialect: those the API itself reads (`format`, `page`, `page_size`, `cursor`)
and the views' own (an event version `after`, a wait in seconds `wait`). Junk in any is a 400
(`request.invalid_parameter`, `details.parameter` naming it: `InvalidParameter`), never silently replaced by a
default.

Kept apart from api.exceptions, which imports DRF's views: the negotiation class, which DRF's views
import, raises these.
"""

from __future__ import annotations

import math
import re
from typing import Any

from django.utils.translation import gettext_noop as N_
from rest_framework import exceptions, status
from rest_framework.request import Request

from api.errors import translate_message

_DIGITS = re.compile(r"[0-9]+")
# A JSON number: no `inf`, `nan`, `1_000`, `0x10` or spaces, which Python's float() would take.
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")
# Past 18 digits no page or size makes sense (and int() refuses past 4300).
MAX_POSITIVE = 10**18 - 1


class InvalidParameter(exceptions.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "A query parameter is invalid."
    default_code = "invalid_parameter"

    def __init__(self, parameter: str, message: str, params: dict[str, Any] | None = None) -> None:
        """`message`: English (a msgid, `%(name)s` placeholders filled from `params`), answered in the
        request's language."""
        super().__init__(translate_message(message, params))
        self.parameter = parameter


def positive_int_param(request: Request, name: str, *, maximum: int | None = None) -> int | None:
    """The query parameter `name` as an integer in 1..maximum; None when absent or empty."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if not _DIGITS.fullmatch(raw) or int(raw) < 1:
        raise InvalidParameter(name, N_("%(name)s must be a positive integer."), {"name": name})
    limit = maximum if maximum is not None else MAX_POSITIVE
    if len(raw) > 18 or int(raw) > limit:
        raise InvalidParameter(
            name, N_("%(name)s must be at most %(limit)s."), {"name": name, "limit": limit}
        )
    return int(raw)


def number_param(request: Request, name: str, default: float, *, minimum: float, maximum: float) -> float:
    """A finite JSON number (no `inf`, `nan`, `1_000` or spaces, which Python's float() would take, nor one
    too large for a double, `1e309`, which it would read as infinity), at least `minimum`; above `maximum` it is
    read as `maximum` (a wait is capped, not refused)."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    if not _NUMBER.fullmatch(raw):
        raise InvalidParameter(name, N_("%(name)s must be a number."), {"name": name})
    value = float(raw)
    if not math.isfinite(value):
        raise InvalidParameter(name, N_("%(name)s must be a finite number."), {"name": name})
    if value < minimum:
        raise InvalidParameter(
            name, N_("%(name)s must be at least %(minimum)s."), {"name": name, "minimum": minimum}
        )
    return min(value, maximum)


def version_param(request: Request, name: str) -> int:
    """An event version: an integer from 0 (the default) to `MAX_POSITIVE`."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return 0
    if not raw.isascii() or not raw.isdigit():
        raise InvalidParameter(name, N_("%(name)s must be an integer of at least 0."), {"name": name})
    if len(raw) > 18 or int(raw) > MAX_POSITIVE:
        raise InvalidParameter(
            name, N_("%(name)s must be at most %(limit)s."), {"name": name, "limit": MAX_POSITIVE}
        )
    return int(raw)
