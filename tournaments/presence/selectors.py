"""Who is connected to a game (docs/rules.md "Presence and reconnection")."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import timezone

from tournaments.presence.models import PresenceLease, PresenceReturn


def connected_ids(*, game_id: int, player_ids: Iterable[int] | None = None) -> set[int]:
    """The ids of the players connected to the game now (of `player_ids` only, when given)."""
    leases = PresenceLease.objects.filter(game_id=game_id, expires_at__gt=timezone.now())
    if player_ids is not None:
        leases = leases.filter(player_id__in=list(player_ids))
    return set(leases.values_list("player_id", flat=True))


def connected_names(*, game_id: int) -> set[str]:
    """The usernames of the players connected to the game now."""
    leases = PresenceLease.objects.filter(game_id=game_id, expires_at__gt=timezone.now())
    return set(leases.values_list("player__username", flat=True))


def is_connected(*, game_id: int, player_id: int | None = None, username: str | None = None) -> bool:
    """Whether the player (by id, or by username) is connected to the game now: a socket of theirs follows it,
    or they long-polled its events lately. Such a player is looking at the table (notifications' "your turn")."""
    leases = PresenceLease.objects.filter(game_id=game_id, expires_at__gt=timezone.now())
    if player_id is not None:
        leases = leases.filter(player_id=player_id)
    elif username is not None:
        leases = leases.filter(player__username=username)
    else:
        raise ValueError("is_connected needs a player_id or a username")
    return leases.exists()


def latest_return(*, game_id: int, player_id: int) -> PresenceReturn | None:
    return PresenceReturn.objects.filter(game_id=game_id, player_id=player_id).first()
