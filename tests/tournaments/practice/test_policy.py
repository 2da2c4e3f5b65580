"""A practice table's decisions, without a database: points only, everyone dealt in whatever the (empty)
stack, an absent seat stays (only the player's absence closes the table), the leaving player is released, the
first round alone may be stacked."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tournaments.live.models import SeatStatus
from tournaments.live.tables.policy import PRACTICE_TABLES, RING_TABLES, AfterRound, StackedDeal, table_kind
from tournaments.practice.policy import PracticeTablePolicy


def _policy(first_deal: dict[str, Any] | None = None) -> PracticeTablePolicy:
    return PracticeTablePolicy(SimpleNamespace(player_id=1, first_deal=first_deal))  # type: ignore[arg-type]


def test_points_only_and_everyone_is_dealt_in() -> None:
    policy = _policy()
    assert policy.settles_chips is False
    assert policy.deals_in(seat=SimpleNamespace(), stack=0) is True  # type: ignore[arg-type]
    assert policy.is_ready(status=SeatStatus.ACTIVE, stack=0) is True
    assert policy.is_ready(status=SeatStatus.LEAVING, stack=0) is False
    assert policy.enough_to_deal(1) is False and policy.enough_to_deal(2) is True


@pytest.mark.parametrize(
    ("status", "fate"),
    [
        (SeatStatus.ACTIVE, AfterRound.STAYS),
        (SeatStatus.ABSENT, AfterRound.STAYS),
        (SeatStatus.LEAVING, AfterRound.RELEASED),
    ],
)
def test_after_the_round(status: str, fate: AfterRound) -> None:
    assert _policy().after_round(status=status, stack=0) is fate


def test_the_next_deal_follows_the_ring_tables_pause(settings: Any) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 7.0
    assert _policy().next_deal_in(ready=2) == 7.0
    assert _policy().next_deal_in(ready=1) is None


def test_only_the_first_round_is_stacked() -> None:
    deck = ["AS", "2S"]
    policy = _policy({"deck": deck, "dealer": "Bot Anna"})
    table: Any = SimpleNamespace(pk=1)
    assert policy.stacked_deal(table=table, number=1) == StackedDeal(deck=("AS", "2S"), dealer="Bot Anna")
    assert policy.stacked_deal(table=table, number=2) is None
    assert _policy().stacked_deal(table=table, number=1) is None


def test_a_practice_table_is_its_own_kind() -> None:
    practice: Any = SimpleNamespace(tournament_id=None, practice=True)
    ring: Any = SimpleNamespace(tournament_id=None, practice=False)
    assert table_kind(practice) == PRACTICE_TABLES and table_kind(ring) == RING_TABLES
