"""Where notifications come from: a new turn for a player not looking at the table, a tournament's events
(started, moved, finished), the beat's 5-minute reminder, a deal proposed at a table. Each cause tells once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from notifications import sources
from notifications.models import Notification, NotificationKind
from tests.tournaments.multi_table.helpers import new_multi, register_all, seated
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Seat, SeatStatus
from tournaments.live.rounds import start as round_start
from tournaments.presence import services as presence
from tournaments.presence.models import PresenceLease
from tournaments.tournament import admin_actions, events
from tournaments.tournament.models import TournamentEvent, TournamentStatus

pytestmark = pytest.mark.django_db

TURN = "notifications.your_turn"


def _ring_game(make_table: Any, make_player: Any, client_for: Any) -> tuple[Game, dict[str, Any]]:
    table = make_table()
    users = {name: make_player(name) for name in ("ann", "bob")}
    for user in users.values():
        client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200})
    return Game.objects.get(table=table), users


def test_a_new_turn_of_a_player_not_at_the_table_sends_the_task(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    game, _users = _ring_game(make_table, make_player, client_for)
    with dispatch.captured() as sent:
        round_start.start_round(game_id=game.pk)
    game.refresh_from_db()
    assert (TURN, [game.pk, game.turn_version]) in sent


def test_no_task_while_the_player_looks_at_the_table(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    """Looking at the table is being connected to the game (presence): a socket following it holds a lease."""
    game, users = _ring_game(make_table, make_player, client_for)
    for user in users.values():
        presence.socket_subscribed(game_id=game.pk, player_id=user.pk, holder=f"socket-{user.pk}")
    with dispatch.captured() as sent:
        round_start.start_round(game_id=game.pk)
    assert [name for name, _args in sent if name == TURN] == []


def test_no_task_while_the_player_long_polls_the_game(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    """A client without a socket follows the game by long-poll: that is looking at the table too."""
    game, users = _ring_game(make_table, make_player, client_for)
    for user in users.values():
        presence.polled(game_id=game.pk, player_id=user.pk)
    with dispatch.captured() as sent:
        round_start.start_round(game_id=game.pk)
    assert [name for name, _args in sent if name == TURN] == []


def test_your_turn_tells_the_player_once_and_only_while_the_turn_is_theirs(dealt: dict[str, Any]) -> None:
    game: Game = dealt["game"]
    mover = dealt["mover"]
    assert sources.your_turn(game_id=game.pk, turn_version=game.turn_version) is True
    assert sources.your_turn(game_id=game.pk, turn_version=game.turn_version) is False  # told already
    [told] = Notification.objects.filter(user=mover)
    assert told.kind == NotificationKind.YOUR_TURN
    assert told.data == {"table": game.table_id, "game": game.pk}
    assert told.key == f"game:{game.pk}:turn:{game.turn_version}"
    # A turn that has moved on, or a game that is not there: nothing.
    assert sources.your_turn(game_id=game.pk, turn_version=game.turn_version - 1) is False
    assert sources.your_turn(game_id=10**9, turn_version=1) is False
    assert Notification.objects.count() == 1


def test_your_turn_is_not_told_to_a_player_who_looks_or_is_absent(dealt: dict[str, Any]) -> None:
    game: Game = dealt["game"]
    mover = dealt["mover"]
    presence.socket_subscribed(game_id=game.pk, player_id=mover.pk, holder="socket-1")
    assert sources.your_turn(game_id=game.pk, turn_version=game.turn_version) is False
    presence.socket_left(holder="socket-1")
    Seat.objects.filter(table_id=game.table_id, player=mover).update(status=SeatStatus.ABSENT)
    assert sources.your_turn(game_id=game.pk, turn_version=game.turn_version) is False
    assert not Notification.objects.exists()


def test_a_lease_run_out_no_longer_counts_as_looking(dealt: dict[str, Any]) -> None:
    """A socket process that died leaves its leases to run out: then the player is told again."""
    game: Game = dealt["game"]
    mover = dealt["mover"]
    presence.socket_subscribed(game_id=game.pk, player_id=mover.pk, holder="socket-1")
    assert sources.your_turn(game_id=game.pk, turn_version=game.turn_version) is False
    PresenceLease.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert sources.your_turn(game_id=game.pk, turn_version=game.turn_version) is True


def test_the_reminder_tells_each_entrant_once_five_minutes_before(admin_user: Any, make_player: Any) -> None:
    now = timezone.now()
    soon = new_multi(admin_user, name="Sunday 500", starts_at=now + timedelta(minutes=4))
    later = new_multi(admin_user, name="Monday 500", starts_at=now + timedelta(minutes=20))
    players = [make_player(f"p{i}") for i in range(3)]
    register_all(soon, players[:2])
    register_all(later, players[2:])

    assert sources.tournament_reminders(now=now) == 2
    assert sources.tournament_reminders(now=now) == 0  # the next beat run: told already
    told = Notification.objects.filter(kind=NotificationKind.TOURNAMENT_SOON).order_by("user_id")
    assert [n.user_id for n in told] == [players[0].pk, players[1].pk]
    assert told[0].data["tournament"] == "Sunday 500"
    # Fifteen minutes later the other one is within five minutes: its entrant is told.
    assert sources.tournament_reminders(now=now + timedelta(minutes=16)) == 1


def test_the_reminder_task_is_on_beat_every_30_seconds(settings: Any) -> None:
    [entry] = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "notifications.tournament_reminders"
    ]
    assert entry["schedule"] == timedelta(seconds=30)


def test_a_tournaments_start_tells_its_entrants(admin_user: Any, make_player: Any) -> None:
    tournament = new_multi(admin_user, name="Cup", min_entrants=2)
    players = [make_player(f"p{i}") for i in range(4)]
    register_all(tournament, players)
    with dispatch.captured() as sent:
        admin_actions.start(tournament_id=tournament.pk)
    started = TournamentEvent.objects.get(tournament=tournament, kind="started")
    assert ("notifications.tournament_event", [started.pk]) in sent
    assert sources.tournament_event(event_id=started.pk) == 4
    assert sources.tournament_event(event_id=started.pk) == 0
    told = Notification.objects.filter(kind=NotificationKind.TOURNAMENT_STARTED)
    assert {n.user_id for n in told} == {p.pk for p in players}
    assert all(n.data["table"] for n in told)


def test_a_move_to_another_table_tells_the_moved_player(admin_user: Any, make_player: Any) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[1000, 1000, 1000], [1000, 1000]])
    moved = entries["t0p2"]
    with dispatch.captured() as sent:
        event = events.record(
            tournament=tournament,
            kind="moved",
            data={
                "moves": [{"entry": moved.pk, "player": "t0p2", "from": tables[0].pk, "to": tables[1].pk}],
                "why": "balance",
            },
        )
    assert ("notifications.tournament_event", [event.pk]) in sent
    assert sources.tournament_event(event_id=event.pk) == 1
    [told] = Notification.objects.all()
    assert told.user_id == moved.player_id
    assert told.kind == NotificationKind.TABLE_MOVED
    assert told.data["table"] == tables[1].pk


def test_a_prize_is_told_to_each_winner(admin_user: Any, make_player: Any) -> None:
    tournament, _tables, entries = seated(admin_user, make_player, [[1000, 1000]])
    entries["t0p0"].__class__.objects.filter(pk=entries["t0p0"].pk).update(
        prize=700, place=1, status="finished"
    )
    entries["t0p1"].__class__.objects.filter(pk=entries["t0p1"].pk).update(
        prize=0, place=2, status="finished"
    )
    event = events.record(
        tournament=tournament, kind="finished", data={"winners": ["t0p0"], "prizes": {"t0p0": 700}}
    )
    assert sources.tournament_event(event_id=event.pk) == 1
    [told] = Notification.objects.all()
    assert told.user_id == entries["t0p0"].player_id
    assert told.data["amount"] == 700


def test_other_tournament_events_send_nothing(admin_user: Any) -> None:
    tournament = new_multi(admin_user, status=TournamentStatus.RUNNING, level=1)
    with dispatch.captured() as sent:
        event = events.record(tournament=tournament, kind="level", data={"level": 2})
    assert sent == []
    assert sources.tournament_event(event_id=event.pk) == 0


def test_a_deal_proposed_tells_the_others_at_the_table(admin_user: Any, make_player: Any) -> None:
    tournament, tables, entries = seated(admin_user, make_player, [[1000, 1000, 1000]])
    proposer = entries["t0p0"].player_id
    with dispatch.captured() as sent:
        sources.send_deal_proposed(
            deal_id=5, tournament_id=tournament.pk, table_id=tables[0].pk, proposer_id=proposer
        )
    assert sent == [("notifications.deal_proposed", [5, tournament.pk, tables[0].pk, proposer])]
    from notifications import tasks

    assert tasks.deal_proposed.run(5, tournament.pk, tables[0].pk, proposer) == 2
    assert tasks.deal_proposed.run(5, tournament.pk, tables[0].pk, proposer) == 0
    told = Notification.objects.filter(kind=NotificationKind.DEAL_PROPOSED)
    assert {n.user_id for n in told} == {entries["t0p1"].player_id, entries["t0p2"].player_id}
    assert told[0].data["proposer"] == "t0p0"
