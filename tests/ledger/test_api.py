from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from ledger.models import Account, AccountKind, Entry, ReconciliationRun, Transfer
from ledger.services import accounts, postings, reconciliation
from tests.clients import api_client, signed_in
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user

pytestmark = pytest.mark.django_db

STAFF_ENDPOINTS = [
    "/api/v1/ledger/accounts/",
    "/api/v1/ledger/accounts/{account}/statement/",
    "/api/v1/ledger/transfers/",
    "/api/v1/ledger/transfers/{transfer}/",
    "/api/v1/ledger/reconciliation/",
    "/api/v1/ledger/reconciliation/runs/",
]


@pytest.fixture
def ledger_data(player: Any) -> dict[str, Any]:
    wallet = funded_wallet(player, 1_000)
    bob = make_user("bob")
    bob_wallet = funded_wallet(bob, 500)
    stack = accounts.open_account(
        kind=AccountKind.SEAT_STACK, chip_type="site", reference="table:3:seat:1", user=player
    )
    buy_in = postings.move_chips(
        source=wallet, destination=stack, amount=300, kind="buy_in", idempotency_key="sit:3:ann", table_id=3
    )
    settle = postings.move_chips(
        source=stack,
        destination=bob_wallet,
        amount=120,
        kind="settlement",
        idempotency_key="round:812:settle",
        table_id=3,
        round_id=812,
        computation={"scores": {"ann": 60, "bob": 100}, "pcr": 3},
        reason="round 812",
    )
    mint = accounts.get_house_account(kind=AccountKind.TOURNAMENT_MINT, chip_type="tournament:9")
    t_wallet = accounts.get_wallet(user=player, chip_type="tournament:9")
    postings.move_chips(
        source=mint,
        destination=t_wallet,
        amount=1500,
        kind="mint",
        idempotency_key="t9:mint:ann",
        tournament_id=9,
    )
    return {"wallet": wallet, "stack": stack, "bob_wallet": bob_wallet, "buy_in": buy_in, "settle": settle}


def _url(template: str, data: dict[str, Any]) -> str:
    return template.format(account=data["wallet"].pk, transfer=data["buy_in"].pk)


def _assert_envelope(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body: dict[str, Any] = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    if code is not None:
        assert body["error"]["code"] == code
    error: dict[str, Any] = body["error"]
    return error


# --- auth matrix ------------------------------------------------------------------------------------


@pytest.mark.parametrize("template", STAFF_ENDPOINTS)
def test_staff_endpoints_auth_matrix(
    template: str,
    ledger_data: dict[str, Any],
    anon_client: APIClient,
    player_client: APIClient,
    staff_client: APIClient,
    admin_client_api: APIClient,
) -> None:
    url = _url(template, ledger_data)
    _assert_envelope(anon_client.get(url), 401, "auth.not_authenticated")
    _assert_envelope(player_client.get(url), 403, "auth.forbidden")
    assert staff_client.get(url).status_code == 200
    assert admin_client_api.get(url).status_code == 200


def test_token_authentication_works_end_to_end(ledger_data: dict[str, Any], staff: Any) -> None:
    client = signed_in("staffer", "pw-for-tests-1")
    assert client.get("/api/v1/ledger/accounts/").status_code == 200


def test_adjustments_are_admin_only(
    anon_client: APIClient, player_client: APIClient, staff_client: APIClient, player: Any
) -> None:
    body = {"username": "ann", "amount": 10, "reason": "x"}
    headers: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": "k1"}
    _assert_envelope(anon_client.post("/api/v1/ledger/adjustments/", body, format="json", **headers), 401)
    _assert_envelope(player_client.post("/api/v1/ledger/adjustments/", body, format="json", **headers), 403)
    _assert_envelope(staff_client.post("/api/v1/ledger/adjustments/", body, format="json", **headers), 403)
    assert not Transfer.objects.exists()


# --- wallet -----------------------------------------------------------------------------------------


def test_wallet_shows_the_callers_balance(
    player_client: APIClient, anon_client: APIClient, player: Any
) -> None:
    off = {"state": "off", "available": False, "floor": None, "next_at": None}
    assert player_client.get("/api/v1/wallet/").json() == {"balance": 0, "currency": "chips", "top_up": off}
    assert not Account.objects.filter(user=player).exists()  # reading creates nothing
    funded_wallet(player, 250)
    assert player_client.get("/api/v1/wallet/").json() == {"balance": 250, "currency": "chips", "top_up": off}
    _assert_envelope(anon_client.get("/api/v1/wallet/"), 401)


# --- adjustments ------------------------------------------------------------------------------------


def test_adjustment_credit_debit_and_replay(
    admin_client_api: APIClient, player: Any, ledger_admin: Any
) -> None:
    url = "/api/v1/ledger/adjustments/"
    first = admin_client_api.post(
        url,
        {"username": "ann", "amount": 500, "reason": "welcome"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="a-1",
    )
    assert first.status_code == 201, first.content
    body = first.json()
    assert body["kind"] == "adjustment"
    assert body["reason"] == "welcome"
    assert body["posted_by"] == "boss"
    assert sorted((e["account_kind"], e["amount"]) for e in body["entries"]) == [
        ("house_cashier", -500),
        ("wallet", 500),
    ]
    replay = admin_client_api.post(
        url,
        {"username": "ann", "amount": 500, "reason": "welcome"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="a-1",
    )
    assert replay.status_code == 201
    assert replay.json() == body
    conflict = admin_client_api.post(
        url,
        {"username": "ann", "amount": 501, "reason": "welcome"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="a-1",
    )
    error = _assert_envelope(conflict, 409, "idempotency.key_reused")
    assert error["details"]["transfer"] == body["id"]
    debit = admin_client_api.post(
        url,
        {"username": "ann", "amount": -200, "reason": "correction"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="a-2",
    )
    assert debit.status_code == 201
    overdraft = admin_client_api.post(
        url,
        {"username": "ann", "amount": -301, "reason": "too much"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="a-3",
    )
    _assert_envelope(overdraft, 422, "ledger.insufficient_funds")
    assert Transfer.objects.count() == 2
    assert accounts.get_wallet(user=player).balance == 300
    assert_reconciled()


def test_idempotency_keys_are_scoped_to_the_admin(admin_client_api: APIClient, player: Any) -> None:
    other_admin = api_client(make_user("boss2", is_staff=True, is_superuser=True))
    body = {"username": "ann", "amount": 5, "reason": "x"}
    a = admin_client_api.post("/api/v1/ledger/adjustments/", body, format="json", HTTP_IDEMPOTENCY_KEY="same")
    b = other_admin.post(
        "/api/v1/ledger/adjustments/", {**body, "amount": 6}, format="json", HTTP_IDEMPOTENCY_KEY="same"
    )
    assert (a.status_code, b.status_code) == (201, 201)
    assert a.json()["id"] != b.json()["id"]


@pytest.mark.parametrize(
    "body, headers, code",
    [
        ({"username": "ann", "amount": 5, "reason": "x"}, {}, "idempotency.key_required"),
        # docs/api.md: a key too long is invalid (not missing); a blank one is missing.
        (
            {"username": "ann", "amount": 5, "reason": "x"},
            {"HTTP_IDEMPOTENCY_KEY": "k" * 201},
            "idempotency.key_invalid",
        ),
        (
            {"username": "ann", "amount": 5, "reason": "x"},
            {"HTTP_IDEMPOTENCY_KEY": "   "},
            "idempotency.key_required",
        ),
        ({"username": "ann", "amount": 0, "reason": "x"}, {"HTTP_IDEMPOTENCY_KEY": "k"}, "request.invalid"),
        ({"username": "ann", "amount": 1.5, "reason": "x"}, {"HTTP_IDEMPOTENCY_KEY": "k"}, "request.invalid"),
        ({"username": "ann", "amount": 2.0, "reason": "x"}, {"HTTP_IDEMPOTENCY_KEY": "k"}, "request.invalid"),
        ({"username": "ann", "amount": "5", "reason": "x"}, {"HTTP_IDEMPOTENCY_KEY": "k"}, "request.invalid"),
        (
            {"username": "ann", "amount": True, "reason": "x"},
            {"HTTP_IDEMPOTENCY_KEY": "k"},
            "request.invalid",
        ),
        (
            {"username": "ann", "amount": 10**13, "reason": "x"},
            {"HTTP_IDEMPOTENCY_KEY": "k"},
            "request.invalid",
        ),
        (
            {"username": "nobody", "amount": 5, "reason": "x"},
            {"HTTP_IDEMPOTENCY_KEY": "k"},
            "request.invalid",
        ),
        ({"username": "ann", "amount": 5}, {"HTTP_IDEMPOTENCY_KEY": "k"}, "request.invalid"),
        ({"username": "ann", "amount": 5, "reason": ""}, {"HTTP_IDEMPOTENCY_KEY": "k"}, "request.invalid"),
        ([1, 2], {"HTTP_IDEMPOTENCY_KEY": "k"}, "request.invalid"),
    ],
)
def test_bad_adjustments_are_4xx_envelopes(
    admin_client_api: APIClient, player: Any, body: Any, headers: dict[str, Any], code: str
) -> None:
    response = admin_client_api.post("/api/v1/ledger/adjustments/", body, format="json", **headers)
    _assert_envelope(response, 400, code)
    assert not Transfer.objects.exists()


def test_malformed_json_is_a_400_envelope(admin_client_api: APIClient) -> None:
    response = admin_client_api.generic(
        "POST",
        "/api/v1/ledger/adjustments/",
        "{not json",
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    _assert_envelope(response, 400, "request.malformed")


# --- accounts ---------------------------------------------------------------------------------------


def test_accounts_list_and_filters(staff_client: APIClient, ledger_data: dict[str, Any]) -> None:
    body = staff_client.get("/api/v1/ledger/accounts/").json()
    assert body["count"] == Account.objects.count()
    by_id = {row["id"]: row for row in body["results"]}
    assert by_id[ledger_data["wallet"].pk] == {
        "id": ledger_data["wallet"].pk,
        "kind": "wallet",
        "chip_type": "site",
        "user": "ann",
        "reference": "",
        "balance": 700,
        "created_at": by_id[ledger_data["wallet"].pk]["created_at"],
    }
    wallets = staff_client.get("/api/v1/ledger/accounts/?kind=wallet").json()["results"]
    assert {row["kind"] for row in wallets} == {"wallet"}
    assert len(wallets) == 3
    anns = staff_client.get("/api/v1/ledger/accounts/?user=ann").json()["results"]
    assert {row["chip_type"] for row in anns} == {"site", "tournament:9"}
    t9 = staff_client.get("/api/v1/ledger/accounts/?chip_type=tournament:9").json()["results"]
    assert sorted(row["balance"] for row in t9) == [-1500, 1500]
    _assert_envelope(staff_client.get("/api/v1/ledger/accounts/?kind=nonsense"), 400, "request.invalid")


def test_accounts_csv(staff_client: APIClient, ledger_data: dict[str, Any]) -> None:
    response = staff_client.get("/api/v1/ledger/accounts/?format=csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == Account.objects.count()
    wallet_row = next(r for r in rows if r["id"] == str(ledger_data["wallet"].pk))
    assert (wallet_row["kind"], wallet_row["user"], wallet_row["balance"]) == ("wallet", "ann", "700")


# --- statements -------------------------------------------------------------------------------------


def test_statement_running_balances(staff_client: APIClient, ledger_data: dict[str, Any]) -> None:
    wallet = ledger_data["wallet"]
    body = staff_client.get(f"/api/v1/ledger/accounts/{wallet.pk}/statement/").json()
    assert body["account"]["id"] == wallet.pk
    assert body["balance"] == 700
    assert body["opening_balance"] == 0
    assert body["balance_at"] is None
    assert [(r["kind"], r["amount"], r["running_balance"]) for r in body["results"]] == [
        ("adjustment", 1000, 1000),
        ("buy_in", -300, 700),
    ]
    assert body["next"] is None


def test_statement_pagination_from_to_and_at(staff_client: APIClient, player: Any) -> None:
    wallet = funded_wallet(player, 100)
    house = accounts.get_house_account(kind="house_cashier")
    for i in range(5):
        postings.move_chips(
            source=house, destination=wallet, amount=10, kind="adjustment", idempotency_key=f"p{i}"
        )
    entries = list(Entry.objects.filter(account=wallet).order_by("id"))
    url = f"/api/v1/ledger/accounts/{wallet.pk}/statement/"
    page = staff_client.get(url, {"page_size": 4}).json()
    assert [r["running_balance"] for r in page["results"]] == [100, 110, 120, 130]
    assert page["next"]
    rest = staff_client.get(page["next"]).json()
    assert [r["running_balance"] for r in rest["results"]] == [140, 150]
    third = entries[2]
    at = staff_client.get(url, {"at": third.created_at.isoformat()}).json()
    assert at["balance_at"] == 120
    before_all = staff_client.get(url, {"at": (entries[0].created_at - timedelta(days=1)).isoformat()}).json()
    assert before_all["balance_at"] == 0
    window = staff_client.get(
        url, {"from": third.created_at.isoformat(), "to": entries[4].created_at.isoformat()}
    ).json()
    assert window["opening_balance"] == 110
    assert [r["running_balance"] for r in window["results"]] == [120, 130]
    day = staff_client.get(url, {"from": third.created_at.date().isoformat()}).json()
    assert len(day["results"]) == 6


def test_statement_bad_input(staff_client: APIClient, ledger_data: dict[str, Any]) -> None:
    url = f"/api/v1/ledger/accounts/{ledger_data['wallet'].pk}/statement/"
    error = _assert_envelope(staff_client.get(url, {"at": "yesterday"}), 400, "request.invalid")
    assert "at" in error["details"]["fields"]
    _assert_envelope(staff_client.get(url, {"from": "2026-13-45"}), 400, "request.invalid")
    _assert_envelope(staff_client.get("/api/v1/ledger/accounts/999999/statement/"), 404, "not_found")
    _assert_envelope(staff_client.get(url, {"cursor": "garbage"}), 400, "request.invalid_parameter")


@pytest.mark.parametrize("name", ["from", "to", "at"])
@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("2026-01-01T00:00:00+16:00", "offset"),
        ("2026-01-01T00:00:00-16:00", "offset"),
        ("2026-01-01T00:00:00+23:59", "offset"),
        ("0001-01-01T00:00:00+01:00", "range"),  # before year 1 in UTC
        ("9999-12-31T23:00:00-02:00", "range"),  # after year 9999 in UTC
        ("nan", "invalid"),
        ("2026-02-30", "invalid"),
        ("2026-01-01T25:00:00", "invalid"),
        ("2026-01-01T00:00:00+24:00", "invalid"),
        # A NUL is refused before the view, as in every parameter (tests/api/test_boundary.py).
    ],
)
def test_statement_instants_out_of_range_or_junk_are_400(
    staff_client: APIClient, ledger_data: dict[str, Any], name: str, value: str, reason: str
) -> None:
    url = f"/api/v1/ledger/accounts/{ledger_data['wallet'].pk}/statement/"
    error = _assert_envelope(staff_client.get(url, {name: value}), 400, "request.invalid")
    assert list(error["details"]["fields"]) == [name]
    expected = {"offset": "UTC offset", "range": "out of range", "invalid": "ISO 8601"}[reason]
    assert expected in error["details"]["fields"][name][0]


@pytest.mark.parametrize(
    ("query", "entries"),
    [
        ({"from": "", "to": "", "at": ""}, 2),  # empty is absent
        ({"from": "0001-01-01T00:00:00-01:00", "to": "9999-12-31T23:59:59.999999+01:00"}, 2),
        ({"from": "0001-01-01", "to": "9999-12-30", "at": "9999-12-31T23:59:59"}, 2),
        ({"from": "2026-01-01T00:00:00+15:59", "at": "2026-01-01T00:00:00-15:59"}, 2),
    ],
)
def test_statement_extreme_instants_within_range_answer(
    staff_client: APIClient, ledger_data: dict[str, Any], query: dict[str, str], entries: int
) -> None:
    response = staff_client.get(f"/api/v1/ledger/accounts/{ledger_data['wallet'].pk}/statement/", query)
    assert response.status_code == 200, response.content
    assert len(response.json()["results"]) == entries


def test_statement_to_before_from_is_400(staff_client: APIClient, ledger_data: dict[str, Any]) -> None:
    url = f"/api/v1/ledger/accounts/{ledger_data['wallet'].pk}/statement/"
    error = _assert_envelope(
        staff_client.get(url, {"from": "2026-01-02", "to": "2026-01-01T00:00:00Z"}), 400, "request.invalid"
    )
    assert "to" in error["details"]["fields"]


_INSTANTISH = st.one_of(
    st.text(max_size=40),
    st.from_regex(
        r"\A-?[0-9]{1,6}-[0-9]{1,2}-[0-9]{1,2}([T ][0-9]{1,2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,9})?)?"
        r"(Z|[+-][0-9]{2}(:?[0-9]{2}(:[0-9]{2})?)?)?)?\Z"
    ),
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["from", "to", "at"]), value=_INSTANTISH)
def test_statement_query_parameters_never_cause_a_500(
    staff_client: APIClient, ledger_data: dict[str, Any], name: str, value: str
) -> None:
    response = staff_client.get(
        f"/api/v1/ledger/accounts/{ledger_data['wallet'].pk}/statement/", {name: value}
    )
    assert response.status_code in (200, 400), (value, response.content)
    if response.status_code == 400:
        # A NUL is refused before the view (api/boundary.py), naming the parameter.
        code = "request.invalid_parameter" if "\x00" in value else "request.invalid"
        _assert_envelope(response, 400, code)


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.sampled_from(["player", "table", "tournament", "round", "entry", "kind", "chip_type", "account"]),
    value=st.one_of(st.text(max_size=30), st.integers().map(str), st.sampled_from(["nan", "1e9", "-0", ""])),
)
def test_transfer_filters_never_cause_a_500(
    staff_client: APIClient, ledger_data: dict[str, Any], name: str, value: str
) -> None:
    response = staff_client.get("/api/v1/ledger/transfers/", {name: value})
    assert response.status_code in (200, 400), (name, value, response.content)
    if response.status_code == 400:
        # A NUL is refused before the view (api/boundary.py), naming the parameter.
        code = "request.invalid_parameter" if "\x00" in value else "request.invalid"
        _assert_envelope(response, 400, code)


def test_statement_csv(staff_client: APIClient, ledger_data: dict[str, Any]) -> None:
    response = staff_client.get(f"/api/v1/ledger/accounts/{ledger_data['wallet'].pk}/statement/?format=csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["kind"], r["amount"], r["running_balance"]) for r in rows] == [
        ("adjustment", "1000", "1000"),
        ("buy_in", "-300", "700"),
    ]


# --- transfers --------------------------------------------------------------------------------------


def test_transfers_carry_reason_and_computation(staff_client: APIClient, ledger_data: dict[str, Any]) -> None:
    body = staff_client.get("/api/v1/ledger/transfers/", {"round": 812}).json()
    assert [t["id"] for t in body["results"]] == [ledger_data["settle"].pk]
    transfer = body["results"][0]
    assert transfer["kind"] == "settlement"
    assert transfer["reason"] == "round 812"
    assert transfer["computation"] == {"scores": {"ann": 60, "bob": 100}, "pcr": 3}
    assert (transfer["table"], transfer["round"], transfer["tournament"]) == (3, 812, None)
    assert sorted((e["user"], e["account_kind"], e["amount"]) for e in transfer["entries"]) == [
        ("ann", "seat_stack", -120),
        ("bob", "wallet", 120),
    ]
    assert transfer["reversed_by"] is None


@pytest.mark.parametrize(
    "params, expected",
    [
        ({"table": 3}, ["buy_in", "settlement"]),
        ({"tournament": 9}, ["mint"]),
        ({"kind": "adjustment"}, ["adjustment", "adjustment"]),
        ({"player": "bob"}, ["adjustment", "settlement"]),
        ({"player": "ann", "kind": "buy_in"}, ["buy_in"]),
        ({"player": "nobody"}, []),
        ({"chip_type": "tournament:9"}, ["mint"]),
    ],
)
def test_transfer_filters(
    staff_client: APIClient, ledger_data: dict[str, Any], params: dict[str, Any], expected: list[str]
) -> None:
    body = staff_client.get("/api/v1/ledger/transfers/", params).json()
    assert [t["kind"] for t in body["results"]] == expected


def test_transfer_filter_bad_input(staff_client: APIClient, ledger_data: dict[str, Any]) -> None:
    _assert_envelope(staff_client.get("/api/v1/ledger/transfers/", {"round": "abc"}), 400, "request.invalid")
    _assert_envelope(staff_client.get("/api/v1/ledger/transfers/", {"kind": "gift"}), 400, "request.invalid")
    _assert_envelope(staff_client.get("/api/v1/ledger/transfers/999999/"), 404, "not_found")


@pytest.mark.parametrize("name", ["table", "tournament", "round", "entry", "account"])
@pytest.mark.parametrize("value", ["3.402823466e+38", str(2**63), "-5", "1.5"])
def test_id_filters_refuse_values_no_row_can_have(
    staff_client: APIClient, ledger_data: dict[str, Any], name: str, value: str
) -> None:
    _assert_envelope(staff_client.get("/api/v1/ledger/transfers/", {name: value}), 400, "request.invalid")


def test_transfers_cursor_pagination_and_link_header(
    staff_client: APIClient, ledger_data: dict[str, Any]
) -> None:
    first = staff_client.get("/api/v1/ledger/transfers/", {"page_size": 2})
    body = first.json()
    assert set(body) == {"next", "previous", "results"}
    assert len(body["results"]) == 2
    assert 'rel="next"' in first["Link"]
    seen = [t["id"] for t in body["results"]]
    while body["next"]:
        body = staff_client.get(body["next"]).json()
        seen += [t["id"] for t in body["results"]]
    assert seen == sorted(Transfer.objects.values_list("id", flat=True))


def test_transfers_csv(staff_client: APIClient, ledger_data: dict[str, Any]) -> None:
    response = staff_client.get("/api/v1/ledger/transfers/?format=csv&table=3")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["kind"] for r in rows] == ["buy_in", "settlement"]
    assert '"pcr":3' in rows[1]["computation"]


def test_csv_errors_are_still_errors(player_client: APIClient) -> None:
    response = player_client.get("/api/v1/ledger/transfers/?format=csv")
    assert response.status_code == 403
    assert b"auth.forbidden" in response.content


# --- reconciliation ---------------------------------------------------------------------------------


def test_reconciliation_serves_the_last_run_and_runs_one_only_when_none_finished(
    staff_client: APIClient, ledger_data: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    body = staff_client.get("/api/v1/ledger/reconciliation/").json()
    first = ReconciliationRun.objects.get()  # nothing to serve yet: one full run, recorded
    assert (first.trigger, first.status) == ("first_read", "finished")
    assert body["ok"] is True and body["problems"] == [] and body["total"] == 0
    assert body["totals"] == {"site": 0, "tournament:9": 0}
    assert body["accounts"] == Account.objects.count()
    assert body["transfers"] == Transfer.objects.count()
    assert (body["run"], body["stale"], body["pending"]) == (first.pk, False, None)
    assert body["latest_run"]["id"] == first.pk
    run = reconciliation.run_reconciliation(trigger="manual")
    with django_assert_max_num_queries(6):  # served, not recomputed: no scan of the ledger
        body = staff_client.get("/api/v1/ledger/reconciliation/").json()
    assert body["run"] == body["latest_run"]["id"] == run.pk
    assert ReconciliationRun.objects.count() == 2
    funded_wallet(make_user(), 5)
    assert staff_client.get("/api/v1/ledger/reconciliation/").json()["stale"] is True
    runs = staff_client.get("/api/v1/ledger/reconciliation/runs/").json()
    assert [r["id"] for r in runs["results"]] == [run.pk, first.pk]
    csv_response = staff_client.get("/api/v1/ledger/reconciliation/?format=csv")
    rows = list(csv.DictReader(io.StringIO(csv_response.content.decode())))
    assert rows[0]["ok"] == "True"
    assert rows[0]["total"] == "0"
    runs_csv = staff_client.get("/api/v1/ledger/reconciliation/runs/?format=csv")
    assert runs_csv.status_code == 200
    assert len(list(csv.DictReader(io.StringIO(runs_csv.content.decode())))) == 2


def test_reconciliation_problems_show_once_a_full_run_has_seen_them(
    staff_client: APIClient, ledger_data: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    clean = reconciliation.run_reconciliation(trigger="manual")
    Account.objects.filter(pk=ledger_data["bob_wallet"].pk).update(balance=1)
    body = staff_client.get("/api/v1/ledger/reconciliation/").json()
    assert body["ok"] is True and body["run"] == clean.pk  # the last run's answer until a new run
    with django_capture_on_commit_callbacks(execute=False) as enqueued:
        response = staff_client.post("/api/v1/ledger/reconciliation/runs/")
    assert response.status_code == 202, response.content
    queued = response.json()
    assert (queued["status"], queued["ok"], queued["requested_by"]) == ("queued", None, "staffer")
    assert len(enqueued) == 1
    assert staff_client.get("/api/v1/ledger/reconciliation/").json()["pending"]["id"] == queued["id"]
    reconciliation.perform_reconciliation_run(run_id=queued["id"])  # what the worker runs
    body = staff_client.get("/api/v1/ledger/reconciliation/").json()
    assert body["ok"] is False and body["run"] == queued["id"] and body["pending"] is None
    assert {p["code"] for p in body["problems"]} == {"account.balance_mismatch", "chips.not_conserved"}
