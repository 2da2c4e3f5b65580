"""Presence reads and writes in plain synchronous code, run in the socket tier's reading threads."""

from __future__ import annotations

from tournaments.live.models import SEATED_STATUSES, Seat
from tournaments.presence import selectors, services


def snapshot(game_id: int) -> dict[str, bool]:
    """Each seated player of the game's table → connected or not (public, as the seat's status is)."""
    names = Seat.objects.filter(table__live_game=game_id, status__in=SEATED_STATUSES).values_list(
        "player__username", flat=True
    )
    connected = selectors.connected_names(game_id=game_id)
    return {name: name in connected for name in sorted(names)}


def subscribed(game_id: int, player_id: int, holder: str) -> bool:
    return services.socket_subscribed(game_id=game_id, player_id=player_id, holder=holder)


def left(holder: str, game_ids: list[int] | None) -> list[int]:
    return services.socket_left(holder=holder, game_ids=game_ids)


def renew(holders: list[str]) -> int:
    return services.sockets_renew(holders=holders)
