"""Play now (docs/api.md "Play now", docs/tables.md "Play now"): the order of the best table (pure, no database),
the seat it takes over HTTP, and every refusal with its stable code, changing nothing; the lobby's filters on
GET /tables/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from chat.models import Mute
from ledger.models import Account, Transfer
from ledger.services import accounts
from tests.ledger.utils import assert_reconciled
from tournaments.fair_play import services as fair_play_services
from tournaments.fair_play.models import AbandonmentKind
from tournaments.live.http.throttling import PlayNowThrottle
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, GameStatus, Seat, SeatStatus
from tournaments.live.tables.play_now import Candidate, rank

URL = "/api/v1/tables/play-now/"


def c(
    table_id: int, *, seats: int = 4, seated: int = 0, running: bool = False, lo: int = 100, hi: int = 2000
) -> Candidate:
    return Candidate(
        table_id=table_id, seats=seats, seated=seated, round_running=running, min_buy_in=lo, max_buy_in=hi
    )


# ----------------------------------------------------------------------------------------- the order, pure


def test_players_waiting_for_an_opponent_come_first_the_most_first() -> None:
    tables = [
        c(1),  # empty
        c(2, seated=3, running=True),  # a round is being played
        c(3, seated=1),  # one player waits
        c(4, seated=2, seats=3),  # two players wait
        c(5, seated=4),  # full
    ]
    assert rank(tables) == [4, 3, 2, 1]


def test_ties_go_to_the_oldest_table_and_a_buy_in_outside_the_range_leaves_a_table_out() -> None:
    tables = [c(9, seated=1), c(7, seated=1), c(8, seated=1, lo=500)]
    assert rank(tables) == [7, 8, 9]
    assert rank(tables, buy_in=200) == [7, 9]
    assert rank(tables, buy_in=5000) == []


@given(
    st.lists(
        st.builds(
            lambda i, seats, seated, running: c(i, seats=seats, seated=min(seated, seats), running=running),
            st.integers(1, 10_000),
            st.integers(2, 6),
            st.integers(0, 6),
            st.booleans(),
        ),
        max_size=12,
        unique_by=lambda x: x.table_id,
    )
)
def test_the_order_never_offers_a_full_table_and_never_puts_an_emptier_waiting_table_first(
    tables: list[Candidate],
) -> None:
    order = rank(tables)
    by_id = {x.table_id: x for x in tables}
    assert set(order) == {x.table_id for x in tables if x.seated < x.seats}
    waiting = [by_id[i].seated for i in order if by_id[i].seated and not by_id[i].round_running]
    assert waiting == sorted(waiting, reverse=True)
    groups = [
        0 if by_id[i].seated and not by_id[i].round_running else 1 if by_id[i].seated else 2 for i in order
    ]
    assert groups == sorted(groups)


# -------------------------------------------------------------------------------------------- over HTTP


@pytest.fixture
def no_broker(monkeypatch: Any) -> None:
    """No round is dealt behind the test's back: what a sit enqueues is dropped."""
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)


def snapshot() -> tuple[Any, ...]:
    """Everything a refused play now must leave as it was."""
    return (
        tuple(Account.objects.order_by("pk").values_list("pk", "balance")),
        Transfer.objects.count(),
        tuple(Seat.objects.order_by("pk").values_list("pk", "status")),
    )


def refused(response: Any, status: int, code: str, before: tuple[Any, ...]) -> dict[str, Any]:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code, error
    assert snapshot() == before
    assert_reconciled()
    return dict(error)


@pytest.mark.django_db
def test_play_now_seats_the_player_where_the_most_players_wait(
    no_broker: None, make_table: Any, make_player: Any, client_for: Any
) -> None:
    empty = make_table()
    one = make_table()
    two = make_table()
    other_game = make_table(game="basic")
    for name, table in (("ann", one), ("bob", two), ("cid", two), ("dan", other_game), ("eve", other_game)):
        client_for(make_player(name)).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}, format="json")
    zoe = make_player("zoe", chips=1_000)
    answer = client_for(zoe).post(URL, {"game": "rummy500"}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["id"] == two.pk and "zoe" in {p["username"] for p in body["players"]}
    # the buy-in was the table's smallest
    assert accounts.get_wallet(user=zoe).balance == 1_000 - two.min_buy_in
    # asked again, the same table is answered and nothing moves
    again = client_for(zoe).post(URL, {"game": "rummy500"}, format="json")
    assert again.status_code == 200 and again.json()["id"] == two.pk
    assert accounts.get_wallet(user=zoe).balance == 1_000 - two.min_buy_in
    assert Seat.objects.filter(player=zoe).count() == 1
    assert empty.pk != two.pk
    assert_reconciled()


@pytest.mark.django_db
def test_play_now_takes_a_waiting_table_before_a_running_one_and_keeps_to_the_stake_and_buy_in(
    no_broker: None, make_table: Any, make_player: Any, client_for: Any
) -> None:
    running = make_table(pcr=2)
    waiting = make_table(pcr=2)
    cheap = make_table(pcr=1)
    for name, table in (
        ("ann", running),
        ("bob", running),
        ("cid", running),
        ("dan", waiting),
        ("eve", cheap),
        ("fay", cheap),
    ):
        client_for(make_player(name)).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}, format="json")
    Game.objects.filter(table=running).update(status=GameStatus.PLAYING)
    zoe = make_player("zoe")
    answer = client_for(zoe).post(URL, {"game": "rummy500", "stake": 2, "buy_in": 250}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["id"] == waiting.pk
    assert Seat.objects.get(player=zoe).stack_account.balance == 250
    # the waiting table now has two: the next one goes to the running table (cheap is another stake)
    yan = make_player("yan")
    Game.objects.filter(table=waiting).update(status=GameStatus.PLAYING)
    answer = client_for(yan).post(URL, {"game": "rummy500", "stake": 2}, format="json")
    assert answer.status_code == 201 and answer.json()["id"] == running.pk
    assert Seat.objects.get(player=yan).status == SeatStatus.SITTING_OUT  # plays from the next deal
    assert_reconciled()


@pytest.mark.django_db
def test_play_now_never_picks_a_table_where_a_blocked_or_blocking_player_sits(
    no_broker: None, make_table: Any, make_player: Any, client_for: Any
) -> None:
    with_bob = make_table()
    with_cid = make_table()
    quiet = make_table()
    bob, cid, zoe = make_player("bob"), make_player("cid"), make_player("zoe")
    for user, table in ((bob, with_bob), (make_player("ann"), with_bob), (cid, with_cid)):
        client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}, format="json")
    Mute.objects.create(owner=bob, target=zoe, block=True, at=timezone.now())  # bob blocked zoe
    Mute.objects.create(owner=zoe, target=cid, block=True, at=timezone.now())  # zoe blocked cid
    answer = client_for(zoe).post(URL, {"game": "rummy500"}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["id"] == quiet.pk


@pytest.mark.django_db
def test_a_full_or_closed_table_is_never_chosen_and_none_open_changes_nothing(
    no_broker: None, make_table: Any, make_player: Any, client_for: Any
) -> None:
    full = make_table(seats=2)
    for name in ("ann", "bob"):
        client_for(make_player(name)).post(f"/api/v1/tables/{full.pk}/sit/", {"buy_in": 300}, format="json")
    make_table(private=True, creator=make_player("cid"))  # private: never chosen
    zoe = make_player("zoe")
    before = snapshot()
    error = refused(
        client_for(zoe).post(URL, {"game": "rummy500"}, format="json"), 409, "table.none_open", before
    )
    assert error["details"] == {"game": "rummy500", "stake": None, "buy_in": None}
    make_table()
    refused(
        client_for(zoe).post(URL, {"game": "rummy500", "stake": 7}, format="json"),
        409,
        "table.none_open",
        before,
    )
    refused(
        client_for(zoe).post(URL, {"game": "rummy500", "buy_in": 99_999}, format="json"),
        409,
        "table.none_open",
        before,
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "game"),
        ({"game": "poker"}, "game"),
        ({"game": "rummy500", "stake": 0}, "stake"),
        ({"game": "rummy500", "stake": "2"}, "stake"),
        ({"game": "rummy500", "buy_in": -5}, "buy_in"),
    ],
)
def test_a_malformed_request_is_a_400_naming_the_field(
    body: dict[str, Any], field: str, make_table: Any, make_player: Any, client_for: Any
) -> None:
    make_table()
    zoe = make_player("zoe")
    before = snapshot()
    error = refused(client_for(zoe).post(URL, body, format="json"), 400, "request.invalid", before)
    assert field in error["details"]["fields"]


@pytest.mark.django_db
def test_the_player_gates_of_a_seat_refuse_play_now_with_their_codes(
    no_broker: None, make_table: Any, make_player: Any, client_for: Any
) -> None:
    make_table(min_buy_in=500)
    before = snapshot()
    # not signed in
    refused(
        client_for(None).post(URL, {"game": "rummy500"}, format="json"), 401, "auth.not_authenticated", before
    )
    # the wallet cannot pay the smallest buy-in
    poor = make_player("poor", chips=100)
    before = snapshot()
    refused(
        client_for(poor).post(URL, {"game": "rummy500"}, format="json"),
        422,
        "ledger.insufficient_funds",
        before,
    )
    # barred for abandonment
    barred = make_player("barred")
    now = timezone.now()
    for at in (now - timedelta(minutes=1), now):
        fair_play_services.record_abandonment(player_id=barred.pk, kind=AbandonmentKind.RING_ABSENT, at=at)
    before = snapshot()
    refused(client_for(barred).post(URL, {"game": "rummy500"}, format="json"), 403, "seat.barred", before)
    # on a break
    resting = make_player("resting")
    taken = client_for(resting).post("/api/v1/me/breaks/", {"kind": "cool_off", "days": 1}, format="json")
    assert taken.status_code == 201, taken.content
    before = snapshot()
    refused(
        client_for(resting).post(URL, {"game": "rummy500"}, format="json"), 403, "player.on_break", before
    )
    # past a stakes limit
    careful = make_player("careful")
    assert (
        client_for(careful).put("/api/v1/me/limits/", {"stakes_day": 200}, format="json").status_code == 200
    )
    before = snapshot()
    refused(
        client_for(careful).post(URL, {"game": "rummy500"}, format="json"), 403, "limits.exceeded", before
    )


@pytest.mark.django_db
def test_a_guest_is_refused_play_now() -> None:
    from tests.clients import api_client
    from tests.factories import TableFactory

    TableFactory.create()
    answer = api_client().post("/api/v1/demo/")
    assert answer.status_code == 201, answer.content
    guest = api_client(token=answer.json()["token"])
    before = snapshot()
    refused(guest.post(URL, {"game": "rummy500"}, format="json"), 403, "table.guest", before)


@pytest.mark.django_db
def test_the_same_idempotency_key_answers_the_first_seat_again(
    no_broker: None, make_table: Any, make_player: Any, client_for: Any
) -> None:
    make_table()
    zoe = make_player("zoe", chips=1_000)
    client = client_for(zoe)
    first = client.post(URL, {"game": "rummy500"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    second = client.post(URL, {"game": "rummy500"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == second.status_code == 201
    assert first.json()["id"] == second.json()["id"]
    assert accounts.get_wallet(user=zoe).balance == 900


@pytest.mark.django_db
def test_play_now_is_throttled_per_player_with_the_error_envelope(
    no_broker: None, make_table: Any, make_player: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(PlayNowThrottle, "THROTTLE_RATES", {"play_now": "2/min"})
    table = make_table()
    zoe = make_player("zoe", chips=1_000)
    client = client_for(zoe)
    statuses = [client.post(URL, {"game": "rummy500"}, format="json").status_code for _ in range(2)]
    assert statuses == [201, 200]
    before = snapshot()
    error = refused(client.post(URL, {"game": "rummy500"}, format="json"), 429, "throttled", before)
    assert error["details"]["retry_after_seconds"] > 0
    assert int(client.post(URL, {"game": "rummy500"}, format="json")["Retry-After"]) > 0
    # another player's tries are counted apart: bob is seated at the same table
    answer = client_for(make_player("bob", chips=1_000)).post(URL, {"game": "rummy500"}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["id"] == table.pk
    assert Seat.objects.filter(player=zoe).count() == 1


# ------------------------------------------------------------------------------------------- the filters


@pytest.mark.django_db
def test_the_table_list_filters_by_game_stake_seats_and_free_seats(
    no_broker: None, make_table: Any, make_player: Any, client_for: Any
) -> None:
    a = make_table(pcr=2, seats=2)
    b = make_table(pcr=1, multiplier=2, seats=4)
    c_ = make_table(game="basic", pcr=2, seats=4)
    client_for(make_player("ann")).post(f"/api/v1/tables/{a.pk}/sit/", {"buy_in": 300}, format="json")
    zoe = client_for(make_player("zoe"))

    def ids(query: str) -> list[int]:
        answer = zoe.get(f"/api/v1/tables/?{query}")
        assert answer.status_code == 200, answer.content
        return [t["id"] for t in answer.json()["results"]]

    assert ids("game=rummy500") == [a.pk, b.pk]
    assert ids("stake=2") == [a.pk, b.pk, c_.pk]
    assert ids("stake=2&seats=4") == [b.pk, c_.pk]
    assert ids("free_seats=2") == [b.pk, c_.pk]
    assert ids("free_seats=1&game=rummy500&seats=2") == [a.pk]
    for junk in ("game=poker", "stake=0", "seats=x", "free_seats=-1"):
        answer = zoe.get(f"/api/v1/tables/?{junk}")
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "request.invalid_parameter", (
            junk
        )


@pytest.mark.django_db
def test_a_refusal_under_an_idempotency_key_is_in_the_requests_language(
    make_player: Any, client_for: Any
) -> None:
    zoe = make_player("zoe")
    answer = client_for(zoe).post(
        URL, {"game": "board"}, format="json", HTTP_IDEMPOTENCY_KEY="k-it", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert answer.status_code == 409
    assert answer.json()["error"]["message"].startswith("Nessun tavolo aperto")
