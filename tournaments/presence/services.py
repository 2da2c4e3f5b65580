"""Taking, renewing and ending presence leases (models.py), and the returns they reveal.

A lease is written only when something changes who is connected, or when it is a third of its life from running
out: a socket process renews all of its sockets' leases in one statement (per 500 sockets); a long-poll writes only when its lease has less than
`RAMINO_PRESENCE_POLL_SECONDS` minus 10 s left (one write per long-poll of 25 s at most)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.live import fanout
from tournaments.live.models import GameEvent
from tournaments.presence.models import PresenceLease, PresenceReturn

POLL = "poll"


def _server_played(*, game_id: int, player_id: int, since: datetime) -> bool:
    """Whether the server played a move for the player since `since` (filtered in Python: JSON lookups are not
    portable to the embedded SQLite default)."""
    username = get_user_model().objects.filter(pk=player_id).values_list("username", flat=True).first()
    moves = GameEvent.objects.filter(game_id=game_id, kind="move", created_at__gte=since).values_list(
        "public", flat=True
    )
    return any(m.get("player") == username and m.get("server_played") for m in moves)


def _hold(*, game_id: int, player_id: int, holder: str, until: datetime, now: datetime) -> bool:
    """Write `holder`'s lease until `until`. True when the player was not connected to the game before (then
    their return is recorded, if they had been connected before and the server may have played for them)."""
    leases = list(
        PresenceLease.objects.filter(game_id=game_id, player_id=player_id).values_list("holder", "expires_at")
    )
    was_connected = any(expires > now for _holder, expires in leases)
    if not was_connected and leases:
        away_since = max(expires for _holder, expires in leases)
        # A gap in which the server played nothing for the player (a flicker: a socket back a moment after the
        # long-poll it fell back to) leaves the return before it standing, so its summary is not lost.
        if _server_played(game_id=game_id, player_id=player_id, since=away_since) or not (
            PresenceReturn.objects.filter(game_id=game_id, player_id=player_id).exists()
        ):
            PresenceReturn.objects.update_or_create(
                game_id=game_id,
                player_id=player_id,
                defaults={"away_since": away_since, "back_at": now},
            )
    # Leases run out are kept only to know when the connection dropped; once back, they are forgotten.
    PresenceLease.objects.filter(game_id=game_id, player_id=player_id, expires_at__lte=now).exclude(
        holder=holder
    ).delete()
    updated = PresenceLease.objects.filter(game_id=game_id, player_id=player_id, holder=holder).update(
        expires_at=until
    )
    if not updated:
        try:
            with transaction.atomic():
                PresenceLease.objects.create(
                    game_id=game_id, player_id=player_id, holder=holder, expires_at=until
                )
        except IntegrityError:  # the same holder, at once (a long-poll and its retry)
            PresenceLease.objects.filter(game_id=game_id, player_id=player_id, holder=holder).update(
                expires_at=until
            )
    return not was_connected


def socket_subscribed(*, game_id: int, player_id: int, holder: str) -> bool:
    """A socket of the player follows the game. True when that connects the player (the others are told)."""
    now = timezone.now()
    until = now + timedelta(seconds=float(settings.RAMINO_PRESENCE_SOCKET_LEASE_SECONDS))
    with transaction.atomic():
        changed = _hold(game_id=game_id, player_id=player_id, holder=holder, until=until, now=now)
        if changed:
            fanout.presence_on_commit(game_id=game_id)
    return changed


# Holders renewed in one statement at most (a socket process renews all of its sockets' leases at once).
_HOLDERS_PER_STATEMENT = 500


def sockets_renew(*, holders: Iterable[str]) -> int:
    """The sockets (by channel name) still follow their games: their running leases run on, in one statement
    per 500 sockets (a socket process renews all of its sockets' leases at once, live_room/sweep.py). A lease
    ended (its socket left the game) or run out is not revived: a socket whose lease ran out takes it again
    (`socket_subscribed`), which records the player's return. Returns how many leases were renewed."""
    now = timezone.now()
    until = now + timedelta(seconds=float(settings.RAMINO_PRESENCE_SOCKET_LEASE_SECONDS))
    wanted = sorted(set(holders))
    renewed = 0
    for start in range(0, len(wanted), _HOLDERS_PER_STATEMENT):
        chunk = wanted[start : start + _HOLDERS_PER_STATEMENT]
        renewed += PresenceLease.objects.filter(holder__in=chunk, expires_at__gt=now).update(expires_at=until)
    return renewed


def socket_left(*, holder: str, game_ids: Iterable[int] | None = None) -> list[int]:
    """A socket no longer follows `game_ids` (None: any game; it closed). Its leases end now (kept, to know when
    the connection dropped). Returns the games where that disconnected the player (the others are told)."""
    now = timezone.now()
    with transaction.atomic():
        leases = PresenceLease.objects.filter(holder=holder, expires_at__gt=now)
        if game_ids is not None:
            leases = leases.filter(game_id__in=list(game_ids))
        ended = list(leases.values_list("game_id", "player_id"))
        if not ended:
            return []
        leases.update(expires_at=now)
        still = set(
            PresenceLease.objects.filter(
                game_id__in=[game for game, _player in ended], expires_at__gt=now
            ).values_list("game_id", "player_id")
        )
        dropped = sorted({game for game, player in ended if (game, player) not in still})
        for game_id in dropped:
            fanout.presence_on_commit(game_id=game_id)
    return dropped


def polled(*, game_id: int, player_id: int) -> bool:
    """The player long-polled the game's events: connected for `RAMINO_PRESENCE_POLL_SECONDS`. True when that
    connects the player."""
    now = timezone.now()
    seconds = float(settings.RAMINO_PRESENCE_POLL_SECONDS)
    fresh = now + timedelta(seconds=max(0.0, seconds - 10))
    if PresenceLease.objects.filter(
        game_id=game_id, player_id=player_id, holder=POLL, expires_at__gte=fresh
    ).exists():
        return False
    with transaction.atomic():
        changed = _hold(
            game_id=game_id,
            player_id=player_id,
            holder=POLL,
            until=now + timedelta(seconds=seconds),
            now=now,
        )
        if changed:
            fanout.presence_on_commit(game_id=game_id)
    return changed


# A lease that ran out this long ago says nothing a player's return still needs ("I'm back" is for a drop
# and a return within a game's life).
FORGET_AFTER = timedelta(days=1)


def forget(*, before: datetime | None = None) -> int:
    """Delete leases that ran out before `before` (default: `FORGET_AFTER` ago; a player who never came back).
    Returns how many."""
    if before is None:
        before = timezone.now() - FORGET_AFTER
    deleted, _per_model = PresenceLease.objects.filter(expires_at__lt=before).delete()
    return int(deleted)
