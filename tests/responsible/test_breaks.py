"""Cool-off and self-exclusion (docs/rules.md "Responsible play", "Breaks"): the lengths offered, never
shortened, an indefinite exclusion revoked only after 6 months and then 7 days later; during a break no seat,
registration, top-up or grant (403 `player.on_break`, nothing changed), registrations in tournaments not yet
started refunded, ring seats left at the round's end with their chips back in the wallet, running tournaments
played on by the clock, history and cash-out still there."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.utils import timezone

from ledger.models import Account, AccountKind, Entry, Transfer, TransferKind
from ledger.services import accounts, grants
from responsible.breaks import enforcement, selectors, services
from responsible.breaks.models import Break
from tests.factories import FAST, MultiTournamentFactory, TournamentFactory
from tests.ledger.utils import assert_reconciled
from tests.responsible.helpers import play_out_round
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, GameStatus, Seat, SeatStatus, Table
from tournaments.live.rounds import start as round_start
from tournaments.tournament.models import EntryStatus, TournamentEntry

pytestmark = pytest.mark.django_db

CLOCKS = {"turn_seconds": 7, "time_bank_seconds": 0, "max_timeouts": 20, "max_timeouts_per_round": 100}


@pytest.fixture(autouse=True)
def no_broker(monkeypatch: Any) -> None:
    """The services' tasks are run by the test itself (the clocks), never sent."""
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)


def _wallet(user: Any) -> int:
    return accounts.get_wallet(user=user).balance


def _take(client: Any, **body: Any) -> Any:
    return client.post("/api/v1/me/breaks/", body, format="json")


def _snapshot() -> tuple[Any, ...]:
    """Everything a refused stake must leave as it was."""
    return (
        tuple(Account.objects.order_by("pk").values_list("pk", "balance")),
        Transfer.objects.count(),
        tuple(Seat.objects.order_by("pk").values_list("pk", "status")),
        tuple(TournamentEntry.objects.order_by("pk").values_list("pk", "status")),
        Break.objects.count(),
    )


@pytest.mark.parametrize(
    ("kind", "days", "indefinite"),
    [
        ("cool_off", 1, False),
        ("cool_off", 2, False),
        ("cool_off", 7, False),
        ("cool_off", 30, False),
        ("cool_off", 42, False),
        ("self_exclusion", 30, False),
        ("self_exclusion", 60, False),
        ("self_exclusion", 90, False),
        ("self_exclusion", None, True),
    ],
    ids=lambda v: str(v),
)
def test_every_length_offered_is_taken(
    make_player: Any, client_for: Any, kind: str, days: Any, indefinite: bool
) -> None:
    ann = make_player("ann")
    body: dict[str, Any] = {"kind": kind, "indefinite": indefinite}
    if days is not None:
        body["days"] = days
    answer = _take(client_for(ann), **body)
    assert answer.status_code == 201, answer.content
    state = answer.json()
    assert state["on_break"] is True and state["kind"] == kind and state["indefinite"] is indefinite
    if indefinite:
        assert state["until"] is None and state["revocable_at"] is not None
    else:
        until = datetime.fromisoformat(state["until"])
        assert abs(until - timezone.now() - timedelta(days=days)) < timedelta(minutes=1)
    assert state["breaks"][0]["kind"] == kind and state["breaks"][0]["applied_by"] is None
    assert selectors.is_on_break(ann)
    entry = LogEntry.objects.get(object_id=str(state["breaks"][0]["id"]))
    assert entry.user_id == ann.pk and "taken by the player" in entry.change_message


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "cool_off", "days": 3},
        {"kind": "cool_off", "days": 90},
        {"kind": "self_exclusion", "days": 7},
        {"kind": "cool_off", "indefinite": True},
        {"kind": "self_exclusion", "days": 30, "indefinite": True},
        {"kind": "self_exclusion"},
    ],
    ids=[
        "cool-off-3",
        "cool-off-90",
        "exclusion-7",
        "indefinite-cool-off",
        "days-and-indefinite",
        "no-length",
    ],
)
def test_a_length_not_offered_is_refused_and_changes_nothing(
    make_player: Any, client_for: Any, body: Any
) -> None:
    ann = make_player("ann")
    before = _snapshot()
    answer = _take(client_for(ann), **body)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "break.invalid"
    assert _snapshot() == before and not selectors.is_on_break(ann)


def test_a_break_is_never_shortened(make_player: Any, client_for: Any) -> None:
    ann = make_player("ann")
    client = client_for(ann)
    assert _take(client, kind="cool_off", days=30).status_code == 201
    before = _snapshot()
    # Shorter than the 30 days in force: refused. (The same 30 days again ends a moment later: that extends it.)
    for body in (
        {"kind": "cool_off", "days": 7},
        {"kind": "cool_off", "days": 2},
        {"kind": "cool_off", "days": 1},
    ):
        answer = _take(client, **body)
        assert answer.status_code == 409, body
        error = answer.json()["error"]
        assert error["code"] == "break.shorter" and error["details"]["indefinite"] is False
        assert _snapshot() == before
    # A longer one is taken: the player is on a break until the later end.
    assert _take(client, kind="self_exclusion", days=60).status_code == 201
    state = client.get("/api/v1/me/breaks/").json()
    assert state["kind"] == "self_exclusion" and len(state["breaks"]) == 2
    assert datetime.fromisoformat(state["until"]) - timezone.now() > timedelta(days=59)
    # Indefinite: nothing is longer.
    assert _take(client, kind="self_exclusion", indefinite=True).status_code == 201
    for body in ({"kind": "self_exclusion", "days": 90}, {"kind": "self_exclusion", "indefinite": True}):
        assert _take(client, **body).json()["error"]["code"] == "break.shorter"


def test_an_indefinite_exclusion_is_revoked_after_6_months_and_ends_7_days_later(
    make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    client = client_for(ann)
    none = client.post("/api/v1/me/breaks/revoke/")
    assert none.status_code == 409 and none.json()["error"]["details"]["reason"] == "no_indefinite_exclusion"
    assert _take(client, kind="self_exclusion", indefinite=True).status_code == 201
    row = Break.objects.get(player=ann)
    before = _snapshot()
    early = client.post("/api/v1/me/breaks/revoke/")
    assert early.status_code == 409
    error = early.json()["error"]
    assert error["code"] == "break.not_revocable" and error["details"]["reason"] == "too_early"
    assert datetime.fromisoformat(error["details"]["revocable_at"]) - timezone.now() > timedelta(days=180)
    assert _snapshot() == before
    # Five months and 29 days on: still too early; six months on: revocable.
    started = timezone.now()
    Break.objects.filter(pk=row.pk).update(starts_at=selectors.add_months(started, -6) + timedelta(days=1))
    assert client.post("/api/v1/me/breaks/revoke/").status_code == 409
    Break.objects.filter(pk=row.pk).update(starts_at=selectors.add_months(started, -6) - timedelta(minutes=1))
    answer = client.post("/api/v1/me/breaks/revoke/")
    assert answer.status_code == 200, answer.content
    state = answer.json()
    applies = datetime.fromisoformat(state["revocation_applies_at"])
    assert abs(applies - timezone.now() - timedelta(days=7)) < timedelta(minutes=1)
    # Still excluded during the cooling period, free after it; asking again changes nothing.
    assert state["on_break"] is True and datetime.fromisoformat(state["until"]) == applies
    assert client.post("/api/v1/me/breaks/revoke/").status_code == 200
    assert Break.objects.get(pk=row.pk).ends_at == applies
    assert selectors.is_on_break(ann, now=applies - timedelta(seconds=1))
    assert not selectors.is_on_break(ann, now=applies)


def test_add_months_keeps_the_day_or_the_months_last() -> None:
    moment = timezone.now().replace(year=2026, month=8, day=31)
    assert selectors.add_months(moment, 6).date().isoformat() == "2027-02-28"
    assert selectors.add_months(moment, -6).date().isoformat() == "2026-02-28"
    assert selectors.add_months(moment.replace(month=1, day=15), 6).date().isoformat() == "2026-07-15"


def test_on_a_break_everything_that_stakes_is_refused_and_nothing_changes(
    admin_user: Any, make_table: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    client = client_for(ann)
    seated = make_table()
    assert client.post(f"/api/v1/tables/{seated.pk}/sit/", {"buy_in": 300}).status_code == 200
    other = make_table()
    private = make_table(private=True)
    single = TournamentFactory.create(created_by=admin_user)
    multi = MultiTournamentFactory.create(created_by=admin_user)
    grants.configure(enabled=True, welcome_chips=0, daily_floor=1_000_000)
    assert _take(client, kind="cool_off", days=1).status_code == 201
    # The seat was left at once (no round running): the chips are back.
    assert Seat.objects.get(table=seated, player=ann).status == SeatStatus.LEFT
    assert _wallet(ann) == 10_000
    before = _snapshot()
    refusals = [
        client.post(f"/api/v1/tables/{other.pk}/sit/", {"buy_in": 300}),
        client.post(f"/api/v1/tables/{seated.pk}/sit/", {"buy_in": 300}),
        client.post("/api/v1/tables/join/", {"code": private.code, "buy_in": 300}, format="json"),
        client.post(f"/api/v1/tournaments/{single.pk}/register/"),
        client.post(f"/api/v1/tournaments/{multi.pk}/register/"),
        client.post("/api/v1/wallet/top-up/"),
    ]
    for answer in refusals:
        assert answer.status_code == 403, answer.content
        error = answer.json()["error"]
        assert error["code"] == "player.on_break" and error["details"]["kind"] == "cool_off"
        assert datetime.fromisoformat(error["details"]["until"]) > timezone.now()
    assert _snapshot() == before
    # History and the wallet stay readable.
    assert client.get("/api/v1/wallet/").json()["balance"] == 10_000
    assert client.get("/api/v1/me/rounds/").status_code == 200
    assert_reconciled()


def test_a_ring_seat_is_left_at_the_rounds_end_with_its_chips_back(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    table = make_table(options=CLOCKS)
    ann, bob, cid = make_player("ann"), make_player("bob"), make_player("cid")
    for user in (ann, bob, cid):
        assert client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    game = Game.objects.get(table=table)
    assert round_start.start_round(game_id=game.pk) is not None
    assert _take(client_for(ann), kind="self_exclusion", days=30).status_code == 201
    seat = Seat.objects.get(table=table, player=ann)
    assert seat.status == SeatStatus.LEAVING
    play_out_round(table)
    seat.refresh_from_db()
    assert seat.status == SeatStatus.LEFT
    assert seat.stack_account is not None and seat.stack_account.balance == 0
    # What the stack held after the round (the buy-in and the round's result) came back to the wallet.
    cashed = Entry.objects.filter(
        transfer__kind=TransferKind.CASH_OUT,
        transfer__table_id=table.pk,
        account__kind=AccountKind.WALLET,
        account__user=ann,
    ).values_list("amount", flat=True)
    assert len(cashed) == 1 and _wallet(ann) == 9_700 + cashed[0]
    # Every chip the player brought or won is in the wallet: nothing stays at the table.
    assert not Account.objects.filter(user=ann, kind=AccountKind.SEAT_STACK, balance__gt=0).exists()
    # The others play on.
    assert Seat.objects.filter(table=table, status__in=(SeatStatus.ACTIVE,)).count() == 2
    assert_reconciled()


def test_registrations_in_tournaments_not_yet_started_are_refunded(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    client = client_for(ann)
    single = TournamentFactory.create(created_by=admin_user)
    multi = MultiTournamentFactory.create(created_by=admin_user)
    for tournament in (single, multi):
        assert client.post(f"/api/v1/tournaments/{tournament.pk}/register/").status_code == 201
    assert _wallet(ann) == 10_000 - 2 * 110
    assert _take(client, kind="cool_off", days=7).status_code == 201
    assert _wallet(ann) == 10_000
    for tournament in (single, multi):
        entry = TournamentEntry.objects.get(tournament=tournament, player=ann)
        assert entry.status == EntryStatus.UNREGISTERED
        refund = Transfer.objects.get(kind=TransferKind.REFUND, entry_id=entry.pk)
        assert refund.computation["buy_in"] == 100 and refund.computation["fee"] == 10
    assert_reconciled()


def test_a_running_tournament_is_played_on_by_the_clock(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    tournament = TournamentFactory.create(created_by=admin_user, options={**FAST, **CLOCKS})
    ann, bob, cid = (make_player(name) for name in ("ann", "bob", "cid"))
    for user in (ann, bob, cid):
        assert client_for(user).post(f"/api/v1/tournaments/{tournament.pk}/register/").status_code == 201
    table = Table.objects.get(tournament=tournament)
    assert round_start.start_round(game_id=Game.objects.get(table=table).pk) is not None
    assert _take(client_for(ann), kind="cool_off", days=2).status_code == 201
    seat = Seat.objects.get(table=table, player=ann)
    # Still seated (nothing forfeited), played by the server.
    assert seat.status == SeatStatus.ABSENT
    assert TournamentEntry.objects.get(tournament=tournament, player=ann).status == EntryStatus.PLAYING
    back = client_for(ann).post(f"/api/v1/tournaments/{tournament.pk}/back/")
    assert back.status_code == 403 and back.json()["error"]["code"] == "player.on_break"
    assert Seat.objects.get(pk=seat.pk).status == SeatStatus.ABSENT
    # The round ends with the server playing the absent seat's turns: the tournament goes on.
    play_out_round(table)
    assert Game.objects.get(table=table).status != GameStatus.PLAYING
    assert Seat.objects.get(pk=seat.pk).status == SeatStatus.ABSENT
    assert_reconciled()


def test_a_player_on_a_break_can_still_cash_out(make_table: Any, make_player: Any, client_for: Any) -> None:
    """A seat the break has not reached yet (a stake that raced it) is left by the player, chips back."""
    table = make_table()
    ann = make_player("ann")
    client = client_for(ann)
    assert client.post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    Break.objects.create(
        player=ann,
        kind="cool_off",
        days=1,
        starts_at=timezone.now(),
        ends_at=timezone.now() + timedelta(days=1),
    )
    assert _wallet(ann) == 9_700
    answer = client.post(f"/api/v1/tables/{table.pk}/leave/")
    assert answer.status_code == 200, answer.content
    assert _wallet(ann) == 10_000
    assert_reconciled()


def test_the_sweep_finishes_what_a_break_left(
    admin_user: Any, make_table: Any, make_player: Any, client_for: Any
) -> None:
    table = make_table()
    ann, bob = make_player("ann"), make_player("bob")
    tournament = MultiTournamentFactory.create(created_by=admin_user)
    assert client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    assert client_for(ann).post(f"/api/v1/tournaments/{tournament.pk}/register/").status_code == 201
    assert client_for(bob).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    # A break written without its enforcement (a crash between the two).
    Break.objects.create(
        player=ann,
        kind="cool_off",
        days=1,
        starts_at=timezone.now(),
        ends_at=timezone.now() + timedelta(days=1),
    )
    assert enforcement.sweep() == 1
    assert Seat.objects.get(table=table, player=ann).status == SeatStatus.LEFT
    assert TournamentEntry.objects.get(tournament=tournament, player=ann).status == EntryStatus.UNREGISTERED
    assert Seat.objects.get(table=table, player=bob).status != SeatStatus.LEFT
    assert _wallet(ann) == 10_000
    # Nothing more to do: the next sweep finds nobody, and the break was marked enforced.
    assert enforcement.sweep() == 0
    assert Break.objects.get(player=ann).enforced_at is not None
    assert_reconciled()


def test_after_the_break_the_player_plays_again(make_table: Any, make_player: Any, client_for: Any) -> None:
    ann = make_player("ann")
    assert _take(client_for(ann), kind="cool_off", days=1).status_code == 201
    Break.objects.filter(player=ann).update(
        starts_at=timezone.now() - timedelta(days=1, minutes=1), ends_at=timezone.now() - timedelta(minutes=1)
    )
    table = make_table()
    assert client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    assert client_for(ann).get("/api/v1/me/breaks/").json()["on_break"] is False


def test_the_refusal_is_in_italian(make_table: Any, make_player: Any, client_for: Any) -> None:
    ann = make_player("ann")
    assert _take(client_for(ann), kind="self_exclusion", indefinite=True).status_code == 201
    table = make_table()
    answer = client_for(ann).post(
        f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}, HTTP_ACCEPT_LANGUAGE="it"
    )
    error = answer.json()["error"]
    assert error["code"] == "player.on_break" and error["details"] == {
        "kind": "self_exclusion",
        "until": None,
        "indefinite": True,
    }
    assert "pausa" in error["message"] or "escluso" in error["message"], error["message"]


def test_is_on_break_is_one_query(make_player: Any, django_assert_num_queries: Any) -> None:
    ann = make_player("ann")
    with django_assert_num_queries(1):
        assert selectors.is_on_break(ann) is False
    services.take_break(user=ann, kind="cool_off", days=1)
    with django_assert_num_queries(1):
        assert selectors.is_on_break(ann.pk) is True


def test_staff_apply_a_break_with_a_reason_list_it_and_export_it(
    staff_user: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    make_player("bob")
    staff = client_for(staff_user)
    body = {"username": "ann", "kind": "self_exclusion", "days": 90, "reason": "asked by phone"}
    # Players cannot; staff must say why.
    assert client_for(ann).post("/api/v1/responsible/breaks/", body, format="json").status_code == 403
    assert client_for(ann).get("/api/v1/responsible/breaks/").status_code == 403
    no_reason = staff.post("/api/v1/responsible/breaks/", {**body, "reason": " "}, format="json")
    assert no_reason.status_code == 400 and not Break.objects.exists()
    answer = staff.post("/api/v1/responsible/breaks/", body, format="json")
    assert answer.status_code == 201, answer.content
    row = answer.json()
    assert row["username"] == "ann" and row["applied_by"] == "auditor" and row["reason"] == "asked by phone"
    assert row["enforced_at"] is not None
    entry = LogEntry.objects.get(object_id=str(row["id"]))
    assert entry.user_id == staff_user.pk and "asked by phone" in entry.change_message
    # Never shortened by staff either.
    shorter = staff.post("/api/v1/responsible/breaks/", {**body, "days": 30}, format="json")
    assert shorter.status_code == 409 and shorter.json()["error"]["code"] == "break.shorter"
    assert Break.objects.count() == 1
    services.take_break(user=make_player("cid"), kind="cool_off", days=1)
    Break.objects.filter(player__username="cid").update(
        starts_at=timezone.now() - timedelta(days=2), ends_at=timezone.now() - timedelta(days=1)
    )
    listing = staff.get("/api/v1/responsible/breaks/").json()["results"]
    assert [r["username"] for r in listing] == ["ann", "cid"]
    assert [
        r["username"] for r in staff.get("/api/v1/responsible/breaks/?active=true").json()["results"]
    ] == ["ann"]
    assert [r["username"] for r in staff.get("/api/v1/responsible/breaks/?player=cid").json()["results"]] == [
        "cid"
    ]
    assert staff.get("/api/v1/responsible/breaks/?kind=nonsense").status_code == 400
    csv = staff.get("/api/v1/responsible/breaks/?format=csv")
    assert csv.status_code == 200 and "asked by phone" in csv.content.decode()


def test_the_admin_applies_a_break_never_shortens_one_and_changes_nothing(
    admin_user: Any, make_player: Any
) -> None:
    ann = make_player("ann")
    client = Client()
    client.force_login(admin_user)
    form = {"player": ann.pk, "kind": "cool_off", "days": "7", "reason": "asked at the desk"}
    answer = client.post("/admin/responsible/break/add/", form)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    row = Break.objects.get(player=ann)
    assert row.applied_by == admin_user and row.days == 7
    assert LogEntry.objects.filter(object_id=str(row.pk)).count() == 1
    # Shorter: refused in the form, nothing written.
    refused = client.post("/admin/responsible/break/add/", {**form, "days": "2"})
    assert refused.status_code == 200 and "never shortened" in refused.content.decode()
    invalid = client.post("/admin/responsible/break/add/", {**form, "days": "3"})
    assert invalid.status_code == 200 and Break.objects.count() == 1
    # No change, no delete.
    assert client.get(f"/admin/responsible/break/{row.pk}/change/").status_code == 200
    assert client.post(f"/admin/responsible/break/{row.pk}/change/", {**form, "days": "1"}).status_code == 403
    assert client.post(f"/admin/responsible/break/{row.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Break.objects.get(pk=row.pk).days == 7
    assert client.get("/admin/responsible/break/", HTTP_ACCEPT_LANGUAGE="it").status_code == 200


def _streamed(response: Any) -> str:
    return b"".join(response.streaming_content).decode()


def test_the_audit_page_lists_breaks_and_verifications_and_exports_them(
    staff_user: Any, make_player: Any
) -> None:
    from responsible.verification import services as verification

    ann = make_player("ann")
    services.take_break(user=ann, kind="self_exclusion", indefinite=True)
    verification.mark_verified(player=ann, by=staff_user, document_type="passport")
    staff = Client()
    staff.force_login(staff_user)
    html = staff.get("/audit/responsible/?player=ann").content.decode()
    assert 'data-role="break-row"' in html and 'data-in-force="true"' in html
    assert 'data-role="verification-row"' in html and "passport" in html
    assert 'data-role="responsible-player"' in staff.get("/audit/players/ann/").content.decode()
    breaks_csv = _streamed(staff.get("/audit/responsible/breaks.csv?player=ann"))
    assert (
        breaks_csv.splitlines()[0].startswith("break_id,player,kind") and ",ann,self_exclusion," in breaks_csv
    )
    verified_csv = _streamed(staff.get("/audit/responsible/verifications.csv"))
    assert ",ann,verified,passport," in verified_csv
    italian = staff.get("/audit/responsible/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Gioco responsabile" in italian
    # Players are sent to the sign-in.
    player = Client()
    player.force_login(ann)
    assert player.get("/audit/responsible/").status_code == 302


def test_the_metrics_count_players_on_a_break(make_player: Any, settings: Any) -> None:
    from operations.collectors import DatabaseCollector

    services.take_break(user=make_player("ann"), kind="cool_off", days=1)
    services.take_break(user=make_player("bob"), kind="self_exclusion", indefinite=True)
    services.take_break(user=make_player("cid"), kind="self_exclusion", days=30)
    samples = {
        (m.name, tuple(s.labels.items())): s.value
        for m in DatabaseCollector().collect()
        for s in m.samples
        if m.name.startswith("ramino_players")
    }
    assert samples[("ramino_players_on_break", (("kind", "cool_off"),))] == 1
    assert samples[("ramino_players_on_break", (("kind", "self_exclusion"),))] == 1
    assert samples[("ramino_players_on_break", (("kind", "self_exclusion_indefinite"),))] == 1
    assert samples[("ramino_players_unverified_past_deadline", ())] == 0
