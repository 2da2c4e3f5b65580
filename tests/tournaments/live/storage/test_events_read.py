"""A game's events read with its version (`events_after`, `events_with_seated`): the version answered is never
beyond the events answered, even when a move commits between the read's statements. The socket tier's shared
window (live_room/hub.py) holds every event up to the version it read; an answer whose version was read after its
events left out an event it claimed to hold, and the socket never sent it (the smoke test's follower once got a
later event in its place)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import F

from tournaments.live.models import Game, GameEvent
from tournaments.live.rounds import start as round_start
from tournaments.live.storage import selectors

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture
def game(make_table: Any, make_player: Any, client_for: Any) -> Game:
    """A game with two players seated and round 1 dealt (its deal an event)."""
    table = make_table(pcr=2, min_buy_in=100, max_buy_in=5000)
    for name in ("ann", "bob"):
        response = client_for(make_player(name)).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 500})
        assert response.status_code == 200
    found = Game.objects.get(table=table)
    round_start.start_round(game_id=found.pk)
    assert GameEvent.objects.filter(game=found).exists()
    return found


def _commit_a_move(game_id: int) -> int:
    """What a move writes: the game's next version and its event, together. Answers the version."""
    with transaction.atomic():
        Game.objects.filter(pk=game_id).update(version=F("version") + 1)
        version = Game.objects.values_list("version", flat=True).get(pk=game_id)
        GameEvent.objects.create(game_id=game_id, version=version, kind="test", public={"n": version})
    return int(version)


@contextmanager
def a_move_after_the_first_statement(game_id: int) -> Iterator[list[int]]:
    """A move committed right after the read's first statement (answers the version it made)."""
    made: list[int] = []
    fired = False

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal fired
        result = execute(sql, params, many, context)
        if not fired:
            fired = True  # before the move's own statements, which pass through here too
            made.append(_commit_a_move(game_id))
        return result

    with connection.execute_wrapper(wrapper):
        yield made


def _holds_every_event_up_to_its_version(version: int, events: list[GameEvent], after: int) -> None:
    assert [e.version for e in events] == list(range(after + 1, version + 1))


@pytest.mark.parametrize("after", [0, 1])
def test_a_move_committed_during_the_read_is_in_the_answer_whole_or_not_at_all(
    game: Game, after: int
) -> None:
    before = Game.objects.values_list("version", flat=True).get(pk=game.pk)
    with a_move_after_the_first_statement(game.pk) as made:
        version, events = selectors.events_after(game_id=game.pk, after=after, limit=500)
    assert made and made[0] == before + 1
    _holds_every_event_up_to_its_version(version, events, after)

    with a_move_after_the_first_statement(game.pk) as made:
        seated, version, events = selectors.events_with_seated(game_id=game.pk, after=after, limit=500)
    assert made and made[0] == before + 2
    assert len(seated) == 2
    _holds_every_event_up_to_its_version(version, events, after)
    # The next read has what the interrupted one left out.
    version, events = selectors.events_after(game_id=game.pk, after=after, limit=500)
    assert version == before + 2
    _holds_every_event_up_to_its_version(version, events, after)
