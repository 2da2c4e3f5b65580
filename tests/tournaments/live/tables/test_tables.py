"""Tables over HTTP: create, list, read, sit (buy-in, top-up), join by code, leave (cash-out)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from ledger.services import accounts
from tests.ledger.utils import assert_reconciled
from tournaments.live.http.throttling import JoinAddressThrottle, JoinUserThrottle
from tournaments.live.models import Seat, SeatStatus, Table
from tournaments.live.tables.services import CODE_ALPHABET, CODE_LENGTH, generate_code

pytestmark = pytest.mark.django_db

TABLE = {
    "game": "rummy500",
    "options": {"turn_seconds": 20},
    "seats": 4,
    "pcr": 2,
    "min_buy_in": 100,
    "max_buy_in": 1000,
}


def wallet(user: Any) -> int:
    return accounts.get_wallet(user=user).balance


def assert_envelope(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    if code is not None:
        assert body["error"]["code"] == code, body
    return dict(body)


def test_code_alphabet_is_unambiguous_and_strong() -> None:
    assert not set("0O1IL5S2Z") & set(CODE_ALPHABET)
    assert CODE_LENGTH >= 6
    assert CODE_LENGTH * math.log2(len(CODE_ALPHABET)) >= 30
    codes = {generate_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)


def test_admin_creates_public_table(admin_user: Any, client_for: Any) -> None:
    response = client_for(admin_user).post("/api/v1/tables/", TABLE, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["private"] is False and body["code"] is None
    assert body["players"] == [] and body["current_game"] is not None
    assert {k: body[k] for k in ("game", "seats", "pcr", "min_buy_in", "max_buy_in", "multiplier")} == {
        **{k: TABLE[k] for k in ("game", "seats", "pcr", "min_buy_in", "max_buy_in")},
        "multiplier": 1,
    }


@pytest.mark.parametrize("role", ["player", "staff"])
def test_only_admin_creates_public_tables(
    role: Any, make_player: Any, staff_user: Any, client_for: Any
) -> None:
    user = staff_user if role == "staff" else make_player()
    response = client_for(user).post("/api/v1/tables/", TABLE, format="json")
    assert_envelope(response, 403, "auth.forbidden")
    assert not Table.objects.exists()


def test_anyone_creates_private_table_and_sees_its_code(make_player: Any, client_for: Any) -> None:
    creator = make_player()
    response = client_for(creator).post("/api/v1/tables/", {**TABLE, "private": True}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["private"] is True and len(body["code"]) == CODE_LENGTH
    again = client_for(creator).get(f"/api/v1/tables/{body['id']}/")
    assert again.status_code == 200 and again.json()["code"] == body["code"]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"game": "chess"}, "table.invalid_options"),
        ({"options": {"no_such_option": 1}}, "table.invalid_options"),
        ({"options": {"turn_seconds": -1}}, "table.invalid_options"),
        ({"options": {"max_timeouts": 0}}, "table.invalid_options"),
        ({"seats": 9}, None),
        ({"pcr": 0}, "request.invalid"),
        ({"min_buy_in": 500, "max_buy_in": 100}, "request.invalid"),
        ({"options": "x"}, "request.invalid"),
    ],
)
def test_invalid_tables_are_400(admin_user: Any, client_for: Any, change: Any, code: Any) -> None:
    response = client_for(admin_user).post("/api/v1/tables/", {**TABLE, **change}, format="json")
    assert_envelope(response, 400, code)
    assert not Table.objects.exists()


def test_malformed_json_is_400(admin_user: Any, client_for: Any) -> None:
    response = client_for(admin_user).post("/api/v1/tables/", "{not json", content_type="application/json")
    assert_envelope(response, 400, "request.malformed")


def test_listing_shows_public_tables_only(make_table: Any, make_player: Any, client_for: Any) -> None:
    public = make_table()
    make_table(private=True, creator=make_player())
    response = client_for(make_player()).get("/api/v1/tables/")
    assert response.status_code == 200
    assert [t["id"] for t in response.json()["results"]] == [public.pk]


def test_private_table_is_404_to_others_staff_read_it_but_sit_only_by_code(
    make_table: Any, make_player: Any, staff_user: Any, client_for: Any
) -> None:
    table = make_table(private=True, creator=make_player())
    assert_envelope(client_for(make_player()).get(f"/api/v1/tables/{table.pk}/"), 404)
    assert client_for(staff_user).get(f"/api/v1/tables/{table.pk}/").status_code == 200
    for user in (make_player(), staff_user):
        assert_envelope(client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 100}), 404)
        assert_envelope(client_for(user).post(f"/api/v1/tables/{table.pk}/leave/"), 404)
    assert not Seat.objects.exists()


def test_the_creator_of_a_private_table_sits_by_id(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    table = make_table(private=True, creator=ann)
    response = client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["code"] == table.code
    assert body["players"] == [{"username": "ann", "seat": 0, "chips": 300, "status": "active"}]
    assert wallet(ann) == 10_000 - 300
    # anyone else still needs the code, even with the id
    bob = make_player("bob")
    assert_envelope(client_for(bob).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}), 404)
    assert wallet(bob) == 10_000
    assert list(Seat.objects.values_list("player__username", flat=True)) == ["ann"]
    assert_reconciled()


def test_sit_moves_chips_from_wallet_to_stack(make_table: Any, make_player: Any, client_for: Any) -> None:
    table = make_table()
    ann = make_player("ann")
    response = client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["players"] == [{"username": "ann", "seat": 0, "chips": 300, "status": "active"}]
    assert wallet(ann) == 10_000 - 300
    assert_reconciled()


def test_sit_again_tops_up_within_max(make_table: Any, make_player: Any, client_for: Any) -> None:
    table = make_table(max_buy_in=1000)
    ann = make_player("ann")
    client = client_for(ann)
    client.post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}, format="json")
    response = client.post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200}, format="json")
    assert response.status_code == 200
    assert response.json()["players"][0]["chips"] == 500
    over = client.post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 501}, format="json")
    assert_envelope(over, 422, "table.buy_in_out_of_range")
    assert Seat.objects.get().stack_account.balance == 500
    assert wallet(ann) == 10_000 - 500
    assert_reconciled()


@pytest.mark.parametrize(
    ("buy_in", "status", "code"),
    [
        (99, 422, "table.buy_in_out_of_range"),
        (1001, 422, "table.buy_in_out_of_range"),
        (0, 400, None),
        ("x", 400, None),
    ],
)
def test_buy_in_out_of_range(
    make_table: Any, make_player: Any, client_for: Any, buy_in: Any, status: Any, code: Any
) -> None:
    table = make_table(max_buy_in=1000)
    ann = make_player("ann")
    response = client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": buy_in}, format="json")
    assert_envelope(response, status, code)
    assert not Seat.objects.exists() and wallet(ann) == 10_000


def test_sit_without_chips_is_refused(make_table: Any, make_player: Any, client_for: Any) -> None:
    table = make_table()
    poor = make_player("poor", chips=50)
    response = client_for(poor).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 100}, format="json")
    assert_envelope(response, 422, "ledger.insufficient_funds")
    assert not Seat.objects.exists() and wallet(poor) == 50
    assert_reconciled()


def test_full_table_is_409(make_table: Any, make_player: Any, client_for: Any) -> None:
    table = make_table(seats=2)
    for name in ("a1", "a2"):
        assert (
            client_for(make_player(name)).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 100}).status_code
            == 200
        )
    late = make_player("late")
    assert_envelope(
        client_for(late).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 100}), 409, "table.full"
    )
    assert wallet(late) == 10_000


def test_join_by_code_and_wrong_code(make_table: Any, make_player: Any, client_for: Any) -> None:
    table = make_table(private=True, creator=make_player())
    bob = make_player("bob")
    wrong = client_for(bob).post("/api/v1/tables/join/", {"code": "AAAAAAAA", "buy_in": 100}, format="json")
    assert_envelope(wrong, 404)
    code = table.code.lower()
    response = client_for(bob).post("/api/v1/tables/join/", {"code": code, "buy_in": 100}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["id"] == table.pk and body["code"] == table.code
    assert client_for(bob).get(f"/api/v1/tables/{table.pk}/").status_code == 200


def test_join_is_rate_limited_per_user(
    make_table: Any, make_player: Any, client_for: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(JoinUserThrottle, "THROTTLE_RATES", {"join_user": "3/min"})
    bob = client_for(make_player("bob"))
    codes = [
        bob.post("/api/v1/tables/join/", {"code": "WRONG1", "buy_in": 100}).status_code for _ in range(4)
    ]
    assert codes == [404, 404, 404, 429]
    assert_envelope(bob.post("/api/v1/tables/join/", {"code": "WRONG1", "buy_in": 100}), 429, "throttled")
    # another user from the same address is not throttled by the per-user limit
    assert (
        client_for(make_player("cid")).post("/api/v1/tables/join/", {"code": "W", "buy_in": 100}).status_code
        == 404
    )


def test_join_is_rate_limited_per_address(make_player: Any, client_for: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(JoinAddressThrottle, "THROTTLE_RATES", {"join_address": "2/min"})
    statuses = [
        client_for(make_player()).post("/api/v1/tables/join/", {"code": "WRONG1", "buy_in": 100}).status_code
        for _ in range(3)
    ]
    assert statuses == [404, 404, 429]


def test_leave_between_rounds_cashes_out(make_table: Any, make_player: Any, client_for: Any) -> None:
    table = make_table()
    ann = make_player("ann")
    client = client_for(ann)
    client.post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 400}, format="json")
    response = client.post(f"/api/v1/tables/{table.pk}/leave/")
    assert response.status_code == 200, response.content
    assert response.json()["players"] == []
    seat = Seat.objects.get()
    assert seat.status == SeatStatus.LEFT and seat.left_at is not None and seat.stack_account.balance == 0
    assert wallet(ann) == 10_000
    assert_envelope(client.post(f"/api/v1/tables/{table.pk}/leave/"), 409, "seat.not_seated")
    # sitting down again opens a fresh seat and stack
    assert client.post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 100}).status_code == 200
    assert Seat.objects.filter(status=SeatStatus.ACTIVE).get().stack_account_id != seat.stack_account_id
    assert_reconciled()


def test_anonymous_is_401_everywhere_on_tables(make_table: Any, client_for: Any) -> None:
    table = make_table()
    anon = client_for(None)
    for method, path in [
        ("get", "/api/v1/tables/"),
        ("post", "/api/v1/tables/"),
        ("get", f"/api/v1/tables/{table.pk}/"),
        ("post", f"/api/v1/tables/{table.pk}/sit/"),
        ("post", "/api/v1/tables/join/"),
        ("post", f"/api/v1/tables/{table.pk}/leave/"),
    ]:
        assert_envelope(getattr(anon, method)(path), 401, "auth.not_authenticated")


def test_too_few_chips_are_told_with_the_chips_needed_and_held_in_italian(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    # issue 31 (defect 19): "Il conto non ha abbastanza fiches" said neither how many were needed nor held.
    table = make_table(max_buy_in=2000)
    poor = make_player("poor", chips=50)
    response = client_for(poor).post(
        f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 1500}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    body = assert_envelope(response, 422, "ledger.insufficient_funds")
    assert body["error"]["message"] == "Servono 1.500 fiches; il conto ne ha 50."
    assert body["error"]["details"]["balance"] == 50 and body["error"]["details"]["amount"] == -1500
    english = client_for(poor).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 1500}, format="json")
    assert english.json()["error"]["message"] == "This needs 1500 chips; the account holds 50."
    assert not Seat.objects.exists() and wallet(poor) == 50
