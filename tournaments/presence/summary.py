"""The "I'm back" summary (docs/rules.md "Presence and reconnection", docs/api.md `GET /games/{id}/while-away/`):
every move the server played for the caller at a game between their connection's last drop and their return,
grouped by round, with what each of those rounds cost or won them (points and chips, once it is settled)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.errors import Forbidden
from tournaments.live import event_for, selectors
from tournaments.live.models import GameEvent, Round
from tournaments.presence import selectors as presence

# The most moves one summary lists (a player away for hours at a fast table): the newest are kept.
MAX_MOVES = 500


def _chips(transfers: list[dict[str, Any]], username: str) -> int:
    won = sum(int(t["amount"]) for t in transfers if t.get("to") == username)
    paid = sum(int(t["amount"]) for t in transfers if t.get("from") == username)
    return won - paid


def while_away(*, user: AbstractBaseUser | AnonymousUser, game_id: int) -> dict[str, Any]:
    """The caller's summary at the game: 404 as `GET /games/{id}/` answers it; 403 for someone who may not read
    the game's events. With no return recorded, `away_since` and `back_at` are null and `rounds` empty."""
    access = selectors.game_access(user=user, game_id=game_id)
    if not selectors.may_read_history(access=access) or access.username is None:
        raise Forbidden("Only the table's players and staff read its events.")
    username = access.username
    player_id = access.user.pk
    assert isinstance(player_id, int)  # signed in: `access.username` is set
    found = presence.latest_return(game_id=game_id, player_id=player_id)
    body: dict[str, Any] = {
        "game": game_id,
        "away_since": None,
        "back_at": None,
        "moves": 0,
        "truncated": False,
        "rounds": [],
    }
    if found is None:
        return body
    body["away_since"] = found.away_since.isoformat()
    body["back_at"] = found.back_at.isoformat()
    events = list(
        GameEvent.objects.filter(
            game_id=game_id,
            kind="move",
            created_at__gte=found.away_since,
            created_at__lte=found.back_at,
        ).order_by("version")
    )
    # (filtered in Python: JSON lookups are not portable to the embedded SQLite default)
    mine = [e for e in events if e.public.get("player") == username and e.public.get("server_played")]
    body["truncated"] = len(mine) > MAX_MOVES
    mine = mine[-MAX_MOVES:]
    body["moves"] = len(mine)
    numbers = sorted({int(e.public["round"]) for e in mine})
    rounds = {r.number: r for r in Round.objects.filter(game_id=game_id, number__in=numbers)}
    for number in numbers:
        round_ = rounds.get(number)
        settled = round_ is not None and round_.settled
        body["rounds"].append(
            {
                "round": number,
                "over": settled,
                "points": (round_.scores or {}).get(username) if settled and round_ is not None else None,
                "chips": _chips(list(round_.transfers), username) if settled and round_ is not None else None,
                "moves": [
                    {
                        "version": e.version,
                        "at": e.created_at.isoformat(),
                        "move": event_for(e, username)["move"],
                        **{k: v for k, v in event_for(e, username).items() if k in ("card", "cards")},
                    }
                    for e in mine
                    if int(e.public["round"]) == number
                ],
            }
        )
    return body
