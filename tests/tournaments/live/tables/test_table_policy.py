"""The table policy: a ring table's decisions (pure, no database), and play asking the table's policy rather
than deciding itself (a policy plugged in for one table changes the PCR and the next deal)."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Transfer
from ledger.settlement import pcr_transfers
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import play_out_by_clock
from tournaments.live.models import Game, GameStatus, Round, Seat, SeatStatus, Table
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import policy as table_policy
from tournaments.live.tables.policy import RING, AfterRound, RingTablePolicy

STATUSES = [s.value for s in SeatStatus if s != SeatStatus.LEFT]


def test_a_ring_round_is_worth_pcr_times_multiplier_and_says_so() -> None:
    table = Table(pcr=7, multiplier=3)
    assert RING.round_pcr(table, Round(number=1)) == 21
    assert RING.settlement_record(table, Round(number=1)) == {"table_pcr": 7, "multiplier": 3}


def test_a_ring_table_shares_ties() -> None:
    assert RING.tie_break_keys(result={"scores": {"ann": 10, "bob": 10}}) is None


@pytest.mark.parametrize("stack", [-1, 0, 1, 500])
def test_at_the_deal_a_seat_without_chips_is_unseated(stack: int) -> None:
    assert RING.deals_in(seat=Seat(), stack=stack) is (stack > 0)


def test_two_seats_deal() -> None:
    assert [RING.enough_to_deal(n) for n in range(5)] == [False, False, True, True, True]


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("stack", [0, 1])
def test_after_a_round(status: str, stack: int) -> None:
    fate = RING.after_round(status=status, stack=stack)
    if status in (SeatStatus.LEAVING, SeatStatus.ABSENT):
        assert fate is AfterRound.RELEASED  # cashed out, chips or not
    elif status == SeatStatus.ACTIVE and stack == 0:
        assert fate is AfterRound.SITS_OUT  # the pause is the time to top up
    else:
        assert fate is AfterRound.STAYS


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("stack", [0, 1])
def test_ready_for_the_next_deal(status: str, stack: int) -> None:
    expected = stack > 0 and status in (SeatStatus.ACTIVE, SeatStatus.SITTING_OUT)
    assert RING.is_ready(status=status, stack=stack) is expected


def test_the_next_deal_comes_after_the_pause_once_two_are_ready(settings: Any) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 4
    assert [RING.next_deal_in(ready=n) for n in range(4)] == [None, None, 4.0, 4.0]


def test_the_round_ends_one_answer_is_the_policys_answers(settings: Any) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 4
    table, round_ = Table(pcr=7, multiplier=3), Round(number=1)
    answer = RING.round_end(table=table, round_=round_, result={"scores": {}}, seated=3, settles=True)
    for status in STATUSES:
        for chips in (False, True):
            assert answer.fates[(status, chips)] is RING.after_round(status=status, stack=int(chips))
            assert ((status, chips) in answer.ready) is RING.is_ready(status=status, stack=int(chips))
    assert list(answer.waits) == [None, None, 4.0, 4.0]
    assert (answer.pcr, dict(answer.record), answer.tie_keys) == (21, {"table_pcr": 7, "multiplier": 3}, None)
    assert answer.acts_when_settled is False  # `round_settled` does nothing: not called
    points_only = RING.round_end(table=table, round_=round_, result={}, seated=0, settles=False)
    assert (points_only.pcr, dict(points_only.record), list(points_only.waits)) == (0, {}, [None])


def test_a_table_without_a_tournament_is_a_ring_table() -> None:
    assert table_policy.policy_for(Table(pcr=1)) is RING


class WaitForTheTournament(RingTablePolicy):
    """What a tournament table will do: its own PCR, and no next deal until the tournament says so."""

    def round_pcr(self, table: Table, round_: Round) -> int:
        return 3

    def settlement_record(self, table: Table, round_: Round) -> dict[str, Any]:
        return {"level_pcr": 3}

    def next_deal_in(self, *, ready: int) -> float | None:
        return None


@pytest.mark.django_db
def test_play_settles_and_schedules_as_the_tables_policy_says(
    make_table: Any, make_player: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy = WaitForTheTournament()
    monkeypatch.setattr(table_policy, "policy_for", lambda table: policy)
    table = make_table(pcr=1, max_buy_in=5000, options={"max_timeouts": 20, "max_timeouts_per_round": 100})
    for name in ("ann", "bob"):
        sat = client_for(make_player(name)).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 5000})
        assert sat.status_code == 200, sat.content
    game = Game.objects.get(table=table)
    # Two seats with chips, but this policy deals only when told to: nothing is scheduled ...
    assert game.next_round_at is None
    # ... and every deal it is told to make goes ahead. Rounds are dealt until one has a winner (a round the
    # server plays out can end in a tie for the top score, which moves no chips).
    for _ in range(8):
        assert round_start.start_round(game_id=game.pk) is not None
        round_ = play_out_by_clock(game)
        players = list(round_.players)
        start = (round_.dealer + 1) % len(players)
        order = players[start:] + players[:start]
        expected = pcr_transfers(scores=round_.scores or {}, pcr=3, stacks=round_.stacks, seat_order=order)
        assert round_.transfers == [
            {"from": payer, "to": payee, "amount": chips, "kind": "settlement"}
            for payer, payee, chips in expected
        ]
        game.refresh_from_db()
        assert game.status == GameStatus.WAITING and game.next_round_at is None
        if expected:
            break
    assert expected, "no round had a winner: nothing shows the PCR"
    computation = Transfer.objects.get(idempotency_key=f"round:{round_.pk}:settle").computation
    assert computation["level_pcr"] == 3 and "table_pcr" not in computation
    # Both seats are ready (a ring table would deal again after the pause); this one waits.
    seats = Seat.objects.filter(table=table, status=SeatStatus.ACTIVE, stack_account__balance__gt=0)
    assert seats.count() == 2
    assert_reconciled()
