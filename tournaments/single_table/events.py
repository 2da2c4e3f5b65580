"""The event log of a one-table tournament (quick game, sit-and-go): what its page follows through
`GET /tournaments/{id}/events/` (docs/api.md "Tournaments"), recorded like a multi-table tournament's.

Kinds: `started` {entrants, table, game}; `round_result` {round, points, totals, tiebreak_totals, tiebreak}
after each settled round; `tiebreak` {tied, out, from_round} when tie-breaker rounds begin; `finished`
{winners, places, prizes}; `paused`, `resumed`; `cancelled` {reason, refunded} before the start, {reason,
shares} while running.

The after-round job may run twice for the same round (`progress.advance` is idempotent): a round's result is
recorded once, the first time the job sees that round settled (`record_round`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.live.models import Round
from tournaments.tournament import events
from tournaments.tournament.models import Tournament, TournamentEvent

ROUND_RESULT = "round_result"


def _points(round_: Round) -> dict[str, int]:
    return {p: int(v) for p, v in ((round_.result or {}).get("game_points") or {}).items()}


def started(*, tournament: Tournament, entrants: int, table_id: int, game_id: int) -> None:
    events.record(
        tournament=tournament,
        kind="started",
        data={"entrants": entrants, "table": table_id, "game": game_id},
    )


def record_round(
    *,
    tournament: Tournament,
    rounds: Sequence[Round],
    totals: Mapping[str, int],
    tiebreak_totals: Mapping[str, int],
) -> bool:
    """The last settled round's result and everyone's totals, unless already recorded. True when recorded."""
    if not rounds:
        return False
    last = rounds[-1]
    recorded = (
        TournamentEvent.objects.filter(tournament=tournament, kind=ROUND_RESULT)
        .order_by("-version")
        .values_list("data", flat=True)
        .first()
    )
    if recorded is not None and int(recorded.get("round", 0)) >= last.number:
        return False
    tiebreak = tournament.tiebreak_from_round is not None and last.number >= tournament.tiebreak_from_round
    events.record(
        tournament=tournament,
        kind=ROUND_RESULT,
        data={
            "round": last.number,
            "points": _points(last),
            "redeal": bool((last.result or {}).get("redeal")),
            "totals": dict(totals),
            "tiebreak_totals": dict(tiebreak_totals) if tiebreak else {},
            "tiebreak": tiebreak,
        },
    )
    return True


def tiebreak(*, tournament: Tournament, tied: Sequence[str], out: Sequence[str], from_round: int) -> None:
    events.record(
        tournament=tournament,
        kind="tiebreak",
        data={"tied": list(tied), "out": list(out), "from_round": from_round},
    )


def finished(*, tournament: Tournament, places: Mapping[str, int], prizes: Mapping[str, int]) -> None:
    winners = sorted(p for p, place in places.items() if place == 1)
    events.record(
        tournament=tournament,
        kind="finished",
        data={"winners": winners, "places": dict(places), "prizes": dict(prizes)},
    )


def cancelled_running(*, tournament: Tournament, shares: Mapping[str, int]) -> None:
    events.record(tournament=tournament, kind="cancelled", data={"reason": "admin", "shares": dict(shares)})


def cancelled_before_start(*, tournament: Tournament, refunded: int) -> None:
    events.record(tournament=tournament, kind="cancelled", data={"reason": "admin", "refunded": refunded})


def paused(*, tournament: Tournament) -> None:
    events.record(tournament=tournament, kind="paused")


def resumed(*, tournament: Tournament) -> None:
    events.record(tournament=tournament, kind="resumed")
