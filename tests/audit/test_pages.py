"""The staff audit pages: staff only; a round's settlement, a player's chip flow and a table's payments as
the ledger holds them, with links between them; nothing hidden of a running round; reconciliation run on
demand; and every page within the Content-Security-Policy."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from ledger import selectors as ledger_selectors
from ledger.models import Entry, ReconciliationRun, ReconciliationStatus, Transfer, TransferKind
from tests.ledger.utils import assert_reconciled
from tests.security.test_csp import assert_runs_under_the_policy
from tests.tournaments.live.helpers import hidden_cards, leaked, settle_a_round_that_moves_chips
from tournaments.live.models import Round, Seat

pytestmark = pytest.mark.django_db


def _browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _cell(html: str, row_attr: str, role: str) -> str:
    """The number of the `data-role=role` cell in the row marked `row_attr` (e.g. data-player="ann"), as its
    `data-value` holds it (the text groups thousands in the page's language)."""
    row = re.search(rf"<tr {row_attr}[^>]*>(.*?)</tr>", html, re.S)
    assert row, row_attr
    cell = re.search(rf'data-role="{role}" data-value="([^"]*)"[^>]*>([^<]*)<', row.group(1))
    assert cell, (row_attr, role)
    return cell.group(1).strip()


def test_only_staff_open_the_audit_pages(make_player: Any, staff_user: Any) -> None:
    for client, expected in (
        (Client(), 302),
        (_browser(make_player("eve")), 302),
        (_browser(staff_user), 200),
    ):
        response = client.get("/audit/")
        assert response.status_code == expected
        if expected == 302:
            assert response["Location"].startswith("/admin/login/")
    assert Client().post("/audit/reconciliation/run/").status_code == 302
    assert not ReconciliationRun.objects.exists()


def test_the_round_page_shows_the_settlement_the_ledger_holds(
    dealt: dict[str, Any], client_for: Any, staff_user: Any
) -> None:
    round_ = settle_a_round_that_moves_chips(dealt, client_for)
    settlement = Transfer.objects.get(round_id=round_.pk, kind=TransferKind.SETTLEMENT)
    staff = _browser(staff_user)
    assert_runs_under_the_policy(staff, f"/audit/rounds/{round_.pk}/")
    html = staff.get(f"/audit/rounds/{round_.pk}/").content.decode()
    computation = settlement.computation
    for name in round_.players:
        leg = Entry.objects.get(transfer=settlement, account__user__username=name)
        assert int(_cell(html, f'data-player="{name}"', "ledger-net")) == leg.amount
        assert int(_cell(html, f'data-player="{name}"', "score")) == (round_.scores or {})[name]
        payer = next((line for line in computation["payers"] if line["player"] == name), None)
        assert int(_cell(html, f'data-player="{name}"', "paid")) == (payer["paid"] if payer else 0)
        seat = Seat.objects.get(stack_account_id=leg.account_id)
        # links: the player, the seat, the table and the transfer
        assert f'href="/audit/players/{name}/"' in html
        assert f'href="/admin/tournaments/seat/{seat.pk}/change/"' in html
    assert f'href="/audit/tables/{round_.game.table_id}/"' in html
    assert f'href="/audit/transfers/{settlement.pk}/"' in html
    assert f'data-role="pcr" data-value="{computation["pcr"]}">' in html
    # the deal is not this page's business, running or not
    assert round_.salt not in html

    transfer_page = staff.get(f"/audit/transfers/{settlement.pk}/").content.decode()
    assert f'href="/audit/rounds/{round_.pk}/"' in transfer_page
    assert f'href="/audit/tables/{round_.game.table_id}/"' in transfer_page

    csv = staff.get(f"/audit/rounds/{round_.pk}/settlement.csv")
    assert csv["Content-Disposition"] == f'attachment; filename="ramino-round-{round_.pk}-settlement.csv"'
    lines = b"".join(csv.streaming_content).decode().splitlines()  # type: ignore[attr-defined]
    assert lines[0].startswith("round_id,table_id,round_number,player,seat,stack,score,winner,")
    assert len(lines) == 1 + len(round_.players)
    assert_reconciled()


def test_the_table_page_charts_who_paid_whom_and_the_standings(
    dealt: dict[str, Any], client_for: Any, staff_user: Any
) -> None:
    round_ = settle_a_round_that_moves_chips(dealt, client_for)
    settlement = Transfer.objects.get(round_id=round_.pk, kind=TransferKind.SETTLEMENT)
    staff = _browser(staff_user)
    html = staff.get(f"/audit/tables/{round_.game.table_id}/").content.decode()
    for payer, payee, chips in settlement.computation["transfers"]:
        assert f'data-from="{payer}" data-to="{payee}">{chips}<' in html
    for entry in settlement.entries.select_related("account__user"):
        assert entry.account.user is not None
        name = entry.account.user.get_username()
        assert f'data-bar="{name}" data-value="{entry.amount}"' in html
    assert f'href="/audit/rounds/{round_.pk}/"' in html


def test_the_player_page_shows_wallet_seat_stacks_and_every_entry(
    dealt: dict[str, Any], client_for: Any, staff_user: Any
) -> None:
    round_ = settle_a_round_that_moves_chips(dealt, client_for)
    ann = dealt["users"]["ann"]
    staff = _browser(staff_user)
    assert_runs_under_the_policy(staff, "/audit/players/ann/")
    html = staff.get("/audit/players/ann/").content.decode()
    assert re.search(r'data-role="wallet" data-value="(\d+)"', html).group(1) == str(  # type: ignore[union-attr]
        ledger_selectors.wallet_balance(user=ann)
    )
    for entry in ledger_selectors.player_entries(user=ann):
        assert f'data-entry="{entry.pk}" data-transfer="{entry.transfer_id}"' in html
    stack = Seat.objects.get(table_id=round_.game.table_id, player=ann).stack_account
    stack.refresh_from_db()
    assert _cell(html, f'data-account="{stack.pk}"', "balance") == str(stack.balance)
    result = sum(
        Entry.objects.filter(account=stack, transfer__kind=TransferKind.SETTLEMENT).values_list(
            "amount", flat=True
        )
    )
    assert _cell(html, f'data-table="{round_.game.table_id}"', "result") == str(result)
    assert 'data-chart="step"' in html and 'data-chart="bars"' in html
    assert staff.get("/audit/players/nobody/").status_code == 404
    # the search box leads to the page
    assert staff.get("/audit/?username=ann")["Location"] == "/audit/players/ann/"


def test_a_running_rounds_page_shows_no_hidden_card(dealt: dict[str, Any], staff_user: Any) -> None:
    game = dealt["game"]
    round_ = Round.objects.get(game=game)
    html = _browser(staff_user).get(f"/audit/rounds/{round_.pk}/").content.decode()
    assert 'data-role="running"' in html
    assert not leaked(html, hidden_cards(game, None))
    assert round_.salt not in html and "".join(round_.deck or []) not in html


def test_run_now_queues_one_reconciliation_and_the_history_shows_it(staff_user: Any) -> None:
    staff = _browser(staff_user)
    assert staff.get("/audit/reconciliation/run/").status_code == 405
    response = staff.post("/audit/reconciliation/run/", follow=True)
    assert response.status_code == 200
    run = ReconciliationRun.objects.get()
    assert run.status == ReconciliationStatus.QUEUED and run.requested_by == staff_user
    assert f"Reconciliation #{run.pk} queued" in response.content.decode()
    # pressing again while it waits queues nothing new
    again = staff.post("/audit/reconciliation/run/", follow=True).content.decode()
    assert ReconciliationRun.objects.count() == 1 and "already waiting or running" in again
    assert f"<td>#{run.pk}</td>" in again


def test_unknown_ids_and_bad_parameters_are_4xx_pages(staff_user: Any) -> None:
    staff = _browser(staff_user)
    for path in ("/audit/rounds/999999/", "/audit/tables/999999/", "/audit/transfers/999999/"):
        assert staff.get(path).status_code == 404, path
    assert staff.get("/audit/rounds/99999999999999999999999/").status_code == 404
    for query in ("table=x", "round=-1", "from=yesterday", "kind=gift", "tournament=99999999999999999999"):
        response = staff.get(f"/audit/entries.csv?{query}")
        assert response.status_code == 400, query
        assert b'data-role="errors"' in response.content
    # a tournament that does not exist (and that no transfer names) is a 404 page
    missing = staff.get("/audit/tournaments/5/")
    assert missing.status_code == 404 and b"There is no tournament 5." in missing.content


def test_the_chip_flow_has_one_point_per_transfer_and_no_dip_at_a_buy_in(
    make_table: Any, make_player: Any, staff_user: Any
) -> None:
    from audit.selectors import chip_flow
    from tournaments.live.tables import services as tables

    ann = make_player("ann", chips=1_000)
    table = make_table()
    tables.sit(user=ann, table_id=table.pk, buy_in=300)
    flow = chip_flow(user=ann)
    assert [value for _, value in flow.wallet_series] == [1_000, 700]
    assert [value for _, value in flow.total_series] == [1_000, 1_000]
    assert (flow.wallet, flow.at_tables) == (700, 300)
    assert flow.per_table == {table.pk: {"buy_in": 300}}
