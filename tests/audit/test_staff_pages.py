"""The audit pages made for people: the tournament list (search, status, pages), the reconciliation section and
its status for the page's script, a cancelled tournament's refunds, tournament entries as chips moved (not lost),
the charts' axes, and numbers in the page's language (CSV stays plain)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any
from xml.etree import ElementTree

import pytest
from django.test import Client

from audit import charts
from audit import selectors as audit
from ledger.models import ReconciliationRun, TransferKind
from ledger.services import reconciliation
from tests.ledger.utils import assert_reconciled
from tests.tournaments.single_table.helpers import new_tournament
from tournaments.tournament import admin_actions, registration
from tournaments.tournament.models import Tournament, TournamentStatus

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]
SVG = "{http://www.w3.org/2000/svg}"


def _staff(user: Any, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def _listed(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<tr data-tournament="(\d+)"', html)]


def test_the_index_lists_tournaments_by_name_and_status_a_page_at_a_time(
    admin_user: Any, staff_user: Any
) -> None:
    friday = new_tournament(admin_user, name="Friday sit-and-go")
    quick = new_tournament(admin_user, name="Quick lunch", kind="quick", rounds=1)
    Tournament.objects.filter(pk=quick.pk).update(status=TournamentStatus.CANCELLED)
    staff = _staff(staff_user)
    html = staff.get("/audit/").content.decode()
    assert _listed(html) == [quick.pk, friday.pk]  # newest first
    assert f'href="/audit/tournaments/{friday.pk}/"' in html
    assert _listed(staff.get("/audit/?name=friday").content.decode()) == [friday.pk]
    assert _listed(staff.get("/audit/?status=cancelled").content.decode()) == [quick.pk]
    assert _listed(staff.get("/audit/?name=lunch&status=registering").content.decode()) == []
    bad = staff.get("/audit/?status=lost")  # an unknown status is said, and nothing is filtered by it
    assert bad.status_code == 200 and b"Choose a status from the list." in bad.content

    for number in range(25):
        new_tournament(admin_user, name=f"Weekly {number}")
    first = staff.get("/audit/?name=weekly").content.decode()
    second = staff.get("/audit/?name=weekly&page=2").content.decode()
    assert len(_listed(first)) == 20 and len(_listed(second)) == 5
    assert not set(_listed(first)) & set(_listed(second))
    assert (
        'href="?name=weekly&amp;status=&amp;page=2#tournaments"' in first or "name=weekly&amp;page=2" in first
    )


def test_the_reconciliation_section_and_status_follow_a_run(staff_user: Any, make_player: Any) -> None:
    make_player("ann")
    staff = _staff(staff_user)
    staff.post("/audit/reconciliation/run/")
    run = ReconciliationRun.objects.get()
    section = staff.get("/audit/reconciliation/").content.decode()
    # while it waits, the section carries what the page's script polls
    assert f'data-pending="{run.pk}"' in section and 'data-refresh="/audit/reconciliation/"' in section
    status = staff.get("/audit/reconciliation/status.json").json()
    assert status == {"latest": None, "pending": {"id": run.pk, "status": "queued"}}
    reconciliation.perform_reconciliation_run(run_id=run.pk)
    section = staff.get("/audit/reconciliation/").content.decode()
    assert "data-pending" not in section and f'data-run="{run.pk}"' in section and 'data-ok="true"' in section
    status = staff.get("/audit/reconciliation/status.json").json()
    assert status["pending"] is None and status["latest"]["id"] == run.pk and status["latest"]["ok"] is True
    index = staff.get("/audit/").content.decode()
    assert '<script src="/static/audit/reconciliation.js" defer></script>' in index
    assert Client().get("/audit/reconciliation/status.json").status_code == 302  # staff only


def test_a_cancelled_tournament_says_so_and_lists_its_refunds(
    admin_user: Any, staff_user: Any, make_player: Any
) -> None:
    tournament = new_tournament(admin_user, buy_in=100, fee=10)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
    admin_actions.cancel(tournament_id=tournament.pk)
    html = _staff(staff_user).get(f"/audit/tournaments/{tournament.pk}/").content.decode()
    assert 'data-role="tournament-cancelled"' in html and "This tournament was cancelled." in html
    assert "2 entries were refunded" in html and "Nobody has registered yet" not in html
    refunds = dict(
        re.findall(r'<tr data-player="(\w+)">.*?data-role="refund" data-value="(\d+)"', html, re.S)
    )
    assert refunds == {"ann": "110", "bob": "110"}
    italian = _staff(staff_user, "it").get(f"/audit/tournaments/{tournament.pk}/").content.decode()
    assert "Questo torneo è stato annullato." in italian and "Rimborsi" in italian
    assert_reconciled()


def test_a_tournament_nobody_entered_says_so(admin_user: Any, staff_user: Any) -> None:
    tournament = new_tournament(admin_user)
    html = _staff(staff_user).get(f"/audit/tournaments/{tournament.pk}/").content.decode()
    assert "Nobody has registered yet." in html and "tournament-cancelled" not in html


def test_a_tournament_entry_moves_chips_and_a_finish_without_prize_is_the_loss(
    admin_user: Any, staff_user: Any, make_player: Any
) -> None:
    ann = make_player("ann", chips=1_000)
    tournament = new_tournament(admin_user, buy_in=100, fee=10)
    registration.register(user=ann, tournament_id=tournament.pk)
    flow = audit.chip_flow(user=ann)
    assert [v for _, v in flow.wallet_series] == [1_000, 890]
    assert [v for _, v in flow.total_series] == [1_000, 1_000]  # moved into the entry, not lost
    assert flow.in_tournaments == 110
    html = _staff(staff_user).get("/audit/players/ann/").content.decode()
    assert re.search(r'data-kind="tournament_buy_in">.*?class="num moved"', html, re.S)
    assert "tournament entry (wallet to entry)" in html

    # ended without a prize (as if played out): the entry is spent at the finish
    ended = datetime.now(UTC) + timedelta(minutes=1)
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED, finished_at=ended)
    flow = audit.chip_flow(user=ann)
    assert [v for _, v in flow.total_series] == [1_000, 1_000, 890] and flow.total_series[-1][0] == ended
    assert flow.in_tournaments == 0


def test_a_refund_returns_the_entry(admin_user: Any, make_player: Any) -> None:
    ann = make_player("ann", chips=1_000)
    tournament = new_tournament(admin_user, buy_in=100, fee=10)
    registration.register(user=ann, tournament_id=tournament.pk)
    admin_actions.cancel(tournament_id=tournament.pk)
    flow = audit.chip_flow(user=ann)
    assert [v for _, v in flow.wallet_series] == [1_000, 890, 1_000]
    assert {v for _, v in flow.total_series} == {1_000} and flow.in_tournaments == 0
    assert TransferKind.REFUND in audit.MOVES


def test_the_charts_have_value_and_time_axes_with_round_ticks() -> None:
    t0 = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)
    markup = charts.step_chart(
        title="chips", series={"wallet": [(t0, 9_730), (t0 + timedelta(hours=2), 10_260)]}
    )
    root = ElementTree.fromstring(markup)
    value_axis = root.find(f"{SVG}g[@data-axis='value']")
    time_axis = root.find(f"{SVG}g[@data-axis='time']")
    assert value_axis is not None and time_axis is not None
    values = [int(t.get("data-tick") or 0) for t in value_axis.iter(f"{SVG}text") if t.get("data-tick")]
    assert values == [9_600, 9_800, 10_000, 10_200, 10_400]
    labels = [t.text for t in value_axis.iter(f"{SVG}text") if t.get("data-tick")]
    assert labels == ["9,600", "9,800", "10,000", "10,200", "10,400"]
    times = [t.text for t in time_axis.iter(f"{SVG}text") if t.get("data-tick")]
    assert times[:3] == ["20:00", "20:30", "21:00"] or times[:3] == ["20:00", "21:00", "22:00"]
    assert [t.text for t in root.iter(f"{SVG}text") if not t.get("data-tick")][:2] == ["chips", "time"]

    bars = ElementTree.fromstring(charts.bar_chart(title="t", rows=[("ann", 120), ("bob", -80)]))
    ticks = [int(t.get("data-tick") or 0) for t in bars.iter(f"{SVG}text") if t.get("data-tick")]
    assert 0 in ticks and min(ticks) <= -80 and max(ticks) >= 120
    assert all(tick % 50 == 0 for tick in ticks)


def test_the_ticks_are_round_numbers() -> None:
    assert charts.nice_ticks(0, 1_000) == [0, 250, 500, 750, 1_000] or charts.nice_ticks(0, 1_000) == [
        0,
        200,
        400,
        600,
        800,
        1_000,
    ]
    assert charts.nice_ticks(-80, 120) == [-100, -50, 0, 50, 100, 150]
    assert charts.nice_ticks(7, 7) == [7, 8]


def test_numbers_are_grouped_in_the_pages_language_and_plain_in_csv(
    staff_user: Any, make_player: Any
) -> None:
    make_player("ann", chips=12_500)
    english = _staff(staff_user).get("/audit/players/ann/").content.decode()
    italian = _staff(staff_user, "it").get("/audit/players/ann/").content.decode()
    assert 'data-role="wallet" data-value="12500">12,500<' in english
    assert 'data-role="wallet" data-value="12500">12.500<' in italian
    assert '<html lang="it">' in italian and "Flusso di fiches di" in italian
    response: Any = _staff(staff_user, "it").get("/audit/entries.csv?player=ann")
    csv = b"".join(response.streaming_content).decode()
    assert ",12500," in csv and "12.500" not in csv
