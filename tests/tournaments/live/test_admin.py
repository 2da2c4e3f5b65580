"""The Django admin never shows a running round's hands, stock or deck; once over, its deal and moves."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.live.helpers import hidden_cards, leaked, simple_move
from tournaments import engine
from tournaments.live.models import Game, Round, Seat
from tournaments.live.moves import pipeline as moves
from tournaments.live.rounds import start as round_start

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
    make_table: Any, make_player: Any, admin_user: Any, client_for: Any
) -> None:
    table = make_table()
    for name in ("ann", "bob"):
        client_for(make_player(name)).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300})
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)
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
        state = engine.state_from_dict(game.state or {})
        view = {"legal_moves": engine.legal_moves(state, game.turn_player)}
        moves.submit_move(
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
    make_table: Any, make_player: Any, admin_user: Any, staff_user: Any
) -> None:
    from django.contrib.auth.models import Permission

    from ledger.services import accounts
    from tests.ledger.utils import assert_reconciled
    from tournaments.live.models import GameStatus, SeatStatus, Table, TableStatus
    from tournaments.live.tables import services as tables

    table = make_table()
    ann = make_player("ann")
    tables.sit(user=ann, table_id=table.pk, buy_in=400)
    url = "/admin/tournaments/table/"
    viewer = Client()
    staff_user.user_permissions.add(*Permission.objects.filter(codename__in=["view_table", "change_table"]))
    viewer.force_login(staff_user)
    assert b"close_selected" not in viewer.get(url).content
    viewer.post(url, {"action": "close_selected", "_selected_action": [table.pk], "confirmed": "yes"})
    assert Table.objects.get(pk=table.pk).status == TableStatus.OPEN
    # The status is not a field of the change form: only the action closes (and cashes out).
    form = viewer.get(f"/admin/tournaments/table/{table.pk}/change/").content.decode()
    assert 'name="status"' not in form

    browser = Client()
    browser.force_login(admin_user)
    chosen = {"action": "close_selected", "_selected_action": [table.pk]}
    asking = browser.post(url, chosen)  # first the action asks; the table stays open until the answer is yes
    assert asking.status_code == 200 and b"cashes its players out" in asking.content
    assert Table.objects.get(pk=table.pk).status == TableStatus.OPEN
    response = browser.post(url, {**chosen, "confirmed": "yes"}, follow=True)
    assert response.status_code == 200 and b"Closed 1 table" in response.content
    assert Table.objects.get(pk=table.pk).status == TableStatus.CLOSED
    assert Game.objects.get(table=table).status == GameStatus.CLOSED
    assert Seat.objects.get(table=table).status == SeatStatus.LEFT
    assert accounts.get_wallet(user=ann).balance == 10_000
    assert_reconciled()


def _change_form(table: Any, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": table.game,
        **{f"option_{name}": value for name, value in table.options.items()},
        "seats": table.seats,
        "pcr": table.pcr,
        "multiplier": table.multiplier,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        **changes,
    }
    if data.pop("private", table.private):
        data["private"] = "on"
    return data


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": "gin"}, "game"),
        ({"seats": 9}, "seats"),
        ({"option_turn_seconds": -5}, "option_turn_seconds"),
        ({"option_time_bank_seconds": "1e308"}, "option_time_bank_seconds"),
        ({"option_turn_seconds": "NaN"}, "option_turn_seconds"),
        ({"option_turn_seconds": "3" + "0" * 5000}, "option_turn_seconds"),
        ({"option_rummy_calls": "maybe"}, "option_rummy_calls"),
        ({"option_going_rummy": "double"}, "option_going_rummy"),  # an option Rummy 500 does not take
        ({"pcr": 0}, "pcr"),
        ({"multiplier": 10**6}, "multiplier"),
        ({"min_buy_in": 500, "max_buy_in": 100}, "max_buy_in"),
    ],
)
def test_the_change_form_refuses_what_the_api_refuses(
    make_table: Any, admin_user: Any, change: dict[str, Any], field: str
) -> None:
    from tournaments.live.models import Table

    table = make_table()
    before = Table.objects.filter(pk=table.pk).values().get()
    browser = Client()
    browser.force_login(admin_user)
    response = browser.post(f"/admin/tournaments/table/{table.pk}/change/", _change_form(table, **change))
    assert response.status_code == 200  # the form again, with its errors: not a redirect, not a 500
    assert field in response.context["adminform"].form.errors, response.context["adminform"].form.errors
    assert Table.objects.filter(pk=table.pk).values().get() == before


def test_the_change_form_makes_a_table_private_with_a_code_and_public_again(
    make_table: Any, admin_user: Any, make_player: Any
) -> None:
    from tournaments.live.models import Table
    from tournaments.live.tables import services as tables

    table = make_table()
    stored = dict(table.options)
    tables.sit(user=make_player("ann"), table_id=table.pk, buy_in=300)
    browser = Client()
    browser.force_login(admin_user)
    url = f"/admin/tournaments/table/{table.pk}/change/"
    response = browser.post(url, _change_form(table, private=True, pcr=3, option_turn_seconds=45))
    assert response.status_code == 302, response.content
    table.refresh_from_db()
    assert table.private and table.code and (table.pcr, table.options) == (3, {**stored, "turn_seconds": 45})
    assert browser.post(url, _change_form(table, private=False)).status_code == 302
    table.refresh_from_db()
    assert not table.private and table.code is None
    # fewer seats than the seated players need is a form error too
    for name in ("bob", "cid"):
        tables.sit(user=make_player(name), table_id=table.pk, buy_in=300)
    response = browser.post(url, _change_form(table, seats=2))
    assert response.status_code == 200
    assert "Seat 2 is taken" in str(response.context["adminform"].form.errors["seats"])
    assert Table.objects.get(pk=table.pk).seats == 4


def test_an_errored_table_shows_its_reason_and_is_read_only_in_the_admin(
    make_table: Any, make_player: Any, admin_user: Any
) -> None:
    from tournaments.live.models import Table, TableStatus
    from tournaments.live.tables import services as tables

    table = make_table()
    for name in ("ann", "bob"):
        tables.sit(user=make_player(name), table_id=table.pk, buy_in=300)
    Table.objects.filter(pk=table.pk).update(seats=9)  # a row from before the checks
    round_start.start_round(game_id=Game.objects.get(table=table).pk)
    table.refresh_from_db()
    assert table.status == TableStatus.ERROR
    browser = Client()
    browser.force_login(admin_user)
    assert b"error" in browser.get("/admin/tournaments/table/").content
    page = browser.get(f"/admin/tournaments/table/{table.pk}/change/").content.decode()
    assert "table.invalid_seats" in page and 'name="game"' not in page


def _add_form(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": "rummy500",
        "option_turn_seconds": 40,
        "seats": 4,
        "pcr": 2,
        "multiplier": 1,
        "min_buy_in": 100,
        "max_buy_in": 1000,
        **changes,
    }
    if data.pop("private", False):
        data["private"] = "on"
    return data


def test_an_admin_adds_a_table_through_the_service_and_is_refused_an_invalid_one(admin_user: Any) -> None:
    from tournaments.live.models import Table

    browser = Client()
    browser.force_login(admin_user)
    url = "/admin/tournaments/table/add/"
    assert browser.get(url).status_code == 200
    for change, field in (
        ({"game": "gin"}, "game"),
        ({"seats": 9}, "seats"),
        ({"option_turn_seconds": -5}, "option_turn_seconds"),
    ):
        response = browser.post(url, _add_form(**change))
        assert response.status_code == 200
        assert field in response.context["adminform"].form.errors, change
    assert not Table.objects.exists()

    response = browser.post(url, _add_form())
    assert response.status_code == 302, response.content
    table = Table.objects.get()
    assert (table.pcr, table.options, table.created_by) == (2, {"turn_seconds": 40}, admin_user)
    assert Game.objects.filter(table=table).exists()  # made by tables.create_table, as the API makes it
    assert not table.private and table.code is None

    assert browser.post(url, _add_form(private=True)).status_code == 302
    private = Table.objects.exclude(pk=table.pk).get()
    assert private.private and private.code


def test_staff_may_not_add_tables(staff_user: Any) -> None:
    from django.contrib.auth.models import Permission

    from tournaments.live.models import Table

    staff_user.user_permissions.add(*Permission.objects.filter(codename__in=["view_table", "add_table"]))
    browser = Client()
    browser.force_login(staff_user)
    assert browser.post("/admin/tournaments/table/add/", _add_form()).status_code == 403
    assert not Table.objects.exists()
