"""The Django admin never shows a running round's hands, stock or deck; once over, its deal and moves."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.helpers import hidden_cards, leaked, simple_move
from tournaments.models import Game, Round, Seat
from tournaments.services import engine_io, play

pytestmark = pytest.mark.django_db


def _pages(game: Game) -> list[str]:
    round_ = Round.objects.filter(game=game).order_by("-number").get()
    seat = Seat.objects.filter(table=game.table).order_by("id")[0]
    return [
        "/admin/tournaments/table/",
        f"/admin/tournaments/table/{game.table_id}/change/",
        "/admin/tournaments/seat/",
        f"/admin/tournaments/seat/{seat.pk}/change/",
        "/admin/tournaments/game/",
        f"/admin/tournaments/game/{game.pk}/change/",
        "/admin/tournaments/round/",
        f"/admin/tournaments/round/{round_.pk}/change/",
    ]


def test_admin_pages_hide_running_round_and_open_finished_one(
    make_table: Any, player: Any, admin_user: Any, client_for: Any
) -> None:
    table = make_table()
    for name in ("ann", "bob"):
        client_for(player(name)).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300})
    game = Game.objects.get(table=table)
    play.start_round(game_id=game.pk)
    browser = Client()
    browser.force_login(admin_user)
    game.refresh_from_db()
    secret = hidden_cards(game, None)
    assert secret
    round_ = Round.objects.get(game=game)
    for path in _pages(game):
        response = browser.get(path)
        assert response.status_code == 200, path
        html = response.content.decode()
        assert not {c for c in secret if f">{c}<" in html or f" {c} " in html or f'"{c}"' in html}, path
        assert round_.salt not in html
        assert " ".join(round_.deck or []) not in html
    assert (
        "hidden while the round runs"
        in browser.get(f"/admin/tournaments/round/{round_.pk}/change/").content.decode()
    )

    # play the round out; then the admin shows the deal and the move log
    for _ in range(400):
        game.refresh_from_db()
        if game.status != "playing":
            break
        state = engine_io.load_state(game.state or {})
        view = {"legal_moves": engine_io.legal_moves(state, game.turn_player)}
        play.submit_move(
            user=Seat.objects.get(table=table, player__username=game.turn_player).player,
            game_id=game.pk,
            move=simple_move(view),
            expected_version=game.version,
            idempotency_key=None,
        )
    round_.refresh_from_db()
    assert round_.ended_at is not None
    html = browser.get(f"/admin/tournaments/round/{round_.pk}/change/").content.decode()
    assert " ".join(round_.deck or []) in html and round_.salt in html and "server_played" in html
    assert not leaked(html, hidden_cards(game, None))


def test_the_close_action_closes_tables_and_cashes_out_for_superusers_only(
    make_table: Any, player: Any, admin_user: Any, staff_user: Any
) -> None:
    from django.contrib.auth.models import Permission

    from ledger import services as ledger
    from tests.ledger.utils import assert_reconciled
    from tournaments.models import GameStatus, SeatStatus, Table, TableStatus
    from tournaments.services import tables

    table = make_table()
    ann = player("ann")
    tables.sit(user=ann, table_id=table.pk, buy_in=400)
    url = "/admin/tournaments/table/"
    viewer = Client()
    staff_user.user_permissions.add(*Permission.objects.filter(codename__in=["view_table", "change_table"]))
    viewer.force_login(staff_user)
    assert b"close_selected" not in viewer.get(url).content
    viewer.post(url, {"action": "close_selected", "_selected_action": [table.pk]})
    assert Table.objects.get(pk=table.pk).status == TableStatus.OPEN
    # The status is not a field of the change form: only the action closes (and cashes out).
    form = viewer.get(f"/admin/tournaments/table/{table.pk}/change/").content.decode()
    assert 'name="status"' not in form

    browser = Client()
    browser.force_login(admin_user)
    response = browser.post(url, {"action": "close_selected", "_selected_action": [table.pk]}, follow=True)
    assert response.status_code == 200 and b"Closed 1 table" in response.content
    assert Table.objects.get(pk=table.pk).status == TableStatus.CLOSED
    assert Game.objects.get(table=table).status == GameStatus.CLOSED
    assert Seat.objects.get(table=table).status == SeatStatus.LEFT
    assert ledger.get_wallet(user=ann).balance == 10_000
    assert_reconciled()
