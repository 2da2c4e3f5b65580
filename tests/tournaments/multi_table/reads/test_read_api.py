"""The read side of multi-table tournaments over HTTP (docs/api.md "Tournaments"): the list by status with
entrant counts, pools and levels in a fixed number of queries; standings with chips and tables, paginated by the
database; the open tables with players, levels and PCRs and the per-table view; the tables' games as ordinary
games; the staff payout report with re-entries."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ledger.models import AccountKind, TransferKind, tournament_chip_type
from ledger.services import accounts, postings
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import hidden_cards, leaked
from tests.tournaments.multi_table.reads import helpers as multi
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.tournament import counters
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db


def _queries(client: Any, url: str) -> tuple[Any, int]:
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(url)
    assert answer.status_code == 200, answer.content
    return answer.json(), len(captured.captured_queries)


# ------------------------------------------------------------------------------------------------- the list


def test_the_list_filters_by_one_or_several_statuses(admin_user: Any, client_for: Any) -> None:
    made = {s: multi.multi_tournament(admin_user, status=s) for s in ("registering", "running", "paused")}
    anyone = client_for(None)

    def ids(query: str) -> set[int]:
        answer = anyone.get(f"/api/v1/tournaments/{query}")
        assert answer.status_code == 200, answer.content
        return {t["id"] for t in answer.json()["results"]}

    assert ids("?status=running") == {made["running"].pk}
    assert ids("?status=running&status=paused") == {made["running"].pk, made["paused"].pk}
    assert ids("?status=registering,paused") == {made["registering"].pk, made["paused"].pk}
    assert ids("") == {t.pk for t in made.values()}
    assert ids("?status=running&kind=multi&game=rummy500") == {made["running"].pk}


@pytest.mark.parametrize("junk", ["?status=open", "?status=running,nope", "?status=running&status=RUNNING"])
def test_a_junk_status_is_400(client_for: Any, junk: str) -> None:
    answer = client_for(None).get(f"/api/v1/tournaments/{junk}")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "request.invalid_parameter"
    assert answer.json()["error"]["details"] == {"parameter": "status"}


def test_the_list_computes_entrants_pool_level_and_registered(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    people = [make_player() for _ in range(3)]
    t = multi.multi_tournament(admin_user, guarantee=250)
    multi.register_all(t, people)
    TournamentEntry.objects.filter(tournament=t, player=people[0]).update(reentries=2)
    counters.add(t, reentries=2)  # as late_entry keeps it: the list reads the row's counters
    t.level = 3
    t.save(update_fields=["level"])
    row = client_for(people[1]).get(f"/api/v1/tournaments/{t.pk}/").json()
    # Three entries and two re-entries: five buy-ins of 100 beat the guarantee of 250.
    assert (row["entrants"], row["prize_pool"], row["level"], row["registered"]) == (3, 500, 3, True)
    assert row["entry_status"] == "registered"
    stranger = client_for(make_player()).get(f"/api/v1/tournaments/{t.pk}/").json()
    assert (stranger["registered"], stranger["entry_status"]) == (False, None)
    for name in ("starting_stack", "seats", "pcr_schedule", "rounds_per_level", "starts_at"):
        assert row[name] is not None
    assert (row["starting_stack"], row["pcr_schedule"], row["rounds_per_level"]) == (1000, [1, 2, 5], 2)
    assert (row["late_registration_levels"], row["reentry"]) == (0, False)
    single = client_for(None).get("/api/v1/tournaments/?kind=multi").json()["results"][0]
    assert single["id"] == t.pk and single["entrants"] == 3
    assert_reconciled()


def test_a_list_of_twenty_tournaments_takes_as_many_queries_as_a_list_of_two(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    reader = make_player()
    people = [make_player() for _ in range(3)]

    def make(count: int) -> None:
        for _ in range(count):
            t = multi.multi_tournament(admin_user)
            multi.register_all(t, [reader, *people])

    make(2)
    body, few = _queries(client_for(reader), "/api/v1/tournaments/?page_size=50")
    assert len(body["results"]) == 2
    make(18)
    body, many = _queries(client_for(reader), "/api/v1/tournaments/?page_size=50")
    assert len(body["results"]) == 20
    assert all(t["entrants"] == 4 and t["registered"] and t["prize_pool"] == 400 for t in body["results"])
    assert many == few <= 4  # the count, the page, the page's entry counts, the caller's entries
    assert_reconciled()


# ----------------------------------------------------------------------------------------------- standings


@pytest.fixture
def running(admin_user: Any, make_player: Any) -> dict[str, Any]:
    """Seven entrants at two tables (4 + 3); after some play: ann 2500, bob 900, cat 600 at table 1 (dan busted
    there, 7th), eve 2200, fay 800 at table 2 (gus busted, 6th)."""
    names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
    people = {n: make_player(n) for n in names}
    t = multi.multi_tournament(admin_user)
    multi.register_all(t, list(people.values()))
    tables = multi.start(t, sizes=[4, 3])
    multi.win_chips(t, winner=people["ann"], loser=people["bob"], amount=100, key="s1")
    multi.win_chips(t, winner=people["ann"], loser=people["cat"], amount=400, key="s2")
    multi.bust(t, loser=people["dan"], winner=people["cat"], place=7, key="s3")
    multi.win_chips(t, winner=people["ann"], loser=people["cat"], amount=1000, key="s4")
    multi.win_chips(t, winner=people["eve"], loser=people["fay"], amount=200, key="s5")
    multi.bust(t, loser=people["gus"], winner=people["fay"], place=6, key="s6")
    multi.win_chips(t, winner=people["eve"], loser=people["fay"], amount=1000, key="s9")
    return {"tournament": t, "people": people, "tables": tables}


def test_multi_standings_show_chips_tables_and_places(running: dict[str, Any], client_for: Any) -> None:
    t, tables = running["tournament"], running["tables"]
    rows = client_for(None).get(f"/api/v1/tournaments/{t.pk}/standings/").json()["results"]
    got = [(r["username"], r["status"], r["chips"], r["table"], r["place"], r["total"]) for r in rows]
    t1, t2 = tables[0].pk, tables[1].pk
    assert got == [
        ("ann", "playing", 2500, t1, None, None),
        ("eve", "playing", 2200, t2, None, None),
        ("bob", "playing", 900, t1, None, None),
        ("fay", "playing", 800, t2, None, None),
        ("cat", "playing", 600, t1, None, None),
        ("gus", "busted", 0, None, 6, None),
        ("dan", "busted", 0, None, 7, None),
    ]
    chips = {r["username"]: r["chips"] for r in rows}
    assert sum(chips.values()) == 7 * 1000
    for name, amount in chips.items():
        entry = TournamentEntry.objects.get(tournament=t, player__username=name)
        assert entry.seat is not None  # a busted entry keeps its last seat, emptied
        assert amount == (entry.seat.stack_account.balance if entry.status == "playing" else 0)
        assert entry.seat.stack_account.balance == amount
    assert all(r["prize"] == 0 for r in rows)
    # A busted player still has a live entry (a re-entry would bring it back): the row says so.
    for name, status in (("dan", "busted"), ("ann", "playing")):
        mine = client_for(running["people"][name]).get(f"/api/v1/tournaments/{t.pk}/").json()
        assert (mine["registered"], mine["entry_status"]) == (True, status)
    t.refresh_from_db()
    assert t.mint_account is not None and t.mint_account.chip_type == tournament_chip_type(t.pk)
    assert t.mint_account.balance == -7000
    assert_reconciled()


def test_registered_entrants_show_no_chips_before_the_start(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    t = multi.multi_tournament(admin_user)
    multi.register_all(t, [make_player("zed"), make_player("amy")])
    rows = client_for(None).get(f"/api/v1/tournaments/{t.pk}/standings/").json()["results"]
    assert [(r["username"], r["status"], r["chips"], r["table"], r["place"]) for r in rows] == [
        ("zed", "registered", None, None, None),
        ("amy", "registered", None, None, None),
    ]


def _playing(admin_user: Any, make_player: Any, count: int) -> Any:
    t = multi.multi_tournament(admin_user)
    multi.register_all(t, [make_player() for _ in range(count)])
    sizes = [4] * (count // 4) + ([count % 4] if count % 4 else [])
    multi.start(t, sizes=sizes)
    return t


def test_standings_are_paginated_in_a_bounded_number_of_queries(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    small, large = _playing(admin_user, make_player, 8), _playing(admin_user, make_player, 40)
    anyone = client_for(None)
    body, few = _queries(anyone, f"/api/v1/tournaments/{small.pk}/standings/?page_size=5")
    assert (body["count"], len(body["results"])) == (8, 5)
    body, many = _queries(anyone, f"/api/v1/tournaments/{large.pk}/standings/?page_size=5")
    assert (body["count"], len(body["results"])) == (40, 5)
    assert many == few <= 3  # the tournament, the count, the page
    pages = [
        anyone.get(f"/api/v1/tournaments/{large.pk}/standings/?page_size=15&page={n}").json()["results"]
        for n in (1, 2, 3)
    ]
    names = [r["username"] for page in pages for r in page]
    assert len(names) == len(set(names)) == 40
    assert_reconciled()


def test_one_players_row_is_read_by_name_in_a_bounded_number_of_queries(
    admin_user: Any, make_player: Any, client_for: Any, running: dict[str, Any]
) -> None:
    """`?player=`: the row the standings give that player (chips and table while playing, place once known),
    alone; nobody's for a name without a live entry; as many statements at 40 entrants as at 8."""
    t = running["tournament"]
    anyone = client_for(None)
    every = anyone.get(f"/api/v1/tournaments/{t.pk}/standings/").json()["results"]
    for row in every:
        body = anyone.get(f"/api/v1/tournaments/{t.pk}/standings/?player={row['username']}").json()
        assert (body["count"], body["results"]) == (1, [row])
    for name in ("nobody", "", "ANN"):
        body = anyone.get(f"/api/v1/tournaments/{t.pk}/standings/", {"player": name}).json()
        assert (body["count"], body["results"]) == (0, [])
    small, large = _playing(admin_user, make_player, 8), _playing(admin_user, make_player, 40)
    counts = []
    for found in (small, large):
        last = TournamentEntry.objects.filter(tournament=found).order_by("-pk").first()
        assert last is not None
        body, queries = _queries(
            anyone, f"/api/v1/tournaments/{found.pk}/standings/?player={last.player.username}"
        )
        assert [r["username"] for r in body["results"]] == [last.player.username]
        counts.append(queries)
    assert counts[0] == counts[1] <= 2  # the tournament, the row


# -------------------------------------------------------------------------------------------------- tables


def test_the_tables_show_open_tables_with_players_chips_level_and_pcr(
    running: dict[str, Any], client_for: Any
) -> None:
    t, (one, two) = running["tournament"], running["tables"]
    multi.play_round(one, 3)  # rounds_per_level 2: round 3 is level 2 (PCR 2)
    multi.play_round(two, 5)  # level 3 (PCR 5)
    rows = client_for(None).get(f"/api/v1/tournaments/{t.pk}/tables/").json()["results"]
    assert [(r["table"], r["level"], r["pcr"], r["status"]) for r in rows] == [
        (one.pk, 2, 2, "open"),
        (two.pk, 3, 5, "open"),
    ]
    assert rows[0]["game"] == Game.objects.get(table=one).pk
    assert [(p["username"], p["seat"], p["chips"]) for p in rows[0]["players"]] == [
        ("ann", 1, 2500),
        ("bob", 2, 900),
        ("cat", 3, 600),
    ]
    assert [p["username"] for p in rows[1]["players"]] == ["eve", "fay"]
    alone = client_for(None).get(f"/api/v1/tournaments/{t.pk}/tables/{two.pk}/")
    assert alone.status_code == 200 and alone.json() == rows[1]
    multi.close_table(two)
    body = client_for(None).get(f"/api/v1/tournaments/{t.pk}/tables/").json()
    assert [r["table"] for r in body["results"]] == [one.pk] and body["count"] == 1
    assert counters.check(tournament_ids=[t.pk]) == []
    closed = client_for(None).get(f"/api/v1/tournaments/{t.pk}/tables/{two.pk}/").json()
    assert closed["status"] == "closed"


def test_a_table_of_no_round_yet_is_at_level_one(running: dict[str, Any], client_for: Any) -> None:
    t = running["tournament"]
    rows = client_for(None).get(f"/api/v1/tournaments/{t.pk}/tables/").json()["results"]
    assert {(r["level"], r["pcr"]) for r in rows} == {(1, 1)}


def test_another_tournaments_table_is_404(running: dict[str, Any], admin_user: Any, client_for: Any) -> None:
    other = multi.multi_tournament(admin_user)
    table = running["tables"][0]
    answer = client_for(None).get(f"/api/v1/tournaments/{other.pk}/tables/{table.pk}/")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "table.not_found"
    missing = client_for(None).get(f"/api/v1/tournaments/{running['tournament'].pk}/tables/999999/")
    assert missing.status_code == 404
    assert client_for(None).get(f"/api/v1/tournaments/999999/tables/{table.pk}/").status_code == 404


def test_tables_are_paginated_in_a_bounded_number_of_queries(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    small, large = _playing(admin_user, make_player, 8), _playing(admin_user, make_player, 40)
    anyone = client_for(None)
    body, few = _queries(anyone, f"/api/v1/tournaments/{small.pk}/tables/?page_size=3")
    assert (body["count"], len(body["results"])) == (2, 2)
    body, many = _queries(anyone, f"/api/v1/tournaments/{large.pk}/tables/?page_size=3")
    assert (body["count"], len(body["results"])) == (10, 3)
    assert all(len(r["players"]) == 4 for r in body["results"])
    # the tournament, the page of tables with games, their seats: counted by the row's `tables_open`
    assert many == few <= 3


def test_a_tournament_tables_game_is_an_ordinary_game(
    running: dict[str, Any], make_player: Any, client_for: Any, staff_user: Any
) -> None:
    table = running["tables"][0]
    game = Game.objects.get(table=table)
    # Dealt as the tournament's job schedules a table's round (a multi table deals only a scheduled round).
    Game.objects.filter(pk=game.pk).update(next_round_at=timezone.now())
    assert round_start.start_round(game_id=game.pk) is not None
    url = f"/api/v1/games/{game.pk}/"
    seated = client_for(running["people"]["ann"]).get(url)
    assert seated.status_code == 200, seated.content
    assert {p["username"] for p in seated.json()["players"]} == {"ann", "bob", "cat"}
    assert seated.json()["hand"]  # a seated player sees their own hand
    secret = hidden_cards(Game.objects.get(pk=game.pk), None)
    for spectator in (make_player("watcher"), staff_user, running["people"]["eve"]):
        seen = client_for(spectator).get(url)
        assert seen.status_code == 200
        assert seen.json().get("hand") is None
        assert leaked(seen.json(), secret) == set()
    assert client_for(None).get(url).status_code == 401
    # Its events and rounds: the table's players and staff, as at a ring table.
    assert client_for(running["people"]["ann"]).get(f"{url}events/").status_code == 200
    assert client_for(staff_user).get(f"{url}rounds/").status_code == 200
    assert client_for(running["people"]["eve"]).get(f"{url}events/").status_code == 403


# ------------------------------------------------------------------------------------------------- payouts


def test_the_payout_report_counts_re_entries(
    running: dict[str, Any], client_for: Any, staff_user: Any, make_player: Any
) -> None:
    t, people = running["tournament"], running["people"]
    # dan re-entered once: one more buy-in and fee, as registration posts them.
    dan = TournamentEntry.objects.get(tournament=t, player=people["dan"])
    TournamentEntry.objects.filter(pk=dan.pk).update(reentries=1)
    counters.add(t, reentries=1)  # as late_entry keeps it
    postings.post_transfer(
        kind=TransferKind.TOURNAMENT_BUY_IN,
        legs=[
            (accounts.get_wallet(user=people["dan"]), -110),
            (t.pool_account, 100),
            (accounts.get_house_account(kind=AccountKind.HOUSE_FEES), 10),
        ],
        idempotency_key=f"tournament:{t.pk}:entry:{dan.pk}:reentry:1",
        tournament_id=t.pk,
        entry_id=dan.pk,
    )
    report = client_for(staff_user).get(f"/api/v1/tournaments/{t.pk}/payouts/")
    assert report.status_code == 200, report.content
    body = report.json()
    assert (body["entrants"], body["buy_ins"], body["fees"], body["guarantee_paid"], body["prize_pool"]) == (
        8,
        800,
        80,
        0,
        800,
    )
    assert body["prizes"] == []
    listed = client_for(None).get(f"/api/v1/tournaments/{t.pk}/").json()
    assert (listed["entrants"], listed["prize_pool"]) == (7, 800)
    assert client_for(make_player("nosy")).get(f"/api/v1/tournaments/{t.pk}/payouts/").status_code == 403
    assert_reconciled()


def test_the_payout_report_lists_paid_prizes_with_places(
    running: dict[str, Any], client_for: Any, staff_user: Any
) -> None:
    t, people = running["tournament"], running["people"]
    TournamentEntry.objects.filter(tournament=t, player=people["ann"]).update(status="finished", place=1)
    TournamentEntry.objects.filter(tournament=t, player=people["eve"]).update(status="finished", place=2)
    pool = t.pool_account
    postings.post_transfer(
        kind=TransferKind.PAYOUT,
        legs=[
            (pool, -700),
            (accounts.get_wallet(user=people["ann"]), 490),
            (accounts.get_wallet(user=people["eve"]), 210),
        ],
        idempotency_key=f"tournament:{t.pk}:prizes",
        tournament_id=t.pk,
    )
    Tournament.objects.filter(pk=t.pk).update(status=TournamentStatus.FINISHED)
    body = client_for(staff_user).get(f"/api/v1/tournaments/{t.pk}/payouts/").json()
    assert [(p["place"], p["username"], p["amount"]) for p in body["prizes"]] == [
        (1, "ann", 490),
        (2, "eve", 210),
    ]
    assert body["prize_pool"] == 700
    csv = client_for(staff_user).get(f"/api/v1/tournaments/{t.pk}/payouts/?format=csv")
    assert csv.status_code == 200
    assert csv.content.decode().splitlines()[:2] == [
        "place,username,amount,transfer",
        f"1,ann,490,{body['prizes'][0]['transfer']}",
    ]
    assert_reconciled()


def test_the_winner_keeps_the_chips_they_finished_with_in_the_standings(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    # issue 31 (defect 18): once the tournament finished, the winner's stack (retired to the mint) read 0.
    from django.db import transaction

    from tournaments.multi_table import finish

    ann, bob = make_player("ann"), make_player("bob")
    t = multi.multi_tournament(admin_user, payouts=[100])
    multi.register_all(t, [ann, bob])
    multi.start(t, sizes=[2])
    multi.bust(t, loser=bob, winner=ann, place=2, key="b1")
    TournamentEntry.objects.filter(tournament=t, player=bob).update(bust_group=1, bust_start_chips=1000)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=t.pk)
        finish.finish(tournament=locked)
    rows = client_for(None).get(f"/api/v1/tournaments/{t.pk}/standings/").json()["results"]
    got = [(r["username"], r["status"], r["chips"], r["place"]) for r in rows]
    assert got == [("ann", "finished", 2000, 1), ("bob", "busted", 0, 2)]
    assert_reconciled()


def test_levels_past_the_structure_read_as_its_last_level(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    # issue 31 (defect 18): a structure of 3 levels read "level 5" on the tournament and "level 4" at its table.
    t = multi.multi_tournament(admin_user, pcr_schedule=[1, 2, 5], rounds_per_level=2)
    multi.register_all(t, [make_player("ann"), make_player("bob")])
    (table,) = multi.start(t, sizes=[2])
    multi.play_round(table, 7)  # round 7: level 4 by the count, past the 3 levels
    Tournament.objects.filter(pk=t.pk).update(level=5)
    body = client_for(None).get(f"/api/v1/tournaments/{t.pk}/").json()
    assert body["level"] == 3 and [lv["level"] for lv in body["levels"]] == [1, 2, 3]
    row = client_for(None).get(f"/api/v1/tournaments/{t.pk}/tables/").json()["results"][0]
    assert (row["level"], row["pcr"]) == (3, 5)
    multi.play_round(table, 3)  # round 3: level 2
    row = client_for(None).get(f"/api/v1/tournaments/{t.pk}/tables/").json()["results"][0]
    assert (row["level"], row["pcr"]) == (2, 2)


def test_one_entrant_reads_the_whole_pool_as_first_places_share(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    # issue 31 (defect 18): with one entrant the prize table read "1 · 70 % · 500".
    t = multi.multi_tournament(admin_user, payouts=[70, 30], guarantee=0)
    multi.register_all(t, [make_player("ann")])
    body = client_for(None).get(f"/api/v1/tournaments/{t.pk}/").json()
    assert body["payout_table"] == [{"place": 1, "percent": 100, "amount": body["prize_pool"]}]
    multi.register_all(t, [make_player("bob")])
    body = client_for(None).get(f"/api/v1/tournaments/{t.pk}/").json()
    assert [(p["place"], p["percent"]) for p in body["payout_table"]] == [(1, 70), (2, 30)]
    assert sum(p["amount"] for p in body["payout_table"]) == body["prize_pool"]
