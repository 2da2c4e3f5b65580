"""The reconnection allowance (docs/rules.md "Presence and reconnection"): once per round, when a disconnected
player's turn clock and time bank have run out, the server waits the table's `reconnect_seconds` more before it
plays for them. A connected player gets none, nor does a seat already `leaving` or `absent`, nor a practice
table (no stake; its bots are never connected). Waiting is no timeout: the turn clock fires again at the new
deadline, and only then, if the player has not played, does the server play and count the timeout."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Round, Seat, SeatStatus, Table
from tournaments.live.storage.events import add_event, store_game
from tournaments.live.tables import policy
from tournaments.live.tables.settings import Clocks
from tournaments.presence import selectors as presence
from tournaments.presence.models import ReconnectAllowance

EVENT = "reconnect_wait"


def wait_for_reconnect(
    *,
    game: Game,
    table: Table,
    round_: Round,
    targets: Sequence[str],
    seats: Mapping[str, Seat],
    clocks: Clocks,
    now: datetime,
) -> bool:
    """When one of `targets` (the players the turn clock would play for) is owed the allowance, grant it: the
    turn's deadline moves `reconnect_seconds` on, a `reconnect_wait` event says so, and the clock is armed
    again. True when it was granted (the caller plays nothing now). Caller holds the game lock."""
    if clocks.reconnect_seconds <= 0 or policy.table_kind(table) == policy.PRACTICE_TABLES:
        return False
    candidates = {
        seat.player_id: name
        for name, seat in seats.items()
        if name in targets and seat.status == SeatStatus.ACTIVE
    }
    if not candidates:
        return False
    used = set(
        ReconnectAllowance.objects.filter(round=round_, player_id__in=list(candidates)).values_list(
            "player_id", flat=True
        )
    )
    owed = [pid for pid in candidates if pid not in used]
    if not owed:
        return False
    connected = presence.connected_ids(game_id=game.pk, player_ids=owed)
    waiting = sorted(pid for pid in owed if pid not in connected)
    if not waiting:
        return False
    until = now + timedelta(seconds=clocks.reconnect_seconds)
    ReconnectAllowance.objects.bulk_create(
        [ReconnectAllowance(round=round_, player_id=pid, granted_at=now, until=until) for pid in waiting]
    )
    game.turn_deadline = until
    game.clock_due_at = until
    add_event(
        game,
        round_,
        EVENT,
        {
            "round": round_.number,
            "players": sorted(candidates[pid] for pid in waiting),
            "deadline": until.isoformat(),
        },
    )
    store_game(game)
    dispatch.enqueue(
        dispatch.TURN_CLOCK,
        [game.pk, game.turn_version],
        clocks.reconnect_seconds,
        queue=dispatch.queue_for(table),
    )
    return True
