"""Celery tasks of the notifications, all on their own queue (`RAMINO_NOTIFICATIONS_QUEUE`, docs/operations.md
"Queues"): thin bodies calling one service, ids in. Their names are stable (services and sources send them by
name). A delivery is retried with a growing delay on a transient failure (`DeliveryFailed`); each records when
it delivered, so a second run sends nothing again."""

from __future__ import annotations

from celery import shared_task

from notifications import delivery, sources

# A delivery's retries: after about 10 s, 20 s, 40 s, ... at most 10 minutes apart (jittered), 8 in all.
RETRY_ON = (delivery.DeliveryFailed,)
RETRY_BACKOFF = 10
RETRY_BACKOFF_MAX = 600
MAX_RETRIES = 8


@shared_task(
    name="notifications.deliver_email",
    autoretry_for=RETRY_ON,
    retry_backoff=RETRY_BACKOFF,
    retry_backoff_max=RETRY_BACKOFF_MAX,
    retry_jitter=True,
    max_retries=MAX_RETRIES,
)
def deliver_email(notification_id: int) -> bool:
    return delivery.send_email(notification_id=notification_id)


@shared_task(
    name="notifications.deliver_push",
    autoretry_for=RETRY_ON,
    retry_backoff=RETRY_BACKOFF,
    retry_backoff_max=RETRY_BACKOFF_MAX,
    retry_jitter=True,
    max_retries=MAX_RETRIES,
)
def deliver_push(notification_id: int) -> int:
    return delivery.send_push(notification_id=notification_id)


# Sent on commit by a tournament's event log (tournaments/tournament/events.py), for the kinds it tells players.
@shared_task(name="notifications.tournament_event", acks_late=True)
def tournament_event(event_id: int) -> int:
    return sources.tournament_event(event_id=event_id)


# Sent on commit by the change hook (sources.on_change) when a new turn begins for a player not at the table.
@shared_task(name="notifications.your_turn", acks_late=True)
def your_turn(game_id: int, turn_version: int) -> bool:
    return sources.your_turn(game_id=game_id, turn_version=turn_version)


@shared_task(name="notifications.tournament_reminders", acks_late=True)
def tournament_reminders() -> int:
    return sources.tournament_reminders()


@shared_task(name="notifications.deal_proposed", acks_late=True)
def deal_proposed(deal_id: int, tournament_id: int, table_id: int, proposer_id: int) -> int:
    return sources.deal_proposed(
        deal_id=deal_id, tournament_id=tournament_id, table_id=table_id, proposer_id=proposer_id
    )
