"""Where notifications come from: live play's turns, a tournament's event log, the beat's reminder, and a deal
proposed at a table. Live play and the tournaments never import this module: live play calls the change hook
registered here at start-up (`register`), a tournament's event log sends `notifications.tournament_event` by
name, and the deals (a later issue) will send `notifications.deal_proposed` by name (or call `deal_proposed`).

Each function here is idempotent: a notification's `key` names its cause, and the same cause makes one."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from notifications import services
from notifications.models import Notification, NotificationKind
from tournaments.live import dispatch, table_policy
from tournaments.live.models import Game, Seat, SeatStatus, Table
from tournaments.presence import selectors as presence
from tournaments.tournament.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentEvent,
    TournamentStatus,
)

YOUR_TURN = "notifications.your_turn"
TOURNAMENT_EVENT = "notifications.tournament_event"
DEAL_PROPOSED = "notifications.deal_proposed"
# The tournament events that tell players something (tournaments/tournament/events.py sends only these).
TOURNAMENT_EVENT_KINDS = frozenset({"started", "moved", "finished"})
REMINDER_MINUTES = 5


def register() -> None:
    """At start-up (NotificationsConfig.ready): "your turn" at ring tables and tournaments' tables (practice
    tables are played against bots, their player at the table)."""
    table_policy.register_change_hook(table_policy.RING_TABLES, on_change)
    table_policy.register_change_hook(table_policy.TOURNAMENT_TABLES, on_change)


def _queue() -> str:
    return str(settings.RAMINO_NOTIFICATIONS_QUEUE)


def on_change(*, game: Game, table: Table, state: Any) -> None:
    """Live play's change hook, in the move's transaction: when a new turn begins (`arm_clocks` set its
    `turn_version` to this very version), and its player is not connected to the game (presence: no socket of
    theirs follows it and they have not long-polled it lately, tournaments/presence/), the task that tells them
    is enqueued on commit. One indexed read per new turn; nothing for the other moves of a turn."""
    player = game.turn_player
    if not player or game.turn_version != game.version:
        return
    if presence.is_connected(game_id=game.pk, username=player):
        return
    dispatch.enqueue(YOUR_TURN, [game.pk, game.turn_version], 0, queue=_queue())


def your_turn(*, game_id: int, turn_version: int) -> bool:
    """Tell the turn's player, if the turn is still theirs, they are still seated and playing (an absent
    player's turns are the server's), and still not connected to the game (looking at the table)."""
    game = Game.objects.filter(pk=game_id).values("turn_player", "turn_version", "table_id").first()
    if game is None or not game["turn_player"] or game["turn_version"] != turn_version:
        return False
    seat = (
        Seat.objects.filter(
            table_id=game["table_id"], player__username=game["turn_player"], status=SeatStatus.ACTIVE
        )
        .values("player_id", "table__tournament_id", "table__tournament__name")
        .first()
    )
    if seat is None or presence.is_connected(game_id=game_id, player_id=seat["player_id"]):
        return False
    data: dict[str, Any] = {"table": game["table_id"], "game": game_id}
    if seat["table__tournament_id"]:
        data.update(tournament_id=seat["table__tournament_id"], tournament=seat["table__tournament__name"])
    told = services.notify(
        user_id=seat["player_id"],
        kind=NotificationKind.YOUR_TURN,
        key=f"game:{game_id}:turn:{turn_version}",
        data=data,
    )
    return told is not None


def tournament_event(*, event_id: int) -> int:
    """The players a tournament's event concerns: `started` its entrants, `moved` the players moved to
    another table, `finished` those who won a prize. How many were told."""
    event = TournamentEvent.objects.select_related("tournament").filter(pk=event_id).first()
    if event is None or event.kind not in TOURNAMENT_EVENT_KINDS:
        return 0
    tournament = event.tournament
    base = {"tournament_id": tournament.pk, "tournament": tournament.name}
    told = 0
    if event.kind == "started":
        entries = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING)
        for player_id, table_id in entries.values_list("player_id", "table_id").order_by("pk"):
            data = {**base, "table": table_id} if table_id else base
            if services.notify(
                user_id=player_id,
                kind=NotificationKind.TOURNAMENT_STARTED,
                key=f"tournament:{tournament.pk}:started",
                data=data,
            ):
                told += 1
    elif event.kind == "moved":
        moves = {int(m["entry"]): m for m in event.data.get("moves", []) if "entry" in m}
        players = dict(
            TournamentEntry.objects.filter(pk__in=list(moves)).values_list("pk", "player_id").order_by("pk")
        )
        for entry_id, player_id in players.items():
            if services.notify(
                user_id=player_id,
                kind=NotificationKind.TABLE_MOVED,
                key=f"tournament:{tournament.pk}:event:{event.version}:entry:{entry_id}",
                data={**base, "table": moves[entry_id].get("to")},
            ):
                told += 1
    else:  # finished
        winners = TournamentEntry.objects.filter(tournament=tournament, prize__gt=0).order_by("pk")
        for player_id, prize, place in winners.values_list("player_id", "prize", "place"):
            if services.notify(
                user_id=player_id,
                kind=NotificationKind.PRIZE_WON,
                key=f"tournament:{tournament.pk}:prize",
                data={**base, "amount": int(prize), "place": place},
            ):
                told += 1
    return told


def tournament_reminders(*, now: Any = None) -> int:
    """The beat job (every 30 s): the entrants of each tournament starting within the next 5 minutes are told
    once (`tournament:<id>:soon`). How many were told."""
    now = now or timezone.now()
    soon = Tournament.objects.filter(
        status__in=(TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING),
        starts_at__gt=now,
        starts_at__lte=now + timedelta(minutes=REMINDER_MINUTES),
    ).order_by("pk")
    told = 0
    for tournament in soon:
        key = f"tournament:{tournament.pk}:soon"
        already = Notification.objects.filter(key=key).values("user_id")
        players = (
            TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
            .exclude(player_id__in=already)
            .values_list("player_id", flat=True)
            .order_by("pk")
        )
        told += services.notify_many(
            user_ids=list(players),
            kind=NotificationKind.TOURNAMENT_SOON,
            key=key,
            data={
                "tournament_id": tournament.pk,
                "tournament": tournament.name,
                "starts_at": tournament.starts_at.isoformat() if tournament.starts_at else None,
            },
        )
    return told


def deal_proposed(*, deal_id: int, tournament_id: int, table_id: int, proposer_id: int) -> int:
    """A deal proposed at a tournament's table (the deals come in a later issue: they call this, or send
    `notifications.deal_proposed` by name on commit): every other player seated at that table is told once.
    How many were told."""
    tournament = Tournament.objects.filter(pk=tournament_id).values("name").first()
    if tournament is None:
        return 0
    seated = Seat.objects.filter(table_id=table_id, table__tournament_id=tournament_id).exclude(
        status=SeatStatus.LEFT
    )
    proposer = get_user_model().objects.filter(pk=proposer_id).values_list("username", flat=True).first()
    return services.notify_many(
        user_ids=list(
            seated.exclude(player_id=proposer_id).values_list("player_id", flat=True).order_by("pk")
        ),
        kind=NotificationKind.DEAL_PROPOSED,
        key=f"deal:{deal_id}",
        data={
            "tournament_id": tournament_id,
            "tournament": tournament["name"],
            "table": table_id,
            "deal": deal_id,
            "proposer": proposer or "",
        },
    )


def send_deal_proposed(*, deal_id: int, tournament_id: int, table_id: int, proposer_id: int) -> None:
    """For the deals' service: tell the table once the proposal commits (the task on the notifications' queue)."""
    dispatch.enqueue(DEAL_PROPOSED, [deal_id, tournament_id, table_id, proposer_id], 0, queue=_queue())
