"""The standings of a running multi-table tournament from bounded queries (tournaments/multi_table/selectors.py
`running_standings`, docs/performance.md "The lobby's reads at 20,000 entrants"): every page equal to the same
page of the one query sorting every entry, chip ties (in seating order) and busts without a place included; the players still in read
down the ledger's index of the tournament's stacks by balance, the busted down the entries' index by place."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection

from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.reads import helpers as multi
from tournaments.multi_table import selectors
from tournaments.tournament import counters
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def shuffled(admin_user: Any, make_player: Any) -> Tournament:
    """Thirteen entrants at four tables; chips moved at random (ties left in), three busted: two with places,
    one without (busted while a comeback was possible)."""
    people = [make_player(f"p{i:02d}") for i in range(13)]
    t = multi.multi_tournament(admin_user)
    multi.register_all(t, people)
    multi.start(t, sizes=[4, 4, 3, 2])
    rng = random.Random(34)
    for n in range(12):
        winner, loser = rng.sample(people[3:], 2)
        multi.win_chips(t, winner=winner, loser=loser, amount=rng.choice([0, 100, 250]) or 100, key=f"w{n}")
    multi.bust(t, loser=people[0], winner=people[5], place=13, key="b0")
    multi.bust(t, loser=people[1], winner=people[6], place=12, key="b1")
    multi.bust(t, loser=people[2], winner=people[7], place=1, key="b2")
    TournamentEntry.objects.filter(tournament=t, player=people[2]).update(place=None)
    t.refresh_from_db()
    assert counters.check(tournament_ids=[t.pk]) == []
    return t


def test_every_slice_of_the_running_standings_is_the_sorted_ones(shuffled: Tournament) -> None:
    expected = list(selectors.sorted_standings(tournament=shuffled).rows)
    bounded = selectors.standings(tournament=shuffled)
    assert isinstance(bounded, selectors.Segments)
    assert bounded.count() == len(expected) == 13
    for start in range(14):
        for stop in range(start, 15):
            assert bounded[start:stop] == expected[start:stop], (start, stop)
    assert [r["status"] for r in expected].count("busted") == 3
    assert expected[-1]["place"] is None  # a bust without a place last
    assert_reconciled()


def test_the_api_pages_of_a_paused_tournament_are_the_sorted_ones(
    shuffled: Tournament, client_for: Any
) -> None:
    Tournament.objects.filter(pk=shuffled.pk).update(status=TournamentStatus.PAUSED)
    expected = [r["username"] for r in selectors.sorted_standings(tournament=shuffled).rows]
    anyone = client_for(None)
    for size in (1, 4, 5, 50):
        names: list[str] = []
        page = 1
        while True:
            body = anyone.get(
                f"/api/v1/tournaments/{shuffled.pk}/standings/?page_size={size}&page={page}"
            ).json()
            assert body["count"] == 13
            names += [r["username"] for r in body["results"]]
            if not body["next"]:
                break
            page += 1
        assert names == expected, size


def test_the_pages_read_down_the_indexes(shuffled: Tournament) -> None:
    """The plan of each part's page uses its index (sequential scans off: the tables are tiny here; at 250,000
    entrants the planner picks the index itself, docs/performance.md)."""
    if connection.vendor != "postgresql":
        pytest.fail("PostgreSQL only: the suite's database is PostgreSQL")
    bounded = selectors.running_standings(tournament=shuffled)
    (playing, _), (busted, _) = bounded.parts
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        plans = {}
        for name, query in (("playing", playing[:50]), ("busted", busted[:50])):
            sql, params = query.query.sql_with_params()
            cursor.execute(f"EXPLAIN {sql}", params)
            plans[name] = "\n".join(row[0] for row in cursor.fetchall())
    assert "ledger_acct_stack_by_balance" in plans["playing"], plans["playing"]
    assert "Sort" not in plans["playing"], plans["playing"]  # ties too come in the index's order
    assert "tourn_entry_busted_by_place" in plans["busted"], plans["busted"]
