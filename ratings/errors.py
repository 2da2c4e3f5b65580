"""Errors of the players, profiles and leaderboards API, and the codes they answer (`RatingsCode`)."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_noop as N_

from api.errors import ServiceError, describe_codes


class RatingsCode(StrEnum):
    PLAYER_NOT_FOUND = "player.not_found"


class PlayerNotFound(ServiceError):
    code = RatingsCode.PLAYER_NOT_FOUND
    http_status = 404
    default_message = "No such player."


describe_codes({RatingsCode.PLAYER_NOT_FOUND: N_("No such player.")})
