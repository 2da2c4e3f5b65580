"""A room's messages commit in the order of their ids (their versions): a reader that has seen a message has seen
every earlier one of the room. A second writer waits for the first writer's transaction (the room's row lock in
`chat.services.post`); without it, PostgreSQL's sequence gave the second message a higher id that could commit
first, and a socket that read it moved its `after` past the first message, which it then never received."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections, transaction

from chat import rooms, services
from chat.models import Message

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_second_message_in_a_room_waits_for_the_first_to_commit(seated: Any) -> None:
    ann, bob = seated["users"]["ann"], seated["users"]["bob"]
    room = seated["room"]
    rooms.room_for(rooms.parse_key(room), ann)  # made beforehand: a room's first use makes it
    first_written = threading.Event()
    commit_first = threading.Event()
    ids: dict[str, int] = {}
    failures: list[BaseException] = []

    def first() -> None:
        try:
            with transaction.atomic():
                ids["first"] = services.post(user=ann, room_key=room, text="one").pk
                first_written.set()
                assert commit_first.wait(timeout=30)
        except BaseException as exc:  # reported by the test's thread
            failures.append(exc)
            first_written.set()
        finally:
            connections.close_all()

    def second() -> None:
        try:
            ids["second"] = services.post(user=bob, room_key=room, text="two").pk
        except BaseException as exc:
            failures.append(exc)
        finally:
            connections.close_all()

    writer = threading.Thread(target=first)
    writer.start()
    assert first_written.wait(timeout=30)
    follower = threading.Thread(target=second)
    follower.start()
    follower.join(timeout=1.0)
    waited = follower.is_alive()
    commit_first.set()
    writer.join(timeout=30)
    follower.join(timeout=30)
    assert not failures, failures
    assert waited, "the second message was written while the first was not yet committed"
    assert ids["first"] < ids["second"]
    assert list(Message.objects.order_by("id").values_list("text", flat=True)) == ["one", "two"]


def test_the_first_message_of_a_room_not_yet_made_also_waits(seated: Any) -> None:
    """The room is made by its first use, in the writer's transaction: the second writer waits on it too."""
    ann, bob = seated["users"]["ann"], seated["users"]["bob"]
    first_written = threading.Event()
    commit_first = threading.Event()

    def first() -> None:
        try:
            with transaction.atomic():
                services.post(user=ann, room_key=seated["room"], text="one")
                first_written.set()
                commit_first.wait(timeout=30)
        finally:
            first_written.set()
            connections.close_all()

    writer = threading.Thread(target=first)
    writer.start()
    assert first_written.wait(timeout=30)

    def second() -> None:
        try:
            services.post(user=bob, room_key=seated["room"], text="two")
        finally:
            connections.close_all()

    follower = threading.Thread(target=second)
    follower.start()
    follower.join(timeout=1.0)
    waited = follower.is_alive()
    commit_first.set()
    writer.join(timeout=30)
    follower.join(timeout=30)
    assert waited
    assert list(Message.objects.order_by("id").values_list("text", flat=True)) == ["one", "two"]
