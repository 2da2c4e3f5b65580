"""Live play: tables, seats, games, rounds, moves, clocks and the Celery messages that drive them. It knows no
tournament kind: what a kind of table decides reaches it through its table policy (`tables/policy.py`).

Its sub-packages are its own: `tables/` (tables, settings, seats, the table policy), `moves/` (a move end to end),
`rounds/` (deal, advance, end, between rounds, replays), `clocks/`, `messaging/` (Celery messages and wake-ups),
`storage/` (the game's lock, rows and event log, the redacted reads) and `http/`. Every other package (the
tournament kinds, the shared tournament code, the other apps) uses only this module, the public face below, and
`tournaments.live.models` (`tests/test_architecture.py`); the app's wiring (`tournaments/tasks.py`, `urls.py`,
`admin.py`), the management commands and `devtools/` may name a sub-module.

The face is lazy (PEP 562): `tournaments.live.models` is imported while Django loads the apps, before the
services' own imports (the ledger's models among them) may be, so a name is imported on its first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tournaments.live.clocks.arming import clock_targets, rearm_clock_now_if_turn
    from tournaments.live.http.idempotent_views import IDEMPOTENCY_HEADER, answer_once
    from tournaments.live.http.schema_fields import PresetField
    from tournaments.live.http.views import (
        EVENTS_PARAMETERS,
        PLAY_AUTH_SCHEMA,
        PLAY_AUTHENTICATION_CLASSES,
        max_wait_seconds,
    )
    from tournaments.live.messaging import dispatch, fanout, wakeups
    from tournaments.live.moves.body import MoveField
    from tournaments.live.moves.pipeline import play_server_move
    from tournaments.live.rounds.advance import settle_state
    from tournaments.live.rounds.between import close_games, wind_down
    from tournaments.live.rounds.results import melded_values, went_out
    from tournaments.live.storage import selectors
    from tournaments.live.storage.events import event_for
    from tournaments.live.storage.locks import current_round, lock_game, seats_with_stacks
    from tournaments.live.tables import policy as table_policy
    from tournaments.live.tables import seat_guards
    from tournaments.live.tables import settings as table_settings
    from tournaments.live.tables.policy_types import AfterRound, RoundEnd, StackedDeal, TablePolicy
    from tournaments.live.tables.seats import cash_out, to_wallet
    from tournaments.live.tables.services import leave as leave_table
    from tournaments.live.tables.settings import (
        CLOCK_OPTIONS,
        MAX_BUY_IN,
        MAX_MULTIPLIER,
        MAX_PCR,
        MIN_SEATS,
        clock_range,
    )

# A name of the face: (the module that defines it, its name there; None: the module itself).
_FACE: dict[str, tuple[str, str | None]] = {
    # The table policy: the registry of table kinds (`table_policy.register`), its interface, where a freed
    # seat's chips go; the refusals other apps add to a seat.
    "table_policy": ("tournaments.live.tables.policy", None),
    "TablePolicy": ("tournaments.live.tables.policy_types", "TablePolicy"),
    "AfterRound": ("tournaments.live.tables.policy_types", "AfterRound"),
    "StackedDeal": ("tournaments.live.tables.policy_types", "StackedDeal"),
    "RoundEnd": ("tournaments.live.tables.policy_types", "RoundEnd"),
    "cash_out": ("tournaments.live.tables.seats", "cash_out"),
    "to_wallet": ("tournaments.live.tables.seats", "to_wallet"),
    "seat_guards": ("tournaments.live.tables.seat_guards", None),
    "leave_table": ("tournaments.live.tables.services", "leave"),
    # What a table may be: its settings' check and ranges, its ruleset, its clock options.
    "table_settings": ("tournaments.live.tables.settings", None),
    "MIN_SEATS": ("tournaments.live.tables.settings", "MIN_SEATS"),
    "MAX_PCR": ("tournaments.live.tables.settings", "MAX_PCR"),
    "MAX_MULTIPLIER": ("tournaments.live.tables.settings", "MAX_MULTIPLIER"),
    "MAX_BUY_IN": ("tournaments.live.tables.settings", "MAX_BUY_IN"),
    "CLOCK_OPTIONS": ("tournaments.live.tables.settings", "CLOCK_OPTIONS"),
    "clock_range": ("tournaments.live.tables.settings", "clock_range"),
    # A game under its lock, and the rounds: winding a table down, a stored result read back, the server's own
    # moves (practice bots) and the clocks they leave armed.
    "lock_game": ("tournaments.live.storage.locks", "lock_game"),
    "current_round": ("tournaments.live.storage.locks", "current_round"),
    "seats_with_stacks": ("tournaments.live.storage.locks", "seats_with_stacks"),
    "wind_down": ("tournaments.live.rounds.between", "wind_down"),
    "close_games": ("tournaments.live.rounds.between", "close_games"),
    "melded_values": ("tournaments.live.rounds.results", "melded_values"),
    "went_out": ("tournaments.live.rounds.results", "went_out"),
    "play_server_move": ("tournaments.live.moves.pipeline", "play_server_move"),
    "settle_state": ("tournaments.live.rounds.advance", "settle_state"),
    "clock_targets": ("tournaments.live.clocks.arming", "clock_targets"),
    "rearm_clock_now_if_turn": ("tournaments.live.clocks.arming", "rearm_clock_now_if_turn"),
    # Messages: Celery tasks by name, the long-polls' and the sockets' wake-ups; the redacted reads and events.
    "dispatch": ("tournaments.live.messaging.dispatch", None),
    "wakeups": ("tournaments.live.messaging.wakeups", None),
    "fanout": ("tournaments.live.messaging.fanout", None),
    "selectors": ("tournaments.live.storage.selectors", None),
    "event_for": ("tournaments.live.storage.events", "event_for"),
    # HTTP: the `Idempotency-Key` header, the play endpoints' authentication and long-poll parameters, fields.
    "IDEMPOTENCY_HEADER": ("tournaments.live.http.idempotent_views", "IDEMPOTENCY_HEADER"),
    "answer_once": ("tournaments.live.http.idempotent_views", "answer_once"),
    "PLAY_AUTHENTICATION_CLASSES": ("tournaments.live.http.views", "PLAY_AUTHENTICATION_CLASSES"),
    "PLAY_AUTH_SCHEMA": ("tournaments.live.http.views", "PLAY_AUTH_SCHEMA"),
    "EVENTS_PARAMETERS": ("tournaments.live.http.views", "EVENTS_PARAMETERS"),
    "max_wait_seconds": ("tournaments.live.http.views", "max_wait_seconds"),
    "PresetField": ("tournaments.live.http.schema_fields", "PresetField"),
    "MoveField": ("tournaments.live.moves.body", "MoveField"),
}

__all__ = [
    "CLOCK_OPTIONS",
    "EVENTS_PARAMETERS",
    "IDEMPOTENCY_HEADER",
    "MAX_BUY_IN",
    "MAX_MULTIPLIER",
    "MAX_PCR",
    "MIN_SEATS",
    "PLAY_AUTHENTICATION_CLASSES",
    "PLAY_AUTH_SCHEMA",
    "AfterRound",
    "MoveField",
    "PresetField",
    "RoundEnd",
    "StackedDeal",
    "TablePolicy",
    "answer_once",
    "cash_out",
    "clock_range",
    "clock_targets",
    "close_games",
    "current_round",
    "dispatch",
    "event_for",
    "fanout",
    "leave_table",
    "lock_game",
    "max_wait_seconds",
    "melded_values",
    "play_server_move",
    "rearm_clock_now_if_turn",
    "seat_guards",
    "seats_with_stacks",
    "selectors",
    "settle_state",
    "table_policy",
    "table_settings",
    "to_wallet",
    "wakeups",
    "went_out",
    "wind_down",
]


def __getattr__(name: str) -> Any:
    """A name of the face, imported on its first use and kept (PEP 562)."""
    try:
        module, attribute = _FACE[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    found = importlib.import_module(module)
    value = found if attribute is None else getattr(found, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_FACE})
