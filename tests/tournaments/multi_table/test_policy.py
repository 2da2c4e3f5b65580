"""The multi-table policy's pure decisions and the family-neutral readers of a round's result it uses."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tournaments.live.models import Round, Seat, SeatStatus, Table
from tournaments.live.rounds import results as round_results
from tournaments.live.tables import settings as table_settings
from tournaments.live.tables.policy_types import AfterRound
from tournaments.multi_table.policy import MultiTablePolicy, level_pcr
from tournaments.tournament.models import Tournament, TournamentKind, TournamentStatus


def _tournament(**overrides: Any) -> Tournament:
    fields: dict[str, Any] = {
        "pk": 7,
        "kind": TournamentKind.MULTI,
        "status": TournamentStatus.RUNNING,
        "pcr_schedule": [2, 5, 10],
        "rounds_per_level": 3,
        "multiplier": 2,
        "starts_at": timezone.now() + timedelta(hours=1),
        **overrides,
    }
    return Tournament(**fields)


def _policy(game: str = "rummy500", **overrides: Any) -> MultiTablePolicy:
    table = Table(pk=3, game=game, options={}, pcr=2, played_sync_round=overrides.pop("played", 0))
    return MultiTablePolicy(_tournament(**overrides), table)


@pytest.mark.parametrize(
    ("number", "level", "pcr"), [(1, 1, 2), (3, 1, 2), (4, 2, 5), (7, 3, 10), (40, 14, 10)]
)
def test_the_round_pcr_is_the_tables_level_times_the_multiplier(number: int, level: int, pcr: int) -> None:
    policy = _policy()
    assert level_pcr(policy.tournament, number) == (level, pcr)
    assert policy.round_pcr(policy.table, Round(number=number)) == pcr * 2
    record = policy.settlement_record(policy.table, Round(number=number))
    assert record == {"tournament": 7, "level": level, "level_pcr": pcr, "multiplier": 2}


def test_deals_only_running_with_two_and_in_round_for_round_only_the_owed_round() -> None:
    assert [_policy().enough_to_deal(n) for n in range(4)] == [False, False, True, True]
    assert not _policy(status=TournamentStatus.PAUSED).enough_to_deal(3)
    assert _policy(round_for_round=True, sync_round=4, played=3).enough_to_deal(2)
    assert not _policy(round_for_round=True, sync_round=4, played=4).enough_to_deal(2)
    policy = _policy()
    assert policy.deals_only_when_scheduled and policy.next_deal_in(ready=4) is None
    assert policy.deals_in(seat=Seat(), stack=1) and not policy.deals_in(seat=Seat(), stack=0)
    assert policy.after_round(status=SeatStatus.ACTIVE, stack=0) is AfterRound.STAYS
    assert policy.status_at_deal(SeatStatus.ABSENT) == SeatStatus.ABSENT


def test_tie_break_keys_rummy500_melded_then_who_went_out() -> None:
    result = {
        "scores": {"ann": 40, "bob": 40, "cid": 0},
        "details": {
            "went_out": "bob",
            "players": {"ann": {"placed_value": 55}, "bob": {"placed_value": 55}, "cid": {"placed_value": 0}},
        },
    }
    assert _policy().tie_break_keys(result=result) == {"ann": (55, 0), "bob": (55, 1), "cid": (0, 0)}


def test_melded_values_of_basic_rummy_count_the_placed_cards_and_board_rummy_has_none() -> None:
    rules = table_settings.build_rules("basic", {})
    result = {
        "scores": {"ann": 0, "bob": -12},
        "details": {
            "went_out": "ann",
            "players": {"ann": {"placed": ["7H", "8H", "9H"]}, "bob": {"placed": []}},
        },
    }
    assert round_results.melded_values(result, rules) == {"ann": 24, "bob": 0}
    assert round_results.went_out(result) == "ann"
    board = {"scores": {"ann": 30, "bob": 0}, "details": {"closer": "ann", "players": {"ann": {"hand": []}}}}
    assert round_results.melded_values(board, rules) == {"ann": 0, "bob": 0}
    assert round_results.went_out(board) == "ann"
