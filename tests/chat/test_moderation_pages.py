"""Chat moderation in the audit pages and the admin (docs/operations.md "Chat moderation"): reports listed,
time-outs given and recorded with who gave them, a player's time-outs on their page, a room's chat turned off by
an admin and the change recorded; refused forms change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from chat import services
from chat.models import Room, RoomModeChange, TimeOut

pytestmark = pytest.mark.django_db


def browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_audit_chat_page_lists_reports_and_times_out(seated: Any, staff_user: Any) -> None:
    ann, cid = seated["users"]["ann"], seated["users"]["cid"]
    message = services.post(user=ann, room_key=seated["room"], text="vendo fiches, 10 euro")
    services.report(reporter=cid, message_id=message.pk, reason="chip_trading")
    # Players are sent to the login page.
    assert browser(cid).get("/audit/chat/").status_code == 302
    page = browser(staff_user).get("/audit/chat/", HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200
    assert "vendo fiches, 10 euro" in page.content.decode() and 'data-role="report"' in page.content.decode()
    form = {
        "username": "ann",
        "seconds": "3600",
        "reason": "chip_trading",
        "scope": "room",
        "room": seated["room"],
        "message": str(message.pk),
    }
    answer = browser(staff_user).post("/audit/chat/", form)
    assert answer.status_code == 302
    given = TimeOut.objects.get()
    assert (given.by, given.seconds, given.room and given.room.key, given.message_id) == (
        staff_user,
        3600,
        seated["room"],
        message.pk,
    )
    # Refused forms change nothing.
    for wrong in ({"seconds": "60"}, {"scope": "room", "room": ""}, {"username": "nobody"}):
        refused = browser(staff_user).post("/audit/chat/", {**form, **wrong})
        assert refused.status_code in (400, 404), wrong
    assert TimeOut.objects.count() == 1
    player = browser(staff_user).get("/audit/players/ann/").content.decode()
    assert 'data-role="chat-time-outs"' in player and seated["room"] in player


def test_the_admin_gives_time_outs_and_turns_a_room_off(seated: Any, admin_user: Any) -> None:
    admin = browser(admin_user)
    ann = seated["users"]["ann"]
    answer = admin.post(
        "/admin/chat/timeout/add/",
        {"player": ann.pk, "reason": "spam", "scope": "site", "seconds": "600", "note": "flooding"},
    )
    assert answer.status_code == 302, answer.content
    assert TimeOut.objects.get().by == admin_user
    table = seated["table"]
    answer = admin.post(
        "/admin/chat/room/add/",
        {"kind": "table", "table": table.pk, "enabled": "", "slow_mode": "on", "members_only": ""},
    )
    assert answer.status_code == 302, answer.content
    room = Room.objects.get(table=table)
    assert (room.enabled, room.slow_mode) == (False, True)
    change = RoomModeChange.objects.get()
    assert (change.by, change.enabled, change.slow_mode) == (admin_user, False, True)
    # Messages are append-only in the admin too.
    assert admin.get("/admin/chat/message/add/").status_code == 403


def test_the_integrity_page_shows_chat_evidence(seated: Any, staff_user: Any) -> None:
    from integrity.models import Flag

    services.post(
        user=seated["users"]["ann"], room_key=seated["room"], text="ti passo 2000 fiches, poi me le ridai"
    )
    Flag.objects.create(kind="chip_dumping", subject="ann,bob", players=["ann", "bob"])
    page = browser(staff_user).get("/audit/integrity/").content.decode()
    assert 'data-role="chat-evidence"' in page and "ti passo 2000 fiches" in page
