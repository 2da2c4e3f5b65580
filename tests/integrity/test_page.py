"""The staff page /audit/integrity/: flags with their evidence linked to the audit pages, filters, and the
form (CSRF) that sets a flag's status and note, in English and Italian."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client

from integrity.models import Flag
from tests.factories import UserFactory
from tests.security.test_csp import assert_runs_under_the_policy

pytestmark = pytest.mark.django_db
PAGE = "/audit/integrity/"


@pytest.fixture
def flags(db: None) -> list[Flag]:
    made = [
        Flag.objects.create(
            kind="chip_dumping",
            subject="ann|bob",
            players=["bob", "ann"],
            score=5.0,
            evidence={"rounds": [11, 12], "transfers": [21], "tables": [3], "net": 900, "payer": "bob"},
        )
    ]
    made += [
        Flag.objects.create(kind="soft_play", subject=f"p{i}|q{i}", players=[f"p{i}", f"q{i}"], score=4.5)
        for i in range(21)
    ]
    return made


def _client(user: Any, **headers: str) -> Client:
    client = Client(enforce_csrf_checks=True, headers=headers)
    client.force_login(user)
    return client


def test_only_staff_see_the_page(flags: list[Flag]) -> None:
    assert Client().get(PAGE).status_code == 302
    player = _client(UserFactory.create())
    assert player.get(PAGE).status_code == 302
    assert player.post(PAGE, {"flag": flags[0].pk, "status": "dismissed"}).status_code in (302, 403)
    flags[0].refresh_from_db()
    assert flags[0].status == "open"


def test_the_page_links_each_flags_evidence_and_paginates(staff: Any, flags: list[Flag]) -> None:
    client = _client(staff)
    html = client.get(PAGE, {"kind": "chip_dumping"}).content.decode()
    assert 'href="/audit/rounds/11/"' in html and 'href="/audit/rounds/12/"' in html
    assert 'href="/audit/transfers/21/"' in html and 'href="/audit/tables/3/"' in html
    assert 'href="/audit/players/bob/"' in html and "Net chips" in html and ">900<" in html
    assert html.count('data-role="flag"') == 1
    first = client.get(PAGE).content.decode()
    assert first.count('data-role="flag"') == 20 and "Page 1 of 2" in first
    assert client.get(PAGE, {"page": 2}).content.decode().count('data-role="flag"') == 2
    assert 'data-role="integrity-link"' in client.get("/audit/").content.decode()


def test_bad_filters_are_a_400_page(staff: Any, flags: list[Flag]) -> None:
    response = _client(staff).get(PAGE, {"status": "maybe"})
    assert response.status_code == 400


def test_staff_set_status_and_note_through_the_form(staff: Any, flags: list[Flag]) -> None:
    client = _client(staff)
    html = client.get(PAGE, {"kind": "chip_dumping"}).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert token
    refused = client.post(PAGE, {"flag": flags[0].pk, "status": "confirmed"})
    assert refused.status_code == 403  # no CSRF token
    response = client.post(
        PAGE + "?kind=chip_dumping",
        {
            "csrfmiddlewaretoken": token.group(1),
            "flag": flags[0].pk,
            "status": "confirmed",
            "note": "same flat",
        },
    )
    assert response.status_code == 302 and response["Location"].startswith(PAGE + "?kind=chip_dumping&saved=")
    assert f"Flag {flags[0].pk} saved." in client.get(response["Location"]).content.decode()
    flags[0].refresh_from_db()
    assert (flags[0].status, flags[0].note, flags[0].decided_by) == ("confirmed", "same flat", staff)
    assert LogEntry.objects.filter(object_id=str(flags[0].pk), user=staff).count() == 1
    after = client.get(PAGE, {"status": "confirmed"}).content.decode()
    assert "same flat" in after and after.count('data-role="flag"') == 1
    for bad in (
        {"flag": flags[0].pk, "status": "maybe"},
        {"flag": "x", "status": "open"},
        {"status": "open"},
    ):
        assert client.post(PAGE, {"csrfmiddlewaretoken": token.group(1), **bad}).status_code == 400
    missing = client.post(PAGE, {"csrfmiddlewaretoken": token.group(1), "flag": 999999, "status": "open"})
    assert missing.status_code == 404
    flags[0].refresh_from_db()
    assert flags[0].status == "confirmed"


def test_the_page_speaks_italian(staff: Any, flags: list[Flag]) -> None:
    html = _client(staff, accept_language="it").get(PAGE, {"kind": "chip_dumping"}).content.decode()
    assert "Segnalazioni di integrità" in html and "Passaggio di fiches" in html and "Fiches nette" in html


def test_the_page_runs_under_the_policy(staff: Any, flags: list[Flag]) -> None:
    client = _client(staff)
    assert_runs_under_the_policy(client, PAGE + "?kind=chip_dumping")
