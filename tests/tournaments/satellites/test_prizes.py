"""docs/rules.md "Satellites": the pure arithmetic of a satellite's prizes (no database)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.satellites.prizes import Award, awards, seats_for


def test_seats_are_the_pool_over_the_face_value_rounded_down_and_never_more_than_the_players() -> None:
    assert seats_for(pool=1000, face_value=330) == 3
    assert seats_for(pool=1000, face_value=330, players=2) == 2
    assert seats_for(pool=100, face_value=330) == 0
    assert seats_for(pool=100, face_value=0) == 0


def test_places_up_to_the_seats_win_a_ticket_and_the_next_place_the_rest_in_chips() -> None:
    places = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
    got = awards(pool=1000, face_value=330, payouts=[100], places=places, registration_order=list(places))
    assert got == {
        "a": Award(1, 0),
        "b": Award(1, 0),
        "c": Award(1, 0),
        "d": Award(0, 10),
        "e": Award(0, 0),
    }


def test_with_no_seat_the_payout_table_pays_the_whole_pool_in_chips() -> None:
    places = {"a": 1, "b": 2, "c": 3}
    got = awards(pool=300, face_value=330, payouts=[70, 30], places=places, registration_order=list(places))
    assert got == {"a": Award(0, 210), "b": Award(0, 90), "c": Award(0, 0)}


def test_when_every_player_wins_a_ticket_the_rest_goes_to_place_one() -> None:
    places = {"a": 1, "b": 2}
    got = awards(pool=700, face_value=330, payouts=[100], places=places, registration_order=["a", "b"])
    assert got == {"a": Award(1, 40), "b": Award(1, 0)}


def test_a_winner_holding_an_entry_or_a_ticket_gets_the_face_value_in_chips() -> None:
    places = {"a": 1, "b": 2, "c": 3}
    got = awards(
        pool=700, face_value=330, payouts=[100], places=places, registration_order=list(places), holders={"b"}
    )
    assert got == {"a": Award(1, 0), "b": Award(0, 330), "c": Award(0, 40)}


def test_players_sharing_ticket_places_each_win_a_ticket() -> None:
    places = {"a": 1, "b": 1, "c": 3}
    got = awards(pool=700, face_value=330, payouts=[100], places=places, registration_order=list(places))
    assert got == {"a": Award(1, 0), "b": Award(1, 0), "c": Award(0, 40)}


def test_players_sharing_a_ticket_place_and_a_chip_place_split_their_value_in_chips() -> None:
    # seats 2: place 2 a ticket (330), place 3 the rest (40): b and c share 370, one chip to the earlier.
    places = {"a": 1, "b": 2, "c": 2}
    got = awards(pool=700, face_value=330, payouts=[100], places=places, registration_order=["a", "c", "b"])
    assert got == {"a": Award(1, 0), "c": Award(0, 185), "b": Award(0, 185)}
    places = {"a": 1, "b": 2, "c": 2}
    got = awards(pool=701, face_value=330, payouts=[100], places=places, registration_order=["a", "c", "b"])
    assert got["c"] == Award(0, 186) and got["b"] == Award(0, 185)


@st.composite
def _fields(draw: st.DrawFn) -> tuple[int, int, dict[str, int], set[str]]:
    players = draw(st.integers(min_value=1, max_value=12))
    names = [f"p{i}" for i in range(players)]
    # competition ranking from random keys: shared places as the tournaments make them
    keys = {n: draw(st.integers(min_value=0, max_value=4)) for n in names}
    ranked = sorted(keys.values(), reverse=True)
    places = {n: ranked.index(k) + 1 for n, k in keys.items()}
    holders = set(draw(st.lists(st.sampled_from(names), max_size=players)))
    return draw(st.integers(0, 50_000)), draw(st.integers(1, 5_000)), places, holders


@given(_fields(), st.sampled_from([[100], [60, 40], [50, 30, 20]]))
def test_the_awards_always_pay_the_pool_exactly_and_never_more_tickets_than_seats(
    fields: tuple[int, int, dict[str, int], set[str]], payouts: list[int]
) -> None:
    pool, face, places, holders = fields
    got = awards(
        pool=pool,
        face_value=face,
        payouts=payouts,
        places=places,
        registration_order=sorted(places),
        holders=holders,
    )
    assert set(got) == set(places)
    assert sum(a.value(face) for a in got.values()) == pool
    assert all(a.chips >= 0 and a.tickets in (0, 1) for a in got.values())
    assert sum(a.tickets for a in got.values()) <= seats_for(pool=pool, face_value=face, players=len(places))
    assert not any(got[h].tickets for h in holders)
    # a better place never gets less than a worse one (by value)
    for p in places:
        for q in places:
            if places[p] < places[q]:
                assert got[p].value(face) >= got[q].value(face) - 1


def test_a_one_table_satellite_plays_no_tie_breaker_when_every_tied_player_wins_a_seat() -> None:
    from tournaments.single_table.next_step import Next, Progress, decide

    tied = {"a": 40, "b": 40, "c": 10}

    def progress(stop_at: int) -> Progress:
        return Progress(
            kind="quick",
            totals=tied,
            main_rounds=1,
            target_score=None,
            rounds=1,
            tiebreak_rounds=5,
            stop_at=stop_at,
        )

    satellite = decide(progress(2))
    assert satellite.next is Next.FINISH and satellite.places == {"a": 1, "b": 1, "c": 3}
    # one seat: the winner is decided as in any tournament, by tie-breaker rounds
    assert decide(progress(1)).next is Next.TIEBREAK
