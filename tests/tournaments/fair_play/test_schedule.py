"""The abandonment schedule, pure (docs/rules.md "Fair play"): plain times in, no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from tournaments.fair_play.schedule import BARS, STREAK_GAP, bar_for, standing

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
# Gaps between abandonments of one streak: at most 72 h.
within = st.integers(min_value=1, max_value=int(STREAK_GAP.total_seconds())).map(
    lambda s: timedelta(seconds=s)
)
beyond = st.integers(min_value=int(STREAK_GAP.total_seconds()) + 1, max_value=10 * 86400).map(
    lambda s: timedelta(seconds=s)
)


def _times(gaps: list[timedelta]) -> list[datetime]:
    times = [T0]
    for gap in gaps:
        times.append(times[-1] + gap)
    return times


def test_the_schedule_is_the_rules() -> None:
    assert bar_for(1) is None
    assert [bar_for(n) for n in range(2, 9)] == [
        timedelta(minutes=10),
        timedelta(minutes=30),
        timedelta(hours=1),
        timedelta(hours=3),
        timedelta(hours=12),
        timedelta(hours=48),
        timedelta(hours=48),
    ]


def test_the_first_is_a_warning_and_the_second_bars_ten_minutes() -> None:
    first = standing([T0], now=T0 + timedelta(minutes=1))
    assert first.warned and first.until is None and first.streak == 1
    assert not standing([T0], now=T0 + timedelta(hours=25)).warned
    second = T0 + timedelta(hours=70)
    barred = standing([T0, second], now=second + timedelta(minutes=1))
    assert barred.streak == 2 and barred.until == second + timedelta(minutes=10)
    assert standing([T0, second], now=second + timedelta(minutes=10)).until is None


@given(gaps=st.lists(within, min_size=0, max_size=12))
def test_a_streak_bars_by_its_length(gaps: list[timedelta]) -> None:
    times = _times(gaps)
    last = times[-1]
    got = standing(list(reversed(times)), now=last)
    assert got.streak == len(times)
    expected = None if len(times) == 1 else BARS[min(len(times) - 2, len(BARS) - 1)]
    assert got.bar == expected
    assert got.until == (last + expected if expected else None)


@given(before=st.lists(within, max_size=8), gap=beyond, after=st.lists(within, max_size=8))
def test_72_hours_without_one_resets_the_count(
    before: list[timedelta], gap: timedelta, after: list[timedelta]
) -> None:
    early = _times(before)
    late = _times([early[-1] - T0 + gap, *after])[1:]
    got = standing(early + late, now=late[-1])
    assert got.streak == len(late)
    assert got == standing(late, now=late[-1])
    # And 72 h after the last one, nothing is left.
    assert standing(early + late, now=late[-1] + gap).streak == 0


@given(gaps=st.lists(within, min_size=1, max_size=12), extra=within)
def test_each_further_abandonment_never_shortens_the_bar(gaps: list[timedelta], extra: timedelta) -> None:
    times = _times(gaps)
    before = standing(times, now=times[-1])
    more = times[-1] + extra
    after = standing([*times, more], now=more)
    assert after.bar is not None and (before.bar is None or after.bar >= before.bar)
    assert after.streak == before.streak + 1


@given(gaps=st.lists(within, min_size=1, max_size=8), lift_after=within)
def test_a_lift_forgets_the_streak(gaps: list[timedelta], lift_after: timedelta) -> None:
    times = _times(gaps)
    lifted = times[-1] + min(lift_after, timedelta(minutes=1))
    got = standing(times, now=lifted, lifted_at=lifted)
    assert got.streak == 0 and got.until is None
    again = lifted + timedelta(minutes=5)
    assert standing([*times, again], now=again, lifted_at=lifted).streak == 1
