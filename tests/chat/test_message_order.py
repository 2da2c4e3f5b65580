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


def _two_writers(users: dict[str, Any], room: str) -> tuple[bool, dict[str, int]]:
    """ann writes "one" in `room` and keeps her transaction open; bob writes "two" meanwhile. Answers whether
    bob's write waited for ann's commit, and the messages' ids by writer."""
    first_written = threading.Event()
    commit_first = threading.Event()
    ids: dict[str, int] = {}
    failures: list[BaseException] = []

    def write(name: str, text: str, *, hold: bool) -> None:
        try:
            with transaction.atomic():
                ids[name] = services.post(user=users[name], room_key=room, text=text).pk
                if hold:
                    first_written.set()
                    assert commit_first.wait(timeout=30)
        except BaseException as exc:  # reported by the test's thread
            failures.append(exc)
        finally:
            first_written.set()
            connections.close_all()

    writer = threading.Thread(target=write, args=("ann", "one"), kwargs={"hold": True})
    writer.start()
    assert first_written.wait(timeout=30)
    follower = threading.Thread(target=write, args=("bob", "two"), kwargs={"hold": False})
    follower.start()
    follower.join(timeout=1.0)
    waited = follower.is_alive()
    commit_first.set()
    writer.join(timeout=30)
    follower.join(timeout=30)
    assert not failures, failures
    return waited, ids


def test_a_second_message_in_a_room_waits_for_the_first_to_commit(seated: Any) -> None:
    rooms.room_for(
        rooms.parse_key(seated["room"]), seated["users"]["ann"]
    )  # made beforehand: a first use makes it
    waited, ids = _two_writers(seated["users"], seated["room"])
    assert waited, "the second message was written while the first was not yet committed"
    assert ids["ann"] < ids["bob"]
    assert list(Message.objects.order_by("id").values_list("text", flat=True)) == ["one", "two"]


def test_the_first_message_of_a_room_not_yet_made_also_waits(seated: Any) -> None:
    """The room is made by its first use, in the writer's transaction: the second writer waits on it too."""
    waited, _ids = _two_writers(seated["users"], seated["room"])
    assert waited
    assert list(Message.objects.order_by("id").values_list("text", flat=True)) == ["one", "two"]
